// pypto._core introspection of the C++ tables the Python package mirrors: the
// op registry (names, docs, argument and kwarg schemas — used for the op stubs'
// documentation and for the tests that keep stubs and registry in sync), the
// enum spelling table and the dtype table.
#include <pybind11/stl.h>

#include "bindings.h"
#include "pypto/core/dtype.h"
#include "pypto/ir/enums.h"
#include "pypto/ir/op_registry.h"

namespace pypto::bindings {

namespace {

const char* KwargTypeName(ir::KwargType t) {
  switch (t) {
    case ir::KwargType::kInt:
      return "int";
    case ir::KwargType::kBool:
      return "bool";
    case ir::KwargType::kFloat:
      return "float";
    case ir::KwargType::kString:
      return "str";
    case ir::KwargType::kDType:
      return "dtype";
    case ir::KwargType::kEnum:
      return "enum";
    case ir::KwargType::kIntList:
      return "int_list";
    case ir::KwargType::kAny:
      return "any";
  }
  return "?";
}

const char* PlacementName(ir::OpPlacement p) {
  switch (p) {
    case ir::OpPlacement::kAnywhere:
      return "anywhere";
    case ir::OpPlacement::kHostOnly:
      return "host_only";
    case ir::OpPlacement::kKernelOnly:
      return "kernel_only";
  }
  return "?";
}

py::dict OpInfo(const ir::OpDef& d) {
  py::dict o;
  o["name"] = d.name;
  o["doc"] = d.doc;
  o["category"] = d.category;
  py::list args;
  for (const auto& a : d.args) args.append(py::make_tuple(a.name, a.doc));
  o["args"] = args;
  o["min_args"] = d.min_args;
  py::list kwargs;
  for (const auto& k : d.kwargs) {
    py::dict kd;
    kd["name"] = k.name;
    kd["type"] = KwargTypeName(k.type);
    kd["enum"] = k.type == ir::KwargType::kEnum && k.enum_kind != ir::EnumKind::kCount
                     ? py::object(py::str(std::string(ir::GetEnumDesc(k.enum_kind).prefix)))
                     : py::object(py::none());
    kd["required"] = k.required;
    kd["doc"] = k.doc;
    kwargs.append(kd);
  }
  o["kwargs"] = kwargs;
  o["internal_only"] = d.internal_only;
  o["placement"] = PlacementName(d.placement);
  o["no_duplicate"] = d.no_duplicate;
  return o;
}

}  // namespace

void InitRegistry(py::module_& m) {
  m.def(
      "op_names",
      [](bool include_internal) {
        std::vector<std::string> out;
        for (const ir::OpDef* d : ir::OpRegistry::Global().All())
          if (include_internal || !d->internal_only) out.push_back(d->name);
        return out;
      },
      py::arg("include_internal") = true,
      "Registered op names, sorted (core ops without prefix, e.g. \"tile.load\"; distributed "
      "ops as \"pld.system.notify\").");
  m.def(
      "op_info",
      [](const std::string& name) {
        const ir::OpDef* d = ir::OpRegistry::Global().Find(name);
        if (!d) throw py::key_error("no registered op named '" + name + "'");
        return OpInfo(*d);
      },
      py::arg("name"),
      "Registry entry of one op: name, doc, category, args [(name, doc)], min_args, kwargs "
      "[{name, type, enum, required, doc}], internal_only, placement, no_duplicate.");
  m.def(
      "enum_table",
      []() {
        py::list out;
        for (int k = 0; k < static_cast<int>(ir::EnumKind::kCount); ++k) {
          const ir::EnumDesc& d = ir::GetEnumDesc(static_cast<ir::EnumKind>(k));
          py::dict e;
          e["prefix"] = std::string(d.prefix);
          py::list members, aliases;
          for (const auto& [n, v] : d.members) members.append(py::make_tuple(std::string(n), v));
          for (const auto& [n, v] : d.aliases) aliases.append(py::make_tuple(std::string(n), v));
          e["members"] = members;
          e["aliases"] = aliases;
          out.append(e);
        }
        return out;
      },
      "Every IR enum's DSL spelling: [{prefix: \"pld.NotifyOp\", members: [(name, value)], "
      "aliases: [(name, value)]}] — the values are the C++ ABI values.");
  m.def(
      "dtypes",
      []() {
        std::vector<std::pair<std::string, int>> out;
#define PYPTO_X(e, n, b, mlir) out.emplace_back(n, b);
        PYPTO_DTYPES(PYPTO_X)
#undef PYPTO_X
        return out;
      },
      "Element data types as (DSL name, byte size), in C++ declaration order.");
}

}  // namespace pypto::bindings
