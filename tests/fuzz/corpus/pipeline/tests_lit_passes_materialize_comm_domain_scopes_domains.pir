# materialize-comm-domain-scopes: device sets from dispatches (world_size loop,
# a world_size bound held in a Var, pl.range(N), pl.range(a, b), constants,
# unions, "all" winning a merge), a signal used only by a host collective
# inheriting its data window's domain, domains in allocation order as nested
# pld.comm_domain scopes (outer = first), every view and alias bound with
# "window_buffer=<name>". Idempotent; the output round-trips.
# RUN: pypto-opt %s --passes=materialize-comm-domain-scopes --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=materialize-comm-domain-scopes,materialize-comm-domain-scopes --verify-each --roundtrip-each | FileCheck %s
# CHECK-LABEL: def host_orch(
# CHECK-NEXT: with pld.comm_domain(name="comm_d0", devices=[], slots=["all_buf", "all_sbuf", "ws_buf", "mixed_buf"]):
# CHECK-NEXT: with pld.comm_domain(name="comm_d1", devices=[0, 1], slots=["two_buf", "two_sbuf"]):
# CHECK-NEXT: with pld.comm_domain(name="comm_d2", devices=[3], slots=["three_buf"]):
# CHECK-NEXT: with pld.comm_domain(name="comm_d3", devices=[1, 2], slots=["mid_buf"]):
# CHECK-NEXT: with pld.comm_domain(name="comm_d4", devices=[0, 2], slots=["pair_buf"]):
# CHECK-NEXT: all_buf: pl.Ptr = pld.tensor.alloc_window_buffer(4096)
# CHECK-NEXT: all: pld.DistributedTensor{{\[\[}}16, 64], pl.FP32, "window_buffer=all_buf"] = pld.tensor.window(all_buf, [16, 64], dtype=pl.FP32)
# CHECK: all_sig: pld.DistributedTensor{{\[\[}}NR, 1], pl.INT32, "window_buffer=all_sbuf"] = pld.tensor.window(all_sbuf, [NR, 1], dtype=pl.INT32)
# CHECK: two_sig: pld.DistributedTensor{{\[\[}}2, 1], pl.INT32, "window_buffer=two_sbuf"] = pld.tensor.window(two_sbuf, [2, 1], dtype=pl.INT32)
# CHECK: alias: pld.DistributedTensor{{\[\[}}16, 64], pl.FP32, "window_buffer=all_buf"] = all
# CHECK: res: pld.DistributedTensor{{\[\[}}16, 64], pl.FP32, "window_buffer=all_buf"] = pld.tensor.allreduce(alias, all_sig)
# CHECK-NEXT: two: pld.DistributedTensor{{\[\[}}16, 64], pl.FP32, "window_buffer=two_buf"] = pld.tensor.allreduce(two, two_sig)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Domains:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]):
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        all_buf = pld.tensor.alloc_window_buffer(4096)
        all = pld.tensor.window(all_buf, [16, 64], dtype=pl.FP32)
        all_sbuf = pld.tensor.alloc_window_buffer(64)
        all_sig = pld.tensor.window(all_sbuf, [NR, 1], dtype=pl.INT32)
        ws_buf = pld.tensor.alloc_window_buffer(4096)
        ws_view = pld.tensor.window(ws_buf, [16, 64], dtype=pl.FP32)
        mixed_buf = pld.tensor.alloc_window_buffer(4096)
        mixed = pld.tensor.window(mixed_buf, [16, 64], dtype=pl.FP32)
        two_buf = pld.tensor.alloc_window_buffer(4096)
        two = pld.tensor.window(two_buf, [16, 64], dtype=pl.FP32)
        two_sbuf = pld.tensor.alloc_window_buffer(64)
        two_sig = pld.tensor.window(two_sbuf, [2, 1], dtype=pl.INT32)
        three_buf = pld.tensor.alloc_window_buffer(4096)
        three = pld.tensor.window(three_buf, [16, 64], dtype=pl.FP32)
        mid_buf = pld.tensor.alloc_window_buffer(4096)
        mid = pld.tensor.window(mid_buf, [16, 64], dtype=pl.FP32)
        pair_buf = pld.tensor.alloc_window_buffer(4096)
        pair = pld.tensor.window(pair_buf, [16, 64], dtype=pl.FP32)
        alias = all
        for r in pl.range(pld.system.world_size()):
            self.chip(alias, device=r)
        ws = pld.system.world_size()
        for r in pl.range(ws):
            self.chip(ws_view, device=r)
        self.chip(mixed, device=1)
        for r in pl.range(pld.system.world_size()):
            self.chip(mixed, device=r)
        for r in pl.range(2):
            self.chip(two, device=r)
        self.chip(three, device=3)
        for r in pl.range(1, 3):
            self.chip(mid, device=r)
        self.chip(pair, device=2)
        self.chip(pair, device=0)
        res = pld.tensor.allreduce(alias, all_sig)
        two = pld.tensor.allreduce(two, two_sig)
