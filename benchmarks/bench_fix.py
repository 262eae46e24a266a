"""Issue 28: what computing a fix costs the commands that show or apply one.

Fixes are libcst rewrites. Three commands meet them, each timed as a whole process (wall
time as the user sees it, median of interleaved runs, `_timing.compare`):

- `json cold`: `lint --no-cache --format json` on the examples and one module with one
  fixable finding (the json report lists every safe fix, so the fix is computed);
- `json warm`: the same with the cache (the cache keeps the fixes it computed);
- `fix one`: `lint --fix` on that module alone, restored before every run.

`--code DIR` times the mcpdeps package found in DIR (a folder holding `mcpdeps/`, e.g. an
older commit unpacked with `git archive`) beside this checkout's, on the same files, so a
change to the fix path is judged by the ratio. Run by hand: `python benchmarks/bench_fix.py`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import compare, compile_code

ROOT = Path(__file__).resolve().parent.parent

FIXABLE = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("shop")


def current_user() -> str:
    return "ada"


@mcp.tool()
def greet(greeting: str, user: Annotated[str, Resolve(current_user)] | None = None) -> str:
    return f"{greeting}, {user}"
"""
"""MCPD003 once: `--fix` turns the annotation into `Annotated[str, Resolve(current_user)]`."""


def _commands(project: Path, code: Path | None) -> dict[str, list[str]]:
    env = [] if code is None else ["env", f"PYTHONPATH={compile_code(code)}"]
    lint = [*env, sys.executable, "-m", "mcpdeps", "lint", "--exit-zero"]
    fixable = project / "fixable" / "server.py"
    restore = f'cp {project / "fixable.orig"} {fixable} && exec "$@"'
    return {
        "json cold": [*lint, "--no-cache", "--format", "json", "."],
        "json warm": [*lint, "--format", "json", "."],
        "fix one": ["sh", "-c", restore, "sh", *lint, "--no-cache", "--fix", str(fixable)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, help="a folder holding another `mcpdeps` package to time beside")
    args = parser.parse_args()
    runs = int(os.environ.get("RUNS", "9"))
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        shutil.copytree(ROOT / "examples", project)
        (project / "fixable").mkdir()
        (project / "fixable.orig").write_text(FIXABLE, encoding="utf-8")
        shutil.copy(project / "fixable.orig", project / "fixable" / "server.py")
        versions = {"this checkout": None, **({str(args.code): args.code} if args.code else {})}
        for case in ("json cold", "json warm", "fix one"):
            commands = {name: (_commands(project, code)[case], project) for name, code in versions.items()}
            medians = compare(commands, runs=runs)
            figures = "   ".join(f"{name}: {seconds:.3f} s" for name, seconds in medians.items())
            print(f"{case:<10} {figures}")


if __name__ == "__main__":
    main()
