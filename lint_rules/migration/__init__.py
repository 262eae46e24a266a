"""`mcpdeps migrate`: libcst codemods that bring a server from mcp 1.x to 2.x.

What changes comes from the SDK's own migration guide (`docs/migration.md` in the
python-sdk repository), not from memory: `names.py` does the renames and moves
(`mcp.server.fastmcp` → `mcp.server.mcpserver`, `FastMCP` → `MCPServer`, `McpError` →
`MCPError`, removed type aliases, camelCase fields, `ctx.fastmcp`, `get_context()`),
`constructor.py` moves the transport settings from the constructor to `run()` and the
app factories, and `questions.py` turns a question a tool body asks at its start
(`ctx.elicit`, `ctx.session.create_message`, `ctx.session.list_roots`) into a resolver
returning `Elicit`/`Sample`/`ListRoots`, which is also MCPD112's (unsafe) fix.

Every codemod only rewrites what it is sure of; the rest is a `Note` (line and reason)
that the user reads. Each is idempotent: 2.x code has nothing left for it to match.
"""

from __future__ import annotations

from ...resolver_core.records import record


@record
class Note:
    """Something the migration left for the user: where (1-based line) and why, in one sentence."""

    line: int
    reason: str


@record
class Migrated:
    """One file's migrated text and what could not be converted in it."""

    text: str
    notes: tuple[Note, ...]
    questions: int
    """Questions moved into resolvers."""


def migrate_text(text: str) -> Migrated:
    """The 2.x version of one module's source (unchanged when there is nothing to migrate).

    Raises `libcst.ParserSyntaxError` for a file libcst cannot parse.
    """
    from .pipeline import migrate_module

    return migrate_module(text)
