"""``CompiledProgram`` (what ``pypto.runtime.compile`` / ``ir.compile(...,
distributed_config=...)`` return) and the prepared runtime of
``compiled.prepare(...)``: upstream PyPTO's call shapes on the simulated
machine.

``compiled(a, b, f)`` runs the entry (the host orchestrator) once with the
arguments in its parameter order and writes Out / InOut results into the
caller's arrays; ``f = compiled(a, b)`` leaves trailing Out parameters off and
returns them ("return style"). ``with compiled.prepare(persistent=True) as rt:``
keeps the windows the host orchestrator allocates across ``rt(...)`` calls (a
C++ ``sim::Session``); ``reset_persistent_windows`` (default True, as upstream)
zeroes them between calls, ``False`` carries state from call to call, and
``rt.reset_persistent_windows()`` zeroes them on demand.
"""

from .. import _args, _core
from ..language._frontend import remap_error
from ..language._subworker import make_dispatcher
from . import _arrays
from ._config import RUN_OPTIONS, DistributedConfig, RunConfig

_BF16 = "pl.BF16]"


def _entry(program):
    fns = program.functions
    host = [f for f in fns if f["is_host_orchestrator"]]
    if host:
        return host[0]
    if len(fns) == 1:
        return fns[0]
    raise _args.ArgumentError(
        f"pypto.runtime.compile: program '{program.name}' has no host orchestrator "
        "(@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)) to call")


def _check_run_options(func, options):
    _args.options(func, options, list(RUN_OPTIONS))
    for name, value in options.items():
        if name in ("schedule", "trace_path", "timeline"):
            _args.string(func, value, name)
        elif name == "deadline_s":
            _args.number(func, value, name)
        elif name == "memory_limit":
            if value is not None and not isinstance(value, str):
                _args.integer(func, value, name, 0, 2**63 - 1)
        else:
            _args.boolean(func, value, name)
    return options


class CompiledProgram:
    """A program compiled for a world of ``len(device_ids)`` simulated ranks.

    ``program``: the lowered ``pypto.Program`` that runs; ``source_program``:
    the program as written; ``world_size``; ``output_dir`` is None (the
    simulator writes no artefacts)."""

    def __init__(self, source, program, config, options):
        self.source_program = source
        self.program = program
        self.config = config
        self.distributed_config = config.distributed_config or DistributedConfig(device_ids=[0])
        self.world_size = len(self.distributed_config.device_ids)
        self.output_dir = None
        self._options = {**config.run_options(), **options}
        self._entry = _entry(program)
        self._subworkers = dict(getattr(source, "_pypto_subworkers", None) or {})

    @property
    def entry_name(self):
        return self._entry["name"]

    @property
    def param_names(self):
        return [p["name"] for p in self._entry["params"]]

    def __repr__(self):
        return (f"<pypto.runtime.CompiledProgram {self.program.name}.{self.entry_name} on "
                f"{self.world_size} simulated rank(s)>")

    def __call__(self, *args, config=None, **options):
        """One run: ``compiled(a, b, f)`` (Out / InOut written in place) or
        ``f = compiled(a, b)`` (missing trailing Out parameters returned)."""
        return _call(self, None, self._subworkers, args, config, options, "compiled(...)")

    run = __call__

    def prepare(self, config=None, *, persistent=False, reset_persistent_windows=True,
                sub_worker_overrides=None, **options):
        """A runtime for repeated calls (a context manager). ``persistent=True``:
        windows persist across calls; ``reset_persistent_windows`` zeroes them
        between calls (default) or keeps their contents (``False``).
        ``sub_worker_overrides={name: fn}`` replaces HOST SubWorker functions."""
        func = "pypto.runtime.CompiledProgram.prepare"
        _args.boolean(func, persistent, "persistent")
        _args.boolean(func, reset_persistent_windows, "reset_persistent_windows")
        if config is not None and not isinstance(config, RunConfig):
            raise _args.ArgumentError(f"{func}: 'config' must be a RunConfig, got "
                                      f"{type(config).__name__}")
        _check_run_options(func, options)
        subworkers = dict(self._subworkers)
        if sub_worker_overrides:
            unknown = sorted(set(sub_worker_overrides) - set(subworkers))
            if unknown:
                known = ", ".join(sorted(subworkers)) or "none"
                raise _args.ArgumentError(
                    f"{func}: sub_worker_overrides names {', '.join(map(repr, unknown))}, which "
                    f"are not sub-workers of program '{self.program.name}' (its HOST SubWorker "
                    f"functions: {known})")
            subworkers.update(sub_worker_overrides)
        return Runtime(self, config, persistent, reset_persistent_windows, subworkers, options)


class Runtime:
    """``compiled.prepare(...)``: call it (``rt(a, b, f)`` / ``rt.run(...)``) any
    number of times; with ``persistent=True`` the windows live in one session."""

    def __init__(self, compiled, config, persistent, reset, subworkers, options):
        self.compiled = compiled
        self.persistent = persistent
        self._config = config
        self._subworkers = subworkers
        self._options = options
        self._session = None
        if persistent:
            opts = _merged(compiled, config, options, "prepare")
            self._session = _core.Session(compiled.program, compiled.world_size,
                                          reset_windows=reset,
                                          poison_nan=opts["poison_nan"],
                                          memory_limit=_memory_limit(opts["memory_limit"]))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self):
        """Releases the session's windows."""
        self._session = None

    @property
    def calls(self):
        """Calls made through a persistent runtime."""
        return self._session.runs if self._session is not None else 0

    def reset_persistent_windows(self):
        """Zeroes every persistent window now."""
        if self._session is not None:
            self._session.reset_windows()

    def __call__(self, *args, **options):
        _check_run_options("pypto.runtime.Runtime", options)
        merged = {**self._options, **options}
        return _call(self.compiled, self._session, self._subworkers, args, self._config,
                     merged, "rt(...)")

    run = __call__


def _memory_limit(value):
    from ..sim import DEFAULT_MEMORY_LIMIT
    if value is None:
        return DEFAULT_MEMORY_LIMIT
    if isinstance(value, str):
        return _core.parse_byte_size(value)
    return value


def _merged(compiled, config, options, what):
    opts = dict(compiled._options)
    if config is not None:
        if not isinstance(config, RunConfig):
            raise _args.ArgumentError(f"pypto.runtime: {what}: 'config' must be a RunConfig, "
                                      f"got {type(config).__name__}")
        opts.update({k: getattr(config, k) for k in config._given if k in RUN_OPTIONS})
    opts.update(options)
    return opts


def _call(compiled, session, subworkers, args, config, options, what):
    func = f"pypto.runtime: {what}"
    _check_run_options(func, options)
    opts = _merged(compiled, config, options, what)
    params = compiled._entry["params"]
    if len(args) > len(params):
        raise _args.ArgumentError(
            f"{func}: {len(args)} arguments for the {len(params)} parameters of "
            f"'{compiled.entry_name}' ({', '.join(compiled.param_names)})")
    missing = params[len(args):]
    not_out = [p["name"] for p in missing if p["direction"] != "Out"]
    if not_out:
        raise _args.ArgumentError(
            f"{func}: missing argument(s) {', '.join(map(repr, not_out))} of "
            f"'{compiled.entry_name}' ({', '.join(compiled.param_names)}); only trailing Out "
            "parameters may be left off (they are returned)")
    torch_caller = any(_arrays.is_torch(a) for a in args)
    inputs = {}
    for p, a in zip(params, args):
        if p["direction"] == "Out" and not _arrays.is_torch(a) and not hasattr(a, "__array__") \
                and not isinstance(a, (list, tuple)):
            raise _args.ArgumentError(f"{func}: Out argument '{p['name']}' must be an array, got "
                                      f"{type(a).__name__}")
        arr = _arrays.to_numpy(a, p)
        if p["type"].startswith("pl.Scalar"):
            arr = arr.reshape(())
        inputs[p["name"]] = arr
    bf16 = {p["name"] for p in params if p["type"].endswith(_BF16)}
    from ..sim import _from_bf16_bits, _to_bf16_bits
    bf16_inputs = {}
    for name in bf16 & set(inputs):
        inputs[name] = _to_bf16_bits(inputs[name])
        bf16_inputs[name] = True
    dispatch = make_dispatcher(subworkers, _arrays.converter(torch_caller)) if subworkers else None
    try:
        if session is not None:
            outputs, _ = session.run(inputs, schedule=opts["schedule"], entry=compiled.entry_name,
                                     deadline_s=float(opts["deadline_s"]),
                                     check_signals=opts["check_signals"],
                                     detect_races=opts["detect_races"],
                                     trace_path=opts["trace_path"], stats=opts["stats"],
                                     bf16_inputs=bf16_inputs, subworker=dispatch,
                                     timeline_path=opts["timeline"])
        else:
            outputs, _ = _core.run_program(
                compiled.program, compiled.world_size, inputs, opts["schedule"],
                entry=compiled.entry_name, deadline_s=float(opts["deadline_s"]),
                check_signals=opts["check_signals"], detect_races=opts["detect_races"],
                poison_nan=opts["poison_nan"], trace_path=opts["trace_path"],
                stats=opts["stats"], bf16_inputs=bf16_inputs,
                memory_limit=_memory_limit(opts["memory_limit"]), subworker=dispatch,
                timeline_path=opts["timeline"])
    except _core.PyptoError as e:
        new = remap_error(e, getattr(compiled.program, "_pypto_source_map", None))
        if hasattr(e, "exit_code"):
            new.exit_code = e.exit_code
        raise new from None
    for name in bf16 & set(outputs):
        outputs[name] = _from_bf16_bits(outputs[name])
    returned = []
    for i, p in enumerate(params):
        if p["name"] not in outputs:
            continue
        if i < len(args):
            if not _arrays.write_back(args[i], outputs[p["name"]]):
                returned.append(_arrays.like_caller(outputs[p["name"]], torch_caller))
        else:
            returned.append(_arrays.like_caller(outputs[p["name"]], torch_caller))
    if not returned:
        return None
    return returned[0] if len(returned) == 1 else tuple(returned)
