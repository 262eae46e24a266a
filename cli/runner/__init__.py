"""Running the user's server in the user's environment (`serve`, `call`, `graph --live`).

mcpdeps may be installed on its own (pipx, `uv tool install`), away from the server's
dependencies. These modules pick the interpreter that runs the server (`--python`, or
the project's when mcpdeps' own cannot import what the server imports), check the SDK
it has, and start `boot.py` there: a script that loads this `mcpdeps` package by path,
so nothing of mcpdeps' own site-packages reaches the user's environment.
"""

from __future__ import annotations

from pathlib import Path

BOOT = Path(__file__).resolve().with_name("boot.py")
"""The script the server's interpreter runs (`PYTHON boot.py TASK ...`)."""


def runner_command(python: str | Path, *args: str) -> list[str]:
    """The command line that runs a runner task under `python`."""
    return [str(python), str(BOOT), *args]
