"""``DistributedConfig`` and ``RunConfig``: upstream PyPTO's run configuration,
with upstream's field names, for the simulated machine.

Each entry of ``DistributedConfig.device_ids`` is one simulated rank (logical
rank r is ``device_ids[r]``). Upstream fields that steer real hardware or its
toolchain (``block_dim``, ``aicpu_thread_num``, ``enable_pmu``, ...) are
accepted so upstream programs run unchanged, and have no effect on the
simulator. Options upstream has no counterpart for (``schedule``,
``detect_races``, ``check_signals``, ``poison_nan``, ``deadline_s``, ``stats``,
``trace_path``, ``memory_limit``, ``timeline``) are keywords of ours. An unknown option is a
:class:`pypto.ArgumentError` naming it.
"""

from .. import _args

_FUNC_DC = "pypto.runtime.DistributedConfig"
_FUNC_RC = "pypto.runtime.RunConfig"

# Upstream DistributedConfig fields besides device_ids (no effect here).
_DC_FIELDS = {"num_sub_workers": 0, "block_dim": None, "aicpu_thread_num": None}

# Upstream RunConfig fields (platform and distributed_config are used; the rest
# steer hardware, the toolchain or artefacts and have no effect here).
_RC_UPSTREAM = {
    "platform": "a2a3sim", "device_id": 0, "rtol": 1e-5, "atol": 1e-5, "strategy": None,
    "backend_type": None, "dump_passes": False, "save_kernels": False, "save_kernels_dir": None,
    "codegen_only": False, "pto_isa_commit": None, "enable_l2_swimlane": False,
    "enable_chip_swimlane": False, "enable_dump_tensor": 0, "enable_pmu": 0,
    "enable_dep_gen": False, "enable_scope_stats": False, "compile_profiling": False,
    "diagnostic_phase": None, "disabled_diagnostics": None, "golden_data_dir": None,
    "block_dim": None, "aicpu_thread_num": None, "ring_task_window": None, "ring_heap": None,
    "ring_dep_pool": None, "distributed_config": None, "analyze_auto_scopes_for_deps": False,
}
# Ours: how the simulated machine runs (see pypto.sim.run).
RUN_OPTIONS = {
    "schedule": "parallel", "detect_races": False, "check_signals": False, "poison_nan": False,
    "deadline_s": 30.0, "stats": False, "trace_path": "", "memory_limit": None,
    "timeline": "",
}
PLATFORMS = ("a2a3sim", "a2a3", "a5sim", "a5")


class DistributedConfig:
    """The devices of a distributed run: ``DistributedConfig(device_ids=[0, 1, 2, 3])``
    runs on 4 simulated ranks. ``device_ids`` must be non-empty, distinct and
    non-negative, as upstream checks."""

    def __init__(self, device_ids, **options):
        _args.options(_FUNC_DC, options, ["device_ids", *_DC_FIELDS])
        if isinstance(device_ids, (str, bytes)) or not hasattr(device_ids, "__iter__"):
            raise _args.ArgumentError(f"{_FUNC_DC}: 'device_ids' must be a list of ints, got "
                                      f"{type(device_ids).__name__} {device_ids!r}")
        ids = list(device_ids)
        if not ids:
            raise _args.ArgumentError(f"{_FUNC_DC}: 'device_ids' is empty; give at least one "
                                      "device (each device is one simulated rank)")
        for d in ids:
            if isinstance(d, bool) or not isinstance(d, int) or d < 0:
                raise _args.ArgumentError(f"{_FUNC_DC}: device id {d!r} must be a "
                                          "non-negative int")
        dup = sorted({d for d in ids if ids.count(d) > 1})
        if dup:
            raise _args.ArgumentError(f"{_FUNC_DC}: device ids must be distinct; "
                                      f"{', '.join(map(str, dup))} appear more than once")
        from ..sim import MAX_RANKS
        if len(ids) > MAX_RANKS:
            raise _args.ArgumentError(f"{_FUNC_DC}: {len(ids)} devices is more than the "
                                      f"simulator's {MAX_RANKS} ranks")
        self.device_ids = ids
        for name, default in _DC_FIELDS.items():
            setattr(self, name, options.get(name, default))

    @property
    def world_size(self):
        return len(self.device_ids)

    def __repr__(self):
        return f"DistributedConfig(device_ids={self.device_ids!r})"


class RunConfig:
    """How a compiled program runs: ``RunConfig(platform="a2a3sim",
    distributed_config=DistributedConfig(device_ids=[0, 1]))``. Every platform
    runs on the simulator. Our own options are keywords too:
    ``RunConfig(..., schedule="random:7", detect_races=True)``."""

    __test__ = False  # not a pytest test class

    def __init__(self, **options):
        _args.options(_FUNC_RC, options, [*_RC_UPSTREAM, *RUN_OPTIONS])
        for name, default in {**_RC_UPSTREAM, **RUN_OPTIONS}.items():
            setattr(self, name, options.get(name, default))
        if self.platform not in PLATFORMS:
            raise _args.ArgumentError(f"{_FUNC_RC}: invalid platform {self.platform!r}; "
                                      f"expected one of {', '.join(PLATFORMS)}")
        dc = self.distributed_config
        if dc is not None and not isinstance(dc, DistributedConfig):
            raise _args.ArgumentError(f"{_FUNC_RC}: 'distributed_config' must be a "
                                      f"DistributedConfig, got {type(dc).__name__}")
        self._given = set(options)

    def run_options(self):
        """Our executor keywords, as given or defaulted."""
        return {name: getattr(self, name) for name in RUN_OPTIONS}

    def __repr__(self):
        given = ", ".join(f"{n}={getattr(self, n)!r}" for n in sorted(self._given))
        return f"RunConfig({given})"
