"""A progress bar on stderr for long runs on a terminal — and nothing for short ones.

It appears only once a run has taken more than a second, like cargo's and uv's, so
pre-commit runs and small projects print exactly what they always did. `lint`, its
`--fix`/`--diff` (every pass re-lints) and the static `graph` show it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

DELAY = 1.0


@contextmanager
def lint_progress(label: str = "checking") -> Iterator[Callable[[int, int], None] | None]:
    """Yield a `progress(done, total)` callback, or None when stderr is not a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    start = time.monotonic()
    state: dict[str, Any] = {}

    def update(done: int, total: int) -> None:
        if "bar" not in state:
            if time.monotonic() - start < DELAY:
                return
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            bar = Progress(
                TextColumn(label),
                BarColumn(),
                MofNCompleteColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            bar.start()
            state["bar"], state["task"] = bar, bar.add_task("lint", total=total)
        state["bar"].update(state["task"], completed=done, total=total)

    try:
        yield update
    finally:
        if "bar" in state:
            state["bar"].stop()
