"""Issue 28: cold lint against `ast.parse` on trees of several shapes, sizes and seeds.

One generated tree (`gen_corpus.py`) met the targets while a tree shaped otherwise did not,
so this runs `gen_shapes.py`'s shapes (`dense`, `flat`, `mixed`, `sparse`, `helpers`, `monorepo`) at each size and seed.
Per tree, interleaved (parse, `-j 1`, default jobs, parse, ...) and as medians of `RUNS`
(default 3), wall and CPU seconds (user + system, workers included):

- `ast.parse` of every file in one process (collector off, trees kept, as lint runs);
- cold `lint --no-cache -j 1` and with the default jobs.

Targets: `-j 1` <= 2.0x the parse, default jobs <= 1.2x and never slower than `-j 1`.
On a shared machine the wall clock measures the neighbours too: compare the ratios of one
run, and read the CPU column beside the wall one (workers add CPU, never remove it).

`--instructions` counts instead of timing (`_instructions.py`, valgrind): the parse and
`-j 1`, once each (a count does not vary), and their ratio. The same on every run, so a
change of a few percent in the work done shows, where the clock's noise hides it; not a
time (the parser retires more instructions per cycle than the analysis). Default jobs are
counted per process: their workers' counts cannot be added up, but the busiest worker's (which
includes the parent's work before the fork) is the run's longest path but for what the parent
does after the last answer, and the parent's count is beside it.

`python benchmarks/bench_shapes.py [--shapes dense mixed sparse] [--sizes 250 1000 4000]
[--seeds 1 2] [--code DIR] [--instructions]` (`--code`: time the mcpdeps package found in DIR too, e.g.
`git archive` of an older commit unpacked under DIR/mcpdeps, beside this checkout on the same
trees, every command of the two interleaved: one row per code, under the same load).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _instructions
from _timing import compile_code, compile_package
from bench_large import PARSE, run
from gen_shapes import ALL_SHAPES, generate


def bench(tree: Path, runs: int, variants: dict[str, dict[str, str]]) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) of the parse, and of `-j 1` and default jobs per variant of the code
    (`one <name>`, `default <name>`), runs interleaved."""
    py = sys.executable
    lint = [py, "-m", "mcpdeps", "lint", "--exit-zero", "--no-cache", "--format", "concise", "."]
    commands = {"parse": ([py, "-c", PARSE], dict(os.environ))}
    for name, env in variants.items():
        commands[f"one {name}"] = ([*lint, "--jobs", "1"], env)
        commands[f"default {name}"] = (lint, env)
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (cmd, env) in commands.items():
            wall, _, cpu = run(cmd, tree, env)
            samples[name].append((wall, cpu))
    return {
        name: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
        for name, v in samples.items()
    }


def counted(tree: Path, variants: dict[str, dict[str, str]]) -> dict[str, int]:
    """Instructions of the parse and of `-j 1` per variant of the code (`one <name>`), and of
    default jobs: the busiest worker's (`worker <name>`, its parent's work before the fork
    included) and what the parent did in all (`parent <name>`)."""
    py = sys.executable
    lint = [py, "-m", "mcpdeps", "lint", "--exit-zero", "--no-cache", "--format", "concise", "."]
    out = {"parse": _instructions.count([py, "-c", PARSE], tree)}
    for name, env in variants.items():
        out[f"one {name}"] = _instructions.count([*lint, "-j", "1"], tree, env)
        out[f"parent {name}"], workers = _instructions.per_process(lint, tree, env)
        out[f"worker {name}"] = max(workers, default=0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", nargs="+", choices=sorted(ALL_SHAPES), default=sorted(ALL_SHAPES))
    parser.add_argument("--sizes", nargs="+", type=int, default=[250, 1000, 4000])
    parser.add_argument("--seeds", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--code", type=Path, help="a folder holding the `mcpdeps` package to time")
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind) instead")
    args = parser.parse_args()
    if args.instructions and not _instructions.available():
        raise SystemExit("--instructions needs valgrind (Debian: apt-get install valgrind)")
    compile_package()
    variants = {"this": dict(os.environ)}
    if args.code is not None:
        variants = {"base": {**os.environ, "PYTHONPATH": compile_code(args.code)}, **variants}
    if args.instructions:
        _count_table(args.shapes, args.sizes, args.seeds, variants)
        return
    runs = int(os.environ.get("RUNS", "3"))
    print("Each cell: wall / CPU seconds; ratios of wall / of CPU.")
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print()
    print(
        "| shape | modules | seed | lines | code | parse | -j 1 | default "
        "| -j 1/parse | default/parse | default/-j 1 |"
    )
    print("|---" * 11 + "|")
    for shape in args.shapes:
        for size in args.sizes:
            for seed in args.seeds:
                with tempfile.TemporaryDirectory() as tmp:
                    tree = Path(tmp) / "tree"
                    lines = generate(tree, size, shape, seed)
                    r = bench(tree, runs, variants)
                p = r["parse"]
                for name in variants:
                    one, default = r[f"one {name}"], r[f"default {name}"]
                    print(
                        f"| {shape} | {size} | {seed} | {lines} | {name} | {_pair(p)} | {_pair(one)} "
                        f"| {_pair(default)} | {_ratio(one, p)} | {_ratio(default, p)} | {_ratio(default, one)} |",
                        flush=True,
                    )
    print(f"\nload average at end: {os.getloadavg()[0]:.1f}")


def _count_table(
    shapes: list[str], sizes: list[int], seeds: list[int], variants: dict[str, dict[str, str]]
) -> None:
    print(
        "Each cell: millions of instructions (valgrind). Default jobs: the busiest worker's count "
        "(the parent's work before the fork included; 0 when the run did not fork) and the parent's."
    )
    print()
    print("| shape | modules | seed | lines | code | parse | -j 1 | -j 1/parse | busiest worker | parent |")
    print("|---" * 10 + "|")
    for shape in shapes:
        for size in sizes:
            for seed in seeds:
                with tempfile.TemporaryDirectory() as tmp:
                    tree = Path(tmp) / "tree"
                    lines = generate(tree, size, shape, seed)
                    r = counted(tree, variants)
                p = r["parse"]
                for name in variants:
                    one, worker, parent = r[f"one {name}"], r[f"worker {name}"], r[f"parent {name}"]
                    print(
                        f"| {shape} | {size} | {seed} | {lines} | {name} | {p / 1e6:,.0f} | {one / 1e6:,.0f} "
                        f"| {one / p:.3f} | {worker / 1e6:,.0f} | {parent / 1e6:,.0f} |",
                        flush=True,
                    )


def _pair(value: tuple[float, float]) -> str:
    return f"{value[0]:.2f} / {value[1]:.2f}"


def _ratio(a: tuple[float, float], b: tuple[float, float]) -> str:
    return f"{a[0] / b[0]:.2f} / {a[1] / b[1]:.2f}"


if __name__ == "__main__":
    main()
