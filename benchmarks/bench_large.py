"""Issues 4, 16 and 28: large trees of every shape, at several sizes and seeds.

For each tree, all ratios within one run (the machine is noisy; absolute times are not):

- cold lint in one process (`-j 1`) and with the default jobs, against `ast.parse` of
  the same files in one process (trees kept and the cyclic collector off, as in lint);
- per format (`full`, `concise`, `json`, `sarif`, `github`): cold, warm with nothing
  changed, and warm after one real edit (a tool's parameter renamed in a tool module),
  each against the cold run of the same format;
- the peak memory of a cold run (the largest process), default jobs and `-j 1`.

Every figure is given as wall time and as CPU time (user + system, forked workers
included): on a machine shared with other work the wall clock measures the neighbours,
CPU time far less so.

The trees are `gen_shapes.py`'s (`--shape dense|flat|mixed|sparse`) or `gen_corpus.py`'s
(`--shape corpus`, the tree the targets were first met on). `--code DIR` times the mcpdeps
package found in DIR (e.g. `git archive` of an older commit unpacked under DIR/mcpdeps)
beside this checkout, every command of the two interleaved on the same trees, so a change
is measured as before -> after under the same load.

Run by hand: `python benchmarks/bench_large.py [sizes...] [--shape S...] [--seeds K...]
[--code DIR]` (default 1000, `corpus`, seed 1), `RUNS=n` medians (default 3).
Targets (issues 16 and 28): warm <= 0.10x cold and one edit <= 0.15x in every format;
cold `-j 1` <= 2.0x the parse, default jobs <= 1.2x; peak memory <= 250 MB.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gen_corpus
import gen_shapes
from _timing import compile_code, compile_package

FORMATS = ("full", "concise", "json", "sarif", "github")
SHAPES = ("corpus", *sorted(gen_shapes.SHAPES))
PARSE = """
import ast, gc, pathlib
gc.disable()  # as lint runs; with the collector on, keeping 1,000 trees costs 4x the parse
trees = [ast.parse(p.read_bytes(), str(p)) for p in sorted(pathlib.Path('.').rglob('*.py'))]
"""
Timed = tuple[float, float]
"""Median wall and CPU seconds."""


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


def medians(
    commands: dict[str, tuple[list[str], dict[str, str]]],
    cwd: Path,
    n: int,
    before: Callable[[], None] | None = None,
) -> dict[str, Timed]:
    """Median wall and CPU seconds of each command over `n` interleaved runs (`before` runs
    ahead of each run of each command)."""
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(n):
        for name, (cmd, env) in commands.items():
            if before is not None:
                before()
            wall, _, cpu = run(cmd, cwd, env)
            samples[name].append((wall, cpu))
    return {
        name: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
        for name, v in samples.items()
    }


def make_tree(root: Path, shape: str, size: int, seed: int) -> int:
    """Write the tree; returns its number of lines."""
    if shape == "corpus":
        return gen_corpus.generate(root, size, seed)
    return gen_shapes.generate(root, size, shape, seed)


def edit_target(root: Path) -> Path:
    """The tool module one edit renames a parameter in: `gen_corpus`'s `tools_7.py` (where
    the figures of earlier sessions were taken), else the first tool module that has one."""
    for tools in sorted(root.glob("*/tools_*.py"), key=lambda p: (p.name != "tools_7.py", str(p))):
        if "    limit: int" in tools.read_text():
            return tools
    raise SystemExit(f"no tool module with a `limit: int` parameter in {root}")


def bench(
    shape: str, size: int, seed: int, runs: int, variants: dict[str, dict[str, str]]
) -> dict[str, object]:
    """Every figure of one tree, for every variant of the code (interleaved)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "proj"
        lines = make_tree(root, shape, size, seed)
        py = sys.executable
        cache = Path(tmp) / "cache"
        base = [py, "-m", "mcpdeps", "lint", "--exit-zero", "."]
        cold_cmd = [*base, "--no-cache", "--format", "concise"]
        tools = edit_target(root)
        counter = iter(range(10**6))

        def rename() -> None:
            """A real change to one tool module: its importers are re-checked too."""
            n = next(counter)
            text = tools.read_text()
            old = next(w for w in ("limit", *(f"limit{i}" for i in range(n))) if f"    {w}: int" in text)
            tools.write_text(text.replace(f"    {old}: int", f"    limit{n}: int", 1))

        def each(cmd: list[str]) -> dict[str, tuple[list[str], dict[str, str]]]:
            return {name: (cmd, env) for name, env in variants.items()}

        parse = medians({"parse": ([py, "-c", PARSE], dict(os.environ))}, root, runs)["parse"]
        out: dict[str, object] = {"tree": f"{shape} {size} s{seed}", "lines": lines, "parse": parse}
        out["cold_one"] = medians(each([*cold_cmd, "--jobs", "1"]), root, runs)
        out["cold"] = medians(each(cold_cmd), root, runs)
        formats = {}
        for fmt in FORMATS:
            cold = medians(each([*base, "--no-cache", "--format", fmt]), root, runs)
            cached = {
                name: ([*base, "--cache-dir", str(cache / name / fmt), "--format", fmt], env)
                for name, env in variants.items()
            }
            for cmd, env in cached.values():
                run(cmd, root, env)  # fill the cache
            warm = medians(cached, root, runs)
            edited = medians(cached, root, runs, before=rename)
            formats[fmt] = {name: (cold[name], warm[name], edited[name]) for name in variants}
        out["formats"] = formats
        out["peak_mb"] = {
            name: max(run(cold_cmd, root, env)[1] for _ in range(2)) / 1024 for name, env in variants.items()
        }
        out["peak_one_mb"] = {
            name: max(run([*cold_cmd, "--jobs", "1"], root, env)[1] for _ in range(2)) / 1024
            for name, env in variants.items()
        }
    return out


def _pair(value: Timed) -> str:
    return f"{value[0]:.2f} / {value[1]:.2f}"


def _ratio(a: Timed, b: Timed) -> str:
    return f"{a[0] / b[0]:.3f} / {a[1] / b[1]:.3f}"


def report(r: dict[str, Any]) -> None:
    """The tables of one tree (one row per variant of the code)."""
    p = r["parse"]
    print(f"\n### {r['tree']} ({r['lines']} lines), ast.parse {_pair(p)}\n")
    print("| code | cold -j 1 | cold | -j 1/parse | cold/parse | peak MB (-j 1) |")
    print("|---" * 6 + "|")
    for name in r["cold"]:
        one, cold = r["cold_one"][name], r["cold"][name]
        print(
            f"| {name} | {_pair(one)} | {_pair(cold)} | {_ratio(one, p)} | {_ratio(cold, p)} "
            f"| {r['peak_mb'][name]:.0f} ({r['peak_one_mb'][name]:.0f}) |"
        )
    print()
    print("| code | format | cold | warm | one edit | warm/cold | one edit/cold |")
    print("|---" * 7 + "|")
    for fmt, by_code in r["formats"].items():
        for name, (cold, warm, edited) in by_code.items():
            print(
                f"| {name} | {fmt} | {_pair(cold)} | {_pair(warm)} | {_pair(edited)} "
                f"| {_ratio(warm, cold)} | {_ratio(edited, cold)} |"
            )
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[1000])
    parser.add_argument("--shape", nargs="+", choices=SHAPES, default=["corpus"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[1])
    parser.add_argument(
        "--code", type=Path, help="a folder holding an older `mcpdeps` package to time beside"
    )
    args = parser.parse_args()
    compile_package()
    variants = {"this": dict(os.environ)}
    if args.code is not None:
        variants = {"base": {**os.environ, "PYTHONPATH": compile_code(args.code)}, **variants}
    runs = int(os.environ.get("RUNS", "3"))
    print("Each cell: wall / CPU seconds (ratios: of wall / of CPU).")
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    for shape in args.shape:
        for size in args.sizes:
            for seed in args.seeds:
                report(bench(shape, size, seed, runs, variants))
    print(f"\nload average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
