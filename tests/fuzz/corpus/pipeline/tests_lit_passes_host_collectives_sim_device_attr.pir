# pypto-run executes a host builtin.tensor.* call with attrs={"device": d} on
# device d only (one rendezvous participant per call); a device outside the
# comm domain of its windows is a run error naming the domain.
# RUN: %python %srcroot/tests/lit/sim/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 4 | FileCheck %s
# CHECK: sim_device_attr.pir:26:13: error: builtin.tensor.barrier: device=3 is not in the comm domain {0, 1} of its window operands
# CHECK: exit code 1
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class DeviceAttr:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, sig: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]]):
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        with pld.comm_domain(name="comm_d0", devices=[0, 1], slots=["sbuf"]):
            sbuf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
            sig: pld.DistributedTensor[[2, 1], pl.INT32, "window_buffer=sbuf"] = pld.tensor.window(sbuf, [2, 1], dtype=pl.INT32)
            for r in pl.range(2):
                self.chip(sig, device=r)
            pl.builtin.tensor.barrier(sig, attrs={"device": 0, "arg_directions": [pl.adir.inout]})
            pl.builtin.tensor.barrier(sig, attrs={"device": 1, "arg_directions": [pl.adir.inout]})
            pl.builtin.tensor.barrier(sig, attrs={"device": 3, "arg_directions": [pl.adir.inout]})
