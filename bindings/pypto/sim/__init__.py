"""``pypto.sim``: run a program on P simulated ranks.

``run(program, ranks=P, inputs={name: ndarray}, schedule="parallel" | "random:SEED")``
returns the entry function's Out/InOut tensors as numpy arrays (host tensors are
world-shaped ``[P, ...]``). The program may be at any pipeline stage: before
lowering, collectives run as whole operations; after, as notify/wait/remote ops.
Failures (deadlock, race, out-of-bounds peer access, bad inputs) raise
``pypto.SimError`` whose message is the executor's report and whose ``exit_code``
is pypto-run's (1 user error, 2 usage error, 3 deadlock or race). The program is
verified first (``pypto.VerifyError``, ``exit_code`` 1, as pypto-run). An
argument of the wrong type or range raises ``pypto.ArgumentError``. numpy has no
bfloat16: BF16 tensors are given as float arrays (rounded here) and returned as
float32. Arrays in a non-native byte order (``>f4``) are byte-swapped first.
Ctrl-C stops the run (all of its threads) and raises KeyboardInterrupt.
"""

import re

from .. import _args, _core
from ..language._frontend import remap_error

MAX_RANKS = _core.MAX_RANKS
DEFAULT_MEMORY_LIMIT = _core.DEFAULT_MEMORY_LIMIT

_BF16_PARAM = re.compile(r"pl\.BF16\]+$")


def _entry(program, entry):
    fns = program.functions
    if entry:
        return next((f for f in fns if f["name"] == entry), None)
    host = [f for f in fns if f["is_host_orchestrator"]]
    return host[0] if host else (fns[0] if len(fns) == 1 else None)


def _to_bf16_bits(a):
    """float array -> uint16 BF16 bit patterns (round to nearest even)."""
    import numpy as np
    f = np.ascontiguousarray(a, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    nan = np.isnan(f)
    out = rounded.astype(np.uint16)
    out[nan] = 0x7FC0
    return out


def _from_bf16_bits(a):
    import numpy as np
    return (np.asarray(a, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


class RunResult(dict):
    """{name: ndarray} of the run's outputs; ``report`` holds the executor's report
    (statistics when ``stats=True``, warnings such as signal residue)."""

    report = ""


def _check_arguments(program, ranks, inputs, schedule, entry, deadline_s, flags, trace_path,
                     timeline, inputs_seed, memory_limit, max_steps=0):
    func = "pypto.sim.run"
    _args.program(func, program)
    _args.integer(func, ranks, "ranks", 1, MAX_RANKS)
    if inputs is not None and not hasattr(inputs, "items"):
        raise _args.ArgumentError(f"{func}: 'inputs' must be a dict {{parameter name: array}}, "
                                  f"got {type(inputs).__name__}")
    for name in (inputs or {}):
        _args.string(func, name, "inputs key")
    _args.string(func, schedule, "schedule")
    _args.string(func, entry, "entry")
    _args.number(func, deadline_s, "deadline_s")
    for name, value in flags.items():
        _args.boolean(func, value, name)
    _args.string(func, trace_path, "trace_path")
    _args.string(func, timeline, "timeline")
    _args.integer(func, inputs_seed, "inputs_seed", 0, 2**64 - 1)
    _args.integer(func, max_steps, "max_steps", 0, 2**62)
    if isinstance(memory_limit, str):
        return _core.parse_byte_size(memory_limit)
    return _args.integer(func, memory_limit, "memory_limit", 0, 2**63 - 1)


def _subworker_dispatcher(program):
    """The Python functions of the program's HOST SubWorker functions, if any."""
    subworkers = getattr(program, "_pypto_subworkers", None)
    if not subworkers:
        return None
    from ..language._subworker import make_dispatcher
    return make_dispatcher(subworkers)


@_args.checked("pypto.sim.run")
def run(program, ranks, inputs=None, schedule="parallel", *, entry="", deadline_s=30.0,
        check_signals=False, detect_races=False, poison_nan=False, trace_path="",
        stats=False, inputs_random=False, inputs_seed=0, memory_limit=DEFAULT_MEMORY_LIMIT,
        timeline="", max_steps=0, check_alignment=False):
    """Runs ``program`` on ``ranks`` simulated ranks; returns a :class:`RunResult`.

    inputs: {parameter name: array-like} for the entry's input tensors/scalars.
    schedule: "parallel" (OS threads), "random:SEED" (one logical thread at a time,
    seeded, replayable) or "pct:SEED[:DEPTH[:STEPS]]" (one at a time, PCT priorities
    with DEPTH-1 change points; see docs/executor.md). max_steps (0 = no bound)
    bounds loop iterations plus switch points. detect_races / check_signals / poison_nan /
    check_alignment (a GM transfer not starting on a 32-byte boundary) enable the executor's
    detectors; trace_path writes a Chrome trace (streamed); timeline
    writes a self-contained HTML timeline of the run, also of a failed or
    deadlocked one (the exception is raised after it is written); inputs_random fills
    missing inputs from inputs_seed. BF16 parameters take float arrays (rounded to
    BF16) or uint16 bit patterns, and BF16 outputs come back as float32.
    memory_limit: bytes (or "4G"-style text, 0 / "none" = no limit) the run's windows
    (all ranks) and host tensors may take; a larger estimate is refused up front.
    Input names that are not parameters of the entry are an error."""
    memory_limit = _check_arguments(
        program, ranks, inputs, schedule, entry, deadline_s,
        dict(check_signals=check_signals, detect_races=detect_races, poison_nan=poison_nan,
             stats=stats, inputs_random=inputs_random, check_alignment=check_alignment),
        trace_path, timeline, inputs_seed,
        memory_limit, max_steps)
    try:
        _core.verify(program)
    except _core.PyptoError as e:
        new = remap_error(e, getattr(program, "_pypto_source_map", None))
        new.exit_code = 1
        raise new from None
    inputs = dict(inputs or {})
    fn = _entry(program, entry)
    bf16 = {p["name"] for p in (fn["params"] if fn else []) if _BF16_PARAM.search(p["type"])}
    for name in bf16 & set(inputs):
        a = inputs[name]
        if getattr(a, "dtype", None) is None or a.dtype.kind == "f":
            inputs[name] = _to_bf16_bits(a)
    try:
        outputs, report = _core.run_program(
            program, ranks=ranks, inputs=inputs, schedule=schedule, entry=entry,
            deadline_s=deadline_s, check_signals=check_signals, detect_races=detect_races,
            poison_nan=poison_nan, trace_path=trace_path, stats=stats,
            inputs_random=inputs_random, inputs_seed=inputs_seed,
            bf16_inputs={n: True for n in bf16 & set(inputs)}, memory_limit=memory_limit,
            verify=False, timeline_path=timeline, max_steps=max_steps,
            check_alignment=check_alignment, subworker=_subworker_dispatcher(program))
    except _core.PyptoError as e:
        new = remap_error(e, getattr(program, "_pypto_source_map", None))
        if hasattr(e, "exit_code"):
            new.exit_code = e.exit_code
        raise new from None
    for name in bf16 & set(outputs):
        outputs[name] = _from_bf16_bits(outputs[name])
    result = RunResult(outputs)
    result.report = report
    return result


__all__ = ["run", "RunResult", "MAX_RANKS", "DEFAULT_MEMORY_LIMIT"]
