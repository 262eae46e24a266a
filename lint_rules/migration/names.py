"""Renames and moves from the SDK's migration guide, one module at a time.

Modules: `mcp.server.fastmcp[.sub]` → `mcp.server.mcpserver[.sub]` (same structure),
`mcp.shared.version` → `mcp.types.version`. Names imported from them: `FastMCP` →
`MCPServer`, `FastMCPError` → `MCPServerError`, `McpError` → `MCPError` (whose
constructor now takes code and message: `McpError(error_data)` becomes
`MCPError.from_error_data(error_data)`), `Content` → `ContentBlock`, `ResourceReference`
→ `ResourceTemplateReference`, `Cursor` → `str`. A renamed name imported without `as` is
renamed wherever the module uses it. Attributes: `ctx.fastmcp` → `ctx.mcp_server`,
`server._mcp_server` → `server._lowlevel_server`, and the protocol types' camelCase fields
(`result.isError` → `result.is_error`) in modules that import from `mcp`.
`ctx.log(level=..., message=...)` takes `data=`. `server.get_context()` in a tool becomes the
tool's own `Context` parameter (added when the tool has none); elsewhere it is a note.
"""

from __future__ import annotations

import libcst as cst

from ..fixes.cst_source import dotted_name

MODULE_MOVES = {"mcp.server.fastmcp": "mcp.server.mcpserver", "mcp.shared.version": "mcp.types.version"}

NAME_RENAMES = {
    "FastMCP": "MCPServer",
    "FastMCPError": "MCPServerError",
    "McpError": "MCPError",
    "Content": "ContentBlock",
    "ResourceReference": "ResourceTemplateReference",
}
"""Names the guide renames, when imported from an `mcp` module."""

REMOVED_FOR_STR = frozenset({"Cursor"})

REMOVED_APIS = {
    "streamablehttp_client": "use `streamable_http_client` (headers, timeout and auth go on an `httpx2.AsyncClient`)",
    "create_connected_server_and_client_session": "use `mcp.Client(server)`",
    "progress": "call `ctx.report_progress(progress, total)`, with the running total rather than deltas",
    "ProgressContext": "call `ctx.report_progress(progress, total)`, with the running total rather than deltas",
    "websocket_client": "use the streamable HTTP transport",
    "websocket_server": "use the streamable HTTP transport",
    "RFC7523OAuthClientProvider": "see the guide's OAuth section",
    "JWTParameters": "see the guide's OAuth section",
}
"""Names the guide removes without a drop-in replacement: each import of one is a note, never a guess."""
"""Type aliases removed in favour of `str`."""

CAMEL_FIELDS = {
    "inputSchema": "input_schema",
    "outputSchema": "output_schema",
    "isError": "is_error",
    "nextCursor": "next_cursor",
    "mimeType": "mime_type",
    "structuredContent": "structured_content",
    "stopReason": "stop_reason",
    "serverInfo": "server_info",
    "protocolVersion": "protocol_version",
    "maxTokens": "max_tokens",
    "systemPrompt": "system_prompt",
    "includeContext": "include_context",
    "stopSequences": "stop_sequences",
    "modelPreferences": "model_preferences",
    "uriTemplate": "uri_template",
    "resourceTemplates": "resource_templates",
    "progressToken": "progress_token",
    "requestedSchema": "requested_schema",
    "listChanged": "list_changed",
}
"""Protocol-type fields renamed to snake_case (attribute access; `mimeType=` keywords still construct)."""

ATTRIBUTE_RENAMES = {"fastmcp": "mcp_server", "_mcp_server": "_lowlevel_server"}


def _is_mcp_module(name: str) -> bool:
    return name == "mcp" or name.startswith("mcp.")


def _moved(module: str) -> str:
    for old, new in MODULE_MOVES.items():
        if module == old or module.startswith(old + "."):
            return new + module[len(old) :]
    return module


def _dotted(module: str) -> cst.Attribute | cst.Name:
    parts = module.split(".")
    node: cst.Attribute | cst.Name = cst.Name(parts[0])
    for part in parts[1:]:
        node = cst.Attribute(value=node, attr=cst.Name(part))
    return node


def is_context_annotation(annotation: cst.Annotation | None) -> bool:
    """`Context`, `Context[...]`, `fastmcp.Context`: the parameter the SDK injects."""
    if annotation is None:
        return False
    node = annotation.annotation
    if isinstance(node, cst.Subscript):
        node = node.value
    return dotted_name(node).rpartition(".")[2] == "Context"


def tool_decorator(function: cst.FunctionDef) -> str | None:
    """The server variable of `@server.tool(...)` / `.resource(...)` / `.prompt(...)`, if any."""
    for decorator in function.decorators:
        node = decorator.decorator
        if isinstance(node, cst.Call):
            node = node.func
        if isinstance(node, cst.Attribute) and node.attr.value in ("tool", "resource", "prompt"):
            return dotted_name(node.value) or None
    return None


class NamesTransformer(cst.CSTTransformer):
    """The renames; `notes` collects what was left to the user."""

    def __init__(self) -> None:
        super().__init__()
        self.renamed: dict[str, str] = {}
        self.module_aliases: set[str] = set()
        self.imports_mcp = False
        self.imports_fastmcp = False
        """The module imports the SDK's `mcp.server.fastmcp`: only then is `ctx.fastmcp` its Context's
        (the standalone `fastmcp` package's Context keeps that attribute)."""
        self.notes: list[tuple[cst.CSTNode, str]] = []
        """What is left to the user, at nodes of the input tree (`pipeline.located` finds their lines:
        positions cost a pass over the tree, and most modules have no note)."""
        self._functions: list[cst.FunctionDef] = []
        self._needs_context: list[bool | None] = []
        """Per function being visited: None (no `get_context()`), else whether a parameter is added."""
        self.context_added = False

    # Imports: found on the way down (uses may precede them textually only in functions).
    def visit_Module(self, node: cst.Module) -> None:
        for statement in node.body:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    self._learn(small)

    def _learn(self, small: cst.BaseSmallStatement) -> None:
        if isinstance(small, cst.ImportFrom) and small.relative == () and small.module is not None:
            module = dotted_name(small.module)
            if not _is_mcp_module(module):
                return
            self.imports_mcp = True
            self.imports_fastmcp |= _moved(module) != module and module.startswith("mcp.server.fastmcp")
            if isinstance(small.names, cst.ImportStar):
                return
            for alias in small.names:
                name = dotted_name(alias.name)
                if alias.asname is None and (name in NAME_RENAMES or name in REMOVED_FOR_STR):
                    self.renamed[name] = NAME_RENAMES.get(name, "str")
        elif isinstance(small, cst.Import):
            for alias in small.names:
                name = dotted_name(alias.name)
                if _is_mcp_module(name):
                    self.imports_mcp = True
                    self.imports_fastmcp |= name.startswith("mcp.server.fastmcp")
                    if alias.asname is not None and _moved(name) != name:
                        self.module_aliases.add(dotted_name(alias.asname.name))

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom) -> cst.ImportFrom:
        if updated.relative or updated.module is None:
            return updated
        module = dotted_name(updated.module)
        if not _is_mcp_module(module):
            return updated
        changes: dict[str, object] = {}
        if _moved(module) != module:
            changes["module"] = _dotted(_moved(module))
        if not isinstance(updated.names, cst.ImportStar) and not isinstance(original.names, cst.ImportStar):
            names = []
            for before, alias in zip(original.names, updated.names, strict=True):
                name = dotted_name(before.name)  # `Cursor` itself: its uses became `str` already
                if name in REMOVED_FOR_STR and before.asname is None:
                    continue
                if name in REMOVED_FOR_STR:
                    self.notes.append((original, f"`{name}` was removed in mcp 2: use `str`"))
                if name in REMOVED_APIS:
                    self.notes.append((original, f"`{name}` was removed in mcp 2: {REMOVED_APIS[name]}"))
                if name in NAME_RENAMES:
                    alias = alias.with_changes(name=cst.Name(NAME_RENAMES[name]))
                names.append(alias)
            if len(names) != len(updated.names):
                if not names:
                    return cst.RemovalSentinel.REMOVE  # type: ignore[return-value]
                names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            changes["names"] = names
        return updated.with_changes(**changes) if changes else updated

    def leave_Import(self, original: cst.Import, updated: cst.Import) -> cst.Import:
        names = [alias.with_changes(name=_dotted(_moved(dotted_name(alias.name)))) for alias in updated.names]
        return updated.with_changes(names=names)

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return (
            updated.with_changes(value=self.renamed[updated.value])
            if updated.value in self.renamed
            else updated
        )

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        dotted = dotted_name(updated)
        if dotted and _moved(dotted) != dotted and dotted.startswith("mcp."):
            return _dotted(_moved(dotted))
        attr = updated.attr.value
        base = dotted_name(updated.value)
        if (base.startswith("mcp.") or base in self.module_aliases) and attr in NAME_RENAMES:
            return updated.with_changes(attr=cst.Name(NAME_RENAMES[attr]))
        if attr in ATTRIBUTE_RENAMES and base != "mcp.server" and self.imports_fastmcp:
            return updated.with_changes(attr=cst.Name(ATTRIBUTE_RENAMES[attr]))
        if self.imports_mcp and attr in CAMEL_FIELDS:
            return updated.with_changes(attr=cst.Name(CAMEL_FIELDS[attr]))
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = dotted_name(updated.func)
        single = len(updated.args) == 1 and updated.args[0].keyword is None and not updated.args[0].star
        if (
            single
            and func.rpartition(".")[2] in ("McpError", "MCPError")
            and self._is_renamed_error(original)
        ):
            return updated.with_changes(
                func=cst.Attribute(value=updated.func, attr=cst.Name("from_error_data"))
            )
        if isinstance(updated.func, cst.Attribute):
            attr = updated.func.attr.value
            if attr == "log":
                return _renamed_keyword(updated, "message", "data")
            if attr == "get_context" and not updated.args:
                return self._context(original, updated)
        return updated

    def _is_renamed_error(self, call: cst.Call) -> bool:
        name = dotted_name(call.func)
        return name.rpartition(".")[2] == "McpError" or (name == "MCPError" and "McpError" in self.renamed)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._functions.append(node)
        self._needs_context.append(None)

    def _context(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        """`server.get_context()` inside a tool: the tool's Context parameter (added if missing)."""
        function = self._functions[-1] if self._functions else None
        if function is None or tool_decorator(function) is None:
            self.notes.append(
                (
                    original,
                    "`get_context()` was removed in mcp 2: pass the tool's `Context` parameter to this code",
                )
            )
            return updated
        existing = _context_param(function)
        self._needs_context[-1] = existing is None
        return cst.Name(existing or "ctx")

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        function = self._functions.pop()
        needs = self._needs_context.pop()
        if needs is None:
            return updated
        name = _context_param(function) or "ctx"
        if needs:
            self.context_added = True
            context = cst.Param(name=cst.Name(name), annotation=cst.Annotation(cst.Name("Context")))
            updated = one_per_line(add_param(updated, context), len(self._functions))
        return _without_self_assignment(updated, name)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        """`ctx.client_id` has no 2.x equivalent with the same meaning: reported, not rewritten."""
        context = _context_param(self._functions[-1]) if self._functions else None
        if node.attr.value == "client_id" and context and dotted_name(node.value) == context:
            self.notes.append(
                (
                    node,
                    "`Context.client_id` was removed in mcp 2: read `ctx.request_context.meta` "
                    "or the OAuth access token instead",
                )
            )


def _renamed_keyword(call: cst.Call, old: str, new: str) -> cst.Call:
    """`ctx.log(level=..., message=...)` → `data=`: only with a `level=` keyword, the Context's shape."""
    keywords = {a.keyword.value for a in call.args if a.keyword is not None}
    if old not in keywords or "level" not in keywords:
        return call
    args = [
        a.with_changes(keyword=cst.Name(new)) if a.keyword is not None and a.keyword.value == old else a
        for a in call.args
    ]
    return call.with_changes(args=args)


def _context_param(function: cst.FunctionDef) -> str | None:
    params = function.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if is_context_annotation(param.annotation):
            return param.name.value
    return None


def add_param(function: cst.FunctionDef, param: cst.Param) -> cst.FunctionDef:
    """`function` with `param` added last where it stays valid syntax: keyword-only when a
    positional parameter before it has a default (the SDK passes everything by keyword)."""
    params = function.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.kwonly_params:
        kwonly = [*params.kwonly_params, param]
        changes: dict[str, object] = {"kwonly_params": kwonly}
        if params.star_arg is cst.MaybeSentinel.DEFAULT:
            changes["star_arg"] = cst.ParamStar()
        return function.with_changes(params=params.with_changes(**changes))
    positional = [*params.posonly_params, *params.params]
    if any(p.default is not None for p in positional):
        return function.with_changes(
            params=params.with_changes(star_arg=cst.ParamStar(), kwonly_params=[param])
        )
    items = list(params.params)
    if items and isinstance(items[-1].comma, cst.Comma) and params.star_kwarg is None:
        # a trailing comma (one parameter a line): the new one takes it, the last takes its neighbour's
        param = param.with_changes(comma=items[-1].comma)
        between = items[-2].comma if len(items) > 1 else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        items[-1] = items[-1].with_changes(comma=between)
    return function.with_changes(params=params.with_changes(params=[*items, param]))


LINE_LIMIT = 100
"""A signature longer than this after a parameter was added is laid out one parameter a line."""


def _line_break(indent: str) -> cst.ParenthesizedWhitespace:
    return cst.ParenthesizedWhitespace(
        first_line=cst.TrailingWhitespace(),
        empty_lines=[],
        indent=True,
        last_line=cst.SimpleWhitespace(indent),
    )


def one_per_line(function: cst.FunctionDef, depth: int = 0) -> cst.FunctionDef:
    """The signature as ruff format lays out one too long for its line: a parameter a line and a
    trailing comma (left as it is when it fits, already spans lines, or holds a comment)."""
    bare = function.with_changes(
        body=cst.IndentedBlock([cst.SimpleStatementLine([cst.Pass()])]), decorators=(), leading_lines=()
    )
    header = cst.Module([]).code_for_node(bare).split("\n", 1)[0]
    if 4 * depth + len(header) <= LINE_LIMIT or not header.rstrip().endswith(":") or "#" in header:
        return function
    params = function.params
    if params.posonly_params or isinstance(params.posonly_ind, cst.ParamSlash):
        return function
    items: list[cst.Param | cst.ParamStar] = [*params.params]
    if not isinstance(params.star_arg, cst.MaybeSentinel):
        items.append(params.star_arg)
    items += params.kwonly_params
    if params.star_kwarg is not None:
        items.append(params.star_kwarg)
    if not items:
        return function
    laid = [item.with_changes(comma=cst.Comma(whitespace_after=_line_break("    "))) for item in items[:-1]]
    laid.append(items[-1].with_changes(comma=cst.Comma(whitespace_after=_line_break(""))))
    count = len(params.params)
    star = 1 if not isinstance(params.star_arg, cst.MaybeSentinel) else 0
    kwonly = len(params.kwonly_params)
    changes: dict[str, object] = {
        "params": laid[:count],
        "kwonly_params": laid[count + star : count + star + kwonly],
    }
    if star:
        changes["star_arg"] = laid[count]
    if params.star_kwarg is not None:
        changes["star_kwarg"] = laid[-1]
    return function.with_changes(
        params=params.with_changes(**changes), whitespace_before_params=_line_break("    ")
    )


def _without_self_assignment(function: cst.FunctionDef, name: str) -> cst.FunctionDef:
    """Drop `ctx = ctx` (what `ctx = server.get_context()` became) from the top of the body."""
    body = function.body
    if not isinstance(body, cst.IndentedBlock):
        return function
    kept = []
    for statement in body.body:
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            small = statement.body[0]
            if (
                isinstance(small, cst.Assign)
                and len(small.targets) == 1
                and dotted_name(small.targets[0].target) == name
                and dotted_name(small.value) == name
            ):
                continue
        kept.append(statement)
    return function.with_changes(body=body.with_changes(body=kept or [cst.SimpleStatementLine([cst.Pass()])]))
