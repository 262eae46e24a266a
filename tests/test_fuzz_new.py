"""`new resolver` / `new tool` on generated modules: a sentence or a faithful edit, never a crash.

Each example is a server followed by a module from hypothesmith (CPython's grammar). The real
planning code of `new` runs in-process on it: either it refuses with a `UserError` (a
sentence; the CLI exits 2 and writes nothing), or every original line is still there, the
result parses, and the inserted definitions are in it. Any other exception is a crash.
(`tests/test_new_properties.py` checks byte-exact insertion on hand-shaped awkward modules; this one
feeds it code no one would write.)
"""

from __future__ import annotations

import ast
import os

import pytest
from generated_python import MODULES
from hypothesis import HealthCheck, given, settings
from mcpdeps.cli.errors import UserError
from mcpdeps.cli.new.module_info import read_module
from mcpdeps.cli.new.plans import ToolRequest, plan_resolver, plan_tool
from mcpdeps.cli.new.specs import ArgSpec, DependSpec
from new_helpers import FRESH_RESOLVER

pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")

SCALE = int(os.environ.get("HARDENING_FUZZ_SCALE", "1"))
TRIED = {"modules": 0, "edited": 0, "refused": 0}
HEADER = """from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Fuzz")


def r0(x: str) -> int:
    return 1


@mcp.tool()
def t0(x: str, v: Annotated[int, Resolve(r0)]) -> int:
    return v

"""


def _edit(source: str) -> str | None:
    """Add a resolver, then a tool using it; None when `new` refuses (with a sentence)."""
    try:
        with_resolver = plan_resolver(read_module(source, "m.py"), "m.py", FRESH_RESOLVER)
        tool = ToolRequest(
            name="added",
            server="mcp",
            args=[ArgSpec("x", "str")],
            resolves=[DependSpec("v", "fresh", None)],
            context=True,
            sync=True,
        )
        return plan_tool(read_module(with_resolver, "m.py"), "m.py", tool)
    except UserError as exc:
        assert str(exc).strip(), "a refusal must say why"
        return None


def _keeps_every_line(source: str, result: str) -> None:
    """Every non-blank line of `source` is in `result`, unchanged and in order.

    Blank lines are left out of the comparison: `new` may drop a whitespace-only line where it
    inserts (`"\\n   \\n"` at the end of a module), which loses no code (reported to `new`).
    """
    wanted = [line for line in source.splitlines() if line.strip()]
    kept = iter(result.splitlines())
    for line in wanted:
        assert any(line == candidate for candidate in kept), f"line lost or changed: {line!r}"


@settings(max_examples=60 * SCALE, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(MODULES)
def test_new_on_generated_modules_edits_faithfully_or_refuses(generated: str) -> None:
    TRIED["modules"] += 1
    for source in (HEADER + generated, generated + "\n" + HEADER):
        result = _edit(source)
        if result is None:
            TRIED["refused"] += 1
            continue
        TRIED["edited"] += 1
        _keeps_every_line(source, result)
        ast.parse(result)
        assert "def fresh(" in result and "def added(" in result


def test_zz_report_counts() -> None:
    """Print what the fuzzing above tried (shown with `pytest -s`)."""
    print(f"\nnew fuzzing: {TRIED}")
