"""`mcpdeps lsp` requests through a real LSP client (pytest-lsp): hover, definition,
references, code actions and inlay hints, on the bookshop and on a multi-module project
(resolvers in a package, an `Annotated` alias, a tool module importing both)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsp_helpers import Docs, at_version, fixed_by_lint, lint_json, quick_fixes, session_on_root
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="function")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

PACKAGE = {
    "pyproject.toml": '[project]\nname = "shop"\nversion = "0"\n',
    "shop/__init__.py": "",
    "shop/deps.py": """from typing import Annotated

from mcp.server.mcpserver import Context, Resolve


def current_user(ctx: Context) -> str:
    return "ada"


def quota_for(user: Annotated[str, Resolve(current_user)]) -> int:
    return 5


QuotaDep = Annotated[int, Resolve(quota_for)]
""",
    "shop/tools.py": """from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

from shop import deps
from shop.deps import QuotaDep

mcp = MCPServer("Shop")


@mcp.tool()
def upload(title: str, quantity: int, quota: QuotaDep) -> str:
    return f"{title} {quantity} {quota}"


@mcp.tool()
def whoami(user: Annotated[str, Resolve(deps.current_user)]) -> str:
    return user


@mcp.tool()
def rename(_name: str, size: int = 3) -> str:
    return _name
""",
}


@pytest.fixture
def root(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    example = getattr(request, "param", None)
    if isinstance(example, str):
        shutil.copytree(EXAMPLES / example, tmp_path / example)
        return tmp_path / example
    for relative, text in (example or PACKAGE).items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    return tmp_path


client = session_on_root()


def at(path: Path, needle: str, offset: int = 0, nth: int = 0) -> types.Position:
    """The position of the `nth` occurrence of `needle` in the file (plus `offset` characters)."""
    seen = 0
    for number, line in enumerate(path.read_text().splitlines()):
        start = 0
        while (found := line.find(needle, start)) != -1:
            if seen == nth:
                return types.Position(line=number, character=found + offset)
            seen += 1
            start = found + 1
    raise AssertionError(f"{needle!r} not in {path}")


def doc(path: Path) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=path.as_uri())


async def hover_text(client: LanguageClient, path: Path, position: types.Position) -> str:
    found = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(path), position=position)
    )
    assert found is not None and isinstance(found.contents, types.MarkupContent)
    assert found.contents.kind == types.MarkupKind.Markdown
    return found.contents.value


async def opened(client: LanguageClient, *paths: Path) -> Docs:
    docs = Docs(client)
    for path in paths:
        docs.open(path)
    for path in paths:
        await at_version(client, path, 1)
    return docs


@pytest.mark.parametrize("root", ["bookshop"], indirect=True)
async def test_hover_on_a_tool_shows_its_graph(client: LanguageClient, root: Path) -> None:
    server = root / "server.py"
    await opened(client, server)
    text = await hover_text(client, server, at(server, "order_book", 2))
    assert text.startswith("**order_book** · tool · async · server.py:77")
    sees, never = text.split("**the model never sees**")
    assert "`title: str` required" in sees
    assert "`stock: Stock` ← **check_stock** · step 1" in never
    assert "`backorder: Backorder` ← **confirm_backorder** · step 3" in never
    assert "? asks the user (Elicit)" in never and "answer model **Backorder**" in never
    assert "already run: the same value, not a second call" in never
    assert (
        "**run order** 1. check_stock → 2. estimate_delivery → 3. confirm_backorder → 4. order_book" in text
    )


@pytest.mark.parametrize("root", ["bookshop"], indirect=True)
async def test_hover_on_resolve_and_on_a_resolver(client: LanguageClient, root: Path) -> None:
    server = root / "server.py"
    await opened(client, server)
    text = await hover_text(client, server, at(server, "Resolve(estimate_delivery)", 3))
    assert text.splitlines()[0].startswith("- `delivery: str` ← **estimate_delivery**")
    assert "`stock: Stock` ← **check_stock**" in text and "**run by** order_book" in text
    text = await hover_text(client, server, at(server, "async def check_stock", 12))
    assert text.startswith("**check_stock** · resolver · async · server.py:39")
    assert "**run by** reserve_book, order_book" in text


async def test_definition_from_resolve_alias_and_import(client: LanguageClient, root: Path) -> None:
    tools, deps = root / "shop/tools.py", root / "shop/deps.py"
    await opened(client, tools, deps)

    async def definition(path: Path, position: types.Position) -> list[types.Location]:
        found = await client.text_document_definition_async(
            types.DefinitionParams(text_document=doc(path), position=position)
        )
        return list(found) if isinstance(found, list) else []

    [where] = await definition(tools, at(tools, "deps.current_user", 6))  # Resolve(deps.current_user)
    assert where.uri == deps.as_uri() and where.range.start.line == at(deps, "def current_user").line
    [where] = await definition(tools, at(tools, "quota: QuotaDep", 9))  # an alias holding Resolve(...)
    assert where.uri == deps.as_uri() and where.range.start.line == at(deps, "def quota_for").line
    [where] = await definition(deps, at(deps, "Resolve(quota_for)", 10))  # the alias' own line
    assert where.range.start.line == at(deps, "def quota_for").line
    [where] = await definition(deps, at(deps, "Resolve(current_user)", 9))  # resolver -> resolver
    assert where.range.start.line == at(deps, "def current_user").line
    assert await definition(tools, at(tools, "title: str")) == []  # a tool argument: no resolver


async def test_references_from_a_resolver_to_every_tool(client: LanguageClient, root: Path) -> None:
    tools, deps = root / "shop/tools.py", root / "shop/deps.py"
    await opened(client, deps)
    found = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc(deps),
            position=at(deps, "def current_user", 5),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    assert found is not None
    lines = sorted((Path(loc.uri).name, loc.range.start.line) for loc in found)
    assert lines == [("tools.py", at(tools, "def upload").line), ("tools.py", at(tools, "def whoami").line)]


async def test_inlay_hints_say_what_the_model_sees(client: LanguageClient, root: Path) -> None:
    tools = root / "shop/tools.py"
    await opened(client, tools)
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=doc(tools),
            range=types.Range(
                start=types.Position(line=0, character=0), end=types.Position(line=40, character=0)
            ),
        )
    )
    assert hints is not None
    labels = {h.position.line: h.label for h in hints}
    assert labels[at(tools, "def upload").line] == "model sees: title, quantity · never sees: quota"
    assert labels[at(tools, "def whoami").line] == "model sees: nothing · never sees: user"
    assert labels[at(tools, "def rename").line] == "model sees: _name, size"


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP text edits (ASCII text: units are characters) from the last to the first."""
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def offset(p: types.Position) -> int:
        return offsets[p.line] + p.character if p.line < len(lines) else len(text)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


async def test_code_actions_fix_like_lint_fix_and_suppress(client: LanguageClient, root: Path) -> None:
    tools = root / "shop/tools.py"
    docs = await opened(client, tools)
    [diagnostic] = [d for d in client.diagnostics[tools.as_uri()] if d.code == "MCPD006"]
    by_title = {a.title: a for a in await quick_fixes(client, tools, diagnostic)}
    fix = next(a for t, a in by_title.items() if "MCPD006" in t and "suppress" not in t)
    assert (
        fix.kind == types.CodeActionKind.QuickFix
        and list(fix.diagnostics or []) == [diagnostic]
        and fix.is_preferred
    )
    assert fix.edit is not None and fix.edit.changes is not None
    fixed = apply(tools.read_text(), fix.edit.changes[tools.as_uri()])
    assert fixed == fixed_by_lint(root, "shop/tools.py")  # the same rewrite as `lint --fix`
    suppress = by_title["mcpdeps: suppress MCPD006 on this line"]
    assert suppress.edit is not None and suppress.edit.changes is not None
    silenced = apply(tools.read_text(), suppress.edit.changes[tools.as_uri()])
    assert "def rename(_name: str, size: int = 3) -> str:  # mcpdeps: ignore[MCPD006]" in silenced
    version = docs.change(tools, silenced)
    assert await at_version(client, tools, version) == []
    tools.write_text(silenced)
    assert lint_json(root) == []


ASKING = """from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from pydantic import BaseModel

mcp = MCPServer("asks")


class Confirm(BaseModel):
    ok: bool


@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    answer = await ctx.elicit(f"Delete {path}?", Confirm)
    return path if answer.action == "accept" and answer.data.ok else "kept"
"""


async def test_the_unsafe_mcpd112_fix_is_offered_but_never_preferred(
    client: LanguageClient, root: Path
) -> None:
    asks = root / "shop/asks.py"
    asks.write_text(ASKING)
    await opened(client, asks)
    [diagnostic] = [d for d in client.diagnostics[asks.as_uri()] if d.code == "MCPD112"]
    [fix] = [a for a in await quick_fixes(client, asks, diagnostic) if "MCPD112, unsafe" in a.title]
    assert not fix.is_preferred
    assert fix.edit is not None and fix.edit.changes is not None
    fixed = apply(ASKING, fix.edit.changes[asks.as_uri()])
    assert "async def ask_delete(path: str) -> Elicit[Confirm]:" in fixed
    assert "answer: Annotated[ElicitationResult[Confirm], Resolve(ask_delete)]" in fixed
    assert "ctx.elicit" not in fixed


async def test_nothing_of_mcpdeps_there_answers_null(client: LanguageClient, root: Path) -> None:
    tools = root / "shop/tools.py"
    await opened(client, tools)
    found = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(tools), position=at(tools, "return user"))
    )
    assert found is None
    unknown = types.TextDocumentIdentifier(uri=(root / "nowhere.py").as_uri())
    assert (
        await client.text_document_hover_async(
            types.HoverParams(text_document=unknown, position=types.Position(line=0, character=0))
        )
        is None
    )
    elsewhere = types.TextDocumentIdentifier(uri="untitled:Untitled-1")
    assert (
        await client.text_document_definition_async(
            types.DefinitionParams(text_document=elsewhere, position=types.Position(line=0, character=0))
        )
        is None
    )
