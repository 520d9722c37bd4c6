// pypto._core IR surface: the Program handle, parse (the one C++ front end the
// Python decorators also use), print, verify and structural equality/hashing.
// Every parse gets a fresh ir::Context owned by the returned Program handle.
#include <pybind11/stl.h>

#include "bindings.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/printer.h"
#include "pypto/ir/structural_equal.h"
#include "pypto/ir/verifier.h"

namespace pypto::bindings {

namespace {

// Literal text of a Python constant handed to the parser as `NAME = <text>`.
std::string ConstantText(const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? "True" : "False";
  if (py::isinstance<py::int_>(v)) return py::str(v).cast<std::string>();
  if (py::isinstance<py::float_>(v)) return py::repr(v).cast<std::string>();
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    std::string s = "[";
    bool first = true;
    for (const py::handle& e : v) {
      if (!first) s += ", ";
      first = false;
      s += ConstantText(e);
    }
    return s + "]";
  }
  RaiseArgumentError(
      "parse: constant values must be int, float, bool, str (literal text) "
      "or lists of them; got " +
      py::repr(v.get_type()).cast<std::string>());
}

std::vector<std::pair<std::string, std::string>> ConstantsFrom(const py::object& c) {
  std::vector<std::pair<std::string, std::string>> out;
  if (c.is_none()) return out;
  if (py::isinstance<py::dict>(c)) {
    for (auto item : c.cast<py::dict>())
      out.emplace_back(py::str(item.first).cast<std::string>(), ConstantText(item.second));
    return out;
  }
  if (!py::isinstance<py::iterable>(c))
    RaiseArgumentError("parse: constants must be a dict or (name, value) pairs; got " +
                       py::repr(c.get_type()).cast<std::string>());
  for (const py::handle& pair : c) {
    if (!py::isinstance<py::tuple>(pair) && !py::isinstance<py::list>(pair))
      RaiseArgumentError("parse: constants must be a dict or (name, value) pairs; got " +
                         py::repr(pair.get_type()).cast<std::string>());
    auto t = py::reinterpret_borrow<py::sequence>(pair);
    if (t.size() != 2 || !py::isinstance<py::str>(t[0]))
      RaiseArgumentError("parse: constants must be (name, value) pairs");
    out.emplace_back(t[0].cast<std::string>(), ConstantText(t[1]));
  }
  return out;
}

std::string EnumName(ir::EnumKind k, int v) {
  auto n = ir::EnumValueName(k, v);
  return n ? *n : std::to_string(v);
}

const char* DirName(ir::ParamDirection d) {
  switch (d) {
    case ir::ParamDirection::kIn:
      return "In";
    case ir::ParamDirection::kOut:
      return "Out";
    case ir::ParamDirection::kInOut:
      return "InOut";
  }
  return "?";
}

py::dict FunctionInfo(const ir::Function& f) {
  py::dict d;
  d["name"] = f.name;
  d["type"] = EnumName(ir::EnumKind::kFunctionType, static_cast<int>(f.func_type));
  d["level"] = f.level
                   ? py::object(py::str(EnumName(ir::EnumKind::kLevel, static_cast<int>(*f.level))))
                   : py::object(py::none());
  d["role"] = f.role ? py::object(py::str(EnumName(ir::EnumKind::kRole, static_cast<int>(*f.role))))
                     : py::object(py::none());
  py::list params;
  for (size_t i = 0; i < f.params.size(); ++i) {
    py::dict p;
    p["name"] = f.params[i]->name_hint;
    p["type"] = ir::TypeToString(f.params[i]->type);
    p["direction"] = DirName(i < f.param_dirs.size() ? f.param_dirs[i] : ir::ParamDirection::kIn);
    params.append(p);
  }
  d["params"] = params;
  d["is_host_orchestrator"] = f.IsHostOrchestrator();
  d["is_kernel"] = f.IsKernel();
  return d;
}

}  // namespace

void InitIr(py::module_& m) {
  py::class_<ProgramHandle, std::shared_ptr<ProgramHandle>>(
      m, "Program", py::dynamic_attr(),
      "A parsed (and possibly transformed) PyPTO program. Holds the compilation context its "
      "IR lives in. str(program) is its canonical IR text.")
      .def_property_readonly(
          "name", [](const ProgramHandle& p) { return p.prog->name; }, "The program's name.")
      .def_property_readonly(
          "function_names",
          [](const ProgramHandle& p) {
            std::vector<std::string> out;
            for (const ir::Function* f : p.prog->functions) out.push_back(f->name);
            return out;
          },
          "Function names in program (source) order.")
      .def_property_readonly(
          "functions",
          [](const ProgramHandle& p) {
            py::list out;
            for (const ir::Function* f : p.prog->functions) out.append(FunctionInfo(*f));
            return out;
          },
          "One dict per function: name, type, level, role, params (name, type, direction), "
          "is_host_orchestrator, is_kernel.")
      .def_property_readonly(
          "dynamic_dims",
          [](const ProgramHandle& p) {
            std::vector<std::string> out;
            for (const ir::Var* v : p.prog->dynamic_dims) out.push_back(v->name_hint);
            return out;
          },
          "Names of the module-level pl.dynamic dimension symbols.")
      .def_property(
          "target_arch",
          [](const ProgramHandle& p) {
            std::lock_guard<std::mutex> lock(*p.mu);
            return p.ctx->target_arch;
          },
          [](ProgramHandle& p, const std::string& a) {
            if (a != "a2a3" && a != "a5")
              RaiseArgumentError("target_arch must be \"a2a3\" or \"a5\", got \"" + a + "\"");
            py::gil_scoped_release nogil;
            std::lock_guard<std::mutex> lock(*p.mu);
            p.ctx->target_arch = a;
          },
          "Target profile of the program's context: \"a2a3\" (default) or \"a5\".")
      .def("__str__", [](const ProgramHandle& p) { return ir::PrintProgram(*p.prog); })
      .def("__repr__",
           [](const ProgramHandle& p) {
             return "<pypto.Program '" + p.prog->name + "' with " +
                    std::to_string(p.prog->functions.size()) + " functions>";
           })
      .def(
          "function_text",
          [](const ProgramHandle& p, const py::object& name_obj) {
            if (!py::isinstance<py::str>(name_obj))
              RaiseArgumentError("Program.function_text: 'name' must be a str, got " +
                                 std::string(py::str(py::type::of(name_obj).attr("__name__"))) +
                                 " " + std::string(py::repr(name_obj)));
            const std::string name = name_obj.cast<std::string>();
            const ir::Function* f = p.prog->Find(name);
            if (!f)
              throw py::key_error("no function named '" + name + "' in program '" + p.prog->name +
                                  "'");
            return ir::PrintFunction(*f);
          },
          py::arg("name"), "The printed IR text of one function.");

  m.def(
      "parse",
      [](const std::string& text, const std::string& filename, bool allow_internal_ops,
         const py::object& constants, int line_offset, const std::string& target_arch) {
        if (target_arch != "a2a3" && target_arch != "a5")
          RaiseArgumentError("target_arch must be \"a2a3\" or \"a5\", got \"" + target_arch + "\"");
        ir::ParseOptions opts;
        opts.allow_internal_ops = allow_internal_ops;
        opts.constants = ConstantsFrom(constants);
        opts.line_offset = line_offset;
        auto h = std::make_shared<ProgramHandle>();
        h->ctx = std::make_shared<ir::Context>();
        h->ctx->target_arch = target_arch;
        DiagnosticEngine diag(&h->ctx->sources());
        const ir::Program* p = nullptr;
        {
          py::gil_scoped_release nogil;
          p = ir::ParseProgram(*h->ctx, text, filename, diag, opts);
        }
        if (!p || diag.HasErrors())
          RaiseDiagnostics(ErrorKind::kParse, diag, h->ctx->sources(),
                           filename + ": error: parse failed");
        h->prog = p;
        return h;
      },
      py::arg("text"), py::arg("filename") = "<string>", py::arg("allow_internal_ops") = true,
      py::arg("constants") = py::none(), py::arg("line_offset") = 0,
      py::arg("target_arch") = "a2a3",
      "Parses PyPTO IR text (the DSL syntax) into a Program.\n\n"
      "filename names the text in diagnostics; allow_internal_ops accepts compiler-only ops "
      "(pl.builtin.tensor.*) as printed after passes; constants (dict or (name, value) pairs "
      "of int/float/bool/list, or str literal text) are module-level constants as if "
      "`NAME = value` preceded the text; line_offset is added to every reported line. "
      "Raises ParseError whose message is the rendered `file:line:col: error: ...` text.");

  m.def(
      "python_print", [](const ProgramHandle& p) { return ir::PrintProgram(*p.prog); },
      py::arg("program"),
      "The canonical IR text of a program (the DSL syntax; parse(python_print(p)) "
      "reproduces p and prints byte-identically).");

  m.def(
      "verify",
      [](const ProgramHandle& p, bool ssa) {
        DiagnosticEngine diag(&p.ctx->sources());
        ir::VerifyOptions vopts;
        vopts.ssa = ssa;
        bool ok;
        {
          py::gil_scoped_release nogil;
          std::lock_guard<std::mutex> lock(*p.mu);
          ok = ir::VerifyProgram(*p.ctx, *p.prog, diag, vopts);
        }
        if (!ok || diag.HasErrors())
          RaiseDiagnostics(ErrorKind::kVerify, diag, p.ctx->sources(),
                           "error: program '" + p.prog->name + "' failed verification");
      },
      py::arg("program"), py::arg("ssa") = false,
      "Runs the whole-program verifier (ssa=True also requires SSA form). Returns None when "
      "the program is well formed, raises VerifyError listing every problem otherwise.");

  m.def(
      "structural_equal",
      [](const ProgramHandle& a, const ProgramHandle& b) {
        return ir::StructuralEqual(*a.prog, *b.prog);
      },
      py::arg("a"), py::arg("b"),
      "True when two programs are structurally equal (spans and variable names ignored).");
  m.def(
      "structural_diff",
      [](const ProgramHandle& a, const ProgramHandle& b) -> py::object {
        std::string why;
        if (ir::StructuralEqual(*a.prog, *b.prog, &why)) return py::none();
        return py::str(why.empty() ? std::string("programs differ") : why);
      },
      py::arg("a"), py::arg("b"),
      "None when structurally equal, else a short description of the first difference.");
  m.def(
      "structural_hash", [](const ProgramHandle& p) { return ir::StructuralHash(*p.prog); },
      py::arg("program"), "Hash consistent with structural_equal.");
}

}  // namespace pypto::bindings
