"""Issues 27 and 28: `mcpdeps lint FILE` as pre-commit runs it, and one edit of `lint .`.

`lint FILE` also checks the project's files that import FILE (and those registering on the
servers FILE may use), found with the import index kept under the lint cache
(`resolver_core/import_index.py`). The tree is `gen_corpus.py`'s (`--shape corpus`, the
default) or one of `gen_shapes.py`'s (`dense`, `flat`, `mixed`, `sparse`: factories and
`register(server)` helpers couple files there). The given files are one of each kind the
tree has: the resolver module most modules import, a tool module, a factory module. For
each, as CPU time (user + system of the run's processes; wall time beside it), median of
`RUNS` (default 3):

- import: `python -c "import pkg.mod"` under the SDK (bytecode written), the check users
  have today (registration errors surface at import);
- entry import, once per run: importing the entry point (`app.main`, `app.server` in the
  corpus), which registers every tool. Importing a resolver module registers nothing, so
  for its row this is the check the SDK can make of it (its tools are registered elsewhere):
  the pre-commit and edit rows print their ratio to it too;
- cold: no cache at all (the index reads every project file once);
- warm: nothing changed (the report memo replays the last report);
- edit: FILE edited (the index and every other record kept);
- pre-commit: a cache left by runs on other lists of files, then FILE edited and linted alone
  (pre-commit passes a new list almost every time).

Then `lint .` cold, warm, and after one tool module (one edit) or one resolver module (one
deep edit) was edited.
Targets (issue 28): pre-commit and edit <= 0.25x import (of the given file); `lint .` warm <= 0.10x cold and one
edit <= 0.15x cold.

Run by hand: `python benchmarks/bench_one_file.py [modules] [--shape S] [--seed K]`;
`--code DIR` (repeatable) times the mcpdeps package found in DIR (a folder holding
`mcpdeps/`, e.g. `git archive` of an older commit) instead of this checkout's; several are
timed interleaved on the same tree, so a loaded machine slows all alike.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gen_corpus
import gen_shapes
from _timing import compile_code, compile_package

Sample = tuple[float, float]  # wall, cpu


def _run(tree: Path, env: dict[str, str], argv: Sequence[str]) -> Sample:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _lint(tree: Path, env: dict[str, str], *paths: str) -> Sample:
    return _run(
        tree, env, [sys.executable, "-m", "mcpdeps", "lint", "--exit-zero", "--format", "concise", *paths]
    )


def _edit(path: Path, n: int) -> None:
    path.write_text(path.read_text() + f"\n# edit {n}\n")


def _given(tree: Path, shape: str) -> dict[str, str]:
    """One file of each kind the tree has: the resolver module most modules import, the first
    tool module, the first factory module (`register(server)`: a `feature` of the helpers shape)."""
    if shape == "corpus":
        return {"resolver": "pkg3/deps_103.py", "tool": "pkg9/tools_409.py"}
    files = sorted(str(p.relative_to(tree)) for p in tree.glob("pkg*/*.py"))
    imported = Counter(
        m
        for f in files
        for m in re.findall(r"^from (pkg\d+) import (deps_\d+) ", (tree / f).read_text(), re.M)
    )
    out = {"resolver": "{}/{}.py".format(*imported.most_common(1)[0][0])}
    for kind, prefixes in (("tool", ("tools_",)), ("factory", ("factory_", "feature_"))):
        found = [f for f in files if Path(f).name.startswith(prefixes)]
        if found:
            out[kind] = found[0]
    return out


def _module(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def measure(
    tree: Path, envs: dict[str, dict[str, str]], given: dict[str, str], runs: int
) -> dict[str, dict[str, list[Sample]]]:
    """Every case for every code, interleaved run by run."""
    out: dict[str, dict[str, list[Sample]]] = {code: {} for code in envs}
    cache = tree / ".mcpdeps_cache"
    names = list(given.values())
    sdk = dict(os.environ)
    for path in names:  # bytecode written, as a second import finds it
        _run(tree, sdk, [sys.executable, "-c", f"import {_module(path)}"])
    entry = "app.main" if (tree / "app" / "main.py").exists() else "app.server"
    _run(tree, sdk, [sys.executable, "-c", f"import {entry}"])
    for n in range(runs):
        for code, env in envs.items():

            def add(case: str, sample: Sample, code: str = code) -> None:
                out[code].setdefault(case, []).append(sample)

            add("entry: import", _run(tree, sdk, [sys.executable, "-c", f"import {entry}"]))

            for kind, path in given.items():
                other = names[(names.index(path) + 1) % len(names)] if len(names) > 1 else "app/main.py"
                add(f"{kind}: import", _run(tree, sdk, [sys.executable, "-c", f"import {_module(path)}"]))
                shutil.rmtree(cache, ignore_errors=True)
                add(f"{kind}: cold", _lint(tree, env, path))
                add(f"{kind}: warm", _lint(tree, env, path))
                _edit(tree / path, n)
                add(f"{kind}: edit", _lint(tree, env, path))
                shutil.rmtree(cache, ignore_errors=True)
                _lint(tree, env, other)  # earlier commits' lists of files
                _lint(tree, env, other, "app/server.py")
                _edit(tree / path, n)
                add(f"{kind}: pre-commit", _lint(tree, env, path))
            shutil.rmtree(cache, ignore_errors=True)
            add("lint .: cold", _lint(tree, env, "."))
            add("lint .: warm", _lint(tree, env, "."))
            _edit(tree / given.get("tool", names[-1]), n)
            add("lint .: one edit", _lint(tree, env, "."))
            _edit(tree / given["resolver"], n)
            add("lint .: deep edit", _lint(tree, env, "."))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", type=int, nargs="?", default=1000)
    parser.add_argument("--shape", choices=["corpus", *sorted(gen_shapes.SHAPES)], default="corpus")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--code", type=Path, action="append", help="a folder holding the `mcpdeps` package to time"
    )
    args = parser.parse_args()
    compile_package()
    envs: dict[str, dict[str, str]] = {}
    for code in args.code or [None]:
        env = dict(os.environ)
        if code is not None:
            env["PYTHONPATH"] = compile_code(code)
        envs[str(code or "this checkout")] = env
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        if args.shape == "corpus":
            gen_corpus.generate(tree, args.modules)
        else:
            gen_shapes.generate(tree, args.modules, args.shape, args.seed)
        subprocess.run(["git", "init", "-q", str(tree)], check=True)
        time.sleep(2.1)  # older than the racy window, as a real project's files are (`RACY_NS`)
        given = _given(tree, args.shape)
        results = measure(tree, envs, given, int(os.environ.get("RUNS", "3")))
    print(f"{args.shape} tree of {args.modules} modules (seed {args.seed}); given: {given}")
    for code, cases in results.items():
        print(f"{code}:")
        for case, samples in cases.items():
            wall = statistics.median(w for w, _ in samples)
            cpu = statistics.median(c for _, c in samples)
            kind = case.split(":")[0]
            base = cases.get(f"{kind}: import") if kind != "lint ." else cases["lint .: cold"]
            ratio = cpu / statistics.median(c for _, c in base) if base and base is not samples else None
            entry = (
                cpu / statistics.median(c for _, c in cases["entry: import"])
                if case.endswith(("pre-commit", "edit")) and kind != "lint ."
                else None
            )
            print(
                f"  {case:<22} wall {wall:6.3f} s   cpu {cpu:6.3f} s"
                + (f"   {ratio:5.2f}x" if ratio else "")
                + (f"   {entry:5.2f}x entry" if entry else "")
            )


if __name__ == "__main__":
    main()
