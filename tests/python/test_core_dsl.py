"""Core DSL forms written in decorated classes: loops (range/parallel/unroll with
init_values and yield_), if/else, while_/cond, scopes (pl.at, pl.spmd,
pl.split_aiv, pld.comm_domain) and upstream's short forms (pl.load/store/read/
write/add/sub/min/max) print as the canonical text and round-trip."""

import pytest

import pypto
from dsl_util import body_text, host_source, import_module, kernel_source, write_module

KERNEL_CASES = [
    ("range",
     "t = pl.load(src, [0, 0], [16, 64])\nfor i in pl.range(4):\n    pl.store(t, [0, 0], src)",
     "t: pl.Tile[[16, 64], pl.FP32] = pl.tile.load(src, [0, 0], [16, 64])\n"
     "for i in pl.range(4):\n    pl.tile.store(t, [0, 0], src)"),
    ("range_init_values_yield",
     "t = pl.load(src, [0, 0], [16, 64])\n"
     "for i, (acc,) in pl.range(4, init_values=(t,)):\n"
     "    nxt = pl.add(acc, t)\n    acc_out = pl.yield_(nxt)",
     "t: pl.Tile[[16, 64], pl.FP32] = pl.tile.load(src, [0, 0], [16, 64])\n"
     "for i, (acc,) in pl.range(4, init_values=(t,)):\n"
     "    nxt: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)\n"
     "    acc_out: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(nxt)"),
    ("parallel",
     "for i in pl.parallel(4):\n"
     "    pld.system.notify(signal, i, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)",
     "for i in pl.parallel(4):\n"
     "    pld.system.notify(signal, i, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)"),
    ("unroll",
     "for i in pl.unroll(2):\n"
     "    pld.system.notify(signal, i, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)",
     "for i in pl.unroll(2):\n"
     "    pld.system.notify(signal, i, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)"),
    ("if_else",
     "if peer == 0:\n"
     "    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.Set)\n"
     "else:\n"
     "    pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)",
     "if peer == 0:\n"
     "    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.Set)\n"
     "else:\n"
     "    pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)"),
    ("while",
     "for (x,) in pl.while_(init_values=(peer,)):\n"
     "    pl.cond(x < 10)\n    x_next = pl.yield_(x + 1)",
     "for (x,) in pl.while_(init_values=(peer,)):\n"
     "    pl.cond(x < 10)\n    x_next: pl.Scalar[pl.INT32] = pl.yield_(x + 1)"),
    ("split_aiv",
     "for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):\n"
     "    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.Set)",
     "for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):\n"
     "    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.Set)"),
    ("spmd",
     "with pl.spmd(4):\n    pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)",
     "with pl.spmd(4):\n    pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)"),
    ("scalar_min_max", "x = pl.min(peer, 3)\ny = pl.max(peer, 3)",
     "x: pl.Scalar[pl.INT32] = pl.min(peer, 3)\ny: pl.Scalar[pl.INT32] = pl.max(peer, 3)"),
    ("read_write", "v = pl.read(src, [0, 0])\npl.write(src, [0, 0], v)",
     "v: pl.Scalar[pl.FP32] = pl.tensor.read(src, [0, 0])\npl.tensor.write(src, [0, 0], v)"),
    ("tensor_add_sub", "a = pl.tensor.add(src, src)\nb = pl.sub(src, src)",
     "a: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.add(src, src)\n"
     "b: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.sub(src, src)"),
    ("system_fence", "pl.system.fence()", "pl.system.fence()"),
]

HOST_CASES = [
    ("at_scopes",
     "buf = pld.alloc_window_buffer(4096)\n"
     "data = pld.window(buf, [16, 64], dtype=pl.FP32)\n"
     "for r in pl.range(pld.world_size()):\n"
     "    with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator):\n"
     "        with pl.at(level=pl.Level.CORE_GROUP):\n"
     "            t = pl.load(data, [0, 0], [16, 64])\n"
     "            pl.store(t, [0, 0], data)",
     "buf: pl.Ptr = pld.tensor.alloc_window_buffer(4096)\n"
     "data: pld.DistributedTensor[[16, 64], pl.FP32] = "
     "pld.tensor.window(buf, [16, 64], dtype=pl.FP32)\n"
     "for r in pl.range(pld.system.world_size()):\n"
     "    with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator):\n"
     "        with pl.at(level=pl.Level.CORE_GROUP):\n"
     "            t: pl.Tile[[16, 64], pl.FP32] = pl.tile.load(data, [0, 0], [16, 64])\n"
     "            pl.tile.store(t, [0, 0], data)"),
    ("comm_domain",
     "with pld.comm_domain(devices=[0, 1], slots=[\"buf\"]):\n"
     "    buf = pld.alloc_window_buffer(4096)\n"
     "    data = pld.window(buf, [16, 64], dtype=pl.FP32)\n"
     "    for r in pl.range(2):\n"
     "        self.chip(data, device=r)",
     "with pld.comm_domain(devices=[0, 1], slots=[\"buf\"]):\n"
     "    buf: pl.Ptr = pld.tensor.alloc_window_buffer(4096)\n"
     "    data: pld.DistributedTensor[[16, 64], pl.FP32] = "
     "pld.tensor.window(buf, [16, 64], dtype=pl.FP32)\n"
     "    for r in pl.range(2):\n"
     "        self.chip(data, device=r)"),
]


def _check(tmp_path, source, func, expected):
    mod = import_module(write_module(tmp_path, source))
    printed = pypto.ir.python_print(mod.P)
    assert body_text(printed, func) == expected
    again = pypto.ir.parse(printed)
    assert pypto.ir.structural_equal(again, mod.P)
    assert pypto.ir.python_print(again) == printed


@pytest.mark.parametrize("case", KERNEL_CASES, ids=[c[0] for c in KERNEL_CASES])
def test_kernel_form(tmp_path, case):
    _check(tmp_path, kernel_source(case[1]), "k", case[2])


@pytest.mark.parametrize("case", HOST_CASES, ids=[c[0] for c in HOST_CASES])
def test_host_form(tmp_path, case):
    _check(tmp_path, host_source(case[1]), "host_orch", case[2])
