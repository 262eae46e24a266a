"""Files the editor creates during a session get diagnostics (issue 34, item 11).

An unsaved new buffer got none, and without dynamic file watching a file created during the
session never did, even after a save, until a restart. A real client (pytest-lsp) drives
`mcpdeps lsp`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import SERVER, Docs, at_version
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="function")

BROKEN = (
    "from mcp.server import MCPServer\n\nmcp = MCPServer('s')\n\n\n"
    "@mcp.tool()\ndef t(_title: str) -> str:\n    return _title\n"
)


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    (tmp_path / "ok.py").write_text("x = 1\n")
    # No file watching: the client does not offer `didChangeWatchedFiles` registration.
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(
                text_document=types.TextDocumentClientCapabilities(
                    publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True)
                )
            ),
            root_uri=tmp_path.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="p")],
            initialization_options={"debounceMs": 30},
        )
    )
    yield
    await lsp_client.shutdown_session()


async def test_an_unsaved_new_buffer_gets_diagnostics(client: LanguageClient, tmp_path: Path) -> None:
    new = tmp_path / "new_server.py"
    Docs(client).open(new, BROKEN)  # never written to disk
    assert [d.code for d in await at_version(client, new, 1)] == ["MCPD006"]
    assert not new.exists()


async def test_a_file_created_during_the_session_gets_diagnostics(
    client: LanguageClient, tmp_path: Path
) -> None:
    docs = Docs(client)
    docs.open(tmp_path / "ok.py")
    await at_version(client, tmp_path / "ok.py", 1)
    created = tmp_path / "created.py"
    created.write_text(BROKEN)  # another tool wrote it; no watcher tells the server
    docs.open(created)
    assert [d.code for d in await at_version(client, created, 1)] == ["MCPD006"]
