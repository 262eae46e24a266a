"""Issues 4 and 16: a large MCP-heavy tree (see `gen_corpus.py`), at several sizes.

For each size, all ratios within one run (the machine is noisy; absolute times are not):

- cold lint in one process (`-j 1`) and with the default jobs, against `ast.parse` of
  the same files in one process (trees kept and the cyclic collector off, as in lint);
- per format (`full`, `concise`, `json`, `sarif`, `github`): cold, warm with nothing
  changed, and warm after one real edit (a tool's parameter renamed in `tools_7.py`),
  each against the cold run of the same format;
- the peak memory of a cold run (the largest process), default jobs and `-j 1`.

Every figure is given as wall time and as CPU time (user + system, forked workers
included): on a machine shared with other work the wall clock measures the neighbours,
CPU time far less so.

Run by hand: `python benchmarks/bench_large.py [sizes...]` (default 1000; the issue's
table is `250 500 1000 2000`), `RUNS=n` medians (default 3).
Targets (issue 16): warm <= 0.10x cold and one edit <= 0.15x in every format; cold
`-j 1` <= 2.0x the parse, default jobs <= 1.2x; peak memory <= 250 MB.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import compile_package
from gen_corpus import generate

FORMATS = ("full", "concise", "json", "sarif", "github")
PARSE = """
import ast, gc, pathlib
gc.disable()  # as lint runs; with the collector on, keeping 1,000 trees costs 4x the parse
trees = [ast.parse(p.read_bytes(), str(p)) for p in sorted(pathlib.Path('.').rglob('*.py'))]
"""


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, int, float]:
    """Wall time, peak RSS (KiB) and CPU time (user + system, workers included) of one command.

    `wait4` gives the process's own usage; the forked workers' is in RUSAGE_CHILDREN of the
    process, which `wait4` does not report, so the children's total is read around the run.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, usage.ru_maxrss, cpu


def median_of(
    cmd: list[str], cwd: Path, n: int, before: Callable[[], None] | None = None
) -> tuple[float, float]:
    """Median wall and median CPU seconds of `n` runs (`before` runs ahead of each)."""
    walls, cpus = [], []
    for _ in range(n):
        if before is not None:
            before()
        wall, _, cpu = run(cmd, cwd)
        walls.append(wall)
        cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)


def bench(size: int, runs: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "proj"
        lines = generate(root, size)
        py = sys.executable
        cache = Path(tmp) / "cache"
        base = [py, "-m", "mcpdeps", "lint", "--exit-zero", "."]
        cold_cmd = [*base, "--no-cache", "--format", "concise"]
        counter = iter(range(10**6))

        def rename() -> None:
            """A real change to one tool module: its importers are re-checked too."""
            tools = next(root.rglob("tools_7.py"))
            n = next(counter)
            text = tools.read_text()
            old = next(w for w in ("limit", *(f"limit{i}" for i in range(n))) if f"    {w}: int" in text)
            tools.write_text(text.replace(f"    {old}: int", f"    limit{n}: int"))

        out: dict[str, object] = {"modules": size, "lines": lines}
        out["parse"] = median_of([py, "-c", PARSE], root, runs)
        out["cold_one"] = median_of([*cold_cmd, "--jobs", "1"], root, runs)
        out["cold"] = median_of(cold_cmd, root, runs)
        formats = {}
        for fmt in FORMATS:
            cold = median_of([*base, "--no-cache", "--format", fmt], root, runs)
            cached = [*base, "--cache-dir", str(cache / fmt), "--format", fmt]
            run(cached, root)  # fill the cache
            warm = median_of(cached, root, runs)
            edited = median_of(cached, root, runs, before=rename)
            formats[fmt] = (cold, warm, edited)
        out["formats"] = formats
        out["peak_mb"] = max(run(cold_cmd, root)[1] for _ in range(2)) / 1024
        out["peak_one_mb"] = max(run([*cold_cmd, "--jobs", "1"], root)[1] for _ in range(2)) / 1024
    return out


def _pair(value: tuple[float, float]) -> str:
    return f"{value[0]:.2f} / {value[1]:.2f}"


def _ratio(a: tuple[float, float], b: tuple[float, float]) -> str:
    return f"{a[0] / b[0]:.3f} / {a[1] / b[1]:.3f}"


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [1000]
    compile_package()
    runs = int(os.environ.get("RUNS", "3"))
    results = [bench(size, runs) for size in sizes]
    print("Each cell: wall / CPU seconds (ratios: of wall / of CPU).")
    print()
    print(
        "| modules | lines | ast.parse, 1 process | cold -j 1 | cold | -j 1/parse | cold/parse "
        "| peak MB (-j 1) |"
    )
    print("|---" * 8 + "|")
    for r in results:
        p = r["parse"]
        print(
            f"| {r['modules']} | {r['lines']} | {_pair(p)} | {_pair(r['cold_one'])} | {_pair(r['cold'])} | "
            f"{_ratio(r['cold_one'], p)} | {_ratio(r['cold'], p)} | {r['peak_mb']:.0f} ({r['peak_one_mb']:.0f}) |"
        )
    print()
    print("| modules | format | cold | warm | one edit | warm/cold | one edit/cold |")
    print("|---" * 7 + "|")
    for r in results:
        for fmt, (cold, warm, edited) in r["formats"].items():  # type: ignore[attr-defined]
            print(
                f"| {r['modules']} | {fmt} | {_pair(cold)} | {_pair(warm)} | {_pair(edited)} | "
                f"{_ratio(warm, cold)} | {_ratio(edited, cold)} |"
            )


if __name__ == "__main__":
    main()
