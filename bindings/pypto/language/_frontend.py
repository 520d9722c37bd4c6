"""The decorators' bridge to the one C++ front end.

``@pl.program`` and ``@pl.jit`` do not trace or execute anything: they take the
decorated source text (``inspect.getsourcelines``), dedent it, find the
module-level constants and ``pl.dynamic`` symbols it references in the defining
scope, and hand text + constants to ``pypto._core.parse`` — the same parser that
reads ``.pir`` files builds the IR — then run the verifier.

Positions: the text given to the parser is a small prelude (``pl.dynamic``
declarations) and one or more *segments* of user source, each placed at its own
line number when there is room (so text lines are user lines). Every diagnostic the
C++ side reports is mapped back through the segments to the user's file, line and
column (undoing the dedent) and re-rendered in the C++ format
(``file:line:col: error: msg``, the source line, a caret), so errors name the
user's file and line. The map is kept on the Program so errors from later stages
(passes, emitter, executor) are mapped the same way.
"""

import ast
import inspect
import linecache

from ._types import DynVar

_SKIP_NAMES = {"pl", "pld", "self"}


class Segment:
    """Lines [text_first, text_first + n_lines) of the parsed text are lines
    [user_first, ...) of `file`, dedented by `col_offset` columns."""

    __slots__ = ("text_first", "n_lines", "file", "user_first", "col_offset")

    def __init__(self, text_first, n_lines, file, user_first, col_offset):
        self.text_first = text_first
        self.n_lines = n_lines
        self.file = file
        self.user_first = user_first
        self.col_offset = col_offset


class SourceMap:
    """Maps positions in the text handed to the parser back to user files."""

    def __init__(self, parse_filename, segments, text):
        self.parse_filename = parse_filename
        self.segments = segments
        self.text_lines = text.split("\n")

    def map(self, file, line, col):
        """(file, line, col, source line) in the user's terms."""
        if file == self.parse_filename and line > 0:
            for s in self.segments:
                if s.text_first <= line < s.text_first + s.n_lines:
                    uline = s.user_first + (line - s.text_first)
                    src = linecache.getline(s.file, uline).rstrip("\r\n")
                    return s.file, uline, col + s.col_offset if col > 0 else col, src
            src = self.text_lines[line - 1] if line <= len(self.text_lines) else ""
            return "<pypto decorator prelude>", line, col, src
        if file is None:
            return None, 0, 0, ""
        return file, line, col, linecache.getline(file, line).rstrip("\r\n")


def _render_one(file, line, col, length, src, sev, msg):
    # Same format as DiagnosticEngine::Render (src/core/diagnostics.cc).
    if file is None or line <= 0:
        return f"{sev}: {msg}\n"
    out = f"{file}:{line}:{col}: {sev}: {msg}\n"
    if src:
        caret = "".join("\t" if src[i - 1] == "\t" else " "
                        for i in range(1, col) if i - 1 < len(src))
        caret += "^" + "~" * max(0, min(length, 200) - 1)
        out += src + "\n" + caret + "\n"
    return out


def remap_error(exc, smap):
    """A copy of a pypto._core error with every position mapped through `smap`."""
    diags = getattr(exc, "diagnostics", None)
    if smap is None or not diags:
        return exc
    out, mapped = "", []
    for d in diags:
        f, l, c, src = smap.map(d["file"], d["line"], d["col"])
        nd = dict(d, file=f, line=l, col=c)
        out += _render_one(f, l, c, d["length"], src, d["severity"], d["message"])
        notes = []
        for n in d["notes"]:
            nf, nl, nc, nsrc = smap.map(n["file"], n["line"], n["col"])
            notes.append(dict(n, file=nf, line=nl, col=nc))
            if nf is not None and nl > 0:
                out += _render_one(nf, nl, nc, n["length"], nsrc, "note", n["message"])
            else:
                out += f"note: {n['message']}\n"
        nd["notes"] = notes
        mapped.append(nd)
    # Keep any trailing summary line the C++ side appended ("N more errors ...").
    tail = str(exc).split("\n")[-1]
    if tail.endswith("more errors not shown"):
        out += tail + "\n"
    new = type(exc)(out.rstrip("\n"))
    new.diagnostics = mapped
    return new


class SourceError(TypeError):
    """The decorated object's source text is not available."""


def _class_source_from_frame(cls, frame):
    """The class statement `frame` is executing (for modules that inspect cannot
    locate, e.g. loaded from a spec without a sys.modules entry)."""
    file = frame.f_code.co_filename
    text = "".join(linecache.getlines(file))
    if not text:
        return None
    here = frame.f_lineno
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            if first <= here <= node.end_lineno:
                lines = text.split("\n")[first - 1:node.end_lineno]
                return lines, file, first
    return None


def source_of(obj, what, frame=None):
    """(dedented lines, file, first line, col offset) of a class or function;
    `frame` (the frame executing a class statement) is the fallback for classes."""
    name = getattr(obj, "__qualname__", repr(obj))
    try:
        lines, first = inspect.getsourcelines(obj)
        file = inspect.getsourcefile(obj) or inspect.getfile(obj)
    except (OSError, TypeError) as e:
        found = _class_source_from_frame(obj, frame) if frame is not None else None
        if found is None:
            raise SourceError(
                f"{what}: cannot read the source of '{name}' ({e}); decorated programs must "
                "be defined in a source file (not interactively or with exec); for generated "
                "code build the IR text and call pl.parse(text)") from None
        lines, file, first = found
    lines = [ln.rstrip("\r\n") for ln in lines]
    indent = lines[0][:len(lines[0]) - len(lines[0].lstrip())]
    out = []
    for ln in lines:
        if ln.startswith(indent):
            out.append(ln[len(indent):])
        elif not ln.strip():
            out.append("")
        else:  # continuation line indented less than the decorator (rare)
            out.append(ln.lstrip())
    # inspect ends a block at its last line; drop trailing blank lines.
    while out and not out[-1].strip():
        out.pop()
    return out, file, first, len(indent)


def attached_functions(cls, lines):
    """Class attributes bound to a @pl.function defined elsewhere (upstream's
    `reduce_step = make_reduce_step(m0=m0, n=n)` in a program class body): a list
    of (first, last, indent, name, fn) per such assignment, with first/last the
    0-based line range of the statement in the class's dedented `lines`."""
    tree = ast.parse("\n".join(lines))
    node = tree.body[0] if tree.body and isinstance(tree.body[0], ast.ClassDef) else None
    out = []
    for st in node.body if node else []:
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1
                and isinstance(st.targets[0], ast.Name)):
            continue
        name = st.targets[0].id
        fn = cls.__dict__.get(name)
        if inspect.isfunction(fn) and hasattr(fn, "__pypto_function__"):
            out.append((st.lineno - 1, st.end_lineno - 1, st.col_offset, name, fn))
    return out


def function_namespaces(fn):
    """Where the names a function's body reads are found: closure, then globals."""
    ns = []
    try:
        ns.append(dict(inspect.getclosurevars(fn).nonlocals))
    except (TypeError, ValueError):
        pass
    ns.append(fn.__globals__)
    return ns


def _names(text):
    """Names read by `text` that it does not bind itself."""
    tree = ast.parse(text)
    loaded, bound = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                loaded.append(node.id)
            else:
                bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                bound.add((a.asname or a.name).split(".")[0])
    seen, out = set(), []
    for n in loaded:
        if n not in bound and n not in _SKIP_NAMES and n not in seen:
            seen.add(n)
            out.append(n)
    return out


def _dsl_spelling(v):
    """`pl.FP16` for a DataType, `pld.ReduceOp.Max` for a pl/pld enum member, else
    None: how a name bound to such a value is forwarded, so `DTYPE = dtype` in a
    kernel factory can be used wherever the dtype itself could be written."""
    from ._types import DataType
    from ._enums import PREFIXES
    from .distributed._enums import PREFIXES as DPREFIXES
    if isinstance(v, DataType):
        return repr(v)
    pre = PREFIXES.get(type(v)) or DPREFIXES.get(type(v))
    return f"{pre}.{v.name}" if pre else None


def _is_plain_constant(v):
    if isinstance(v, (bool, str)):
        return True
    if _dsl_spelling(v) is not None:
        return True
    if isinstance(v, (int, float)):
        # IntEnum members are ints but are written by name in the DSL.
        return type(v) in (int, float)
    if isinstance(v, (list, tuple)):
        return all(_is_plain_constant(e) for e in v)
    return False


def _constant_text(v):
    """A plain constant as DSL source text (strings quoted, lists bracketed,
    dtypes and enum members by their DSL spelling)."""
    spelled = _dsl_spelling(v)
    if spelled is not None:
        return spelled
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, (int, float)):
        return repr(v)
    return "[" + ", ".join(_constant_text(e) for e in v) + "]"


_MISSING = object()


def _lookup(name, namespaces):
    for ns in namespaces:
        if name in ns:
            return ns[name]
    return _MISSING


class ProgramSource:
    """Text, constants and source map of one decorated program."""

    def __init__(self):
        self.parts = []        # (lines, file, first, col_offset)
        self.constants = {}    # name -> python value
        self.dynamics = {}     # name -> DynVar

    def add(self, lines, file, first, col, namespaces, scan=None):
        """Appends a part; the names it reads (or those `scan`, a text, reads) are
        looked up in `namespaces` for constants and pl.dynamic symbols."""
        self.parts.append((lines, file, first, col))
        found = []
        for n in _names("\n".join(lines) if scan is None else scan):
            v = _lookup(n, namespaces)
            if v is _MISSING:
                continue
            if isinstance(v, DynVar):
                self._define(self.dynamics, n, v, file, first)
            elif _is_plain_constant(v):
                self._define(self.constants, n, v, file, first)
            found.append((n, v))
        return found

    @staticmethod
    def _define(table, name, value, file, first):
        # The program text has one module scope: two parts that see different
        # values under one name cannot both be right.
        old = table.get(name, _MISSING)
        same = old is value or (type(old) is type(value) and (
            old.name == value.name if isinstance(value, DynVar) else old == value))
        if old is not _MISSING and not same:
            raise SourceError(
                f"{file}:{first}: '{name}' is {value!r} here but {old!r} in another part of "
                "the program; the program's functions share one set of module-level names, "
                "so give one of them another name")
        table[name] = value

    def build(self, parse_filename):
        """(text, SourceMap). Segments from `parse_filename` are placed at their own
        line numbers (blank-line padding) whenever the preceding text leaves room, so
        positions the C++ side renders into plain text (executor reports) name the
        user's lines even where no structured diagnostic can be remapped; the
        prelude of pl.dynamic declarations goes in the padding before them."""
        text_lines = [f'{n} = pl.dynamic("{v.name}")' for n, v in self.dynamics.items()]
        segments = []
        for lines, file, first, col in self.parts:
            if file == parse_filename and first > len(text_lines):
                text_lines.extend([""] * (first - 1 - len(text_lines)))
            else:
                text_lines.append("")
            segments.append(Segment(len(text_lines) + 1, len(lines), file, first, col))
            text_lines.extend(lines)
        text = "\n".join(text_lines) + "\n"
        return text, SourceMap(parse_filename, segments, text)


def compile_source(src, parse_filename):
    """Parses and verifies a ProgramSource; errors name the user's file and line."""
    from .. import _core
    text, smap = src.build(parse_filename)
    constants = [(n, _constant_text(v)) for n, v in src.constants.items()]
    try:
        prog = _core.parse(text, filename=parse_filename, allow_internal_ops=False,
                           constants=constants, line_offset=0)
    except _core.PyptoError as e:
        raise remap_error(e, smap) from None
    prog._pypto_source_map = smap
    prog._pypto_text = text
    try:
        _core.verify(prog)
    except _core.PyptoError as e:
        raise remap_error(e, smap) from None
    return prog
