"""The language server's memory does not grow with the notifications it handled (issue 34,
item 11): pygls kept one finished future per notification (~4 MB per 1,000 edits). The
server object from `create_server` is driven in this process with the protocol's own
messages (the count of kept futures is what is measured; no process boundary is involved).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from mcpdeps.cli.lsp.server import create_server

EDITS = 500


class _Sink:
    def write(self, data: bytes) -> None:
        pass

    def close(self) -> None:
        pass


def test_finished_notifications_are_not_kept(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text("x = 1\n")
    server = create_server("0")
    server.protocol.set_writer(_Sink())

    def send(message: dict[str, Any]) -> None:
        server.protocol.handle_message(
            json.loads(
                json.dumps({"jsonrpc": "2.0", **message}), object_hook=server.protocol.structure_message
            )
        )

    async def session() -> int:
        send(
            {
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}},
            }
        )
        send({"method": "initialized", "params": {}})
        uri = (tmp_path / "s.py").as_uri()
        document = {"uri": uri, "languageId": "python", "version": 1, "text": "x = 1\n"}
        send({"method": "textDocument/didOpen", "params": {"textDocument": document}})
        for version in range(2, EDITS + 2):
            send(
                {
                    "method": "textDocument/didChange",
                    "params": {
                        "textDocument": {"uri": uri, "version": version},
                        "contentChanges": [{"text": f"x = {version}\n"}],
                    },
                }
            )
        await asyncio.sleep(0.2)
        return len(server.protocol._request_futures)

    kept = asyncio.run(session())
    assert kept < 10, f"{kept} futures kept after {EDITS} edits"


def _rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1])


def test_the_server_process_does_not_grow_with_edits(tmp_path: Path) -> None:
    """The process as a user runs it: 5,000 edits after a warm-up of 1,000 leave its resident
    memory within a few megabytes (about 20 MB more when a future was kept per notification)."""
    from lsp_helpers import RawSession

    path = tmp_path / "server.py"
    path.write_text("x = 1\n")
    session = RawSession(tmp_path)
    try:
        session.initialize(debounce_ms=50)
        session.open(path)
        session.published(path, 1)

        def edits(first: int, count: int) -> int:
            for version in range(first, first + count):
                session.change(path, version, f"x = {version}\n")
            session.published(path, first + count - 1)
            return first + count

        after_warm_up = edits(2, 1_000)
        before = _rss_kib(session.proc.pid)
        edits(after_warm_up, 5_000)
        grown = _rss_kib(session.proc.pid) - before
    finally:
        session.finish()
    assert grown < 6 * 1024, f"resident memory grew {grown} KiB over 5,000 edits"
