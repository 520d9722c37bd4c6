// Private helpers of the host-rail passes (see host_comm.h).
#include "host_comm.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <optional>

#include "pypto/ir/casting.h"
#include "pypto/ir/node_walk.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/program.h"
#include "pypto/ops/ops.h"

namespace pypto::passes::host {

using namespace ir;

bool IsHostOrch(const Function& f) {
  if (f.level != Level::kHost) return false;
  return f.func_type == FunctionType::kOrchestration || f.role == Role::kOrchestrator;
}

namespace {
// The direction the HOST dispatch passes an argument with, from the builtin's
// declared effect. A window the builtin writes (Write or ReadWrite) is InOut on
// dispatch: the kernel writes only its rows / slice of a persistent window
// buffer, so the runtime must keep (and hand in) the rest of it; a read-only
// operand is Input.
ArgDirection DispatchDirection(ArgEffect e) {
  return e == ArgEffect::kRead ? ArgDirection::kInput : ArgDirection::kInOut;
}

CollectiveInfo InfoOf(const OpDef& op) {
  CollectiveInfo i;
  i.op = &op;
  i.result_arg = op.returned_arg;
  // The data window is the returned one, unless that is the signal (barrier
  // has no data window).
  i.data_arg = op.returned_arg == op.ArgIndex("signal") ? -1 : op.returned_arg;
  const OpDef& builtin = ops::Get(op.builtin_twin);
  for (size_t a = 0; a < builtin.args.size(); ++a)
    i.dirs.push_back(DispatchDirection(builtin.EffectOf(static_cast<int>(a), {})));
  return i;
}

// One entry per registered pld.tensor.* collective, indexed by handle id.
const std::array<std::optional<CollectiveInfo>, ops::kOpCount>& Table() {
  static const auto t = [] {
    std::array<std::optional<CollectiveInfo>, ops::kOpCount> out;
    for (const OpDef* d : ops::Registry().All())
      if (d->family == OpFamily::kCollective && d->builtin_twin.valid())
        out[d->handle.id] = InfoOf(*d);
    return out;
  }();
  return t;
}
}  // namespace

const CollectiveInfo* CollectiveOf(const Call* c) {
  if (!c || !c->op || c->op->handle.id >= ops::kOpCount) return nullptr;
  const auto& i = Table()[c->op->handle.id];
  return i ? &*i : nullptr;
}

const OpDef& BuiltinOf(const Call& c) { return ops::Get(c.op->BuiltinFor(c.kwargs)); }

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
            c && c->Is(ops::kPldAllocWindowBuffer) ? FindAttr(c->kwargs, "name") : nullptr;
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
