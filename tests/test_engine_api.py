"""One engine behind every front end: the same question asked through `lint_rules.api`, through
`mcpdeps lint` (in this process), through the language server's model of a folder (with an
unsaved text) and through `mcpdeps mcp`'s tools (the SDK's in-memory `Client`) gets the same
answer: the same diagnostics under the project's settings (`select`, `ignore`,
`per-file-ignores`) and the flags laid on top, the same graph document, the same fix plan, the
same sentence for an unknown rule.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from conftest import run_mcpdeps
from mcp import Client
from mcp_helpers import TIMEOUT, Roots, make_workspace, text_of, without_workspace
from mcpdeps.cli.agent.server import server
from mcpdeps.cli.lsp.workspace import WorkspaceModel
from mcpdeps.lint_rules import api
from mcpdeps.lint_rules.fixes.engine import unified_diff
from mcpdeps.resolver_core.diagnostics import Diagnostic
from mcpdeps.resolver_core.graph_json import dumps, graph_document

CONFIG = """\
[project]
name = "shop"
version = "0"

[tool.mcpdeps]
ignore = ["MCPD004"]
per-file-ignores = { "broken/deps.py" = ["MCPD001"] }
"""
"""MCPD004 off everywhere, MCPD001 off in one file only (it stays in broken/server.py)."""

Row = tuple[str, int, int, str, str]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = make_workspace(tmp_path_factory.mktemp("engine") / "shop")
    (folder / "pyproject.toml").write_text(CONFIG, encoding="utf-8")
    return folder


def _rows(diagnostics: list[Diagnostic]) -> list[Row]:
    return [(d.path, d.line, d.column, d.code, d.message) for d in diagnostics]


def _json_rows(diagnostics: list[dict[str, Any]]) -> list[Row]:
    return [(d["path"], d["line"], d["column"], d["code"], d["message"]) for d in diagnostics]


def _cli(project: Path, *args: str) -> dict[str, Any]:
    done = run_mcpdeps("lint", *args, "--format", "json", "--no-cache", cwd=project)
    assert done.returncode in (0, 1), done.stderr
    document: dict[str, Any] = json.loads(done.stdout)
    return document


def _agent(project: Path, tool: str, arguments: dict[str, Any]) -> Any:
    """One tool call on `mcpdeps mcp`'s server, in memory; a refusal reads as the SDK words every
    tool error: `Error executing tool NAME: ` and the engine's sentence."""

    async def main() -> Any:
        with anyio.fail_after(TIMEOUT):
            async with Client(server, list_roots_callback=Roots(project)) as client:
                return await client.call_tool(tool, arguments)

    return anyio.run(main)


def test_the_project_settings_judge_alike_through_every_front_end(project: Path) -> None:
    through_api = _rows(api.lint(api.LintRequest(["."], project)).diagnostics)
    codes = {(path, code) for path, _, _, code, _ in through_api}
    assert ("broken/server.py", "MCPD001") in codes and ("broken/deps.py", "MCPD001") not in codes
    assert "MCPD004" not in {code for _, code in codes} and ("broken/server.py", "MCPD006") in codes

    cli = _cli(project, ".")
    assert _json_rows(cli["diagnostics"]) == through_api

    model = WorkspaceModel(project)
    model.check(model.order)
    assert model.config_error is None and _rows(model.report()) == through_api

    agent = _agent(project, "lint", {"paths": ["."]})
    assert not agent.is_error, text_of(agent)
    assert without_workspace(agent.structured_content) == cli


def test_flags_on_top_of_the_configuration_judge_alike(project: Path) -> None:
    request = api.LintRequest(["broken"], project, select=["MCPD0"], ignore=["MCPD008"])
    through_api = _rows(api.lint(request).diagnostics)
    assert {row[3] for row in through_api} == {"MCPD001", "MCPD002", "MCPD003", "MCPD006"}

    cli = _cli(project, "broken", "--select", "MCPD0", "--ignore", "MCPD008")
    assert _json_rows(cli["diagnostics"]) == through_api

    agent = _agent(project, "lint", {"paths": ["broken"], "select": ["MCPD0"], "ignore": ["MCPD008"]})
    assert without_workspace(agent.structured_content) == cli


def test_an_unsaved_text_is_linted_alike_by_the_editor_and_the_engine(project: Path) -> None:
    """The editor's buffer (MCPD006's parameter renamed, not saved) is what both read; the file on
    disk still has the problem, and `--stdin-filename` reads the same text from stdin."""
    path = project / "broken" / "server.py"
    unsaved = path.read_text(encoding="utf-8").replace("_order_id", "order_id")
    through_api = _rows(api.lint(api.LintRequest(["."], project, texts={path: unsaved})).diagnostics)
    assert "MCPD006" not in {row[3] for row in through_api}
    assert "MCPD006" in {row[3] for row in _rows(api.lint(api.LintRequest(["."], project)).diagnostics)}

    model = WorkspaceModel(project)
    model.set_text(path, unsaved)
    model.check(model.order)
    assert _rows(model.report()) == through_api

    one_file = _rows(
        api.lint(api.LintRequest(["broken/server.py"], project, texts={path: unsaved})).diagnostics
    )
    done = run_mcpdeps(
        "lint",
        "--stdin-filename",
        "broken/server.py",
        "--format",
        "json",
        "--no-cache",
        cwd=project,
        input=unsaved,
    )
    assert _json_rows(json.loads(done.stdout)["diagnostics"]) == one_file


def test_the_editor_says_only_what_the_engine_says_whichever_files_it_checks_first(project: Path) -> None:
    """The editor checks the folder a part at a time (the open document first, then batches):
    from whichever file it starts, one file at a time, its report never holds a diagnostic the
    engine does not give for the same texts (the unsaved one included), and ends equal to it."""
    path = project / "broken" / "server.py"
    unsaved = path.read_text(encoding="utf-8").replace("_order_id", "order_id")
    through_api = _rows(api.lint(api.LintRequest(["."], project, texts={path: unsaved})).diagnostics)
    for first in WorkspaceModel(project).order:
        model = WorkspaceModel(project)
        model.set_text(path, unsaved)
        model.check([first])
        while model.stale:
            assert set(_rows(model.report())) <= set(through_api), first
            model.check([next(o for o in model.order if o in model.stale)])
        assert _rows(model.report()) == through_api, first


def test_a_bad_configuration_is_one_sentence_everywhere(tmp_path: Path) -> None:
    """The command line exits 2 with the engine's sentence; the editor says it and uses the defaults."""
    folder = make_workspace(tmp_path / "shop")
    (folder / "mcpdeps.toml").write_text('select = ["MCPD9"]\n', encoding="utf-8")
    with pytest.raises(api.RequestError) as refused:
        api.settings_for(api.LintRequest(["."], folder))
    done = run_mcpdeps("lint", ".", cwd=folder)
    assert done.returncode == 2 and done.stderr == f"mcpdeps: error: {refused.value}\n"
    model = WorkspaceModel(folder)
    assert model.config_error == str(refused.value)
    assert model.settings == api.default_settings()
    agent = _agent(folder, "lint", {"paths": ["."]})
    assert agent.is_error and text_of(agent) == f"Error executing tool lint: {refused.value}"


def test_an_unknown_rule_gets_one_message(tmp_path: Path) -> None:
    with pytest.raises(api.RequestError) as refused:
        api.explain("resolver-cycel")
    message = str(refused.value)
    assert message.startswith(
        "unknown rule 'resolver-cycel' (did you mean 'resolver-cycle'?); the rules are MCPD000-"
    )
    done = run_mcpdeps("rule", "resolver-cycel", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr == f"mcpdeps: error: {message}\n"
    explained = _agent(tmp_path, "explain", {"code": "resolver-cycel"})
    assert explained.is_error and text_of(explained) == f"Error executing tool explain: {message}"


def test_a_rule_page_is_the_same_page(tmp_path: Path) -> None:
    page = api.explain("mcpd003")
    assert page.rule.code == "MCPD003" and page.markdown.startswith("## MCPD003")
    assert run_mcpdeps("rule", "MCPD003", cwd=tmp_path).stdout == page.markdown
    explained = _agent(tmp_path, "explain", {"code": "MCPD003"})
    assert explained.structured_content["markdown"] == page.markdown
    assert explained.structured_content["fixable"] == page.fixable
    assert [p.rule.code for p in api.rule_pages()] == sorted(p.rule.code for p in api.rule_pages())


def test_the_graph_document_is_the_same_document(project: Path) -> None:
    found = api.graph(api.GraphRequest(["broken/server.py"], project, tools=["order_book"]))
    document = json.loads(dumps(graph_document(found.graph)))
    done = run_mcpdeps("graph", "broken/server.py", "--tool", "order_book", "--format", "json", cwd=project)
    assert done.returncode == 0 and json.loads(done.stdout) == document
    agent = _agent(project, "graph", {"file": "broken/server.py", "tool": "order_book"})
    assert without_workspace(agent.structured_content) == document
    assert any(d.code == "MCPD003" for ds in found.problems.by_place.values() for d in ds)


def test_a_graph_request_naming_nothing_is_refused_alike(project: Path) -> None:
    with pytest.raises(api.RequestError) as refused:
        api.graph(api.GraphRequest(["broken/server.py"], project, tools=["odrer_book"]))
    assert "(did you mean 'order_book'?)" in str(refused.value)
    done = run_mcpdeps("graph", "broken/server.py", "--tool", "odrer_book", cwd=project)
    assert done.returncode == 2 and done.stderr == f"mcpdeps: error: {refused.value}\n"
    agent = _agent(project, "graph", {"file": "broken/server.py", "tool": "odrer_book"})
    assert agent.is_error and text_of(agent) == f"Error executing tool graph: {refused.value}"


def test_the_fix_plan_is_what_diff_shows_and_the_editor_applies(project: Path) -> None:
    request = api.LintRequest(["broken"], project)
    plan = api.fix_plan(request)
    assert plan.fixed and plan.changed()
    diff = run_mcpdeps("lint", "broken", "--diff", "--no-cache", cwd=project)
    assert diff.returncode == 1 and diff.stdout == unified_diff(plan)

    path = project / "broken" / "server.py"
    text = path.read_text(encoding="utf-8")
    alone = api.fix_plan(api.LintRequest(["broken/server.py"], project, texts={path: text}))
    from lsprotocol import types
    from mcpdeps.cli.lsp.convert import Positions
    from mcpdeps.cli.lsp.source_actions import fix_all
    from mcpdeps.resolver_core.lines import split_lines
    from pygls.workspace import PositionCodec

    model = WorkspaceModel(project)
    model.set_text(path, text)
    positions = Positions(PositionCodec(types.PositionEncodingKind.Utf16), lambda _: split_lines(text))
    action = fix_all(model, path, "broken/server.py", positions)
    assert action is not None and action.title == f"mcpdeps: fix all ({alone.fixed} safe fixes)"
    assert alone.texts["broken/server.py"] != text
