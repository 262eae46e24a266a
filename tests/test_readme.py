"""The README's sample outputs are real runs of the commands they name, and stay so.

Each block between `<!-- sample: ARGS -->` and `<!-- end sample -->` holds exactly what
`mcpdeps ARGS` prints in the repository at 100 columns without colour (trailing spaces
dropped). The test fails when the output drifts from the README; regenerate the blocks with
`python tests/test_readme.py` (or `MCPDEPS_UPDATE_README=1 pytest tests/test_readme.py`).
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import REPO, run_mcpdeps

README = REPO / "README.md"
SAMPLE = re.compile(
    r"<!-- sample: (?P<args>[^>]*?) -->\n```text\n(?P<body>.*?)```\n<!-- end sample -->", re.S
)


def _output(args: str) -> str:
    extra = ["--no-cache"] if args.startswith("lint") else []  # the README's run is a cold one
    proc = run_mcpdeps(*shlex.split(args), *extra, cwd=REPO, env={"COLUMNS": "100"})
    lines = [line.rstrip() for line in proc.stdout.rstrip("\n").splitlines()]
    return "\n".join(lines) + "\n"


def regenerate() -> str:
    """The README with every sample block replaced by a fresh run of its command."""

    def block(m: re.Match[str]) -> str:
        return f"<!-- sample: {m['args']} -->\n```text\n{_output(m['args'])}```\n<!-- end sample -->"

    return SAMPLE.sub(block, README.read_text(encoding="utf-8"))


def test_readme_has_samples() -> None:
    assert len(SAMPLE.findall(README.read_text(encoding="utf-8"))) >= 2


@pytest.mark.parametrize(
    "args", [m.group("args") for m in SAMPLE.finditer(README.read_text(encoding="utf-8"))]
)
def test_readme_sample_is_what_the_command_prints(args: str) -> None:
    if os.environ.get("MCPDEPS_UPDATE_README"):
        README.write_text(regenerate(), encoding="utf-8")
    shown = next(
        m.group("body")
        for m in SAMPLE.finditer(README.read_text(encoding="utf-8"))
        if m.group("args") == args
    )
    assert shown == _output(args), "README sample drifted: run `python tests/test_readme.py`"


if __name__ == "__main__":
    README.write_text(regenerate(), encoding="utf-8")
