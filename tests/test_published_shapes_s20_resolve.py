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
