"""`mcpdeps mcp`'s server: lint, graph, explain and fix as tools a coding agent can call.

Built with the SDK's own `MCPServer` and `Resolve`, and meant to be read as an
example of both: the model fills the arguments (`paths`, `file`, `codes`...);
everything else is a resolved parameter it never sees — the workspace from the
client's roots (`ListRoots`), the checked paths, the fix plan, whether the client
can ask, and the user's consent (`Elicit`). `mcpdeps graph cli/agent/server.py`
draws it; `mcpdeps lint cli/agent` finds nothing (both are tested).

Each tool returns a `CallToolResult` whose `structuredContent` is validated against
the pydantic model in its annotation (`Annotated[CallToolResult, Model]`), which is
also its published output schema; its text is a short summary for the model.
"""

from __future__ import annotations

from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import ElicitationResult, Resolve
from mcp.types import CallToolResult
from pydantic import Field

from .consent import FixProposal, client_can_ask, confirm_fix, fix_plan, fix_report
from .models import Consent, FixReport, GraphReport, LintReport, RuleReport
from .reports import graph_report, lint_report, rule_report
from .workspace import Targets, graph_target, lint_targets

INSTRUCTIONS = (
    "mcpdeps checks MCP servers written with the official Python SDK (mcp 2.3) without importing them: "
    "every error the SDK would raise when registering tools with Resolve(...) dependencies, and the "
    "silent run-time traps. Call `lint` after editing such a server, `graph` to see what each tool's "
    "model-visible arguments and resolvers are, `explain` for a rule code, and `fix` to apply the safe "
    "fixes (the user is asked first). Paths are relative to the first workspace root."
)

server = MCPServer("mcpdeps", instructions=INSTRUCTIONS)

Paths = Annotated[
    list[str],
    Field(description='Files or folders to check, relative to the first workspace root ("." for all of it).'),
]
Rules = Annotated[
    list[str] | None,
    Field(description="Rule codes, code prefixes or names (MCPD001, MCPD1, resolver-cycle)."),
]
File = Annotated[str, Field(description="The server's Python file, relative to the first workspace root.")]
ToolName = Annotated[str | None, Field(description="Show only this tool's tree.")]
Code = Annotated[str, Field(description="A rule code (MCPD001) or name (resolver-cycle).")]
Codes = Annotated[list[str] | None, Field(description="Fix only these rules (codes, prefixes or names).")]
UnsafeFixes = Annotated[
    bool,
    Field(
        description="Also the fixes that change behaviour (`lint --unsafe-fixes`); the user still sees every edit."
    ),
]


@server.tool(title="Lint MCP servers")
def lint(
    paths: Paths,
    targets: Annotated[Targets, Resolve(lint_targets)],
    select: Rules = None,
    ignore: Rules = None,
) -> Annotated[CallToolResult, LintReport]:
    """Check MCP servers written with the Python SDK for every registration error and run-time trap of their Resolve(...) graphs, without importing them: the diagnostics of `mcpdeps lint --format json`, with the project's [tool.mcpdeps] settings (`select` replaces the selected rules, `ignore` adds to the ignored ones)."""
    return lint_report(targets, select or [], ignore or [])


@server.tool(title="Show dependency graphs")
def graph(
    file: File,
    target: Annotated[Targets, Resolve(graph_target)],
    tool: ToolName = None,
) -> Annotated[CallToolResult, GraphReport]:
    """Each tool's dependency tree: the arguments the model sees, the resolvers it never sees, the questions they ask and the order the SDK runs them in, with problems marked where they are; the document of `mcpdeps graph --format json`, and its tree as text."""
    return graph_report(target, tool)


@server.tool(title="Explain a rule")
def explain(code: Code) -> Annotated[CallToolResult, RuleReport]:
    """What a rule finds, why it matters, an example and its fix (`mcpdeps rule CODE`)."""
    return rule_report(code)


@server.tool(title="Apply the safe fixes")
def fix(
    paths: Paths,
    proposal: Annotated[FixProposal, Resolve(fix_plan)],
    can_ask: Annotated[bool, Resolve(client_can_ask)],
    consent: Annotated[ElicitationResult[Consent], Resolve(confirm_fix)],
    codes: Codes = None,
    unsafe_fixes: UnsafeFixes = False,
) -> Annotated[CallToolResult, FixReport]:
    """Apply the safe fixes `mcpdeps lint --fix` applies, once the user has seen every edit and said yes (declined or cancelled: nothing is written); the result lists each file's edits and what is left to fix."""
    return fix_report(proposal, can_ask, consent)
