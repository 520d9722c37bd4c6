"""Upstream's L3 data-parallel GEMM (tests/st/distributed/l3_gemm.py and
test_l3_gemm.py) as the acceptance input: the program builder below is
upstream's text unchanged (a cube kernel GM -> Mat -> Left / Right -> matmul ->
Acc -> GM, a chip orchestration carrying an unused INT32 comm-anchor window on
P >= 2, a host orchestrator dispatching one chip task per rank). It must parse,
run at P = 1, 2 and 4 through pypto.runtime (before and after the default
pipeline) and compile to PTO that ptoas accepts. Upstream's GEMM + 2-rank
allreduce (the same kernel, then a notify / wait / remote_load reduce step on a
window) is the second input: P = 2, random schedules, races detected. Inputs are small integers, so
every FP32 product and sum is exact and the oracle (numpy's matmul) agrees bit
for bit."""

import importlib.util
import os
import subprocess

import numpy as np
import pytest

import pypto.language as pl
import pypto.language.distributed as pld
from pypto import ir
from pypto.ir.distributed_compiled_program import DistributedConfig

# ---- upstream's program, unchanged (tests/st/distributed/l3_gemm.py) ----------

M0 = 64
K = 64
N = 64


def make_cube_gemm(*, m0: int, k: int, n: int):
    """Return an InCore cube GEMM method: ``partial = a_shard @ b``."""

    @pl.function(type=pl.FunctionType.InCore)
    def gemm(
        self,
        a_shard: pl.Tensor[[m0, k], pl.FP32],
        b: pl.Tensor[[k, n], pl.FP32],
        c_shard: pl.Out[pl.Tensor[[m0, n], pl.FP32]],
    ) -> pl.Tensor[[m0, n], pl.FP32]:
        tile_a_l1 = pl.load(a_shard, offsets=[0, 0], shapes=[m0, k], target_memory=pl.MemorySpace.Mat)
        tile_b_l1 = pl.load(b, offsets=[0, 0], shapes=[k, n], target_memory=pl.MemorySpace.Mat)
        tile_a_l0a = pl.move(tile_a_l1, target_memory=pl.MemorySpace.Left)
        tile_b_l0b = pl.move(tile_b_l1, target_memory=pl.MemorySpace.Right)
        tile_c_l0c = pl.matmul(tile_a_l0a, tile_b_l0b)
        return pl.store(tile_c_l0c, offsets=[0, 0], output_tensor=c_shard)

    return gemm


def build_l3_gemm_program(*, nranks: int, m0: int = M0, k: int = K, n: int = N):
    """HOST orchestrator dispatches per-rank GEMM only (no collectives)."""

    if nranks < 1:
        raise ValueError(f"nranks must be >= 1, got {nranks}")

    a_shape = [nranks, m0, k]
    c_shape = [nranks, m0, n]
    gemm_fn = make_cube_gemm(m0=m0, k=k, n=n)

    if nranks == 1:

        @pl.program
        class L3GemmProgramP1:
            gemm = gemm_fn

            @pl.function(type=pl.FunctionType.Orchestration)
            def chip_orch(
                self,
                a_shard: pl.Tensor[[m0, k], pl.FP32],
                b: pl.Tensor[[k, n], pl.FP32],
                c_shard: pl.Out[pl.Tensor[[m0, n], pl.FP32]],
            ) -> pl.Tensor[[m0, n], pl.FP32]:
                return self.gemm(a_shard, b, c_shard)

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host_orch(
                self,
                a: pl.Tensor[a_shape, pl.FP32],  # type: ignore[valid-type]
                b: pl.Tensor[[k, n], pl.FP32],
                c: pl.Out[pl.Tensor[c_shape, pl.FP32]],  # type: ignore[valid-type]
            ) -> pl.Tensor[c_shape, pl.FP32]:  # type: ignore[valid-type]
                self.chip_orch(a[0], b, c[0], device=0)
                return c

        return L3GemmProgramP1

    @pl.program
    class L3GemmProgramPN:
        gemm = gemm_fn

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip_orch(
            self,
            a_shard: pl.Tensor[[m0, k], pl.FP32],
            b: pl.Tensor[[k, n], pl.FP32],
            c_shard: pl.Out[pl.Tensor[[m0, n], pl.FP32]],
            _scratch: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
        ) -> pl.Tensor[[m0, n], pl.FP32]:
            return self.gemm(a_shard, b, c_shard)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host_orch(
            self,
            a: pl.Tensor[a_shape, pl.FP32],  # type: ignore[valid-type]
            b: pl.Tensor[[k, n], pl.FP32],
            c: pl.Out[pl.Tensor[c_shape, pl.FP32]],  # type: ignore[valid-type]
        ) -> pl.Tensor[c_shape, pl.FP32]:  # type: ignore[valid-type]
            # Dummy 1x1 INT32 window (4 bytes) for CollectCommGroups; GEMM does not use it.
            scratch_buf = pld.alloc_window_buffer(4)
            scratch = pld.window(scratch_buf, [1, 1], dtype=pl.INT32)
            for r in pl.range(nranks):
                self.chip_orch(a[r], b, c[r], scratch, device=r)
            return c

    return L3GemmProgramPN

# ---- end of upstream's program ------------------------------------------------


# ---- upstream's GEMM + 2-rank allreduce (tests/st/distributed/test_l3_allreduce.py's
# make_reduce_step_2rank and l3_allreduce_gemm.py), unchanged ------------------


def make_reduce_step_2rank(*, m0: int, n: int):
    """4-phase peer allreduce InCore (single ``remote_load``; ``nranks=2``)."""

    @pl.function(type=pl.FunctionType.InCore)
    def reduce_step(
        self,
        inp: pl.Tensor[[m0, n], pl.FP32],
        out: pl.Out[pl.Tensor[[m0, n], pl.FP32]],
        data: pl.InOut[pld.DistributedTensor[[m0, n], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
        peer: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[m0, n], pl.FP32]:
        # Phase 1: stage-in — local input → this rank's window slice.
        local = pl.load(inp, [0, 0], [m0, n])
        _ = pl.store(local, [0, 0], data)

        # Phase 2: barrier — AtomicAdd the peer's signal cell, then
        # wait for ours to be bumped by the rank that targets us.
        pld.system.notify(
            signal,
            peer=peer,
            offsets=[0, 0],
            value=1,
            op=pld.NotifyOp.AtomicAdd,
        )
        pld.system.wait(
            signal=signal,
            offsets=[0, 0],
            expected=1,
            cmp=pld.WaitCmp.Ge,
        )

        # Phase 3: load my own slice, then add the peer's slice via remote_load.
        acc = pl.load(data, [0, 0], [m0, n])
        recv = pld.tile.remote_load(data, peer=peer, offsets=[0, 0], shape=[m0, n])
        acc = pl.add(acc, recv)

        # Phase 4: stage-out — reduced accumulator → local output.
        return pl.store(acc, [0, 0], out)

    return reduce_step


def build_l3_allreduce_gemm_program(*, nranks: int, m0: int = M0, k: int = K, n: int = N):
    """GEMM partial then 4-phase allreduce on window (2-rank peer pattern)."""

    if nranks != 2:
        raise ValueError(
            f"build_l3_allreduce_gemm_program currently requires nranks=2 (single peer read); got {nranks}"
        )

    # Window alloc is raw nbytes. FP32 == 4 bytes/element (pl.FP32); update if dtype changes.
    data_window_nbytes = m0 * n * 4
    # Single INT32 handshake cell (pl.INT32 == 4 bytes). No extra alignment beyond runtime default.
    signal_window_nbytes = 4

    a_shape = [nranks, m0, k]
    partial_shape = [nranks, m0, n]
    out_shape = [nranks, m0, n]

    gemm_fn = make_cube_gemm(m0=m0, k=k, n=n)
    reduce_step_fn = make_reduce_step_2rank(m0=m0, n=n)

    @pl.program
    class L3AllReduceGemmProgram:
        gemm = gemm_fn
        reduce_step = reduce_step_fn

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip_orch(
            self,
            a_shard: pl.Tensor[[m0, k], pl.FP32],
            b: pl.Tensor[[k, n], pl.FP32],
            partial: pl.InOut[pl.Tensor[[m0, n], pl.FP32]],
            out: pl.Out[pl.Tensor[[m0, n], pl.FP32]],
            data: pl.InOut[pld.DistributedTensor[[m0, n], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
            peer: pl.Scalar[pl.INT32],
        ) -> pl.Tensor[[m0, n], pl.FP32]:
            partial_out: pl.Tensor[[m0, n], pl.FP32] = self.gemm(a_shard, b, partial)
            return self.reduce_step(partial_out, out, data, signal, peer)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host_orch(
            self,
            a: pl.Tensor[a_shape, pl.FP32],  # type: ignore[valid-type]
            b: pl.Tensor[[k, n], pl.FP32],
            partials: pl.InOut[pl.Tensor[partial_shape, pl.FP32]],  # type: ignore[valid-type]
            outputs: pl.Out[pl.Tensor[out_shape, pl.FP32]],  # type: ignore[valid-type]
        ) -> pl.Tensor[out_shape, pl.FP32]:  # type: ignore[valid-type]
            data_buf = pld.alloc_window_buffer(data_window_nbytes)
            signal_buf = pld.alloc_window_buffer(signal_window_nbytes)

            data = pld.window(data_buf, [m0, n], dtype=pl.FP32)
            signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
            self.chip_orch(a[0], b, partials[0], outputs[0], data, signal, 1, device=0)
            self.chip_orch(a[1], b, partials[1], outputs[1], data, signal, 0, device=1)

            return outputs

    return L3AllReduceGemmProgram

# ---- end of upstream's programs -----------------------------------------------


def _inputs(nranks, m0=M0, k=K, n=N):
    # Integers in [-4, 4] and [-3, 3]: |sum| <= 64 * 12, exact in FP32.
    rng = np.random.default_rng(nranks)
    a = rng.integers(-4, 5, size=(nranks, m0, k)).astype(np.float32)
    b = rng.integers(-3, 4, size=(k, n)).astype(np.float32)
    return a, b


@pytest.mark.parametrize("nranks", [1, 2, 4])
@pytest.mark.parametrize("pipeline", ["default", None])
def test_l3_gemm_runs_against_numpy(nranks, pipeline):
    program = build_l3_gemm_program(nranks=nranks)
    compiled = ir.compile(program, pipeline=pipeline, platform="a2a3sim",
                          distributed_config=DistributedConfig(device_ids=list(range(nranks)),
                                                               num_sub_workers=0))
    a, b = _inputs(nranks)
    c = np.zeros((nranks, M0, N), dtype=np.float32)
    compiled(a, b, c)
    expected = np.stack([a[r] @ b for r in range(nranks)])
    assert np.array_equal(c, expected), np.abs(c - expected).max()


def test_l3_gemm_random_schedules_are_race_free():
    program = build_l3_gemm_program(nranks=2)
    a, b = _inputs(2)
    for seed in range(3):
        compiled = ir.compile(program, platform="a2a3sim",
                              distributed_config=DistributedConfig(device_ids=[0, 1]),
                              schedule=f"random:{seed}", detect_races=True, check_signals=True)
        c = np.zeros((2, M0, N), dtype=np.float32)
        compiled(a, b, c)
        assert np.array_equal(c, np.stack([a[0] @ b, a[1] @ b]))


def _ptoas():
    """ptoas found as the ptoas ctest tier finds it (tests/ptoas/ptoas_tier.py)."""
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    spec = importlib.util.spec_from_file_location("ptoas_tier",
                                                  os.path.join(root, "tests", "ptoas", "ptoas_tier.py"))
    tier = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tier)
    return tier.find_ptoas(root)


def test_l3_gemm_compiles_to_pto(tmp_path):
    lowered = ir.compile(build_l3_gemm_program(nranks=2))
    assert next(f for f in lowered.functions if f["name"] == "gemm")["type"] == "pl.FunctionType.AIC"
    modules = ir.emit_pto(lowered)
    assert list(modules) == ["gemm"]
    text = modules["gemm"]
    assert "pto.kernel_kind = #pto.kernel_kind<cube>" in text
    for line in ("pto.tload", "pto.tmov ins(%tile_a_l1", "pto.tmov ins(%tile_b_l1",
                 "pto.tmatmul ins(%tile_a_l0a, %tile_b_l0b", "pto.tstore ins(%tile_c_l0c"):
        assert line in text, line
    _assemble(modules, tmp_path)


def _assemble(modules, tmp_path):
    """ptoas, invoked as upstream does, accepts every module."""
    ptoas = _ptoas()
    if ptoas is None:
        pytest.skip("ptoas not found")
    for name, text in modules.items():
        src = tmp_path / f"{name}.pto"
        src.write_text(text)
        r = subprocess.run([ptoas, str(src), "-o", str(tmp_path / f"{name}.cpp"),
                            "--enable-insert-sync", "--pto-level=level3", "--pto-arch", "a3"],
                           capture_output=True, text=True)
        assert r.returncode == 0, f"{name}: {r.stderr}"


@pytest.mark.parametrize("pipeline", ["default", None])
def test_l3_allreduce_gemm_runs_against_numpy(pipeline):
    # Every rank ends with sum_r A[r] @ B; the partials hold each rank's own product.
    # (Its one-shot handshake leaves the signal cells at 1, so no --check-signals.)
    program = build_l3_allreduce_gemm_program(nranks=2)
    a, b = _inputs(2)
    want = a[0] @ b + a[1] @ b
    for schedule in ("parallel", "random:1", "random:2"):
        compiled = ir.compile(program, pipeline=pipeline, platform="a2a3sim",
                              distributed_config=DistributedConfig(device_ids=[0, 1]),
                              schedule=schedule, detect_races=True)
        partials = np.zeros((2, M0, N), dtype=np.float32)
        outputs = np.zeros((2, M0, N), dtype=np.float32)
        compiled(a, b, partials, outputs)
        assert np.array_equal(partials, np.stack([a[0] @ b, a[1] @ b])), schedule
        assert np.array_equal(outputs, np.stack([want, want])), schedule


def test_l3_allreduce_gemm_places_each_kernel_on_its_core(tmp_path):
    lowered = ir.compile(build_l3_allreduce_gemm_program(nranks=2))
    types = {f["name"]: f["type"] for f in lowered.functions}
    assert types["gemm"] == "pl.FunctionType.AIC"
    assert types["reduce_step"] == "pl.FunctionType.AIV"  # remote_load SHARED, notify/wait SHARED
    modules = ir.emit_pto(lowered)
    assert sorted(modules) == ["gemm", "reduce_step"]
    assert "#pto.kernel_kind<vector>" in modules["reduce_step"]
    _assemble(modules, tmp_path)
