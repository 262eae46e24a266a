"""The live builder: the same `Graph` as the static builder, read from an imported server.

Everything that decides behaviour comes from the SDK's own objects, built at
registration: the published input schema (`Tool.parameters`), `context_kwarg`,
`resolved_params` (from `find_resolved_parameters`) and `resolver_plans` (from
`build_resolver_plans`), with `_resolver_key` for identity and `_state_key` for
ids. Source text (annotations, defaults, `Elicit` messages) comes from `inspect`
and the file's `ast`, only for display. The test suite compares this graph's JSON
with the static one on every valid case: that is what keeps the static view honest.

Only `--live`, `serve` and `call` import this module: it imports `mcp`.
"""

from __future__ import annotations

import ast
import functools
import inspect
import os
import types
import typing
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver import Elicit, ListRoots, Sample
from mcp.server.mcpserver.resolve import _resolver_key, _state_key, _type_hints

from .live_site import creation_site, evaluate
from .model import (
    Graph,
    Parameter,
    ParamKind,
    Question,
    QuestionKind,
    Resolver,
    ResolverKind,
    Server,
    Span,
    Tool,
)
from .records import slotted
from .sampling import fill_sample
from .signatures import function_params, returns_of
from .written_decorators import is_registration, written_chain

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable

    from mcp.server import MCPServer
    from mcp.server.mcpserver.tools.base import Tool as SdkTool

    from .loading import LoadedServer

_PLAN_KINDS: dict[str, ParamKind] = {"context": "context", "resolve": "resolved", "by_name": "tool_argument"}
_QUESTIONS: dict[type, QuestionKind] = {Elicit: "elicit", Sample: "sample", ListRoots: "list_roots"}
_Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef


# ------------------------------------------------------------------------ source


@slotted
class _Source:
    """Parsed files and display paths, so each file is read once per graph."""

    cwd: Path
    displays: dict[Path, str] = field(default_factory=dict)
    trees: dict[Path, tuple[str, ast.Module] | None] = field(default_factory=dict)

    def display(self, path: Path) -> str:
        """How the static builder names the file: as given, else relative to the cwd when under it."""
        path = path.absolute()
        if path in self.displays:
            return self.displays[path]
        return os.path.relpath(path, self.cwd) if path.is_relative_to(self.cwd) else str(path)

    def tree(self, path: Path) -> tuple[str, ast.Module] | None:
        if path not in self.trees:
            try:
                text = path.read_text(encoding="utf-8")
                self.trees[path] = (text, ast.parse(text, filename=str(path)))
            except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
                self.trees[path] = None
        return self.trees[path]

    def node(self, obj: Any) -> tuple[Path, str, _Def] | None:
        """The `def`/`class`/`lambda` node that defines `obj`, with its file and source text."""
        located = _location(obj)
        if located is None:
            return None
        path, first, kind = located
        parsed = self.tree(path)
        if parsed is None:
            return None
        text, tree = parsed
        wanted: tuple[type[_Def], ...] = {
            "lambda": (ast.Lambda,),
            "class": (ast.ClassDef,),
        }.get(kind, (ast.FunctionDef, ast.AsyncFunctionDef))
        best: _Def | None = None
        for node in ast.walk(tree):
            if not isinstance(node, wanted):
                continue
            start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            closer = best is None or node.col_offset < best.col_offset
            if first in (start, node.lineno) and closer:
                best = node
        return (path, text, best) if best is not None else None

    def span(self, obj: Any) -> Span | None:
        found = self.node(obj)
        if found is None:
            return None
        path, _, node = found
        return Span(self.display(path), node.lineno, node.col_offset + 1, node.lineno, node.col_offset + 1)


def _location(obj: Any) -> tuple[Path, int, str] | None:
    """(file, first line as `inspect` reports it, what to look for) of a function or class."""
    if inspect.isclass(obj):
        try:
            file = inspect.getsourcefile(obj)
            _, line = inspect.getsourcelines(obj)
        except (OSError, TypeError):
            return None
        return (Path(file), line, "class") if file else None
    code = getattr(obj, "__code__", None)
    if code is None:
        return None
    kind = "lambda" if code.co_name == "<lambda>" else "def"
    return Path(code.co_filename), code.co_firstlineno, kind


def _segment(text: str, node: ast.AST | None) -> str | None:
    if node is None:
        return None
    found = ast.get_source_segment(text, node)
    return " ".join(found.split()) if found is not None else ast.unparse(node)


# ------------------------------------------------------------------ callables


def _code_owner(fn: Any) -> Any:
    """The function or class whose source defines the callable `fn` (what `inspect` can locate)."""
    while isinstance(fn, functools.partial):
        fn = fn.func
    if inspect.ismethod(fn):  # a decorated method: the def behind its `__wrapped__` chain
        fn = fn.__func__
        return inspect.unwrap(fn) if callable(fn) else fn
    fn = inspect.unwrap(fn)
    if inspect.isfunction(fn) or inspect.isclass(fn):
        return fn
    call = type(fn).__call__ if callable(fn) else None
    return call if inspect.isfunction(call) else fn


def _decorated_origin(fn: Any, depth: int = 0) -> Any:
    """The function whose `def` carries the decorators that made `fn` (display only).

    `functools.wraps` leaves a `__wrapped__` chain to it; a wrapper made without it keeps
    the function it wraps in its closure (or, for a class used as a decorator, in the
    instance's attributes).
    """
    if depth > 8:
        return fn
    while isinstance(fn, functools.partial):
        fn = fn.func
    if inspect.ismethod(fn):
        fn = fn.__func__
    inner = inspect.unwrap(fn) if callable(fn) else fn
    if inner is not fn:
        return inner
    if inspect.isfunction(fn):
        held = [c.cell_contents for c in fn.__closure__ or () if _filled(c)]
    elif not inspect.isclass(fn) and hasattr(fn, "__dict__"):
        held = list(vars(fn).values())
    else:
        return fn
    found = next((h for h in held if inspect.isfunction(h)), None)
    return _decorated_origin(found, depth + 1) if found is not None else fn


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


def _kind(fn: Any) -> ResolverKind:
    if isinstance(fn, functools.partial):
        return "partial"
    if hasattr(fn, "__wrapped__") and not (inspect.isfunction(fn) or inspect.ismethod(fn)):  # functools.cache
        return _kind(inspect.unwrap(fn))
    if inspect.ismethod(fn):
        return "classmethod" if inspect.isclass(fn.__self__) else "bound_method"
    if inspect.isclass(fn):
        return "class"
    if inspect.isfunction(fn):
        return "lambda" if fn.__name__ == "<lambda>" else "function"
    if inspect.isbuiltin(fn):
        return "builtin"
    return "callable_instance"


def _question_kind(arm: Any) -> QuestionKind | None:
    origin = typing.get_origin(arm) or arm
    return next(
        (k for cls, k in _QUESTIONS.items() if inspect.isclass(origin) and issubclass(origin, cls)), None
    )


def _arms(annotation: Any) -> list[Any]:
    if typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return list(typing.get_args(annotation))
    return [annotation]


# ------------------------------------------------------------------------ builder


class LiveBuilder:
    """Builds one `Graph` from registered tools; resolvers are shared across tools by SDK identity."""

    def __init__(self, source: _Source) -> None:
        self.source = source
        self.graph = Graph()
        self._ids: dict[Hashable, str] = {}
        self._bases: dict[str, int] = {}

    # -------------------------------------------------------------- resolvers
    def resolver_id(self, fn: Callable[..., Any], plans: dict[Hashable, Any]) -> str:
        """The id of `fn`, building its node (and its dependencies', first) on first sight."""
        key = _resolver_key(fn)
        if key in self._ids:
            return self._ids[key]
        base = _state_key(fn)
        seen = self._bases.get(base, 0)
        self._bases[base] = seen + 1
        rid = base if seen == 0 else f"{base}#{seen}"
        self._ids[key] = rid
        module, _, qualname = base.partition(":")
        kind = _kind(fn)
        owner = _code_owner(fn)
        resolver = Resolver(
            id=rid,
            name=qualname if kind in ("lambda", "partial") else qualname.rpartition(".")[2],
            qualname=qualname,
            module=module,
            kind=kind,
            span=self.source.span(owner),
            is_async=False,
            decorators=self.decorators(fn, for_tool=False),
        )
        self.graph.resolvers[rid] = resolver
        plan = plans.get(key)
        if plan is None:
            return rid
        resolver.is_async = plan.is_async
        texts = self._param_texts(owner)
        for name, p in plan.params.items():
            annotation, default = texts.get(name, (None, None))
            param = Parameter(
                name,
                _PLAN_KINDS[p.kind],
                None,
                annotation=annotation,
                default=default,
                wants_union=p.wants_union,
            )
            if p.resolve is not None:
                param.resolver = self.resolver_id(p.resolve.fn, plans)
            resolver.parameters.append(param)
        resolver.questions = self._questions(fn, owner)
        return rid

    def decorators(self, fn: Any, *, for_tool: bool) -> tuple[str, ...]:
        """The decorator chain written on the def behind `fn` (the static builder shows the same)."""
        origin = _decorated_origin(fn)
        found = self.source.node(origin) if not inspect.isclass(origin) else None
        if found is None:
            return ()
        _, text, node = found
        namespace = getattr(origin, "__globals__", {}) or {}

        def registrar(d: ast.expr) -> bool:  # `deco = mcp.tool()` used as `@deco`
            target = evaluate(d, namespace) if isinstance(d, ast.Name | ast.Attribute) else None
            return is_registration(d) or "MCPServer." in getattr(target, "__qualname__", "")

        return tuple(written_chain(lambda d: _segment(text, d), node, for_tool=for_tool, registrar=registrar))

    def _param_texts(self, owner: Any) -> dict[str, tuple[str | None, str | None]]:
        """Annotation and default source text of each parameter, for display."""
        found = self.source.node(owner)
        if found is None:
            return {}
        _, text, node = found
        if isinstance(node, ast.ClassDef):
            return {}
        return {
            arg.arg: (_segment(text, arg.annotation), _segment(text, default))
            for arg, _, _, default in function_params(node)
        }

    def _questions(self, fn: Any, owner: Any) -> list[Question]:
        """Questions from the return annotation's arms, detailed by `return Elicit(...)` statements."""
        span = self.source.span(owner)
        found: list[Question] = []
        for arm in _arms(_type_hints(fn).get("return")):
            kind = _question_kind(arm)
            if kind is not None:
                args = typing.get_args(arm)
                model = args[0] if kind == "elicit" and args else None
                found.append(Question(kind, span, model=_name(model), fields=self._fields(model)))
        located = self.source.node(owner)
        if located is None:
            return found
        path, text, node = located
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            return found
        namespace = getattr(owner, "__globals__", {}) or {}  # where the parsed `return` lines run
        for ret in returns_of(node):
            call = ret.value
            if not isinstance(call, ast.Call):
                continue
            kind = _question_kind(evaluate(call.func, namespace))
            if kind is None:
                continue
            q = next((q for q in found if q.kind == kind and q.node is None), None)
            if q is None:
                q = Question(kind, None)
                found.append(q)
            q.node = call
            if kind == "sample":
                fill_sample(q, call, node)
            q.span = Span.of(self.source.display(path), call)
            if kind != "list_roots":
                message = (
                    call.args[0]
                    if call.args
                    else next((k.value for k in call.keywords if k.arg == "message"), None)
                )
                q.message = _segment(text, message)
            if kind == "elicit":
                schema = (
                    call.args[1]
                    if len(call.args) > 1
                    else next((k.value for k in call.keywords if k.arg == "schema"), None)
                )
                model = evaluate(schema, namespace) if schema is not None else None
                if inspect.isclass(model):
                    q.model, q.fields = _name(model), self._fields(model)
        return found

    def _fields(self, model: Any) -> list[tuple[str, str]]:
        """The model's annotated fields as written in its class body."""
        found = self.source.node(model) if inspect.isclass(model) else None
        if found is None:
            return []
        _, text, node = found
        if not isinstance(node, ast.ClassDef):
            return []
        return [
            (s.target.id, _segment(text, s.annotation) or "")
            for s in node.body
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
        ]

    # ------------------------------------------------------------------ tools
    def tool(self, sdk_tool: SdkTool) -> Tool:
        fn = sdk_tool.fn
        owner = _code_owner(fn)
        properties = list(sdk_tool.parameters.get("properties", {}))
        fields = sdk_tool.fn_metadata.arg_model.model_fields
        texts = self._param_texts(owner)
        tool = Tool(
            name=sdk_tool.name,
            function=getattr(fn, "__qualname__", type(fn).__qualname__),
            module=getattr(fn, "__module__", None) or type(fn).__module__,
            span=self.source.span(owner),
            registration=None,
            is_async=sdk_tool.is_async,
            named=True,  # registered: the SDK had a name for it
            context=sdk_tool.context_kwarg,
            decorators=self.decorators(fn, for_tool=True),
        )
        for name in inspect.signature(fn).parameters:
            annotation, default = texts.get(name, (None, None))
            param = Parameter(name, "tool_argument", None, annotation=annotation, default=default)
            if name in sdk_tool.resolved_params:  # first: `Annotated[Context, Resolve(f)]` gets f's value
                marker, wants_union = sdk_tool.resolved_params[name]
                param.kind, param.wants_union = "resolved", wants_union
                param.resolver = self.resolver_id(marker.fn, sdk_tool.resolver_plans)
            elif name == sdk_tool.context_kwarg:
                param.kind = "context"
            else:
                alias = fields[name].alias if name in fields else None
                param.alias = alias if alias and alias != name else None
                if (param.alias or name) not in properties:
                    continue
            tool.parameters.append(param)
        return tool


def _name(obj: Any) -> str | None:
    return getattr(obj, "__name__", None) if obj is not None else None


def build_live_graph(
    server: MCPServer | LoadedServer,
    *,
    display: str | None = None,
    cwd: Path | None = None,
) -> Graph:
    """The graph of an imported server (or a `LoadedServer`), built from the SDK's own objects.

    `display` is how the user named the server's file (relative stays relative),
    so paths match the static graph of the same file.
    """
    loaded = None if hasattr(server, "_tool_manager") else server
    mcp_server: MCPServer = loaded.server if loaded is not None else server  # type: ignore[assignment]
    source = _Source((cwd or Path.cwd()).absolute())
    if loaded is not None and display is not None:
        source.displays[loaded.path.absolute()] = display
    builder = LiveBuilder(source)
    tools = [builder.tool(t) for t in mcp_server._tool_manager.list_tools()]
    module_name, path, variable, call = creation_site(mcp_server, loaded)
    shown = source.display(path) if path is not None else "?"
    builder.graph.servers.append(
        Server(
            id=f"{module_name}:{variable}",
            name=mcp_server.name,
            variable=variable,
            module=module_name,
            path=shown,
            span=Span.of(shown, call) if call is not None else None,
            tools=tools,
        )
    )
    return builder.graph


def load_server(spec: str | None, *, cwd: Path | None = None) -> LoadedServer:
    """Import the server a spec names (re-exported from `loading`, as architecture.md promises)."""
    from .loading import load_server as load

    return load(spec, cwd=cwd)
