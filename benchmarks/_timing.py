"""Side-by-side timing of commands: medians of interleaved runs, so noise hits both alike."""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path


def compile_package() -> None:
    """Write mcpdeps' bytecode first, as `pip install` does.

    With PYTHONDONTWRITEBYTECODE set (as on this machine), an editable checkout would
    otherwise recompile every module on every run while the SDK's installed modules load
    from bytecode, which measures the checkout rather than the tool.
    """
    import compileall

    root = Path(__file__).resolve().parent.parent
    compileall.compile_dir(str(root), quiet=1, maxlevels=0)  # mcpdeps/__init__.py, __main__.py
    for package in ("cli", "resolver_core", "lint_rules"):
        compileall.compile_dir(str(root / package), quiet=1)


def compile_code(code: Path) -> str:
    """Write the bytecode of the mcpdeps package in `code` (a benchmark's `--code DIR`, e.g. an
    older commit unpacked with `git archive`) and return the folder to put on PYTHONPATH.

    The same reason as `compile_package`: with PYTHONDONTWRITEBYTECODE set, every run of a
    fresh unpacked copy would recompile it while this checkout loads from bytecode, so the
    older code would look slower than it is.
    """
    import compileall

    folder = str(code.absolute())
    compileall.compile_dir(folder, quiet=1)  # as installed: bytecode written
    return folder


def time_once(cmd: Sequence[str], cwd: Path | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def compare(
    commands: dict[str, tuple[Sequence[str], Path | None]], runs: int = 15, warmup: int = 2
) -> dict[str, float]:
    """Median wall time of each command, runs interleaved (A B A B ...)."""
    compile_package()
    for cmd, cwd in commands.values():
        for _ in range(warmup):
            time_once(cmd, cwd)
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (cmd, cwd) in commands.items():
            samples[name].append(time_once(cmd, cwd))
    return {name: statistics.median(values) for name, values in samples.items()}
