"""One notion of "line" everywhere: the tokenizer's (issue 34, item 2).

`str.splitlines` also breaks at form feeds, "\\x0b", "\\x1c"-"\\x1e", "\\x85", U+2028 and
U+2029; Python's tokenizer, `ast` and LSP clients do not. These tests place those characters
at random in comments, strings and blank lines of a server with four fixable findings, then
check every place a line number becomes an offset:

- the JSON fix edits of each finding, applied the way an editor applies them, give exactly
  the text with that one finding fixed (the same placements in the fixed template);
- `--fix` writes exactly the fully fixed text;
- "suppress on this line" puts the comment at the end of the finding's line and silences it;
- the language server's copy of a document follows random incremental edits (with the
  special characters in the edited text too) exactly as the client's copy does, and the
  LSP positions of a finding point at the text `lint` names.

The oracle splits lines with its own regular expression, not with product code.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import SERVER, Docs, at_version, lint_json, published, start
from lsprotocol import types
from mcpdeps.cli.lsp.documents import LineWorkspace
from mcpdeps.lint_rules.config import LintConfig
from mcpdeps.lint_rules.fixes import with_fixes
from mcpdeps.lint_rules.fixes.engine import plan_fixes, write_plan
from mcpdeps.lint_rules.settings import merge, run
from mcpdeps.lint_rules.suppressions import suppression_edit
from mcpdeps.resolver_core.diagnostics import Diagnostic, Edit
from mcpdeps.resolver_core.project import Project
from pytest_lsp import LanguageClient

SPECIAL = ["\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]

TEMPLATE = [
    "from typing import Annotated",
    "",
    "from mcp.server import MCPServer",
    "from mcp.server.mcpserver import Resolve",
    "",
    "mcp = MCPServer('s')",
    "",
    "",
    "def r0(title: str) -> int:",
    "    return 1",
    "",
    "",
    "def owner(titel: str) -> str:",
    "    found = titel",
    "    return titel",
    "",
    "",
    "@mcp.tool()",
    "def t(title: str, stock: Annotated[int, Resolve(r0)] = 5) -> int:",
    "    return stock",
    "",
    "",
    "@mcp.tool()",
    "def u(_name: str) -> str:",
    "    seen = _name",
    "    return _name",
    "",
    "",
    "@mcp.tool()",
    "def v(title: str, o: Annotated[str, Resolve(owner)]) -> str:",
    "    return o",
]
FIXED = {  # each finding fixed alone: (template line index, text) replacements
    "MCPD111": {18: "def t(title: str, stock: Annotated[int, Resolve(r0)]) -> int:"},
    "MCPD006": {23: "def u(name: str) -> str:", 24: "    seen = name", 25: "    return name"},
    "MCPD002": {12: "def owner(title: str) -> str:", 13: "    found = title", 14: "    return title"},
}
TOP_LEVEL = [
    i
    for i, line in enumerate(TEMPLATE)
    if line and not line.startswith((" ", "@")) and not TEMPLATE[i - 1].startswith("@")
]
"""Lines a top-level filler may go before (not between a decorator and its def)."""

Placement = tuple[int, str, str]
"""(template line, kind, special character): where a special character goes."""


def _placements(rng: random.Random) -> list[Placement]:
    kinds = ["comment", "comment", "string", "string", "blank", "blank", "feed"]
    placements = []
    for _ in range(rng.randint(1, 5)):
        kind = rng.choice(kinds)
        line = rng.choice(TOP_LEVEL if kind != "comment" else range(len(TEMPLATE)))
        if kind == "comment" and not TEMPLATE[line].strip():
            kind = "blank"
            line = rng.choice(TOP_LEVEL)
        placements.append((line, kind, rng.choice(SPECIAL)))
    return placements


def _text(replacements: dict[int, str], placements: list[Placement], newline: str) -> str:
    """The template (with `replacements`) and the special characters placed."""
    lines = [replacements.get(i, line) for i, line in enumerate(TEMPLATE)]
    before: dict[int, list[str]] = {}
    for n, (line, kind, char) in enumerate(placements):
        if kind == "comment":
            lines[line] += f"  # note{char}{n}"
        elif kind == "string":
            before.setdefault(line, []).append(f"NOTE_{n} = 'a{char}b'")
        elif kind == "blank":
            before.setdefault(line, []).append(f"# {char}")
        else:  # a form feed before a top-level statement: whitespace to the tokenizer
            lines[line] = "\x0c" + lines[line]
    out = [x for i, line in enumerate(lines) for x in [*before.get(i, []), line]]
    return newline.join(out) + newline


LINE_END = re.compile(r"\r\n|\r|\n")


def _starts(text: str) -> list[int]:
    return [0, *(m.end() for m in LINE_END.finditer(text))]


def _apply(text: str, edits: list[Edit]) -> str:
    """Apply 1-based (line, character column) edits the way an editor does."""
    starts = _starts(text)

    def offset(line: int, column: int) -> int:
        return len(text) if line > len(starts) else starts[line - 1] + column - 1

    for e in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        text = text[: offset(e.line, e.column)] + e.content + text[offset(e.end_line, e.end_column) :]
    return text


def _lint(folder: Path) -> list[Diagnostic]:
    result = with_fixes(run(["server.py"], merge(LintConfig()), cwd=folder))
    return result.diagnostics


CASES = 40


@pytest.mark.parametrize("seed", range(CASES))
def test_fix_edits_and_suppressions_land_on_the_tokenizers_lines(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    placements = _placements(rng)
    newline = rng.choice(["\n", "\n", "\r\n"])
    text = _text({}, placements, newline)
    ast.parse(text)  # the placements keep the module valid
    server = tmp_path / "server.py"
    server.write_bytes(text.encode())
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    found = _lint(tmp_path)
    assert sorted(d.code for d in found) == sorted(FIXED), found
    feeds = any(kind == "feed" for _, kind, _ in placements)
    for d in found:
        if d.fix is None:  # libcst drops a form feed that starts a statement: such files get no fix
            assert feeds, d
        else:
            assert _apply(text, d.fix.edits) == _text(FIXED[d.code], placements, newline), d.code
        silenced = _apply(text, [suppression_edit(d.path, text, d.line, d.code)])
        ast.parse(silenced)
        line = LINE_END.split(silenced)[d.line - 1]
        assert line.endswith(f"# mcpdeps: ignore[{d.code}]"), line
    everything = {k: v for fixes in FIXED.values() for k, v in fixes.items()}
    plan = plan_fixes(["server.py"], merge(LintConfig()), cwd=tmp_path)
    assert write_plan(plan, tmp_path) == []
    assert server.read_bytes().decode() == _text({} if feeds else everything, placements, newline)


def test_suppressions_are_honoured_after_a_form_feed(tmp_path: Path) -> None:
    text = _text({}, [(0, "comment", "\x0c"), (5, "blank", "\u2028")], "\n")
    (tmp_path / "server.py").write_text(text)
    for d in _lint(tmp_path):
        text = _apply(text, [suppression_edit(d.path, text, d.line, d.code)])
    (tmp_path / "server.py").write_text(text)
    assert _lint(tmp_path) == []


def _utf16(line: str, characters: int) -> int:
    return len(line[:characters].encode("utf-16-le")) // 2


def _position(text: str, offset: int) -> types.Position:
    """The LSP position (UTF-16 columns) of an offset, lines split as the protocol says."""
    starts = _starts(text)
    line = max(i for i, s in enumerate(starts) if s <= offset)
    return types.Position(line=line, character=_utf16(text[starts[line] :], offset - starts[line]))


EDITS = 2_000


def test_incremental_edits_follow_the_clients_lines() -> None:
    """The client's copy (lines split as LSP says) and the server's copy after the same
    random incremental edits, with special and non-BMP characters in both text and edits."""
    rng = random.Random(34)
    alphabet = [*SPECIAL, "a", "b", " ", "\n", "\r\n", "\r", "é", "😀", "#"]
    workspace = LineWorkspace(None)
    applied = 0
    for doc in range(EDITS // 20):
        uri = f"file:///tmp/doc{doc}.py"
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        workspace.put_text_document(
            types.TextDocumentItem(uri=uri, language_id="python", version=0, text=text)
        )
        for version in range(1, 21):
            a, b = sorted(rng.randint(0, len(text)) for _ in range(2))
            if text[a - 1 : a + 1] == "\r\n":
                a -= 1  # a position is never inside a line break
            if text[b - 1 : b + 1] == "\r\n":
                b += 1
            new = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5)))
            change = types.TextDocumentContentChangePartial(
                range=types.Range(start=_position(text, a), end=_position(text, b)), text=new
            )
            workspace.update_text_document(
                types.VersionedTextDocumentIdentifier(uri=uri, version=version), change
            )
            text = text[:a] + new + text[b:]
            assert workspace.get_text_document(uri).source == text, (doc, version)
            applied += 1
    assert applied == EDITS


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, tmp_path: Path):
    await start(lsp_client, tmp_path)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="function")
async def test_the_editor_session_follows_incremental_edits_after_special_lines(
    client: LanguageClient, tmp_path: Path
) -> None:
    """A real client: after a line holding U+2028 and a form feed, an incremental edit must
    land where the client put it (it used to land a line off and show MCPD000)."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    text = _text({}, [(5, "blank", "\u2028"), (8, "comment", "\x0c"), (0, "string", "\x85")], "\n")
    server = tmp_path / "server.py"
    server.write_text(text)
    docs = Docs(client)
    uri = docs.open(server)
    await at_version(client, server, 1)
    before = "def u(_name: str) -> str:"
    at = text.index(before) + len("def u(")
    start, end = _position(text, at), _position(text, at + len("_name"))
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(range=types.Range(start=start, end=end), text="name")
            ],
        )
    )
    edited = text[:at] + "name" + text[at + len("_name") :]
    server.write_text(edited)  # what the client holds, saved: `lint` is the oracle
    found = await at_version(client, server, 2)
    assert "MCPD000" not in [d.code for d in found]
    assert published(client, tmp_path) == lint_json(tmp_path)


def test_an_editors_text_is_read_afresh_for_its_line_breaks(tmp_path: Path) -> None:
    """A module whose text an editor replaces (`Project.set_text`) answers for the new text:
    whether it holds a break only `str.splitlines` knows (which makes the registration scan
    visit every block) is read again, not kept from the text on disk."""
    path = tmp_path / "server.py"
    path.write_text("x = 1\n")
    project = Project([tmp_path], cwd=tmp_path)
    module = project.load_path(path)
    assert not module.other_breaks()
    project.set_text(path, "x = 1\n# page\x0cbreak\n")
    assert module.other_breaks()
    project.set_text(path, None)
    assert not module.other_breaks()
