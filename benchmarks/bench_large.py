"""Issue 4, benchmark 3: a large MCP-heavy tree (see `gen_corpus.py`).

For each size: cold lint (no cache, one worker per core, and in one process) vs parsing
the same files with `libcst.parse_module` in a 2-process pool; then with the cache: a
re-run with nothing changed and runs after editing one file, each against cold; and the
peak memory of a cold run (the largest process). Three edits, each timed on its own:
a comment appended to a resolver module (`deps_1.py`), a real change to a tool module
(a parameter renamed in `tools_7.py`), and a change to the module every tool module
imports (`app/server.py`: all of them are re-checked, the worst case).
Run by hand: `python benchmarks/bench_large.py [sizes...]` (default 1000).
Targets: cold <= 1.25x libcst pool; unchanged <= 0.10x cold; one edit <= 0.15x cold;
peak memory <= 500 MB.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import compile_package
from gen_corpus import generate

LIBCST_POOL = """
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
import libcst

def parse(path):
    libcst.parse_module(Path(path).read_text())
    return 0

if __name__ == "__main__":
    files = [str(p) for p in Path(sys.argv[1]).rglob("*.py")]
    with ProcessPoolExecutor(2) as pool:
        sum(pool.map(parse, files, chunksize=16))
"""


def run(cmd: list[str], cwd: Path) -> tuple[float, int]:
    """Wall time and peak RSS (KiB) of one command."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss


def median_of(cmd: list[str], cwd: Path, n: int, before: object = None) -> float:
    times = []
    for _ in range(n):
        if callable(before):
            before()
        times.append(run(cmd, cwd)[0])
    return statistics.median(times)


def bench(size: int, runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "proj"
        lines = generate(root, size)
        py = sys.executable
        cache = Path(tmp) / "cache"
        lint_cold = [py, "-m", "mcpdeps", "lint", "--no-cache", "--exit-zero", "--format", "concise", "."]
        lint_cached = [
            py,
            "-m",
            "cli",
            "lint",
            "--cache-dir",
            str(cache),
            "--exit-zero",
            "--format",
            "concise",
            ".",
        ]
        pool_script = Path(tmp) / "pool.py"
        pool_script.write_text(LIBCST_POOL)
        cold = median_of(lint_cold, root, runs)
        cold_one = median_of([*lint_cold, "--jobs", "1"], root, runs)
        pool = median_of([py, str(pool_script), "."], root, runs)
        run(lint_cached, root)  # fill the cache
        warm = median_of(lint_cached, root, runs)
        counter = iter(range(10**6))

        def comment() -> None:
            with next(root.rglob("deps_1.py")).open("a") as f:
                f.write(f"\n# edit {next(counter)}\n")

        def rename() -> None:
            tools = next(root.rglob("tools_7.py"))
            n = next(counter)
            text = tools.read_text()
            old = next(w for w in ("limit", *(f"limit{i}" for i in range(n))) if f"    {w}: int" in text)
            tools.write_text(text.replace(f"    {old}: int", f"    limit{n}: int"))

        def server() -> None:
            with (root / "app" / "server.py").open("a") as f:
                f.write(f"\n# edit {next(counter)}\n")

        edits = {
            name: median_of(lint_cached, root, runs, before=fn)
            for name, fn in (("comment", comment), ("tool", rename), ("server", server))
        }
        peak_kib = max(run(lint_cold, root)[1] for _ in range(2))
        peak_one_kib = max(run([*lint_cold, "--jobs", "1"], root)[1] for _ in range(2))
    return {
        "modules": size,
        "lines": lines,
        "cold": cold,
        "cold_one": cold_one,
        "libcst_pool": pool,
        "warm": warm,
        **{f"edit_{k}": v for k, v in edits.items()},
        "peak_mb": peak_kib / 1024,
        "peak_one_mb": peak_one_kib / 1024,
    }


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [1000]
    compile_package()
    runs = int(os.environ.get("RUNS", "3"))
    print(
        "| modules | lines | cold (s) | cold, 1 process (s) | libcst pool (s) | cold/pool | 1 process/pool "
        "| unchanged/cold | edit resolver module/cold | edit tool module/cold | edit server module/cold "
        "| peak MB (1 process) |"
    )
    print("|---" * 12 + "|")
    for size in sizes:
        r = bench(size, runs)
        c = r["cold"]
        print(
            f"| {r['modules']} | {r['lines']} | {c:.2f} | {r['cold_one']:.2f} | {r['libcst_pool']:.2f} | "
            f"{c / r['libcst_pool']:.2f} | {r['cold_one'] / r['libcst_pool']:.2f} | {r['warm'] / c:.3f} | "
            f"{r['edit_comment'] / c:.3f} | {r['edit_tool'] / c:.3f} | {r['edit_server'] / c:.3f} | "
            f"{r['peak_mb']:.0f} ({r['peak_one_mb']:.0f}) |"
        )


if __name__ == "__main__":
    main()
