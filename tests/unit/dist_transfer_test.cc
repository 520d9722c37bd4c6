// Verifier rules of the pld data-movement ops: pld.tile.remote_load, the two
// remote_store forms, pld.tensor.put/get and the internal pld.tile.put/get.
// Each negative case asserts the exact diagnostic and the argument it points at.
#include "dist_test_util.h"
#include "pypto/ir/comm.h"

using namespace dist_test;

static AttrList Atomic(int v) { return {Fx::KEnum("atomic", EnumKind::kAtomicType, v)}; }

TEST_CASE("remote_load result type", "[dist][remote_load]") {
  Fx f;
  const Var* peer = f.V("peer", f.Sc());
  const Var* win = f.V("w", f.Dist({64, 128}, DataType::kFP32));
  const Call* c = f.Mk("pld.tile.remote_load", {win, peer, f.T({0, 0}), f.T({16, 128})});
  Accepts(f, c);
  CHECK(f.Ty(c->type) == "pl.Tile[[16, 128], pl.FP32]");
  const auto* tile = As<TileType>(c->type);
  REQUIRE(tile);
  CHECK_FALSE(tile->memory_space.has_value());  // memory space left to inference
  CHECK_FALSE(tile->view.has_value());

  // DN -> col_major block layout.
  TensorView dn;
  dn.layout = TensorLayout::kDN;
  const Var* dwin = f.V("dw", f.Dist({64, 128}, DataType::kFP32, dn));
  c = f.Mk("pld.tile.remote_load", {dwin, peer, f.T({0, 0}), f.T({16, 128})});
  Accepts(f, c);
  REQUIRE(As<TileType>(c->type)->view);
  CHECK(As<TileType>(c->type)->view->blayout == TileLayout::kColMajor);

  // Explicit valid_shape limits the tile's valid extent.
  c = f.Mk("pld.tile.remote_load", {win, peer, f.T({0, 0}), f.T({16, 128}), f.T({4, 100})});
  Accepts(f, c);
  CHECK(ShapeStr(As<TileType>(c->type)->view->valid_shape) == "[4, 100]");

  // Intersection with the source's valid region: rows 8.. of a [10, 128]-valid window.
  TensorView part;
  part.valid_shape = f.S({10, 128});
  const Var* pwin = f.V("pw", f.Dist({64, 128}, DataType::kFP32, part));
  c = f.Mk("pld.tile.remote_load", {pwin, peer, f.T({8, 0}), f.T({16, 128})});
  Accepts(f, c);
  CHECK(ShapeStr(As<TileType>(c->type)->view->valid_shape) == "[2, 128]");

  // Symbolic source valid extent: min(request, valid - offset).
  const Var* m = f.V("M", f.Sc(DataType::kIndex));
  const Var* i = f.V("i", f.Sc(DataType::kIndex));
  TensorView sym;
  sym.valid_shape = {m, f.ctx.Int(128)};
  const Var* swin = f.V("sw", f.Dist({64, 128}, DataType::kFP32, sym));
  c = f.Mk("pld.tile.remote_load", {swin, peer, f.TE({i, f.ctx.Int(0)}), f.T({16, 128})});
  Accepts(f, c);
  const Expr* rows = As<TileType>(c->type)->view->valid_shape[0];
  REQUIRE(As<BinaryExpr>(rows));
  CHECK(As<BinaryExpr>(rows)->op == BinaryOp::kMin);
}

TEST_CASE("remote_load verifier", "[dist][remote_load]") {
  Fx f;
  const Var* peer = f.V("peer", f.Sc());
  const Var* win = f.V("w", f.Dist({64, 128}, DataType::kFP32));
  const MakeTuple* off1 = f.T({0});
  RejectsAt(f, f.Mk("pld.tile.remote_load", {win, peer, off1, f.T({16, 128})}), off1,
            "pld.tile.remote_load: argument 'offsets' must have 2 elements (one per dimension of "
            "'target'), got 1");
  const MakeTuple* shp3 = f.T({1, 16, 128});
  RejectsAt(f, f.Mk("pld.tile.remote_load", {win, peer, f.T({0, 0}), shp3}), shp3,
            "pld.tile.remote_load: argument 'shape' must have 2 elements (one per dimension of "
            "'target'), got 3");
  const MakeTuple* vs1 = f.T({16});
  RejectsAt(f, f.Mk("pld.tile.remote_load", {win, peer, f.T({0, 0}), f.T({16, 128}), vs1}), vs1,
            "pld.tile.remote_load: argument 'valid_shape' must have 2 elements (one per dimension "
            "of 'target'), got 1");
  const Var* tp = f.V("tp", f.Tensor({1}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.tile.remote_load", {win, tp, f.T({0, 0}), f.T({16, 128})}), tp,
            "pld.tile.remote_load: argument 'peer' must be an integer pl.Scalar rank index (e.g. "
            "pl.Scalar[pl.INT32]), got pl.Tensor[[1], pl.INT32]");
  const MakeTuple* zero = f.T({16, 0});
  RejectsAt(f, f.Mk("pld.tile.remote_load", {win, peer, f.T({0, 0}), zero}), zero,
            "pld.tile.remote_load: argument 'shape' element 1 is 0; tile dimensions must be "
            "positive");
  const MakeTuple* neg = f.T({-1, 0});
  RejectsAt(f, f.Mk("pld.tile.remote_load", {win, peer, neg, f.T({16, 128})}), neg,
            "pld.tile.remote_load: argument 'offsets' element 0 is negative (-1); offsets must be "
            "non-negative");
  const MakeTuple* big = f.T({20, 128});
  RejectsAt(f, f.Mk("pld.tile.remote_load", {win, peer, f.T({0, 0}), f.T({16, 128}), big}), big,
            "pld.tile.remote_load: argument 'valid_shape' element 0 is 20, larger than the tile's "
            "dim 0 (16); a valid extent must lie within the tile shape");
  const MakeTuple* tail = f.T({16, 128});
  RejectsAt(f, f.Mk("pld.tile.remote_load", {win, peer, f.T({56, 0}), tail}), tail,
            "pld.tile.remote_load: argument 'shape' reads past 'target' in dim 0 (56 + 16 > 64, "
            "target shape [64, 128]); pass a valid_shape that stops at the tensor's edge");
  // The ragged-tail form: physical tile 16 rows, valid 8.
  Accepts(f,
          f.Mk("pld.tile.remote_load", {win, peer, f.T({56, 0}), f.T({16, 128}), f.T({8, 128})}));
  const MakeTuple* vtail = f.T({12, 128});
  RejectsAt(f, f.Mk("pld.tile.remote_load", {win, peer, f.T({56, 0}), f.T({16, 128}), vtail}),
            vtail,
            "pld.tile.remote_load: argument 'valid_shape' reads past 'target' in dim 0 (56 + 12 > "
            "64, target shape [64, 128]); pass a valid_shape that stops at the tensor's edge");
  Rejects(f,
          f.Mk("pld.tile.remote_load", {win, peer, f.T({0, 0}), f.T({16, 128})},
               {Fx::KBool("allow_physical_tail_padding", true)}),
          "pld.tile.remote_load: keyword 'allow_physical_tail_padding' is only valid for FP16 "
          "rank-2 targets (the allreduce tail read rounds to 32 bytes)");
  const Var* hwin = f.V("hw", f.Dist({64, 128}, DataType::kFP16));
  Accepts(f, f.Mk("pld.tile.remote_load", {hwin, peer, f.T({0, 0}), f.T({16, 128})},
                  {Fx::KBool("allow_physical_tail_padding", true)}));
}

TEST_CASE("remote_store: source level names the sibling entry point", "[dist][remote_store]") {
  Fx f;
  const Var* peer = f.V("peer", f.Sc());
  const Var* win = f.V("w", f.Dist({64, 64}, DataType::kFP32));
  const Var* tile = f.V("t", f.Tile({16, 64}, DataType::kFP32));
  const Var* tens = f.V("x", f.Tensor({16, 64}, DataType::kFP32));
  const Call* c = f.Mk("pld.tile.remote_store", {tile, win, peer, f.T({0, 0})});
  Accepts(f, c);
  CHECK(Isa<UnknownType>(c->type));
  Accepts(f, f.Mk("pld.tensor.remote_store", {tens, win, peer, f.T({16, 0})}));
  RejectsAt(f, f.Mk("pld.tile.remote_store", {tens, win, peer, f.T({0, 0})}), tens,
            "pld.tile.remote_store: argument 'src_tile' must be a pl.Tile, got pl.Tensor[[16, 64], "
            "pl.FP32]; to push a tensor-level value use pld.tensor.remote_store");
  RejectsAt(f, f.Mk("pld.tensor.remote_store", {tile, win, peer, f.T({0, 0})}), tile,
            "pld.tensor.remote_store: argument 'src' must be a pl.Tensor, got pl.Tile[[16, 64], "
            "pl.FP32, pl.Mem.Vec]; to push a tile use pld.tile.remote_store");
}

TEST_CASE("remote_store verifier", "[dist][remote_store]") {
  Fx f;
  const Var* peer = f.V("peer", f.Sc());
  const Var* win = f.V("w", f.Dist({32, 64}, DataType::kFP32));
  const Var* mat = f.V("m", f.Tile({16, 64}, DataType::kFP32, MemorySpace::kMat));
  RejectsAt(f, f.Mk("pld.tile.remote_store", {mat, win, peer, f.T({0, 0})}), mat,
            "pld.tile.remote_store: argument 'src_tile' is in pl.Mem.Mat; remote_store reads its "
            "tile from pl.Mem.Vec or pl.Mem.Acc");
  const Var* acc = f.V("a", f.Tile({16, 64}, DataType::kFP32, MemorySpace::kAcc));
  Accepts(f, f.Mk("pld.tile.remote_store", {acc, win, peer, f.T({0, 0})}));
  const Var* h = f.V("h", f.Tile({16, 64}, DataType::kFP16));
  RejectsAt(f, f.Mk("pld.tile.remote_store", {h, win, peer, f.T({0, 0})}), h,
            "pld.tile.remote_store: argument 'src_tile' has element type pl.FP16 but 'target' has "
            "pl.FP32; remote_store does not convert");
  const Var* w1 = f.V("w1", f.Dist({64}, DataType::kFP32));
  const Var* t2 = f.V("t2", f.Tile({1, 64}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tile.remote_store", {t2, w1, peer, f.T({0})}), w1,
            "pld.tile.remote_store: argument 'target' has rank 1; remote_store needs a target of "
            "rank >= 2 (the push lands on its inner two dims)");
  const Var* t1 = f.V("t1", f.Tile({64}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tile.remote_store", {t1, win, peer, f.T({0, 0})}), t1,
            "pld.tile.remote_store: argument 'src_tile' has shape [64]; remote_store needs a 2-D "
            "source (or N-D with every leading dim 1)");
  const Var* t3 = f.V("t3", f.Tile({2, 16, 64}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tile.remote_store", {t3, win, peer, f.T({0, 0})}), t3,
            "pld.tile.remote_store: argument 'src_tile' has shape [2, 16, 64] with leading dim 0 = "
            "2; an N-D source must have every leading dim 1 (a larger extent would fold into the "
            "row count and overrun the target)");
  const Var* t31 = f.V("t31", f.Tile({1, 16, 64}, DataType::kFP32));
  Accepts(f, f.Mk("pld.tile.remote_store", {t31, win, peer, f.T({16, 0})}));
  const Var* tile = f.V("t", f.Tile({16, 64}, DataType::kFP32));
  const MakeTuple* over = f.T({24, 0});
  RejectsAt(f, f.Mk("pld.tile.remote_store", {tile, win, peer, over}), over,
            "pld.tile.remote_store: argument 'offsets' places the pushed [16, 64] region outside "
            "'target' [32, 64] in dim 0 (24 + 16 > 32); the region must fit inside the peer's "
            "slice");
  const MakeTuple* overc = f.T({0, 8});
  RejectsAt(f, f.Mk("pld.tile.remote_store", {tile, win, peer, overc}), overc,
            "pld.tile.remote_store: argument 'offsets' places the pushed [16, 64] region outside "
            "'target' [32, 64] in dim 1 (8 + 64 > 64); the region must fit inside the peer's "
            "slice");
  // N-D target: the 2-D push lands on the inner two dims; leading dims take extent 1.
  const Var* w3 = f.V("w3", f.Dist({4, 32, 64}, DataType::kFP32));
  Accepts(f, f.Mk("pld.tile.remote_store", {tile, w3, peer, f.T({3, 16, 0})}));
  const MakeTuple* lead = f.T({4, 0, 0});
  RejectsAt(f, f.Mk("pld.tile.remote_store", {tile, w3, peer, lead}), lead,
            "pld.tile.remote_store: argument 'offsets' places the pushed [16, 64] region outside "
            "'target' [4, 32, 64] in dim 0 (4 + 1 > 4); the region must fit inside the peer's "
            "slice");
  const MakeTuple* off3 = f.T({0, 0, 0});
  RejectsAt(f, f.Mk("pld.tile.remote_store", {tile, win, peer, off3}), off3,
            "pld.tile.remote_store: argument 'offsets' must have 2 elements (one per dimension of "
            "'target'), got 3");
  const Var* fp = f.V("fp", f.Sc(DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tile.remote_store", {tile, win, fp, f.T({0, 0})}), fp,
            "pld.tile.remote_store: argument 'peer' must be an integer pl.Scalar rank index (e.g. "
            "pl.Scalar[pl.INT32]), got pl.Scalar[pl.FP32]");
}

TEST_CASE("remote_store atomic-add dtype allow-list and BF16 target rule", "[dist][atomic]") {
  Fx f;
  const Var* peer = f.V("peer", f.Sc());
  for (DataType dt : {DataType::kFP32, DataType::kFP16, DataType::kBF16, DataType::kInt32,
                      DataType::kInt16, DataType::kInt8}) {
    INFO(DTypeName(dt));
    const Var* w = f.V("w", f.Dist({16, 16}, dt));
    const Var* t = f.V("t", f.Tile({16, 16}, dt));
    Accepts(f, f.Mk("pld.tile.remote_store", {t, w, peer, f.T({0, 0})}, Atomic(1)));
  }
  const Var* w64 = f.V("w64", f.Dist({16, 16}, DataType::kInt64));
  const Var* t64 = f.V("t64", f.Tile({16, 16}, DataType::kInt64));
  RejectsAt(f, f.Mk("pld.tile.remote_store", {t64, w64, peer, f.T({0, 0})}, Atomic(1)), w64,
            "pld.tile.remote_store: argument 'target' has element type pl.INT64, which has no "
            "hardware atomic add; atomic=pld.AtomicType.Add requires FP32, BF16, FP16, INT32, "
            "INT16 or INT8 (or use atomic=pld.AtomicType.None_)");
  Accepts(f, f.Mk("pld.tile.remote_store", {t64, w64, peer, f.T({0, 0})}, Atomic(0)));
  const Var* x64 = f.V("x64", f.Tensor({16, 16}, DataType::kUInt8));
  const Var* wu8 = f.V("wu8", f.Dist({16, 16}, DataType::kUInt8));
  RejectsAt(f, f.Mk("pld.tensor.remote_store", {x64, wu8, peer, f.T({0, 0})}, Atomic(1)), wu8,
            "pld.tensor.remote_store: argument 'target' has element type pl.UINT8, which has no "
            "hardware atomic add; atomic=pld.AtomicType.Add requires FP32, BF16, FP16, INT32, "
            "INT16 or INT8 (or use atomic=pld.AtomicType.None_)");
  f.ctx.target_arch = "a5";
  const Var* wb = f.V("wb", f.Dist({16, 16}, DataType::kBF16));
  const Var* tb = f.V("tb", f.Tile({16, 16}, DataType::kBF16));
  RejectsAt(f, f.Mk("pld.tile.remote_store", {tb, wb, peer, f.T({0, 0})}, Atomic(1)), wb,
            "pld.tile.remote_store: argument 'target' has element type pl.BF16, and "
            "atomic=pld.AtomicType.Add on BF16 is only supported on the a2a3 (Ascend910B) target, "
            "not 'a5'; use FP32/FP16 data or atomic=pld.AtomicType.None_");
  Accepts(f, f.Mk("pld.tile.remote_store", {tb, wb, peer, f.T({0, 0})}, Atomic(0)));
  Rejects(f, f.Mk("pld.tile.remote_store", {tb, wb, peer, f.T({0, 0})}, {Fx::KInt("atomic", 2)}),
          "pld.tile.remote_store: keyword 'atomic' value 2 is out of range for pld.AtomicType "
          "(pld.AtomicType.None_=0, pld.AtomicType.Add=1)");
}

TEST_CASE("put/get kwargs: chunks and pipeline", "[dist][putget]") {
  Fx f;
  const Var* peer = f.V("peer", f.Sc());
  const Var* win = f.V("w", f.Dist({64, 128}, DataType::kFP32));
  const Var* x = f.V("x", f.Tensor({64, 128}, DataType::kFP32));
  AttrList both = {Fx::KInt("chunk_rows", 16), Fx::KInt("chunk_cols", 64),
                   Fx::KBool("pipeline", true)};
  Accepts(f, f.Mk("pld.tensor.put", {win, peer, x}, both));
  Accepts(f, f.Mk("pld.tensor.get", {x, peer, win}, both));
  Rejects(f, f.Mk("pld.tensor.put", {win, peer, x}, {Fx::KInt("chunk_rows", -1)}),
          "pld.tensor.put: keyword 'chunk_rows' is -1; chunk sizes must be non-negative (0 = the "
          "full transfer extent)");
  Rejects(f, f.Mk("pld.tensor.get", {x, peer, win}, {Fx::KInt("chunk_cols", -8)}),
          "pld.tensor.get: keyword 'chunk_cols' is -8; chunk sizes must be non-negative (0 = the "
          "full transfer extent)");
  Rejects(f, f.Mk("pld.tensor.put", {win, peer, x}, {Fx::KBool("pipeline", true)}),
          "pld.tensor.put: keyword 'pipeline' requires both chunk_rows and chunk_cols to be set "
          "(> 0); double-buffering only helps a chunked transfer");
  Rejects(f,
          f.Mk("pld.tensor.get", {x, peer, win},
               {Fx::KInt("chunk_rows", 8), Fx::KBool("pipeline", true)}),
          "pld.tensor.get: keyword 'pipeline' requires both chunk_rows and chunk_cols to be set "
          "(> 0); double-buffering only helps a chunked transfer");
  Rejects(f, f.Mk("pld.tensor.get", {x, peer, win}, Atomic(0)),
          "pld.tensor.get: unknown keyword argument 'atomic' (expected one of: chunk_rows, "
          "chunk_cols, pipeline)");
}

TEST_CASE("put/get operand agreement", "[dist][putget]") {
  Fx f;
  const Var* peer = f.V("peer", f.Sc());
  const Var* win = f.V("w", f.Dist({16, 64}, DataType::kFP32));
  const Var* h = f.V("h", f.Tensor({16, 64}, DataType::kFP16));
  RejectsAt(f, f.Mk("pld.tensor.put", {win, peer, h}), h,
            "pld.tensor.put: argument 'src' has element type pl.FP16 but 'dst' has pl.FP32; "
            "put/get move bytes without conversion, so both sides need the same element type");
  const Var* r3 = f.V("r3", f.Tensor({1, 16, 64}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.put", {win, peer, r3}), r3,
            "pld.tensor.put: argument 'src' has rank 3 but 'dst' has rank 2; dst and src must have "
            "the same rank");
  const Var* z = f.V("z", f.Dist({16, 0}, DataType::kFP32));
  const Var* x0 = f.V("x0", f.Tensor({16, 0}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.put", {z, peer, x0}), z,
            "pld.tensor.put: argument 'dst' has shape [16, 0] with non-positive dim 1 (0); every "
            "static dimension of a transfer operand must be positive");
  const Var* narrow = f.V("n", f.Tensor({16, 32}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.put", {win, peer, narrow}), narrow,
            "pld.tensor.put: argument 'src' has shape [16, 32] but 'dst' has shape [16, 64] (dim "
            "1); a full-slice transfer needs equal shapes — pass dst_offsets, src_offsets and "
            "shape to move a sub-region");
  const Var* get_dst = f.V("gd", f.Tensor({8, 64}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.get", {get_dst, peer, win}), win,
            "pld.tensor.get: argument 'src' has shape [16, 64] but 'dst' has shape [8, 64] (dim "
            "0); a full-slice transfer needs equal shapes — pass dst_offsets, src_offsets and "
            "shape to move a sub-region");
  Rejects(f, f.Mk("pld.tensor.put", {win, peer, narrow, f.T({0, 0})}),
          "pld.tensor.put: dst_offsets, src_offsets and shape must be given all together (got 1 "
          "of the 3); omit all three for a full-slice transfer");
  Rejects(f, f.Mk("pld.tensor.get", {narrow, peer, win, f.T({0, 0}), f.T({0, 0})}),
          "pld.tensor.get: dst_offsets, src_offsets and shape must be given all together (got 2 "
          "of the 3); omit all three for a full-slice transfer");
}

TEST_CASE("put/get regions and dynamic extents", "[dist][putget]") {
  Fx f;
  const Var* peer = f.V("peer", f.Sc());
  const Var* win = f.V("w", f.Dist({32, 64}, DataType::kFP32));
  const Var* x = f.V("x", f.Tensor({16, 64}, DataType::kFP32));
  Accepts(f, f.Mk("pld.tensor.put", {win, peer, x, f.T({16, 0}), f.T({0, 0}), f.T({16, 64})}));
  Accepts(f, f.Mk("pld.tensor.get", {x, peer, win, f.T({0, 0}), f.T({16, 0}), f.T({16, 64})}));
  const MakeTuple* doff = f.T({24, 0});
  RejectsAt(f, f.Mk("pld.tensor.put", {win, peer, x, doff, f.T({0, 0}), f.T({16, 64})}), doff,
            "pld.tensor.put: argument 'dst_offsets' places the [16, 64] transfer region outside "
            "'dst' in dim 0 (24 + 16 > 32); the region must lie inside [32, 64]");
  const MakeTuple* soff = f.T({8, 0});
  RejectsAt(f, f.Mk("pld.tensor.put", {win, peer, x, f.T({0, 0}), soff, f.T({16, 64})}), soff,
            "pld.tensor.put: argument 'src_offsets' places the [16, 64] transfer region outside "
            "'src' in dim 0 (8 + 16 > 16); the region must lie inside [16, 64]");
  const MakeTuple* nsoff = f.T({0, -4});
  RejectsAt(f, f.Mk("pld.tensor.get", {x, peer, win, f.T({0, 0}), nsoff, f.T({16, 64})}), nsoff,
            "pld.tensor.get: argument 'src_offsets' element 1 is negative (-4); offsets must be "
            "non-negative");
  const MakeTuple* zshape = f.T({0, 64});
  RejectsAt(f, f.Mk("pld.tensor.put", {win, peer, x, f.T({0, 0}), f.T({0, 0}), zshape}), zshape,
            "pld.tensor.put: argument 'shape' element 0 is 0; every static transfer extent must "
            "be positive");
  const MakeTuple* s1 = f.T({16});
  RejectsAt(f, f.Mk("pld.tensor.put", {win, peer, x, f.T({0, 0}), f.T({0, 0}), s1}), s1,
            "pld.tensor.put: argument 'shape' must have 2 elements (one per dimension of 'dst'), "
            "got 1");

  // Dynamic transfer extents must be bounded by a static chunk.
  const Var* n = f.V("N", f.Sc(DataType::kIndex));
  const Var* dwin = f.V("dw", f.DistS({n, f.ctx.Int(64)}, DataType::kFP32));
  const Var* dx = f.V("dx", f.ctx.Make<TensorType>(Shape{n, f.ctx.Int(64)}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.put", {dwin, peer, dx}), dwin,
            "pld.tensor.put: argument 'dst' gives a transfer extent [N, 64] with a dynamic leading "
            "dim; pass chunk_rows= to bound the statically allocated staging tile");
  Accepts(f, f.Mk("pld.tensor.put", {dwin, peer, dx}, {Fx::KInt("chunk_rows", 8)}));
  const Var* k = f.V("K", f.Sc(DataType::kIndex));
  const Var* kx = f.V("kx", f.ctx.Make<TensorType>(Shape{k, f.ctx.Int(64)}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.put", {dwin, peer, kx}, {Fx::KInt("chunk_rows", 8)}), kx,
            "pld.tensor.put: argument 'src' has shape [K, 64] but 'dst' has shape [N, 64] (dim "
            "0); a full-slice transfer needs equal shapes — pass dst_offsets, src_offsets and "
            "shape to move a sub-region");
  const MakeTuple* dshape = f.TE({f.ctx.Int(16), k});
  RejectsAt(f,
            f.Mk("pld.tensor.get", {x, peer, win, f.T({0, 0}), f.T({0, 0}), dshape},
                 {Fx::KInt("chunk_rows", 8)}),
            dshape,
            "pld.tensor.get: argument 'shape' gives a transfer extent [16, K] whose innermost dim "
            "is dynamic; pass chunk_cols= to bound the statically allocated staging tile");
  Accepts(f, f.Mk("pld.tensor.get", {x, peer, win, f.T({0, 0}), f.T({0, 0}), dshape},
                  {Fx::KInt("chunk_cols", 32)}));
}

TEST_CASE("put atomic-add dtype rules", "[dist][putget][atomic]") {
  Fx f;
  const Var* peer = f.V("peer", f.Sc());
  const Var* w = f.V("w", f.Dist({16, 16}, DataType::kInt64));
  const Var* x = f.V("x", f.Tensor({16, 16}, DataType::kInt64));
  RejectsAt(f, f.Mk("pld.tensor.put", {w, peer, x}, Atomic(1)), w,
            "pld.tensor.put: argument 'dst' has element type pl.INT64, which has no hardware "
            "atomic add; atomic=pld.AtomicType.Add requires FP32, BF16, FP16, INT32, INT16 or INT8 "
            "(or use atomic=pld.AtomicType.None_)");
  Accepts(f, f.Mk("pld.tensor.put", {w, peer, x}, Atomic(0)));
  const Var* wb = f.V("wb", f.Dist({16, 16}, DataType::kBF16));
  const Var* xb = f.V("xb", f.Tensor({16, 16}, DataType::kBF16));
  Accepts(f, f.Mk("pld.tensor.put", {wb, peer, xb}, Atomic(1)));
  f.ctx.target_arch = "a5";
  RejectsAt(
      f, f.Mk("pld.tensor.put", {wb, peer, xb}, Atomic(1)), wb,
      "pld.tensor.put: argument 'dst' has element type pl.BF16, and atomic=pld.AtomicType.Add "
      "on BF16 is only supported on the a2a3 (Ascend910B) target, not 'a5'; use FP32/FP16 "
      "data or atomic=pld.AtomicType.None_");
  const Var* stage = f.V("st", f.Tile({16, 16}, DataType::kBF16));
  RejectsAt(f, f.Mk("pld.tile.put", {wb, peer, xb, stage}, Atomic(1)), wb,
            "pld.tile.put: argument 'dst' has element type pl.BF16, and atomic=pld.AtomicType.Add "
            "on BF16 is only supported on the a2a3 (Ascend910B) target, not 'a5'; use FP32/FP16 "
            "data or atomic=pld.AtomicType.None_");
}

TEST_CASE("tile.put/get staging tiles and arities", "[dist][putget][tile]") {
  Fx f;
  const Var* peer = f.V("peer", f.Sc());
  const Var* win = f.V("w", f.Dist({2, 8, 64}, DataType::kFP32));
  const Var* x = f.V("x", f.Tensor({2, 8, 64}, DataType::kFP32));
  const Var* st = f.V("st", f.Tile({16, 64}, DataType::kFP32));  // flattened [16, 64]
  const Var* ping = f.V("ping", f.Tile({4, 32}, DataType::kFP32));
  const Var* pong = f.V("pong", f.Tile({4, 32}, DataType::kFP32));
  Accepts(f, f.Mk("pld.tile.put", {win, peer, x, st}));
  Accepts(f, f.Mk("pld.tile.put", {win, peer, x, ping, pong}));
  Accepts(f, f.Mk("pld.tile.get",
                  {x, peer, win, ping, pong, f.T({0, 0, 0}), f.T({1, 0, 0}), f.T({1, 8, 64})}));
  const Var* nomem = f.V("nm", f.Tile({8, 64}, DataType::kFP32, std::nullopt));
  Accepts(f, f.Mk("pld.tile.get", {x, peer, win, nomem}));
  Rejects(f, f.Mk("pld.tile.put", {win, peer, x, st, f.T({0, 0, 0}), f.T({0, 0, 0})}),
          "pld.tile.put: takes 4, 5, 7 or 8 arguments (dst, peer, src, stage[, stage2][, "
          "dst_offsets, src_offsets, shape]), got 6; the region tuples must be given all together");
  // 7-argument form: position 4 is dst_offsets, not stage2.
  const MakeTuple* doff = f.T({2, 0, 0});
  RejectsAt(f, f.Mk("pld.tile.put", {win, peer, x, ping, doff, f.T({0, 0, 0}), f.T({1, 8, 64})}),
            doff,
            "pld.tile.put: argument 'dst_offsets' places the [1, 8, 64] transfer region outside "
            "'dst' in dim 0 (2 + 1 > 2); the region must lie inside [2, 8, 64]");
  const Var* big = f.V("big", f.Tile({17, 64}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tile.put", {win, peer, x, big}), big,
            "pld.tile.put: argument 'stage' has shape [17, 64], larger than the flattened transfer "
            "[16, 64]; a stage may be a chunk of the transfer but never larger");
  const Var* mat = f.V("mat", f.Tile({8, 64}, DataType::kFP32, MemorySpace::kMat));
  RejectsAt(f, f.Mk("pld.tile.get", {x, peer, win, mat}), mat,
            "pld.tile.get: argument 'stage' is in pl.Mem.Mat; TPUT/TGET stage through UB, so the "
            "staging tile must be in pl.Mem.Vec");
  RejectsAt(f, f.Mk("pld.tile.put", {win, peer, x, ping, mat}), mat,
            "pld.tile.put: argument 'stage2' is in pl.Mem.Mat; TPUT/TGET stage through UB, so the "
            "staging tile must be in pl.Mem.Vec");
  const Var* odd = f.V("odd", f.Tile({4, 16}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tile.put", {win, peer, x, ping, odd}), odd,
            "pld.tile.put: argument 'stage2' has shape [4, 16] but 'stage' has [4, 32]; ping/pong "
            "stages must have the same shape");
  const Var* ht = f.V("ht", f.Tile({4, 32}, DataType::kFP16));
  RejectsAt(f, f.Mk("pld.tile.put", {win, peer, x, ht}), ht,
            "pld.tile.put: argument 'stage' has element type pl.FP16 but the transfer moves "
            "pl.FP32");
  const Var* t3 = f.V("t3", f.Tile({1, 4, 32}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tile.put", {win, peer, x, t3}), t3,
            "pld.tile.put: argument 'stage' has shape [1, 4, 32]; a staging tile is 2-D [rows, "
            "cols] over the flattened transfer");
  const Var* n = f.V("N", f.Sc(DataType::kIndex));
  const Var* dyn =
      f.V("dyn", f.ctx.Make<TileType>(Shape{n, f.ctx.Int(32)}, DataType::kFP32, MemorySpace::kVec));
  RejectsAt(f, f.Mk("pld.tile.put", {win, peer, x, dyn}), dyn,
            "pld.tile.put: argument 'stage' has shape [N, 32]; a staging tile needs static "
            "positive dims");
  const Var* tens = f.V("tens", f.Tensor({4, 32}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tile.put", {win, peer, x, tens}), tens,
            "pld.tile.put: argument 'stage' must be a pl.Tile staging buffer, got pl.Tensor[[4, "
            "32], pl.FP32]");
  Rejects(f, f.Mk("pld.tile.get", {x, peer, win, st}, Atomic(0)),
          "pld.tile.get: unknown keyword argument 'atomic' (it takes none)");
  // A dynamic transfer through an explicit static stage needs no chunk kwarg.
  const Var* dwin = f.V("dw", f.DistS({n, f.ctx.Int(32)}, DataType::kFP32));
  const Var* dx = f.V("dx", f.ctx.Make<TensorType>(Shape{n, f.ctx.Int(32)}, DataType::kFP32));
  Accepts(f, f.Mk("pld.tile.put", {dwin, peer, dx, ping}));
}
