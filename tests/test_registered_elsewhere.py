"""Tools registered by project code that hands out or applies the SDK's decorator elsewhere.

Published servers wrap the registration: a decorator factory of another module (`def tool():
return mcp.tool()`, used as `@h.tool()`), a registry object holding the server (`@reg.add`
calling `self.server.tool()(fn)`), a project decorator that happens to be named `tool`
(`@h.tool`, which is not the SDK's `server.tool` although it reads like it). The SDK registers
the tool in each, and refuses its bad resolver when `app.main` is imported: `lint .` must find
the same tool and say the same, and find nothing wrong when the resolver is fine.

The SDK is the oracle: one interpreter imports every project's `app.main` under the real `mcp`
(lint itself never imports it), and reports the error or the server's tools.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_mcpdeps

SERVER = "from mcp.server import MCPServer\n\nmcp = MCPServer('a')\n"
BAD_DEPS = "def load_d(nope: str) -> str:\n    return nope\n"
"""A resolver whose parameter names no tool argument: the SDK raises `InvalidSignature`."""
GOOD_DEPS = "def load_d(record_id: str) -> str:\n    return record_id\n"
IMPORTS = "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\nfrom app.deps import load_d\n"
TOOL = "def t(record: Annotated[str, Resolve(load_d)], record_id: str) -> str:\n    return record\n"
MAIN = "import app.tools  # noqa: F401\nfrom app.server import mcp as server\n"
REGISTRY = "from app.h import Registry\nfrom app.server import mcp\n\nreg = Registry(mcp)\n"


def _tools(imports: str, decorator: str) -> str:
    return f"{IMPORTS}{imports}\n\n{decorator}\n{TOOL}"


SHAPES: dict[str, tuple[dict[str, str], str]] = {
    "decorator factory": (
        {
            "app/h.py": "from app.server import mcp\n\n\ndef tool():\n    return mcp.tool()\n",
            "app/tools.py": _tools("from app import h\n", "@h.tool()"),
        },
        "t",
    ),
    "decorator factory passing a name": (
        {
            "app/h.py": "from app.server import mcp\n\n\ndef tool(name=None):\n    return mcp.tool(name=name)\n",
            "app/tools.py": _tools("from app import h\n", "@h.tool(name='x')"),
        },
        "x",
    ),
    "decorator factory passing a name by position": (
        {
            "app/h.py": "from app.server import mcp\n\n\ndef tool(name):\n    return mcp.tool(name)\n",
            "app/tools.py": _tools("from app import h\n", "@h.tool('x')"),
        },
        "x",
    ),
    "static method returning the SDK's decorator": (
        {
            "app/h.py": "from app.server import mcp\n\n\nclass Tools:\n    @staticmethod\n"
            "    def tool(name):\n        return mcp.tool(name=name)\n",
            "app/tools.py": _tools("from app.h import Tools\n", "@Tools.tool(name='x')"),
        },
        "x",
    ),
    "method registering on its server": (
        {
            "app/h.py": "class Registry:\n    def __init__(self, server):\n        self.server = server\n\n"
            "    def add(self, fn):\n        self.server.tool()(fn)\n        return fn\n",
            "app/reg.py": REGISTRY,
            "app/tools.py": _tools("from app.reg import reg\n", "@reg.add"),
        },
        "t",
    ),
    "method adding the tool to the server it holds under another name": (
        {
            "app/h.py": "class Registry:\n    def __init__(self, server):\n        self.app = server\n\n"
            "    def add(self, fn):\n        self.app.add_tool(fn)\n        return fn\n",
            "app/reg.py": REGISTRY,
            "app/tools.py": _tools("from app.reg import reg\n", "@reg.add"),
        },
        "t",
    ),
    "method returning its server's decorator": (
        {
            "app/h.py": "class Registry:\n    def __init__(self, server):\n        self.mcp = server\n\n"
            "    def tool(self, name=None):\n        return self.mcp.tool(name=name)\n",
            "app/reg.py": REGISTRY,
            "app/tools.py": _tools("from app.reg import reg\n", "@reg.tool(name='x')"),
        },
        "x",
    ),
    "registry created in a server factory": (
        {
            "app/h.py": "class Registry:\n    def __init__(self, server):\n        self.server = server\n\n"
            "    def add(self, fn):\n        self.server.tool()(fn)\n        return fn\n",
            "app/tools.py": IMPORTS.replace(
                "from mcp.server.mcpserver", "from mcp.server import MCPServer\nfrom mcp.server.mcpserver"
            )
            + "from app.h import Registry\n\n\ndef create_server():\n    mcp = MCPServer('a')\n    reg = Registry(mcp)\n\n"
            "    @reg.add\n    " + TOOL.replace("\n    ", "\n        ") + "\n    return mcp\n",
            "app/main.py": "from app.tools import create_server\n\nserver = create_server()\n",
        },
        "t",
    ),
    "decorator named tool of another module": (
        {
            "app/h.py": "from app.server import mcp\n\n\ndef tool(fn):\n    return mcp.tool()(fn)\n",
            "app/tools.py": _tools("from app import h\n", "@h.tool"),
        },
        "t",
    ),
    "decorator named tool of another package, imported under another name": (
        {
            "features/__init__.py": "",
            "features/decos.py": "from app.server import mcp\n\n\ndef tool(fn):\n    mcp.add_tool(fn)\n    return fn\n",
            "app/tools.py": _tools("from features import decos as h\n", "@h.tool"),
        },
        "t",
    ),
    "decorator of another module": (  # found before: the neighbour the others are held to
        {
            "app/h.py": "from app.server import mcp\n\n\ndef expose(fn):\n    return mcp.tool()(fn)\n",
            "app/tools.py": _tools("from app import h\n", "@h.expose"),
        },
        "t",
    ),
    "dataclass holding the server": (
        {
            "app/h.py": "from dataclasses import dataclass\n\nfrom mcp.server import MCPServer\n\n\n@dataclass\n"
            "class Registry:\n    app: MCPServer\n\n    def add(self, fn):\n        self.app.add_tool(fn)\n        return fn\n",
            "app/reg.py": REGISTRY,
            "app/tools.py": _tools("from app.reg import reg\n", "@reg.add"),
        },
        "t",
    ),
    "method handing on all it is passed to its server's decorator": (
        {
            "app/h.py": "class Plugin:\n    def __init__(self, server):\n        self._mcp = server\n\n"
            "    def tool(self, *args, **kwargs):\n        return self._mcp.tool(*args, **kwargs)\n",
            "app/reg.py": "from app.h import Plugin\nfrom app.server import mcp\n\nplugin = Plugin(mcp)\n",
            "app/tools.py": _tools("from app.reg import plugin\n", "@plugin.tool(name='x')"),
        },
        "x",
    ),
    "method handing on all it is passed, given the name by position": (
        {
            "app/h.py": "class Plugin:\n    def __init__(self, server):\n        self._mcp = server\n\n"
            "    def tool(self, *args, **kwargs):\n        return self._mcp.tool(*args, **kwargs)\n",
            "app/reg.py": "from app.h import Plugin\nfrom app.server import mcp\n\nplugin = Plugin(mcp)\n",
            "app/tools.py": _tools("from app.reg import plugin\n", "@plugin.tool('x')"),
        },
        "x",
    ),
    "decorator registering a functools.wraps wrapper of the def": (
        {
            "app/h.py": "import functools\n\nfrom app.server import mcp\n\n\ndef expose(fn):\n"
            "    @functools.wraps(fn)\n    def wrapper(*args, **kwargs):\n        return fn(*args, **kwargs)\n\n"
            "    return mcp.tool()(wrapper)\n",
            "app/tools.py": _tools("from app import h\n", "@h.expose"),
        },
        "t",
    ),
    "decorator registering what another decorator makes of the def": (
        {
            "app/h.py": "import functools\n\nfrom app.server import mcp\n\n\ndef audited(fn):\n"
            "    @functools.wraps(fn)\n    def inner(*args, **kwargs):\n        return fn(*args, **kwargs)\n\n"
            "    return inner\n\n\ndef expose(fn):\n    return mcp.tool(name='x')(audited(fn))\n",
            "app/tools.py": _tools("from app import h\n", "@h.expose"),
        },
        "x",
    ),
    "decorator factory registering a wrapper through the SDK's decorator bound first": (
        {
            "app/h.py": "import functools\n\nfrom app.server import mcp\n\n\ndef tool():\n    register = mcp.tool()\n\n"
            "    def deco(fn):\n        @functools.wraps(fn)\n        def wrapper(*args, **kwargs):\n"
            "            return fn(*args, **kwargs)\n\n        return register(wrapper)\n\n    return deco\n",
            "app/tools.py": _tools("from app import h\n", "@h.tool()"),
        },
        "t",
    ),
    "decorator factory given the server and the name": (
        {
            "app/h.py": "def named_tool(server, *, name):\n    def decorator(fn):\n"
            "        return server.tool(name=name)(fn)\n\n    return decorator\n",
            "app/tools.py": _tools(
                "from app.h import named_tool\nfrom app.server import mcp\n", "@named_tool(mcp, name='x')"
            ),
        },
        "x",
    ),
    "method returning a decorator that applies its server's decorator": (
        {
            "app/h.py": "class Plugin:\n    def __init__(self, server):\n        self._mcp = server\n\n"
            "    def tool(self, *args, **kwargs):\n        def decorator(fn):\n"
            "            return self._mcp.tool(*args, **kwargs)(fn)\n\n        return decorator\n",
            "app/reg.py": "from app.h import Plugin\nfrom app.server import mcp\n\nplugin = Plugin(mcp)\n",
            "app/tools.py": _tools("from app.reg import plugin\n", "@plugin.tool(name='x')"),
        },
        "x",
    ),
    "decorator factory choosing the SDK's decorator in a branch": (
        {
            "app/h.py": "import functools\n\nfrom app.server import mcp\n\n\ndef tool(name=None):\n"
            "    def decorator(fn):\n        @functools.wraps(fn)\n        def wrapper(*args, **kwargs):\n"
            "            return fn(*args, **kwargs)\n\n        if name is None:\n            chosen = mcp.tool()\n"
            "        else:\n            chosen = mcp.tool(name)\n        return chosen(wrapper)\n\n    return decorator\n",
            "app/tools.py": _tools("from app import h\n", "@h.tool()"),
        },
        "t",
    ),
    "decorator factory's result bound to a name": (
        {
            "app/h.py": "from app.server import mcp\n\n\ndef tool():\n    return mcp.tool()\n",
            "app/tools.py": _tools("from app import h\n\ntool = h.tool()\n", "@tool"),
        },
        "t",
    ),
    "decorator factory's result bound to a name in a function, passing a name": (
        {
            "app/h.py": "from app.server import mcp\n\n\ndef tool(name=None):\n    return mcp.tool(name=name)\n",
            "app/tools.py": IMPORTS
            + "from app import h\n\n\ndef install():\n    deco = h.tool(name='x')\n\n    @deco\n    "
            + TOOL.replace("\n    ", "\n        ")
            + "\n\ninstall()\n",
        },
        "x",
    ),
    "SDK's decorator bound to a name another module imports": (
        {
            "app/h.py": "from app.server import mcp\n\ntool = mcp.tool()\n",
            "app/tools.py": _tools("from app.h import tool\n", "@tool"),
        },
        "t",
    ),
    "SDK's decorator bound to a name, applied by a call in another module": (
        {
            "app/h.py": "from app.server import mcp\n\nregister = mcp.tool(name='x')\n",
            "app/tools.py": IMPORTS + "from app import h\n\n\n" + TOOL + "\n\nh.register(t)\n",
        },
        "x",
    ),
    "SDK's decorator bound to a name in a helper, applied by a call": (
        {
            "app/tools.py": IMPORTS + "\n\n" + TOOL + "\n\ndef register(server):\n    deco = server.tool()\n"
            "    deco(t)\n",
            "app/main.py": "from app.server import mcp as server\nfrom app.tools import register\n\nregister(server)\n",
        },
        "t",
    ),
}
"""Each shape: its files (beside `app/server.py`, `app/deps.py` and `app/main.py`) and the
name the SDK gives the tool."""
ORACLE = """
import asyncio, importlib, json, sys
out = {}
for root in sys.argv[1:]:
    sys.path.insert(0, root)
    try:
        main = importlib.import_module("app.main")
        out[root] = sorted(t.name for t in asyncio.run(main.server.list_tools()))
    except Exception as exc:
        out[root] = f"{type(exc).__name__}: {exc}"
    sys.path.remove(root)
    for name in [m for m in sys.modules if m.split(".")[0] in ("app", "features")]:
        del sys.modules[name]
json.dump(out, sys.stdout)
"""


def _write(root: Path, shape: str, deps: str) -> None:
    files = {
        "pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n",
        "app/__init__.py": "",
        "app/server.py": SERVER,
        "app/deps.py": deps,
        "app/main.py": MAIN,
        **SHAPES[shape][0],
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


@pytest.fixture(scope="module")
def projects(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, bool], tuple[Path, object]]:
    """Every shape with a bad and a good resolver, and what the SDK makes of each (one interpreter)."""
    base = tmp_path_factory.mktemp("registered")
    roots = {}
    for index, shape in enumerate(SHAPES):
        for bad in (True, False):
            root = base / f"{index}-{'bad' if bad else 'good'}"
            _write(root, shape, BAD_DEPS if bad else GOOD_DEPS)
            roots[shape, bad] = root
    done = subprocess.run(
        [sys.executable, "-c", ORACLE, *map(str, roots.values())],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    sdk = json.loads(done.stdout)
    return {key: (root, sdk[str(root)]) for key, root in roots.items()}


def _lint(root: Path, *args: str) -> list[dict]:
    proc = run_mcpdeps("lint", "--format", "json", "--exit-zero", *args, cwd=root)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["diagnostics"]


def _graph_tools(root: Path) -> list[str]:
    proc = run_mcpdeps("graph", "--format", "json", ".", cwd=root)
    assert proc.returncode == 0, proc.stderr
    return sorted(t["name"] for s in json.loads(proc.stdout)["servers"] for t in s["tools"])


@pytest.mark.parametrize("shape", SHAPES)
def test_lint_refuses_the_resolver_the_sdk_refuses(projects: dict, shape: str) -> None:
    """The SDK raises `InvalidSignature` for `load_d` at registration; `lint .` reports MCPD002
    on it, in `app/deps.py`, for the tool the SDK names."""
    root, sdk = projects[shape, True]
    assert isinstance(sdk, str) and sdk.startswith("InvalidSignature: Resolver 'load_d' parameter 'nope'"), (
        sdk
    )
    found = [(d["code"], d["path"], d["tool"]) for d in _lint(root, "--no-cache", ".")]
    assert found == [("MCPD002", "app/deps.py", SHAPES[shape][1])]


@pytest.mark.parametrize("shape", SHAPES)
def test_lint_finds_the_tool_the_sdk_registers(projects: dict, shape: str) -> None:
    """With a resolver the SDK accepts, the static graph holds the tool the SDK lists, and lint
    has nothing to say."""
    root, sdk = projects[shape, False]
    assert sdk == [SHAPES[shape][1]]
    assert _graph_tools(root) == sdk
    assert _lint(root, "--no-cache", ".") == []


@pytest.mark.parametrize("shape", SHAPES)
def test_the_resolver_module_alone_gets_what_lint_dot_gives_it(projects: dict, shape: str) -> None:
    """pre-commit passes `app/deps.py` alone when only it changed: cold and cached, it gets
    what `lint .` says about it."""
    root, _ = projects[shape, True]
    whole = [d for d in _lint(root, "--no-cache", ".") if d["path"] == "app/deps.py"]
    assert whole
    assert _lint(root, "--no-cache", "app/deps.py") == whole
    assert _lint(root, "app/deps.py") == whole
