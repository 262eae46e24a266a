"""No text from outside the client's roots reaches an agent's result (issue 34, item 4).

The agent server follows imports the way `lint` does, within the project root, which may
lie above a narrower client root, and through links. A file named directly is refused when
it lies outside the roots; a module reached through an import used to be read anyway, and
`graph` printed its `Elicit` message (a planted secret came back). Now every module whose
real path is outside the roots is not read at all, by the same rule as named paths. Checked
with links into and out of the roots, for `graph` and `lint`, through the SDK's in-memory
`Client` and the real server object.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_helpers import TIMEOUT, Roots, text_of
from mcpdeps.cli.agent.server import server

SECRET = "AWS_SECRET=wJalrXUtnFEMI"

ASKING = f'''from mcp.server.mcpserver import Elicit
from pydantic import BaseModel


class Ok(BaseModel):
    ok: bool


def ask(title: str) -> Elicit[Ok]:
    return Elicit("{SECRET} confirm?", Ok)
'''


def _server(module: str) -> str:
    return (
        "from typing import Annotated\n\nfrom mcp.server import MCPServer\n"
        f"from mcp.server.mcpserver import Resolve\n\nfrom {module} import Ok, ask\n\n"
        "mcp = MCPServer('s')\n\n\n@mcp.tool()\n"
        "def t(title: str, ok: Annotated[Ok, Resolve(ask)]) -> str:\n    return title\n"
    )


def _calls(root: Path, file: str, folder: str) -> list[Any]:
    async def main() -> list[Any]:
        with anyio.fail_after(TIMEOUT):
            async with Client(server, list_roots_callback=Roots(root)) as client:
                return [
                    await client.call_tool("graph", {"file": file}),
                    await client.call_tool("lint", {"paths": [folder]}),
                ]

    return anyio.run(main)


def _shown(results: list[Any]) -> str:
    return "\n".join(text_of(r) + json.dumps(r.structured_content) for r in results)


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "app").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    return project


def test_a_module_above_a_narrower_client_root_is_not_read(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "shared.py").write_text(ASKING)
    (project / "app" / "server.py").write_text(_server("shared"))
    inside_control = _calls(project, "app/server.py", "app")  # the whole project is the root
    assert SECRET in _shown(inside_control), "the control: within the roots the question is shown"
    results = _calls(project / "app", "server.py", ".")
    assert SECRET not in _shown(results)
    assert not results[0].is_error, text_of(results[0])


@pytest.mark.parametrize("link", ["package", "module"])
def test_a_link_leading_out_of_the_root_is_not_followed_into_text(tmp_path: Path, link: str) -> None:
    project = _project(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "vault").mkdir(parents=True)
    (elsewhere / "vault" / "__init__.py").write_text(ASKING)
    (elsewhere / "vault_module.py").write_text(ASKING)
    if link == "package":
        os.symlink(elsewhere / "vault", project / "app" / "vault")
        (project / "app" / "server.py").write_text(_server("vault"))
    else:
        os.symlink(elsewhere / "vault_module.py", project / "app" / "vault_module.py")
        (project / "app" / "server.py").write_text(_server("vault_module"))
    results = _calls(project / "app", "server.py", "server.py")
    assert SECRET not in _shown(results)


def test_a_link_within_the_roots_is_still_followed(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "lib").mkdir()
    (project / "lib" / "shared.py").write_text(ASKING)
    os.symlink(project / "lib" / "shared.py", project / "app" / "shared.py")
    (project / "app" / "server.py").write_text(_server("shared"))
    assert SECRET in _shown(_calls(project, "app/server.py", "app"))


def test_roots_that_are_not_folders_are_refused_not_widened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client whose roots name no local folder (`file://fileserver/...`: another host; the SDK
    refuses other schemes itself) gave none: the server's own folder (which holds a project
    here) is not read in their place (issue 34, item 12)."""
    import mcp.types as types

    project = _project(tmp_path)
    (project / "shared.py").write_text(ASKING)
    (project / "app" / "server.py").write_text(_server("shared"))
    monkeypatch.chdir(project)

    async def roots(context: Any) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[types.Root(uri="file://fileserver/share/repo", name="remote")])

    async def main() -> Any:
        with anyio.fail_after(TIMEOUT):
            async with Client(server, list_roots_callback=roots) as client:
                return await client.call_tool("graph", {"file": "app/server.py"})

    result = anyio.run(main)
    assert result.is_error
    text = text_of(result)
    assert SECRET not in text and "file:" in text and text.endswith("."), text


def test_a_nul_in_a_path_is_a_sentence(tmp_path: Path) -> None:
    """Every tool, every path argument: no bare "Error executing tool" (issue 34, item 12)."""
    project = _project(tmp_path)
    (project / "app" / "server.py").write_text(_server("shared"))

    async def main() -> list[Any]:
        with anyio.fail_after(TIMEOUT):
            async with Client(server, list_roots_callback=Roots(project)) as client:
                return [
                    await client.call_tool("lint", {"paths": ["app/a\x00b.py"]}),
                    await client.call_tool("graph", {"file": "app/ser\x00ver.py"}),
                    await client.call_tool("fix", {"paths": ["\x00"]}),
                ]

    for result in anyio.run(main):
        assert result.is_error and "NUL" in text_of(result), text_of(result)
