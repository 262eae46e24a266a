"""The server's constructor in 2.x: transport settings move to `run()` and the app factories.

The guide: `host`, `port`, `sse_path`, `message_path`, `streamable_http_path`, `json_response`,
`stateless_http`, `event_store`, `retry_interval`, `max_request_body_size`, `transport_security`
(and the session limits) left `MCPServer(...)`, which raises `TypeError` on them; `run()`,
`sse_app()` and `streamable_http_app()` take those of their transport. `mount_path` is gone
everywhere (ASGI's `root_path` does its work). The constructor's positional order changed
(`title` and `description` now come before `instructions`), so every argument after the name
is passed by keyword, as v1 read it.

A setting is copied to each start of the same server in the module that takes it: a literal
anywhere, a name only where it means the same thing (module level, or the function that built
the server). `run()` with a transport chosen at run time gets the settings every HTTP transport
takes (stdio ignores them, as v1 did). What has nowhere to go is a note.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import field

import libcst as cst

from ...resolver_core.records import slotted
from ..fixes.cst_source import dotted_name

V1_POSITIONAL = (
    "name",
    "instructions",
    "website_url",
    "icons",
    "auth_server_provider",
    "token_verifier",
    "event_store",
    "retry_interval",
)
"""`FastMCP.__init__`'s positional parameters in mcp 1.x, in order."""

SHARED = frozenset({"host", "port", "max_request_body_size", "transport_security"})
SSE_RUN = SHARED | {"sse_path", "message_path"}
HTTP_RUN = SHARED | {
    "streamable_http_path",
    "json_response",
    "stateless_http",
    "event_store",
    "retry_interval",
    "session_idle_timeout",
    "max_sessions",
}
SSE_APP = SSE_RUN - {"port"}
HTTP_APP = HTTP_RUN - {"port"}
MOVED = SSE_RUN | HTTP_RUN
STARTS = {
    "sse_app": SSE_APP,
    "streamable_http_app": HTTP_APP,
    "run_sse_async": SSE_RUN,
    "run_streamable_http_async": HTTP_RUN,
}
RUN_BY_TRANSPORT = {"stdio": frozenset(), "sse": SSE_RUN, "streamable-http": HTTP_RUN}
SERVER_CLASSES = ("FastMCP", "MCPServer")


@slotted
class _Server:
    """A server made in the migrated module: where, by which call, and the settings it takes."""

    scope: cst.FunctionDef | None
    built_by: cst.Call
    settings: list[cst.Arg] = field(default_factory=list)
    started: bool = False


def _function_of(stack: Sequence[cst.FunctionDef]) -> cst.FunctionDef | None:
    return stack[-1] if stack else None


class _Finder(cst.CSTVisitor):
    """Where each server is built (and its moved settings), before anything is rewritten."""

    def __init__(self) -> None:
        self.servers: dict[str, _Server] = {}
        self._stack: list[cst.FunctionDef] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._stack.append(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._stack.pop()

    def visit_Assign(self, node: cst.Assign) -> None:
        call = node.value
        if not isinstance(call, cst.Call) or dotted_name(call.func).rpartition(".")[2] not in SERVER_CLASSES:
            return
        for target in node.targets:
            name = dotted_name(target.target)
            if name:
                moved = [a for a in call.args if a.keyword is not None and a.keyword.value in MOVED]
                self.servers[name] = _Server(_function_of(self._stack), call, moved)


def _is_constant(node: cst.CSTNode) -> bool:
    """No name in it but True/False/None: it means the same anywhere."""
    if isinstance(node, cst.Name):
        return node.value in ("True", "False", "None")
    return all(_is_constant(child) for child in node.children)


def _transport(call: cst.Call) -> str | None:
    """The literal transport of `run(...)` ("stdio" when omitted), None when chosen at run time."""
    for index, arg in enumerate(call.args):
        if (arg.keyword is None and index == 0 and not arg.star) or (
            arg.keyword and arg.keyword.value == "transport"
        ):
            if isinstance(arg.value, cst.SimpleString):
                return str(ast.literal_eval(arg.value.value))
            return None
    return "stdio"


class ConstructorTransformer(cst.CSTTransformer):
    def __init__(self, module: cst.Module) -> None:
        super().__init__()
        finder = _Finder()
        module.visit(finder)
        self.servers = finder.servers
        self.notes: list[tuple[cst.CSTNode, str]] = []
        """What is left to the user, at nodes of the input tree (as `NamesTransformer.notes`)."""
        self._stack: list[cst.FunctionDef] = []

    def _note(self, node: cst.CSTNode, reason: str) -> None:
        self.notes.append((node, reason))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._stack.append(node)

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self._stack.pop()
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = dotted_name(updated.func)
        if func.rpartition(".")[2] in SERVER_CLASSES:
            return self._constructor(original, updated)
        receiver, _, method = func.rpartition(".")
        server = self.servers.get(receiver)
        if server is None:
            return updated
        if method == "run":
            transport = _transport(updated)
            accepted = SHARED if transport is None else RUN_BY_TRANSPORT.get(transport, frozenset())
            return self._start(original, updated, server, accepted, mount_at=1)
        if method in STARTS:
            return self._start(
                original, updated, server, STARTS[method], mount_at=0 if method == "sse_app" else -1
            )
        return updated

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        for server in self.servers.values():
            if server.settings and not server.started:
                names = ", ".join(f"`{a.keyword.value}=`" for a in server.settings if a.keyword is not None)
                self._note(
                    server.built_by,
                    f"{names} left the constructor in mcp 2: pass them to `run()`, `sse_app()` or "
                    "`streamable_http_app()` where the server is started",
                )
        return updated

    def _constructor(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        args: list[cst.Arg] = []
        for index, arg in enumerate(updated.args):
            if arg.star:
                self._note(original, "settings passed with `*`/`**` may include ones mcp 2 moved to `run()`")
                args.append(arg)
            elif arg.keyword is None and index > 0:
                if index >= len(V1_POSITIONAL):
                    self._note(
                        original, "too many positional arguments for the 1.x constructor; left as they are"
                    )
                    return updated
                args.append(arg.with_changes(keyword=cst.Name(V1_POSITIONAL[index]), equal=_equal()))
            elif arg.keyword is not None and arg.keyword.value == "mount_path":
                self._note(original, "`mount_path` was removed in mcp 2 (mounting sets ASGI's `root_path`)")
            elif arg.keyword is None or arg.keyword.value not in MOVED:
                args.append(arg)
        if len(args) == len(updated.args) and all(a is b for a, b in zip(args, updated.args, strict=True)):
            return updated
        return updated.with_changes(args=_tidy(args))

    def _start(
        self, original: cst.Call, updated: cst.Call, server: _Server, accepted: frozenset[str], mount_at: int
    ) -> cst.Call:
        """A start of the server: v1's `mount_path` dropped, the moved settings it takes added."""
        args = []
        for index, arg in enumerate(updated.args):
            if arg.keyword is not None:
                mount = arg.keyword.value == "mount_path"
            else:
                mount = index == mount_at and not arg.star
            if mount:
                self._note(original, "`mount_path` was removed in mcp 2 (mounting sets ASGI's `root_path`)")
                continue
            args.append(arg)
        present = {a.keyword.value for a in args if a.keyword is not None}
        here = _function_of(self._stack)
        for setting in server.settings:
            name = setting.keyword.value if setting.keyword is not None else ""
            if name not in accepted or name in present:
                continue
            if _is_constant(setting.value) or server.scope is None or server.scope is here:
                args.append(cst.Arg(keyword=cst.Name(name), value=setting.value, equal=_equal()))
                server.started = True
            else:
                self._note(
                    original, f"`{name}=` uses names of the function that builds the server: pass it here"
                )
        if any(s.keyword and s.keyword.value not in SHARED for s in server.settings) and accepted is SHARED:
            self._note(
                original, "the transport is chosen at run time: pass its own settings to `run()` for it"
            )
        server.started = server.started or not server.settings
        return updated.with_changes(args=_tidy(args))


def _equal() -> cst.AssignEqual:
    return cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
    )


def _tidy(args: list[cst.Arg]) -> list[cst.Arg]:
    """Commas between arguments, none after the last unless the call had one per line."""
    out = []
    for index, arg in enumerate(args):
        last = index == len(args) - 1
        comma = arg.comma
        if not last and not isinstance(comma, cst.Comma):
            comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        elif last and isinstance(comma, cst.Comma) and "\n" not in cst.Module([]).code_for_node(comma):
            comma = cst.MaybeSentinel.DEFAULT
        out.append(arg.with_changes(comma=comma))
    return out
