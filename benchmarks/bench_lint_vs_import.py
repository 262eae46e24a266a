"""Issues 2, 4 and 16: `mcpdeps lint server.py` vs importing the server under the SDK.

Importing is the check users have today (registration errors surface at import). Run by
hand: `python benchmarks/bench_lint_vs_import.py [path/to/server.py]`. Target: ratio <= 0.25 (issue 16).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import compare


def main() -> None:
    server = Path(sys.argv[1] if len(sys.argv) > 1 else "examples/bookshop/server.py").resolve()
    py = sys.executable
    results = compare(
        {
            "mcpdeps lint": ([py, "-m", "mcpdeps", "lint", "--no-cache", server.name], server.parent),
            "import under SDK": ([py, "-c", f"import {server.stem}"], server.parent),
        },
        runs=int(sys.argv[2]) if len(sys.argv) > 2 else 15,
    )
    for name, median in results.items():
        print(f"{name:>18}: {median * 1000:7.1f} ms (median)")
    print(f"{'ratio':>18}: {results['mcpdeps lint'] / results['import under SDK']:.3f} (target <= 0.25)")


if __name__ == "__main__":
    main()
