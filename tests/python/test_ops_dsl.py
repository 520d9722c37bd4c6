"""Every pld op (and its short form) written in the DSL inside a decorated class:
accepted forms print as the canonical IR text (full op names, enums by name,
deduced annotations), and rejected forms raise ParseError/VerifyError whose
message names the USER'S file and line and the rule broken. Each case is written
to a real file and imported, exactly as a user's module is."""

import re

import pytest

import pypto
from dsl_util import (HOST_BODY_LINE, KERNEL_BODY_LINE, body_text, host_source, import_module,
                      kernel_source, write_module)

ACCEPTED_KERNEL = [
    ("notify",
     "pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.Set)",
     "pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.Set)"),
    ("notify_atomic_add",
     "pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)",
     "pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)"),
    ("wait", "pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Eq)",
     "pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Eq)"),
    ("defer_wait", "pld.system.defer_wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)",
     "pld.system.defer_wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)"),
    ("comm_ctx_rank_nranks_short",
     "ctx = pld.get_comm_ctx(dst)\nr = pld.rank(ctx)\nn = pld.nranks(ctx)",
     "ctx: pld.CommCtx = pld.system.get_comm_ctx(dst)\n"
     "r: pl.Scalar[pl.INT32] = pld.system.rank(ctx)\n"
     "n: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)"),
    ("comm_ctx_full_names",
     "ctx = pld.system.get_comm_ctx(dst)\nr = pld.system.rank(ctx)",
     "ctx: pld.CommCtx = pld.system.get_comm_ctx(dst)\n"
     "r: pl.Scalar[pl.INT32] = pld.system.rank(ctx)"),
    ("put_minimal", "pld.tensor.put(dst, peer, src)", "pld.tensor.put(dst, peer, src)"),
    ("put_full",
     "pld.tensor.put(dst, peer, src, [0, 0], [0, 0], [8, 64], atomic=pld.AtomicType.Add, "
     "chunk_rows=4, chunk_cols=64, pipeline=True)",
     "pld.tensor.put(dst, peer, src, [0, 0], [0, 0], [8, 64], atomic=pld.AtomicType.Add, "
     "chunk_rows=4, chunk_cols=64, pipeline=True)"),
    ("put_keywords", "pld.tensor.put(dst=dst, peer=peer, src=src)",
     "pld.tensor.put(dst, peer, src)"),
    ("get", "pld.tensor.get(src, peer, dst)", "pld.tensor.get(src, peer, dst)"),
    ("tensor_remote_store", "pld.tensor.remote_store(src, dst, peer, [0, 0])",
     "pld.tensor.remote_store(src, dst, peer, [0, 0])"),
    ("tile_remote_load_store",
     "t = pld.tile.remote_load(dst, peer, [0, 0], [16, 64])\n"
     "pld.tile.remote_store(t, dst, peer, [0, 0], atomic=pld.AtomicType.Add)",
     "t: pl.Tile[[16, 64], pl.FP32] = pld.tile.remote_load(dst, peer, [0, 0], [16, 64])\n"
     "pld.tile.remote_store(t, dst, peer, [0, 0], atomic=pld.AtomicType.Add)"),
    ("short_remote_load_store",
     "t = pld.remote_load(dst, peer, [0, 0], [16, 64])\n"
     "pld.remote_store(t, dst, peer, [0, 0])\n"
     "pld.remote_store(src, dst, peer, [0, 0])",
     "t: pl.Tile[[16, 64], pl.FP32] = pld.tile.remote_load(dst, peer, [0, 0], [16, 64])\n"
     "pld.tile.remote_store(t, dst, peer, [0, 0])\n"
     "pld.tensor.remote_store(src, dst, peer, [0, 0])"),
    ("allreduce", "out = pld.tensor.allreduce(dst, signal, op=pld.ReduceOp.Max)",
     "out: pld.DistributedTensor[[16, 64], pl.FP32] = "
     "pld.tensor.allreduce(dst, signal, op=pld.ReduceOp.Max)"),
    ("barrier", "b = pld.tensor.barrier(signal)",
     "b: pld.DistributedTensor[[NR, 1], pl.INT32] = pld.tensor.barrier(signal)"),
    ("broadcast", "b = pld.tensor.broadcast(dst, signal, root=0)",
     "b: pld.DistributedTensor[[16, 64], pl.FP32] = pld.tensor.broadcast(dst, signal, root=0)"),
    ("allgather", "b = pld.tensor.allgather(src, dst, signal)",
     "b: pld.DistributedTensor[[16, 64], pl.FP32] = pld.tensor.allgather(src, dst, signal)"),
    ("reduce_scatter", "b = pld.tensor.reduce_scatter(dst, signal, op=pld.ReduceOp.Sum)",
     "b: pld.DistributedTensor[[16, 64], pl.FP32] = "
     "pld.tensor.reduce_scatter(dst, signal, op=pld.ReduceOp.Sum)"),
    ("all_to_all", "b = pld.tensor.all_to_all(src, dst, signal)",
     "b: pld.DistributedTensor[[16, 64], pl.FP32] = pld.tensor.all_to_all(src, dst, signal)"),
]

ACCEPTED_HOST = [
    ("world_size", "n = pld.world_size()",
     "n: pl.Scalar[pl.INT64] = pld.system.world_size()"),
    ("alloc_window_dispatch",
     "buf = pld.alloc_window_buffer(16 * 64 * pl.FP32.get_byte())\n"
     "data = pld.window(buf, [16, 64], dtype=pl.FP32)\n"
     "for r in pl.range(pld.world_size()):\n"
     "    self.chip(data, device=r)",
     "buf: pl.Ptr = pld.tensor.alloc_window_buffer(16 * 64 * 4)\n"
     "data: pld.DistributedTensor[[16, 64], pl.FP32] = "
     "pld.tensor.window(buf, [16, 64], dtype=pl.FP32)\n"
     "for r in pl.range(pld.system.world_size()):\n"
     "    self.chip(data, device=r)"),
    ("alloc_shape_form_host_allreduce",
     "buf = pld.tensor.alloc_window_buffer([16, 64], dtype=pl.FP32)\n"
     "data = pld.tensor.window(buf, [16, 64], dtype=pl.FP32)\n"
     "out = pld.tensor.allreduce(data)",
     "buf: pl.Ptr = pld.tensor.alloc_window_buffer([16, 64], dtype=pl.FP32)\n"
     "data: pld.DistributedTensor[[16, 64], pl.FP32] = "
     "pld.tensor.window(buf, [16, 64], dtype=pl.FP32)\n"
     "out: pld.DistributedTensor[[16, 64], pl.FP32] = pld.tensor.allreduce(data)"),
]


@pytest.mark.parametrize("case", ACCEPTED_KERNEL, ids=[c[0] for c in ACCEPTED_KERNEL])
def test_kernel_op_accepted_and_printed(tmp_path, case):
    _, body, expected = case
    mod = import_module(write_module(tmp_path, kernel_source(body)))
    printed = pypto.ir.python_print(mod.P)
    assert body_text(printed, "k") == expected
    again = pypto.ir.parse(printed)  # printed text re-parses to the same program
    assert pypto.ir.structural_equal(again, mod.P)
    assert pypto.ir.python_print(again) == printed


@pytest.mark.parametrize("case", ACCEPTED_HOST, ids=[c[0] for c in ACCEPTED_HOST])
def test_host_op_accepted_and_printed(tmp_path, case):
    _, body, expected = case
    mod = import_module(write_module(tmp_path, host_source(body)))
    printed = pypto.ir.python_print(mod.P)
    assert body_text(printed, "host_orch") == expected
    again = pypto.ir.parse(printed)
    assert pypto.ir.structural_equal(again, mod.P)
    assert pypto.ir.python_print(again) == printed


# (id, template, body, exception, rule regex, line(s) the error may point at)
CALL = KERNEL_BODY_LINE
REJECTED = [
    ("notify_plain_tensor_target", "k",
     "pld.system.notify(src, peer, [0, 0], 1, op=pld.NotifyOp.Set)", pypto.ParseError,
     r"pld\.system\.notify: argument 'target' must be a pld\.DistributedTensor",
     {CALL}),
    ("notify_missing_op", "k", "pld.system.notify(signal, peer, [0, 0], 1)", pypto.ParseError,
     r"pld\.system\.notify: .*'op'", {CALL}),
    ("wait_wrong_arity", "k", "pld.system.wait(signal, [0, 0])", pypto.ParseError,
     r"pld\.system\.wait: ", {CALL}),
    ("put_plain_tensor_dst", "k", "pld.tensor.put(src, peer, src)", pypto.ParseError,
     r"pld\.tensor\.put: argument 'dst' must be a pld\.DistributedTensor",
     {CALL}),
    ("all_to_all_v_aliased_counts", "k",
     "b = pld.tensor.all_to_all_v(src, dst, signal, counts, counts)", pypto.ParseError,
     r"pld\.tensor\.all_to_all_v: argument 'recv_counts' is the same value as 'send_counts'",
     {CALL}),
    ("put_partial_region", "k", "pld.tensor.put(dst, peer, src, [0, 0])", pypto.ParseError,
     r"pld\.tensor\.put: dst_offsets, src_offsets and shape must be given all together "
     r"\(got 1 of the 3\)", {CALL}),
    ("reduce_op_out_of_range", "k", "pld.tensor.allreduce(dst, signal, op=7)",
     pypto.ParseError,
     r"pld\.tensor\.allreduce: keyword 'op' value 7 is out of range for pld\.ReduceOp", {CALL}),
    ("world_size_in_kernel", "k", "x = pld.world_size()", pypto.VerifyError,
     r"pld\.system\.world_size: only allowed in the host orchestrator", {CALL}),
    ("unknown_op", "k", "pld.system.signal_all(signal)", pypto.ParseError,
     r"pld\.system\.signal_all", {CALL}),
    ("alloc_not_assigned", "host", "pld.alloc_window_buffer(4096)", pypto.ParseError,
     r"alloc_window_buffer must be the right-hand side of a plain `name = \.\.\.` assignment",
     {HOST_BODY_LINE}),
    ("rank_in_host", "host",
     "buf = pld.alloc_window_buffer(4096)\ndata = pld.window(buf, [16, 64], dtype=pl.FP32)\n"
     "ctx = pld.get_comm_ctx(data)\nr = pld.rank(ctx)", pypto.VerifyError,
     r"pld\.system\.rank: only allowed in kernels", {HOST_BODY_LINE + 3}),
]


@pytest.mark.parametrize("case", REJECTED, ids=[c[0] for c in REJECTED])
def test_op_rejected_with_user_position(tmp_path, case):
    _, where, body, exc, rule, lines = case
    src = kernel_source(body) if where == "k" else host_source(body)
    path = write_module(tmp_path, src)
    with pytest.raises(exc) as info:
        import_module(path)
    msg = str(info.value)
    m = re.match(r"^(.*?):(\d+):(\d+): error: (.*)$", msg.split("\n")[0])
    assert m, msg
    assert m.group(1) == str(path)
    assert int(m.group(2)) in lines, msg
    assert re.search(rule, m.group(4)), msg
    # The rendered source line is the user's line, with a caret under the column.
    src_line = src.split("\n")[int(m.group(2)) - 1]
    assert msg.split("\n")[1] == src_line
    assert msg.split("\n")[2].index("^") == int(m.group(3)) - 1
    d = info.value.diagnostics[0]
    assert (d["file"], d["line"], d["col"]) == (str(path), int(m.group(2)), int(m.group(3)))
