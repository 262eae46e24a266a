"""Registrations fed by a loop through a helper's parameter or a name bound in the loop, checked
against the SDK itself.

`def add(server, fn): server.add_tool(fn)` called `for fn in READERS: add(mcp, fn)` registers
each function of `READERS` (`caller_loops.py`); `for f in READERS: w = f; mcp.add_tool(w)`
and `w = make_wrapper(f)` register each function, or each wrapper of one (`loop_aliases.py`).
Both were dropped without a word: no tool, no diagnostic, while the SDK refused the server.
What cannot be read (a name bound to `getattr(...)`, `random.choice(...)`, a loop over
`dir(module)`) is said (MCPD113 at the registration), never dropped.

Each project's tool `t` runs `load_d(nope)`, which the SDK refuses at registration;
`published_shapes.check_both_ways` runs the server under the SDK, then lint (`lint .` and the
resolver's file alone), refused and clean (the clean twin: no diagnostic at all, so a helper
called from two loops must not report its tools as registered twice).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from conftest import lint_diagnostics, run_mcpdeps, write_files
from published_shapes import (
    CLEAN,
    PROJECT,
    REFUSED,
    check_both_ways,
    duplicates_logged,
    entry_point,
    found,
    resolver_module,
    sdk,
)

TOOLS = resolver_module(
    "def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n\n\n"
    "def u(x: int) -> str:\n    return str(x)\n\n\nREADERS = [u]\nWRITERS = [t]\n"
)
"""`app/tools.py`: the clean tool `u` in `READERS`, the refused `t` in `WRITERS`."""

ADD = "def add(server, fn) -> None:\n        server.add_tool(fn)\n"
ADD_TWICE = "def add_twice(server, fn) -> None:\n        add(server, fn)\n"
"""A helper handing its function parameter on to `ADD` (`handed_on.py`)."""

MAKE_PLAIN = """\
import functools


    def make_plain(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return fn(*args, **kwargs)

        return wrapper
"""

FOLLOWED: dict[str, tuple[dict[str, str], str]] = {
    "helper(server, fn) in a module-level loop over a tuple written in place": (
        {
            "app/main.py": entry_point(
                f"from app.tools import t, u\n\n\n    {ADD}", "for fn in (u, t):\n        add(mcp, fn)"
            )
        },
        "import app.main",
    ),
    "helper(server, fn) in a loop over another module's list, in a factory, under a flag": (
        {
            "app/main.py": """\
                from mcp.server import MCPServer
                from mcp.types import ToolAnnotations

                from app.tools import READERS, WRITERS


                def add_reader(server: MCPServer, fn) -> None:
                    server.add_tool(fn, annotations=ToolAnnotations(readOnlyHint=True))


                def build(writes: bool = False) -> MCPServer:
                    mcp = MCPServer("x")
                    for fn in READERS:
                        add_reader(mcp, fn)
                    if writes:
                        for fn in WRITERS:
                            add_reader(mcp, fn)
                    return mcp
            """
        },
        "import app.main\napp.main.build(writes=True)",
    ),
    "one helper called from two loops, each function once": (
        {
            "app/main.py": entry_point(
                f"from app.tools import READERS, WRITERS\n\n\n    {ADD}",
                "for fn in READERS:\n        add(mcp, fn)\n    for fn in WRITERS:\n        add(mcp, fn)",
            )
        },
        "import app.main",
    ),
    "helper(server, fn) passed a name the caller's loop binds to its variable": (
        {
            "app/main.py": entry_point(
                f"from app.tools import WRITERS\n\n\n    {ADD}",
                "for f in WRITERS:\n        w = f\n        add(mcp, w)",
            )
        },
        "import app.main",
    ),
    "a name the loop binds to its variable, registered": (
        {
            "app/main.py": entry_point(
                "from app.tools import READERS, WRITERS",
                "for f in WRITERS:\n        w = f\n        mcp.add_tool(w)",
            )
        },
        "import app.main",
    ),
    "a wraps wrapper made of each function of another module's list, tool(name=f.__name__)": (
        {
            "app/main.py": entry_point(
                "from app.tools import WRITERS\n    " + MAKE_PLAIN,
                "for f in WRITERS:\n        w = make_plain(f)\n        mcp.tool(name=f.__name__)(w)",
            )
        },
        "import app.main",
    ),
    "a helper handing its function parameter on to another": (
        {
            "app/main.py": entry_point(
                f"from app.tools import t\n\n\n    {ADD}\n    {ADD_TWICE}", "add_twice(mcp, t)"
            )
        },
        "import app.main",
    ),
    "helpers in two modules handing the function on, fed by a loop over another module's list": (
        {
            "app/registry.py": "def _really_add(mcp, fn):\n    mcp.add_tool(fn)\n",
            "app/helpers.py": "from app.registry import _really_add\n\n\ndef add(mcp, fn):\n    _really_add(mcp, fn)\n",
            "app/main.py": entry_point(
                "from app.helpers import add\n    from app.tools import WRITERS",
                "for fn in WRITERS:\n        add(mcp, fn)",
            ),
        },
        "import app.main",
    ),
    "three helpers handing the function and its name on, in a factory": (
        {
            "app/main.py": """\
                from mcp.server import MCPServer

                from app.tools import t


                def add(server, fn, name=None):
                    server.add_tool(fn, name=name)


                def add_named(server, fn, name):
                    add(server, fn, name=name)


                def expose(server, fn, name):
                    add_named(server, fn, name)


                def build() -> MCPServer:
                    mcp = MCPServer("x")
                    expose(mcp, t, "named_t")
                    return mcp
            """
        },
        "import app.main\napp.main.build()",
    ),
    # A published registry: `ALL_TOOLS = [*NOTE_TOOLS, *TASK_TOOLS]` in a package `__init__`.
    "add_tool in a loop over a list unpacking another module's lists": (
        {
            "app/registry.py": "from app.tools import READERS, WRITERS\n\nALL_TOOLS = [*READERS, *WRITERS]\n",
            "app/main.py": entry_point(
                "from app.registry import ALL_TOOLS", "for fn in ALL_TOOLS:\n        mcp.add_tool(fn)"
            ),
        },
        "import app.main",
    ),
    "helper(server, fn) in a loop over a list unpacking one of this module's, then a value": (
        {
            "app/main.py": entry_point(
                f"from app.tools import t, u\n\n    FIRST = [u]\n    ALL = [*FIRST, t]\n\n\n    {ADD}",
                "for fn in ALL:\n        add(mcp, fn)",
            )
        },
        "import app.main",
    ),
}
"""Entry points whose tools mcpdeps follows: the files beside `app/tools.py`, and the code
starting the server."""


@pytest.mark.parametrize("case", sorted(FOLLOWED))
def test_a_loop_fed_registration_is_followed(tmp_path: Path, case: str) -> None:
    files, entry = FOLLOWED[case]
    check_both_ways(tmp_path, {"app/tools.py": TOOLS, **files}, entry, "app/tools.py")


def test_the_graph_lists_each_function_a_loop_hands_the_helper(tmp_path: Path) -> None:
    """`graph --format json` lists the tools of `for fn in (u, t): add(mcp, fn)`, named after
    the functions (it listed none)."""
    main = entry_point(
        f"from app.tools import t, u\n\n\n    {ADD}", "for fn in (u, t):\n        add(mcp, fn)"
    )
    write_files(tmp_path, {**PROJECT, "app/tools.py": TOOLS, "app/main.py": main})
    done = run_mcpdeps("graph", "--format", "json", "app/main.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    servers = json.loads(done.stdout)["servers"]
    assert [sorted(tool["name"] for tool in s["tools"]) for s in servers] == [["t", "u"]], servers


SAID: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "a name bound to getattr(module, 'name')": (
        "from app import tools",
        'w = getattr(tools, "t")\n    mcp.add_tool(w)',
        "mcp.add_tool(w)",
        ("`w`", 'getattr(tools, "t")'),
    ),
    "a name bound to random.choice(list)": (
        "import random\n\n    from app.tools import WRITERS",
        "w = random.choice(WRITERS)\n    mcp.add_tool(w)",
        "mcp.add_tool(w)",
        ("`w`", "random.choice(WRITERS)"),
    ),
    "marked functions found by dir(module) and getattr": (
        "from app import tools",
        "for attr_name in dir(tools):\n        attr = getattr(tools, attr_name)\n"
        '        if callable(attr) and attr_name == "t":\n'
        "            mcp.tool()(attr)",
        "mcp.tool()(attr)",
        ("'attr'", "dir(tools)"),
    ),
    "a helper handing on to another a function computed at run time": (
        f"from app import tools\n\n\n    {ADD}\n\n    def add_twice(server, fn) -> None:\n        add(server, fn)\n",
        'add_twice(mcp, getattr(tools, "t"))',
        'add_twice(mcp, getattr(tools, "t"))',
        ("`getattr(tools, 't')`",),
    ),
}
"""Entry points the SDK refuses (`t` registered) whose registration mcpdeps cannot follow:
the imports, the code, the registration's line (as written there), and what the message
must name."""


@pytest.mark.parametrize("case", sorted(SAID))
def test_an_unreadable_registration_is_said_not_dropped(tmp_path: Path, case: str) -> None:
    imports, code, at, named = SAID[case]
    main = entry_point(imports, code)
    write_files(tmp_path, {**PROJECT, "app/tools.py": TOOLS, "app/main.py": main})
    assert REFUSED in sdk(tmp_path, "import app.main").stderr
    registered = next(n for n, line in enumerate(main.splitlines(), 1) if line.strip() == at)
    for given in (".", "app/main.py"):
        found = [
            (d["code"], d["path"], d["line"], d["message"])
            for d in lint_diagnostics(tmp_path, "--no-cache", given)
        ]
        assert [(code, path, line) for code, path, line, _ in found] == [
            ("MCPD113", "app/main.py", registered)
        ], found
        assert all(part in found[0][3] for part in named), found


ADD_NAMED = "def add(server, fn, name=None) -> None:\n        server.add_tool(fn, name=name)\n"
ADD_PREFIXED = (
    "def addn(server, fn, prefix) -> None:\n        server.add_tool(fn, name=f'{prefix}_{fn.__name__}')\n"
)
HELPERS = "def add(server, fn, name=None) -> None:\n    server.add_tool(fn, name=name)\n"
"""`app/helpers.py`: the helper written in another module than its calls."""

NAMED: dict[str, tuple[str, str, str | None, bool]] = {
    "each row of the loop passes its own name": (
        ADD_NAMED,
        "for n, fn in (('a', u), ('b', u)):\n        add(mcp, fn, n)",
        None,
        False,
    ),
    "two rows of the loop pass one name": (
        ADD_NAMED,
        "for n, fn in (('a', u), ('a', t)):\n        add(mcp, fn, n)",
        "add(mcp, fn, n)",
        False,
    ),
    "names of another loop than the functions' (not read, not compared)": (
        ADD_NAMED,
        "for n in ('a', 'b'):\n        for fn in READERS:\n            add(mcp, fn, n)\n    add(mcp, u)",
        None,
        False,
    ),
    "a loop's function, then the same function called directly": (
        ADD_NAMED,
        "for fn in READERS:\n        add(mcp, fn)\n    add(mcp, u)",
        "add(mcp, u)",
        False,
    ),
    "a function called directly, then in a loop": (
        ADD_NAMED,
        "add(mcp, u)\n    for fn in READERS:\n        add(mcp, fn)",
        "add(mcp, fn)",
        False,
    ),
    "a loop's function, then the same called directly, the helper in another module": (
        "",
        "for fn in READERS:\n        add(mcp, fn)\n    add(mcp, u)",
        "add(mcp, u)",
        True,
    ),
    "a helper's default name, for each function of a loop": (
        ADD_NAMED.replace("name=None", "name='same'"),
        "for fn in (u, t):\n        add(mcp, fn)",
        "add(mcp, fn)",
        False,
    ),
    "f'{prefix}_{fn.__name__}' with two prefixes over one list": (
        ADD_PREFIXED,
        "for fn in READERS:\n        addn(mcp, fn, 'p')\n    for fn in READERS:\n        addn(mcp, fn, 'q')",
        None,
        False,
    ),
    "f'{prefix}_{fn.__name__}' with one prefix, in a loop then directly": (
        ADD_PREFIXED,
        "for fn in READERS:\n        addn(mcp, fn, 'p')\n    addn(mcp, u, 'p')",
        "addn(mcp, u, 'p')",
        False,
    ),
    "f'{prefix}_{fn.__name__}' with prefixes computed at run time (not read, not compared)": (
        ADD_PREFIXED,
        "for p in sorted({'p', 'q'}):\n        for fn in READERS:\n            addn(mcp, fn, p)\n    addn(mcp, u, 'r')",
        None,
        False,
    ),
    "a name handed on through a second helper": (
        ADD_NAMED + "\n    def add_twice(server, fn, name=None) -> None:\n        add(server, fn, name)\n",
        "add_twice(mcp, u, 'a')\n    add_twice(mcp, t, 'a')",
        "add_twice(mcp, t, 'a')",
        False,
    ),
    "one function handed on through a second helper to two servers": (
        ADD_NAMED + "\n    def add_twice(server, fn, name=None) -> None:\n        add(server, fn, name)\n",
        "other = MCPServer('y')\n    add_twice(mcp, u)\n    add_twice(other, u)",
        None,
        False,
    ),
}
"""Helpers registering what a loop hands them, named by what the call passes: the helper (in
`app/main.py`, or `app/helpers.py` when the flag is set), the code, and the line (as written)
of the registration the SDK drops, if it drops one."""


@pytest.mark.parametrize("case", sorted(NAMED))
def test_names_a_loop_passes_a_helper_are_the_sdks(tmp_path: Path, case: str) -> None:
    """MCPD110 where the SDK logs "Tool already exists", at the registration it drops, for
    `lint .` and `lint app/main.py` alike; none where it logs none. The name a loop's row
    passes is that row's (it was the function's own: a false duplicate); a name lint cannot
    read is compared with no other; a loop's registration of a name meets a later direct
    one in the order they run (`lint .` reported the loop's call: the tool was recorded
    for the module its function is written in)."""
    helper, code, dropped, elsewhere = NAMED[case]
    imports = "from app.tools import READERS, WRITERS, t, u"
    if elsewhere:
        imports = "from app.helpers import add\n    " + imports
    main = entry_point(f"{imports}\n\n\n    {helper}", code)
    files = {"app/tools.py": TOOLS.replace(*CLEAN), "app/main.py": main}
    if elsewhere:
        files["app/helpers.py"] = HELPERS
    write_files(tmp_path, {**PROJECT, **files})
    logged = duplicates_logged(tmp_path, {})
    expected = []
    if dropped is not None:
        line = next(
            n for n, text in enumerate(textwrap.dedent(main).splitlines(), 1) if text.strip() == dropped
        )
        expected = [("MCPD110", "app/main.py", line)]
    assert (logged != []) is (dropped is not None), logged
    for given in [".", "app/main.py", "app/helpers.py"] if elsewhere else [".", "app/main.py"]:
        got = sorted((str(d["code"]), str(d["path"]), int(str(d["line"]))) for d in found(tmp_path, [given]))
        assert got == [e for e in expected if given == "." or e[1] == given], (given, got)


def test_the_calls_of_a_helper_are_read_once_their_loops_in_one_walk(tmp_path: Path) -> None:
    """`add(mcp, f0)` ... `add(mcp, fN)` at a module's top level: the calls of `add` are listed
    once for all its registrations, not once per registration, and the loops around each call
    are read from one walk of the module's body, not one walk per call (a module of 3,000 such
    calls took minutes). For twice as many calls: as many listings, twice as many nodes visited."""
    from mcpdeps.resolver_core import build_graph, caller_loops
    from mcpdeps.resolver_core.call_sites import CallSites

    def work(calls: int) -> tuple[int, int]:
        folder = tmp_path / str(calls)
        folder.mkdir()
        defs = "".join(f"\n\ndef f{i}(x: int) -> int:\n    return x\n" for i in range(calls))
        adds = "".join(f"add(mcp, f{i})\n" for i in range(calls))
        head = "from mcp.server import MCPServer\n\nmcp = MCPServer('x')\n\n\ndef add(server, fn):\n"
        (folder / "server.py").write_text(
            f"{head}    server.add_tool(fn)\n{defs}\n\n{adds}", encoding="utf-8"
        )
        visited = listed = 0
        iter_fields, sites = caller_loops.ast.iter_fields, CallSites.sites

        def visiting(node: object) -> object:
            nonlocal visited
            visited += 1
            return iter_fields(node)  # type: ignore[arg-type]

        def listing(self: CallSites, *args: object) -> object:
            nonlocal listed
            listed += 1
            return sites(self, *args)  # type: ignore[arg-type]

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(caller_loops.ast, "iter_fields", visiting)
            patch.setattr(CallSites, "sites", listing)
            graph = build_graph([folder / "server.py"])
        assert len(graph.tools()) == calls
        return visited, listed

    (visited, listed), (visited_twice, listed_twice) = work(100), work(200)
    assert listed_twice == listed
    assert visited_twice < 3 * visited


def test_a_collected_list_copying_another_is_said_not_read_as_empty(tmp_path: Path) -> None:
    """`TOOLS = list(BASE)` filled further by a collecting `@tool`: the loop over `TOOLS` also
    registers what `BASE` holds, which the SDK refuses here. Read as an empty list filled by
    the decorator alone, `BASE`'s tools were dropped without a word: the loop is said
    (MCPD113) instead."""
    main = resolver_module(
        "def base_tool(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n\n\n"
        "BASE = [base_tool]\nTOOLS = list(BASE)\n\n\ndef tool(fn):\n    TOOLS.append(fn)\n    return fn\n\n\n"
        "@tool\ndef good(x: int) -> str:\n    return str(x)\n\n\n"
        'mcp = MCPServer("x")\nfor fn in TOOLS:\n    mcp.add_tool(fn)\n',
        imports="from mcp.server import MCPServer\n",
    )
    write_files(tmp_path, {**PROJECT, "app/main.py": main})
    assert REFUSED in sdk(tmp_path, "import app.main").stderr
    assert [d["code"] for d in lint_diagnostics(tmp_path, "--no-cache", ".")] == ["MCPD113"]
