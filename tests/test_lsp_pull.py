"""Pull diagnostics (`textDocument/diagnostic`, `workspace/diagnostic`) through a real client.

A client declaring `textDocument.diagnostic` pulls and is never pushed to (given both, VS
Code showed every problem twice); a client without it is pushed to, as Neovim 0.7 is
(`test_lsp_neovim.py`). The oracle is `mcpdeps lint --format json` on the same files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsp_helpers import DEBOUNCE_MS, SERVER, Docs, as_lint, eventually, lint_json, published, settle, start
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="function")

DEPS = "def stock_of(titel: str) -> int:\n    return len(titel)\n"

SERVER_PY = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

from deps import stock_of

mcp = MCPServer("shop")


@mcp.tool()
def order_book(title: str, stock: Annotated[int, Resolve(stock_of)]) -> str:
    return f"{title}: {stock}"


@mcp.tool()
def reserve_book(title: str, stock: Annotated[int, Resolve(stock_of)]) -> str:
    return f"{title}: {stock}"
"""

NEVER_OPENED = """\
from typing import Annotated

from mcp.server.mcpserver import Resolve

from deps import stock_of
from server import mcp


@mcp.tool()
def _hidden(_note: str) -> str:
    return _note


@mcp.tool()
def hold_book(title: str, stock: Annotated[int, Resolve(stock_of)]) -> str:
    return f"{title}: {stock}"
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """Two tools sharing a resolver with a typo, and a module nobody opens: its own problem,
    and a third tool running that resolver."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "shop"\nversion = "0"\n')
    (tmp_path / "deps.py").write_text(DEPS)
    (tmp_path / "server.py").write_text(SERVER_PY)
    (tmp_path / "extra.py").write_text(NEVER_OPENED)
    (tmp_path / "clean.py").write_text("VALUE = 1\n")
    return tmp_path


PULLING = types.ClientCapabilities(
    workspace=types.WorkspaceClientCapabilities(
        diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    ),
    text_document=types.TextDocumentClientCapabilities(
        diagnostic=types.DiagnosticClientCapabilities(related_document_support=False),
        publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=True),
    ),
)


@pytest_lsp.fixture(config=SERVER)
async def pulling(lsp_client: LanguageClient, root: Path):
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=PULLING,
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            initialization_options={"debounceMs": DEBOUNCE_MS},
        )
    )
    lsp_client.initialize_result = result  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER)
async def pushed(lsp_client: LanguageClient, root: Path):
    await start(lsp_client, root)
    yield
    await lsp_client.shutdown_session()


async def _workspace(client: LanguageClient, previous: dict[str, str] | None = None) -> dict[str, Any]:
    """One `workspace/diagnostic` pull: per URI, its report (each URI checked to come once)."""
    ids = [types.PreviousResultId(uri=u, value=v) for u, v in (previous or {}).items()]
    answer = await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=ids))
    uris = [r.uri for r in answer.items]
    assert len(uris) == len(set(uris)), "a file reported twice"
    return {r.uri: r for r in answer.items}


def _as_lint(root: Path, reports: dict[str, Any]) -> list[dict[str, Any]]:
    out = [as_lint(root, uri, d) for uri, r in reports.items() for d in getattr(r, "items", [])]
    return sorted(
        out, key=lambda d: (d["path"], d["line"], d["column"], d["code"], d["tool"] or "", d["message"])
    )


async def _document(client: LanguageClient, path: Path, previous: str | None = None) -> Any:
    return await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()), previous_result_id=previous
        )
    )


async def test_a_pulling_client_gets_every_file_once_and_is_never_pushed(
    pulling: LanguageClient, root: Path
) -> None:
    client = pulling
    provider = client.initialize_result.capabilities.diagnostic_provider  # type: ignore[attr-defined]
    assert isinstance(provider, types.DiagnosticOptions)
    assert provider.workspace_diagnostics and provider.inter_file_dependencies
    Docs(client).open(root / "server.py")
    reports = await _workspace(client)
    # Every Python file, closed ones included (nobody opened deps.py or extra.py).
    assert set(reports) == {(root / n).as_uri() for n in ("clean.py", "deps.py", "extra.py", "server.py")}
    assert _as_lint(root, reports) == lint_json(root)
    [typo] = reports[(root / "deps.py").as_uri()].items
    # One diagnostic for the three tools that run it, in two files (one never opened).
    assert typo.code == "MCPD002"
    assert [r.message for r in typo.related_information or []] == [
        "tool 'hold_book' runs this resolver",
        "tool 'order_book' runs this resolver",
        "tool 'reserve_book' runs this resolver",
    ]
    assert {str(d.code) for d in reports[(root / "extra.py").as_uri()].items} == {"MCPD006"}
    assert reports[(root / "server.py").as_uri()].version == 1
    # Asked again with the ids it was given: nothing changed.
    again = await _workspace(client, {u: r.result_id for u, r in reports.items()})
    assert {type(r).__name__ for r in again.values()} == {"WorkspaceUnchangedDocumentDiagnosticReport"}
    assert {u: r.result_id for u, r in again.items()} == {u: r.result_id for u, r in reports.items()}
    first = await _document(client, root / "server.py")
    assert first.kind == "full" and first.items == reports[(root / "server.py").as_uri()].items
    unchanged = await _document(client, root / "server.py", first.result_id)
    assert unchanged.kind == "unchanged" and unchanged.result_id == first.result_id
    assert client.diagnostics == {}, "nothing was pushed beside the pulls"


async def test_an_edit_that_changes_another_file_asks_for_a_refresh(
    pulling: LanguageClient, root: Path
) -> None:
    client = pulling
    docs, server, deps = Docs(client), root / "server.py", root / "deps.py"
    docs.open(server)
    before = await _workspace(client)
    refreshes = client.diagnostic_refresh_count
    # Unsaved: the tools' argument is renamed; the resolver's verdict (in deps.py) changes.
    docs.change(server, SERVER_PY.replace("title", "name"))
    edited = await _document(client, server)
    assert edited.kind == "full" and list(edited.items) == []
    await eventually(lambda: client.diagnostic_refresh_count > refreshes, "a refresh request")
    after = await _workspace(client, {u: r.result_id for u, r in before.items()})
    changed = {Path(u).name for u, r in after.items() if r.kind == "full"}
    assert changed == {"deps.py"}, "only the file whose verdict changed is sent again"
    # server.py's two tools now fail it differently from extra.py's: two problems.
    first, second = after[deps.as_uri()].items
    assert "the tool arguments are ['name']" in first.message + second.message
    assert "(did you mean 'title'?)" in first.message + second.message
    assert after[server.as_uri()].version == 2
    # Once written, lint says the same.
    server.write_text(SERVER_PY.replace("title", "name"))
    assert _as_lint(root, {u: r for u, r in after.items() if r.kind == "full"} | _full(before, after)) == (
        lint_json(root)
    )
    assert client.diagnostics == {}


def _full(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The reports a client holds after `after`: the unchanged ones are still `before`'s."""
    return {u: before[u] for u, r in after.items() if r.kind == "unchanged"}


async def test_a_client_that_cannot_pull_is_pushed_to_and_offered_no_pull(
    pushed: LanguageClient, root: Path
) -> None:
    client = pushed
    docs = Docs(client)
    docs.open(root / "server.py")
    await settle(client, root, lint_json(root))
    assert [d["code"] for d in published(client, root) if d["path"] == "deps.py"] == ["MCPD002"]
    with pytest.raises(Exception, match="diagnostic"):
        await _document(client, root / "server.py")


async def test_hovering_each_tool_of_a_shared_typo_shows_the_one_diagnostic(
    pushed: LanguageClient, root: Path
) -> None:
    """The united diagnostic names `hold_book` as its tool; hovering the other tools shows it too."""
    client, server = pushed, root / "server.py"
    Docs(client).open(server)
    await settle(client, root, lint_json(root))
    lines = server.read_text().splitlines()
    for name in ("order_book", "reserve_book"):
        line = next(i for i, text in enumerate(lines) if text.startswith(f"def {name}("))
        found = await client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=server.as_uri()),
                position=types.Position(line=line, character=5),
            )
        )
        assert found is not None and isinstance(found.contents, types.MarkupContent)
        assert "MCPD002" in found.contents.value, name


async def test_a_resolver_module_pulled_first_has_its_tools_verdict(
    pulling: LanguageClient, root: Path
) -> None:
    """The first document opened and pulled is the resolver module: its finding is found by the
    tool files that run it, checked after it; the pull waits for them, never answers clean."""
    deps = root / "deps.py"
    Docs(pulling).open(deps)
    report = await _document(pulling, deps)
    assert [d.code for d in report.items] == ["MCPD002"]
