"""Mutation operators: small meaningful edits of the reference solution's Python source.

An operator is a function registered with :func:`operator`; it receives one node of a parsed
module and yields :class:`Replacement` s -- the node's source span and the text to put there.
Splicing the text into the original source (rather than unparsing the whole module) keeps a
mutant identical to the reference everywhere else, so its diff shows exactly one edit and
comments survive. Replacement text comes from :func:`ast.unparse` of an edited copy of the
node, parenthesized when it could bind differently than the node it replaces.

Two families (both registered here, in this order):

* **logic** -- comparison and boundary flips, integer constants ±1, sorting removed or
  reversed, conditions forced, filters and boolean operands dropped, negations removed,
  operands of non-commutative operators swapped, ``Decimal`` replaced by ``float`` and
  half-up rounding by half-even, ``casefold`` by ``lower``, normalization calls dropped;
* **output format** -- on the writers: csv ``quoting``, ``lineterminator`` and header row,
  json ``indent``, ``sort_keys``, ``separators``, integers written as floats, an extra
  property in every object, and CRLF line endings on text writes.

Nodes that no fixture could ever exercise are left alone: docstrings, annotations, the
``if __name__ == "__main__"`` guard and ``TYPE_CHECKING`` blocks.
"""

from __future__ import annotations

import ast
import copy
import io
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

COMPARE_FLIPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
NON_COMMUTATIVE = (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.LShift, ast.RShift)
NORMALIZING_METHODS = frozenset(
    {"strip", "lstrip", "rstrip", "lower", "upper", "casefold", "title", "capitalize"}
)
ROUNDING_SWAPS = {"ROUND_HALF_UP": "ROUND_HALF_EVEN", "ROUND_HALF_EVEN": "ROUND_HALF_UP"}
CSV_WRITERS = frozenset({"csv.writer", "csv.DictWriter"})
JSON_WRITERS = frozenset({"json.dump", "json.dumps"})
TEXT_WRITES = frozenset({"write", "write_text"})
EXTRA_PROPERTY = "benchsmith_extra"
ATOMIC = (
    ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.List, ast.Tuple, ast.Dict, ast.Set,
    ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.JoinedStr,
)  # fmt: skip
SHOWN = 60


@dataclass(frozen=True, slots=True)
class Replacement:
    """One edit an operator proposes.

    Attributes:
        node: The node whose source span is replaced.
        text: The new source text of that span.
        what: A short description (``'<' -> '<='``), without the location.
    """

    node: ast.AST
    text: str
    what: str


@dataclass(frozen=True, slots=True)
class Edit:
    """A located replacement of source text.

    Attributes:
        operator: The operator's name.
        line: 1-based first line of the replaced span.
        col: 1-based first column (in characters).
        end_line: 1-based last line of the span.
        end_col: 1-based column just after the span.
        text: The replacement text.
        description: What the edit does, with the original and new text.
    """

    operator: str
    line: int
    col: int
    end_line: int
    end_col: int
    text: str
    description: str

    def apply(self, source: str) -> str:
        """``source`` with the span replaced by :attr:`text`."""
        lines = source_lines(source)
        start = sum(len(x) for x in lines[: self.line - 1]) + self.col - 1
        end = sum(len(x) for x in lines[: self.end_line - 1]) + self.end_col - 1
        return source[:start] + self.text + source[end:]


@dataclass
class Module:
    """A parsed reference file and what operators need to know about it.

    Attributes:
        source: The file's text.
        tree: Its syntax tree.
        aliases: Local name -> dotted name it is bound to by imports (``csv`` -> ``csv``,
            ``Decimal`` -> ``decimal.Decimal``).
        skipped: ``id()`` of every node operators must leave alone.
        parents: ``id()`` of a node -> its parent node.
    """

    source: str
    tree: ast.Module
    aliases: dict[str, str] = field(default_factory=dict)
    skipped: set[int] = field(default_factory=set)
    parents: dict[int, ast.AST] = field(default_factory=dict)

    def segment(self, node: ast.AST) -> str:
        """The source text of ``node``."""
        return ast.get_source_segment(self.source, node) or ast.unparse(node)

    def qualified(self, func: ast.expr) -> str:
        """The dotted name a callee resolves to through imports (empty when unknown)."""
        if isinstance(func, ast.Name):
            return self.aliases.get(func.id, func.id)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            base = self.aliases.get(func.value.id)
            return f"{base}.{func.attr}" if base else ""
        return ""

    def module_prefix(self, module: str) -> str:
        """An expression naming ``module`` here: its local alias, or ``__import__(...)``."""
        bound = sorted(name for name, target in self.aliases.items() if target == module)
        return bound[0] if bound else f"__import__({module!r})"


OperatorFunction = Callable[[ast.AST, Module], Iterator[Replacement]]


@dataclass(frozen=True, slots=True)
class Operator:
    """A registered mutation operator.

    Attributes:
        name: The name mutant ids start with.
        summary: What it does, for documentation.
        function: Yields the replacements of one node.
    """

    name: str
    summary: str
    function: OperatorFunction


OPERATORS: dict[str, Operator] = {}


def operator(name: str, summary: str) -> Callable[[OperatorFunction], OperatorFunction]:
    """Register an operator under ``name`` (report order is registration order)."""

    def register(function: OperatorFunction) -> OperatorFunction:
        OPERATORS[name] = Operator(name, summary, function)
        return function

    return register


# --- analysis -------------------------------------------------------------------------------


def parse_module(source: str, filename: str = "<reference>") -> Module:
    """Parse ``source`` and record its imports and the nodes no operator may touch.

    Raises:
        SyntaxError: When the source does not parse.
    """
    tree = ast.parse(source, filename)
    module = Module(source, tree)
    for node in ast.walk(tree):
        _record_imports(node, module.aliases)
        _record_skipped(node, module.skipped)
        module.parents.update((id(child), node) for child in ast.iter_child_nodes(node))
    return module


def _record_imports(node: ast.AST, aliases: dict[str, str]) -> None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            aliases[alias.asname or alias.name.split(".")[0]] = (
                alias.name if alias.asname else alias.name.split(".")[0]
            )
    elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
        for alias in node.names:
            aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"


def _record_skipped(node: ast.AST, skipped: set[int]) -> None:
    """Mark docstrings, annotations, the main guard, TYPE_CHECKING blocks and f-strings."""
    marked: list[ast.AST] = []
    if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            marked.append(body[0])
    if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
        marked.append(node.annotation)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
        marked.append(node.returns)
    if isinstance(node, ast.If) and _is_guard(node.test):
        marked.append(node)
    if isinstance(node, ast.JoinedStr) and sys.version_info < (3, 12):
        marked.append(node)  # f-string positions are unreliable before Python 3.12
    for root in marked:
        skipped.update(id(n) for n in ast.walk(root))


def _is_guard(test: ast.expr) -> bool:
    """``__name__ == "__main__"`` or ``TYPE_CHECKING`` (``typing.TYPE_CHECKING``)."""
    text = ast.unparse(test)
    return text in ("TYPE_CHECKING", "typing.TYPE_CHECKING") or (
        "__name__" in text and "__main__" in text
    )


def edits(module: Module) -> list[Edit]:
    """Every edit every operator proposes for ``module``, in source order then operator order."""
    found = []
    for node in ast.walk(module.tree):
        if id(node) in module.skipped:
            continue
        for op in OPERATORS.values():
            for replacement in op.function(node, module):
                edit = _locate(module, op.name, replacement)
                if edit is not None:
                    found.append(edit)
    order = {name: index for index, name in enumerate(OPERATORS)}
    found.sort(key=lambda e: (e.line, e.col, order[e.operator]))
    return found


def _locate(module: Module, name: str, replacement: Replacement) -> Edit | None:
    node = replacement.node
    line, end_line = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
    if line is None or end_line is None:
        return None
    lines = source_lines(module.source)
    col = _chars(lines[line - 1], node.col_offset) + 1  # type: ignore[attr-defined]
    end_col = _chars(lines[end_line - 1], node.end_col_offset) + 1  # type: ignore[attr-defined]
    old = module.segment(node)
    description = f"{replacement.what}: {_shown(old)} → {_shown(replacement.text)}"
    return Edit(name, line, col, end_line, end_col, replacement.text, description)


def source_lines(source: str) -> list[str]:
    """The lines of ``source`` as Python numbers them (LF, CRLF or CR; endings kept)."""
    return io.StringIO(source, newline="").readlines()


def _chars(line: str, offset: int) -> int:
    """The character index of UTF-8 byte ``offset`` in ``line`` (ast columns are bytes)."""
    return len(line.encode("utf-8")[:offset].decode("utf-8", "replace"))


def _shown(text: str) -> str:
    flat = " ".join(text.split())
    return f"`{flat}`" if len(flat) <= SHOWN else f"`{flat[: SHOWN - 1]}…`"


def render(new: ast.expr, old: ast.AST) -> str:
    """Source text of ``new`` to put where ``old`` was, parenthesized when it could rebind."""
    text = ast.unparse(new)
    if text.startswith("-") and not isinstance(old, ast.UnaryOp):
        return f"({text})"
    if type(new) is type(old) or isinstance(new, (*ATOMIC, ast.Constant)):
        return text
    return f"({text})"


def _changed(node: ast.expr, edit: Callable[[ast.expr], None]) -> ast.expr:
    """A deep copy of ``node`` after ``edit`` ran on it."""
    twin = copy.deepcopy(node)
    edit(twin)
    return twin


def _keyword(call: ast.Call, name: str) -> ast.keyword | None:
    return next((k for k in call.keywords if k.arg == name), None)


def _with_keyword(call: ast.Call, name: str, value: ast.expr | None) -> ast.Call:
    """A copy of ``call`` with keyword ``name`` set to ``value`` (removed when ``None``)."""
    twin = copy.deepcopy(call)
    twin.keywords = [k for k in twin.keywords if k.arg != name]
    if value is not None:
        twin.keywords.append(ast.keyword(arg=name, value=value))
    return twin


def _expr(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


# --- logic operators -------------------------------------------------------------------------


@operator("compare", "comparison and boundary flips: < <=, > >=, == !=, in / not in, is / is not")
def compare(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Flip each operator of a comparison chain in turn."""
    if not isinstance(node, ast.Compare):
        return
    for index, op in enumerate(node.ops):
        flipped = COMPARE_FLIPS[type(op)]()

        def flip(twin: ast.expr, index: int = index, flipped: ast.cmpop = flipped) -> None:
            assert isinstance(twin, ast.Compare)
            twin.ops[index] = flipped

        yield Replacement(node, render(_changed(node, flip), node), "comparison flipped")


@operator("constant", "integer constants plus and minus one")
def constant(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Replace an integer literal ``n`` (``-n`` included) by ``n + 1`` and by ``n - 1``."""
    value = _integer(node)
    if value is None or _integer(module.parents.get(id(node))) is not None:
        return  # the 1 of -1 is mutated as -1
    for delta in (1, -1):
        new = ast.Constant(value + delta)
        yield Replacement(node, render(new, node), f"constant {delta:+d}")


def _integer(node: ast.AST | None) -> int | None:
    """The value of an integer literal, ``-n`` included (``None`` for anything else)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _integer(node.operand)
        return None if inner is None or not isinstance(node.operand, ast.Constant) else -inner
    return None


@operator("sorting", "sorted() removed, reverse= toggled or added, reversed() removed")
def sorting(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Undo or invert the ordering a call establishes."""
    if not isinstance(node, ast.Call):
        return
    name = module.qualified(node.func)
    method = node.func.attr if isinstance(node.func, ast.Attribute) else ""
    if name in ("sorted", "reversed") and node.args:
        yield Replacement(node, render(node.args[0], node), f"{name}() removed")
    if name == "sorted" or method == "sort":
        reverse = _keyword(node, "reverse")
        value: ast.expr = ast.Constant(True)
        if reverse is not None:
            toggled = isinstance(reverse.value, ast.Constant)
            value = (
                ast.Constant(not reverse.value.value)  # type: ignore[attr-defined]
                if toggled
                else ast.UnaryOp(ast.Not(), reverse.value)
            )
        what = "order reversed" if reverse is None else "reverse= toggled"
        yield Replacement(node, ast.unparse(_with_keyword(node, "reverse", value)), what)


@operator("sort-dropped", "a list.sort(...) statement removed")
def sort_dropped(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Drop an in-place sort used as a statement."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func = node.value.func
        if isinstance(func, ast.Attribute) and func.attr == "sort":
            yield Replacement(node.value, "None", "sort removed")


@operator("condition", "if / conditional-expression tests forced to True and to False")
def condition(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Force the test of an ``if`` statement or an ``a if c else b`` expression."""
    if isinstance(node, ast.If | ast.IfExp):
        for value in (True, False):
            yield Replacement(node.test, str(value), f"condition forced {value}")


@operator("filter", "a comprehension's if clause removed")
def comprehension_filter(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Remove each ``if`` clause of a comprehension in turn."""
    if not isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
        return
    for gen_index, generator in enumerate(node.generators):
        for if_index in range(len(generator.ifs)):

            def drop(twin: ast.expr, g: int = gen_index, i: int = if_index) -> None:
                del twin.generators[g].ifs[i]  # type: ignore[attr-defined]

            yield Replacement(node, render(_changed(node, drop), node), "filter removed")


@operator("boolean", "one operand of and / or dropped; not removed")
def boolean(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Drop each operand of a boolean operation in turn; remove a ``not``."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield Replacement(node, render(node.operand, node), "not removed")
    if not isinstance(node, ast.BoolOp):
        return
    word = "and" if isinstance(node.op, ast.And) else "or"
    for index in range(len(node.values)):
        rest = node.values[:index] + node.values[index + 1 :]
        new = rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest)
        yield Replacement(node, render(new, node), f"{word} operand {index + 1} dropped")


@operator("swap", "operands of -, /, //, %, **, <<, >> swapped")
def swap(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Swap the operands of a non-commutative arithmetic operation."""
    if not isinstance(node, ast.BinOp) or not isinstance(node.op, NON_COMMUTATIVE):
        return
    if isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant | ast.JoinedStr):
        return  # "%s" % x is formatting, not arithmetic
    if isinstance(node.op, ast.Div) and any(_is_text(n) for n in (node.left, node.right)):
        return  # folder / "name.csv" joins a path
    if ast.dump(node.left) == ast.dump(node.right):
        return
    new = ast.BinOp(node.right, node.op, node.left)
    yield Replacement(node, render(new, node), "operands swapped")


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


@operator("decimal", "Decimal(...) -> float(...); ROUND_HALF_UP <-> ROUND_HALF_EVEN")
def decimal_float(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Trade exact decimal arithmetic for binary floats, or half-up for banker's rounding."""
    if isinstance(node, ast.Call) and module.qualified(node.func) == "decimal.Decimal":
        yield Replacement(node.func, "float", "Decimal replaced by float")
    name = node.id if isinstance(node, ast.Name) else ""
    name = node.attr if isinstance(node, ast.Attribute) else name
    if name in ROUNDING_SWAPS and isinstance(getattr(node, "ctx", None), ast.Load):
        swapped = ROUNDING_SWAPS[name]
        if module.qualified(node) == f"decimal.{name}":  # type: ignore[arg-type]
            # The decimal module's rounding constants are their own names as strings.
            yield Replacement(node, repr(swapped), "rounding mode swapped")


@operator("casefold", ".casefold() -> .lower()")
def casefold(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Case-insensitive comparison weakened to lower-casing."""
    func = node.func if isinstance(node, ast.Call) else None
    if isinstance(func, ast.Attribute) and func.attr == "casefold":
        twin = copy.deepcopy(node)
        assert isinstance(twin, ast.Call) and isinstance(twin.func, ast.Attribute)
        twin.func.attr = "lower"
        yield Replacement(node, ast.unparse(twin), "casefold replaced by lower")


@operator(
    "normalize",
    "normalization dropped: .strip() .lower() ..., unicodedata.normalize, ' '.join(s.split()), "
    "re.sub",
)
def normalize(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Replace a normalizing call by the value it normalizes."""
    if not isinstance(node, ast.Call):
        return
    func = node.func
    name = module.qualified(func)
    if isinstance(func, ast.Attribute) and func.attr in NORMALIZING_METHODS and not name:
        yield Replacement(node, render(func.value, node), f".{func.attr}() dropped")
    elif name == "unicodedata.normalize" and len(node.args) == 2:
        yield Replacement(node, render(node.args[1], node), "unicodedata.normalize dropped")
    elif name == "re.sub" and len(node.args) >= 3:
        yield Replacement(node, render(node.args[2], node), "re.sub dropped")
    elif _is_whitespace_join(node):
        inner = node.args[0]
        assert isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute)
        yield Replacement(node, render(inner.func.value, node), "whitespace collapse dropped")


def _is_whitespace_join(node: ast.Call) -> bool:
    """``" ".join(x.split())``."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "join" and len(node.args) == 1):
        return False
    inner = node.args[0]
    return (
        isinstance(func.value, ast.Constant)
        and func.value.value == " "
        and isinstance(inner, ast.Call)
        and isinstance(inner.func, ast.Attribute)
        and inner.func.attr == "split"
        and not inner.args
    )


# --- output format operators -----------------------------------------------------------------


def _csv_writer(node: ast.AST, module: Module) -> ast.Call | None:
    if isinstance(node, ast.Call) and module.qualified(node.func) in CSV_WRITERS:
        return node
    return None


def _json_writer(node: ast.AST, module: Module) -> ast.Call | None:
    if isinstance(node, ast.Call) and module.qualified(node.func) in JSON_WRITERS and node.args:
        return node
    return None


@operator("csv-quoting", "csv quoting=QUOTE_ALL (QUOTE_MINIMAL where another was set)")
def csv_quoting(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Quote every field, a form any CSV reader reads back identically."""
    call = _csv_writer(node, module)
    if call is None:
        return
    current = _keyword(call, "quoting")
    minimal = current is None or ast.unparse(current.value).endswith("QUOTE_MINIMAL")
    wanted = "QUOTE_ALL" if minimal else "QUOTE_MINIMAL"
    value = _expr(f"{module.module_prefix('csv')}.{wanted}")
    yield Replacement(call, ast.unparse(_with_keyword(call, "quoting", value)), f"{wanted}")


@operator("csv-lineterminator", "csv lineterminator toggled between \\r\\n and \\n")
def csv_lineterminator(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Switch the row terminator (the csv module's default is CRLF)."""
    call = _csv_writer(node, module)
    if call is None:
        return
    current = _keyword(call, "lineterminator")
    crlf = current is None or (
        isinstance(current.value, ast.Constant) and current.value.value == "\r\n"
    )
    value = ast.Constant("\n" if crlf else "\r\n")
    what = "rows end with LF" if crlf else "rows end with CRLF"
    yield Replacement(call, ast.unparse(_with_keyword(call, "lineterminator", value)), what)


@operator("csv-header", "csv header row dropped, or its names upper-cased")
def csv_header(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Drop or rename the header a DictWriter or a literal header row writes."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return
    writer = node.func.value
    if node.func.attr == "writeheader" and not node.args:
        yield Replacement(node, "None", "header row dropped")
        name = ast.unparse(writer)
        upper = f"{name}.writerow({{n: n.upper() for n in {name}.fieldnames}})"
        yield Replacement(node, upper, "header names upper-cased")
    elif node.func.attr == "writerow" and len(node.args) == 1 and _literal_names(node.args[0]):
        yield Replacement(node, "None", "header row dropped")
        renamed = [n.lower() if n.isupper() else n.upper() for n in _literal_names(node.args[0])]
        twin = copy.deepcopy(node)
        twin.args = [ast.List([ast.Constant(n) for n in renamed], ast.Load())]
        yield Replacement(node, ast.unparse(twin), "header names renamed")


def _literal_names(node: ast.expr) -> list[str]:
    """The strings of a list/tuple literal made only of string constants (else empty)."""
    if not isinstance(node, ast.List | ast.Tuple) or not node.elts:
        return []
    names = [e.value for e in node.elts if isinstance(e, ast.Constant)]
    return [n for n in names if isinstance(n, str)] if len(names) == len(node.elts) else []


@operator("json-indent", "json indent added (2) or removed")
def json_indent(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Change the JSON whitespace a writer produces."""
    call = _json_writer(node, module)
    if call is None:
        return
    current = _keyword(call, "indent")
    absent = current is None or (
        isinstance(current.value, ast.Constant) and current.value.value is None
    )
    value = ast.Constant(2) if absent else None
    what = "indent added" if absent else "indent removed"
    yield Replacement(call, ast.unparse(_with_keyword(call, "indent", value)), what)


@operator("json-sort-keys", "json sort_keys toggled")
def json_sort_keys(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Sort object keys, or stop sorting them."""
    call = _json_writer(node, module)
    if call is None:
        return
    current = _keyword(call, "sort_keys")
    if current is None:
        value: ast.expr = ast.Constant(True)
    elif isinstance(current.value, ast.Constant):
        value = ast.Constant(not current.value.value)
    else:
        value = ast.UnaryOp(ast.Not(), current.value)
    yield Replacement(call, ast.unparse(_with_keyword(call, "sort_keys", value)), "keys order")


@operator("json-separators", "json separators made compact (or the default restored)")
def json_separators(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Change the separators between items and keys."""
    call = _json_writer(node, module)
    if call is None:
        return
    current = _keyword(call, "separators")
    value = _expr('(",", ":")') if current is None else None
    what = "compact separators" if current is None else "default separators"
    yield Replacement(call, ast.unparse(_with_keyword(call, "separators", value)), what)


def _round_trip(call: ast.Call, module: Module, hook: str) -> str:
    """``call`` with its document replaced by ``json.loads(json.dumps(doc), HOOK)``."""
    json_name = module.module_prefix("json")
    passed = [k for k in call.keywords if k.arg in ("default", "cls")]
    inner = ast.Call(_expr(f"{json_name}.dumps"), [call.args[0]], passed)
    trip = ast.Call(_expr(f"{json_name}.loads"), [inner], [_expr_keyword(hook)])
    twin = copy.deepcopy(call)
    twin.args = [trip, *twin.args[1:]]
    return ast.unparse(twin)


def _expr_keyword(text: str) -> ast.keyword:
    name, _, value = text.partition("=")
    return ast.keyword(arg=name, value=_expr(value))


@operator("json-floats", "json integers written as floats (1 -> 1.0)")
def json_floats(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Round-trip the document so every integer becomes a float."""
    call = _json_writer(node, module)
    if call is not None:
        yield Replacement(call, _round_trip(call, module, "parse_int=float"), "ints as floats")


@operator("json-extra-field", f"json: an extra property {EXTRA_PROPERTY!r} in every object")
def json_extra_field(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Round-trip the document adding one property to every object."""
    call = _json_writer(node, module)
    if call is not None:
        hook = f"object_hook=lambda d: {{**d, {EXTRA_PROPERTY!r}: 1}}"
        yield Replacement(call, _round_trip(call, module, hook), "extra property")


@operator("crlf", "text written with CRLF line endings (write, write_text, json.dump)")
def crlf(node: ast.AST, module: Module) -> Iterator[Replacement]:
    """Write ``\\r\\n`` where the reference writes ``\\n``."""
    if not isinstance(node, ast.Call) or not node.args:
        return
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in TEXT_WRITES and not module.qualified(func):
        twin = copy.deepcopy(node)
        twin.args[0] = _expr(f"({ast.unparse(node.args[0])}).replace('\\n', '\\r\\n')")
        yield Replacement(node, ast.unparse(twin), "CRLF line endings")
    elif module.qualified(func) == "json.dump" and len(node.args) >= 2:
        kept = list(node.keywords)
        dumps = ast.Call(_expr(f"{module.module_prefix('json')}.dumps"), [node.args[0]], kept)
        text = f"{ast.unparse(node.args[1])}.write({ast.unparse(dumps)}.replace('\\n', '\\r\\n'))"
        yield Replacement(node, text, "CRLF line endings")
