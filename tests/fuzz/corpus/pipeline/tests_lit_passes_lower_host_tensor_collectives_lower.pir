# lower-host-tensor-collectives on already-materialized IR (the printed form
# of materialize-comm-domain-scopes parses, and the CommDomainScopesMaterialized
# property is detected on it): each host pld.tensor collective becomes one
# builtin.tensor.<op> dispatch per device of its comm domain — a
# pl.range(pld.system.world_size()) loop for all ranks, one statement per device
# for an explicit list — with dtype=, the pld kwargs (op spelled out), attrs
# device / arg_directions / kwarg copies; mode="ring" uses allreduce_ring; an
# assignment re-binds its Var to the window-as-result argument; a returned
# collective returns it. Idempotent (nothing left to lower).
# RUN: pypto-opt %s --passes=lower-host-tensor-collectives --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=lower-host-tensor-collectives,lower-host-tensor-collectives --verify-each --roundtrip-each | FileCheck %s
# CHECK-LABEL: def host_orch(
# CHECK: self.chip(data, psig, device=3)
# CHECK-NEXT: for r_1 in pl.range(pld.system.world_size()):
# CHECK-NEXT: pl.builtin.tensor.allreduce(data, sig, op=pld.ReduceOp.Sum, dtype=pl.FP32, attrs={"device": r_1, "arg_directions": [pl.adir.inout, pl.adir.inout], "op": pld.ReduceOp.Sum, "dtype": pl.FP32})
# CHECK-NEXT: res: pld.DistributedTensor{{\[\[}}4, 64], pl.FP32, "window_buffer=buf"] = data
# CHECK-NEXT: for r_2 in pl.range(pld.system.world_size()):
# CHECK-NEXT: pl.builtin.tensor.allreduce_ring(res, rsig, op=pld.ReduceOp.Sum, dtype=pl.FP32, attrs={"device": r_2, "arg_directions": [pl.adir.inout, pl.adir.inout], "op": pld.ReduceOp.Sum, "dtype": pl.FP32})
# CHECK-NEXT: for r_3 in pl.range(pld.system.world_size()):
# CHECK-NEXT: pl.builtin.tensor.reduce_scatter(res, sig, op=pld.ReduceOp.Sum, dtype=pl.FP32, attrs={"device": r_3, "arg_directions": [pl.adir.inout, pl.adir.inout], "op": pld.ReduceOp.Sum, "dtype": pl.FP32})
# CHECK-NEXT: for r_4 in pl.range(pld.system.world_size()):
# CHECK-NEXT: pl.builtin.tensor.all_to_all(res, tgt, sig, dtype=pl.FP32, attrs={"device": r_4, "arg_directions": [pl.adir.input, pl.adir.inout, pl.adir.inout], "dtype": pl.FP32})
# CHECK-NEXT: t2: pld.DistributedTensor{{\[\[}}4, 64], pl.FP32, "window_buffer=tgt_buf"] = tgt
# CHECK: pl.builtin.tensor.barrier(psig, attrs={"device": 1, "arg_directions": [pl.adir.inout]})
# CHECK-NEXT: pl.builtin.tensor.barrier(psig, attrs={"device": 3, "arg_directions": [pl.adir.inout]})
# CHECK-NEXT: for r_5 in pl.range(pld.system.world_size()):
# CHECK-NEXT: pl.builtin.tensor.broadcast(t2, sig, root=2, dtype=pl.FP32, attrs={"device": r_5, "arg_directions": [pl.adir.inout, pl.adir.inout], "root": 2, "dtype": pl.FP32})
# CHECK-NEXT: return t2
# CHECK-NOT: pld.tensor.allreduce(
# CHECK-NOT: pld.tensor.barrier(
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Lower:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, data: pl.InOut[pld.DistributedTensor[[4, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self) -> pld.DistributedTensor[[4, 64], pl.FP32]:
        with pld.comm_domain(name="comm_d0", devices=[], slots=["buf", "sbuf", "rbuf", "tgt_buf"]):
            with pld.comm_domain(name="comm_d1", devices=[1, 3], slots=["pbuf"]):
                buf: pl.Ptr = pld.tensor.alloc_window_buffer(4096)
                data: pld.DistributedTensor[[4, 64], pl.FP32, "window_buffer=buf"] = pld.tensor.window(buf, [4, 64], dtype=pl.FP32)
                sbuf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
                sig: pld.DistributedTensor[[4, 1], pl.INT32, "window_buffer=sbuf"] = pld.tensor.window(sbuf, [4, 1], dtype=pl.INT32)
                rbuf: pl.Ptr = pld.tensor.alloc_window_buffer(1024)
                rsig: pld.DistributedTensor[[7, 4], pl.INT32, "window_buffer=rbuf"] = pld.tensor.window(rbuf, [7, 4], dtype=pl.INT32)
                tgt_buf: pl.Ptr = pld.tensor.alloc_window_buffer(4096)
                tgt: pld.DistributedTensor[[4, 64], pl.FP32, "window_buffer=tgt_buf"] = pld.tensor.window(tgt_buf, [4, 64], dtype=pl.FP32)
                pbuf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
                psig: pld.DistributedTensor[[4, 1], pl.INT32, "window_buffer=pbuf"] = pld.tensor.window(pbuf, [4, 1], dtype=pl.INT32)
                for r in pl.range(pld.system.world_size()):
                    self.chip(data, sig, device=r)
                    self.chip(tgt, sig, device=r)
                self.chip(data, psig, device=1)
                self.chip(data, psig, device=3)
                res: pld.DistributedTensor[[4, 64], pl.FP32, "window_buffer=buf"] = pld.tensor.allreduce(data, sig)
                pld.tensor.allreduce(res, rsig, mode="ring")
                pld.tensor.reduce_scatter(res, sig)
                t2: pld.DistributedTensor[[4, 64], pl.FP32, "window_buffer=tgt_buf"] = pld.tensor.all_to_all(res, tgt, sig)
                pld.tensor.barrier(psig)
                return pld.tensor.broadcast(t2, sig, root=2)
