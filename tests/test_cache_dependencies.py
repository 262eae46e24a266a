"""The lint cache depends on everything a verdict was computed from.

- a module that is *missing* at the first run is a dependency too: when it appears, the
  file importing it is checked again;
- a dependency is hashed from the bytes that were parsed, so an edit made while a run was
  parsing is seen by the next run (it is never hidden behind the verdict on older text);
- what an import means (package or module of the same name) is a dependency too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_mcpdeps
from mcpdeps.lint_rules import lint
from mcpdeps.resolver_core.project import Project

SERVER = """from typing import Annotated

import helpers
from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("p")


@mcp.tool()
def show(title: str, who: Annotated[str, Resolve(helpers.owner)]) -> str:
    return who
"""

BAD_HELPERS = "def owner(user_id: str) -> str:\n    return user_id\n"
GOOD_HELPERS = "def owner(title: str) -> str:\n    return title\n"


def _codes(*args: str, cwd: Path) -> tuple[int, list[str]]:
    proc = run_mcpdeps("lint", "--format", "json", *args, "server.py", cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, [d["code"] for d in json.loads(proc.stdout)["diagnostics"]]


def _project(root: Path) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    (root / "server.py").write_text(SERVER)


def test_a_module_created_after_the_first_run_is_checked(tmp_path: Path) -> None:
    _project(tmp_path)
    assert _codes(cwd=tmp_path) == (0, ["MCPD113"]), "helpers does not exist yet: opaque"
    (tmp_path / "helpers.py").write_text(BAD_HELPERS)
    cold = _codes("--no-cache", cwd=tmp_path)
    assert cold == (1, ["MCPD002"])
    assert _codes(cwd=tmp_path) == cold, "the cached run must see the module that appeared"
    assert _codes(cwd=tmp_path) == cold


def test_a_package_created_beside_a_module_of_the_same_name_is_checked(tmp_path: Path) -> None:
    _project(tmp_path)
    (tmp_path / "helpers.py").write_text(GOOD_HELPERS)
    assert _codes(cwd=tmp_path) == (0, [])
    (tmp_path / "helpers").mkdir()
    (tmp_path / "helpers" / "__init__.py").write_text(BAD_HELPERS)  # Python imports this one now
    assert _codes(cwd=tmp_path) == _codes("--no-cache", cwd=tmp_path) == (1, ["MCPD002"])


def test_a_deleted_module_is_checked(tmp_path: Path) -> None:
    _project(tmp_path)
    (tmp_path / "helpers.py").write_text(BAD_HELPERS)
    assert _codes(cwd=tmp_path) == (1, ["MCPD002"])
    (tmp_path / "helpers.py").unlink()
    assert _codes(cwd=tmp_path) == _codes("--no-cache", cwd=tmp_path) == (0, ["MCPD113"])


@pytest.mark.parametrize("target", ["helpers.py", "server.py"])
def test_an_edit_during_a_run_is_seen_by_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str
) -> None:
    """The file is rewritten on disk right after the run parsed it (as an editor saving while
    pre-commit runs): the run judges the old text, the next one must judge the new text."""
    _project(tmp_path)
    (tmp_path / "helpers.py").write_text(GOOD_HELPERS)
    edited = tmp_path / target
    new_text = (
        SERVER.replace("def show(title: str,", "def show(_title: str,")
        if target == "server.py"
        else BAD_HELPERS
    )
    load_path = Project.load_path

    def load_then_edit(self: Project, path: Path, data: bytes | None = None, **how: bool):  # type: ignore[no-untyped-def]
        module = load_path(self, path, data, **how)
        if path.absolute() == edited and edited.read_text() != new_text:
            edited.write_text(new_text)
        return module

    cache = tmp_path / "cache"
    with monkeypatch.context() as patch:
        patch.setattr(Project, "load_path", load_then_edit)
        during = lint(["server.py"], cwd=tmp_path, cache_dir=cache)
    assert [d.code for d in during.diagnostics] == []  # the text it parsed was fine
    cold = [d.code for d in lint(["server.py"], cwd=tmp_path).diagnostics]
    assert cold and cold == [d.code for d in lint(["server.py"], cwd=tmp_path, cache_dir=cache).diagnostics]
