"""MCPD105: `Sample(include_context=...)` with a value other than "none"."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from functools import partial

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Span
from ...resolver_core.source import ParsedModule
from ...resolver_core.symbols import Names, sdk_name
from .._source import canonical_call, names_of, once_per_build
from ..base import Invalid, Rule, RuleFix

_SOURCE = (
    "from typing import Annotated\n"
    "from mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Resolve, Sample\n"
    "from mcp.types import CreateMessageResult, SamplingMessage, TextContent\n\n"
    "mcp = MCPServer('s')\n\n"
    "def summarize(text: str) -> Sample:\n"
    "    message = SamplingMessage(role='user', content=TextContent(type='text', text=text))\n"
    "    return Sample([message], max_tokens=100{extra})\n\n"
    "@mcp.tool()\n"
    "def digest(text: str, summary: Annotated[CreateMessageResult, Resolve(summarize)]) -> str:\n"
    "    return text\n"
)


def _deprecated_value(node: ast.expr) -> bool:
    """A literal other than "none" (a computed value may well be "none": not guessed)."""
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value != "none"


def _modules_to_read(names: Names, graph: Graph) -> list[ParsedModule]:
    """The files asked for, and the modules defining a resolver some tool runs.

    Not every module the run happened to read: which imports are followed depends on which
    other files are linted with it, and a verdict must not (see `lint_rules.per_file`).
    """
    paths = dict.fromkeys(sorted(graph.checked))
    paths.update(
        (r.span.path, None)
        for _, tool in graph.tools()
        for r in graph.reachable(tool)
        if r.anchored and r.span
    )
    found = (names.project.by_display(path) for path in paths)
    return [module for module in found if module is not None and module.tree is not None]


class DeprecatedIncludeContext(Rule):
    code = "MCPD105"
    name = "deprecated-include-context"
    FIX = RuleFix(
        'remove `include_context=` (the default, "none", is the supported behaviour)',
        fixer="mcpdeps.lint_rules.fixes.include_context",
        splice="mcpdeps.lint_rules.fixes.spans:include_context",
        safety_note='The argument is deprecated and the default ("none") is what clients support.',
    )
    severity = "warning"
    summary = '`Sample(include_context=...)` other than `"none"` is deprecated (SEP-2596).'
    explanation = (
        "`include_context='thisServer'` / `'allServers'` asks the client to attach context from "
        "MCP servers to the sampling prompt. The values are deprecated: servers should only send "
        "them when the client declares the `sampling.context` capability, and clients may ignore "
        "them. The SDK neither warns nor checks the capability - it forwards the value as is, so "
        "the prompt silently depends on context the client probably never attaches.\n\n"
        "Fix: drop `include_context` (or pass `'none'`) and put what the LLM needs into the "
        "messages or `system_prompt` explicitly."
    )
    INVALID = [
        Invalid(
            _SOURCE.format(extra=", include_context='thisServer'"),
            at=(10, 46, 10, 74),
            fixed=(
                "from typing import Annotated\n"
                "from mcp.server import MCPServer\n"
                "from mcp.server.mcpserver import Resolve, Sample\n"
                "from mcp.types import CreateMessageResult, SamplingMessage, TextContent\n"
                "\n"
                "mcp = MCPServer('s')\n"
                "\n"
                "def summarize(text: str) -> Sample:\n"
                "    message = SamplingMessage(role='user', content=TextContent(type='text', text=text))\n"
                "    return Sample([message], max_tokens=100)\n"
                "\n"
                "@mcp.tool()\n"
                "def digest(text: str, summary: Annotated[CreateMessageResult, Resolve(summarize)]) -> str:\n"
                "    return text\n"
            ),
        )
    ]
    VALID = [_SOURCE.format(extra=""), _SOURCE.format(extra=", include_context='none'")]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        names = names_of(graph)
        if names is None:
            return
        for module in _modules_to_read(names, graph):
            for span, value in once_per_build(
                graph, (self.code, module.display), partial(_deprecated, names, module)
            ):
                yield self.diagnostic(
                    span,
                    f"Sample(include_context={value}) is deprecated (SEP-2596): the SDK "
                    "forwards it without checking the client's sampling.context capability, and clients "
                    "may ignore it, so the prompt depends on context that is probably never attached",
                    help="drop `include_context` (or pass 'none') and put the needed context in the messages",
                )


def _deprecated(names: Names, module: ParsedModule) -> list[tuple[Span, str]]:
    """Each `Sample(include_context=...)` of a module passing a deprecated value: where the
    argument is and its value as written (a module is read once per build, whichever views
    read it)."""
    if module.tree is None or module.text is None or "include_context" not in module.text:
        return []
    out = []
    for node in ast.walk(module.tree):
        if not isinstance(node, ast.Call):
            continue
        keyword = next((k for k in node.keywords if k.arg == "include_context"), None)
        if keyword is None or not _deprecated_value(keyword.value):
            continue
        if sdk_name(canonical_call(names, module, node, None)) == "Sample":
            out.append((module.span(keyword), ast.unparse(keyword.value)))
    return out
