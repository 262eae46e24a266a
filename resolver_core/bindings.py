"""What a block of statements binds, and the kinds of thing a name can be bound to.

The vocabulary `symbols.Names` answers in (`External`, `Defined`, `Value`, `Param`,
`Missing`, ...) and the one walk that reads a module's or a function's body into
`Binding`s, the way Python binds names: imports (with their `except ImportError:`
fallbacks), definitions, assignments, `if TYPE_CHECKING:` blocks, the arm of an `if sys.version_info`
test every supported Python takes (`version_tests.py`). Kept apart from the
resolution itself (`symbols.py`) because many modules need only the vocabulary, and the
walk is the part a change to Python's syntax touches.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable
from dataclasses import field

from .records import record, slotted
from .source import ParsedModule
from .version_tests import version_test

BUILTIN_NAMES = frozenset(dir(builtins))
"""What a module-level name means when no statement of the module binds it (yet)."""

# isinstance() with a tuple: `A | B` would build a new union object at every call (hot paths).
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_SEQUENCES = (ast.Tuple, ast.List)
_BLOCKS = (ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While)


@record
class External:
    """Something outside the project, by dotted path (`typing.Annotated`)."""

    qualname: str
    is_module: bool = False
    """Bound by `import x` (so certainly a module, never a callable)."""


@record
class ModuleRef:
    """A project module bound to a name (`import pkg.deps as deps`): attributes are looked up in it."""

    module: ParsedModule


def assignment_targets(node: ast.AST) -> list[ast.expr]:
    """What an assignment statement stores into (`a = b = ...`, `a: T = ...`, `a += ...`);
    nothing for any other node. One spelling for the checks that look for a name or an
    attribute being written."""
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, ast.AnnAssign | ast.AugAssign):
        return [node.target]
    return []


@slotted
class Defined:
    """A `def`, `class` or lambda in the project."""

    module: ParsedModule
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
    qualname: str
    owner: Defined | None = None
    """The class a method was looked up on."""
    scope: Scope | None = field(default=None, compare=False, repr=False)
    """The function body a closure is defined in: where its own annotations are evaluated."""


@slotted
class Value:
    """A name bound by assignment: `X = <expr>` (type aliases, instances, partials...)."""

    module: ParsedModule
    node: ast.expr
    name: str
    annotation: ast.expr | None = None
    scope: Scope | None = None


@slotted
class Param:
    """A function parameter seen from inside the function (e.g. `server: MCPServer`)."""

    module: ParsedModule
    node: ast.arg
    function: ast.FunctionDef | ast.AsyncFunctionDef


@record
class Missing:
    """A name that could not be followed, and why (written only when asked: `reason`)."""

    said: str | Callable[[], str]
    """The reason, or what writes it when asked: most lookups that miss (`self.x` read as an
    external name) are never reported, and a "did you mean" over a module's globals is not free."""
    type_checking_only: bool = False
    certain: bool = True
    """False when static analysis simply cannot follow the name (an instance attribute...)."""

    @property
    def reason(self) -> str:
        return self.said if isinstance(self.said, str) else self.said()


Symbol = External | ModuleRef | Defined | Value | Param | Missing


@slotted
class Binding:
    """What a statement binds a name to, before the name is looked up (`Names.lookup`)."""

    kind: str  # "import" | "def" | "value" | "param"
    node: ast.AST
    target: tuple[str, str | None] | None = None  # (module, attribute) for imports
    annotation: ast.expr | None = None
    type_checking: bool = False
    fallback: Binding | None = None
    """What `except ImportError:` binds instead, when this import can fail."""
    previous: Binding | None = None
    """The binding this one replaced (`def check` written twice): what earlier code saw."""

    @property
    def line(self) -> int:
        return getattr(self.node, "lineno", 0)


@slotted
class Scope:
    """A function body's local names, for closures and `register(server)` functions.

    Bindings are collected on first lookup: most scopes a scan creates are never asked.
    """

    module: ParsedModule
    function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef
    qualname: str
    parent: Scope | None = None
    _bindings: dict[str, Binding] | None = None

    @property
    def bindings(self) -> dict[str, Binding]:
        if self._bindings is None:
            self._bindings = self._collect()
        return self._bindings

    def _collect(self) -> dict[str, Binding]:
        fn = self.function
        if isinstance(fn, ast.ClassDef):
            return collect_bindings(self.module, fn.body)
        local = {} if isinstance(fn, ast.Lambda) else collect_bindings(self.module, fn.body)
        a = fn.args
        for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, [a.vararg, a.kwarg])]:
            local[arg.arg] = Binding("param", arg, annotation=fn)  # type: ignore[arg-type]
        return local


class Element(ast.Subscript):
    """`TOOL_MODULES[0]`: one value of a collection another module writes out, in the place
    of a loop variable that takes it (`for m in TOOL_MODULES: m.register(mcp)`, the list
    imported `from app.tools`; `literal_loops.listed_loop`).

    The loop's call is read where it is written (its arguments are that module's names), but
    the value's names are the collection's module's: `Names.resolve` reads `written` there
    (`module`, at `scope`). A subscript of the collection as the loop's module names it
    (`TOOL_MODULES[0]`): what runs, were it written there."""

    def __init__(
        self, collection: ast.expr, index: int, module: ParsedModule, written: ast.expr, scope: Scope | None
    ) -> None:
        super().__init__(value=collection, slice=ast.Constant(index), ctx=ast.Load())
        self.module = module
        self.written = written
        self.scope = scope


class Imported(ast.Name):
    """A project module in the place of an expression that imports it at run time
    (`importlib.import_module(f"app.tools.{name}")`, `dynamic_imports.py`): `Names.resolve`
    reads it as that module, as it reads a name `import app.tools.weather` binds."""

    def __init__(self, module: ParsedModule) -> None:
        super().__init__(id=module.name, ctx=ast.Load())
        self.module = module


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def absolute_module(module: ParsedModule, level: int, name: str | None) -> str:
    """Resolve `from ..x import y`'s module part against the importing module's package."""
    if level == 0:
        return name or ""
    parts = module.package.split(".") if module.package else []
    base = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join([*base, name] if name else base)


def collect_bindings(
    module: ParsedModule, body: list[ast.stmt], type_checking: bool = False
) -> dict[str, Binding]:
    """Names bound by a block of statements; later runtime bindings win over earlier ones."""
    out: dict[str, Binding] = {}

    def bind(name: str, binding: Binding) -> None:
        old = out.get(name)
        if old is not None and binding.type_checking and not old.type_checking:
            return
        if old is not None and not old.type_checking:
            binding.previous = old
        out[name] = binding

    _walk_bindings(module, body, type_checking, out, bind)
    return out


def _walk_bindings(
    module: ParsedModule,
    stmts: list[ast.stmt],
    tc: bool,
    out: dict[str, Binding],
    bind: Callable[[str, Binding], None],
) -> None:
    """`collect_bindings`' walk of one block (a function of its own: a nested function calling
    itself is a reference cycle, which would keep every module's bindings and tree alive)."""
    for stmt in stmts:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    bind(alias.asname, Binding("import", stmt, (alias.name, None), type_checking=tc))
                else:
                    top = alias.name.partition(".")[0]
                    bind(top, Binding("import", stmt, (top, None), type_checking=tc))
        elif isinstance(stmt, ast.ImportFrom):
            mod = absolute_module(module, stmt.level, stmt.module)
            for alias in stmt.names:
                if alias.name == "*":
                    continue
                bind(
                    alias.asname or alias.name,
                    Binding("import", stmt, (mod, alias.name), type_checking=tc),
                )
        elif isinstance(stmt, DEFINITIONS):
            bind(stmt.name, Binding("def", stmt, type_checking=tc))
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    bind(target.id, Binding("value", stmt.value, type_checking=tc))
                elif (
                    isinstance(target, _SEQUENCES)
                    and isinstance(stmt.value, _SEQUENCES)
                    and len(target.elts) == len(stmt.value.elts)
                ):  # `shop, admin = MCPServer("Shop"), MCPServer("Admin")`
                    for name, value in zip(target.elts, stmt.value.elts, strict=True):
                        if isinstance(name, ast.Name):
                            bind(name.id, Binding("value", value, type_checking=tc))
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            bind(stmt.target.id, Binding("value", stmt.value, annotation=stmt.annotation, type_checking=tc))
        elif type(stmt).__name__ == "TypeAlias":  # PEP 695 `type X = ...` (Python >= 3.12 parsers)
            bind(stmt.name.id, Binding("value", stmt, type_checking=tc))  # type: ignore[attr-defined]
        elif isinstance(stmt, ast.If):
            if is_type_checking(stmt.test):
                _walk_bindings(module, stmt.body, True, out, bind)
                _walk_bindings(module, stmt.orelse, tc, out, bind)
            elif (runs := version_test(stmt.test)) is not None:  # `sys.version_info >= (3, 10)`
                _walk_bindings(module, stmt.body if runs else stmt.orelse, tc, out, bind)
            else:
                _walk_bindings(module, stmt.body, tc, out, bind)
                _walk_bindings(module, stmt.orelse, tc, out, bind)
        elif isinstance(stmt, ast.Try):
            _walk_bindings(module, stmt.body, tc, out, bind)
            for handler in stmt.handlers:
                # `except ImportError: X = None` must not shadow the import that normally runs;
                # it is kept as the import's fallback (used when the module cannot be found).
                for bound, binding in collect_bindings(module, handler.body, tc).items():
                    current = out.get(bound)
                    if current is not None and current.kind == "import" and current.fallback is None:
                        current.fallback = binding
                    out.setdefault(bound, binding)
            _walk_bindings(module, stmt.orelse, tc, out, bind)
            _walk_bindings(module, stmt.finalbody, tc, out, bind)
        elif isinstance(stmt, _BLOCKS):
            _walk_bindings(module, stmt.body, tc, out, bind)


def star_imports(module: ParsedModule) -> list[tuple[str, ast.ImportFrom]]:
    """A module's top-level `from m import *` statements, in statement order, with the module
    each imports (`star_exports.in_force` orders them among the module's own bindings)."""
    assert module.tree is not None
    return [
        (absolute_module(module, s.level, s.module), s)
        for s in module.tree.body
        if isinstance(s, ast.ImportFrom) and any(a.name == "*" for a in s.names)
    ]


def lambda_qualname(scope: Scope | None) -> str:
    """A lambda's `__qualname__` where it is written: `<locals>` of a function, not of a class body."""
    if scope is None:
        return "<lambda>"
    if isinstance(scope.function, ast.ClassDef):
        return f"{scope.qualname}.<lambda>"
    return f"{scope.qualname}.<locals>.<lambda>"


def sdk_name(qualname: str | None) -> str | None:
    """`Resolve`, `Context`, `MCPServer`, ... for a path inside the SDK or typing; else None."""
    if qualname is None:
        return None
    head, _, last = qualname.rpartition(".")
    root = head.partition(".")[0]
    if root in ("mcp", "mcp_types"):
        return last
    if root in ("typing", "typing_extensions"):
        return last
    if root == "functools" and last == "partial":
        return "partial"
    if root == "builtins":
        return f"builtins.{last}"
    return None
