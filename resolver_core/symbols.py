"""What a name in a module is bound to, the way Python binds it — without running anything.

`Names.resolve(module, expr)` follows `import x`, `import x as y`,
`from x import y as z`, relative imports, module attributes (`deps.check`) and
plain re-assignments (`check = deps.check_stock`) across project modules. Names
that leave the project become `External("pkg.mod.Name")`; names bound only under
`if TYPE_CHECKING:` are `Missing` at run time, which is what makes postponed
annotations that use them unevaluable. A star import binds what Python's does
(`star_exports.py`), and a module attribute the module does not bind is asked of its
PEP 562 `__getattr__` first (`lazy_attributes.py`).

What a block binds, and the symbol kinds themselves, are `bindings.py`'s; they are
exported here too, since every reader of `Names` speaks them.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from .attribute_reads import attribute_read
from .bindings import (
    BUILTIN_NAMES,
    DEFINITIONS,
    Binding,
    Defined,
    Element,
    External,
    Imported,
    Missing,
    ModuleRef,
    Param,
    Scope,
    Symbol,
    Value,
    absolute_module,
    collect_bindings,
    lambda_qualname,
    sdk_name,
    star_imports,
)
from .constant_imports import calls_an_importer, imported_module
from .eager_annotations import unbound_before
from .lazy_attributes import handed_out
from .module_search import module_names
from .project import Project
from .source import ParsedModule
from .star_exports import in_force
from .suggest import closest, did_you_mean

__all__ = [
    "Binding",
    "Defined",
    "Element",
    "External",
    "Imported",
    "Missing",
    "ModuleRef",
    "Names",
    "Param",
    "Scope",
    "Symbol",
    "Value",
    "absolute_module",
    "collect_bindings",
    "lambda_qualname",
    "sdk_name",
    "star_imports",
]

_T = TypeVar("_T")
_MAX_DEPTH = 40


# isinstance() with a tuple: `A | B` would build a new union object at every call (hot paths).
_NAMES = (ast.Name, ast.Attribute)
_EXPR_OR_STMT = (ast.expr, ast.stmt)


class Names:
    """Name resolution across the project's modules, memoised per module."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self._tables: dict[Path, dict[str, Binding]] = {}
        self._stars: dict[Path, list[tuple[str, ast.ImportFrom]]] = {}
        self.cutoff: tuple[ParsedModule, int] | None = None
        """While a tool is analysed: (registering module, line) — the module's state at registration."""
        self.trace: dict[Path, tuple[int, str]] | None = None
        """When set, the latest module-level binding line each lookup depended on, per module file.

        The SDK evaluates hints when the tool is registered: a name bound *after* that line
        in the registering module does not exist yet (see `builder`).
        """
        self._known: dict[Hashable, tuple[Any, dict[Path, tuple[int, str]]]] = {}
        """Answers already given (`remembered`), with the bindings they depended on (replayed
        into `trace`). A cold run asks the same few names (`Annotated`, `deps`, `Resolve`) and
        aliases (`UserDep`) thousands of times; each answer is the same unless a rebound name
        meets a registration `cutoff`, and those answers are never kept."""
        self._rebound = False
        """Whether the lookup being answered met a name bound twice (its answer can depend on
        `cutoff`)."""
        self.starring: dict[tuple[Path, str], bool] = {}
        """The names a star import's binding is being read for, and whether that reading came
        back to them (`star_exports.in_force`: a cycle of star imports)."""

    @contextmanager
    def tracing(self) -> Iterator[dict[Path, tuple[int, str]]]:
        """Record which module-level bindings (and their lines) the lookups inside depend on."""
        outer, self.trace = self.trace, {}
        collected = self.trace
        try:
            yield collected
        finally:
            self.trace = outer
            if outer is not None:
                for path, (line, name) in collected.items():
                    if path not in outer or line > outer[path][0]:
                        outer[path] = (line, name)

    def _traced(self, module: ParsedModule, name: str, binding: Binding) -> None:
        if self.trace is None:
            return
        line = getattr(binding.node, "lineno", 0)
        current = self.trace.get(module.path)
        if current is None or line > current[0]:
            self.trace[module.path] = (line, name)

    def table(self, module: ParsedModule) -> dict[str, Binding]:
        try:
            return self._tables[module.path]
        except KeyError:
            found = collect_bindings(module, module.tree.body) if module.tree is not None else {}
            self._tables[module.path] = found
            return found

    def star_targets(self, module: ParsedModule) -> list[tuple[str, ast.ImportFrom]]:
        """`star_imports`, once per module: each may bind any name (`star_exports.in_force`;
        builtins such as `str` included)."""
        try:
            return self._stars[module.path]
        except KeyError:
            found = self._stars[module.path] = star_imports(module) if module.tree is not None else []
            return found

    def lookup(self, module: ParsedModule, name: str, scope: Scope | None = None, depth: int = 0) -> Symbol:
        """What `name` means at the end of `module`'s import (or inside `scope`)."""
        if depth > _MAX_DEPTH:
            return Missing(f"too many indirections resolving {name!r}")
        while scope is not None:
            if name in scope.bindings:
                return self._from_binding(scope.module, name, scope.bindings[name], scope, depth)
            scope = scope.parent
        return self.remembered((id(module), name, depth), self._module_level, module, name, depth)

    def remembered(self, key: Hashable, compute: Callable[..., _T], *args: Any) -> _T:
        """`compute(*args)`, answered once per `key` for this build, as if it ran every time.

        For work that only reads bindings through this object (a module-level name, a type
        alias's value): the bindings it depended on are kept and replayed into `trace`, and an
        answer that met a name bound twice (which a registration `cutoff` can change) is
        computed again each time. `key` holds whatever else the answer depends on."""
        known = self._known.get(key)
        if known is not None:
            if self.trace is not None and known[1]:
                _merge_needs(self.trace, known[1])
            answer: _T = known[0]
            return answer
        outer, self.trace = self.trace, {}
        rebound, self._rebound = self._rebound, False
        try:
            answer = compute(*args)
        finally:
            needs, self.trace = self.trace, outer
            if outer is not None:
                _merge_needs(outer, needs)
            kept, self._rebound = not self._rebound, rebound or self._rebound
        if kept:
            self._known[key] = (answer, needs)
        return answer

    def unremembered(self) -> None:
        """The answer being computed (`remembered`) is not kept: it met a name bound twice, whose
        meaning a registration `cutoff` can change, or a cycle of star imports answered it only
        in part (`star_exports.in_force`)."""
        self._rebound = True

    def _module_level(self, module: ParsedModule, name: str, depth: int) -> Symbol:
        """`lookup` of a name in a module's globals (and star imports, then builtins)."""
        binding = self.table(module).get(name)
        stars = self.star_targets(module) if module.tree is not None else []
        if (binding is not None and (binding.previous is not None or stars)) or len(stars) > 1:
            self.unremembered()
        cutoff = self.cutoff[1] if self.cutoff is not None and self.cutoff[0] is module else None
        if binding is not None and cutoff is not None:
            # Registration runs at a line: a name rebound later still means its earlier binding.
            while binding.previous is not None and binding.line >= cutoff:
                binding = binding.previous
            if (
                binding.line >= cutoff
                and name in BUILTIN_NAMES
                and unbound_before(self, module, name, cutoff)
            ):
                # Bound only from there on (`def list(...) -> list[str]`, a tool named as a
                # builtin): until then the name is the builtin. An answer of this cutoff only.
                self.unremembered()
                return External(f"builtins.{name}")
        star = in_force(self, module, name, binding, cutoff, depth) if stars else None
        if star is not None:  # a star import binding it after the module's own binding did
            self._traced(module, name, Binding("import", star[1]))
            return self._read_by(module, star[0])
        if binding is not None:
            self._traced(module, name, binding)
            if binding.type_checking:
                return Missing(
                    f"{name!r} is imported only under `if TYPE_CHECKING:`", type_checking_only=True
                )
            return self._from_binding(module, name, binding, None, depth)
        for outside, _ in stars:  # no project binding binds it: any module outside may
            if self.project.find(outside, module) is None:
                return External(f"{outside}.{name}")
        if name in BUILTIN_NAMES:
            return External(f"builtins.{name}")
        # Python's NameError suggests among the globals and builtins: so does this message.
        table = self.table(module)
        return Missing(
            lambda: f"name {name!r} is not defined{did_you_mean(name, [*table, *sorted(BUILTIN_NAMES)])}"
        )

    def _from_binding(
        self, module: ParsedModule, name: str, binding: Binding, scope: Scope | None, depth: int
    ) -> Symbol:
        if binding.kind == "def":
            node = binding.node
            assert isinstance(node, DEFINITIONS)
            if scope is None:
                qual = node.name
            elif isinstance(scope.function, ast.ClassDef):
                qual = f"{scope.qualname}.{node.name}"  # a class body is no function: no <locals>
            else:
                qual = f"{scope.qualname}.<locals>.{node.name}"
                return Defined(module, node, qual, scope=scope)
            return Defined(module, node, qual)
        if binding.kind == "value":
            assert isinstance(binding.node, _EXPR_OR_STMT)
            return Value(module, binding.node, name, binding.annotation, scope)  # type: ignore[arg-type]
        if binding.kind == "param":
            assert isinstance(binding.node, ast.arg) and isinstance(binding.annotation, ast.AST)
            return Param(module, binding.node, binding.annotation)  # type: ignore[arg-type]
        assert binding.target is not None
        if binding.fallback is not None and not self._importable(module, binding.target[0]):
            return self._from_binding(module, name, binding.fallback, scope, depth + 1)
        return self.import_target(module, *binding.target, depth=depth)

    def _importable(self, near: ParsedModule, mod: str) -> bool:
        """Whether `import mod` can succeed: a project module, or a top-level module Python can find.

        `importlib.util.find_spec` on a top-level name only searches paths; it runs nothing.
        """
        if not mod or self.project.find(mod, near) is not None or self.project.is_package_prefix(mod, near):
            return True
        import importlib.util

        try:
            return importlib.util.find_spec(mod.partition(".")[0]) is not None
        except (ImportError, ValueError):
            return False

    def unfound_module(self, near: ParsedModule, qualname: str) -> tuple[str, str | None] | None:
        """For an external `stocks.check_stock` whose top-level module Python cannot find (not in
        the project, not installed where mcpdeps runs): that module, and the project module it
        is a typo of (`stock`), if one is. None when the module exists somewhere.

        Only a close project module makes the import certainly wrong: a module missing here
        may be installed where the server runs (pre-commit gives mcpdeps its own environment).
        The suggestion is looked up like an import (`Project.spec`), so the lint cache knows
        the verdict depends on that file too.
        """
        top = qualname.partition(".")[0]
        if not top.isidentifier() or self._importable(near, top):
            return None
        candidates = sorted(module_names(near.root))
        close = closest(top, candidates)
        if close is not None and self.project.spec(close, near) is None:
            close = None
        return top, close

    def import_target(self, near: ParsedModule, mod: str, attr: str | None, depth: int = 0) -> Symbol:
        target = self.project.find(mod, near) if mod else None
        if attr is None:
            return ModuleRef(target) if target is not None else External(mod, is_module=True)
        if target is None:
            sub = self._in_namespace(near, mod, attr)
            return self._read_by(near, ModuleRef(sub)) if sub is not None else External(f"{mod}.{attr}")
        return self._read_by(near, self.member(ModuleRef(target), attr, depth + 1))

    def _in_namespace(self, near: ParsedModule, mod: str, attr: str) -> ParsedModule | None:
        """`from features import alpha` where `features/` has no `__init__.py` (a namespace
        package, which has no module of its own): Python imports the submodule
        `features.alpha`, and the tools its `register(server)` helper registers are the
        caller's."""
        spec = self.project.spec(mod, near)
        if spec is None or not spec.is_namespace:
            return None
        return self.project.find(f"{mod}.{attr}", near)

    def _read_by(self, near: ParsedModule, symbol: Symbol) -> Symbol:
        """A submodule `member` found is read on behalf of `near` (not of its package)."""
        if isinstance(symbol, ModuleRef):
            self.project.followed(near, symbol.module)
        return symbol

    def member(self, base: Symbol, attr: str, depth: int = 0) -> Symbol:
        """`base.attr` for module references, external paths and classes (`class_members.class_attribute`)."""
        if isinstance(base, External):
            return External(f"{base.qualname}.{attr}")
        if isinstance(base, ModuleRef):
            module = base.module
            typed = None  # bound only under `if TYPE_CHECKING:`: unbound at run time
            if attr in self.table(module) or (module.tree is not None and self.star_targets(module)):
                found = self.lookup(module, attr, None, depth + 1)
                if not isinstance(found, Missing):
                    return found
                typed = found if found.type_checking_only else None
            # PEP 562: Python asks the module's `__getattr__` before a submodule of that name.
            lazy = handed_out(self, module, attr, depth + 1) if module.tree is not None else None
            if lazy is not None and (
                typed is not None or not (isinstance(lazy, Missing) and not lazy.certain)
            ):
                return lazy
            sub = (
                self.project.find(f"{module.name}.{attr}", module, record=False)
                if module.is_package
                else None
            )
            if sub is not None:
                return ModuleRef(sub)
            return lazy or typed or Missing(_no_attribute(module, attr))
        if isinstance(base, Defined) and isinstance(base.node, ast.ClassDef):
            from .class_members import class_attribute  # it reads `signatures`, which read this module

            return class_attribute(self, base, base.node, attr, depth)
        return Missing(f"cannot follow attribute {attr!r} statically", certain=False)

    def resolve(
        self, module: ParsedModule, expr: ast.AST, scope: Scope | None = None, depth: int = 0
    ) -> Symbol | None:
        """Resolve a `Name` or dotted `Attribute` expression (or a listed `Element` of another
        module, a module `Imported` at run time, or an attribute of one); None for anything else."""
        if isinstance(expr, Imported):  # a module imported by a name built at run time
            self.project.followed(module, expr.module)
            return ModuleRef(expr.module)
        if isinstance(expr, ast.Name):
            return self.lookup(module, expr.id, scope, depth)
        if isinstance(expr, ast.Attribute):
            return self._attribute(module, expr.value, expr.attr, scope, depth)
        if isinstance(expr, Element):  # a listed value of another module, where it is written
            return self.resolve(expr.module, expr.written, expr.scope, depth + 1)
        read = attribute_read(expr)  # `getattr(deps, "load_d")`, `vars(deps)["load_d"]`
        if read is not None and self.lookup(module, read[0], scope, depth + 1) == External(
            f"builtins.{read[0]}"
        ):
            return self._attribute(module, read[1], read[2], scope, depth)
        if isinstance(expr, ast.Subscript) and depth < _MAX_DEPTH:
            from .written_collections import written_entry  # it reads values through this module

            entry = written_entry(self, module, expr, scope)  # `RESOLVERS["user"]`
            if entry is not None:
                return self.resolve(entry[0], entry[2], entry[1], depth + 1)
        return None

    def _attribute(
        self, module: ParsedModule, value: ast.expr, attr: str, scope: Scope | None, depth: int
    ) -> Symbol | None:
        """The attribute `attr` of what `value` resolves to."""
        base = self.resolve(module, value, scope, depth + 1)
        if base is None:
            return None
        base = self.follow(base, depth + 1)
        if isinstance(base, Missing):
            return base
        return self._read_by(module, self.member(base, attr, depth + 1))

    def fallback(
        self, module: ParsedModule, expr: ast.expr, scope: Scope | None = None
    ) -> tuple[Symbol, int] | None:
        """A name bound by an import whose `except ImportError:` binds it too (`try: from
        fast import register` / `except ImportError: from slow import register`, at module
        level or in a function), or an attribute of one (`impl.register` after `import
        app.fast as impl`): what it is through the handler's binding, and the import's line.
        `resolve` gives the import that succeeds here; the handler's is the other arm of that
        choice, what runs where the import fails."""
        attrs: list[str] = []
        while isinstance(expr, ast.Attribute):
            attrs.append(expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name):
            return None
        table = self.table(module)
        while scope is not None and expr.id not in scope.bindings:
            scope = scope.parent
        binding = (scope.bindings if scope is not None else table).get(expr.id)
        if binding is None or binding.fallback is None or binding.target is None:
            return None
        if not self._importable(module, binding.target[0]):
            return None  # `resolve` already gives the handler's
        symbol = self._from_binding(module, expr.id, binding.fallback, scope, 0)
        for attr in reversed(attrs):
            symbol = self.member(self.follow(symbol), attr)
        return symbol, binding.line

    def rebound_from(self, value: Value) -> Symbol | None:
        """For `f = wrap(f)` at module level (`load_d = functools.cache(load_d)`): what `f`
        meant just before that line, the object `wrap` receives. Python runs the line like
        `@wrap` on that earlier binding, which is how `decorators` reads it; None for any
        other assignment (looking `f` up again would only find this binding itself)."""
        node = value.node
        if value.scope is not None or not _rewraps(node, value.name):
            return None
        binding = self.table(value.module).get(value.name)
        while binding is not None and binding.node is not node:
            binding = binding.previous
        if binding is None or binding.previous is None:
            return None
        return self._from_binding(value.module, value.name, binding.previous, None, 0)

    def follow(self, symbol: Symbol, depth: int = 0) -> Symbol:
        """Follow plain aliases (`X = other.Y`) to what they name, and a module imported by a
        constant name (`deps = importlib.import_module("app.deps")`, `constant_imports.py`)."""
        if isinstance(symbol, Value) and isinstance(symbol.node, ast.Call) and calls_an_importer(symbol.node):
            return imported_module(self, symbol) or symbol
        while isinstance(symbol, Value) and isinstance(symbol.node, _NAMES) and depth < _MAX_DEPTH:
            nxt = self.resolve(symbol.module, symbol.node, symbol.scope, depth + 1)
            if nxt is None or (isinstance(nxt, Missing) and not nxt.type_checking_only):
                break  # keep the alias itself: callers may know more (e.g. bound methods)
            symbol = nxt
            depth += 1
        return symbol

    def canonical(self, module: ParsedModule, expr: ast.AST, scope: Scope | None = None) -> str | None:
        """The dotted path of an external name (`typing.Annotated`) after following aliases."""
        symbol = self.resolve(module, expr, scope)
        if symbol is None:
            return None
        symbol = self.follow(symbol)
        return symbol.qualname if isinstance(symbol, External) else None

    def declared(self, module: ParsedModule, expr: ast.expr) -> str | None:
        """`canonical` as a type checker reads a module-level annotation: a name imported only
        under `if TYPE_CHECKING:` counts. For annotations the SDK never evaluates (a helper's
        `server: MCPServer` parameter, a factory's `-> MCPServer`), which only say what the
        author meant; a tool's or resolver's hints go through `resolve`, where such a name is
        missing, as it is when the SDK evaluates them."""
        found = self.canonical(module, expr)
        root, attrs = expr, []
        while isinstance(root, ast.Attribute):
            attrs.append(root.attr)
            root = root.value
        if found is not None or not isinstance(root, ast.Name):
            return found
        binding = self.table(module).get(root.id)
        if binding is None or not binding.type_checking:
            return None
        symbol = self.follow(self._from_binding(module, root.id, binding, None, 0))
        for attr in reversed(attrs):
            symbol = self.follow(self.member(symbol, attr))
        return symbol.qualname if isinstance(symbol, External) else None


def _merge_needs(into: dict[Path, tuple[int, str]], needs: dict[Path, tuple[int, str]]) -> None:
    """Fold one lookup's dependencies into a trace: per module, the latest binding line (the
    first name seen at that line), exactly as recording them one by one would."""
    for path, (line, name) in needs.items():
        current = into.get(path)
        if current is None or line > current[0]:
            into[path] = (line, name)


def _rewraps(node: ast.AST, name: str) -> bool:
    """`name = wrap(name)`'s value: a call handing the name alone to a wrapper that is not
    itself read through the name (`f = f(f)` is left to the plain, depth-bounded reading)."""
    return (
        isinstance(node, ast.Call)
        and not node.keywords
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == name
        and not any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.func))
    )


def _no_attribute(module: ParsedModule, attr: str) -> str:
    """Why `module.attr` is missing: a module that does not parse has no attributes, and saying
    so names the cause (a syntax error: Python's import stops there too), which `lint .` reports
    nowhere else when the prefilter skipped the module's own file (a plain module of resolvers)."""
    error = module.error
    if module.tree is None and error is not None:
        where = f"{error.span.path}:{error.span.line}"
        return f"module {module.name!r} could not be analysed ({error.message}, {where})"
    return f"module {module.name!r} has no attribute {attr!r}"
