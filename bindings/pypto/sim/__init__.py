"""``pypto.sim``: run a program on P simulated ranks.

``run(program, ranks=P, inputs={name: ndarray}, schedule="parallel" | "random:SEED")``
returns the host orchestrator's tensors as numpy arrays. Failures (deadlock,
race, out-of-bounds peer access, bad inputs) raise ``pypto.SimError`` whose
message is the executor's report, mapped to the user's source lines.
"""

from .. import _core
from ..language._frontend import remap_error


def run(program, ranks, inputs=None, schedule="parallel", **options):
    """Runs ``program`` on ``ranks`` simulated ranks and returns {name: ndarray} of the
    host orchestrator's parameters after the run."""
    try:
        return _core.run_program(program, ranks=ranks, inputs=dict(inputs or {}),
                                 schedule=schedule, **options)
    except _core.PyptoError as e:
        raise remap_error(e, getattr(program, "_pypto_source_map", None)) from None


__all__ = ["run"]
