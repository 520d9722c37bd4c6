// On-chip tile memory allocation for the PTO emitter: which address each
// `pto.alloc_tile` gets.
//
// The analysis walks a kernel body in program order and gives every tile buffer
// the emitter allocates (the tile result of a call that is not an in-place alias
// of its operand) a live interval of program points:
//  * it starts where the buffer is defined and ends at the last use of any value
//    that may name the buffer;
//  * values that may name the same buffer form one class (union-find): in-place
//    results (tile.set_validshape, tile.fillpad_inplace, tile.write, and any tile
//    argument the op registry marks as written) alias their operand; loop
//    iter_args alias their init, the loop's yields and return_vars; if
//    return_vars alias every yield of both branches; `x = y` aliases. All
//    buffers of a class are live over the hull of the whole class (conservative
//    for carried tiles);
//  * a value used inside a loop but defined outside it stays live until the end
//    of the outermost such loop;
//  * intervals are inclusive, so an op's result never shares memory with the
//    operands it reads — except in a coalesced carried group (below).
// Coalescing: a loop-carried tile the caller names (the emitter passes the tiles
// tile.set_validshape resizes) needs one address for its init, iter_arg, yield
// and result, because ptoas re-types a tile only through a locally bound
// alloc_tile, and an scf result has no buffer of its own. The buffer the body
// yields then shares the init's address when that is safe: the class has just
// those two buffers, same space and size, and no value naming the init buffer is
// used after the yielded buffer is written (an element-wise op may read the
// iter_arg while writing it: in place is legal for those).
// Addresses are then assigned first-fit in interval-start order (ties by
// program order), per memory space, respecting each tile's alignment: the same
// input always gives the same addresses.
//
// Policy (UbAllocator): the plain bump layout (every tile its own buffer, in
// definition order) is kept whenever it fits — byte-identical output to the
// emitter before reuse existed, and no address reuse for ptoas's sync insertion
// to reason about. Only when the Vec (UB) bump layout exceeds the target's
// capacity is the reuse layout used; if even that does not fit, the error names
// the program point where the most bytes are live at once. The other spaces
// always use the bump layout, checked against their capacity (OnChipCapacity).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pypto/core/span.h"
#include "pypto/ir/enums.h"
#include "pypto/ir/expr.h"
#include "pypto/ir/function.h"

namespace pypto::codegen {

// Alignment of every tile buffer (bytes); sizes are rounded up to it as well.
inline constexpr int64_t kTileAlign = 32;

// One tile buffer the emitter allocates.
struct UbTile {
  const ir::Var* var = nullptr;    // the defined variable (null: result discarded)
  const ir::Call* call = nullptr;  // the defining call
  ir::MemorySpace space = ir::MemorySpace::kVec;
  int64_t bytes = 0;  // rounded up to `align`
  int64_t align = kTileAlign;
  int def = 0;    // program point of the defining call
  int start = 0;  // live interval in program points, inclusive
  int end = 0;
  int same_as = -1;   // coalesced: shares the buffer of this tile (index)
  int64_t addr = -1;  // address in the reuse (first-fit) layout
  Span span;          // the defining call
  std::string name;   // var name hint ("" when discarded)
};

// Layout facts of one memory space.
struct UbPool {
  int64_t bump_bytes = 0;      // sum of all buffers (the bump layout's end)
  int64_t reuse_bytes = 0;     // end of the first-fit reuse layout
  int64_t peak_bytes = 0;      // most bytes live at one program point
  int peak_tile = -1;          // index of the tile whose definition reaches the peak
  std::vector<int> peak_live;  // tiles live at the peak, in program order
  int overflow_tile = -1;      // first tile (placement order) ending past the capacity
};

// The analysis: every allocated tile (program order) with its interval and its
// reuse address, and per-space totals. A capacity (bytes; <= 0: none) only
// selects `overflow_tile`.
struct UbPlan {
  std::vector<UbTile> tiles;
  std::map<int, UbPool> pools;  // by MemorySpace value
  int points = 0;               // number of program points

  // Index of the tile allocated for (var, call), or -1.
  int Find(const ir::Var* var, const ir::Call* call) const;
  std::map<std::pair<const ir::Var*, const ir::Call*>, int> index;
  // Loop iter_args whose whole carried group is one buffer (see Coalescing).
  std::set<const ir::Var*> one_buffer;
};

// ptoas requires the row of a row-major, none-box tile to be whole 32-byte blocks:
// such a tile is allocated with its columns rounded up to the next block, and the
// IR's columns stay its valid columns (v_col), so loads, stores and elementwise ops
// touch only the IR's extent. TilePhysicalCols is the allocated column count.
int64_t TilePhysicalCols(int64_t cols, DataType dt, const ir::TileView& view);
// UB bytes of a tile (rows * physical cols * element size), -1 for a dynamic shape.
int64_t TileUbBytes(const ir::TileType* tt);

// Bytes of on-chip memory space `m` on target `arch` ("a2a3" / "a5"): Vec (UB)
// 192 / 256 KiB, Mat (L1) 512 KiB, Left (L0A) and Right (L0B) 64 KiB, Acc (L0C)
// 128 / 256 KiB, Bias 1 KiB.
int64_t OnChipCapacity(std::string_view arch, ir::MemorySpace m);
// The fixed fractal layout of a cube space (Mat: col_major blocks of row_major
// fractals; Left row/row; Right row/col; Acc col/row with 1024-byte fractals)
// for a tile whose IR view leaves the layout at its default; other views as given.
ir::TileView CubeSpaceView(ir::MemorySpace m, ir::TileView v);

// Intervals and bump totals only (no addresses yet). Loop groups with an
// iter_arg in `coalesce` are coalesced where safe.
UbPlan AnalyzeTileIntervals(const ir::Function& fn, const std::set<const ir::Var*>& coalesce = {});
// Computes the first-fit addresses, peak and overflow of one space.
void LayOutSpace(UbPlan& plan, ir::MemorySpace space, int64_t capacity);
// Both, for every space.
UbPlan PlanTileMemory(const ir::Function& fn, int64_t vec_capacity);

// What the emitter asks for each alloc_tile.
struct UbPlacement {
  bool ok = true;
  int64_t addr = 0;
  Span error_span;    // when !ok
  std::string error;  // when !ok: the complete message
};

class UbAllocator {
 public:
  enum class Mode { kBump, kReuse, kOverflow };
  UbAllocator(const ir::Function& fn, int64_t vec_capacity, std::string arch,
              const std::set<const ir::Var*>& coalesce = {});

  // Address for the tile `call` defines (bound to `var`, may be null) of `bytes`
  // bytes (unrounded) in `space`; called once per alloc_tile in emission order.
  UbPlacement Place(const ir::Var* var, const ir::Call* call, ir::MemorySpace space, int64_t bytes);

  // True when every buffer of the loop group of iter_arg `ia` has one address.
  bool OneBuffer(const ir::Var* ia) const { return plan_.one_buffer.count(ia) > 0; }
  Mode vec_mode() const { return mode_; }
  const UbPlan& plan() const { return plan_; }

 private:
  UbPlacement Overflow() const;

  UbPlan plan_;
  int64_t cap_;
  std::string arch_;
  Mode mode_ = Mode::kBump;
  std::map<int, int64_t> next_;    // bump counters per space (reuse mode: above the layout)
  std::map<int, int64_t> bumped_;  // bump mode: address given to each plan tile
};

}  // namespace pypto::codegen
