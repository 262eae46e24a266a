"""A large data file named on the command line (issue 33, item 6): pre-commit names every
staged `.py`, generated tables included. Time and memory are bounded by what the file can
hold (no server, tool or resolver), not by its size; a small one is still read for its syntax.
A real process with a memory limit: the process's memory is the subject.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

from conftest import run_mcpdeps

LIMIT = 700 * 1024 * 1024
"""Address space for the whole run: parsing the 13 MB table took 1.3 GB of resident memory."""


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def test_a_13_mb_table_named_on_the_command_line_is_not_parsed(tmp_path: Path) -> None:
    with (tmp_path / "table.py").open("w", encoding="utf-8") as out:
        out.write("TABLE = [\n")
        out.writelines(f'    {i}, "{i:x}",\n' for i in range(600_000))
        out.write("]\n")
    assert (tmp_path / "table.py").stat().st_size > 12_000_000
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "mcpdeps", "lint", "--no-cache", "table.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, preexec_fn=_limited,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "All checks passed!" in done.stdout
    assert time.monotonic() - started < 15  # about 1 s; 5.6 s and 2.6 GB when it was parsed


def test_a_small_file_named_on_the_command_line_still_gets_its_syntax_error(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("TABLE = [1, 2\n", encoding="utf-8")
    done = run_mcpdeps("lint", "--no-cache", "broken.py", cwd=tmp_path)
    assert done.returncode == 1 and "MCPD000" in done.stdout
