"""Instructions a command executes, counted by valgrind's cachegrind: the same figure on every
run of the same code, however busy the machine.

On the shared 2-core machines these benchmarks run on, one command's CPU time moved by
±20% from run to run (a paired `bench_shapes.py` table of one code against itself differed
by up to 25% in a row), so a change worth 5% could not be told from noise without dozens of
runs. An instruction count does not move with the neighbours: it answers "does this change
do less work" exactly, where the clock answers "is it faster here, today". It is not time:
the parser (C) retires more instructions per cycle than the analysis (Python), so the ratios
differ from CPU-time ratios; read both.

`count` counts one process and refuses a command that forks: a forked child's count starts
from its parent's at the fork, so the counts of lint's workers cannot be added up. `per_process`
gives each process's count of such a command instead (`bench_shapes.py --instructions` reads
the busiest worker of a default-jobs run from it: the work on the run's longest path, before the
fork included, as a count that does not move with the machine's load).

Hash randomisation is pinned (`PYTHONHASHSEED=0`): set iteration order moves a little work
between runs otherwise. A count runs the command about 40 times slower than natively.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

_PER_PROCESS = re.compile(r"^==(\d+)== I\s+refs:\s+([\d,]+)", re.M)


def available() -> bool:
    """Whether valgrind is installed (Debian's package `valgrind`)."""
    return shutil.which("valgrind") is not None


def count(cmd: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> int:
    """The instructions `cmd` executes (one process: `cmd[0]` the interpreter itself, not a
    shell script such as a pyenv shim, whose `exec` cachegrind would not follow)."""
    own, children = per_process(cmd, cwd, env)
    if children:
        raise SystemExit(f"expected one process's count, got {1 + len(children)}, for {list(cmd[:4])}...")
    return own


def per_process(cmd: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[int, list[int]]:
    """The instructions of `cmd`'s own process and of each process it forked, in the order they
    ended (each child's count includes its parent's up to the fork)."""
    run_env = {**(env if env is not None else os.environ), "PYTHONHASHSEED": "0"}
    proc = subprocess.Popen(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *cmd],
        cwd=cwd,
        env=run_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    _, stderr = proc.communicate()
    counts = {int(pid): int(n.replace(",", "")) for pid, n in _PER_PROCESS.findall(stderr)}
    if proc.pid not in counts:
        raise SystemExit(f"no count for the command's own process, for {list(cmd[:4])}...")
    own = counts.pop(proc.pid)
    return own, list(counts.values())
