"""A Ctrl+C while lint forks its workers ends the run (`lint_rules/held_interrupts.py`).

`os.fork` runs at-fork hooks, and a KeyboardInterrupt raised inside one is printed as
"Exception ignored" and lost: the run went on to its report. Here a real SIGINT is sent
from such a hook, in a fresh interpreter (a hook cannot be unregistered), the moment the
first worker is forked.
"""

from __future__ import annotations

import subprocess
import sys

from conftest import default_sigint

SCRIPT = """
import os, signal
from mcpdeps.lint_rules.parallel import Workers

armed = [True]

def interrupt_once() -> None:
    if armed:
        armed.clear()
        os.kill(os.getpid(), signal.SIGINT)

os.register_at_fork(after_in_parent=interrupt_once)
try:
    with Workers(2, {"count": len}) as workers:
        workers.map("count", [str(i) for i in range(8)])
    print("finished")
except KeyboardInterrupt:
    print("interrupted")
"""


def test_ctrl_c_as_the_workers_are_forked_interrupts_the_run() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=default_sigint,  # SIGINT as a shell starts a command, not as the test worker has it
    )
    assert (done.returncode, done.stdout) == (0, "interrupted\n"), done.stderr
    assert "Exception ignored" not in done.stderr, done.stderr
