"""Arms of a function body hold within one call of it: what MCPD110 says when functions run twice.

`test_helper_arms.py` has a server's tools registered by helpers called in exclusive arms.
Here the functions are the other way round (`arms.Way`):
- a function registering on a *module-level* server (`def setup_fast(): @mcp.tool() ...`)
  takes the arms its calls are written in, as a helper given the server does (`if FAST:
  setup_fast()` / `else: setup_full()`, at module level, in `main()`, in another module);
- a helper called twice on one server runs its body twice: an `if`/`match` of its own may
  take one arm in one call and the other in the next (`install(mcp, fast=True)` then
  `install(mcp, fast=False)`), and what it registers unconditionally lands twice;
- a server made in a factory is new on every call of it: no duplicate across calls;
- a name registered in one arm and twice in the other is a duplicate when that other runs.

The SDK is the oracle, as in `test_helper_arms.py`: the project is started under every
setting of the variables its arms test (imported, as `mcp run` does, or run as the program
when the case says so) and its `Tool already exists` warnings collected; `lint .` reports
MCPD110 exactly for the projects where one start logs one. Every file alone (cold, cached,
over a shared cache) and a run with two workers agree with `lint .`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import worker_tasks, write_files
from mcpdeps.lint_rules import slice_plan
from published_shapes import (
    duplicates_logged,
    each_file_alone_reports_what_lint_dot_reports,
    found,
    the_editor_reports_what_lint_dot_reports,
)

IMPORTED = "import app.main"
"""The server module imported (`mcp run app/main.py`)."""
PROGRAM = "import runpy; runpy.run_module('app.main', run_name='__main__')"
"""`python -m app.main`: the `if __name__ == "__main__":` block runs too."""
COMMANDS = ["import app.main; app.main.stdio()", "import app.main; app.main.http()"]
"""Each command of a command line (functions nothing in the project calls) run as the program."""

BASE = {"pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n", "app/__init__.py": ""}


def _search(body: str, indent: int) -> str:
    """`@mcp.tool() def search(q)` returning `body`, indented by `indent` levels."""
    pad = "    " * indent
    return f"\n{pad}@mcp.tool()\n{pad}def search(q: str) -> str:\n{pad}    return {body!r}\n"


SERVER = "from mcp.server import MCPServer\n\nmcp = MCPServer('x')\n"
SETUPS = (
    "\n\ndef setup_fast() -> None:"
    + _search("fast", 1)
    + "\n\ndef setup_full() -> None:"
    + _search("full", 1)
)
"""Two functions registering `search` on the module-level `mcp` they see."""
SETUP_MODULE = {"app/server.py": SERVER, "app/setup.py": "from app.server import mcp\n" + SETUPS}
INSTALL = {
    "app/wiring.py": "def install(mcp, fast: bool) -> None:\n    if fast:"
    + _search("fast", 2)
    + "    else:"
    + _search("full", 2)
}
"""A helper registering `search` in one arm of its own `if` or the other."""
ONCE = {"app/wiring.py": "def install(mcp) -> None:" + _search("x", 1)}
MAIN_HEAD = "import os\n\nfrom mcp.server import MCPServer\n\nfrom app.wiring import install\n\nmcp = MCPServer('x')\n"

COMMAND_MAIN = (
    MAIN_HEAD + "\n\ndef stdio() -> None:\n    install(mcp)\n\n\ndef http() -> None:\n    install(mcp)\n"
)

CASES: dict[str, tuple[dict[str, str], list[dict[str, str]], bool, list[str]]] = {
    "module-level server, setups chosen at module level": (
        {
            "app/main.py": "import os\n\n"
            + SERVER
            + SETUPS
            + "\n\nif os.environ.get('B'):\n    setup_fast()\n"
            "else:\n    setup_full()\n"
        },
        [{}, {"B": "1"}],
        False,
        [IMPORTED],
    ),
    "module-level server, setups of another module chosen in main()": (
        {
            **SETUP_MODULE,
            "app/main.py": "import os\n\nfrom app.setup import setup_fast, setup_full\n\n\ndef main() -> None:\n"
            "    if os.environ.get('B'):\n        setup_fast()\n    else:\n        setup_full()\n\n\n"
            "if __name__ == '__main__':\n    main()\n",
        },
        [{}, {"B": "1"}],
        False,
        [IMPORTED, PROGRAM],
    ),
    "module-level server, one setup in an if, the other always": (
        {
            **SETUP_MODULE,
            "app/main.py": "import os\n\nfrom app.setup import setup_fast, setup_full\n\n\ndef main() -> None:\n"
            "    if os.environ.get('B'):\n        setup_fast()\n    setup_full()\n\n\nmain()\n",
        },
        [{}, {"B": "1"}],
        True,
        [IMPORTED],
    ),
    "setups chosen by the __main__ test": (
        {
            "app/main.py": SERVER
            + SETUPS
            + "\n\nif __name__ == '__main__':\n    setup_full()\nelse:\n    setup_fast()\n"
        },
        [{}],
        False,
        [IMPORTED, PROGRAM],
    ),
    "a tool at module level and again in a function the program calls": (
        {
            "app/main.py": SERVER
            + _search("a", 0)
            + "\n\ndef extra() -> None:"
            + _search("b", 1)
            + "\n\nif __name__ == '__main__':\n    extra()\n"
        },
        [{}],
        True,
        [PROGRAM],
    ),
    "a helper's if, one arm per call, called twice": (
        {**INSTALL, "app/main.py": MAIN_HEAD + "install(mcp, fast=True)\ninstall(mcp, fast=False)\n"},
        [{}],
        True,
        [IMPORTED],
    ),
    "a helper's if, called once": (
        {**INSTALL, "app/main.py": MAIN_HEAD + "install(mcp, fast=bool(os.environ.get('B')))\n"},
        [{}, {"B": "1"}],
        False,
        [IMPORTED],
    ),
    "a helper's match, called twice": (
        {
            "app/wiring.py": "def install(mcp, mode: str) -> None:\n    match mode:\n        case 'a':"
            + _search("a", 3)
            + "        case _:"
            + _search("b", 3),
            "app/main.py": MAIN_HEAD + "install(mcp, 'a')\ninstall(mcp, 'b')\n",
        },
        [{}],
        True,
        [IMPORTED],
    ),
    "a helper called twice": (
        {**ONCE, "app/main.py": MAIN_HEAD + "install(mcp)\ninstall(mcp)\n"},
        [{}],
        True,
        [IMPORTED],
    ),
    "a helper called in exclusive arms": (
        {
            **ONCE,
            "app/main.py": MAIN_HEAD + "if os.environ.get('B'):\n    install(mcp)\nelse:\n    install(mcp)\n",
        },
        [{}, {"B": "1"}],
        False,
        [IMPORTED],
    ),
    "a helper called twice through a factory making a server per call": (
        {
            **ONCE,
            "app/main.py": "from mcp.server import MCPServer\n\nfrom app.wiring import install\n\n\n"
            "def build() -> MCPServer:\n    server = MCPServer('x')\n    install(server)\n    return server\n\n\n"
            "mcp = build()\nother = build()\n",
        },
        [{}],
        False,
        [IMPORTED],
    ),
    "a name in one arm, and twice in the other": (
        {
            "app/main.py": "import os\n\n"
            + SERVER
            + "\nif os.environ.get('B'):"
            + _search("a", 1)
            + "\nelse:"
            + _search("b", 1)
            + "\n    @mcp.tool(name='search')\n    def search_c(q: str) -> str:\n        return 'c'\n"
        },
        [{}, {"B": "1"}],
        True,
        [IMPORTED],
    ),
    "a helper called by two commands": ({**ONCE, "app/main.py": COMMAND_MAIN}, [{}], False, COMMANDS),
    "a helper called by two commands and at import": (
        {**ONCE, "app/main.py": COMMAND_MAIN + "\n\ninstall(mcp)\n"},
        [{}],
        True,
        COMMANDS,
    ),
    "a helper called at import by two server modules": (
        {
            **ONCE,
            "app/server.py": SERVER,
            "app/server_stdio.py": "from app.server import mcp\nfrom app.wiring import install\n\ninstall(mcp)\n",
            "app/server_sse.py": "from app.server import mcp\nfrom app.wiring import install\n\ninstall(mcp)\n",
        },
        [{}],
        False,
        ["import app.server_stdio", "import app.server_sse"],
    ),
}
"""name -> (the project's files beside `BASE`, the settings of the variables its arms test,
whether some start of the server registers `search` twice, how it starts)."""

_VARIABLES = ("B",)


@pytest.fixture(params=sorted(CASES))
def case(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    root = tmp_path / "proj"
    write_files(root, {**BASE, **CASES[request.param][0]})
    return root, request.param


def _logged(root: Path, env: dict[str, str], start: str) -> list[str]:
    """The SDK's duplicate warnings when the server starts (`start`) with `env` set."""
    return duplicates_logged(root, env, _VARIABLES, start)


def test_lint_dot_reports_a_duplicate_exactly_when_a_start_logs_one(case: tuple[Path, str]) -> None:
    root, name = case
    _, settings, twice, starts = CASES[name]
    logged = [m for env in settings for start in starts for m in _logged(root, env, start)]
    assert bool(logged) == twice, logged
    assert all(m == "Tool already exists: search" for m in logged)
    codes = {d["code"] for d in found(root, ["."])}
    assert codes == ({"MCPD110"} if twice else set())


def test_each_file_alone_reports_what_lint_dot_reports_there(case: tuple[Path, str], tmp_path: Path) -> None:
    each_file_alone_reports_what_lint_dot_reports(case[0], tmp_path)


def test_two_workers_report_what_one_build_reports(
    case: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The coupling groups (a function's arms come from its callers) cut over two workers."""
    root, name = case
    whole = found(root, ["."])
    monkeypatch.setattr(slice_plan, "MIN_FILES_PER_JOB", 1)
    monkeypatch.setattr(slice_plan, "MAX_FILES_PER_SLICE", 1)
    cut = worker_tasks(monkeypatch)
    assert found(root, ["."], jobs=2) == whole
    assert cut or len(CASES[name][0]) == 1, "checked in workers (a project of one module is not cut)"
    assert found(root, ["."], tmp_path / "cache", jobs=2) == whole
    assert found(root, ["."], tmp_path / "cache", jobs=2) == whole


EMPTIED = [
    (name, emptied)
    for name, (files, *_) in sorted(CASES.items())
    for emptied in ("app/main.py" if "app/main.py" in files else "app/server_stdio.py", "app/server.py")
    if emptied in files
]
"""Each case with its entry point, then its server's module, emptied and written back."""


@pytest.mark.parametrize(("name", "emptied"), EMPTIED)
def test_the_editor_reports_what_lint_dot_reports(tmp_path: Path, name: str, emptied: str) -> None:
    """Saved, and with a file emptied and written back unsaved: the calls of the entry point come
    and go (the setups have no caller in between), or the server the setups register on does."""
    files = CASES[name][0]
    write_files(tmp_path, {**BASE, **files})
    the_editor_reports_what_lint_dot_reports(tmp_path, emptied, (files[emptied], ""))


EDITS = [
    (
        "module-level server, setups of another module chosen in main()",
        "    else:\n        setup_full()",
        "    setup_full()",
    ),
    ("a helper called twice", "install(mcp)\ninstall(mcp)\n", "install(mcp)\n"),
    ("a helper called by two commands", "def http() -> None:\n    install(mcp)\n", "install(mcp)\n"),
]
"""A case, and an edit of its entry point turning its verdict (`app/main.py`: what, into what)."""
CALLS_WRITTEN = (
    "module-level server, setups of another module chosen in main()",
    "    if os.environ.get('B'):\n        setup_fast()\n    else:\n        setup_full()",
    "    pass",
)
"""The calls choosing an arm taken out of `main()`, then written back (the cache kept meanwhile):
`main.py` declares no server and passes none (the prefilter turns it away), and the functions of
`setup.py` had no caller to be coupled to (`invalidation.reached` reads what its text imports)."""


@pytest.mark.parametrize(
    ("name", "before", "after"),
    [
        *(pytest.param(*edit, id=edit[0]) for edit in EDITS),
        pytest.param(*CALLS_WRITTEN, id="calls written into a main() calling nothing"),
    ],
)
def test_an_edit_of_the_callers_reaches_the_cached_verdicts(
    tmp_path: Path, name: str, before: str, after: str
) -> None:
    """The registering module is unchanged: its arms come from the edited caller."""
    root = tmp_path / "proj"
    write_files(root, {**BASE, **CASES[name][0]})
    cache = tmp_path / "cache"
    main = root / "app" / "main.py"
    text = main.read_text()
    assert before in text
    for edited in (text.replace(before, after), text):
        for given in (
            ["."],
            ["app/main.py"],
            ["app/wiring.py" if (root / "app/wiring.py").exists() else "app/setup.py"],
        ):
            found(root, given, cache)
        main.write_text(edited)
        cold = found(root, ["."])
        assert found(root, ["."], cache) == cold
        for given in sorted(str(p.relative_to(root)) for p in root.rglob("*.py")):
            alone = [d for d in found(root, [given], cache) if d["path"] == given]
            assert alone == [d for d in cold if d["path"] == given], given
