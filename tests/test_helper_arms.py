"""Tools registered by helpers called in exclusive arms meet only when the SDK's runs meet them.

`if os.environ.get("B"): b.register(mcp)` / `else: a.register(mcp)`, where both helpers
register a tool `t`: each start of the server registers one `t`, and the SDK logs no
duplicate; MCPD110 must not either. The arms around each call on the way to a helper
(in the caller's file, through pass-through helpers and factories) count as the tool's,
as do `if`/`elif`/`else` chains, `match` cases and `try`/`except ImportError` fallbacks
(the shapes published servers write for optional features). What can run both still
meets: two different `if` statements, a helper called in both arms, an `if` in a loop,
a `try` body registering before an import that fails.

The SDK is the oracle: each project is imported (in a subprocess, as the user's process
would) under every setting of the variables its arms test, and its `Tool already exists`
warnings collected; `lint .` reports MCPD110 exactly for the projects where one of those runs
logs one. Then every file is linted alone, cold and cached, and must agree with `lint .`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files
from published_shapes import (
    duplicates_logged,
    each_file_alone_reports_what_lint_dot_reports,
    found,
)

HELPER = "def register(mcp) -> None:\n    @mcp.tool()\n    def t(x: int) -> str:\n        return '{}'\n"
HEAD = "import os\n\nfrom mcp.server import MCPServer\n\nfrom app import a, b\n\nmcp = MCPServer('x')\n"
OPTIONAL = "import os\n\nif os.environ.get('NO_FAST'):\n    raise ImportError('fast is not installed')\n"
"""`app/fast.py`: an optional dependency, missing when `NO_FAST` is set."""

BASE = {
    "pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n",
    "app/__init__.py": "",
    "app/fast.py": OPTIONAL,
}
AB = {"app/a.py": HELPER.format("a"), "app/b.py": HELPER.format("b")}
"""The helpers most cases call (one never called would be a MCPD113 of its own)."""

CASES: dict[str, tuple[str, dict[str, str], list[dict[str, str]], bool]] = {
    "if/else at module level": (
        HEAD + "if os.environ.get('B'):\n    b.register(mcp)\nelse:\n    a.register(mcp)\n",
        AB,
        [{}, {"B": "1"}],
        False,
    ),
    "if/elif/else chain": (
        HEAD.replace("a, b", "a, b, c")
        + "mode = os.environ.get('MODE')\nif mode == 'a':\n    a.register(mcp)\n"
        "elif mode == 'b':\n    b.register(mcp)\nelse:\n    c.register(mcp)\n",
        {**AB, "app/c.py": HELPER.format("c")},
        [{"MODE": "a"}, {"MODE": "b"}, {}],
        False,
    ),
    "match cases": (
        HEAD + "match os.environ.get('MODE'):\n    case 'a':\n        a.register(mcp)\n"
        "    case _:\n        b.register(mcp)\n",
        AB,
        [{"MODE": "a"}, {}],
        False,
    ),
    "try/except ImportError fallback": (
        HEAD + "try:\n    import app.fast  # noqa: F401\n\n    a.register(mcp)\n"
        "except ImportError:\n    b.register(mcp)\n",
        AB,
        [{}, {"NO_FAST": "1"}],
        False,
    ),
    "factory choosing a helper": (
        "import os\n\nfrom mcp.server import MCPServer\n\nfrom app import a, b\n\n\n"
        "def build() -> MCPServer:\n    server = MCPServer('x')\n    if os.environ.get('B'):\n"
        "        b.register(server)\n    else:\n        a.register(server)\n    return server\n\n\n"
        "mcp = build()\n",
        AB,
        [{}, {"B": "1"}],
        False,
    ),
    "arms in a pass-through helper": (
        "from mcp.server import MCPServer\n\nfrom app import wiring\n\nmcp = MCPServer('x')\n"
        "wiring.install(mcp)\n",
        {
            **AB,
            "app/wiring.py": "import os\n\nfrom app import a, b\n\n\ndef install(server) -> None:\n"
            "    if os.environ.get('B'):\n        b.register(server)\n    else:\n        a.register(server)\n",
        },
        [{}, {"B": "1"}],
        False,
    ),
    "arms around pass-through helpers": (
        HEAD.replace("a, b", "wiring") + "if os.environ.get('B'):\n    wiring.slow(mcp)\nelse:\n"
        "    wiring.fast(mcp)\n",
        {
            **AB,
            "app/wiring.py": "from app import a, b\n\n\ndef fast(server) -> None:\n    a.register(server)\n\n\n"
            "def slow(server) -> None:\n    b.register(server)\n",
        },
        [{}, {"B": "1"}],
        False,
    ),
    "a registering function called in both arms": (
        "import os\n\nfrom mcp.server import MCPServer\n\nmcp = MCPServer('x')\n\n\n"
        "def register(fn):\n    mcp.add_tool(fn, name='t')\n    return fn\n\n\n"
        "def fast(x: int) -> str:\n    return 'fast'\n\n\ndef slow(x: int) -> str:\n    return 'slow'\n\n\n"
        "if os.environ.get('B'):\n    register(slow)\nelse:\n    register(fast)\n",
        {},
        [{}, {"B": "1"}],
        False,
    ),
    "two different if statements": (
        HEAD + "if os.environ.get('A'):\n    a.register(mcp)\nif os.environ.get('B'):\n    b.register(mcp)\n",
        AB,
        [{}, {"A": "1"}, {"B": "1"}, {"A": "1", "B": "1"}],
        True,
    ),
    "one helper called in both arms": (
        HEAD + "if os.environ.get('B'):\n    a.register(mcp)\nelse:\n    a.register(mcp)\nb.register(mcp)\n",
        AB,
        [{}, {"B": "1"}],
        True,
    ),
    "an if in a loop": (
        HEAD
        + "for flag in ('', '1'):\n    if flag:\n        b.register(mcp)\n    else:\n        a.register(mcp)\n",
        AB,
        [{}],
        True,
    ),
    "a try body registering before the import that fails": (
        HEAD + "try:\n    a.register(mcp)\n    import app.fast  # noqa: F401\n"
        "except ImportError:\n    b.register(mcp)\n",
        AB,
        [{}, {"NO_FAST": "1"}],
        True,
    ),
    "decorators in an if in a loop": (
        "from mcp.server import MCPServer\n\nmcp = MCPServer('x')\n\nfor flag in (True, False):\n"
        "    if flag:\n\n        @mcp.tool()\n        def t(x: int) -> str:\n            return 'a'\n\n"
        "    else:\n\n        @mcp.tool(name='t')\n        def u(x: int) -> str:\n            return 'b'\n",
        {},
        [{}],
        True,
    ),
    "decorators in an ImportError fallback": (
        "from mcp.server import MCPServer\n\nmcp = MCPServer('x')\n\ntry:\n    import app.fast  # noqa: F401\n\n"
        "    @mcp.tool()\n    def t(x: int) -> str:\n        return 'fast'\n\n"
        "except ImportError:\n\n    @mcp.tool()\n    def t(x: int) -> str:\n        return 'slow'\n",
        {},
        [{}, {"NO_FAST": "1"}],
        False,
    ),
}
"""name -> (`app/main.py`, other files beside `BASE`, the settings of the variables the arms
test, whether some start of the server registers `t` twice)."""


_VARIABLES = ("A", "B", "MODE", "NO_FAST")


@pytest.fixture(params=sorted(CASES))
def case(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    root = tmp_path / "proj"
    main, files, _, _ = CASES[request.param]
    write_files(root, {**BASE, **files, "app/main.py": main})
    return root, request.param


def _logged(root: Path, env: dict[str, str]) -> list[str]:
    """The SDK's duplicate warnings when the server starts with `env` set."""
    return duplicates_logged(root, env, _VARIABLES)


def test_lint_dot_reports_a_duplicate_exactly_when_a_start_logs_one(case: tuple[Path, str]) -> None:
    root, name = case
    _, _, settings, twice = CASES[name]
    logged = [m for env in settings for m in _logged(root, env)]
    assert bool(logged) == twice, logged
    assert all(m == "Tool already exists: t" for m in logged)
    codes = {d["code"] for d in found(root, ["."])}
    assert codes == ({"MCPD110"} if twice else set())


def test_each_file_alone_reports_what_lint_dot_reports_there(case: tuple[Path, str], tmp_path: Path) -> None:
    each_file_alone_reports_what_lint_dot_reports(case[0], tmp_path)
