"""Issues 4 and 16: a large tree with nothing to report — a copy of the stdlib.

`mcpdeps lint --no-cache STDLIB_COPY` vs `ruff check --select F --no-cache STDLIB_COPY`,
medians of interleaved runs. Run by hand: `python benchmarks/bench_stdlib.py [runs]`.
Target: ratio <= 0.6 (issue 16; issue 4 asked for 3.0). Needs `ruff` on PATH (it is in the `test` extra).
"""

from __future__ import annotations

import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import compare


def copy_stdlib(into: Path) -> Path:
    source = Path(sysconfig.get_paths()["stdlib"])
    target = into / "stdlib"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("site-packages", "__pycache__", "*.pyc"))
    return target


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    with tempfile.TemporaryDirectory() as tmp:
        tree = copy_stdlib(Path(tmp))
        files = sum(1 for _ in tree.rglob("*.py"))
        results = compare(
            {
                "mcpdeps lint": (
                    [sys.executable, "-m", "mcpdeps", "lint", "--no-cache", "--exit-zero", str(tree)],
                    None,
                ),
                "ruff --select F": (
                    [ruff, "check", "--select", "F", "--no-cache", "--exit-zero", "-q", str(tree)],
                    None,
                ),
            },
            runs=runs,
        )
    print(f"stdlib copy: {files} files")
    for name, median in results.items():
        print(f"{name:>16}: {median * 1000:8.1f} ms (median of {runs})")
    print(f"{'ratio':>16}: {results['mcpdeps lint'] / results['ruff --select F']:.2f} (target <= 0.6)")


if __name__ == "__main__":
    main()
