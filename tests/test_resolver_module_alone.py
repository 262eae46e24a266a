"""`lint deps.py` on a module of resolvers checks only what can change its verdicts.

A module that registers nothing gets its diagnostics from the tools that run its resolvers
(`resolver_core/carriers.py` lists which can land there and on what). Of the project files
importing it, directly or not, only those spelling a name bound to one of its definitions
(or to something binding one) can hold such a tool; the others are not checked with it. The
files calling those files' `register(server)` helpers are checked as callers: the servers
they pass are followed only into the run's files, so an entry point calling every feature's
helper does not make the run read every feature (`resolver_core/confined.py`). Alone, cold,
cached, after other lists of files and after edits, the module gets what `lint .` gives it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import lint_diagnostics, located, write_files
from mcpdeps.resolver_core.carriers import defined, reaching

HEADER = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
"""

PROJECT = {
    "pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n",
    "app/__init__.py": "",
    "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('a')\n",
    "app/deps.py": HEADER
    + """

def loop_a(x: Annotated[int, Resolve(lambda: 1)], y: "Annotated[int, Resolve(loop_b)]") -> int:
    return x


def loop_b(z: Annotated[int, Resolve(loop_a)]) -> int:
    return z


def vague(value: Undefined) -> int:  # mcpdeps: ignore[MCPD001]
    return 1


def owner(user_id: str) -> str:
    return user_id
""",
    # Imports deps.py for a resolver of its own, which no tool uses: it carries `cross`.
    "app/more.py": HEADER
    + """
from app import deps


def own(user_id: str) -> str:
    return user_id


def cross(who: Annotated[str, Resolve(deps.owner)]) -> str:
    return who


Aliased = Annotated[int, Resolve(deps.loop_b)]
""",
    # Imports deps.py through more.py and uses only `more.own`: cannot run deps.py's resolvers.
    "app/tools_own.py": HEADER
    + """
from app import more
from app.server import mcp


@mcp.tool()
def mine(who: Annotated[str, Resolve(more.own)]) -> str:
    return who
""",
    # Reaches deps.py's cycle through an alias bound in more.py.
    "app/tools_alias.py": HEADER
    + """
from app import more
from app.server import mcp


@mcp.tool()
def aliased(n: more.Aliased) -> str:
    return str(n)
""",
    "app/tools_direct.py": HEADER
    + """
from app.deps import loop_a, vague
from app.server import mcp


@mcp.tool()
def direct(n: Annotated[int, Resolve(loop_a)], v: Annotated[int, Resolve(vague)]) -> str:
    return str(n)
""",
    # A helper whose tools run deps.py's resolvers, and one whose tools cannot.
    "features/alpha.py": HEADER
    + """
from app import deps


def register(server):
    @server.tool()
    def alpha(n: Annotated[int, Resolve(deps.loop_b)]) -> str:
        return str(n)
""",
    "features/beta.py": HEADER
    + """
from app import more


def register(server):
    @server.tool()
    def beta(who: Annotated[str, Resolve(more.own)]) -> str:
        return who
""",
    "features/gamma.py": HEADER
    + """

def register(server):
    @server.tool()
    def gamma(q: str) -> str:
        return q
""",
    "app/main.py": """\
from app.server import mcp
from features import alpha, beta, gamma

alpha.register(mcp)
beta.register(mcp)
gamma.register(mcp)
""",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write_files(tmp_path, PROJECT)
    return tmp_path


def test_only_importers_spelling_a_carrier_and_their_callers_are_checked(project: Path) -> None:
    """`tools_own.py` and `features/beta.py` import deps.py (through more.py) but name none of
    its definitions nor anything bound to one: not checked. `app/main.py` calls alpha's
    helper: checked, as a caller."""
    from mcpdeps.resolver_core.companions import run_files

    files = {f.display: f for f in run_files(["app/deps.py"], [], project) if f.companion}
    assert set(files) == {"app/tools_alias.py", "app/tools_direct.py", "features/alpha.py", "app/main.py"}
    assert [d for d, f in files.items() if f.caller] == ["app/main.py"]


def test_a_callers_servers_are_followed_only_into_the_runs_files(project: Path) -> None:
    """`app/main.py` passes its server to beta's and gamma's helpers too: as a caller, it is
    not followed there, so neither is read; checked itself, beta's is."""
    from mcpdeps.lint_rules.checking import lint

    alone = lint(["app/deps.py"], cwd=project)
    assert "features/alpha.py" in alone.graph.sources
    assert not {"features/beta.py", "features/gamma.py"} & set(alone.graph.sources)
    main = lint(["app/main.py"], cwd=project)
    assert "features/beta.py" in main.graph.sources


def test_the_resolver_module_alone_gets_what_lint_dot_gives_it(project: Path) -> None:
    """The cycle (MCPD001, at each of its edges in deps.py, named after the first tool that
    runs it), the unclassifiable parameter (MCPD002) and the unused suppression (MCPD114) are
    what `lint .` locates in deps.py; alone, cold and cached, after other lists of files and
    after an edit, deps.py gets exactly those, and every other file what `lint .` gives it."""
    whole = lint_diagnostics(project, "--no-cache", ".")
    expected = located(whole, "app/deps.py")
    assert {d["code"] for d in expected} == {"MCPD001", "MCPD002", "MCPD114"}
    assert lint_diagnostics(project, "--no-cache", "app/deps.py") == expected
    assert lint_diagnostics(project, "app/deps.py") == expected
    for other in ("app/main.py", "app/tools_own.py", "features/beta.py", "app/more.py"):
        assert located(lint_diagnostics(project, other), other) == located(whole, other), other
    text = (project / "app/deps.py").read_text()
    (project / "app/deps.py").write_text(text + "# edited\n")
    assert lint_diagnostics(project, "app/deps.py") == expected
    assert lint_diagnostics(project, "app/deps.py", "app/main.py") == [
        d for d in whole if d["path"] in ("app/deps.py", "app/main.py")
    ]


def test_a_file_starting_to_use_the_module_is_checked_with_it(project: Path) -> None:
    """An edit of `features/beta.py` that names deps.py's cycle makes it one of the run's
    files: the index is read again, and the cycle is found through beta's tool too."""
    lint_diagnostics(project, "app/deps.py")
    beta = project / "features/beta.py"
    beta.write_text(beta.read_text().replace("Resolve(more.own)", "Resolve(more.cross)"))
    whole = lint_diagnostics(project, "--no-cache", ".")
    assert lint_diagnostics(project, "app/deps.py") == located(whole, "app/deps.py")


@pytest.mark.parametrize(
    ("importer", "reaches"),
    [
        ("from deps import helper\n", True),
        ("import deps\n\nx = deps.helper\n", True),
        ("import deps\n\nx = deps.other_name\n", False),
        ("from deps import *\n\nUse = helper\n", True),
        ("import deps  # helper in a comment counts: more, never fewer\n", True),
        ("import deps\n\nT = 'Annotated[int, Resolve(deps.helper)]'\n", True),
        (
            "import deps\n\n\ndef register(server):\n    @server.tool()\n    def t(x: deps.Dep) -> int:\n"
            "        return x\n",
            True,
        ),
    ],
)
def test_an_importer_reaches_the_module_when_it_spells_a_carrier(importer: str, reaches: bool) -> None:
    """A carrier is a name the module defines (not one it imports), or one a statement of an
    importer binds while spelling a carrier; words are read anywhere in the text."""
    texts = {
        "deps.py": "from typing import Annotated as Dep\n\ndef helper() -> int:\n    return 1\n\nDep = Dep\n",
        "user.py": importer,
    }
    carriers = defined(["deps.py"], texts.get)
    assert carriers is not None and "helper" in carriers and "Annotated" not in carriers
    assert reaching(carriers, ["user.py"], texts.get, lambda path: set()) == (
        {"user.py"} if reaches else set()
    )


def test_a_helper_defining_its_tools_inside_carries_only_what_it_returns() -> None:
    """`def register(server)` registering a tool that runs a resolver of deps.py inside it does
    not carry: its tools are its module's wherever it is called. A decorator returning a
    function that does carries (the tool it decorates gets that function's parameters)."""
    texts = {
        "deps.py": "def load() -> int:\n    return 1\n",
        "feature.py": "import deps\n\n\ndef register(server):\n    @server.tool()\n"
        "    def t(x: Annotated[int, Resolve(deps.load)]) -> int:\n        return x\n",
        "deco.py": "import deps\n\n\ndef wrap(fn):\n    def inner(x: Annotated[int, Resolve(deps.load)]):\n"
        "        return fn(x)\n    return inner\n",
        "main.py": "import feature\nimport deco\n\nfeature.register(mcp)\n",
        "tools.py": "import deco\n\n\n@mcp.tool()\n@deco.wrap\ndef t2(x: int) -> int:\n    return x\n",
    }
    carriers = defined(["deps.py"], texts.get)
    assert carriers == {"load"}
    readers = {"feature.py": {"main.py"}, "deco.py": {"main.py", "tools.py"}}
    found = reaching(
        carriers, ["feature.py", "deco.py", "main.py", "tools.py"], texts.get, lambda p: readers.get(p, set())
    )
    assert found == {"feature.py", "deco.py", "tools.py"}
