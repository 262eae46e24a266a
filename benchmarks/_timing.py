"""Side-by-side timing of commands: medians of interleaved runs, so noise hits both alike."""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path


def time_once(cmd: Sequence[str], cwd: Path | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def compare(
    commands: dict[str, tuple[Sequence[str], Path | None]], runs: int = 15, warmup: int = 2
) -> dict[str, float]:
    """Median wall time of each command, runs interleaved (A B A B ...)."""
    for cmd, cwd in commands.values():
        for _ in range(warmup):
            time_once(cmd, cwd)
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (cmd, cwd) in commands.items():
            samples[name].append(time_once(cmd, cwd))
    return {name: statistics.median(values) for name, values in samples.items()}
