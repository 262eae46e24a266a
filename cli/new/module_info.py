"""What `new` needs to know about the module it edits, read with libcst.

This is deliberately a small, local reading of one file (not the project-wide static builder
in `resolver_core`): it must work on the exact text being edited, before anything is written,
and it only answers the questions `new` asks — which names are taken, where the servers, tools,
resolvers and the trailing `if __name__ == "__main__":` block are, and how each function's
parameters would be classified by the SDK.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Literal

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ...resolver_core.records import record
from ..errors import UserError

ParamKind = Literal["context", "resolve", "plain"]


@record(slots=False)
class ParamInfo:
    """One parameter of a module-level function, classified the way the SDK would see it."""

    name: str
    kind: ParamKind
    annotation: str | None
    resolver: str | None = None  # the `Resolve(...)` target's source text, for kind "resolve"


@record(slots=False)
class FunctionInfo:
    """A module-level `def` / `async def`."""

    name: str
    index: int  # position in Module.body
    line: int
    is_async: bool
    params: tuple[ParamInfo, ...]
    returns: str | None
    server: str | None  # the server variable it is registered on with `@server.tool(...)`, if any


@record(slots=False)
class ServerInfo:
    """A module-level `VAR = MCPServer(...)`."""

    variable: str
    index: int
    line: int


@dataclass
class ModuleInfo:
    """Everything `new` reads from one module."""

    module: cst.Module
    bindings: dict[str, int] = field(default_factory=dict)  # module-level name -> line
    binding_index: dict[str, int] = field(default_factory=dict)  # module-level name -> body index
    functions: dict[str, FunctionInfo] = field(default_factory=dict)
    servers: dict[str, ServerInfo] = field(default_factory=dict)
    imported: set[str] = field(default_factory=set)  # names bound by `import` / `from ... import`
    tool_names: dict[tuple[str, str], int] = field(default_factory=dict)  # (server, tool name) -> line
    tool_indexes: dict[str, list[int]] = field(default_factory=dict)  # server var -> body indexes
    main_index: int | None = None  # a *trailing* `if __name__ == "__main__":` block
    postponed: bool = False  # `from __future__ import annotations`

    @property
    def all_tool_indexes(self) -> list[int]:
        """Body indexes of every tool registration, on any server."""
        return sorted(i for indexes in self.tool_indexes.values() for i in indexes)

    @property
    def resolver_names(self) -> set[str]:
        """Names used as `Resolve(name)` targets anywhere in a module-level function signature."""
        return {p.resolver for f in self.functions.values() for p in f.params if p.resolver}


def parse(source: str, path: str) -> cst.Module:
    """Parse with libcst; a file that does not parse is the user's to fix first, said as a sentence."""
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as exc:
        raise UserError(
            f"{path} does not parse (line {exc.raw_line}, column {exc.raw_column}): {exc.message}. "
            "Fix the syntax error first; nothing was written."
        ) from exc
    if module.code != source:
        # libcst drops some trailing lines (a comment, then a last line of only spaces without a
        # newline): editing through it would silently delete them.
        raise UserError(
            f"{path} cannot be edited safely: libcst does not reproduce it byte for byte (often a "
            "last line holding only spaces; end the file with a newline). Nothing was written."
        )
    return module


def code_of(module: cst.Module, node: cst.CSTNode) -> str:
    """Source text of a node, as written."""
    return module.code_for_node(node)


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted_name(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None


def _last_part(node: cst.BaseExpression) -> str | None:
    name = dotted_name(node)
    return name.rsplit(".", 1)[-1] if name else None


def _unstring(node: cst.BaseExpression) -> cst.BaseExpression:
    """A string annotation (`"Annotated[int, Resolve(f)]"`) is read as the expression it holds."""
    if isinstance(node, cst.SimpleString):
        try:
            return cst.parse_expression(node.evaluated_value)  # type: ignore[arg-type]
        except (cst.ParserSyntaxError, TypeError):
            return node
    return node


def _resolve_target(annotation: cst.BaseExpression, module: cst.Module) -> str | None:
    """The target of a top-level `Annotated[T, Resolve(target), ...]` (first `Resolve` wins)."""
    if not (isinstance(annotation, cst.Subscript) and _last_part(annotation.value) == "Annotated"):
        return None
    for element in annotation.slice[1:]:
        value = element.slice.value if isinstance(element.slice, cst.Index) else None
        if isinstance(value, cst.Call) and _last_part(value.func) == "Resolve" and value.args:
            return code_of(module, value.args[0].value)
    return None


class _NameFinder(cst.CSTVisitor):
    def __init__(self, wanted: str) -> None:
        self.wanted = wanted
        self.found = False

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.wanted:
            self.found = True


def _mentions_context(annotation: cst.BaseExpression) -> bool:
    """Context, `Context | None`, `Optional[Context]`, `Context[Any, Any]`, under an outer Annotated."""
    if isinstance(annotation, cst.Subscript) and _last_part(annotation.value) == "Annotated":
        first = annotation.slice[0].slice
        if not isinstance(first, cst.Index):
            return False
        annotation = _unstring(first.value)
    finder = _NameFinder("Context")
    annotation.visit(finder)
    if isinstance(annotation, cst.Attribute) and annotation.attr.value == "Context":
        return True
    return finder.found


def _classify(param: cst.Param, module: cst.Module) -> ParamInfo:
    annotation = param.annotation.annotation if param.annotation else None
    text = code_of(module, annotation) if annotation is not None else None
    if annotation is not None:
        expr = _unstring(annotation)
        if _mentions_context(expr):
            return ParamInfo(param.name.value, "context", text)
        target = _resolve_target(expr, module)
        if target is not None:
            return ParamInfo(param.name.value, "resolve", text, target)
    return ParamInfo(param.name.value, "plain", text)


def _tool_server(decorator: cst.Decorator, servers: Collection[str]) -> str | None:
    """`@server.tool(...)` or `@server.tool` on a server variable (defined here or imported)."""
    target = decorator.decorator
    if isinstance(target, cst.Call):
        target = target.func
    if isinstance(target, cst.Attribute) and target.attr.value == "tool":
        owner = dotted_name(target.value)
        if owner in servers:
            return owner
    return None


def _registered_name(decorators: Sequence[cst.Decorator], server: str) -> str | None:
    """The `name="..."` given to `@server.tool(...)`, when it is a plain string."""
    for decorator in decorators:
        call = decorator.decorator
        if isinstance(call, cst.Call) and dotted_name(call.func) == f"{server}.tool":
            for arg in call.args:
                if (
                    arg.keyword is not None
                    and arg.keyword.value == "name"
                    and isinstance(arg.value, cst.SimpleString)
                ):
                    value = arg.value.evaluated_value
                    return value if isinstance(value, str) else None
    return None


def _is_main_guard(stmt: cst.BaseStatement) -> bool:
    if not isinstance(stmt, cst.If) or not isinstance(stmt.test, cst.Comparison):
        return False
    parts = [stmt.test.left, *(c.comparator for c in stmt.test.comparisons)]
    names = {p.value for p in parts if isinstance(p, cst.Name)}
    strings = {p.evaluated_value for p in parts if isinstance(p, cst.SimpleString)}
    return names == {"__name__"} and strings == {"__main__"}


def _assigned_names(stmt: cst.BaseSmallStatement) -> list[tuple[str, cst.BaseExpression | None]]:
    """Names bound by one small statement, with the assigned value when there is one."""
    if isinstance(stmt, cst.Assign):
        return [(t.target.value, stmt.value) for t in stmt.targets if isinstance(t.target, cst.Name)]
    if isinstance(stmt, cst.AnnAssign) and isinstance(stmt.target, cst.Name):
        return [(stmt.target.value, stmt.value)]
    if isinstance(stmt, cst.Import):
        return [(a.evaluated_alias or a.evaluated_name.split(".")[0], None) for a in stmt.names]
    if isinstance(stmt, cst.ImportFrom) and not isinstance(stmt.names, cst.ImportStar):
        return [(a.evaluated_alias or a.evaluated_name, None) for a in stmt.names]
    return []


def _is_future_annotations(stmt: cst.BaseSmallStatement) -> bool:
    return (
        isinstance(stmt, cst.ImportFrom)
        and dotted_name(stmt.module or cst.Name("_")) == "__future__"
        and not isinstance(stmt.names, cst.ImportStar)
        and any(a.evaluated_name == "annotations" for a in stmt.names)
    )


def _add_tool_registrations(info: ModuleInfo, index: int, stmt: cst.SimpleStatementLine) -> None:
    """`server.add_tool(fn, ...)` counts as a tool registration at that position."""
    for small in stmt.body:
        call = small.value if isinstance(small, cst.Expr) else None
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute):
            owner = dotted_name(call.func.value)
            if call.func.attr.value == "add_tool" and owner in info.servers.keys() | info.imported:
                info.tool_indexes.setdefault(owner, []).append(index)


def read_module(source: str, path: str) -> ModuleInfo:
    """Scan the module-level statements of `source`."""
    module = parse(source, path)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    info = ModuleInfo(module=module)
    last = len(module.body) - 1
    for index, stmt in enumerate(module.body):
        line = positions[stmt].start.line
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                info.postponed = info.postponed or _is_future_annotations(small)
                for name, value in _assigned_names(small):
                    if isinstance(small, (cst.Import, cst.ImportFrom)):
                        info.imported.add(name)
                    info.bindings.setdefault(name, line)
                    info.binding_index.setdefault(name, index)
                    if isinstance(value, cst.Call) and _last_part(value.func) == "MCPServer":
                        info.servers[name] = ServerInfo(name, index, line)
            _add_tool_registrations(info, index, stmt)
        elif isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            line = positions[stmt.name].start.line
            info.bindings.setdefault(stmt.name.value, line)
            info.binding_index.setdefault(stmt.name.value, index)
            if isinstance(stmt, cst.FunctionDef):
                owners = info.servers.keys() | info.imported
                server = next((s for d in stmt.decorators if (s := _tool_server(d, owners))), None)
                params = stmt.params
                all_params = [*params.posonly_params, *params.params, *params.kwonly_params]
                info.functions[stmt.name.value] = FunctionInfo(
                    name=stmt.name.value,
                    index=index,
                    line=line,
                    is_async=stmt.asynchronous is not None,
                    params=tuple(_classify(p, module) for p in all_params),
                    returns=code_of(module, stmt.returns.annotation) if stmt.returns else None,
                    server=server,
                )
                if server:
                    info.tool_indexes.setdefault(server, []).append(index)
                    registered = _registered_name(stmt.decorators, server) or stmt.name.value
                    info.tool_names.setdefault((server, registered), line)
        elif index == last and _is_main_guard(stmt):
            info.main_index = index
    return info
