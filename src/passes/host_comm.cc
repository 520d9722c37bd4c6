// Private helpers of the host-rail passes (see host_comm.h).
#include "host_comm.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "pypto/ir/casting.h"
#include "pypto/ir/node_walk.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/program.h"

namespace pypto::passes::host {

using namespace ir;

bool IsHostOrch(const Function& f) {
  if (f.level != Level::kHost) return false;
  return f.func_type == FunctionType::kOrchestration || f.role == Role::kOrchestrator;
}

namespace {
using D = ArgDirection;
const std::vector<CollectiveInfo>& Table() {
  static const std::vector<CollectiveInfo> t = {
      {"pld.tensor.allreduce", "builtin.tensor.allreduce", 0, 0, {D::kInOut, D::kInOut}},
      {"pld.tensor.barrier", "builtin.tensor.barrier", 0, -1, {D::kInOut}},
      {"pld.tensor.broadcast", "builtin.tensor.broadcast", 0, 0, {D::kInOut, D::kInOut}},
      {"pld.tensor.reduce_scatter", "builtin.tensor.reduce_scatter", 0, 0, {D::kInOut, D::kInOut}},
      {"pld.tensor.allgather", "builtin.tensor.allgather", 1, 1, {D::kInput, D::kInOut, D::kInOut}},
      {"pld.tensor.all_to_all",
       "builtin.tensor.all_to_all",
       1,
       1,
       {D::kInput, D::kInOut, D::kInOut}},
      {"pld.tensor.all_to_all_v",
       "builtin.tensor.all_to_all_v",
       1,
       1,
       {D::kInput, D::kInOut, D::kInOut, D::kInput, D::kInOut}},
  };
  return t;
}
}  // namespace

const CollectiveInfo* CollectiveOf(const Call* c) {
  if (!c || !c->op) return nullptr;
  for (const CollectiveInfo& i : Table())
    if (c->op->name == i.op) return &i;
  return nullptr;
}

std::string_view BuiltinName(const CollectiveInfo& info, const Call& c) {
  if (info.op == "pld.tensor.allreduce" && StrKwarg(c, "mode", "mesh") == "ring")
    return "builtin.tensor.allreduce_ring";
  return info.builtin;
}

std::string_view ArgName(const Call& c, size_t idx) {
  if (c.op && idx < c.op->args.size()) return c.op->args[idx].name;
  return "?";
}

std::string_view StrKwarg(const Call& c, std::string_view key, std::string_view def) {
  const Attr* a = FindAttr(c.kwargs, key);
  return a && a->kind == Attr::Kind::kString ? std::string_view(a->s) : def;
}

int64_t IntKwarg(const Call& c, std::string_view key, int64_t def) {
  const Attr* a = FindAttr(c.kwargs, key);
  return a && (a->kind == Attr::Kind::kInt || a->kind == Attr::Kind::kEnum) ? a->i : def;
}

bool CheckCommDomainsMaterialized(const Program& prog, std::string* why) {
  for (const Function* f : prog.functions) {
    if (!IsHostOrch(*f)) continue;
    std::vector<const CommDomainScopeStmt*> scopes;
    bool ok = true;
    std::function<void(const Stmt*)> visit = [&](const Stmt* s) {
      if (!s || !ok) return;
      if (auto* a = As<AssignStmt>(s)) {
        auto* c = As<Call>(a->value);
        const Attr* n =
            c && c->IsOp("pld.tensor.alloc_window_buffer") ? FindAttr(c->kwargs, "name") : nullptr;
        if (n && n->kind == Attr::Kind::kString &&
            std::none_of(scopes.begin(), scopes.end(), [&](const CommDomainScopeStmt* d) {
              return std::find(d->slots.begin(), d->slots.end(), n->s) != d->slots.end();
            })) {
          if (why)
            *why = fmt::format(
                "host orchestrator '{}': window '{}' is not in a pld.comm_domain "
                "scope",
                f->name, n->s);
          ok = false;
        }
        return;
      }
      if (auto* d = As<CommDomainScopeStmt>(s)) scopes.push_back(d);
      ForEachChildStmt(s, visit);
      if (As<CommDomainScopeStmt>(s)) scopes.pop_back();
    };
    visit(f->body);
    if (!ok) return false;
  }
  return true;
}

}  // namespace pypto::passes::host
