"""A run built in slices parses a module its slices share once (`resolver_core.lent_parses`):
a later build takes the tree an earlier one parsed, only for the same text."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
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


def _resolver_and_tool(root: Path, argument: str) -> None:
    """`app/deps.py` defining a resolver, and `app/tools.py` importing it for a tool taking
    `argument` as well."""
    from conftest import write_files

    header = "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n"
    write_files(
        root,
        {
            "pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n",
            "app/__init__.py": "",
            "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('a')\n",
            "app/deps.py": header + "\n\ndef user(user_id: str) -> str:\n    return user_id\n",
            "app/tools.py": header
            + "from app import deps\nfrom app.server import mcp\n\n\n"
            + f"@mcp.tool()\ndef show(who: Annotated[str, Resolve(deps.user)], {argument}: str) -> str:\n"
            + "    return who\n",
        },
    )


def _counted_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts `ast.parse` is given from now on, in this process."""
    parsed: list[str] = []
    real = ast.parse

    def counting(source, *args, **kwargs):  # type: ignore[no-untyped-def]
        parsed.append(source)
        return real(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", counting)
    return parsed


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
    assert given.tree is not again.tree, "a given file is kept only while a worker holds its build"
    assert _tree_of(tmp_path, lent, "deps") is not _tree_of(tmp_path, lent, "deps"), "over the budget"


def test_lint_of_a_resolver_module_parses_each_file_once(tmp_path: Path, monkeypatch) -> None:
    """`lint deps.py` parses the importers spelling its names to find them
    (`carriers.reaching`); its build takes those trees (`Discovered.parses`) instead of
    parsing the same texts again, and finds what it found with them parsed twice."""
    from conftest import lint_diagnostics
    from mcpdeps.lint_rules import lint

    _resolver_and_tool(tmp_path, argument="user")
    expected = lint_diagnostics(tmp_path, "--no-cache", "app/deps.py")
    parsed = _counted_parses(monkeypatch)
    result = lint(["app/deps.py"], cwd=tmp_path, cache_dir=tmp_path / ".mcpdeps_cache")
    tools = (tmp_path / "app" / "tools.py").read_text(encoding="utf-8")
    assert parsed.count(tools) == 1, "the importer spelling `deps` was parsed again by the build"
    assert len(parsed) == len(set(parsed))
    assert [(d.code, d.path) for d in result.diagnostics] == [(d["code"], d["path"]) for d in expected]


def test_a_worker_lends_the_trees_of_the_build_it_holds_until_it_frees_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker keeps each build it made while its memory allows (`parallel.hold`); a module
    checked in its first slice and imported by a file of its next one is taken from that
    build, not parsed again. Once the worker frees its builds (`parallel.make_room`, past
    `HELD_BELOW`), the next build parses it again: nothing lent outlives the build it came
    from. Called as a worker calls it (`check_files(in_worker=True)`), in this process."""
    from mcpdeps.lint_rules import incremental, parallel
    from mcpdeps.lint_rules.registry import ALL_RULES
    from mcpdeps.resolver_core.builder import build_graph
    from mcpdeps.resolver_core.discovery import GivenFiles, discover
    from mcpdeps.resolver_core.file_states import Hashes

    _resolver_and_tool(tmp_path, argument="user_id")
    found = discover(["."], (), tmp_path)
    given = GivenFiles(list(found), found.parses)
    path_of = {f.display: p for f, p in zip(given.files, given.paths, strict=True)}

    def build(only, report, withheld, classified, piece=False):  # type: ignore[no-untyped-def]
        return build_graph(
            ["."],
            cwd=tmp_path,
            files=given,
            only=only,
            hashing=False,
            withheld=withheld,
            classified=classified,
            piece=piece,
        )

    deps = (tmp_path / "app/deps.py").read_text(encoding="utf-8")
    parsed = _counted_parses(monkeypatch)
    monkeypatch.setattr(parallel, "_HELD", [])
    monkeypatch.setattr(parallel, "_RELEASES", [])
    monkeypatch.setattr(parallel, "HELD_BELOW", 1 << 62)  # whatever this process's peak
    others = sorted(set(path_of) - {"app/deps.py", "app/tools.py"})

    def check(origins: list[str]) -> incremental.Checked:
        among = [o for o in path_of if o not in origins]
        return incremental.check_files(
            origins, path_of, build, ALL_RULES, Hashes(), in_worker=True, remember=False, among=among
        )

    check(["app/deps.py", *others])
    tools = check(["app/tools.py"])
    assert parsed.count(deps) == 1, "the resolver module checked in the first slice was parsed again"
    assert tools.records["app/tools.py"].registrations, "the tool was not found with the lent tree"

    monkeypatch.setattr(parallel, "HELD_BELOW", 0)  # the worker's memory is past the bound
    parsed.clear()
    again = check(["app/tools.py"])
    assert parsed.count(deps) == 1, "a tree of a freed build was still lent"
    assert again.records == tools.records, "a lent tree made another record than a parse"
