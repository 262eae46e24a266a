"""A run built in slices parses a module its slices share once (`resolver_core.lent_parses`):
a later build takes the tree an earlier one parsed, only for the same text."""

from __future__ import annotations

import ast
from pathlib import Path

from mcpdeps.resolver_core.lent_parses import LentParses
from mcpdeps.resolver_core.project import Project


def _project(root: Path, lent: LentParses) -> Project:
    project = Project([root], cwd=root)
    project.lent = lent
    return project


def _tree_of(root: Path, lent: LentParses, name: str) -> ast.Module:
    module = _project(root, lent).find(name)
    assert module is not None and module.tree is not None
    return module.tree


def test_an_imported_module_is_parsed_once_for_the_builds_of_a_run(tmp_path: Path) -> None:
    (tmp_path / "deps.py").write_text("from __future__ import annotations\n\ndef who() -> str: ...\n")
    lent = LentParses()
    first = _tree_of(tmp_path, lent, "deps")
    assert _tree_of(tmp_path, lent, "deps") is first
    later = _project(tmp_path, lent).find("deps")
    assert later is not None and later.future_annotations and later.text is not None


def test_an_edited_module_is_parsed_again(tmp_path: Path) -> None:
    deps = tmp_path / "deps.py"
    deps.write_text("def who() -> str: ...\n")
    lent = LentParses()
    first = _tree_of(tmp_path, lent, "deps")
    deps.write_text("def whom() -> str: ...\n")
    again = _tree_of(tmp_path, lent, "deps")
    assert again is not first
    assert [n.name for n in again.body if isinstance(n, ast.FunctionDef)] == ["whom"]


def test_given_files_and_texts_past_the_budget_are_not_kept(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text("x = 1\n")
    (tmp_path / "deps.py").write_text("y = 2\n")
    lent = LentParses(budget=3)
    given = _project(tmp_path, lent).load_path(tmp_path / "server.py")
    again = _project(tmp_path, lent).load_path(tmp_path / "server.py")
    assert given.tree is not again.tree, "a given file is its own slice's: never lent"
    assert _tree_of(tmp_path, lent, "deps") is not _tree_of(tmp_path, lent, "deps"), "over the budget"


def test_lint_of_a_resolver_module_parses_each_file_once(tmp_path: Path, monkeypatch) -> None:
    """`lint deps.py` parses the importers spelling its names to find them
    (`carriers.reaching`); its build takes those trees (`Discovered.parses`) instead of
    parsing the same texts again, and finds what it found with them parsed twice."""
    from conftest import lint_diagnostics, write_files
    from mcpdeps.lint_rules import lint

    header = "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n"
    write_files(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n",
            "app/__init__.py": "",
            "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('a')\n",
            "app/deps.py": header + "\n\ndef user(user_id: str) -> str:\n    return user_id\n",
            "app/tools.py": header
            + "from app import deps\nfrom app.server import mcp\n\n\n"
            + "@mcp.tool()\ndef show(who: Annotated[str, Resolve(deps.user)], user: str) -> str:\n"
            + "    return who\n",
        },
    )
    expected = lint_diagnostics(tmp_path, "--no-cache", "app/deps.py")
    parsed: list[str] = []
    real = ast.parse

    def counting(source, *args, **kwargs):  # type: ignore[no-untyped-def]
        parsed.append(source)
        return real(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", counting)
    result = lint(["app/deps.py"], cwd=tmp_path, cache_dir=tmp_path / ".mcpdeps_cache")
    tools = (tmp_path / "app" / "tools.py").read_text(encoding="utf-8")
    assert parsed.count(tools) == 1, "the importer spelling `deps` was parsed again by the build"
    assert len(parsed) == len(set(parsed))
    assert [(d.code, d.path) for d in result.diagnostics] == [(d["code"], d["path"]) for d in expected]
