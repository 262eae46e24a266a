"""Helpers shared by the `tests/test_new*.py` modules: the SDK in a subprocess, lint/graph guards."""

from __future__ import annotations

import difflib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import run_mcpdeps
from mcpdeps.cli.new.plans import ResolverRequest
from mcpdeps.cli.new.specs import ArgSpec, DependSpec

FRESH_RESOLVER = ResolverRequest(
    name="fresh",
    args=[ArgSpec("x", "str")],
    context=True,
    depends=[DependSpec("d", "r0", None)],
    returns=None,
    question=None,
    sync=False,
)
"""The resolver the insertion property tests add to every module they make (each has an `r0`):
a tool argument, the context and a resolved dependency, so every part of a plan is written."""

# Import a module by path under the real SDK and list its tools through the in-process Client;
# optionally call one tool with JSON arguments. Prints one JSON document.
SDK_PROBE = """
import importlib.util, json, sys
import anyio
from mcp import Client

path, variables, call = sys.argv[1], sys.argv[2].split(","), json.loads(sys.argv[3])
spec = importlib.util.spec_from_file_location("probed_module", path)
module = importlib.util.module_from_spec(spec)
sys.modules["probed_module"] = module
spec.loader.exec_module(module)

async def main():
    servers, result = {}, None
    for variable in variables:
        async with Client(getattr(module, variable)) as client:
            servers[variable] = {t.name: t.input_schema for t in (await client.list_tools()).tools}
            if call and variable == variables[0]:
                r = await client.call_tool(call["tool"], call["arguments"])
                result = {"is_error": r.is_error, "text": [c.text for c in r.content if hasattr(c, "text")]}
    print(json.dumps({"tools": servers[variables[0]], "servers": servers, "call": result}))

anyio.run(main)
"""


def sdk_probe(
    path: Path, variable: str = "mcp", tool: str | None = None, arguments: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Import `path` under the SDK in a fresh interpreter; return its tools' schemas (and a call's result).

    `variable` may list several servers, comma-separated: `servers` then maps each to its tools.
    """
    call = json.dumps({"tool": tool, "arguments": arguments or {}} if tool else None)
    proc = subprocess.run(
        [sys.executable, "-c", SDK_PROBE, str(path), variable, call],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=path.parent,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def lint_json(*paths: Path, cwd: Path) -> dict[str, Any]:
    """`mcpdeps lint --format json`, or skip while that command is still a placeholder."""
    proc = run_mcpdeps("lint", "--format", "json", *paths, cwd=cwd)
    if proc.returncode == 2 and not proc.stdout.strip():
        pytest.skip("`mcpdeps lint` is not implemented yet in this checkout")
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def graph_json(*paths: Path, cwd: Path) -> dict[str, Any]:
    """`mcpdeps graph --format json`, or skip while that command is still a placeholder."""
    proc = run_mcpdeps("graph", "--format", "json", *paths, cwd=cwd)
    if proc.returncode == 2 and not proc.stdout.strip():
        pytest.skip("`mcpdeps graph` is not implemented yet in this checkout")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def linter_available() -> bool:
    """True once `lint_rules.lint` (the API `new` re-lints with) exists."""
    try:
        from mcpdeps.lint_rules import lint  # noqa: F401
    except ImportError:
        return False
    return True


_IMPORT_LINE = re.compile(r"^\s*(from\s+\S+\s+import\b|import\s|\w+,?\s*\)?\s*$|\)\s*$)")


def assert_only_additions(old: str, new: str) -> None:
    """Every line of `old` is still in `new`, in order, unchanged — except import lines that gained names."""
    matcher = difflib.SequenceMatcher(a=old.splitlines(True), b=new.splitlines(True), autojunk=False)
    for op, a1, a2, _b1, _b2 in matcher.get_opcodes():
        if op in ("equal", "insert"):
            continue
        changed = old.splitlines(True)[a1:a2]
        assert op == "replace" and all(_IMPORT_LINE.match(line) for line in changed), (
            f"{op} of non-import lines: {changed!r}"
        )
