"""Adversarial cases against the s16 analysis (servers in dicts keyed by constant names, one
function registered under each listed name, `map` over several iterables and `all`/`any` of
one, loops over `zip`, a `break` with no `if`, decorators writing `__annotations__`,
comprehensions as `tools=`, joined lists, names built from a helper's parameter), each checked
against the SDK.

Each case is a small project: `app/tools.py` defines `bad` (its resolver `load_d(nope)` the
SDK refuses), `good` and `good2`; `app/main.py` registers some of them. `test_the_sdk_says`
starts the server under the real SDK (`import app.main`) and checks what it registers (or
that it refuses the server): the oracle each expectation was read from. `test_lint_agrees`
checks that `lint .` reports what the SDK does (MCPD002 where it refuses, MCPD110 where it
logs a duplicate, no other error or warning; an info saying what is not analysed is no
verdict), that each file linted alone reports the same there, and that a cached run and
`-j 2` report what a cold one does. Cases mcpdeps still gets wrong are strict xfails saying how.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import test_attack_s15 as s15
from conftest import write_files
from published_shapes import PROJECT, found, with_known_gaps
from test_attack_s15 import DUPLICATE, ERROR, HEAD, REFUSED, TOOLS

STARTED = s15.STARTED.replace(
    "    import app.main\n",
    "    import app.main\n    import importlib.util\n"
    '    if importlib.util.find_spec("app.other"):  # a second entry point, run too\n'
    "        import app.other\n",
)
"""The server started under the SDK (s15's oracle, `app/other.py` run too when there is one):
"refused", or its servers' tools and the duplicate warnings."""
assert STARTED != s15.STARTED

FINE: list[tuple[str, str]] = []

GATE = (
    "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
    "from app.tools import load_d, load_ok\n\n\n"
)
"""The start of `app/gates.py`, a module of decorators writing annotations (`EXTRA` files)."""

# name -> (app/main.py after HEAD, what the SDK does, what lint . reports)
CASES: dict[str, tuple[str, object, list[tuple[str, str]]]] = {
    # servers in dicts keyed by constant names
    "dict key name rebound after the dict is made": (
        'KEY = "admin"\nSERVERS = {KEY: MCPServer("admin"), "public": MCPServer("public")}\nKEY = "public"\n'
        'SERVERS["admin"].add_tool(good)\nSERVERS[KEY].add_tool(good)\n',
        [{"admin": ["good"], "public": ["good"]}, []],
        FINE,
    ),
    "dict with the key written twice: the later entry wins": (
        'KEY = "admin"\nSERVERS = {KEY: MCPServer("first"), "admin": MCPServer("second")}\n'
        'SERVERS[KEY].add_tool(good)\nSERVERS["admin"].add_tool(good)\n',
        [{"first": [], "second": ["good"]}, ["Tool already exists: good"]],
        DUPLICATE,
    ),
    "dict keyed by 1 read with True": (
        'ONE = 1\nSERVERS = {ONE: MCPServer("one"), 2: MCPServer("two")}\nSERVERS[True].add_tool(good)\n'
        "SERVERS[2].add_tool(good)\n",
        [{"one": ["good"], "two": ["good"]}, []],
        FINE,
    ),
    "dict key a name bound to itself in a function never called": (
        'SERVERS = {"a": MCPServer("a")}\n\n\ndef never():\n    K = K\n    SERVERS[K].add_tool(good)\n',
        [{"a": []}, []],
        FINE,
    ),
    # one function under each listed name
    "names loop with the name derived, not the variable": (
        'mcp = MCPServer("x")\nfor n in ("a", "b"):\n    mcp.add_tool(good2, name=n.upper())\n'
        'mcp.add_tool(good, name="a")\n',
        [{"x": ["A", "B", "a"]}, []],
        FINE,
    ),
    "names loop over an empty tuple registers nothing": (
        'mcp = MCPServer("x")\nfor n in ():\n    mcp.add_tool(bad, name=n)\n',
        [{"x": []}, []],
        FINE,
    ),
    "names loop that breaks after its first name": (
        'mcp = MCPServer("x")\nfor n in ("a", "b"):\n    mcp.add_tool(good2, name=n)\n    break\n'
        'mcp.add_tool(good, name="b")\n',
        [{"x": ["a", "b"]}, []],
        FINE,
    ),
    "names loop outside a loop over functions": (
        'mcp = MCPServer("x")\nfor n in ("a", "b"):\n    for fn in (good, good2):\n        mcp.add_tool(fn, name=n)\n',
        [{"x": ["a", "b"]}, ["Tool already exists: a", "Tool already exists: b"]],
        [*DUPLICATE, *DUPLICATE],
    ),
    "names loop with a fixed name: a duplicate": (
        'mcp = MCPServer("x")\nfor n in ("a", "b"):\n    mcp.add_tool(good2, name="same")\n',
        [{"x": ["same"]}, ["Tool already exists: same"]],
        DUPLICATE,
    ),
    "names loop over a decorated def, the name taken twice left out": (
        'mcp = MCPServer("x")\nfor n in ("a", "b"):\n    if n == "a":\n        continue\n\n'
        '    @mcp.tool(name=n)\n    def t(x: int) -> str:\n        return str(x)\n\n\nmcp.add_tool(good, name="a")\n',
        [{"x": ["a", "b"]}, []],
        FINE,
    ),
    "names loop over a decorated def, a name taken twice": (
        'mcp = MCPServer("x")\nfor n in ("a", "b"):\n\n    @mcp.tool(name=n)\n    def t(x: int) -> str:\n'
        '        return str(x)\n\n\nmcp.add_tool(good, name="a")\n',
        [{"x": ["a", "b"]}, ["Tool already exists: a"]],
        DUPLICATE,
    ),
    "dict read with get() of a constant name": (
        'KEY = "admin"\nSERVERS = {"admin": MCPServer("admin"), "public": MCPServer("public")}\n'
        'SERVERS.get(KEY).add_tool(good)\nSERVERS.get("public").add_tool(good)\nSERVERS["admin"].add_tool(good2, name="good")\n',
        [{"admin": ["good"], "public": ["good"]}, ["Tool already exists: good"]],
        DUPLICATE,
    ),
    "names from enumerate": (
        'mcp = MCPServer("x")\nfor i, n in enumerate(("a", "b")):\n    mcp.add_tool(good2, name=n)\n'
        'mcp.add_tool(good, name="c")\n',
        [{"x": ["a", "b", "c"]}, []],
        FINE,
    ),
    "name from the loop variable with a !r conversion": (
        'mcp = MCPServer("x")\nfor fn in (good, good2):\n    mcp.add_tool(fn, name=f"{fn.__name__!r}")\n'
        'mcp.add_tool(good2, name="good")\n',
        [{"x": ["'good'", "'good2'", "good"]}, []],
        FINE,
    ),
    # map over several iterables, all / any
    "map over two iterables, names a string's characters": (
        'mcp = MCPServer("x")\nlist(map(mcp.add_tool, (good, good2), "ab"))\n',
        [{"x": ["a", "b"]}, []],
        FINE,
    ),
    "map over three iterables: the third is the title": (
        'mcp = MCPServer("x")\nlist(map(mcp.add_tool, (good, good2), ("a", "b"), ("T", "T")))\n',
        [{"x": ["a", "b"]}, []],
        FINE,
    ),
    "all() over a map of an empty tuple": (
        'mcp = MCPServer("x")\nall(map(mcp.add_tool, ()))\nmcp.add_tool(good)\n',
        [{"x": ["good"]}, []],
        FINE,
    ),
    "all() over a map over two iterables stops after the first": (
        'mcp = MCPServer("x")\nall(map(mcp.add_tool, (good, bad), ("a", "b")))\n',
        [{"x": ["a"]}, []],
        FINE,
    ),
    "a for loop consuming a map runs every call": (
        'mcp = MCPServer("x")\nfor _ in map(mcp.add_tool, (good, bad)):\n    pass\n',
        REFUSED,
        ERROR,
    ),
    "map of the decorator over two iterables is a TypeError": (
        'mcp = MCPServer("x")\ntry:\n    list(map(mcp.tool(), (bad,), ("a",)))\nexcept TypeError:\n    pass\n',
        [{"x": []}, []],
        FINE,
    ),
    "map over two iterables, a None name is the function's": (
        'mcp = MCPServer("x")\nlist(map(mcp.add_tool, (good, good2), (None, "good")))\n',
        [{"x": ["good"]}, ["Tool already exists: good"]],
        DUPLICATE,
    ),
    "map over a starred pair of iterables": (
        'mcp = MCPServer("x")\nPAIRS = ((good, good2), ("a", "a"))\nlist(map(mcp.add_tool, *PAIRS))\n',
        [{"x": ["a"]}, ["Tool already exists: a"]],
        DUPLICATE,
    ),
    "map of add_tool through a registrar alias": (
        'mcp = MCPServer("x")\nadd = mcp.add_tool\nlist(map(add, (good, bad)))\n',
        REFUSED,
        ERROR,
    ),
    "map with the names first: a name is the function": (
        'mcp = MCPServer("x")\ntry:\n    list(map(mcp.add_tool, ("a",), (bad,)))\nexcept Exception:\n    pass\n',
        [{"x": []}, []],
        FINE,
    ),
    # loops over zip
    "zip of a list with itself": (
        'mcp = MCPServer("x")\nA = [good, good2]\nfor f, g in zip(A, A):\n    mcp.add_tool(f, name=g.__name__ + "_x")\n',
        [{"x": ["good2_x", "good_x"]}, []],
        FINE,
    ),
    "zip with strict= keyword": (
        'mcp = MCPServer("x")\nfor f, n in zip((good, good2), ("a", "b"), strict=True):\n    mcp.add_tool(f, name=n)\n'
        'mcp.add_tool(good, name="c")\n',
        [{"x": ["a", "b", "c"]}, []],
        FINE,
    ),
    "zip of one collection": (
        'mcp = MCPServer("x")\nfor (f,) in zip((good, bad)):\n    mcp.add_tool(f)\n',
        REFUSED,
        ERROR,
    ),
    "zip of lists from two scopes": (
        'NAMES = ("a", "b")\n\n\ndef setup(server):\n    fns = (good2, good)\n    for f, n in zip(fns, NAMES):\n'
        '        server.add_tool(f, name=n)\n\n\nmcp = MCPServer("x")\nsetup(mcp)\nmcp.add_tool(good, name="c")\n',
        [{"x": ["a", "b", "c"]}, []],
        FINE,
    ),
    # break with no if
    "break in an inner loop leaves the outer one going": (
        'mcp = MCPServer("x")\nfor fn in (good, bad):\n    for _ in range(3):\n        break\n    mcp.add_tool(fn)\n',
        REFUSED,
        ERROR,
    ),
    "break in a while inside the loop": (
        'mcp = MCPServer("x")\nfor fn in (good, bad):\n    mcp.add_tool(fn)\n    while True:\n        break\n',
        REFUSED,
        ERROR,
    ),
    "break before the registration": (
        'mcp = MCPServer("x")\nfor fn in (bad, good):\n    break\n    mcp.add_tool(fn)\n',
        [{"x": []}, []],
        FINE,
    ),
    "break in a with block after the registration": (
        'import contextlib\n\nmcp = MCPServer("x")\nfor fn in (good, bad):\n    with contextlib.suppress(KeyError):\n'
        "        mcp.add_tool(fn)\n        break\n",
        [{"x": ["good"]}, []],
        FINE,
    ),
    "break in a with block after an exception it suppresses": (
        'import contextlib\n\nmcp = MCPServer("x")\nfor fn in (good, bad):\n    with contextlib.suppress(KeyError):\n'
        '        {}["k"]\n        break\n    mcp.add_tool(fn)\n',
        REFUSED,
        ERROR,
    ),
    "break in a match case guarded by the value": (
        'mcp = MCPServer("x")\nfor fn in (good, bad):\n    match fn:\n        case f if f is bad:\n            break\n'
        "    mcp.add_tool(fn)\n",
        [{"x": ["good"]}, []],
        FINE,
    ),
    "break in try's else after the registration": (
        'mcp = MCPServer("x")\nfor fn in (good, bad):\n    try:\n        mcp.add_tool(fn)\n    except KeyError:\n'
        "        continue\n    else:\n        break\n",
        [{"x": ["good"]}, []],
        FINE,
    ),
    "break in the else of a loop over an empty tuple": (
        'mcp = MCPServer("x")\nfor fn in ():\n    break\nelse:\n    mcp.add_tool(bad)\n',
        REFUSED,
        ERROR,
    ),
    # joined lists
    "joined list of a list rebound after the join": (
        'mcp = MCPServer("x")\nA = [good]\nALL = [*A, good2]\nA = [bad]\nfor f in ALL:\n    mcp.add_tool(f)\n',
        [{"x": ["good", "good2"]}, []],
        FINE,
    ),
    "joined list unpacking a dict: its keys": (
        'mcp = MCPServer("x")\nD = {good: "a", good2: "b"}\nfor f in [*D]:\n    mcp.add_tool(f)\n',
        [{"x": ["good", "good2"]}, []],
        FINE,
    ),
    "joined list unpacking one list twice": (
        'mcp = MCPServer("x")\nA = [good]\nfor f in [*A, *A]:\n    mcp.add_tool(f)\n',
        [{"x": ["good"]}, ["Tool already exists: good"]],
        DUPLICATE,
    ),
    "joined list growing itself": (
        'mcp = MCPServer("x")\nA = [good]\nA = [*A, good2]\nfor f in A:\n    mcp.add_tool(f)\n',
        [{"x": ["good", "good2"]}, []],
        FINE,
    ),
    "joined lists unpacking each other in a function never called": (
        "def never(server):\n    A = [*B]\n    B = [*A]\n    for f in A:\n        server.add_tool(f)\n\n\n"
        'mcp = MCPServer("x")\n',
        [{"x": []}, []],
        FINE,
    ),
    "joined list of a list emptied before the loop": (
        'mcp = MCPServer("x")\nA = [bad]\nALL = [*A, good]\nALL.remove(bad)\nfor f in ALL:\n    mcp.add_tool(f)\n',
        [{"x": ["good"]}, []],
        FINE,
    ),
    "joined tuple of a zip": (
        'mcp = MCPServer("x")\nfor f, n in (*zip((good, good2), ("a", "b")),):\n    mcp.add_tool(f, name=n)\n'
        'mcp.add_tool(good, name="c")\n',
        [{"x": ["a", "b", "c"]}, []],
        FINE,
    ),
    # names built from a helper's parameter
    "helper prefix with a !r conversion": (
        'def register(server, prefix="kb_"):\n    server.add_tool(good2, name=f"{prefix!r}search")\n\n\n'
        'mcp = MCPServer("x")\nregister(mcp)\nmcp.add_tool(good, name="kb_search")\n',
        [{"x": ["'kb_'search", "kb_search"]}, []],
        FINE,
    ),
    "helper prefix given by a partial": (
        'import functools\n\n\ndef register(server, prefix="kb_"):\n    server.add_tool(good2, name=f"{prefix}search")\n\n\n'
        'mcp = MCPServer("x")\nregister(mcp)\nfunctools.partial(register, prefix="b_")(mcp)\n',
        [{"x": ["b_search", "kb_search"]}, []],
        FINE,
    ),
    "helper called twice with the same prefix": (
        'def register(server, prefix="kb_"):\n    server.add_tool(good2, name=f"{prefix}search")\n\n\n'
        'mcp = MCPServer("x")\nregister(mcp)\nregister(mcp, prefix="kb_")\n',
        [{"x": ["kb_search"]}, ["Tool already exists: kb_search"]],
        DUPLICATE,
    ),
    "helper prefix given by a name": (
        'P = "a_"\n\n\ndef register(server, prefix="kb_"):\n    server.add_tool(good2, name=f"{prefix}search")\n\n\n'
        'mcp = MCPServer("x")\nregister(mcp)\nregister(mcp, P)\n',
        [{"x": ["a_search", "kb_search"]}, []],
        FINE,
    ),
    "helper prefix on two servers": (
        'def register(server, prefix="kb_"):\n    server.add_tool(good2, name=f"{prefix}search")\n\n\n'
        'a = MCPServer("a")\nb = MCPServer("b")\nregister(a)\nregister(b)\n',
        [{"a": ["kb_search"], "b": ["kb_search"]}, []],
        FINE,
    ),
    # tools= comprehensions
    "tools= comprehension leaving the refused tool out": (
        "from mcp.server.mcpserver.tools import Tool\n\n"
        'mcp = MCPServer("x", tools=[Tool.from_function(f) for f in (good, bad) if f is not bad])\n',
        [{"x": ["good"]}, []],
        FINE,
    ),
    "tools= comprehension whose variable shadows the refused tool": (
        "from mcp.server.mcpserver.tools import Tool\n\n"
        'mcp = MCPServer("x", tools=[Tool.from_function(bad) for bad in (good, good2)])\n',
        [{"x": ["good", "good2"]}, []],
        FINE,
    ),
    "tools= comprehension over an empty tuple": (
        "from mcp.server.mcpserver.tools import Tool\n\n"
        'mcp = MCPServer("x", tools=[Tool.from_function(bad) for _ in ()])\n',
        [{"x": []}, []],
        FINE,
    ),
    "tools= comprehension of one tool twice": (
        "from mcp.server.mcpserver.tools import Tool\n\n"
        'mcp = MCPServer("x", tools=[Tool.from_function(f) for f in (good, good)])\n',
        [{"x": ["good"]}, ["Tool already exists: good"]],
        DUPLICATE,
    ),
    "tools= nested comprehension": (
        "from mcp.server.mcpserver.tools import Tool\n\n"
        'mcp = MCPServer("x", tools=[Tool.from_function(f) for g in ((good,), (bad,)) for f in g])\n',
        REFUSED,
        ERROR,
    ),
    "tools= comprehension naming from zip": (
        "from mcp.server.mcpserver.tools import Tool\n\n"
        'mcp = MCPServer("x", tools=[Tool.from_function(f, name=n) for f, n in zip((good, good2), ("a", "a"))])\n',
        [{"x": ["a"]}, ["Tool already exists: a"]],
        DUPLICATE,
    ),
}

EXTRA: dict[str, dict[str, str]] = {}
"""Files beside `app/main.py` some cases need (their decorators)."""

# annotations written by decorators (in app/gates.py)
CASES |= {
    "decorator writes an annotation for a parameter the tool lacks": (
        "from app.gates import gated\n\n"
        'mcp = MCPServer("x")\n\n\n@mcp.tool()\n@gated\ndef t(x: int) -> str:\n    return str(x)\n',
        [{"x": ["t"]}, []],
        FINE,
    ),
    "decorator writing after the registration": (
        "from app.gates import gated\n\n"
        'mcp = MCPServer("x")\n\n\n@gated\n@mcp.tool()\ndef t(x: int, d: str) -> str:\n    return d\n',
        [{"x": ["t"]}, []],
        FINE,
    ),
    "decorator factory writing the resolver it is given": (
        "from app.gates import gated_by\nfrom app.tools import load_ok\n\n"
        'mcp = MCPServer("x")\n\n\n@mcp.tool()\n@gated_by(load_ok)\ndef t(x: int, d: str) -> str:\n    return d\n',
        [{"x": ["t"]}, []],
        FINE,
    ),
    "decorator overwriting the refused Resolve with str": (
        "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\nfrom app.gates import plain\n"
        "from app.tools import load_d\n\n"
        'mcp = MCPServer("x")\n\n\n@mcp.tool()\n@plain\ndef t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n'
        "    return d\n",
        [{"x": ["t"]}, []],
        FINE,
    ),
    "decorator writing a string annotation read in the tool's module": (
        "from app.gates import stringly\n\n"
        'mcp = MCPServer("x")\n\n\n@mcp.tool()\n@stringly\ndef t(x: int, d: str) -> str:\n    return d\n',
        REFUSED,  # T3: `Annotated` is no name of app/main.py, where the SDK evaluates the string
        [("MCPD009", "app/main.py")],
    ),
}
_GATES = (
    GATE
    + 'def gated(fn):\n    fn.__annotations__["d"] = Annotated[str, Resolve(load_d)]\n    return fn\n\n\n'
    + 'def gated_by(resolver):\n    def deco(fn):\n        fn.__annotations__["d"] = Annotated[str, Resolve(resolver)]\n'
    + "        return fn\n\n    return deco\n\n\n"
    + 'def plain(fn):\n    fn.__annotations__["d"] = str\n    return fn\n\n\n'
    + 'def stringly(fn):\n    fn.__annotations__["d"] = "Annotated[str, Resolve(load_ok)]"\n    return fn\n'
)
for _name in list(CASES)[-5:]:
    EXTRA[_name] = {"app/gates.py": _GATES}

# annotations written by decorators in other shapes (in app/gates2.py)
_GATES2 = (
    GATE
    + "from mcp.types import InputRequiredResult\n\n\n"
    + 'def aliased(fn):\n    ann = fn.__annotations__\n    ann["d"] = Annotated[str, Resolve(load_d)]\n    return fn\n\n\n'
    + 'def aliased_plain(fn):\n    ann = fn.__annotations__\n    ann["d"] = str\n    return fn\n\n\n'
    + "def local_resolver(fn):\n    r = load_ok\n"
    + '    fn.__annotations__["d"] = Annotated[str, Resolve(r)]\n    return fn\n\n\n'
    + 'def asks_input(fn):\n    fn.__annotations__["return"] = InputRequiredResult | str\n    return fn\n'
)
CASES |= {
    "decorator writing the refused Resolve through a local name": (
        "from app.gates2 import aliased\n\n"
        'mcp = MCPServer("x")\n\n\n@mcp.tool()\n@aliased\ndef t(x: int, d: str) -> str:\n    return d\n',
        REFUSED,
        ERROR,
    ),
    "decorator overwriting the refused Resolve through a local name": (
        "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\nfrom app.gates2 import aliased_plain\n"
        "from app.tools import load_d\n\n"
        'mcp = MCPServer("x")\n\n\n@mcp.tool()\n@aliased_plain\ndef t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n'
        "    return d\n",
        [{"x": ["t"]}, []],
        FINE,
    ),
    "decorator writing a Resolve of a local name": (
        "from app.gates2 import local_resolver\n\n"
        'mcp = MCPServer("x")\n\n\n@mcp.tool()\n@local_resolver\ndef t(x: int, d: str) -> str:\n    return d\n',
        [{"x": ["t"]}, []],
        FINE,
    ),
    "decorator writing an InputRequiredResult return beside a Resolve": (
        "from app.gates2 import asks_input\n\n"
        'mcp = MCPServer("x")\n\n\n@mcp.tool()\n@asks_input\ndef t(x: int, d: Annotated[str, Resolve(load_ok)]) -> str:\n'
        "    return d\n",
        REFUSED,
        [("MCPD005", "app/main.py")],
    ),
}
for _name in list(CASES)[-4:]:
    EXTRA[_name] = {"app/gates2.py": _GATES2}
CASES["decorator writing an InputRequiredResult return beside a Resolve"] = (
    "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\nfrom app.tools import load_ok\n"
    + CASES["decorator writing an InputRequiredResult return beside a Resolve"][0],
    *CASES["decorator writing an InputRequiredResult return beside a Resolve"][1:],
)

# a helper naming its tool from its parameter, called from two modules (app/kb.py, app/other.py)
CASES |= {
    "helper prefix: each caller's server gets the name its call gives": (
        'from app.kb import register\n\nmcp = MCPServer("x")\nregister(mcp)\nmcp.add_tool(good, name="kb_search")\n',
        [{"o": ["x_search"], "x": ["kb_search"]}, ["Tool already exists: kb_search"]],
        DUPLICATE,
    ),
    "helper prefix: each caller's server gets the name its call gives, decorated": (
        'from app.kb import decorate\n\nmcp = MCPServer("x")\ndecorate(mcp)\nmcp.add_tool(good, name="kb_search")\n',
        [{"o": ["x_search"], "x": ["kb_search"]}, ["Tool already exists: kb_search"]],
        DUPLICATE,
    ),
}
_KB = {
    "app/kb.py": (
        'from app.tools import good2\n\n\ndef register(server, prefix="kb_"):\n'
        '    server.add_tool(good2, name=f"{prefix}search")\n\n\n'
        'def decorate(server, prefix="kb_"):\n    @server.tool(name=f"{prefix}search")\n'
        "    def search(x: int) -> str:\n        return str(x)\n"
    ),
}
EXTRA["helper prefix: each caller's server gets the name its call gives"] = {
    **_KB,
    "app/other.py": 'from mcp.server import MCPServer\n\nfrom app.kb import register\n\nother = MCPServer("o")\n'
    'register(other, prefix="x_")\n',
}
EXTRA["helper prefix: each caller's server gets the name its call gives, decorated"] = {
    **_KB,
    "app/other.py": 'from mcp.server import MCPServer\n\nfrom app.kb import decorate\n\nother = MCPServer("o")\n'
    'decorate(other, prefix="x_")\n',
}
# servers keyed and lists joined in another module (app/lib.py)
_LIB_SERVERS = {"admin": [], "public": []}
CASES |= {
    "dict keyed by another module's constant": (
        'from app.lib import SERVERS\n\nSERVERS["admin"].add_tool(good)\nSERVERS["public"].add_tool(good)\n',
        [{"admin": ["good"], "public": ["good"]}, []],
        FINE,
    ),
    "dict keyed by another module's constant, one entry twice": (
        'from app.lib import KEY, SERVERS\n\nSERVERS[KEY].add_tool(good)\nSERVERS["admin"].add_tool(good2, name="good")\n',
        [{"admin": ["good"], "public": []}, ["Tool already exists: good"]],
        DUPLICATE,
    ),
    "joined list of another module's lists": (
        'from app.lib import ALL\n\nmcp = MCPServer("x")\nfor f in ALL:\n    mcp.add_tool(f)\n',
        REFUSED,
        ERROR,
    ),
    "joined list of another module's lists, the refused one left out": (
        'from app.lib import ALL\n\nmcp = MCPServer("x")\nfor f in ALL:\n    if f is not bad:\n        mcp.add_tool(f)\n',
        [{"x": ["good", "good2"], **_LIB_SERVERS}, []],
        FINE,
    ),
    "joined list of another module's lists zipped with names": (
        'from app.lib import ALL, NAMES\n\nmcp = MCPServer("x")\nfor f, n in zip(ALL, NAMES):\n    mcp.add_tool(f, name=n)\n',
        [{"x": ["a", "b"], **_LIB_SERVERS}, []],
        FINE,
    ),
    "tools= comprehension over another module's joined list": (
        "from mcp.server.mcpserver.tools import Tool\n\nfrom app.lib import ALL\n\n\n"
        'def build():\n    return MCPServer("x", tools=[Tool.from_function(f) for f in ALL])\n\n\nmcp = build()\n',
        REFUSED,
        ERROR,
    ),
    "tools= comprehension over another module's joined list zipped with names": (
        "from mcp.server.mcpserver.tools import Tool\n\nfrom app.lib import ALL, NAMES\n\n"
        'mcp = MCPServer("x", tools=[Tool.from_function(f, name=n) for f, n in zip(ALL, NAMES) if f is not bad])\n',
        [{"x": ["a", "b"], **_LIB_SERVERS}, []],
        FINE,
    ),
    "a deep self-joining list does not hang": (
        'from app.lib import DEEP\n\nmcp = MCPServer("x")\nfor f in DEEP:\n    mcp.add_tool(f, name="t")\n',
        [{"x": ["t"], **_LIB_SERVERS}, ["Tool already exists: t"] * 255],
        DUPLICATE,
    ),
}
_LIB = (
    "from mcp.server import MCPServer\n\nfrom app.tools import bad, good, good2\n\n"
    'KEY = "admin"\nSERVERS = {KEY: MCPServer("admin"), "public": MCPServer("public")}\n'
    "A = [good]\nB = (good2, bad)\nALL = [*A, *B]\nNAMES = ('a', 'b')\n"
    "D0 = [good2]\n" + "".join(f"D{i + 1} = [*D{i}, *D{i}]\n" for i in range(8)) + "DEEP = D8\n"
)
for _name in list(CASES)[-8:]:
    EXTRA[_name] = {"app/lib.py": _LIB}

GAPS: dict[tuple[str, str], str] = {
    ("lint", "map over a starred pair of iterables"): (
        "MCPD110 missed: `map(mcp.add_tool, *PAIRS)` is read as a loop over `*PAIRS` (said not "
        "analysed, as the tools registered as 'map()': a name the source does not have)"
    ),
    ("lint", "joined list of a list rebound after the join"): (
        "false MCPD002: `[*A, good2]` reads `A`'s last binding in the module (`A = [bad]` after "
        "the join), not the one bound when the list is made; the same for `for f in A:` before "
        "`A = [bad]` and `B = A` (not new with joined lists)"
    ),
}


def _project(root: Path, name: str) -> None:
    main = CASES[name][0]
    write_files(root, {**PROJECT, "app/tools.py": TOOLS, "app/main.py": HEAD + main, **EXTRA.get(name, {})})


@pytest.mark.parametrize("name", list(CASES))
def test_the_sdk_says(tmp_path: Path, name: str) -> None:
    _project(tmp_path, name)
    s15.the_sdk_says(tmp_path, CASES[name][1], STARTED)


@pytest.mark.parametrize("name", with_known_gaps("lint", list(CASES), GAPS))
def test_lint_agrees(tmp_path: Path, name: str) -> None:
    _project(tmp_path, name)
    every = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.py"))
    s15.lint_agrees(tmp_path, CASES[name][2], every)


@pytest.mark.parametrize("name", with_known_gaps("runs", list(CASES), GAPS))
def test_cached_and_parallel_runs_agree(tmp_path: Path, name: str) -> None:
    _project(tmp_path / "p", name)
    root = tmp_path / "p"
    cold = found(root, ["."])
    cache = tmp_path / "cache"
    assert found(root, ["."], cache) == cold
    assert found(root, ["."], cache) == cold
    assert found(root, ["."], jobs=2) == cold


def test_a_wide_self_joining_list_is_not_read_value_by_value(tmp_path: Path) -> None:
    """Seven levels each unpacking the one below six times: 279,936 values from ten lines
    (a list Python makes at once), read one by one before (minutes); now not read, said so."""
    levels = "".join(f"D{i + 1} = [{', '.join([f'*D{i}'] * 6)}]\n" for i in range(7))
    main = HEAD + "D0 = [good2]\n" + levels + 'mcp = MCPServer("x")\nfor f in D7:\n    mcp.add_tool(f)\n'
    write_files(tmp_path, {**PROJECT, "app/tools.py": TOOLS, "app/main.py": main})
    started = time.monotonic()
    whole = found(tmp_path, ["."])
    assert time.monotonic() - started < 10
    assert [(d["code"], d["line"]) for d in whole] == [("MCPD113", 15)], whole
