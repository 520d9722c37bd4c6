"""``pypto.runtime``: upstream PyPTO's run surface on the simulated machine.

    from pypto import ir
    from pypto.runtime import DistributedConfig, RunConfig

    compiled = ir.compile(Prog, platform="a2a3sim",
                          distributed_config=DistributedConfig(device_ids=[0, 1, 2, 3]))
    compiled(x, y)                       # y (Out) written in place
    y = compiled(x)                      # or returned ("return style")
    with compiled.prepare(persistent=True, reset_persistent_windows=False) as rt:
        rt(x, y)                         # windows carry state from call to call

Each device of ``DistributedConfig.device_ids`` is one simulated rank of the
reference executor (:mod:`pypto.sim`). Arguments are numpy arrays, torch tensors
(when torch is installed; it is not a dependency) or anything ``numpy.asarray``
accepts; host tensors are world-shaped as the program declares them. HOST
SubWorker functions (``@pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)``)
run as Python between device dispatches; an exception they raise reaches the
caller as itself, with its traceback. See docs/runtime.md.
"""

from .. import _args
from ._compiled import CompiledProgram, Runtime
from ._config import PLATFORMS, RUN_OPTIONS, DistributedConfig, RunConfig

_COMPILE_OPTIONS = ("platform", "distributed_config", "config", "pipeline")


def compile(program, config=None, *, platform=None, distributed_config=None, pipeline="default",
            **options):
    """Compiles ``program`` (a ``@pl.program`` class or any pypto.Program) into a
    callable :class:`CompiledProgram`. ``config`` is a :class:`RunConfig`;
    ``platform`` / ``distributed_config`` (upstream's ``ir.compile`` keywords)
    override its fields. ``pipeline``: the pass pipeline run first ("default",
    a comma-separated list, or None to run the program as written). Our own
    executor options (schedule, detect_races, check_signals, poison_nan,
    deadline_s, stats, trace_path, memory_limit, timeline) are keywords; anything else is
    a pypto.ArgumentError naming it."""
    func = "pypto.runtime.compile"
    _args.program(func, program)
    from ._compiled import _check_run_options
    unknown = {k: v for k, v in options.items() if k not in RUN_OPTIONS}
    if unknown:
        _args.options(func, unknown, [*_COMPILE_OPTIONS, *RUN_OPTIONS])
    _check_run_options(func, options)
    if config is None:
        config = RunConfig()
    elif not isinstance(config, RunConfig):
        raise _args.ArgumentError(f"{func}: 'config' must be a RunConfig, got "
                                  f"{type(config).__name__}")
    if platform is not None or distributed_config is not None:
        given = {k: getattr(config, k) for k in config._given}
        if platform is not None:
            given["platform"] = platform
        if distributed_config is not None:
            given["distributed_config"] = distributed_config
        config = RunConfig(**given)
    lowered = program
    if pipeline is not None:
        from .. import ir
        lowered = ir.run_passes(program, _args.string(func, pipeline, "pipeline"))
    return CompiledProgram(program, lowered, config, options)


def run(program, *args, config=None, **options):
    """Compiles and runs once: ``run(Prog, a, b, f, config=RunConfig(...))``."""
    return compile(program, config, **options)(*args)


__all__ = ["DistributedConfig", "RunConfig", "CompiledProgram", "Runtime", "compile", "run",
           "PLATFORMS"]
