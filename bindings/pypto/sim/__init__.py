"""``pypto.sim``: run a program on P simulated ranks.

``run(program, ranks=P, inputs={name: ndarray}, schedule="parallel" | "random:SEED")``
returns the entry function's Out/InOut tensors as numpy arrays (host tensors are
world-shaped ``[P, ...]``). The program may be at any pipeline stage: before
lowering, collectives run as whole operations; after, as notify/wait/remote ops.
Failures (deadlock, race, out-of-bounds peer access, bad inputs) raise
``pypto.SimError`` whose message is the executor's report and whose ``exit_code``
is pypto-run's (1 user error, 2 usage error, 3 deadlock or race).
"""

from .. import _core
from ..language._frontend import remap_error


class RunResult(dict):
    """{name: ndarray} of the run's outputs; ``report`` holds the executor's report
    (statistics when ``stats=True``, warnings such as signal residue)."""

    report = ""


def run(program, ranks, inputs=None, schedule="parallel", *, entry="", deadline_s=30.0,
        check_signals=False, detect_races=False, poison_nan=False, trace_path="",
        stats=False, inputs_random=False, inputs_seed=0):
    """Runs ``program`` on ``ranks`` simulated ranks; returns a :class:`RunResult`.

    inputs: {parameter name: array-like} for the entry's input tensors/scalars.
    schedule: "parallel" (OS threads) or "random:SEED" (one logical thread at a time,
    seeded, replayable). detect_races / check_signals / poison_nan enable the
    executor's detectors; trace_path writes a Chrome trace; inputs_random fills
    missing inputs from inputs_seed."""
    try:
        outputs, report = _core.run_program(
            program, ranks=ranks, inputs=dict(inputs or {}), schedule=schedule, entry=entry,
            deadline_s=deadline_s, check_signals=check_signals, detect_races=detect_races,
            poison_nan=poison_nan, trace_path=trace_path, stats=stats,
            inputs_random=inputs_random, inputs_seed=inputs_seed)
    except _core.PyptoError as e:
        new = remap_error(e, getattr(program, "_pypto_source_map", None))
        if hasattr(e, "exit_code"):
            new.exit_code = e.exit_code
        raise new from None
    result = RunResult(outputs)
    result.report = report
    return result


__all__ = ["run", "RunResult"]
