"""Cases beside the s16 gaps closed in s17, each checked against the SDK: a loop's `match`, a
`try`'s `else:` and a `with suppress(...)` body read with the exceptions they may catch, a
`map(...)` a `for` loop consumes or of a registrar bound to a name, annotations a decorator
writes through a name or as a string, and the tools `MCPServer(tools=[...])` keeps (the last of
a name, where `add_tool` keeps the first).

The projects are s16's (`app/tools.py` with `bad`, `good`, `good2`; `app/main.py` registering
some of them), started under the SDK by s16's script (`test_the_sdk_says`) and linted by
`test_lint_agrees` (`lint .`, each file alone) and `test_cached_and_parallel_runs_agree`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import test_attack_s15 as s15
import test_attack_s16 as s16
from conftest import write_files
from mcpdeps.resolver_core import build_graph
from mcpdeps.resolver_core.graph_json import graph_document
from published_shapes import PROJECT, WARNINGS_KEPT, found, with_known_gaps
from test_attack_s15 import DUPLICATE, ERROR, HEAD, REFUSED, TOOLS

FINE: list[tuple[str, str]] = []
TOOL = "from mcp.server.mcpserver.tools import Tool\n\n"

# name -> (app/main.py after HEAD, what the SDK does, what lint . reports)
CASES: dict[str, tuple[str, object, list[tuple[str, str]]]] = {
    "match on a name of the row: a case that continues leaves it out": (
        'mcp = MCPServer("x")\nfor n, fn in (("a", good), ("b", bad)):\n    match n:\n        case "b" | "c":\n'
        "            continue\n    mcp.add_tool(fn, name=n)\n",
        [{"x": ["a"]}, []],
        FINE,
    ),
    "match with a wildcard case that breaks after the registration": (
        'mcp = MCPServer("x")\nfor fn in (good, bad):\n    mcp.add_tool(fn)\n    match fn:\n        case _:\n'
        "            break\n",
        [{"x": ["good"]}, []],
        FINE,
    ),
    "match capturing the loop's own variable: not read as the loop's value": (
        'mcp = MCPServer("x")\nfor fn in (good, good2):\n    match bad:\n        case fn:\n            pass\n'
        "    mcp.add_tool(fn)\n",
        REFUSED,
        ERROR,
    ),
    "try's else breaks, but the body may raise what is caught first": (
        'mcp = MCPServer("x")\nfor fn in (good, bad):\n    try:\n        mcp.add_tool(fn)\n        {}["k"]\n'
        "    except KeyError:\n        continue\n    else:\n        break\n",
        REFUSED,
        ERROR,
    ),
    "break in the try body after the registration": (
        'mcp = MCPServer("x")\nfor fn in (good, bad):\n    try:\n        mcp.add_tool(fn)\n        break\n'
        "    except KeyError:\n        pass\n",
        [{"x": ["good"]}, []],
        FINE,
    ),
    "break in a with suppress body after a subscript it may suppress": (
        'from contextlib import suppress\n\nmcp = MCPServer("x")\nfor fn in (good, bad):\n    mcp.add_tool(fn)\n'
        '    with suppress(KeyError):\n        {"k": 1}["k"]\n        break\n',
        [{"x": ["good"]}, []],  # the key is there: mcpdeps, not knowing it, reads both values
        ERROR,
    ),
    "a for loop consuming a map of a registrar alias": (
        'mcp = MCPServer("x")\nadd = mcp.add_tool\nfor _ in map(add, (good, bad)):\n    pass\n',
        REFUSED,
        ERROR,
    ),
    "a for loop over a map that breaks at once": (
        'mcp = MCPServer("x")\nfor _ in map(mcp.add_tool, (good2, bad)):\n    break\n',
        [{"x": ["good2"]}, []],
        FINE,
    ),
    "a map of a name that is no registrar": (
        'mcp = MCPServer("x")\nshow = print\nlist(map(show, ()))\nmcp.add_tool(good)\n',
        [{"x": ["good"]}, []],
        FINE,
    ),
    # a registration naming no loop variable, once per turn
    "fixed registration under a test of the names loop: once": (
        'mcp = MCPServer("x")\nfor n in ("a", "b"):\n    if n == "a":\n        mcp.add_tool(good2, name="same")\n',
        [{"x": ["same"]}, []],
        FINE,
    ),
    "fixed registration in a loop that breaks after it: once": (
        'mcp = MCPServer("x")\nfor n in ("a", "b"):\n    mcp.add_tool(good2, name="same")\n    break\n',
        [{"x": ["same"]}, []],
        FINE,
    ),
    "fixed registration in a loop over one value: once": (
        'mcp = MCPServer("x")\nfor n in ("a",):\n    mcp.add_tool(good2)\n',
        [{"x": ["good2"]}, []],
        FINE,
    ),
    "fixed registration in a comprehension over two values: twice": (
        'mcp = MCPServer("x")\n[mcp.add_tool(good2) for _ in (1, 2)]\n',
        [{"x": ["good2"]}, ["Tool already exists: good2"]],
        DUPLICATE,
    ),
    "a None name a loop takes is the function's": (
        'mcp = MCPServer("x")\nfor f, n in ((good, None), (good2, "good")):\n    mcp.add_tool(f, name=n)\n',
        [{"x": ["good"]}, ["Tool already exists: good"]],
        DUPLICATE,
    ),
    "decorated def named by a names loop over another module's list": (
        'from app.lib import NAMES\n\nmcp = MCPServer("x")\nfor n in NAMES:\n\n    @mcp.tool(name=n)\n'
        '    def t(x: int) -> str:\n        return str(x)\n\n\nmcp.add_tool(good, name="b")\n',
        [{"x": ["a", "b"]}, ["Tool already exists: b"]],
        DUPLICATE,
    ),
    # the tools the constructor keeps: the last of a name (`test_the_constructor_keeps_the_last_tool`)
    "tools= comprehension of two functions under one name": (
        TOOL + 'mcp = MCPServer("x", tools=[Tool.from_function(f, name="same") for f in (good2, good)])\n',
        [{"x": ["same"]}, ["Tool already exists: same"]],
        DUPLICATE,
    ),
    "tools= list of two functions under one name": (
        TOOL + 'mcp = MCPServer("x", tools=[Tool.from_function(good2, name="same"), '
        'Tool.from_function(good, name="same")])\n',
        [{"x": ["same"]}, ["Tool already exists: same"]],
        DUPLICATE,
    ),
    "tools= comprehension naming from zip, one name twice among three": (
        TOOL + 'mcp = MCPServer("x", tools=[Tool.from_function(f, name=n) for f, n in '
        'zip((good, good2, good), ("a", "b", "a"))])\n',
        [{"x": ["a", "b"]}, ["Tool already exists: a"]],
        DUPLICATE,
    ),
    "tools= comprehension, then add_tool of the name it keeps": (
        TOOL + 'mcp = MCPServer("x", tools=[Tool.from_function(f, name="same") for f in (good, good2)])\n'
        'mcp.add_tool(good, name="same")\n',
        [{"x": ["same"]}, ["Tool already exists: same", "Tool already exists: same"]],
        [*DUPLICATE, *DUPLICATE],
    ),
}

EXTRA: dict[str, dict[str, str]] = {
    "decorated def named by a names loop over another module's list": {"app/lib.py": 'NAMES = ("a", "b")\n'}
}
_GATES = (
    s16.GATE
    + "from mcp.types import InputRequiredResult\n\n\n"
    + 'def ask(fn):\n    ann = fn.__annotations__\n    ann["return"] = InputRequiredResult | str\n    return fn\n\n\n'
    + 'def stringly(fn):\n    fn.__annotations__["d"] = "Annotated[str, Resolve(load_d)]"\n    return fn\n\n\n'
    + 'def twice(fn):\n    ann = fn.__annotations__\n    ann = {}\n    ann["d"] = str\n    return fn\n'
)
CASES |= {
    "decorator writing the return through a local name": (
        "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\nfrom app.gates import ask\n"
        'from app.tools import load_ok\n\nmcp = MCPServer("x")\n\n\n@mcp.tool()\n@ask\n'
        "def t(x: int, d: Annotated[str, Resolve(load_ok)]) -> str:\n    return d\n",
        REFUSED,
        [("MCPD005", "app/main.py")],
    ),
    "decorator writing a string the tool's module evaluates": (
        "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\nfrom app.gates import stringly\n"
        'from app.tools import load_d\n\nmcp = MCPServer("x")\n\n\n@mcp.tool()\n@stringly\n'
        "def t(x: int, d: str) -> str:\n    return d\n",
        REFUSED,  # R2: `load_d(nope)`, evaluated in app/main.py where it is imported
        ERROR,
    ),
}
for _name in list(CASES)[-2:]:
    EXTRA[_name] = {"app/gates.py": _GATES}

# an `MCPServer` subclass registering on `self` (app/notes.py), instantiated in app/main.py
_SUBCLASS = "from mcp.server import MCPServer\n\nfrom app.tools import bad, good, good2\n\n\n"
_NOTES = (
    "class NotesServer(MCPServer):\n    def __init__(self) -> None:\n"
    '        super().__init__("notes")\n        self.add_tool(self.list_notes)\n{more}\n'
    "    def list_notes(self, folder: str) -> str:\n        return folder\n"
)
_SUBCLASSES = {
    "subclass instance bound in another module": (
        "from app.notes import NotesServer\n\nserver = NotesServer()\n",
        [{"notes": ["list_notes"]}, []],
        FINE,
        _NOTES.format(more=""),
    ),
    "subclass instantiated twice": (
        "from app.notes import NotesServer\n\nserver = NotesServer()\nspare = NotesServer()\n",
        [{"notes": ["list_notes"]}, []],
        FINE,
        _NOTES.format(more=""),
    ),
    "subclass registering the refused tool": (
        "from app.notes import NotesServer\n\nserver = NotesServer()\n",
        REFUSED,
        ERROR,
        _NOTES.format(more="        self.add_tool(bad)\n"),
    ),
    "subclass registering one name twice": (
        "from app.notes import NotesServer\n\nserver = NotesServer()\n",
        [{"notes": ["good", "list_notes"]}, ["Tool already exists: good"]],
        [("MCPD110", "app/notes.py")],
        _NOTES.format(more='        self.add_tool(good)\n        self.add_tool(good2, name="good")\n'),
    ),
    "subclass without an __init__, named by its call": (
        'from app.notes import Plain\n\nserver = Plain("plain")\nserver.setup()\nserver.add_tool(good)\n',
        [{"plain": ["good", "good2"]}, []],
        FINE,
        "class Plain(MCPServer):\n    def setup(self) -> None:\n        self.add_tool(good2)\n",
    ),
}
for _name, (_main, _says, _lint, _notes) in _SUBCLASSES.items():
    CASES[_name] = (_main, _says, _lint)
    EXTRA[_name] = {"app/notes.py": _SUBCLASS + _notes}

GAPS: dict[tuple[str, str], str] = {
    ("lint", "match capturing the loop's own variable: not read as the loop's value"): (
        "MCPD002 missed: the SDK registers `bad` (`case fn:` rebinds the loop's variable); mcpdeps "
        "reads `mcp.add_tool(fn)` as each value of the loop, as it does after `fn = bad` in the body "
        "(a loop variable bound again in the body is not followed)"
    ),
}


def _project(root: Path, name: str) -> None:
    write_files(
        root, {**PROJECT, "app/tools.py": TOOLS, "app/main.py": HEAD + CASES[name][0], **EXTRA.get(name, {})}
    )


@pytest.mark.parametrize("name", list(CASES))
def test_the_sdk_says(tmp_path: Path, name: str) -> None:
    _project(tmp_path, name)
    s15.the_sdk_says(tmp_path, CASES[name][1], s16.STARTED)


@pytest.mark.parametrize("name", with_known_gaps("lint", list(CASES), GAPS))
def test_lint_agrees(tmp_path: Path, name: str) -> None:
    _project(tmp_path, name)
    every = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.py"))
    s15.lint_agrees(tmp_path, CASES[name][2], every)


@pytest.mark.parametrize("name", with_known_gaps("runs", list(CASES), GAPS))
def test_cached_and_parallel_runs_agree(tmp_path: Path, name: str) -> None:
    root = tmp_path / "p"
    _project(root, name)
    cold = found(root, ["."])
    cache = tmp_path / "cache"
    assert found(root, ["."], cache) == cold
    assert found(root, ["."], cache) == cold
    assert found(root, ["."], jobs=2) == cold


KEPT = (
    WARNINGS_KEPT
    + """
import gc
import app.main
from mcp.server import MCPServer
print(json.dumps({o.name: {t.name: t.fn.__qualname__ for t in o._tool_manager.list_tools()}
                  for o in gc.get_objects() if isinstance(o, MCPServer)}))
"""
)
"""Each server the SDK starts, its tools by name with the function each one calls."""


@pytest.mark.parametrize(
    "name",
    [n for n in CASES if (n.startswith("tools=") or n in _SUBCLASSES) and CASES[n][1] != REFUSED],
)
def test_the_static_graph_calls_what_the_sdk_calls(tmp_path: Path, name: str) -> None:
    """Each server's tools, by name, call the function the SDK's server calls: `MCPServer(tools=
    [...])` keeps the last tool of a name (`add_tool` the first), for a list written out and for
    a comprehension (which showed the first before); an instance of a subclass registering its
    methods on `self` is one server, named as its `__init__` names it, holding them (drawn
    before as the class's server beside an empty one)."""
    _project(tmp_path, name)
    ran = subprocess.run([sys.executable, "-c", KEPT], cwd=tmp_path, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    drawn = graph_document(build_graph(["."], cwd=tmp_path))
    static = {
        s["name"]: {t["name"]: t["function"] for t in s["tools"]}
        for s in drawn["servers"]  # type: ignore[index]
    }
    assert static == json.loads(ran.stdout)


def test_annotation_writes_not_read_are_said(tmp_path: Path) -> None:
    """A name bound to the annotations twice (`ann = fn.__annotations__; ann = {}`): what is
    written through it is not read as the decorator's annotations, and said (MCPD113)."""
    main = 'from app.gates import twice\n\nmcp = MCPServer("x")\n\n\n@mcp.tool()\n@twice\ndef t(x: int) -> str:\n'
    write_files(tmp_path, {**PROJECT, "app/tools.py": TOOLS, "app/main.py": HEAD + main + "    return ''\n"})
    write_files(tmp_path, {"app/gates.py": _GATES})
    said = [d for d in found(tmp_path, ["."]) if d["code"] == "MCPD113"]
    assert len(said) == 1 and "does not read" in str(said[0]["message"]), said
