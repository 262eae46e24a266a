"""Decorators as Python applies them, beyond what the corpus can hold.

The corpus (`tests/corpus/decorators/`, checked by `test_oracle.py`) holds the cases whose
verdict is a registration code or `ok`. Here: what shows only in the rendered graph (the
decorator chain, static and `--live` the same), the 1xx/info findings a valid corpus case
must not carry (a sync wrapper around an async resolver, an unknown library decorator on a
tool, a property used as a resolver), and odd things users write (two tools through one
decorator without `functools.wraps`: both are called `wrapper`), each judged by the real
SDK in the same test.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, run_mcpdeps

ORACLE = REPO / "tests" / "oracle" / "sdk_verdicts.py"
HEAD = """
import functools
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("Deco")
"""


def _body(tree: str) -> str:
    """A graph tree without its first line (which says `static graph:` or `live graph:`)."""
    return tree.partition("\n")[2]


def write_case(root: Path, name: str, body: str) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "server.py").write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    return folder


def sdk(folder: Path) -> dict[str, Any]:
    """The real SDK's verdict per registered tool (tests/oracle/sdk_verdicts.py)."""
    done = subprocess.run(
        [sys.executable, str(ORACLE), str(folder)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)["cases"][str(folder)]


def lint(folder: Path) -> list[dict[str, Any]]:
    done = run_mcpdeps("lint", "--format", "json", "--no-cache", "--exit-zero", str(folder), cwd=folder)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["diagnostics"]


def test_the_graph_shows_the_decorator_chain_static_and_live_alike() -> None:
    """`locate` -> `geocode  via @retry(times=3)`, the same text from source and from the SDK."""
    case = "tests/corpus/decorators/factory_with_wraps/server.py"
    static = run_mcpdeps("graph", case, cwd=REPO)
    live = run_mcpdeps("graph", "--live", case, cwd=REPO)
    assert static.returncode == live.returncode == 0, static.stderr + live.stderr
    assert "← geocode  via @retry(times=3)" in static.stdout
    assert _body(static.stdout) == _body(live.stdout)


def test_a_tool_behind_a_plain_wrapper_shows_why_it_is_called_wrapper() -> None:
    case = "tests/corpus/decorators/tool_without_wraps/server.py"
    static = run_mcpdeps("graph", case, cwd=REPO)
    live = run_mcpdeps("graph", "--live", case, cwd=REPO)
    assert "wrapper  via @logged  tool" in static.stdout
    assert _body(static.stdout) == _body(live.stdout)


@pytest.mark.parametrize(("wrapper", "flagged"), [("def", True), ("async def", False)])
def test_sync_wraps_wrapper_around_an_async_resolver(tmp_path: Path, wrapper: str, flagged: bool) -> None:
    """The SDK accepts both; a sync wrapper runs in a thread and injects a coroutine (MCPD108),
    an async one is awaited."""
    call = "fn(*args, **kwargs)" if wrapper == "def" else "await fn(*args, **kwargs)"
    folder = write_case(
        tmp_path,
        "wrapped",
        f"""
        def traced(fn):
            @functools.wraps(fn)
            {wrapper} wrapper(*args, **kwargs):
                return {call}
            return wrapper

        @traced
        async def stock(title: str) -> int:
            return 3

        @mcp.tool()
        def order(title: str, n: Annotated[int, Resolve(stock)]) -> str:
            return str(n)
        """,
    )
    assert [t["verdict"] for t in sdk(folder)["tools"]] == ["ok"]
    found = lint(folder)
    assert [(d["code"], d["tool"]) for d in found] == ([("MCPD108", "order")] if flagged else [])
    if flagged:
        assert "sync wrapper (`@traced`) around async 'stock'" in found[0]["message"]


def test_two_tools_through_one_plain_wrapper_collide(tmp_path: Path) -> None:
    """Both register as `wrapper`: the SDK keeps the first and drops the second (MCPD110)."""
    folder = write_case(
        tmp_path,
        "collide",
        """
        def logged(fn):
            def wrapper(title: str) -> str:
                return fn(title)
            return wrapper

        @mcp.tool()
        @logged
        def first(title: str) -> str:
            return title

        @mcp.tool()
        @logged
        def second(title: str) -> str:
            return title
        """,
    )
    tools = sdk(folder)["tools"]
    assert [(t["tool"], t["duplicate"]) for t in tools] == [("wrapper", False), ("wrapper", True)]
    codes = [(d["code"], d["tool"]) for d in lint(folder)]
    assert codes == [("MCPD110", "wrapper")]
    graph = json.loads(run_mcpdeps("graph", "--format", "json", str(folder / "server.py"), cwd=folder).stdout)
    assert [t["name"] for t in graph["servers"][0]["tools"]] == ["wrapper"]


@pytest.mark.parametrize(
    ("name", "body", "expected"),
    [
        (
            "library_decorator_on_tool",
            """
            from click import pass_context

            @mcp.tool()
            @pass_context
            def reserve(title: str) -> str:
                return title
            """,
            "decorator `click.pass_context` is not project code",
        ),
        (
            "property_resolver",
            """
            class Catalog:
                def _count(self, title: str) -> int:
                    return 3

                @property
                def lookup(self):
                    return self._count

            catalog = Catalog()

            @mcp.tool()
            def reserve(title: str, n: Annotated[int, Resolve(catalog.lookup)]) -> str:
                return title
            """,
            "is a property: its value is computed at run time",
        ),
    ],
)
def test_what_cannot_be_followed_is_reported_not_guessed(
    tmp_path: Path, name: str, body: str, expected: str
) -> None:
    """The SDK registers these; mcpdeps says it cannot see through them (MCPD113, info)."""
    folder = write_case(tmp_path, name, body)
    assert [t["verdict"] for t in sdk(folder)["tools"]] == ["ok"]
    found = lint(folder)
    assert [d["code"] for d in found] == ["MCPD113"], found
    assert expected in found[0]["message"]
    assert found[0]["tool"] == "reserve"


@pytest.mark.parametrize(("layers", "codes"), [(40, []), (60, ["MCPD113"])])
def test_a_deep_stack_of_wraps_decorators_is_followed_or_said_unfollowed(
    tmp_path: Path, layers: int, codes: list[str]
) -> None:
    """The SDK follows `__wrapped__` up to the recursion limit: 60 layers register a valid tool.
    mcpdeps follows 48 and says past that that it cannot see (it read `wrapper(*a, **k)`
    halfway down the stack, two false MCPD109)."""
    stack = "@deco\n" * layers
    folder = write_case(
        tmp_path,
        "deep",
        f"""
        def stock() -> int:
            return 1

        def deco(fn):
            @functools.wraps(fn)
            def wrapper(*a, **k):
                return fn(*a, **k)
            return wrapper

        @mcp.tool()
        {stack.replace(chr(10), chr(10) + "        ")}def t(a: int, s: Annotated[int, Resolve(stock)]) -> int:
            return a
    """,
    )
    [tool] = sdk(folder)["tools"]
    assert (tool["verdict"], tool["arguments"], tool["resolved"]) == ("ok", ["a"], {"s": "server:stock"})
    found = lint(folder)
    assert [d["code"] for d in found] == codes
    assert all(d["severity"] == "info" for d in found)
