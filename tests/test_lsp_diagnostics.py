"""`mcpdeps lsp` diagnostics through a real LSP client over stdio (pytest-lsp).

The oracle is `mcpdeps lint --format json` on the same files: whatever the editor's
unsaved text is, once it is written to disk, lint must say what the server published.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import pytest_lsp
from conftest import write_files
from lsp_helpers import (
    SERVER,
    Docs,
    at_version,
    codes,
    eventually,
    lint_json,
    published,
    session_on_root,
    settle,
    start,
)
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="function")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

DEPS = """from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Resolve


def plan_of(user: str) -> str:
    return "pro"


def check_quota(user: str, plan: Annotated[str, Resolve(plan_of)]) -> int:
    return 20 if plan == "pro" else 5
"""

SERVER_PY = """from typing import Annotated

from mcp.server.mcpserver import MCPServer, Resolve

import deps

mcp = MCPServer("Demo")


@mcp.tool()
def upload(user: str, quota: Annotated[int, Resolve(deps.check_quota)]) -> str:
    return f"{user}: {quota}"


@mcp.tool()
def rename(_name: str) -> str:
    return _name
"""

CYCLE = DEPS.replace(
    "def plan_of(user: str) -> str:",
    "def plan_of(user: str, quota: Annotated[int, Resolve(check_quota)]) -> str:",
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """Two modules: a tool in server.py runs resolvers from deps.py."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    (tmp_path / "deps.py").write_text(DEPS)
    (tmp_path / "server.py").write_text(SERVER_PY)
    return tmp_path


client = session_on_root()


@pytest.fixture
def root(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """The workspace folder: an example (copied) when parametrized, else the two-module project."""
    example = getattr(request, "param", None)
    if example is None:
        return request.getfixturevalue("project")

    shutil.copytree(EXAMPLES / example, tmp_path / example)
    return tmp_path / example


@pytest.mark.parametrize("root", ["bookshop", "broken", "questions"], indirect=True)
async def test_examples_equal_lint_json(client: LanguageClient, root: Path) -> None:
    docs = Docs(client)
    for path in sorted(root.rglob("*.py")):
        docs.open(path)
    await settle(client, root, lint_json(root))


async def test_unsaved_cycle_across_two_files_appears_then_goes(client: LanguageClient, root: Path) -> None:
    docs, deps, server = Docs(client), root / "deps.py", root / "server.py"
    docs.open(server)
    docs.open(deps)
    assert [d.code for d in await at_version(client, server, 1)] == ["MCPD006"]
    version = docs.change(deps, CYCLE)  # typed, not saved
    found = await at_version(client, deps, version)
    assert [d.code for d in found] == ["MCPD001"]
    cycle = found[0]
    assert cycle.message == "resolver cycle: check_quota -> plan_of -> check_quota"
    assert cycle.code_description is not None and cycle.code_description.href.endswith("#mcpd001")
    assert cycle.severity == types.DiagnosticSeverity.Error
    places = {(Path(r.location.uri).name, r.message) for r in cycle.related_information or []}
    assert {name for name, message in places if "depends on" in message} == {"deps.py"}
    assert {(name, message) for name, message in places if "depends on" not in message} == {
        ("server.py", "tool 'upload' runs this resolver")
    }
    assert cycle.data["tool"] == "upload"  # the cycle is the tool's in server.py
    assert deps.read_text() == DEPS  # nothing was written
    deps.write_text(CYCLE)
    assert published(client, root) == lint_json(root)
    deps.write_text(DEPS)
    version = docs.change(deps, DEPS)
    assert await at_version(client, deps, version) == []
    assert codes(client, server) == ["MCPD006"]


async def test_edit_in_resolver_module_reaches_the_tool_file(client: LanguageClient, root: Path) -> None:
    """A resolver asking for a name the tool does not have: the finding is the tool's (MCPD002)."""
    docs, deps = Docs(client), root / "deps.py"
    docs.open(deps)
    docs.open(root / "server.py")
    await at_version(client, root / "server.py", 1)
    version = docs.change(deps, DEPS.replace("def plan_of(user: str)", "def plan_of(account: str)"))
    found = await at_version(client, deps, version)
    assert [d.code for d in found] == ["MCPD002"]
    assert "'account'" in found[0].message and found[0].data["tool"] == "upload"


async def test_syntax_error_mid_typing_keeps_the_rest(client: LanguageClient, root: Path) -> None:
    docs, deps, server = Docs(client), root / "deps.py", root / "server.py"
    docs.open(server)
    docs.open(deps)
    version = docs.change(deps, CYCLE)
    assert [d.code for d in await at_version(client, deps, version)] == ["MCPD001"]
    before = list(client.diagnostics[server.as_uri()])
    version = docs.change(deps, CYCLE + "\ndef half_typed(x: Annotated[int, Resolve(\n")
    found = await at_version(client, deps, version)
    assert "MCPD000" in [d.code for d in found]
    syntax = next(d for d in found if d.code == "MCPD000")
    assert syntax.message.startswith("syntax error") and syntax.range.start.line >= 14
    assert list(client.diagnostics[server.as_uri()]) == before  # server.py keeps its last good results
    version = docs.change(deps, CYCLE + "\ndef half_typed(x: int) -> int:\n    return x\n")
    assert [d.code for d in await at_version(client, deps, version)] == ["MCPD001"]


async def test_syntax_error_in_the_tool_file(client: LanguageClient, root: Path) -> None:
    docs, server = Docs(client), root / "server.py"
    docs.open(server)
    await at_version(client, server, 1)
    version = docs.change(server, SERVER_PY.replace("def rename(", "def rename(("))
    found = await at_version(client, server, version)
    assert [d.code for d in found] == ["MCPD000"]
    version = docs.change(server, SERVER_PY)
    assert [d.code for d in await at_version(client, server, version)] == ["MCPD006"]


async def test_unsaved_suppression_silences_and_unused_one_is_reported(
    client: LanguageClient, root: Path
) -> None:
    docs, server = Docs(client), root / "server.py"
    docs.open(server)
    await at_version(client, server, 1)
    silenced = SERVER_PY.replace(
        "def rename(_name: str) -> str:", "def rename(_name: str) -> str:  # mcpdeps: ignore[MCPD006]"
    )
    assert [d.code for d in await at_version(client, server, docs.change(server, silenced))] == []
    unused = silenced.replace("def upload(", "def upload(  # mcpdeps: ignore[MCPD001]\n    ")
    found = await at_version(client, server, docs.change(server, unused))
    assert [d.code for d in found] == ["MCPD114"]
    server.write_text(unused)
    assert published(client, root) == lint_json(root)


async def test_config_change_is_read_again(client: LanguageClient, root: Path) -> None:
    docs, server = Docs(client), root / "server.py"
    docs.open(server)
    assert [d.code for d in await at_version(client, server, 1)] == ["MCPD006"]
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + '\n[tool.mcpdeps]\nignore = ["underscore-parameter"]\n')
    docs.files_changed((pyproject, types.FileChangeType.Changed))
    await eventually(lambda: codes(client, server) == [], "the ignored rule to disappear")
    assert published(client, root) == lint_json(root) == []
    pyproject.write_text(pyproject.read_text().replace("underscore-parameter", "resolver-cycle"))
    docs.files_changed((pyproject, types.FileChangeType.Changed))
    await eventually(lambda: codes(client, server) == ["MCPD006"], "the rule to come back")


async def test_bad_config_keeps_serving_with_defaults(client: LanguageClient, root: Path) -> None:
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "\n[tool.mcpdeps]\nselct = []\n")
    Docs(client).files_changed((pyproject, types.FileChangeType.Changed))
    await eventually(
        lambda: any("selct" in m.message for m in client.messages), "a message naming the bad key"
    )
    Docs(client).open(root / "server.py")
    assert [d.code for d in await at_version(client, root / "server.py", 1)] == ["MCPD006"]


async def test_deleted_and_renamed_files(client: LanguageClient, root: Path) -> None:
    docs, deps, server = Docs(client), root / "deps.py", root / "server.py"
    docs.open(server)
    await at_version(client, server, 1)
    deps.rename(root / "resolvers.py")
    docs.files_changed(
        (deps, types.FileChangeType.Deleted), (root / "resolvers.py", types.FileChangeType.Created)
    )
    await eventually(lambda: "MCPD113" in codes(client, server), "the resolver to be unknown")
    assert published(client, root) == lint_json(root)
    version = docs.change(server, SERVER_PY.replace("import deps", "import resolvers as deps"))
    assert [d.code for d in await at_version(client, server, version)] == ["MCPD006"]
    (root / "resolvers.py").unlink()
    docs.files_changed((root / "resolvers.py", types.FileChangeType.Deleted))
    await eventually(lambda: "MCPD113" in codes(client, server), "the resolver to be unknown again")


async def test_closing_a_document_returns_to_the_file_on_disk(client: LanguageClient, root: Path) -> None:
    docs, deps = Docs(client), root / "deps.py"
    docs.open(deps)
    docs.open(root / "server.py")
    assert await at_version(client, deps, docs.change(deps, CYCLE)) != []
    docs.close(deps)
    await eventually(lambda: codes(client, deps) == [], "the saved file's verdict")
    assert published(client, root) == lint_json(root)


async def test_config_edited_without_a_file_watcher_is_noticed(client: LanguageClient, root: Path) -> None:
    """Clients that watch no files (Neovim 0.7) still get new settings at the next keystroke."""
    docs, server = Docs(client), root / "server.py"
    docs.open(server)
    assert [d.code for d in await at_version(client, server, 1)] == ["MCPD006"]
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + '\n[tool.mcpdeps]\nignore = ["MCPD006"]\n')
    docs.change(server, SERVER_PY + "\n")
    await eventually(lambda: codes(client, server) == [], "the ignored rule to disappear")


@pytest.fixture
def stray(tmp_path: Path) -> Path:
    """A folder that is no project (no pyproject.toml, no .git) with a lot else in it."""
    folder = tmp_path / "downloads"
    (folder / "big").mkdir(parents=True)
    for n in range(50):
        (folder / "big" / f"other_{n}.py").write_text(SERVER_PY)
    (folder / "demo.py").write_text(SERVER_PY.replace("import deps\n", ""))
    (folder / "second.py").write_text(SERVER_PY.replace("import deps\n", "").replace("_name", "_other"))
    return folder


@pytest_lsp.fixture(config=SERVER)
async def no_workspace(lsp_client: LanguageClient):
    await start(lsp_client, None)
    yield
    await lsp_client.shutdown_session()


async def test_a_file_outside_any_project_is_checked_alone(no_workspace: LanguageClient, stray: Path) -> None:
    client, root = no_workspace, stray
    docs = Docs(client)
    for name in ("demo.py", "second.py"):
        docs.open(root / name)
        found = await at_version(client, root / name, 1)
        assert "MCPD006" in [d.code for d in found]
    assert not any("big" in uri for uri in client.diagnostics)  # its folder was never walked


async def test_a_uv_workspace_member_opened_alone_is_checked_in_its_workspace(
    no_workspace: LanguageClient, tmp_path: Path
) -> None:
    """A member's resolver module opened with no workspace folder: its importers are in another
    member, as `lint FILE` finds them (the workspace is the member's project)."""
    from test_published_layouts import CASES

    files, _, _, bad = CASES["uv workspace, the server importing another member"]
    write_files(tmp_path, files)
    client, path = no_workspace, tmp_path / bad
    Docs(client).open(path)
    found = await at_version(client, path, 1)
    expected = [d["code"] for d in lint_json(tmp_path, bad)]
    assert expected == ["MCPD002"]
    assert [d.code for d in found] == expected
    # Never shown clean first: its finding is its importers', checked after it.
    assert client.history[path.as_uri()] == [expected]  # type: ignore[attr-defined]


async def test_a_resolver_module_opened_first_is_shown_with_its_tools_verdict(
    client: LanguageClient, root: Path
) -> None:
    """The first file opened in a workspace is a resolver module whose finding (MCPD002) is
    located in it but found by the tool file that runs it: its first publication has it."""
    deps = root / "deps.py"
    deps.write_text(DEPS.replace("def plan_of(user: str)", "def plan_of(account: str)"))
    Docs(client).open(deps)
    found = await at_version(client, deps, 1)
    assert [d.code for d in found] == ["MCPD002"]
    assert client.history[deps.as_uri()] == [["MCPD002"]]  # type: ignore[attr-defined]
