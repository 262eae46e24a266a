"""Memory and time bounded by what a server module can declare (issue 34, item 9).

A one-line list literal of millions of elements or a million lines of `pass` fit under
the byte limit, but their syntax trees took gigabytes (5 GB for a 10 MB list); a `Union`
of 20,000 `Annotated` arms took over 40 s (members deduplicated by a list scan). A file
with more tokens than any server module holds is reported as too large, before it is
parsed; below that bound, the verdict is the SDK's. Hostile files run in a real process
under an address-space limit: the process's memory is the subject.
"""

from __future__ import annotations

import ast
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_mcpdeps
from generated_python import MODULES, NODES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcpdeps.resolver_core.parse_budget import MAX_TOKENS, over_budget, tokens
from mcpdeps.resolver_core.typeexpr import TConst, TRef, TUnion, make_union
from test_decorators import sdk

LIMIT = 700 * 1024 * 1024
"""Address space for the whole run: the trees of these files took 600 MB to 1.3 GB more."""

HEAD = """from typing import Annotated, Union

from mcp.server.mcpserver import MCPServer, Resolve

mcp = MCPServer("Sizes")


def r0() -> int:
    return 0


def r1() -> int:
    return 1


@mcp.tool()
def lookup(a: int) -> int:
    return a
"""


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def _lint_limited(folder: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "mcpdeps", "lint", "--no-cache", "--format", "json", "--exit-zero", "."],
        cwd=folder, capture_output=True, text=True, timeout=120, preexec_fn=_limited,
    )  # fmt: skip
    return done, time.monotonic() - started


@pytest.mark.parametrize(
    "tail",
    [
        "DATA = [" + "1," * (MAX_TOKENS // 2 + 50_000) + "]\n",
        "if True:\n" + "    pass\n" * (MAX_TOKENS // 2 + 50_000),
    ],
    ids=["one-line-list", "lines-of-pass"],
)
def test_a_file_past_the_token_budget_is_reported_too_large_not_parsed(tmp_path: Path, tail: str) -> None:
    (tmp_path / "server.py").write_text(HEAD + tail, encoding="utf-8")
    done, seconds = _lint_limited(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    [finding] = json.loads(done.stdout)["diagnostics"]
    assert finding["code"] == "MCPD000"
    assert finding["message"] == f"file is too large to analyse (more than {MAX_TOKENS:,} tokens)"
    assert seconds < 30  # about 2 s; parsed, a MemoryError called it "nested too deeply"


def test_a_large_data_module_under_the_budget_gets_the_sdks_verdict(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(HEAD + "DATA = [" + "1, " * 100_000 + "]\n", encoding="utf-8")
    done, _ = _lint_limited(tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["diagnostics"] == []
    [tool] = sdk(tmp_path)["tools"]
    assert (tool["tool"], tool["verdict"]) == ("lookup", "ok")


def test_a_union_of_many_annotated_arms_is_linear(tmp_path: Path) -> None:
    """The verdict is the SDK's on a small union, and 20,000 arms take seconds, not minutes."""

    def write(folder: Path, arms: int) -> Path:
        folder.mkdir()
        union = ", ".join(f"Annotated[int, Resolve(r{i % 2})]" for i in range(arms))
        (folder / "server.py").write_text(
            HEAD + f"\n\n@mcp.tool()\ndef many(a: Union[{union}]) -> int:\n    return 1\n", encoding="utf-8"
        )
        return folder

    small = write(tmp_path / "small", 4)
    verdicts = {t["tool"]: t["code"] for t in sdk(small)["tools"]}
    linted = run_mcpdeps("lint", "--no-cache", "--format", "json", "--exit-zero", ".", cwd=small)
    codes = {d["code"] for d in json.loads(linted.stdout)["diagnostics"]}
    assert verdicts == {"lookup": None, "many": "MCPD003"}  # the SDK refuses `Resolve` inside a union
    assert codes == {"MCPD003"}
    large = write(tmp_path / "large", 20_000)
    done, seconds = _lint_limited(large)
    assert done.returncode == 0, done.stderr[-2000:]
    assert {d["code"] for d in json.loads(done.stdout)["diagnostics"]} == codes
    assert seconds < 30  # about 5 s; over 40 s with a list scan per member


@pytest.mark.parametrize(
    ("text", "over"),
    [
        ("x" * 50, False),  # one name: one token, however long
        ("'" + "," * 50 + "'", False),  # a string literal counts once
        ('"""' + "a, " * 50 + '"""', False),
        ("f'" + "{a}" * 20 + "'", True),  # an f-string's fields are syntax
        ("a," * 30, True),
        ("pass\n" * 30, True),
        ("# " + "," * 50, False),  # a comment counts once
        ("x = 1\n" + " \r\n" * 100 + "y = 2\n", False),  # blank lines are no syntax
    ],
)
def test_the_token_estimate_counts_syntax_not_characters(text: str, over: bool) -> None:
    assert over_budget(text, limit=40) is over


_SHARED = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)
"""Node classes `ast.parse` hands out as shared singletons: they cost no memory per use."""


@settings(deadline=None, derandomize=True, max_examples=150, suppress_health_check=list(HealthCheck))
@given(st.one_of(MODULES, NODES))
@pytest.mark.filterwarnings("ignore::SyntaxWarning")
def test_the_token_estimate_bounds_the_syntax_tree(source: str) -> None:
    """What the budget stands for: a text of n estimated tokens parses to at most 2n + 2 nodes,
    so no text under the budget can build a tree much larger than the budget says."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    nodes = sum(1 for node in ast.walk(tree) if not isinstance(node, _SHARED))
    assert nodes <= 2 * tokens(source) + 2, source


_MEMBERS = st.lists(
    st.one_of(
        st.sampled_from([TRef("builtins.int"), TRef("builtins.str"), TConst(None)]),
        st.builds(TConst, st.one_of(st.integers(0, 3), st.lists(st.integers(0, 2), max_size=2))),
    ),
    max_size=12,
)


@settings(deadline=None, derandomize=True, max_examples=200)
@given(st.lists(_MEMBERS, min_size=1, max_size=4))
def test_union_members_are_deduplicated_as_by_equality(groups: list[list[object]]) -> None:
    """The set `make_union` dedupes through keeps the list scan's result, unhashable members
    (a `Literal` of a list) included: first occurrence kept, order kept, nested unions flat."""
    args = [TUnion(tuple(g)) if len(g) > 1 else g[0] for g in groups if g]  # type: ignore[arg-type]
    if not args:
        return
    expected: list[object] = []
    for member in (m for a in args for m in (a.args if isinstance(a, TUnion) else (a,))):
        if member not in expected:
            expected.append(member)
    made = make_union(args)  # type: ignore[arg-type]
    assert (list(made.args) if isinstance(made, TUnion) else [made]) == expected


def test_graph_of_a_file_past_the_budget_points_at_the_live_graph(tmp_path: Path) -> None:
    """Python imports such a file (the old sentence said it could not): `--live` draws it."""
    (tmp_path / "server.py").write_text(HEAD + "DATA = [" + "1," * (MAX_TOKENS // 2 + 1000) + "]\n")
    done = run_mcpdeps("graph", "server.py", cwd=tmp_path)
    assert done.returncode == 2, done.stdout
    assert "too large to analyse" in done.stderr and "`mcpdeps graph --live` imports it" in done.stderr
    assert "cannot import" not in done.stderr and "Traceback" not in done.stderr
