// Table of every IR enum's DSL spelling (see include/pypto/ir/enums.h).
#include "pypto/ir/enums.h"

#include <string>

#include "pypto/core/check.h"

namespace pypto::ir {

static const std::vector<EnumDesc>& Table() {
  static const std::vector<EnumDesc> table = {
      {EnumKind::kFunctionType,
       "pl.FunctionType",
       {{"Opaque", 0},
        {"Orchestration", 1},
        {"InCore", 2},
        {"AIC", 3},
        {"AIV", 4},
        {"Group", 5},
        {"Spmd", 6}},
       {}},
      {EnumKind::kLevel,
       "pl.Level",
       {{"AIV", 0},
        {"AIC", 1},
        {"CORE_GROUP", 2},
        {"CHIP_DIE", 3},
        {"CHIP", 4},
        {"HOST", 5},
        {"CLUSTER_0", 6},
        {"CLUSTER_1", 7},
        {"CLUSTER_2", 8},
        {"GLOBAL", 9}},
       {{"L2CACHE", 3},
        {"PROCESSOR", 4},
        {"UMA", 4},
        {"NODE", 5},
        {"POD", 6},
        {"CLOS1", 7},
        {"CLOS2", 8}}},
      {EnumKind::kRole, "pl.Role", {{"Orchestrator", 0}, {"SubWorker", 1}}, {}},
      {EnumKind::kMemorySpace,
       "pl.Mem",
       {{"DDR", 0},
        {"Vec", 1},
        {"Mat", 2},
        {"Left", 3},
        {"Right", 4},
        {"Acc", 5},
        {"Bias", 6},
        {"ScalarLocal", 7}},
       {}},
      {EnumKind::kTensorLayout, "pl.TensorLayout", {{"ND", 0}, {"DN", 1}, {"NZ", 2}}, {}},
      {EnumKind::kTileLayout,
       "pl.TileLayout",
       {{"none_box", 0}, {"row_major", 1}, {"col_major", 2}},
       {}},
      {EnumKind::kPadValue, "pl.PadValue", {{"null", 0}, {"zero", 1}, {"max", 2}, {"min", 3}}, {}},
      {EnumKind::kSplitMode, "pl.SplitMode", {{"NONE", 0}, {"UP_DOWN", 1}, {"LEFT_RIGHT", 2}}, {}},
      {EnumKind::kNotifyOp, "pld.NotifyOp", {{"AtomicAdd", 0}, {"Set", 1}}, {}},
      {EnumKind::kWaitCmp, "pld.WaitCmp", {{"Eq", 0}, {"Ge", 1}}, {}},
      {EnumKind::kAtomicType,
       "pld.AtomicType",
       {{"None_", 0}, {"Add", 1}},
       {{"NONE", 0}, {"None", 0}}},
      {EnumKind::kReduceOp, "pld.ReduceOp", {{"Sum", 0}, {"Max", 1}, {"Min", 2}, {"Prod", 3}}, {}},
      {EnumKind::kArgDirection,
       "pl.adir",
       {{"input", 0},
        {"output", 1},
        {"inout", 2},
        {"output_existing", 3},
        {"no_dep", 4},
        {"scalar", 5}},
       {}},
  };
  return table;
}

const EnumDesc& GetEnumDesc(EnumKind kind) {
  const auto& t = Table();
  PYPTO_CHECK(static_cast<size_t>(kind) < t.size());
  PYPTO_CHECK(t[static_cast<size_t>(kind)].kind == kind, "enum table out of order");
  return t[static_cast<size_t>(kind)];
}

bool EnumValueInRange(EnumKind kind, int value) {
  for (const auto& m : GetEnumDesc(kind).members)
    if (m.second == value) return true;
  return false;
}

std::optional<std::string> EnumValueName(EnumKind kind, int value) {
  const EnumDesc& d = GetEnumDesc(kind);
  for (const auto& m : d.members)
    if (m.second == value) return std::string(d.prefix) + "." + std::string(m.first);
  return std::nullopt;
}

std::optional<std::pair<EnumKind, int>> LookupEnumValue(std::string_view dotted) {
  size_t dot = dotted.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string_view prefix = dotted.substr(0, dot), member = dotted.substr(dot + 1);
  for (const auto& d : Table()) {
    bool match = prefix == d.prefix;
    // pl.NotifyOp etc. are also reachable through the pl namespace upstream.
    constexpr std::string_view kPld = "pld.", kPl = "pl.";  // not-an-op-name: enum namespaces
    if (!match && d.prefix.substr(0, kPld.size()) == kPld && prefix.substr(0, kPl.size()) == kPl &&
        prefix.substr(kPl.size()) == d.prefix.substr(kPld.size()))
      match = true;
    if (!match && d.kind == EnumKind::kMemorySpace && prefix == "pl.MemorySpace") match = true;
    if (!match) continue;
    for (const auto& m : d.members)
      if (m.first == member) return std::make_pair(d.kind, m.second);
    for (const auto& m : d.aliases)
      if (m.first == member) return std::make_pair(d.kind, m.second);
  }
  return std::nullopt;
}

}  // namespace pypto::ir
