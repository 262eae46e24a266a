"""The document a client opens as it starts is checked before the first pass's background,
and the cyclic collector is off until the pass ends.

An editor sends `initialized`, then `didOpen` for the documents it shows, a few milliseconds
later over its pipe. The first pass started at `initialized`: its first background batch ran
before the `didOpen` was read, and on a project registering tools in `register(server)`
helpers that batch is one build of every file (`WorkspaceModel._check`), so the open
document waited for all of it (7.7 s on a 1,000-module tree). The pass now starts a moment
after `initialized` (`server.OPEN_WAIT`), and its background is one build of every
file (`WorkspaceModel.first_batch_whole`). The server object is driven in this process with
the protocol's own messages, the `didOpen` sent after the loop has turned (as a pipe delivers
it), and what it writes is read back.
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from mcpdeps.cli.lsp import workspace
from mcpdeps.cli.lsp.server import create_server

sys.path.insert(0, str(REPO / "benchmarks"))
from gen_shapes import generate


class _Events:
    """What the server writes, and the builds it makes, in one sequence."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, Any]] = []
        self.collecting: list[bool] = []
        """Whether the cyclic collector was on at each publication."""

    def write(self, data: bytes) -> None:
        body = json.loads(data.split(b"\r\n\r\n", 1)[1])
        if body.get("method") == "textDocument/publishDiagnostics":
            self.seen.append(("published", body["params"]["uri"]))
            self.collecting.append(gc.isenabled())

    def close(self) -> None:
        pass


def test_the_open_document_is_published_before_the_build_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generate(tmp_path, 120, "helpers", 1, 0.3)
    opened = sorted(tmp_path.glob("pkg*/tools_*.py"))[0]
    events = _Events()
    check_files = workspace.check_files

    def recorded(origins, *args, **kwargs):  # type: ignore[no-untyped-def]
        events.seen.append(("built", len(origins)))
        return check_files(origins, *args, **kwargs)

    monkeypatch.setattr(workspace, "check_files", recorded)
    server = create_server("0")
    server.protocol.set_writer(events)

    def send(message: dict[str, Any]) -> None:
        server.protocol.handle_message(
            json.loads(
                json.dumps({"jsonrpc": "2.0", **message}), object_hook=server.protocol.structure_message
            )
        )

    async def session() -> None:
        params = {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}
        send({"id": 1, "method": "initialize", "params": params})
        send({"method": "initialized", "params": {}})
        await asyncio.sleep(0.01)  # the next message, read from the pipe
        document = {"uri": opened.as_uri(), "languageId": "python", "version": 1, "text": opened.read_text()}
        send({"method": "textDocument/didOpen", "params": {"textDocument": document}})
        while server._worker is None or not server._worker.done():
            await asyncio.sleep(0.05)

    asyncio.run(asyncio.wait_for(session(), 300))
    every = len(next(iter(server.models.values())).order)
    builds = [n for what, n in events.seen if what == "built"]
    # The open document, then every file in one build: the texts show `register(server)`
    # helpers, so the background does not build towards them round after round first.
    assert builds == [1, every], builds
    assert events.seen.index(("published", opened.as_uri())) < events.seen.index(("built", every))
    # The collector stays off through the first pass (publishing included: its first turn
    # after a build walked every tree), and is on again once the pass ends in `gc.freeze`.
    assert events.collecting and not any(events.collecting)
    assert gc.isenabled()


def test_a_first_pass_cut_short_turns_the_collector_back_on(tmp_path: Path) -> None:
    generate(tmp_path, 120, "helpers", 1, 0.3)
    server = create_server("0")
    server.protocol.set_writer(_Events())

    async def session() -> None:
        params = {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}
        for message in (
            {"id": 1, "method": "initialize", "params": params},
            {"method": "initialized", "params": {}},
        ):
            server.protocol.handle_message(
                json.loads(
                    json.dumps({"jsonrpc": "2.0", **message}), object_hook=server.protocol.structure_message
                )
            )
        while server._worker is None:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # the pass has begun; the session ends (the task is cancelled)

    asyncio.run(session())
    assert gc.isenabled()
