"""Run `mcpdeps graph --format json FILE` once per file, all in this one process.

Usage: `python tests/oracle/graph_each.py FILE [FILE ...]` prints one JSON document
`{FILE: {"exit": int, "stdout": str, "stderr": str}}`.

Why: the oracle test needs the static graph of ~100 corpus servers, each run on its
own (a case's `server.py`, the way pre-commit passes one file). A subprocess per
case costs ~0.2 s of interpreter and typer start-up each, which is most of a 2-core
CI budget. This driver pays the start-up once and then runs the real command
(`mcpdeps.cli.app.run_app`, what the `mcpdeps` script runs after `lint`'s fast start, exit
codes included) for each file in turn. A single `mcpdeps graph` over all the files would
not do: the cases are separate projects that reuse module names (`server`, `app`).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys


def run_graph(path: str) -> dict[str, object]:
    """One `mcpdeps graph --format json PATH`, with its exit code and captured output."""
    from mcpdeps.cli.app import run_app

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            run_app(["graph", "--format", "json", path])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return {"exit": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def main(argv: list[str]) -> int:
    """Graph every file given and print the collected results as JSON."""
    sys.dont_write_bytecode = True
    results = {path: run_graph(path) for path in argv}
    json.dump(results, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
