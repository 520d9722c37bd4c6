# Core tensor ops in canonical form (orchestration + host): deduced result types
# (views, strides, distributed kinds) and the x[r] subscript desugaring to
# pl.tensor.slice(..., [], [0]); print -> parse -> print is byte-identical.
# RUN: pypto-opt %s | FileCheck %s
# RUN: pypto-opt %s > %t.pir
# RUN: pypto-opt %t.pir | diff %t.pir -
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class CoreTensor:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[16, 64], pl.FP32], d: pld.DistributedTensor[[4, 64], pl.FP32], p: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(stride=[64, 1])]):
        # CHECK: t: pl.Tensor{{\[}}[16, 64], pl.FP32] = pl.tensor.create([16, 64], dtype=pl.FP32)
        t: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.create([16, 64], dtype=pl.FP32)
        # CHECK: u: pl.Tensor{{\[}}[16, 64], pl.FP16, pl.TensorView(layout=pl.TensorLayout.DN)] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.DN)
        u: pl.Tensor[[16, 64], pl.FP16, pl.TensorView(layout=pl.TensorLayout.DN)] = pl.tensor.create([16, 64], dtype=pl.FP16, layout=pl.TensorLayout.DN)
        # CHECK: s: pl.Tensor{{\[}}[16, 64], pl.FP32] = pl.tensor.add(x, t)
        s: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.add(x, t)
        # CHECK: s2: pl.Tensor{{\[}}[16, 64], pl.FP32] = pl.tensor.mul(s, 2.0)
        s2: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.mul(s, 2.0)
        # CHECK: s3: pl.Tensor{{\[}}[16, 64], pl.FP32] = pl.tensor.maximum(s2, x)
        s3: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.maximum(s2, x)
        # CHECK: c: pl.Tensor{{\[}}[16, 64], pl.BF16] = pl.tensor.cast(s3, target_type=pl.BF16)
        c: pl.Tensor[[16, 64], pl.BF16] = pl.tensor.cast(s3, target_type=pl.BF16)
        # CHECK: v: pl.Tensor{{\[}}[1, 1024], pl.FP32] = pl.tensor.view(x, [1, 1024])
        v: pl.Tensor[[1, 1024], pl.FP32] = pl.tensor.view(x, [1, 1024])
        # CHECK: v2: pl.Tensor{{\[}}[16, 64], pl.FP32, pl.TensorView(layout=pl.TensorLayout.DN, valid_shape=[16, 10])] = pl.tensor.view(x, [16, 64], [16, 10], layout=pl.TensorLayout.DN)
        v2: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(layout=pl.TensorLayout.DN, valid_shape=[16, 10])] = pl.tensor.view(x, [16, 64], [16, 10], layout=pl.TensorLayout.DN)
        # CHECK: dv: pld.DistributedTensor{{\[}}[256], pl.FP32] = pl.tensor.view(d, [256])
        dv: pld.DistributedTensor[[256], pl.FP32] = pl.tensor.view(d, [256])
        # Recorded strides equal to the packed ones reshape like no strides.
        # CHECK: pv: pl.Tensor{{\[}}[1, 1024], pl.FP32] = pl.tensor.view(p, [1, 1024])
        pv: pl.Tensor[[1, 1024], pl.FP32] = pl.tensor.view(p, [1, 1024])
        # CHECK: sl: pl.Tensor{{\[}}[8, 32], pl.FP32, pl.TensorView(stride=[64, 1])] = pl.tensor.slice(x, [8, 32], [8, 0])
        sl: pl.Tensor[[8, 32], pl.FP32, pl.TensorView(stride=[64, 1])] = pl.tensor.slice(x, [8, 32], [8, 0])
        # CHECK: sl2: pld.DistributedTensor{{\[}}[64], pl.FP32] = pl.tensor.slice(d, [1, 64], [2, 0], [], [0])
        sl2: pld.DistributedTensor[[64], pl.FP32] = pl.tensor.slice(d, [1, 64], [2, 0], [], [0])
        # CHECK: e: pl.Scalar[pl.FP32] = pl.tensor.read(x, [0, 1])
        e: pl.Scalar[pl.FP32] = pl.tensor.read(x, [0, 1])
        # CHECK: x2: pl.Tensor{{\[}}[16, 64], pl.FP32] = pl.tensor.write(x, [0, 1], e)
        x2: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.write(x, [0, 1], e)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 64], pl.FP32]):
        for r in pl.range(pld.system.world_size()):
            # CHECK: y: pl.Tensor{{\[}}[16, 64], pl.FP32] = pl.tensor.slice(x, [1, 16, 64], [r, 0, 0], [], [0])
            y = x[r]
            # CHECK: z: pl.Tensor{{\[}}[16, 64], pl.FP32] = pl.tensor.sub(y, y)
            z = pl.sub(y, y)
        return
