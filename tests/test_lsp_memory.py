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
