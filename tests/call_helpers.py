"""Paths and a runner shared by the `tests/test_call*.py` modules."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from conftest import EXAMPLES, REPO, run_mcpdeps

QUESTIONS = EXAMPLES / "questions" / "server.py"
BOOKSHOP = EXAMPLES / "bookshop" / "server.py"

PROTOCOLS = ("2026-07-28", "legacy")


def call(*args: str | Path, cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`mcpdeps call ARGS` in a subprocess, without a terminal (stdin is a closed pipe)."""
    return run_mcpdeps("call", *args, cwd=cwd or REPO, input="", timeout=timeout)


def write_answers(folder: Path, answers: dict[str, Any]) -> Path:
    """An answers file in `folder`."""
    path = folder / "answers.json"
    path.write_text(json.dumps(answers), encoding="utf-8")
    return path
