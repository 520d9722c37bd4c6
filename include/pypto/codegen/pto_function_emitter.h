// Per-function state of the PTO MLIR emitter, shared by the op emitter files
// (pto_tile_ops.cc, pto_distributed_ops.cc, pto_system_ops.cc) so each op's
// lowering is a small function over a common toolbox: hoisted constants, SSA
// naming, scalar evaluation with casts, tensor views, the inline CommContext
// peer-offset arithmetic, partition views and UB tile allocation.
//
// Invariants: a PtoFunctionEmitter emits exactly one func.func; everything it
// writes is a function of the IR alone (SSA names come from counters and name
// hints, never from pointers), so output is byte-identical across runs. Every
// user-visible problem is a diagnostic at the offending call; Failed() reports
// whether any was produced.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "pypto/codegen/pto_emitter.h"
#include "pypto/codegen/pto_op_table.h"
#include "pypto/codegen/pto_writer.h"
#include "pypto/ir/context.h"
#include "pypto/ir/function.h"
#include "pypto/ir/op_registry.h"

namespace pypto::codegen {

// An SSA value: name ("%3", "%c16_index", "%arg1") and MLIR type ("index", "i32").
struct PtoValue {
  std::string name;
  std::string type;
  bool ok() const { return !name.empty(); }
};

// A GM tensor parameter as the kernel addresses it.
struct PtoTensor {
  const ir::Var* param = nullptr;
  const ir::TensorType* type = nullptr;  // TensorType or DistributedTensorType
  bool distributed = false;
  std::string name;                  // name hint used for %<name>_view / _pview
  std::string ptr;                   // "%arg0"
  std::string ptr_type;              // "!pto.ptr<f32>"
  std::string view;                  // "%<name>_view"
  std::string view_type;             // "!pto.tensor_view<?x?xf32>"
  std::string layout;                // "nd" | "dn" | "nz"
  std::vector<std::string> shape;    // index SSA names
  std::vector<std::string> strides;  // index SSA names
  std::string ctx;                   // paired CommCtx pointer ("" when none)
};

// One dimension of a partition view: static extent or a dynamic index SSA value.
struct PtoDim {
  int64_t value = -1;  // >= 0 when static
  std::string ssa;     // index SSA name (always set)
  bool is_static() const { return value >= 0; }
};

struct PtoPartition {
  std::string name;  // "%x_pview"
  std::string type;  // "!pto.partition_tensor_view<16x64xf16>"
};

// What an IR variable stands for in the emitted function.
struct PtoBinding {
  enum class Kind { kNone, kScalar, kTensor, kTile, kCtx, kArray };
  Kind kind = Kind::kNone;
  PtoValue value;                     // kScalar / kTile (name, tile_buf type) / kCtx / kArray
  const PtoTensor* tensor = nullptr;  // kTensor
  std::string addr;                   // kTile: the i64 UB address constant of its buffer
  // kTile: an scf iter_arg or result, not a locally bound alloc_tile (ptoas
  // re-types, resizes, ... only the latter). `addr` is set when its loop group is
  // one buffer (UbAllocator::OneBuffer), empty otherwise.
  bool carried = false;
};

class UbAllocator;  // ub_allocator.h

// Kernel name of the deferred-completion adapter implemented by the kernel wrapper.
inline constexpr std::string_view kDeferredAdapterName = "pypto_register_counter_completion";

class PtoFunctionEmitter {
 public:
  PtoFunctionEmitter(ir::Context& ctx, const ir::Program& prog, const ir::Function& fn,
                     const PtoOptions& opts, std::string target_arch, DiagnosticEngine& diag);

  // Emits the whole func.func into `out` (indented one level). Returns false when
  // a diagnostic was reported (the text is then incomplete).
  bool Emit(PtoWriter& out);
  bool uses_deferred_adapter() const { return uses_deferred_; }

  // ---- toolbox for op emitters -------------------------------------------------
  ir::Context& ctx() { return ctx_; }
  const std::string& target_arch() const { return arch_; }
  // Reports `msg` at `span` and marks the function failed. Returns false.
  bool Error(Span span, std::string msg);

  // Hoisted `arith.constant`s, named %c<v>_<type> (%cn<v> when negative).
  std::string Const(int64_t v, std::string_view type);
  std::string ConstIndex(int64_t v) { return Const(v, "index"); }
  std::string ConstFloat(double v, std::string_view type);
  std::string ConstBool(bool v);
  // The value of a hoisted integer constant's SSA name (nullopt for others).
  std::optional<int64_t> ConstValue(const std::string& ssa) const {
    auto it = const_ints_.find(ssa);
    return it == const_ints_.end() ? std::nullopt : std::optional<int64_t>(it->second);
  }
  std::string Temp();                        // "%N"
  std::string Named(std::string_view hint);  // "%hint", "%hint_1", ... (unique)

  // Writes one op line into the current section (with ` loc(...)` when enabled).
  void Op(std::string line);
  PtoWriter& out() { return *cur_; }

  // Scalars. Value() evaluates a scalar expression (emitting arith ops);
  // the As* helpers also cast. They return an empty value/name after a diagnostic.
  PtoValue Value(const ir::Expr* e);
  std::string AsIndex(const ir::Expr* e);
  PtoValue CastTo(const PtoValue& v, std::string_view to_type);
  // Index SSA names of the elements of a tuple (MakeTuple) argument.
  std::optional<std::vector<std::string>> IndexList(const ir::Expr* tuple, Span at);
  std::optional<std::vector<PtoDim>> DimList(const std::vector<const ir::Expr*>& dims, Span at);
  std::optional<std::vector<PtoDim>> DimList(const ir::Expr* tuple, Span at);

  // Operands. Each reports "<op>: argument '<name>' ..." and returns null when the
  // argument is not what the emitter can address.
  const PtoTensor* TensorArg(const ir::Call* call, int arg);
  const PtoBinding* TileArg(const ir::Call* call, int arg);
  std::string CtxArg(const ir::Call* call, int arg);

  // Peer view of a distributed tensor: inline CommContext arithmetic + addptr +
  // make_tensor_view. Returns the view SSA name (type = t.view_type).
  std::string PeerView(const PtoTensor& t, const ir::Expr* peer, const ir::Call* call);
  // A tensor derived from `parent` (tensor.view / tensor.slice): `type`'s shape
  // and strides over `ptr` (the parent's pointer, or one advanced by addptr),
  // keeping the parent's distributed-ness and CommCtx. Emits its
  // make_tensor_view at the current position; null after a diagnostic.
  const PtoTensor* DeriveTensor(const PtoTensor& parent, const ir::TensorType* type,
                                std::string ptr, std::string_view name);
  PtoPartition PartitionView(const std::string& view, const std::string& view_type, DataType dt,
                             const std::vector<std::string>& offsets,
                             const std::vector<PtoDim>& sizes, std::string_view hint);
  // Extent of a tile's valid region as partition sizes of a rank-`rank` tensor:
  // the tile's valid shape (its shape when none) with leading 1s added.
  std::optional<std::vector<PtoDim>> TileExtent(const ir::TileType* t, size_t rank, Span at);
  static std::string PartitionType(const std::vector<PtoDim>& sizes, DataType dt);

  // Tiles. TileBufType is the `!pto.tile_buf<...>` spelling; AllocTile allocates
  // the result tile of `v` (in the prologue when its valid shape is static, at the
  // definition otherwise) and binds `v` to it.
  // `dynamic_valid` spells v_row=?/v_col=? (tiles whose valid shape is set at run time).
  std::optional<std::string> TileBufType(const ir::TileType* t, Span at,
                                         bool dynamic_valid = false);
  const PtoBinding* AllocTile(const ir::Var* v, const ir::Call* call);
  // The buffer of tile `b` as a value of tile_buf type `type` (b itself when it has
  // that type): an alloc_tile at the same address. ptoas types are exact where the
  // IR's are not (pad, static vs dynamic valid extents across a loop or if, the
  // result of fillpad_inplace): a value is retyped where it meets a required type.
  // A dynamic-valid target starts at b's static valid extents; a dynamic-valid
  // source cannot be retyped (its extents are known only at run time); a tile with
  // no single buffer (loop-carried) is returned unchanged.
  std::optional<PtoBinding> RetypeTile(const PtoBinding& b, const std::string& type, Span at);

  void Bind(const ir::Var* v, PtoBinding b) { bindings_[v] = std::move(b); }
  // Binds `v` (if not null: an EvalStmt has no result) to scalar value `value`.
  void BindScalar(const ir::Var* v, PtoValue value) {
    if (!v) return;
    PtoBinding b;
    b.kind = PtoBinding::Kind::kScalar;
    b.value = std::move(value);
    Bind(v, std::move(b));
  }
  const PtoBinding* Lookup(const ir::Expr* e) const;

  // Hidden raw-dispatch-args parameter (marks the module as needing the adapter).
  std::string DeferredRawArgs();

  static std::string MlirScalarType(DataType dt);
  static std::string OpName(const ir::Call* call);

 private:
  // One open scf region (loop body / if branch): which results are carried as
  // SSA values (scalars, tiles) and their types; aliased ones (tensors) are not.
  struct Frame {
    std::vector<bool> carried;
    std::vector<std::string> types;
    std::vector<PtoBinding> yielded;  // bindings of the last yield's values
    std::vector<std::string> addrs;   // loops: per iter_arg, its one buffer's address or ""
  };
  UbAllocator& Ub();
  // The binding of a carried tile iter_arg `ia` named `name`, with its group's
  // address when the group is one buffer (`init`: the init's binding).
  PtoBinding CarriedTile(const ir::Var* ia, const std::string& name, const std::string& type,
                         const PtoBinding* init);
  bool EmitSignature();
  void BindResults(const std::vector<const ir::Var*>& rvs, const Frame& f, const std::string& res,
                   size_t n_carried, const std::vector<PtoBinding>& aliases);
  bool EmitTensorView(PtoTensor& t);
  void EmitStmt(const ir::Stmt* s);
  void EmitAssign(const ir::AssignStmt* s);
  void EmitCall(const ir::Call* c, const ir::Var* result);
  void EmitFor(const ir::ForStmt* s);
  void EmitIf(const ir::IfStmt* s);
  void EmitWhile(const ir::WhileStmt* s);
  void EmitYield(const ir::YieldStmt* s, std::string_view op);
  PtoValue EmitBinary(const ir::BinaryExpr* b);
  PtoValue EmitUnary(const ir::UnaryExpr* u);
  // The value a loop/if carries for `v` through scf (false: aliased, not carried).
  bool Carried(const ir::Type* t) const;
  std::optional<std::string> CarriedType(const ir::Expr* e, Span at);

  ir::Context& ctx_;
  const ir::Program& prog_;
  const ir::Function& fn_;
  const PtoOptions& opts_;
  std::string arch_;
  DiagnosticEngine& diag_;
  bool failed_ = false;
  bool uses_deferred_ = false;

  PtoWriter consts_{2}, views_{2}, allocs_{2}, body_{2};
  PtoWriter* cur_ = &body_;
  Span cur_span_;

  std::map<std::string, bool> const_names_;    // hoisted constant names (dedupe)
  std::map<std::string, int64_t> const_ints_;  // integer constant name -> value (folding)
  std::unordered_set<std::string> used_names_;
  // Per Named() base: the last suffix handed out (the next probe starts above it).
  std::unordered_map<std::string, int> name_suffix_;
  int next_temp_ = 0;
  std::vector<std::unique_ptr<PtoTensor>> tensors_;
  std::unordered_map<const ir::Var*, PtoBinding> bindings_;
  std::vector<std::unique_ptr<PtoBinding>> anon_tiles_;  // tiles with no IR variable
  // Tile addresses (bump, or reuse when the bump layout overflows UB); built by
  // the first AllocTile.
  std::shared_ptr<UbAllocator> ub_;
  std::string deferred_args_;
  std::vector<std::string> sig_args_;
  std::vector<Frame> frames_;
  // Tiles later resized by tile.set_validshape: allocated with dynamic valid dims.
  std::set<const ir::Var*> resized_tiles_;
};

}  // namespace pypto::codegen
