"""`mcpdeps lsp` on bad input: garbage and truncated JSON-RPC, requests about documents it
does not know, a client that disappears mid-request. The server logs (stderr) and goes on,
or exits cleanly; its standard output never carries anything but protocol frames."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from lsp_helpers import RawSession

SERVER = """from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Demo")


def who(name: str) -> str:
    return name


@mcp.tool()
def hello(name: str, user: Annotated[str, Resolve(who)], _tag: str = "") -> str:
    return user
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    (tmp_path / "server.py").write_text(SERVER)
    return tmp_path


def opened_unsaved(project: Path, text: str) -> list[dict[str, Any]]:
    """The diagnostics published for `server.py` opened in the editor with `text`, unsaved."""
    session = RawSession(project)
    session.initialize()
    server = project / "server.py"
    session.send(
        "textDocument/didOpen",
        {"textDocument": {"uri": server.as_uri(), "languageId": "python", "version": 1, "text": text}},
    )
    session.published(server, 1, timeout=60)
    found: list[dict[str, Any]] = next(
        m["params"]["diagnostics"]
        for m in reversed(session.messages)
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 1
    )
    session.finish()
    return found


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def test_garbage_between_messages_is_logged_and_skipped(project: Path) -> None:
    session = RawSession(project)
    session.send_bytes(b"this is not a header\r\n\r\n")
    session.send_bytes(frame(b"{not json at all"))
    session.send_bytes(frame(b'{"jsonrpc": "2.0", "id": 99, "method": 12}'))
    session.send_bytes(frame(json.dumps([1, 2, 3]).encode()))
    session.send_bytes(frame(b'{"jsonrpc": "2.0", "id": 98, "method": "no/such/method", "params": {}}'))
    assert "capabilities" in session.initialize()["result"]
    session.open(project / "server.py")
    assert [d["code"] for d in session.diagnostics(project / "server.py")] == ["MCPD006"]
    unknown = session.wait(lambda m: m.get("id") == 98)
    assert unknown["error"]["code"] == -32601  # method not found, and the server goes on
    code, stderr = session.finish()
    assert code == 0
    assert session.stdout_rest == b""  # only frames on stdout
    assert "could not handle a message" in stderr  # logged, on stderr
    assert not any(m.get("method") == "window/showMessage" for m in session.messages)  # no popups


def test_truncated_message_then_eof_exits_cleanly(project: Path) -> None:
    session = RawSession(project)
    session.initialize()
    session.send_bytes(b'Content-Length: 500\r\n\r\n{"jsonrpc": "2.0", "method": "textDocument/didOp')
    code, stderr = session.close(timeout=30)
    assert code == 0, stderr
    assert session.stdout_rest == b""
    assert "Traceback" not in stderr or "Unable to handle message" in stderr


def test_unknown_documents_answer_null(project: Path) -> None:
    session = RawSession(project)
    session.initialize()
    nowhere = {"uri": (project / "missing.py").as_uri()}
    position = {"line": 3, "character": 4}
    assert (
        session.request("textDocument/hover", {"textDocument": nowhere, "position": position})["result"]
        is None
    )
    found = session.request("textDocument/definition", {"textDocument": nowhere, "position": position})
    assert found["result"] is None
    actions = session.request(
        "textDocument/codeAction",
        {
            "textDocument": nowhere,
            "range": {"start": position, "end": position},
            "context": {"diagnostics": []},
        },
    )
    assert actions["result"] == []
    far = {
        "textDocument": {"uri": (project / "server.py").as_uri()},
        "position": {"line": 900, "character": 90},
    }
    assert session.request("textDocument/hover", far)["result"] is None
    # A change to a document that was never opened: logged, the server goes on.
    session.send(
        "textDocument/didChange",
        {"textDocument": {"uri": nowhere["uri"], "version": 2}, "contentChanges": [{"text": "x = ("}]},
    )
    session.open(project / "server.py")
    assert [d["code"] for d in session.diagnostics(project / "server.py")] == ["MCPD006"]
    code, _ = session.finish()
    assert code == 0
    assert session.stdout_rest == b""


def test_client_disconnecting_mid_request(project: Path) -> None:
    for _ in range(30):
        (project / f"tools_{_}.py").write_text(SERVER.replace('"Demo"', f'"Demo{_}"'))
    session = RawSession(project)
    session.initialize()
    session.open(project / "server.py")
    where = {
        "textDocument": {"uri": (project / "server.py").as_uri()},
        "position": {"line": 13, "character": 5},
    }
    session.send("textDocument/hover", where, request=True)
    code, stderr = session.close(timeout=30)  # gone before the answer
    assert code == 0, stderr
    assert session.stdout_rest == b""


def test_exit_without_shutdown_exits_1_and_with_it_0(project: Path) -> None:
    """The protocol: `exit` ends the server with 0 if `shutdown` came first, else 1 (issue 34, item 12)."""
    rude = RawSession(project)
    rude.initialize()
    rude.send("exit")
    code, stderr = rude.close(timeout=30)
    assert code == 1, stderr
    polite = RawSession(project)
    polite.initialize()
    code, stderr = polite.finish(timeout=30)
    assert code == 0, stderr


def test_an_enormous_content_length_is_refused_not_allocated(project: Path) -> None:
    """`Content-Length: 99999999999` made the server allocate it and die of MemoryError; now the
    claim is refused with a sentence on stderr, and a client that then goes away ends it cleanly."""
    session = RawSession(project)
    session.initialize()
    session.send_bytes(b'Content-Length: 99999999999\r\n\r\n{"jsonrpc": "2.0", "method": "x"}')
    code, stderr = session.close(timeout=30)
    assert "MemoryError" not in stderr, stderr[-2000:]
    assert "Content-Length" in stderr and "larger than" in stderr, stderr[-2000:]
    assert code == 0, stderr[-2000:]


def test_a_document_too_large_for_lint_is_too_large_for_the_editor(project: Path) -> None:
    """`lint` reports a file over its size limit (MCPD000) without parsing it; the editor's
    unsaved copy of the same size was analysed (issue 34, item 12)."""
    from mcpdeps.resolver_core.cache import MAX_BYTES

    server = project / "server.py"
    found = opened_unsaved(project, server.read_text() + ("#" * 79 + "\n") * (MAX_BYTES // 80 + 1000))
    assert [d["code"] for d in found] == ["MCPD000"] and "too large" in found[0]["message"], found


def test_a_document_past_the_token_budget_is_too_large_for_the_editor_too(project: Path) -> None:
    """Under the byte limit but past the token budget (issue 34, item 9): the editor's unsaved
    copy gets lint's verdict, not a tree of hundreds of megabytes per keystroke."""
    from mcpdeps.resolver_core.parse_budget import MAX_TOKENS

    server = project / "server.py"
    found = opened_unsaved(project, server.read_text() + "DATA = [" + "1," * (MAX_TOKENS // 2 + 1000) + "]\n")
    assert [d["code"] for d in found] == ["MCPD000"], found
    assert found[0]["message"] == f"file is too large to analyse (more than {MAX_TOKENS:,} tokens)"
