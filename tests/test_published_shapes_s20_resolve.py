"""Shapes of published MCP 2.x servers that use `Resolve` (the s20 round), checked against the SDK.

A destructive-tool gate of a published homelab server: a decorator factory (`@gated("label")`
under `@mcp.tool(...)`) writes `fn.__annotations__[ACK_PARAM] = Annotated[ElicitationResult[...],
Resolve(_ask_operator(label))]`, the key a module constant, the resolver a closure a factory
makes, and hands `fn` back unchanged first when the SDK lacks `Resolve` (`if not HAVE_RESOLVE:
return fn`, the flag set by a `try` importing from `mcp` and cleared by its `except
ImportError`). mcpdeps read neither the constant key nor the early return (two `return fn`
statements): silent while the SDK refused the closure resolver. Now the flag counts as true (the
server runs on `mcp` 2.3: `sdk_flags.py`) and the key as the string it names; a write after an
early return under a test nothing decides is said not followed (MCPD113), never guessed.

The `state` server of a published plugin hands its constructor `tools=tools`, a list mapped
from a tuple of bound methods through a helper making each `Tool` (`Tool.from_function(served)`
then `model_copy(...)`): said not analysed (MCPD113) before, while the SDK refused the server
when the factory ran; now read as the constructor's `Tool.from_function` list it is.

A Planets.nu console's shell hands its login resolver by keyword to `register_shell_tools`,
which passes it on positionally to one private helper per tool: already followed (a case holds it).

Each case is a small project of our own in the 2.3 API; `published_shapes.survey_tests` starts
it under the SDK, then runs `lint .`, `lint <resolver file>` (refused and clean), each file alone
cold and cached, and the editor's model. No code of the published server is here.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import published_shapes
from conftest import lint_diagnostics, write_files
from published_shapes import PROJECT, sdk

Case = tuple[Any, ...]
"""`files, entry, bad[, refused_with, clean]`, as `published_shapes.check_both_ways` takes them."""

CASES: dict[str, Case] = {}


def module(body: str) -> str:
    """`body` dedented (a whole module)."""
    return textwrap.dedent(body)


# A homelab (Proxmox) MCP server's `gate.py` (code corpus; the index does not name the repository).
CASES["a gate decorator writing a Resolve of a closure-making factory under a constant key"] = (
    {
        "app/gate.py": module(
            """\
            from __future__ import annotations

            from typing import Annotated, Any

            try:
                from mcp.server.elicitation import ElicitationResult
                from mcp.server.mcpserver import Context
                from mcp.server.mcpserver.resolve import Elicit, Resolve

                HAVE_RESOLVE = True
            except ImportError:
                HAVE_RESOLVE = False

            from pydantic import BaseModel

            ACK_PARAM = "operator_ack"


            class OperatorAck(BaseModel):
                approve: bool


            def _ask_operator(label: str) -> Any:
                def ask_operator(payload: Any, ctx: "Context") -> "Elicit[OperatorAck] | None":
                    if not getattr(payload, "confirm", False):
                        return None
                    return Elicit(f"Approve {label}?", OperatorAck)

                return ask_operator


            def gated(label: str) -> Any:
                def decorate(fn: Any) -> Any:
                    if not HAVE_RESOLVE:
                        return fn
                    fn.__annotations__[ACK_PARAM] = Annotated[
                        ElicitationResult[OperatorAck], Resolve(_ask_operator(label))
                    ]
                    return fn

                return decorate
            """
        ),
        "app/main.py": module(
            """\
            from __future__ import annotations

            from mcp.server import MCPServer
            from pydantic import BaseModel

            from app.gate import gated

            mcp = MCPServer("homelab")


            class SnapshotInput(BaseModel):
                node: str
                confirm: bool = False


            @mcp.tool(name="snapshot")
            @gated("snapshot")
            async def snapshot(params: SnapshotInput, operator_ack) -> str:
                return params.node
            """
        ),
    },
    "import app.main",
    "app/gate.py",
    "InvalidSignature: Resolver 'ask_operator' parameter 'payload'",
    ("payload", "params"),
)

# mightymodels_plugin's `state` server (an MCP 2.x server built on `Resolve`; the index does not
# name its repository): each tool is a method of a frozen dataclass instance in its own module
# (`ticket_tool.ticket`, its resolved parameter keyword-only, typed with a module-level alias),
# listed in a module-level tuple; the factory closes each tool's argument model through a helper
# (`tool = Tool.from_function(served); return tool.model_copy(update=...)`) mapped over the tuple,
# and hands the list to the constructor: `MCPServer(NAME, lifespan=..., tools=tools)`.
CASES["tools= a list mapped from a tuple of bound methods through a helper making each Tool"] = (
    {
        "app/deps.py": "def load_d(nope: str) -> str:\n    return nope\n",
        "app/ticket.py": module(
            """\
            from dataclasses import dataclass
            from typing import Annotated

            from mcp.server.mcpserver import Resolve

            from app.deps import load_d

            ResolvedD = Annotated[str, Resolve(load_d)]


            @dataclass(slots=True, kw_only=True, frozen=True)
            class TicketTool:
                prefix: str

                def ticket(self, action: str, x: int, *, d: ResolvedD) -> str:
                    \"\"\"Act on a ticket.\"\"\"
                    return self.prefix + action + d


            ticket_tool = TicketTool(prefix="t:")
            """
        ),
        "app/task.py": module(
            """\
            from dataclasses import dataclass


            @dataclass(slots=True, kw_only=True, frozen=True)
            class TaskTool:
                def task(self, action: str) -> str:
                    \"\"\"Act on a task.\"\"\"
                    return action


            task_tool = TaskTool()
            """
        ),
        "app/server.py": module(
            """\
            from collections.abc import Callable

            from mcp.server import MCPServer
            from mcp.server.mcpserver.tools import Tool

            from app.task import task_tool
            from app.ticket import ticket_tool

            TOOLS = (ticket_tool.ticket, task_tool.task)


            def tool_closing_arguments(served: Callable[..., object]) -> Tool:
                tool = Tool.from_function(served)
                return tool.model_copy(update={"title": tool.name})


            def build_server() -> MCPServer:
                tools = list(map(tool_closing_arguments, TOOLS))
                return MCPServer("state", tools=tools)
            """
        ),
        "app/main.py": "from app.server import build_server\n\nserver = build_server()\n",
    },
    "import app.main",
    "app/deps.py",
)

# A Planets.nu console's MCP shell (an MCP 2.x server on `Resolve`; the index does not name its
# repository): `register_shell_tools(mcp, *, game_service, resolve_login, ...)` hands the login
# resolver it is given down to one private `_register_<tool>(mcp, game_service, resolve_login)`
# per tool, each tool nested there resolving `Resolve(resolve_login)`; the entry point passes the
# header-reading resolver by keyword.
CASES["a resolver handed by keyword to a register helper, passed on positionally to one helper per tool"] = (
    {
        "app/login.py": "def login_from_headers(nope: str) -> str:\n    return nope\n",
        "app/shell.py": module(
            """\
            from collections.abc import Callable
            from typing import Annotated

            from mcp.server import MCPServer
            from mcp.server.mcpserver import Resolve


            def register_shell_tools(mcp: MCPServer, *, games: dict[int, str], resolve_login: Callable[..., str]) -> None:
                _register_list_turns(mcp, games, resolve_login)
                _register_game_info(mcp, games, resolve_login)


            def _register_list_turns(mcp: MCPServer, games: dict[int, str], resolve_login: Callable[..., str]) -> None:
                @mcp.tool(name="list_turns")
                def list_turns(game_id: int, login: Annotated[str, Resolve(resolve_login)]) -> list[str]:
                    return [games[game_id]]


            def _register_game_info(mcp: MCPServer, games: dict[int, str], resolve_login: Callable[..., str]) -> None:
                @mcp.tool(name="game_info")
                def game_info(game_id: int, login: Annotated[str, Resolve(resolve_login)]) -> str:
                    return games[game_id]
            """
        ),
        "app/main.py": module(
            """\
            from mcp.server import MCPServer

            from app.login import login_from_headers
            from app.shell import register_shell_tools

            mcp = MCPServer("planets")
            register_shell_tools(mcp, games={1: "sector"}, resolve_login=login_from_headers)
            """
        ),
    },
    "import app.main",
    "app/login.py",
    "InvalidSignature: Resolver 'login_from_headers' parameter 'nope'",
    ("nope", "game_id"),
)

(
    test_sdk_refuses_and_lint_reports_alike,
    test_each_file_alone_reports_what_lint_dot_reports,
    test_the_editor_reports_what_lint_dot_reports,
) = published_shapes.survey_tests(CASES, {})


GATE = CASES["a gate decorator writing a Resolve of a closure-making factory under a constant key"][0]


def test_a_write_after_an_early_return_on_an_undecided_test_is_said(tmp_path: Path) -> None:
    """`if os.environ.get("NO_ASK"): return fn` before the write: the SDK (the variable unset)
    refuses the resolver; mcpdeps, which cannot know the environment, says the decorator is not
    followed (MCPD113 at the tool) rather than guess either way, `lint .` and each file alone."""
    gate = GATE["app/gate.py"].replace("if not HAVE_RESOLVE:", 'if os.environ.get("NO_ASK"):')
    gate = gate.replace("import ast\n", "").replace(
        "from typing import Annotated, Any\n", "import os\nfrom typing import Annotated, Any\n"
    )
    write_files(tmp_path, {**PROJECT, **GATE, "app/gate.py": gate})
    assert "InvalidSignature" in sdk(tmp_path, "import app.main").stderr
    found = [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")]
    assert found == [("MCPD113", "app/main.py")]
    assert [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", "app/main.py")] == found


def test_a_flag_an_import_of_another_package_sets_is_not_decided(tmp_path: Path) -> None:
    """A flag whose `try` also imports a package besides `mcp` (`import yaml`) may be false
    where the server runs: mcpdeps does not decide it, and says the decorator is not followed
    (MCPD113) while the SDK, here, refuses the resolver."""
    gate = GATE["app/gate.py"].replace(
        "    HAVE_RESOLVE = True", "    import json\n\n    HAVE_RESOLVE = True"
    )
    write_files(tmp_path, {**PROJECT, **GATE, "app/gate.py": gate})
    assert "InvalidSignature" in sdk(tmp_path, "import app.main").stderr
    assert [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")] == [
        ("MCPD113", "app/main.py")
    ]


MAPPED = CASES["tools= a list mapped from a tuple of bound methods through a helper making each Tool"][0]


def test_a_mapped_list_the_factory_appends_to_is_said(tmp_path: Path) -> None:
    """`tools.append(...)` after `tools = list(map(...))`: what the list holds when the server
    is made is not read (MCPD113 at `tools=`), never guessed; the SDK refuses the server."""
    server = MAPPED["app/server.py"].replace(
        "    return MCPServer(",
        "    tools.append(Tool.from_function(task_tool.task, name='again'))\n    return MCPServer(",
    )
    write_files(tmp_path, {**PROJECT, **MAPPED, "app/server.py": server})
    assert "InvalidSignature" in sdk(tmp_path, "import app.main").stderr
    assert [(d["code"], d["path"]) for d in lint_diagnostics(tmp_path, "--no-cache", ".")] == [
        ("MCPD113", "app/server.py")
    ]
