"""Issue 28: does `lint`'s fast start (reading its command line without typer) earn its place?

A second path stays only if it saves at least a quarter of a common command's wall time as
the user sees it. Timed here: `mcpdeps lint` on a clean small project (a copy of
`examples/bookshop`), each run a new process started the way the console script starts
(`cli/main._own_process` holds, so a finished run ends as the user's does), two ways:

- fast start: `main()`, which reads a well-formed `lint` line itself (`cli/fast_argv.py`);
- typer only: `main(fast_start=False)`, typer reads every line (what one path would be).

Two cases: warm (nothing changed since the last run: pre-commit's and an editor's usual case)
and `--no-cache` (the whole check of the project). Medians of interleaved runs (`_timing.py`).

Run by hand: `python benchmarks/bench_fast_start.py`; `RUNS=n` (default 15).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import compare

REPO = Path(__file__).resolve().parent.parent
THRESHOLD = 0.25
"""The share of the command's wall time a second path must save to stay (issue 28)."""


def _driver(folder: Path, fast_start: bool) -> Path:
    """A program named `mcpdeps` (as the console script is) that runs `main` one way."""
    folder.mkdir()
    script = folder / "mcpdeps"
    script.write_text(f"from mcpdeps.cli.main import main\n\nmain(fast_start={fast_start})\n")
    return script


def main() -> None:
    runs = int(os.environ.get("RUNS", "15"))
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        shutil.copytree(REPO / "examples" / "bookshop", project)
        fast, typer_only = _driver(Path(tmp) / "fast", True), _driver(Path(tmp) / "typer", False)
        for case, flags in (("warm", ["server.py"]), ("--no-cache", ["--no-cache", "server.py"])):
            line = ["lint", "--format", "concise", *flags]
            subprocess.run([sys.executable, str(fast), *line], cwd=project, capture_output=True, check=True)
            results = compare(
                {
                    "fast start": ([sys.executable, str(fast), *line], project),
                    "typer only": ([sys.executable, str(typer_only), *line], project),
                },
                runs=runs,
            )
            saved = 1 - results["fast start"] / results["typer only"]
            print(f"mcpdeps {' '.join(line)} ({case}), median of {runs}:")
            for name, median in results.items():
                print(f"  {name:>10}: {median * 1000:7.1f} ms")
            verdict = "stays" if saved >= THRESHOLD else "goes"
            print(
                f"  {'saved':>10}: {saved:7.1%} of the wall time (a second path stays at >= 25%: {verdict})"
            )


if __name__ == "__main__":
    main()
