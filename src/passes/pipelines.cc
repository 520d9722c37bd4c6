// The pass registry (every pass with its property contract and factory) and the
// named pipelines.
#include <fmt/format.h>

#include <map>

#include "pypto/passes/pass_manager.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using P = IRProperty;

const std::vector<PassInfo>& AllPasses() {
  static const std::vector<PassInfo> passes = [] {
    std::vector<PassInfo> v;
    auto add = [&](std::string name, std::string summary, PropertySet req, PropertySet prod,
                   PropertySet inval, std::function<std::unique_ptr<Pass>()> create) {
      v.push_back({std::move(name), std::move(summary), req, prod, inval, std::move(create)});
    };
    add("outline-incore-scopes",
        "outline pl.at(level=CORE_GROUP) scopes into InCore functions <parent>_incore_<n>",
        {P::kTypeChecked}, {P::kSplitIncoreOrch},
        // New kernels may hold tensor ops, N-D tiles and tiles without a memory
        // space (properties that held vacuously while there was no kernel).
        {P::kIncoreTileOps, P::kTileOps2D, P::kTileMemoryInferred}, CreateOutlineIncoreScopesPass);
    add("convert-to-ssa",
        "rename re-assigned variables; loop/if-carried values become iter_args/return_vars",
        {P::kTypeChecked}, {P::kSSAForm}, {}, CreateConvertToSSAPass);
    add("simplify", "fold scalar constants and shape expressions; remove dead scalar assignments",
        {}, {}, {}, CreateSimplifyPass);
    add("convert-tensor-to-tile-ops",
        "kernels: tensor ops -> tile.load/tile.*/tile.store; pld.tensor.put/get/remote_store -> "
        "pld.tile.*",
        {P::kSSAForm, P::kSplitIncoreOrch}, {P::kIncoreTileOps}, {},
        CreateConvertTensorToTileOpsPass);
    add("lower-composite-ops",
        "kernels: pld.tensor barrier/allreduce(mesh, "
        "ring)/broadcast/reduce_scatter/allgather/all_to_all(_v) -> credit barriers + "
        "remote_load/get/put",
        {}, {P::kCompositeOpsLowered}, {P::kTileMemoryInferred}, CreateLowerCompositeOpsPass);
    add("flatten-tile-nd-to-2d", "flatten N-D tiles to [prod(leading), last]",
        {P::kSSAForm, P::kIncoreTileOps}, {P::kTileOps2D}, {}, CreateFlattenTileNdTo2DPass);
    add("infer-tile-memory-space",
        "give every kernel tile a memory space (from its consumers, default Vec)",
        {P::kIncoreTileOps}, {P::kTileMemoryInferred}, {}, CreateInferTileMemorySpacePass);
    add("lower-auto-vector-split",
        "kernels: erase pl.split_aiv regions (None: splice; UP_DOWN/LEFT_RIGHT: halve element-wise "
        "tile work per lane); AUTO split of mixed kernels: not supported",
        {}, {P::kAutoVectorSplitLowered}, {}, CreateLowerAutoVectorSplitPass);
    add("expand-mixed-kernel",
        "InCore kernels -> AIV (vector only) / AIC (cube only); mixed kernels: not yet (warning)",
        {P::kSplitIncoreOrch}, {P::kMixedKernelExpanded}, {}, CreateExpandMixedKernelPass);
    add("synthesize-allreduce-signals",
        "host: give pld.tensor.allreduce without a signal a private [world_size, core_num] INT32 "
        "signal window",
        {}, {P::kAllReduceSignalsSynthesized}, {}, CreateSynthesizeAllReduceSignalsPass);
    add("materialize-comm-domain-scopes",
        "host: infer comm domains from device= dispatches, bind window views to their allocation, "
        "wrap pld.comm_domain scopes",
        {}, {P::kCommDomainScopesMaterialized}, {}, CreateMaterializeCommDomainScopesPass);
    add("lower-host-tensor-collectives",
        "host: pld.tensor.* collectives -> per-device builtin.tensor.* dispatches (attrs device, "
        "arg_directions)",
        {P::kCommDomainScopesMaterialized}, {P::kHostCollectivesLowered}, {},
        CreateLowerHostTensorCollectivesPass);
    add("lower-l2-tensor-collectives",
        "CHIP orchestrations: pld.tensor.* collectives -> a call of a synthesized, already lowered "
        "AIV kernel",
        {}, {P::kL2CollectivesLowered}, {}, CreateLowerL2TensorCollectivesPass);
    add("materialize-dist-tensor-ctx",
        "append a pld.CommCtx parameter per DistributedTensor parameter and thread it through "
        "calls",
        {P::kSplitIncoreOrch}, {P::kDistTensorCtxMaterialized}, {},
        CreateMaterializeDistTensorCtxPass);
    add("eliminate-early-returns",
        "kernels: a return inside an if -> if/else yielding the returned values, then one return",
        {P::kSSAForm}, {}, {}, CreateEliminateEarlyReturnsPass);
    add("flatten-call-args",
        "kernels: bind op calls nested as call arguments (non-scalar results) to named temporaries",
        {}, {}, {P::kTileMemoryInferred, P::kTileOps2D}, CreateFlattenCallArgsPass);
    add("insert-comm-fence",
        "insert cacheinvalid/fence after publishing writes, fence after remote writes, "
        "cacheinvalid after waits",
        {P::kSplitIncoreOrch}, {P::kCommFenced}, {}, CreateInsertCommFencePass);
    return v;
  }();
  return passes;
}

const PassInfo* FindPass(std::string_view name) {
  for (const PassInfo& p : AllPasses())
    if (p.name == name) return &p;
  return nullptr;
}

const PassInfo* ProducerOf(IRProperty prop) {
  for (const PassInfo& p : AllPasses())
    if (p.produced.Has(prop)) return &p;
  return nullptr;
}

static const std::map<std::string, std::vector<std::string>, std::less<>>& Pipelines() {
  static const std::map<std::string, std::vector<std::string>, std::less<>> m = {
      {"default",
       {"outline-incore-scopes", "convert-to-ssa", "simplify", "flatten-call-args",
        "convert-tensor-to-tile-ops", "lower-composite-ops", "flatten-tile-nd-to-2d",
        "infer-tile-memory-space", "lower-auto-vector-split", "expand-mixed-kernel",
        "synthesize-allreduce-signals", "materialize-comm-domain-scopes",
        "lower-host-tensor-collectives", "lower-l2-tensor-collectives",
        "materialize-dist-tensor-ctx", "insert-comm-fence", "eliminate-early-returns", "simplify"}},
  };
  return m;
}

std::vector<std::string> PipelineNames() {
  std::vector<std::string> out;
  for (const auto& [k, v] : Pipelines()) out.push_back(k);
  return out;
}

std::optional<std::vector<std::string>> NamedPipeline(std::string_view name) {
  auto it = Pipelines().find(name);
  if (it == Pipelines().end()) return std::nullopt;
  return it->second;
}

static std::string ValidPassNames() {
  std::string s;
  for (const PassInfo& p : AllPasses()) {
    if (!s.empty()) s += ", ";
    s += p.name;
  }
  return s;
}

static std::string ValidPipelineNames() {
  std::string s;
  for (const auto& n : PipelineNames()) {
    if (!s.empty()) s += ", ";
    s += n;
  }
  return s;
}

std::optional<PipelineSpec> ResolvePipeline(std::string_view text, std::string* error) {
  PipelineSpec spec;
  if (auto named = NamedPipeline(text)) {
    spec.name = std::string(text);
    for (const auto& n : *named) {
      const PassInfo* p = FindPass(n);
      if (!p) {
        *error = fmt::format("pipeline '{}' names unknown pass '{}'", text, n);
        return std::nullopt;
      }
      spec.passes.push_back(p);
    }
    return spec;
  }
  bool single = text.find(',') == std::string_view::npos;
  size_t pos = 0;
  while (true) {
    size_t comma = text.find(',', pos);
    std::string_view item =
        text.substr(pos, comma == std::string_view::npos ? text.npos : comma - pos);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty()) {
      *error = fmt::format("empty pass name in pipeline '{}'; expected comma-separated pass names",
                           text);
      return std::nullopt;
    }
    const PassInfo* p = FindPass(item);
    if (!p) {
      if (single)
        *error = fmt::format("unknown pass or pipeline '{}'; valid pipelines: {}; valid passes: {}",
                             item, ValidPipelineNames(), ValidPassNames());
      else
        *error = fmt::format("unknown pass '{}'; valid passes: {}", item, ValidPassNames());
      return std::nullopt;
    }
    spec.passes.push_back(p);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return spec;
}

std::string CheckPipelineProperties(const PipelineSpec& spec, PropertySet props) {
  for (const PassInfo* p : spec.passes) {
    std::string err;
    p->required.ForEach([&](IRProperty r) {
      if (!err.empty() || props.Has(r)) return;
      const PassInfo* prod = ProducerOf(r);
      err = fmt::format(
          "pass {} requires property {}, produced by pass {}; add it earlier in the pipeline",
          p->name, PropertyName(r), prod ? prod->name : std::string("<none>"));
    });
    if (!err.empty()) return err;
    props = props.Without(p->invalidated);
    props |= p->produced;
  }
  return "";
}

}  // namespace pypto::passes
