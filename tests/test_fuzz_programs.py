"""Generated Python programs (hypothesmith) never crash `lint` nor static `graph`.

Two generators, both from CPython's grammar:
- whole modules (`from_grammar()`), prefixed with a server so the builder scans them as
  server code, not only the parser;
- annotation-shaped expressions (a grammar-aware strategy below) dropped into every place the analyzer
  evaluates: tool and resolver annotations, `Annotated` metadata, the `Resolve(...)`
  target, defaults of resolved parameters (MCPD111, fixable: the JSON report computes
  its fix with libcst), decorator and server arguments, `Elicit` messages, aliases.

The property is only "no exception": lint returns a result, the fixes are computed, the
graph document serializes and every graph renderer runs. In-process for speed; a final
test runs a folder of generated programs through the real CLI. `derandomize=True` keeps
CI reproducible; `HARDENING_FUZZ_SCALE=N` multiplies the example counts for a long run.
"""

from __future__ import annotations

import ast
import difflib
import json
import os
import tempfile
import textwrap
from pathlib import Path

import pytest
from conftest import run_mcpdeps
from generated_python import MODULES, NODES
from hardening.contract import graph_document, lint_document, no_crash
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcpdeps.cli.graph.dot import to_dot
from mcpdeps.cli.graph.mermaid import to_mermaid
from mcpdeps.cli.graph.render import print_graph
from mcpdeps.lint_rules import lint
from mcpdeps.lint_rules.api.graph_problems import find_problems
from mcpdeps.lint_rules.config import LintConfig
from mcpdeps.lint_rules.fixes import with_fixes
from mcpdeps.lint_rules.fixes.engine import plan_fixes
from mcpdeps.lint_rules.settings import merge
from mcpdeps.resolver_core import build_graph
from mcpdeps.resolver_core.graph_json import dumps
from mcpdeps.resolver_core.graph_json import graph_document as graph_json
from mcpdeps.resolver_core.source import deep_recursion_guard

deep_recursion_guard()  # lint() raises it on first use; do it before hypothesis records the limit

# Generated code is full of `"a"()` and `0b12`-style oddities: `ast.parse` warns, as Python would.
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")

SCALE = int(os.environ.get("HARDENING_FUZZ_SCALE", "1"))
TRIED = {"modules": 0, "bodies": 0, "fixes": 0, "fixed": 0, "expressions": 0, "parsed": 0}

HEADER = """from __future__ import annotations
import functools
import typing
from typing import Annotated, Literal, Optional, Union
from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Elicit, Resolve
mcp = MCPServer("Fuzz")
def r0(title: str) -> int:
    return 1
"""

TEMPLATES = {
    "tool annotation": "@mcp.tool()\ndef t(title: str, a: {e}) -> int:\n    return 1\n",
    "annotated metadata": "@mcp.tool()\ndef t(title: str, a: Annotated[int, {e}]) -> int:\n    return 1\n",
    "resolve target": "@mcp.tool()\ndef t(title: str, a: Annotated[int, Resolve({e})]) -> int:\n    return 1\n",
    "resolved default": "@mcp.tool()\ndef t(title: str, a: Annotated[int, Resolve(r0)] = {e}) -> int:\n    return 1\n",
    "resolver annotation": "def r1(x: {e}) -> int:\n    return 1\n"
    "@mcp.tool()\ndef t(title: str, a: Annotated[int, Resolve(r1)]) -> int:\n    return 1\n",
    "resolver return": "def r1(title: str) -> {e}:\n    return 1\n"
    "@mcp.tool()\ndef t(title: str, a: Annotated[int, Resolve(r1)]) -> int:\n    return 1\n",
    "tool return": "@mcp.tool()\ndef t(title: str, a: Annotated[int, Resolve(r0)]) -> {e}:\n    return 1\n",
    "tool decorator argument": "@mcp.tool({e})\ndef t(title: str) -> int:\n    return 1\n",
    "decorator": "@{e}\ndef t(title: str) -> int:\n    return 1\n",
    "add_tool": "mcp.add_tool({e}, name='x')\n",
    "server argument": "other = MCPServer({e})\n@other.tool()\ndef t(title: str) -> int:\n    return 1\n",
    "alias": "A = {e}\n@mcp.tool()\ndef t(title: str, a: A) -> int:\n    return 1\n",
    "elicit message": "def r1(title: str) -> Elicit[int]:\n    return Elicit({e}, int)\n"
    "@mcp.tool()\ndef t(title: str, a: Annotated[int, Resolve(r1)]) -> int:\n    return 1\n",
    "string annotation": "@mcp.tool()\ndef t(title: str, a: {e!r}) -> int:\n    return 1\n",
}


def exercise(path: Path) -> None:
    """Everything `lint --format json` and `graph` do with a file, in-process."""
    result = lint([path], cwd=path.parent)
    with_fixes(result)
    TRIED["parsed"] += result.parsed
    graph = build_graph([path], cwd=path.parent)
    json.loads(dumps(graph_json(graph)))
    problems = find_problems(graph)
    to_mermaid(graph, problems)
    to_dot(graph, problems)
    print_graph(graph, capture=True, problems=problems)


FUZZ = settings(
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


@settings(FUZZ, max_examples=60 * SCALE)
@given(MODULES)
def test_generated_modules_never_crash(source: str) -> None:
    TRIED["modules"] += 1
    with tempfile.TemporaryDirectory(prefix="mcpdeps-fuzz-") as tmp:
        path = Path(tmp) / "server.py"
        path.write_text(HEADER + source, encoding="utf-8", errors="surrogatepass")
        exercise(path)


@settings(FUZZ, max_examples=25 * SCALE)
@given(NODES)
def test_libcst_generated_modules_never_crash(source: str) -> None:
    """hypothesmith's libcst-based generator: slower, but more varied trees than the grammar's."""
    TRIED["modules"] += 1
    with tempfile.TemporaryDirectory(prefix="mcpdeps-fuzz-") as tmp:
        path = Path(tmp) / "server.py"
        path.write_text(HEADER + source, encoding="utf-8", errors="surrogatepass")
        exercise(path)


BODIES = {
    "tool": "@mcp.tool()\nasync def t(title: str, ctx: Context, a: Annotated[int, Resolve(r1)]) -> int:\n{body}\n    return 1\n",
    "resolver": "def r1(title: str, ctx: Context) -> Elicit[int]:\n{body}\n    return Elicit(title, int)\n",
}
"""Generated statements as the body of a tool and of a resolver: the rules that read bodies
(`ctx.elicit` in a tool, unstable questions, unawaitable resolvers) walk them."""


@settings(FUZZ, max_examples=60 * SCALE)
@given(MODULES)
def test_generated_bodies_of_tools_and_resolvers_never_crash(source: str) -> None:
    TRIED["bodies"] += 1
    body = textwrap.indent(source, "    ") or "    pass"
    text = BODIES["resolver"].format(body=body) + BODIES["tool"].format(body=body)
    with tempfile.TemporaryDirectory(prefix="mcpdeps-fuzz-") as tmp:
        path = Path(tmp) / "server.py"
        path.write_text(HEADER + text, encoding="utf-8", errors="surrogatepass")
        exercise(path)


FIXABLE = "@mcp.tool()\ndef fixme(title: str, a: Annotated[int, Resolve(r0)] = 4) -> int:\n    return 1\n"
"""MCPD111 (a default never used), whose fix rewrites exactly this one line."""


@settings(FUZZ, max_examples=40 * SCALE)
@given(MODULES, st.booleans())
def test_fix_on_generated_modules_touches_only_the_fixed_line(generated: str, fixable_first: bool) -> None:
    """`--fix` planning on generated code: no exception, and only the fixable line changes."""
    TRIED["fixes"] += 1
    body = FIXABLE + "\n" + generated if fixable_first else generated + "\n" + FIXABLE
    with tempfile.TemporaryDirectory(prefix="mcpdeps-fuzz-") as tmp:
        path = Path(tmp) / "server.py"
        path.write_text(HEADER + body, encoding="utf-8", errors="surrogatepass")
        plan = plan_fixes(["server.py"], merge(LintConfig()), cwd=Path(tmp))
    TRIED["fixed"] += bool(plan.changed())
    for name in plan.changed():
        before, after = plan.originals[name].splitlines(), plan.texts[name].splitlines()
        removed = [line for line in difflib.ndiff(before, after) if line.startswith("- ")]
        assert all("Resolve(r0)] = 4)" in line for line in removed), removed
        ast.parse(plan.texts[name])


ATOMS = (
    "int",
    "str",
    "None",
    "...",
    "0",
    "1.5",
    "True",
    "b'x'",
    "'int'",
    "'Annotated[int, Resolve(r0)]'",
    "Annotated",
    "Resolve",
    "Context",
    "Elicit",
    "Optional",
    "Union",
    "Literal",
    "list",
    "dict",
    "typing",
    "typing.Optional",
    "functools.partial",
    "MCPServer",
    "mcp",
    "r0",
    "r1",
    "t",
    "title",
    "undefined_name",
    "print",
    "len",
    "object",
    "type",
    "lambda: 0",
    "lambda title: 1",
)


def _grow(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    pair = st.tuples(children, children)
    return st.one_of(
        pair.map(lambda p: f"{p[0]}[{p[1]}]"),
        st.tuples(children, children, children).map(lambda p: f"{p[0]}[{p[1]}, {p[2]}]"),
        pair.map(lambda p: f"{p[0]}({p[1]})"),
        pair.map(lambda p: f"{p[0]}({p[1]}, name={p[0]})"),
        pair.map(lambda p: f"{p[0]} | {p[1]}"),
        pair.map(lambda p: f"({p[0]}, {p[1]})"),
        children.map(lambda c: f"{c}.x"),
        children.map(lambda c: f"[{c}]"),
        children.map(repr),  # a string annotation holding the expression
        children.map(lambda c: f"lambda title: {c}"),
        children.map(lambda c: f"*{c}"),  # invalid in most places: must be MCPD000, not a crash
    )


EXPRESSIONS = st.recursive(st.sampled_from(ATOMS), _grow, max_leaves=12)
"""Annotation-shaped expressions over the names the analyzer cares about (grammar-aware, fast:
hypothesmith's `eval_input` generator yields a handful of examples per second)."""


@settings(FUZZ, max_examples=1000 * SCALE)
@given(st.sampled_from(sorted(TEMPLATES)), EXPRESSIONS)
def test_generated_expressions_in_every_place_never_crash(place: str, expression: str) -> None:
    TRIED["expressions"] += 1
    with tempfile.TemporaryDirectory(prefix="mcpdeps-fuzz-") as tmp:
        path = Path(tmp) / "server.py"
        source = TEMPLATES[place].format(e=expression)
        path.write_text(HEADER + source, encoding="utf-8", errors="surrogatepass")
        exercise(path)


@settings(max_examples=1, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(MODULES, min_size=25, max_size=25))
def test_generated_modules_through_the_cli(sources: list[str]) -> None:
    """A folder of generated modules, through the real `lint --format json` and `graph --format json`."""
    with tempfile.TemporaryDirectory(prefix="mcpdeps-fuzz-") as tmp:
        for i, source in enumerate(sources):
            Path(tmp, f"m{i:02}.py").write_text(HEADER + source, encoding="utf-8", errors="surrogatepass")
        proc = run_mcpdeps("lint", ".", "--format", "json", "--no-cache", cwd=tmp)
        no_crash(proc)
        assert lint_document(proc.stdout)["summary"]["files"] == len(sources)
        graph = run_mcpdeps("graph", ".", "--format", "json", cwd=tmp)
        no_crash(graph, codes=(0,))
        graph_document(graph.stdout)


def test_zz_report_counts() -> None:
    """Print what the fuzzing above tried (shown with `pytest -s`; counted per process)."""
    print(f"\nprogram fuzzing: {TRIED}")
