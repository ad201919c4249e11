"""Static purity and determinism checks for the Python files of a task.

Task code (``seed.py``, ``judge.py`` and everything under ``visible/`` and ``stages/``) may use
only the standard library, and ``seed.py``/``judge.py`` must produce the same output on every run
and machine. The checks here read the source with :mod:`ast`; they never import or run it.

Codes:
    BS400: the file does not parse.
    BS401: import of a module outside the standard library and the task's local modules.
    BS402: wall-clock read (``time.time``, ``datetime.now`` ...).
    BS403: OS entropy (``uuid.uuid4``, ``os.urandom``, ``secrets``, ``random.SystemRandom``).
    BS404: the shared module-level random generator, or an unseeded ``random.Random()``.
    BS405: the builtin ``hash()``, salted per process for str/bytes.
    BS406: a directory listing consumed in filesystem order.
    BS407: iteration over a set, whose order depends on ``PYTHONHASHSEED``.

Names are resolved through the file's imports (``import x as y``, ``from x import y as z``),
collected once over the whole tree; there is no flow analysis, so rebinding an imported name
later in the file is not noticed.
"""

from __future__ import annotations

import ast
import functools
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from benchsmith.diagnostics import Diagnostic

_Located = ast.expr | ast.stmt | ast.alias

_STDLIB = frozenset(sys.stdlib_module_names)

_WALL_CLOCK = frozenset(
    {
        "time.time",
        "time.time_ns",
        "datetime.datetime.now",
        "datetime.datetime.utcnow",
        "datetime.datetime.today",
        "datetime.date.today",
    }
)
_ENTROPY = frozenset({"uuid.uuid1", "uuid.uuid4", "os.urandom", "os.getrandom"})
_LISTING_FUNCS = frozenset({"os.listdir", "os.scandir", "os.walk", "glob.glob", "glob.iglob"})
# Methods flagged on any receiver; the first two only when called without positional
# arguments, which is how pathlib spells them (and keeps ``ast.walk(tree)`` out).
_LISTING_METHODS_NO_ARGS = frozenset({"iterdir", "walk"})
_LISTING_METHODS = frozenset({"glob", "rglob"})
# Builtins whose result does not depend on the order their argument yields items in.
_ORDER_FREE = frozenset({"sorted", "set", "frozenset", "len"})
_SET_BUILTINS = frozenset({"set", "frozenset"})
_Comprehension = ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp


@dataclass(frozen=True, slots=True)
class _Imports:
    """What each imported name in a module refers to.

    Attributes:
        names: Local name to dotted target, e.g. ``{"dt": "datetime", "now": "time.time"}``.
    """

    names: dict[str, str]

    @classmethod
    def from_tree(cls, tree: ast.AST) -> _Imports:
        """Collect every import binding in ``tree`` (at any depth)."""
        names: dict[str, str] = {}
        for node in _walk(tree):
            if isinstance(node, ast.Import):
                names.update(_import_bindings(node))
            elif isinstance(node, ast.ImportFrom):
                names.update(_import_from_bindings(node))
        return cls(names)

    def qualify(self, node: ast.expr) -> str | None:
        """Return the dotted import target ``node`` names, or None when it is not an import.

        Args:
            node: A ``Name`` or a chain of ``Attribute`` nodes ending in a ``Name``.

        Returns:
            For example ``"datetime.datetime.now"`` for ``dt.datetime.now`` after
            ``import datetime as dt``.
        """
        attrs: list[str] = []
        while isinstance(node, ast.Attribute):
            attrs.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.names:
            return None
        return ".".join([self.names[node.id], *reversed(attrs)])

    def is_builtin(self, node: ast.expr, names: Iterable[str]) -> bool:
        """Return True when ``node`` is a bare name in ``names`` not rebound by an import."""
        return isinstance(node, ast.Name) and node.id in names and node.id not in self.names


def _import_bindings(node: ast.Import) -> dict[str, str]:
    """Map the names an ``import`` statement binds to their targets."""
    bound: dict[str, str] = {}
    for alias in node.names:
        if alias.asname:
            bound[alias.asname] = alias.name
        else:
            top = alias.name.partition(".")[0]
            bound[top] = top
    return bound


def _import_from_bindings(node: ast.ImportFrom) -> dict[str, str]:
    """Map the names a ``from ... import`` statement binds to their targets."""
    base = "." * node.level + (node.module or "")
    return {
        alias.asname or alias.name: f"{base}.{alias.name}"
        for alias in node.names
        if alias.name != "*"
    }


@dataclass(frozen=True, slots=True)
class _Context:
    """Per-file facts shared by the determinism rules.

    Attributes:
        imports: The file's import table.
        order_free: ``id()`` of expressions whose iteration order cannot leak (for example the
            argument of ``sorted``).
        sorted_walks: ``id()`` of ``os.walk`` calls whose loop sorts ``dirs`` in place.
    """

    imports: _Imports
    order_free: frozenset[int]
    sorted_walks: frozenset[int]


_Finding = tuple[_Located, str, str]
_CallRule = Callable[[ast.Call, _Context], tuple[str, str] | None]


# ---------------------------------------------------------------------------------- parsing


def _parse(path: str, source: str) -> ast.Module | Diagnostic:
    """Parse ``source``, or return the BS400 finding explaining why it does not parse."""
    parsed = _parse_source(source)
    if isinstance(parsed, ast.Module):
        return parsed
    line, col, message = parsed
    return Diagnostic(path, line, col, "BS400", message)


@functools.lru_cache(maxsize=256)
def _parse_source(source: str) -> ast.Module | tuple[int, int, str]:
    """Parse and compile once per distinct source (the three checks share the tree; nothing
    mutates it)."""
    try:
        tree = ast.parse(source)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning (bad escapes) is not an error
            # The compiler finds what the parser accepts and Python still refuses to run:
            # 'return' outside a function, a late `from __future__` import, ...
            compile(tree, "<task file>", "exec", dont_inherit=True)
        return tree
    except SyntaxError as exc:
        line, col = max(exc.lineno or 1, 1), max(exc.offset or 1, 1)
        return (
            line,
            col,
            f"file does not parse: {exc.msg}; fix the syntax so the file can be checked",
        )
    except (ValueError, RecursionError, MemoryError) as exc:
        reason = str(exc) or "nested too deeply"
        return 1, 1, f"file does not parse: {reason}; fix the source so the file can be checked"


@functools.lru_cache(maxsize=256)
def _walk(tree: ast.AST) -> tuple[ast.AST, ...]:
    """Every node of ``tree`` in ``ast.walk`` order, computed once per (cached) tree."""
    return tuple(ast.walk(tree))


@functools.lru_cache(maxsize=256)
def _imports_of(source: str) -> _Imports:
    """The import table of a source that parses (cached like the tree)."""
    tree = _parse_source(source)
    assert isinstance(tree, ast.Module)
    return _Imports.from_tree(tree)


def _diagnostic(path: str, node: _Located, code: str, message: str) -> Diagnostic:
    """Return a finding located at ``node`` (1-based column)."""
    return Diagnostic(path, node.lineno, node.col_offset + 1, code, message)


def check_syntax(path: str, source: str) -> list[Diagnostic]:
    """Report whether a Python file parses.

    Args:
        path: The file's path, copied into the finding as given.
        source: The file's text.

    Returns:
        One BS400 finding located at the syntax error, or an empty list when the file parses.
    """
    parsed = _parse(path, source)
    return [parsed] if isinstance(parsed, Diagnostic) else []


# ---------------------------------------------------------------------------------- imports


def check_imports(
    path: str, source: str, *, local_modules: frozenset[str] = frozenset()
) -> list[Diagnostic]:
    """Report imports of modules outside the standard library (BS401).

    ``import a.b`` and ``from a.b import c`` check the top-level module ``a``; relative imports
    are always allowed. ``__import__("x")`` and ``importlib.import_module("x")`` with a string
    literal argument are checked too.

    Args:
        path: The file's path, copied into each finding as given.
        source: The file's text.
        local_modules: Top-level names the task provides itself (e.g. ``{"benchlib"}``).

    Returns:
        The findings in source order; an empty list when the file does not parse.
    """
    tree = _parse(path, source)
    if isinstance(tree, Diagnostic):
        return []
    imports = _imports_of(source)
    allowed = _STDLIB | local_modules
    found = [
        _diagnostic(path, node, "BS401", _third_party_message(module))
        for node, module in _imported_modules(tree, imports)
        if module.partition(".")[0] not in allowed
    ]
    return sorted(found)


def _imported_modules(tree: ast.AST, imports: _Imports) -> Iterator[tuple[_Located, str]]:
    """Yield each absolute module import in ``tree`` with the node to report it at."""
    for node in _walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node, node.module
        elif isinstance(node, ast.Call):
            module = _dynamic_import(node, imports)
            if module and not module.startswith("."):
                yield node, module


def _dynamic_import(call: ast.Call, imports: _Imports) -> str | None:
    """Return the literal module name of an ``__import__``/``import_module`` call, if any."""
    dynamic = imports.is_builtin(call.func, ["__import__"])
    dynamic = dynamic or imports.qualify(call.func) == "importlib.import_module"
    if not dynamic or not call.args:
        return None
    first = call.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def _third_party_message(module: str) -> str:
    """Return the BS401 message for ``module``."""
    top = module.partition(".")[0]
    return (
        f"`{top}` is not in the Python standard library; task code may import only the "
        "standard library, the task's local modules and relative imports (the spec allows no "
        "third-party package, vendored or installed). Rewrite it with the standard library"
    )


# ------------------------------------------------------------------------------ determinism


def check_determinism(path: str, source: str) -> list[Diagnostic]:
    """Report sources of nondeterminism in ``seed.py`` and ``judge.py`` (BS402-BS407).

    Args:
        path: The file's path, copied into each finding as given.
        source: The file's text.

    Returns:
        The findings in source order; an empty list when the file does not parse.
    """
    tree = _parse(path, source)
    if isinstance(tree, Diagnostic):
        return []
    imports = _imports_of(source)
    context = _Context(imports, _order_free_nodes(tree, imports), _sorted_walks(tree, imports))
    found = [
        _diagnostic(path, node, code, message)
        for child in _walk(tree)
        for node, code, message in _node_findings(child, context)
    ]
    return sorted(found)


def _node_findings(node: ast.AST, context: _Context) -> Iterator[_Finding]:
    """Yield the determinism findings located at ``node`` itself."""
    if isinstance(node, ast.Call):
        for rule in _CALL_RULES:
            result = rule(node, context)
            if result:
                yield node, *result
    elif isinstance(node, ast.Import | ast.ImportFrom):
        yield from _secrets_imports(node)
    elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
        yield from _set_iteration(node.iter, context)


def _wall_clock(call: ast.Call, context: _Context) -> tuple[str, str] | None:
    """BS402: a call that reads the current date or time."""
    name = context.imports.qualify(call.func)
    if name not in _WALL_CLOCK:
        return None
    return "BS402", (
        f"`{name}()` reads the wall clock, so the output changes from run to run; use a fixed "
        "date or derive it from the seed (time.monotonic/perf_counter are fine for timeouts)"
    )


def _entropy(call: ast.Call, context: _Context) -> tuple[str, str] | None:
    """BS403: a call that draws randomness from the operating system."""
    name = context.imports.qualify(call.func)
    if name not in _ENTROPY and name != "random.SystemRandom":
        return None
    return "BS403", (
        f"`{name}()` draws OS entropy, so the output cannot be reproduced; in fixtures.py "
        "draw from ctx.rng (or ctx.stream(name)), elsewhere from random.Random(SEED)"
    )


def _module_random(call: ast.Call, context: _Context) -> tuple[str, str] | None:
    """BS404: a call on the ``random`` module other than a seeded ``random.Random(...)``."""
    name = context.imports.qualify(call.func) or ""
    module, _, attr = name.partition(".")
    if module != "random" or not attr or "." in attr or attr == "SystemRandom":
        return None
    if attr == "Random":
        if call.args or call.keywords:
            return None
        return "BS404", (
            "`random.Random()` without a seed is seeded from OS entropy; in fixtures.py use "
            "ctx.rng (or ctx.stream(name)), elsewhere random.Random(SEED)"
        )
    return "BS404", (
        f"`{name}()` uses the shared module-level random generator, which is unseeded or "
        f"global state; in fixtures.py call ctx.rng.{attr}(...) (the entry's own seeded "
        f"stream) or ctx.stream(name).{attr}(...), elsewhere random.Random(SEED).{attr}(...)"
    )


def _builtin_hash(call: ast.Call, context: _Context) -> tuple[str, str] | None:
    """BS405: a call of the builtin ``hash``."""
    is_hash = context.imports.is_builtin(call.func, ["hash"])
    if not is_hash and context.imports.qualify(call.func) != "builtins.hash":
        return None
    return "BS405", (
        "`hash()` of str/bytes is salted per process (PYTHONHASHSEED), so it differs between "
        "runs; use a stable digest such as hashlib.sha256 or zlib.crc32"
    )


def _unsorted_listing(call: ast.Call, context: _Context) -> tuple[str, str] | None:
    """BS406: a directory listing whose order is not normalised by ``sorted``."""
    name = _listing_name(call, context.imports)
    if name is None or id(call) in context.order_free or id(call) in context.sorted_walks:
        return None
    hint = "wrap it in sorted(...)"
    if name.endswith("walk()"):
        hint += " or call dirs.sort() and iterate sorted(files) in the loop body"
    return "BS406", (
        f"`{name}` yields entries in filesystem order, which differs between machines; {hint}"
    )


_CALL_RULES: tuple[_CallRule, ...] = (
    _wall_clock,
    _entropy,
    _module_random,
    _builtin_hash,
    _unsorted_listing,
)


def _listing_name(call: ast.Call, imports: _Imports) -> str | None:
    """Return how to name ``call`` in a message when it lists a directory, else None."""
    name = imports.qualify(call.func)
    if name in _LISTING_FUNCS:
        return f"{name}()"
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr in _LISTING_METHODS:
        return f".{func.attr}()"
    if func.attr in _LISTING_METHODS_NO_ARGS and not call.args:
        return f".{func.attr}()"
    return None


def _secrets_imports(node: ast.Import | ast.ImportFrom) -> Iterator[_Finding]:
    """BS403: imports of the ``secrets`` module."""
    message = (
        "the `secrets` module draws OS entropy, so the output cannot be reproduced; use a "
        "seeded random.Random(SEED) instance instead"
    )
    if isinstance(node, ast.ImportFrom):
        if node.level == 0 and node.module == "secrets":
            yield node, "BS403", message
        return
    for alias in node.names:
        if alias.name == "secrets":
            yield alias, "BS403", message


_SET_ITERATION_MESSAGE = (
    "iterating a set yields an order that depends on PYTHONHASHSEED for strings; "
    "iterate sorted(...) of it instead"
)


def _set_iteration(iterable: ast.expr, context: _Context) -> Iterator[_Finding]:
    """BS407: a loop or comprehension that iterates a set directly."""
    is_set = isinstance(iterable, ast.Set | ast.SetComp)
    if isinstance(iterable, ast.Call):
        is_set = context.imports.is_builtin(iterable.func, _SET_BUILTINS)
    if is_set and id(iterable) not in context.order_free:
        yield iterable, "BS407", _SET_ITERATION_MESSAGE


def _order_free_nodes(tree: ast.AST, imports: _Imports) -> frozenset[int]:
    """Return ``id()`` of expressions consumed without regard to their order.

    These are the argument of ``sorted``/``set``/``frozenset``/``len``, and the iterables of a
    comprehension that is itself such an argument (``sorted(p.name for p in d.iterdir())``) or
    that builds a set.
    """
    free: set[int] = set()
    for node in _walk(tree):
        if isinstance(node, ast.SetComp):
            free.update(id(gen.iter) for gen in node.generators)
        elif isinstance(node, ast.Call) and _is_order_free_call(node, imports):
            free.update(_with_comprehension_iters(node.args[0]))
    return frozenset(free)


def _is_order_free_call(call: ast.Call, imports: _Imports) -> bool:
    """Return True for ``sorted(x)``, ``set(x)``, ``frozenset(x)`` or ``len(x)``."""
    return bool(call.args) and imports.is_builtin(call.func, _ORDER_FREE)


def _with_comprehension_iters(node: ast.expr) -> Iterator[int]:
    """Yield ``id(node)`` and, for a comprehension, the ids of its iterables."""
    yield id(node)
    if isinstance(node, _Comprehension):
        yield from (id(gen.iter) for gen in node.generators)


def _sorted_walks(tree: ast.AST, imports: _Imports) -> frozenset[int]:
    """Return ``id()`` of walk calls iterated by a ``for`` whose body sorts ``dirs``.

    The loop must unpack at least two names (``for root, dirs, files in os.walk(top)``) and its
    body must call ``dirs.sort()`` or assign ``dirs[:] = sorted(...)``.
    """
    walks: set[int] = set()
    for node in _walk(tree):
        if not isinstance(node, ast.For | ast.AsyncFor) or not isinstance(node.iter, ast.Call):
            continue
        name = _listing_name(node.iter, imports)
        dirs = _second_target(node.target)
        if name and name.endswith("walk()") and dirs and _sorts_in_place(node.body, dirs):
            walks.add(id(node.iter))
    return frozenset(walks)


def _second_target(target: ast.expr) -> str | None:
    """Return the second unpacked name of a loop target, e.g. ``dirs``."""
    if isinstance(target, ast.Tuple | ast.List) and len(target.elts) >= 2:
        second = target.elts[1]
        if isinstance(second, ast.Name):
            return second.id
    return None


def _sorts_in_place(body: list[ast.stmt], name: str) -> bool:
    """Return True when ``body`` calls ``name.sort()`` or assigns ``name[:] = sorted(...)``."""
    return any(_is_in_place_sort(node, name) for stmt in body for node in ast.walk(stmt))


def _is_in_place_sort(node: ast.AST, name: str) -> bool:
    """Return True when ``node`` is ``name.sort(...)`` or ``name[:] = sorted(...)``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        receiver = node.func.value
        return node.func.attr == "sort" and isinstance(receiver, ast.Name) and receiver.id == name
    if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
        func = node.value.func
        is_sorted = isinstance(func, ast.Name) and func.id == "sorted"
        return is_sorted and any(_is_subscript_of(t, name) for t in node.targets)
    return False


def _is_subscript_of(node: ast.expr, name: str) -> bool:
    """Return True when ``node`` is ``name[...]``."""
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id == name
    )
