"""Issue 27: `mcpdeps lint FILE` on one resolver module of a large generated tree (pre-commit's case).

The run also checks the project's files that import FILE, found with the import index kept
under the lint cache (`resolver_core/import_index.py`). Measured on `gen_corpus.py`'s tree
(default 1,000 modules), for `pkg3/deps_103.py`, each as wall and CPU time (user + system of
the run's processes), median of `RUNS` (default 3):

- cold: no cache at all (the index reads every project file once);
- warm: nothing changed (the report memo replays the last report);
- edit: FILE edited (the index and every other record kept; FILE and its importers re-checked);
- other edit: an unrelated module edited (the index reads that one file again).

Run by hand: `python benchmarks/bench_one_file.py [modules]`; `--code DIR` times the mcpdeps
package found in DIR (a folder holding `mcpdeps/`, e.g. an older release unpacked) instead of
this checkout's, for a before/after comparison on the same tree.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import compile_package
from gen_corpus import generate

TARGET = "pkg3/deps_103.py"
OTHER = "pkg9/tools_409.py"


def _run(tree: Path, env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mcpdeps", "lint", "--exit-zero", "--format", "concise", TARGET],
        cwd=tree,
        env=env,
        stdout=subprocess.DEVNULL,
        check=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _edit(path: Path, n: int) -> None:
    path.write_text(path.read_text() + f"\n# edit {n}\n")


def measure(tree: Path, env: dict[str, str], runs: int) -> dict[str, tuple[float, float]]:
    cases: dict[str, list[tuple[float, float]]] = {"cold": [], "warm": [], "edit": [], "other edit": []}
    for n in range(runs):
        shutil.rmtree(tree / ".mcpdeps_cache", ignore_errors=True)
        cases["cold"].append(_run(tree, env))
        cases["warm"].append(_run(tree, env))
        _edit(tree / TARGET, n)
        cases["edit"].append(_run(tree, env))
        _edit(tree / OTHER, n)
        cases["other edit"].append(_run(tree, env))
    return {
        k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in cases.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", type=int, nargs="?", default=1000)
    parser.add_argument("--code", type=Path, help="a folder holding the `mcpdeps` package to time")
    args = parser.parse_args()
    compile_package()
    env = dict(os.environ)
    if args.code is not None:
        env["PYTHONPATH"] = str(args.code.absolute())
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        generate(tree, args.modules)
        subprocess.run(["git", "init", "-q", str(tree)], check=True)
        time.sleep(2.1)  # older than the racy window, as a real project's files are (`RACY_NS`)
        results = measure(tree, env, int(os.environ.get("RUNS", "3")))
    print(f"lint {TARGET} in a {args.modules}-module tree ({args.code or 'this checkout'}):")
    for case, (wall, cpu) in results.items():
        print(f"  {case:<11} wall {wall:6.3f} s   cpu {cpu:6.3f} s")


if __name__ == "__main__":
    main()
