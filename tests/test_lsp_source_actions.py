"""`source.fixAll.mcpdeps` and the hover on `# mcpdeps: ignore[...]`, through a real LSP client
(pytest-lsp) on the multi-module project of `test_lsp_features` (issue 33, item 1)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient
from test_lsp_features import apply, at, client, doc, hover_text, opened, root  # noqa: F401 - fixtures

pytestmark = pytest.mark.asyncio(loop_scope="function")


async def _actions(client: LanguageClient, path: Path, only: list[str] | None) -> list[types.CodeAction]:  # noqa: F811
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(path),
            range=types.Range(
                start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
            ),
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


async def test_fix_all_rewrites_the_document_as_lint_fix_does(
    client: LanguageClient,  # noqa: F811
    root: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    tools = root / "shop/tools.py"
    tools.write_text(
        tools.read_text() + "\n\n@mcp.tool()\ndef shout(_text: str) -> str:\n    return _text.upper()\n"
    )
    await opened(client, tools)
    for only in (["source.fixAll"], ["source.fixAll.mcpdeps"], ["source"]):
        [action] = await _actions(client, tools, only)
        assert action.kind == "source.fixAll.mcpdeps" and "2 safe fixes" in action.title
    assert await _actions(client, tools, ["refactor"]) == []
    [action] = await _actions(client, tools, ["source.fixAll"])
    assert action.edit is not None and action.edit.changes is not None
    fixed = apply(tools.read_text(), action.edit.changes[tools.as_uri()])
    expected = tmp_path_factory.mktemp("expected")  # `root` is a worker's tmp_path: its parent is shared
    shutil.copytree(root, expected, dirs_exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "mcpdeps", "lint", "--fix", "--no-cache", "shop/tools.py"],
        cwd=expected,
        capture_output=True,
        timeout=120,
    )
    assert fixed == (expected / "shop/tools.py").read_text()  # both renames, as `lint --fix` writes them
    assert "_name" not in fixed and "_text" not in fixed


async def test_hover_on_a_suppression_says_what_it_silences(client: LanguageClient, root: Path) -> None:  # noqa: F811
    tools = root / "shop/tools.py"
    text = tools.read_text().replace(
        "def rename(_name: str, size: int = 3) -> str:",
        "def rename(_name: str, size: int = 3) -> str:  # mcpdeps: ignore[MCPD006, MCPD104]",
    )
    tools.write_text(text)
    await opened(client, tools)
    shown = await hover_text(client, tools, at(tools, "ignore[", 3))
    assert "**MCPD006** `underscore-parameter`" in shown and "*(silenced on this line)*" in shown
    assert "**MCPD104** `unstable-question`" in shown and "silences nothing on this line (MCPD114)" in shown


async def test_a_code_lens_on_each_tool_draws_its_graph_and_says_how_to_call_it(
    client: LanguageClient,  # noqa: F811
    root: Path,  # noqa: F811
) -> None:
    tools = root / "shop/tools.py"
    await opened(client, tools)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc(tools)))
    assert lenses is not None
    by_line: dict[int, list[str]] = {}
    for lens in lenses:
        assert lens.command is not None
        by_line.setdefault(lens.range.start.line, []).append(lens.command.title)
    defs = [at(tools, f"def {name}(").line for name in ("upload", "whoami", "rename")]
    assert sorted(by_line) == sorted(defs) and all(titles == ["graph", "call"] for titles in by_line.values())
    graph_lens = next(x for x in lenses if x.range.start.line == defs[0] and x.command.title == "graph")
    drawn = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=graph_lens.command.command, arguments=graph_lens.command.arguments)
    )
    subprocess.run(
        [sys.executable, "-m", "mcpdeps", "graph", "shop/tools.py", "--tool", "upload", "-o", "tree.txt"],
        cwd=root, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert drawn == (root / "tree.txt").read_text() and "upload" in drawn and "the model never sees" in drawn
    call_lens = next(x for x in lenses if x.range.start.line == defs[0] and x.command.title == "call")
    said = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=call_lens.command.command, arguments=call_lens.command.arguments)
    )
    assert said.startswith("mcpdeps call shop/tools.py upload")
