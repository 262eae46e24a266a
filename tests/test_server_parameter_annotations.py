"""A `register(server)` helper's tools land on what its callers pass, whatever the parameter's
annotation says: Python never enforces it and the SDK never reads it.

Published servers annotate that parameter `Any` or `object` (so as not to import the SDK's
class), or make it optional (`mcp: MCPServer | None = None`). Each such helper, handed the
entry point's server, registers a tool running `load_d(nope)`: the SDK refuses it when the
server starts, and `lint .`, `lint FILE` alone, `lint -j 2` and the language server must all
report MCPD002 there (`resolver_core/server_annotations.py` says which annotations let a
server through). An annotation naming another type (`int`, a project class) is read as a
type checker reads it: no server arrives there, and nothing is said of its registrations.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from conftest import lint_diagnostics, write_files
from lsp_helpers import SERVER, Docs, lint_json, settle, start
from mcpdeps.lint_rules import slice_plan
from published_shapes import (
    CLEAN,
    PROJECT,
    check_both_ways,
    each_file_alone_reports_what_lint_dot_reports,
    found,
    sdk,
)
from pytest_lsp import LanguageClient

IMPORTS = (
    "from typing import TYPE_CHECKING, Annotated, Any, Optional, Protocol, TypeVar, Union\n\n"
    "from mcp.server import MCPServer\nfrom mcp.server.mcpserver import Resolve\n\n"
    "from app.deps import load_d\n"
)
PROTOCOL = "\n\nclass Registrar(Protocol):\n    def tool(self) -> Any: ...\n"
GENERIC_PROTOCOL = '\nT = TypeVar("T")\n\n\nclass Registrar(Protocol[T]):\n    def tool(self) -> Any: ...\n'
"""`class Registrar(Protocol[T])`: its base is a subscript of `Protocol`."""


def helper(
    annotation: str, head: str = IMPORTS, before: str = "", name: str = "register", tool: str = "t"
) -> str:
    """A module whose `name(server: annotation)` registers `tool`, running `load_d`."""
    return (
        head
        + before
        + f"\n\ndef {name}(server: {annotation}) -> None:\n    @server.tool()\n"
        + f"    def {tool}(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n"
    )


MAIN = 'from mcp.server import MCPServer\n\nfrom app.tools import register\n\nmcp = MCPServer("x")\nregister(mcp)\n'
BAD = CLEAN[0] + "\n"

TYPE_CHECKING_ONLY = (
    "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING, Annotated\n\n"
    "from mcp.server.mcpserver import Resolve\n\nfrom app.deps import load_d\n\n"
    "if TYPE_CHECKING:\n    from mcp.server import MCPServer\n"
)

ANNOTATIONS: dict[str, tuple[str, str, str]] = {
    "Any": ("Any", IMPORTS, ""),
    "object": ("object", IMPORTS, ""),
    "typing.Any": ("typing.Any", "import typing\n\n" + IMPORTS, ""),
    "Annotated[Any, ...]": ('Annotated[Any, "the server"]', IMPORTS, ""),
    "MCPServer | None = None": ("MCPServer | None = None", IMPORTS, ""),
    "Optional[MCPServer] = None": ("Optional[MCPServer] = None", IMPORTS, ""),
    "Union[int, MCPServer]": ("Union[int, MCPServer]", IMPORTS, ""),
    "Optional['MCPServer']": ('Optional["MCPServer"] = None', IMPORTS, ""),
    "'MCPServer | None'": ('"MCPServer | None" = None', IMPORTS, ""),
    "MCPServer | None imported under TYPE_CHECKING": ("MCPServer | None = None", TYPE_CHECKING_ONLY, ""),
    "a Protocol": ("Registrar", IMPORTS, PROTOCOL),
    "a TypeVar": ("S", IMPORTS, '\nS = TypeVar("S")\n'),
    "a TypeVar bound to MCPServer": ("S", IMPORTS, '\nS = TypeVar("S", bound=MCPServer)\n'),
    "an alias of MCPServer | None": ("ServerLike", IMPORTS, "\nServerLike = MCPServer | None\n"),
    "an alias of Optional[MCPServer]": ("ServerLike", IMPORTS, "\nServerLike = Optional[MCPServer]\n"),
    "a generic Protocol": ("Registrar", IMPORTS, GENERIC_PROTOCOL),
    "a generic Protocol, subscripted": ("Registrar[int]", IMPORTS, GENERIC_PROTOCOL),
}
"""How a helper's server parameter is annotated: (annotation, the module's imports, what it
defines before the helper)."""
HELPERS = {name: helper(*written) for name, written in ANNOTATIONS.items()}


@pytest.mark.parametrize("annotation", sorted(HELPERS))
def test_the_server_a_caller_passes_reaches_the_helper_whatever_its_annotation(
    tmp_path: Path, annotation: str
) -> None:
    files = {"app/deps.py": BAD, "app/tools.py": HELPERS[annotation], "app/main.py": MAIN}
    check_both_ways(tmp_path, files, "import app.main", "app/deps.py")


# rde interface/mcp/resources.py: the resolver beside `register_protocol_tools(server: Any)`,
# filled by name from an optional tool argument; the entry point in another module.
PROTOCOL_TOOLS = {
    "app/runtime.py": "import threading\n\nSTATE_LOCK = threading.Lock()\n",
    "app/protocol.py": "from typing import Annotated, Any\n\nfrom mcp.server.mcpserver import Resolve\n\n"
    "from app.runtime import STATE_LOCK\n\n\ndef resolve_contract(project: str | None = None) -> dict:\n"
    "    from app.runtime import STATE_LOCK as lock\n\n    with lock:\n        return {'p': project}\n\n\n"
    "def register_protocol_tools(server: Any) -> None:\n    @server.tool()\n"
    "    def t(contract: Annotated[dict, Resolve(resolve_contract)], project_id: str | None = None) -> dict:\n"
    "        return contract\n",
    "app/main.py": "from mcp.server import MCPServer\n\nfrom app.protocol import register_protocol_tools\n\n"
    'mcp = MCPServer("x")\nregister_protocol_tools(mcp)\n',
}


def test_a_resolver_beside_a_helper_annotated_any_is_checked(tmp_path: Path) -> None:
    check_both_ways(
        tmp_path,
        PROTOCOL_TOOLS,
        "import app.main",
        "app/protocol.py",
        "Resolver 'resolve_contract' parameter 'project'",
        ("resolve_contract(project: str | None = None)", "resolve_contract(project_id: str | None = None)"),
    )


@pytest.mark.parametrize("annotation", ["Any", "MCPServer | None = None"])
def test_each_file_alone_reports_what_lint_dot_reports(tmp_path: Path, annotation: str) -> None:
    """Pre-commit gives only the changed file: the resolver's, the helper's or the entry point's."""
    root = tmp_path / "proj"
    write_files(
        root, {**PROJECT, "app/deps.py": BAD, "app/tools.py": HELPERS[annotation], "app/main.py": MAIN}
    )
    assert [d["code"] for d in found(root, ["."])] == ["MCPD002"]
    each_file_alone_reports_what_lint_dot_reports(root, tmp_path)


def test_workers_report_what_one_process_reports(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`lint -j 2` cut into small slices: each helper is still checked with the entry point
    calling it (`coupling.py` reads a parameter from the text, whatever its annotation)."""
    monkeypatch.setattr(slice_plan, "MIN_FILES_PER_JOB", 2)
    monkeypatch.setattr(slice_plan, "MAX_FILES_PER_SLICE", 2)
    names = sorted(HELPERS)[:6]
    files = {
        f"app/tools_{n}.py": helper(*ANNOTATIONS[name], name=f"register_{n}", tool=f"t{n}")
        for n, name in enumerate(names)
    }
    calls = "".join(f"from app.tools_{n} import register_{n}\n" for n in range(len(names)))
    main = f'from mcp.server import MCPServer\n\n{calls}\nmcp = MCPServer("x")\n'
    main += "".join(f"register_{n}(mcp)\n" for n in range(len(names)))
    write_files(tmp_path, {**PROJECT, **files, "app/deps.py": BAD, "app/main.py": main})
    one = found(tmp_path, ["."])
    assert [(d["code"], d["path"]) for d in one] == [("MCPD002", "app/deps.py")]
    assert found(tmp_path, ["."], jobs=2) == one


def test_an_optional_server_nothing_passes_is_a_library_of_tools(tmp_path: Path) -> None:
    """Nothing in the project calls `register(server: MCPServer | None = None)`: its tools are
    checked on a server of their own, as `server: MCPServer`'s are; the SDK refuses them as
    soon as an application hands it one."""
    files = {"app/deps.py": BAD, "app/tools.py": HELPERS["MCPServer | None = None"]}
    entry = 'from mcp.server import MCPServer\nfrom app.tools import register\nregister(MCPServer("x"))\n'
    check_both_ways(tmp_path, files, entry, "app/deps.py")


def test_a_helper_annotated_any_that_nothing_calls_is_said_not_analysed(tmp_path: Path) -> None:
    """`Any` says no more than no annotation: with no caller passing a server, its tools are
    named as not analysed (MCPD113), never checked on a server nobody made."""
    write_files(tmp_path, {**PROJECT, "app/deps.py": BAD, "app/tools.py": HELPERS["Any"]})
    found_here = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert [(d["code"], d["path"]) for d in found_here] == [("MCPD113", "app/tools.py")]
    assert "'server' of register() is not known to be a server" in found_here[0]["message"]


AGENT = "class Agent:\n    def tool(self) -> object:\n        return lambda fn: fn\n"


@pytest.mark.parametrize("annotation", ["Agent", "int"])
def test_a_parameter_annotated_with_another_type_receives_no_server(tmp_path: Path, annotation: str) -> None:
    """`def register(agent: Agent)` registering on another framework's object (pydantic-ai's
    `@agent.tool`): the SDK never sees those functions and lint says nothing of them, neither
    a verdict nor a tool it could not analyse."""
    tools = helper(annotation, before="\n\n" + AGENT)
    main = "from app.tools import Agent, register\n\nregister(Agent())\n"
    write_files(tmp_path, {**PROJECT, "app/deps.py": BAD, "app/tools.py": tools, "app/main.py": main})
    assert sdk(tmp_path, "import app.main").returncode == 0
    assert lint_diagnostics(tmp_path, "--no-cache", ".") == []


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    root: Path = request.getfixturevalue("tmp_path")
    write_files(root, {**PROJECT, "app/deps.py": BAD, "app/tools.py": HELPERS["Any"], "app/main.py": MAIN})
    await start(lsp_client, root)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="function")
async def test_the_language_server_reports_what_lint_reports(client: LanguageClient, tmp_path: Path) -> None:
    """The resolver's file opened alone in the editor: MCPD002 there, as `lint` says."""
    expected = lint_json(tmp_path)
    assert [(d["code"], d["path"]) for d in expected] == [("MCPD002", "app/deps.py")]
    Docs(client).open(tmp_path / "app/deps.py")
    await settle(client, tmp_path, expected)


# pydantic-ai's shape: `def register_agent(agent: Any)` decorating `@agent.tool()`, handed an
# object of another library (here the stdlib's, which any run has installed). The SDK never
# sees those functions; `server_annotations.py` opens the slot, `slot_fillers.py` says that
# what fills it is no server.
AGENT_CALLS = {
    "a library instance bound to a name": (
        "from types import SimpleNamespace\n\nagent = SimpleNamespace(tool=lambda: lambda fn: fn)\n"
        "register(agent)\n"
    ),
    "a library instance written in the call": "from unittest.mock import MagicMock\n\nregister(MagicMock())\n",
    "a project class's instance": (
        "class Agent:\n    def tool(self) -> object:\n        return lambda fn: fn\n\n\nregister(Agent())\n"
    ),
    "through a helper passing it on": (
        "from unittest.mock import MagicMock\n\n\ndef install(agent):\n    register(agent)\n\n\n"
        "install(MagicMock())\n"
    ),
}


@pytest.mark.parametrize("annotation", ["", ": Any", ": object"])
@pytest.mark.parametrize("call", sorted(AGENT_CALLS))
def test_an_open_slot_filled_by_another_frameworks_object_is_said_nothing_of(
    tmp_path: Path, annotation: str, call: str
) -> None:
    """No annotation, `Any` or `object` lets a server through, but the calls pass none: the
    SDK starts, and lint says nothing (before, MCPD113 claimed no call passed anything)."""
    tools = helper("Any").replace("server: Any", f"server{annotation}")
    main = "from app.tools import register\n" + AGENT_CALLS[call]
    write_files(tmp_path, {**PROJECT, "app/deps.py": BAD, "app/tools.py": tools, "app/main.py": main})
    assert sdk(tmp_path, "import app.main").returncode == 0
    assert lint_diagnostics(tmp_path, "--no-cache", ".") == []


@pytest.mark.parametrize("annotation", ["", ": Any"])
def test_a_loop_handing_the_helper_an_agent_and_a_server_checks_the_server(
    tmp_path: Path, annotation: str
) -> None:
    """`for host in (agent, mcp): register(host)`: the tools land on `mcp` (the SDK refuses
    them), the agent takes nothing lint checks."""
    tools = helper("Any").replace("server: Any", f"server{annotation}")
    main = (
        "from unittest.mock import MagicMock\n\nfrom mcp.server import MCPServer\n\n"
        'from app.tools import register\n\nagent = MagicMock()\nmcp = MCPServer("x")\n'
        "for host in (agent, mcp):\n    register(host)\n"
    )
    check_both_ways(
        tmp_path,
        {"app/deps.py": BAD, "app/tools.py": tools, "app/main.py": main},
        "import app.main",
        "app/deps.py",
    )


@pytest.mark.parametrize(
    ("passed", "said"),
    [
        ("cast(Any, make())", "app/main.py:8 passes `cast(Any, make())`"),
        ("make()", "app/main.py:8 passes `make()`"),
    ],
)
def test_a_call_passing_what_may_be_a_server_is_named(tmp_path: Path, passed: str, said: str) -> None:
    """What a function returns may be a server (`cast`, a project function mcpdeps does not
    follow): the tools are said not analysed, naming the call, not "no call passes one"."""
    main = (
        "from typing import Any, cast\n\nfrom app.tools import register\n\n\n"
        f"def make() -> Any:\n    return None\nregister({passed})\n"
    )
    write_files(
        tmp_path, {**PROJECT, "app/deps.py": BAD, "app/tools.py": HELPERS["Any"], "app/main.py": main}
    )
    found_here = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert [(d["code"], d["path"]) for d in found_here] == [("MCPD113", "app/tools.py")]
    assert said in found_here[0]["message"], found_here[0]["message"]
