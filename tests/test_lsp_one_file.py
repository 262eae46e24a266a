"""The editor, `lint FILE` and `lint .` give the same verdicts for a module of resolvers.

The editor shows `shop/deps.py` (its tools are in `app.py`, reached through the package's
`__init__`); what the language server publishes for it must equal `mcpdeps lint
shop/deps.py` and `lint .` restricted to it, cycles included at each file's own edge.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import pytest_lsp
from conftest import run_mcpdeps, write_files
from lsp_helpers import SERVER, Docs, as_lint, eventually, start
from pytest_lsp import LanguageClient
from test_lint_one_file import FILES

pytestmark = pytest.mark.asyncio(loop_scope="function")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    write_files(tmp_path, FILES)
    return tmp_path


@pytest.fixture(params=[".", "shop"], ids=["project", "subfolder"])
def folder(root: Path, request: pytest.FixtureRequest) -> Path:
    """The workspace folder the editor opened: the project, or its package alone (the tools
    in `app.py` are then outside the folder, in the project around it)."""
    return (root / request.param).resolve()


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, folder: Path):
    await start(lsp_client, folder)
    yield
    await lsp_client.shutdown_session()


def _lint(root: Path, *args: str) -> list[dict]:
    proc = run_mcpdeps("lint", "--format", "json", "--exit-zero", "--no-cache", *args, cwd=root)
    assert proc.returncode == 0, proc.stderr
    return [{k: v for k, v in d.items() if k != "fix"} for d in json.loads(proc.stdout)["diagnostics"]]


@pytest.mark.parametrize("name", ["shop/deps.py", "shop/plans.py"])
async def test_the_editor_lint_file_and_lint_dot_agree_on_a_resolver_module(
    client: LanguageClient, root: Path, folder: Path, name: str
) -> None:
    path = root / name
    Docs(client).open(path)
    alone = _lint(root, name)
    whole = [d for d in _lint(root, ".") if d["path"] == name]
    assert alone == whole
    inside = Path(os.path.relpath(path, folder)).as_posix()  # `lint .` in the folder opened

    def at(found: list[dict]) -> list[tuple]:
        return [(d["code"], d["line"], d["column"], d["message"]) for d in found]

    assert at([d for d in _lint(folder, ".") if d["path"] == inside]) == at(whole)
    assert "MCPD001" in {d["code"] for d in alone}

    def shown() -> list[dict]:
        uri = path.as_uri()
        return sorted(
            (as_lint(root, uri, d) for d in client.diagnostics.get(uri, [])),
            key=lambda d: (d["line"], d["column"], d["code"], d["tool"] or "", d["message"]),
        )

    await eventually(lambda: shown() == alone, f"the editor's diagnostics of {name}")
