"""A `--python` interpreter that never answers does not hang `serve`, `call` or `graph --live`
(issue 34, item 10).

Each of them starts a runner task under that interpreter and read its report to the end,
without a deadline: an interpreter that answered the SDK probe (`-c`) but never ran the
task (a wrapper script waiting for something) hung the command forever. The task now says
it started before it imports anything of the user's, and an interpreter that has not said
so within `STARTUP_TIMEOUT` is stopped (its whole process group) with a sentence; a server
that takes long to import is still waited for. Real interpreters (scripts) are started:
the processes are the subject.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from mcpdeps.cli.errors import UserError
from mcpdeps.cli.runner import parent
from mcpdeps.cli.runner.interpreter import Interpreter


def _interpreter(folder: Path, body: str) -> Interpreter:
    """A wrapper script: the real Python for the probe (`-c`), `body` for everything else."""
    script = folder / "python"
    script.write_text(f'#!/bin/sh\nif [ "$1" = "-c" ]; then exec {sys.executable} "$@"; fi\n{body}\n')
    script.chmod(0o755)
    return Interpreter(script, own=False, reason="--python")


def _server(folder: Path, *, slow: float = 0) -> str:
    (folder / "server.py").write_text(
        f"import time\ntime.sleep({slow})\nfrom mcp.server import MCPServer\n\nmcp = MCPServer('s')\n"
    )
    return str(folder / "server.py")


def test_an_interpreter_that_never_starts_the_task_is_stopped_with_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parent, "STARTUP_TIMEOUT", 1.0)
    interpreter = _interpreter(tmp_path, f"sleep 300; touch {tmp_path / 'woke'}")
    started = time.monotonic()
    with pytest.raises(UserError) as caught:
        parent.graph_elsewhere(interpreter, _server(tmp_path))
    assert time.monotonic() - started < 10
    message = str(caught.value)
    assert str(interpreter.executable) in message and "did not start" in message, message
    assert message.endswith("."), message


def test_a_server_slow_to_import_is_still_waited_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parent, "STARTUP_TIMEOUT", 1.0)
    interpreter = _interpreter(tmp_path, f'exec {sys.executable} "$@"')
    graph = parent.graph_elsewhere(interpreter, _server(tmp_path, slow=2.5))
    assert [s.name for s in graph.servers] == ["s"]
