"""Adversarial cases against the s15 analysis (loop filters and `break`, comprehensions,
partials, version tests, servers in dicts and `**kwargs`), each checked against the SDK.

Each case is a small project: `app/tools.py` defines `bad` (its resolver `load_d(nope)` the
SDK refuses), `good` and `good2`; `app/main.py` registers some of them. `test_the_sdk_says`
starts the server under the real SDK (`import app.main`) and checks what it registers (or
that it refuses the server): the oracle each expectation was read from. `test_lint_agrees`
checks that `lint .` reports what the SDK does (MCPD002 where it refuses, MCPD110 where it
logs a duplicate, no other error or warning; an info saying what is not analysed is no
verdict) and that each file linted alone reports the same there.
Cases mcpdeps still gets wrong are strict xfails saying how.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import located, write_files
from mcpdeps.resolver_core.version_tests import version_test
from published_shapes import (
    PROJECT,
    WARNINGS_KEPT,
    found,
    the_editor_reports_what_lint_dot_reports,
    with_known_gaps,
)

TOOLS = """\
from typing import Annotated

from mcp.server.mcpserver import Resolve


def load_d(nope: str) -> str:
    return nope


def load_ok(x: int) -> str:
    return str(x)


def bad(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
    return d


def good(x: int, d: Annotated[str, Resolve(load_ok)]) -> str:
    return d


def good2(x: int) -> str:
    return str(x)
"""
HEAD = "from mcp.server import MCPServer\n\nfrom app.tools import bad, good, good2\n\n"

REFUSED = "refused"
"""The SDK refuses the server (`bad`'s resolver)."""

STARTED = (
    WARNINGS_KEPT
    + """
import gc, sys
try:
    import app.main
except Exception as exc:
    print(json.dumps("refused" if "InvalidSignature" in type(exc).__name__ else repr(exc)))
    sys.exit(0)
from mcp.server import MCPServer
servers = {o.name: sorted(t.name for t in o._tool_manager.list_tools()) for o in gc.get_objects() if isinstance(o, MCPServer)}
print(json.dumps([servers, [m for m in logged if "already exists" in m]]))
"""
)
"""The server started under the SDK: "refused", or its servers' tools and the duplicate warnings."""

ERROR = [("MCPD002", "app/tools.py")]
DUPLICATE = [("MCPD110", "app/main.py")]

# name -> (app/main.py after HEAD, what the SDK does, what lint . reports)
CASES: dict[str, tuple[str, object, list[tuple[str, str]]]] = {
    "comprehension if leaves the refused tool out": (
        'mcp = MCPServer("x")\n[mcp.add_tool(f) for f in (good, bad, good2) if f is not bad]\n',
        [{"x": ["good", "good2"]}, []],
        [],
    ),
    "comprehension ifs, two of them": (
        'mcp = MCPServer("x")\n[mcp.add_tool(f) for f in (good, bad, good2) if f is not good2 if f is not bad]\n',
        [{"x": ["good"]}, []],
        [],
    ),
    "comprehension if keeping the refused tool": (
        'mcp = MCPServer("x")\n[mcp.add_tool(f) for f in (good, bad, good2) if f is not good]\n',
        REFUSED,
        ERROR,
    ),
    "loop else after a break the first value takes": (
        'mcp = MCPServer("x")\nfor fn in (good, bad):\n    if fn is good:\n        break\n'
        "    mcp.add_tool(fn)\nelse:\n    mcp.add_tool(bad)\n",
        [{"x": []}, []],
        [],
    ),
    "loop else after a break following the registration": (
        'mcp = MCPServer("x")\nfor fn in (good, good2):\n    mcp.add_tool(fn)\n    if fn is good:\n'
        "        break\nelse:\n    mcp.add_tool(bad)\n",
        [{"x": ["good"]}, []],
        [],
    ),
    "loop else in a helper after a break its last value takes": (
        "def setup(server):\n    for fn in (good, good2):\n        server.add_tool(fn)\n"
        "        if fn is good2:\n            break\n    else:\n        server.add_tool(bad)\n\n\n"
        'mcp = MCPServer("x")\nsetup(mcp)\n',
        [{"x": ["good", "good2"]}, []],
        [],
    ),
    "loop else with no break": (
        'mcp = MCPServer("x")\nfor fn in (good,):\n    mcp.add_tool(fn)\nelse:\n    mcp.add_tool(bad)\n',
        REFUSED,
        ERROR,
    ),
    "loop else after a break no value is sure to take": (
        'import os\n\nmcp = MCPServer("x")\nfor fn in (good, good2):\n    if os.environ.get("NEVER_SET_S15"):\n'
        "        break\nelse:\n    mcp.add_tool(bad)\n",
        REFUSED,
        ERROR,
    ),
    "loop else calling a helper after a certain break": (
        "def register_bad(server):\n    server.add_tool(bad)\n\n\n"
        'mcp = MCPServer("x")\nfor fn in (good, good2):\n    if fn is good:\n        break\n'
        "else:\n    register_bad(mcp)\n",
        [{"x": []}, []],
        [],
    ),
    "partial's name overridden by the call": (
        'import functools\n\nmcp = MCPServer("x")\nnamed = functools.partial(mcp.tool, name="same")\n\n\n'
        "@named()\ndef a(x: int) -> str:\n    return str(x)\n\n\n"
        '@named(name="other")\ndef b(x: int) -> str:\n    return str(x)\n',
        [{"x": ["other", "same"]}, []],
        [],
    ),
    "partial's name used twice": (
        'import functools\n\nmcp = MCPServer("x")\nnamed = functools.partial(mcp.tool, name="same")\n\n\n'
        "@named()\ndef a(x: int) -> str:\n    return str(x)\n\n\n"
        "@named()\ndef b(x: int) -> str:\n    return str(x)\n",
        [{"x": ["same"]}, ["Tool already exists: same"]],
        DUPLICATE,
    ),
    "version test on a one-field slice, refused tool in its else": (
        'import sys\n\nmcp = MCPServer("x")\nif sys.version_info[:1] >= (3, 10):\n    mcp.add_tool(good)\n'
        "else:\n    mcp.add_tool(bad)\n",
        REFUSED,
        ERROR,
    ),
    "skip set emptied before the loop": (
        'mcp = MCPServer("x")\nSKIP = {bad}\nSKIP.discard(bad)\nfor fn in (good, bad):\n'
        "    if fn in SKIP:\n        continue\n    mcp.add_tool(fn)\n",
        REFUSED,
        ERROR,
    ),
    "server dict keyed by a variable": (
        'KEY = "admin"\nSERVERS = {KEY: MCPServer("admin"), "public": MCPServer("public")}\n'
        'SERVERS["admin"].add_tool(bad)\nSERVERS["public"].add_tool(good)\n',
        REFUSED,
        ERROR,
    ),
    "server dict keyed by a variable, the same entry read both ways": (
        'KEY = "admin"\nSERVERS = {KEY: MCPServer("admin"), "public": MCPServer("public")}\n'
        'SERVERS[KEY].add_tool(good)\nSERVERS["admin"].add_tool(good)\n',
        [{"admin": ["good"], "public": []}, ["Tool already exists: good"]],
        DUPLICATE,
    ),
    "server dict keyed by a variable, one tool on each": (
        'KEY = "admin"\nSERVERS = {KEY: MCPServer("admin"), "public": MCPServer("public")}\n'
        'SERVERS[KEY].add_tool(good)\nSERVERS["public"].add_tool(good)\n',
        [{"admin": ["good"], "public": ["good"]}, []],
        [],
    ),
    "kwargs server replaced in the helper": (
        'def register(**kwargs):\n    kwargs["server"] = kwargs["other"]\n    kwargs["server"].add_tool(good)\n\n\n'
        'a = MCPServer("a")\nb = MCPServer("b")\na.add_tool(good)\nregister(server=a, other=b)\n',
        [{"a": ["good"], "b": ["good"]}, []],
        [],
    ),
    "opts dict's server replaced before the spread": (
        "def register(server):\n    server.add_tool(good)\n\n\n"
        'a = MCPServer("a")\nb = MCPServer("b")\na.add_tool(good)\nopts = {"server": a}\n'
        'opts["server"] = b\nregister(**opts)\n',
        [{"a": ["good"], "b": ["good"]}, []],
        [],
    ),
    "map over two iterables, names from the second": (
        'mcp = MCPServer("x")\nlist(map(mcp.add_tool, (good2, bad), ("a", "b")))\n',
        REFUSED,
        ERROR,
    ),
    "all() over a map stops after the first (None is false)": (
        'mcp = MCPServer("x")\nall(map(mcp.add_tool, (bad, good)))\n',
        REFUSED,
        ERROR,
    ),
    "map over two iterables, a name taken twice": (
        'mcp = MCPServer("x")\nlist(map(mcp.add_tool, (good2, good), ("a", "a")))\n',
        [{"x": ["a"]}, ["Tool already exists: a"]],
        DUPLICATE,
    ),
    "map over two iterables, the shorter one leaves the refused tool out": (
        'mcp = MCPServer("x")\nlist(map(mcp.add_tool, (good2, bad), ("a",)))\n',
        [{"x": ["a"]}, []],
        [],
    ),
    "all() over a map, the refused tool after the first": (
        'mcp = MCPServer("x")\nall(map(mcp.add_tool, (good, bad)))\n',
        [{"x": ["good"]}, []],
        [],
    ),
    "any() over a map runs every call (None is false)": (
        'mcp = MCPServer("x")\nany(map(mcp.add_tool, (good, bad)))\n',
        REFUSED,
        ERROR,
    ),
    "any() over a map of the decorator stops after the first (a function is true)": (
        'mcp = MCPServer("x")\nany(map(mcp.tool(), (good, bad)))\n',
        [{"x": ["good"]}, []],
        [],
    ),
    "all() over a map of the decorator runs every call": (
        'mcp = MCPServer("x")\nall(map(mcp.tool(), (good, bad)))\n',
        REFUSED,
        ERROR,
    ),
    "loop over zip() of tools and names": (
        'mcp = MCPServer("x")\nNAMES = ("a", "b")\nfor fn, n in zip((good2, bad), NAMES):\n    mcp.add_tool(fn, name=n)\n',
        REFUSED,
        ERROR,
    ),
    "loop that breaks after its first registration": (
        'mcp = MCPServer("x")\nfor fn in (good, bad):\n    mcp.add_tool(fn)\n    break\n',
        [{"x": ["good"]}, []],
        [],
    ),
    "names loop over one function, a name taken twice": (
        'mcp = MCPServer("x")\nfor n in ("a", "b"):\n    mcp.add_tool(good2, name=n)\nmcp.add_tool(good, name="a")\n',
        [{"x": ["a", "b"]}, ["Tool already exists: a"]],
        DUPLICATE,
    ),
    "names loop over one function, each name once": (
        'mcp = MCPServer("x")\nfor n in ("a", "b"):\n    mcp.add_tool(good2, name=n)\nmcp.add_tool(good, name="c")\n',
        [{"x": ["a", "b", "c"]}, []],
        [],
    ),
    "names loop over one function, the name taken twice left out": (
        'mcp = MCPServer("x")\nfor n in ("a", "b"):\n    if n == "a":\n        continue\n'
        '    mcp.add_tool(good2, name=n)\nmcp.add_tool(good, name="a")\n',
        [{"x": ["a", "b"]}, []],
        [],
    ),
    "names loop inside a loop over functions: each function under each name": (
        'mcp = MCPServer("x")\nfor fn in (good, good2):\n    for n in ("a", "b"):\n        mcp.add_tool(fn, name=n)\n',
        [{"x": ["a", "b"]}, ["Tool already exists: a", "Tool already exists: b"]],
        [*DUPLICATE, *DUPLICATE],
    ),
}

GAPS = {}


def _project(root: Path, main: str) -> None:
    write_files(root, {**PROJECT, "app/tools.py": TOOLS, "app/main.py": HEAD + main})


def the_sdk_says(root: Path, says: object, started: str = STARTED) -> None:
    """The project in `root` started under the SDK (by the script `started`) reports `says`."""
    ran = subprocess.run([sys.executable, "-c", started], cwd=root, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == says


def lint_agrees(root: Path, expected: list[tuple[str, str]], given: list[str]) -> None:
    """`lint .` reports `expected` (code, path) pairs but infos, and each of `given` alone
    reports what `lint .` reports there."""
    whole = found(root, ["."])
    verdicts = sorted((str(d["code"]), str(d["path"])) for d in whole if d["severity"] != "info")
    assert verdicts == sorted(expected), whole
    for each in given:
        assert located(found(root, [each]), each) == located(whole, each), each


@pytest.mark.parametrize("name", list(CASES))
def test_the_sdk_says(tmp_path: Path, name: str) -> None:
    main, says, _ = CASES[name]
    _project(tmp_path, main)
    the_sdk_says(tmp_path, says)


@pytest.mark.parametrize("name", with_known_gaps("lint", list(CASES), GAPS))
def test_lint_agrees(tmp_path: Path, name: str) -> None:
    main, _, expected = CASES[name]
    _project(tmp_path, main)
    lint_agrees(tmp_path, expected, ["app/main.py", "app/tools.py"])


@pytest.mark.parametrize("name", list(CASES))
def test_the_editor_reports_what_lint_dot_reports(tmp_path: Path, name: str) -> None:
    _project(tmp_path, CASES[name][0])
    the_editor_reports_what_lint_dot_reports(tmp_path)


@pytest.mark.parametrize(
    ("test", "decided"),
    [
        ("sys.version_info[:1] >= (3, 10)", None),  # (3,) < (3, 10): false on every 3.x, not true
        ("sys.version_info[:0] < (3,)", None),
        ("sys.version_info[:2] >= (3, 10)", True),
        ("sys.version_info[:2] < (3, 10)", False),
    ],
)
def test_a_slice_shorter_than_the_bound_is_not_decided(test: str, decided: bool | None) -> None:
    assert version_test(ast.parse(test, mode="eval").body) is decided
