"""`mcpdeps lsp` started by hand in a terminal (issue 33, item 1): it says it waits for an
editor, and one Ctrl+C ends it with 130, even after a line was typed (pygls' reader thread
then sat in `read`: the first Ctrl+C was lost, the second aborted the interpreter, 134).
A real terminal (pexpect): the terminal is the subject.
"""

from __future__ import annotations

import os
import sys

import pexpect
import pytest
from conftest import REPO


def _spawn() -> pexpect.spawn:
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb"}
    return pexpect.spawn(
        sys.executable, ["-m", "mcpdeps", "lsp"], cwd=str(REPO), env=env, encoding="utf-8", timeout=30
    )


@pytest.mark.parametrize("typed", ["", "hello"], ids=["idle", "after-a-typed-line"])
def test_ctrl_c_stops_the_language_server_at_once(typed: str) -> None:
    child = _spawn()
    try:
        child.expect("waiting for an editor to speak LSP on standard input")
        child.expect("Ctrl\\+C stops it")
        if typed:
            child.sendline(typed)
            child.expect(typed)
        child.sendintr()
        child.expect(pexpect.EOF, timeout=30)  # at once; the bound is for a loaded machine
        child.close()
        assert child.exitstatus == 130, child.before
        assert "Fatal Python error" not in child.before and "Traceback" not in child.before
    finally:
        child.close(force=True)


def test_an_editor_hears_nothing_on_stderr_about_waiting() -> None:
    """Under an editor stdin is a pipe: the notice is for people at a terminal only."""
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "mcpdeps", "lsp"],
        cwd=REPO,
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "waiting for an editor" not in done.stderr
