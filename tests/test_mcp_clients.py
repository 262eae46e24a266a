"""The SDK's own `Client` against `mcpdeps mcp`, over stdio and HTTP, on both protocol generations.

Each session is what an agent does: list the tools (with their output schemas), lint
the broken example (the same diagnostics as `mcpdeps lint --format json`), draw a
graph (the same document as `mcpdeps graph --format json`), explain a rule, then fix:
declined first (nothing written), accepted next (the files end up byte for byte as
`mcpdeps lint --fix` leaves a copy). The roots the client lists bound every path.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from conftest import run_mcpdeps
from mcp import Client
from mcp_helpers import (
    TIMEOUT,
    Answers,
    Roots,
    call_once,
    cli_json,
    file_bytes,
    in_memory_target,
    make_workspace,
    stdio_target,
    text_of,
    without_workspace,
)
from mcpdeps.lint_rules.docs import rule_markdown
from mcpdeps.lint_rules.registry import find_rule
from test_serve_support import PROTOCOLS, ServeProcess, serving_http

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: the expected answers and an HTTP server shared by the module.

OUTPUTS = {"lint": "LintReport", "graph": "GraphReport", "explain": "RuleReport", "fix": "FixReport"}


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What the CLI says about a pristine workspace: lint, graph, and the bytes `lint --fix` writes."""
    folder = make_workspace(tmp_path_factory.mktemp("cli") / "ws")
    lint = cli_json("lint", "--format", "json", "--no-cache", "broken", cwd=folder)
    graph = cli_json("graph", "--format", "json", "bookshop/server.py", cwd=folder)
    before = file_bytes(folder)
    fixed = run_mcpdeps("lint", "--fix", "--no-cache", "broken", cwd=folder)
    assert fixed.returncode == 1, fixed.stderr  # errors without a safe fix remain
    after = file_bytes(folder)
    assert after != before
    return {"lint": lint, "graph": graph, "before": before, "after": after}


@pytest.fixture(scope="module")
def http_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServeProcess, str]]:
    with serving_http(cwd=tmp_path_factory.mktemp("http-cwd"), command="mcp") as served:
        yield served


def _target(transport: str, folder: Path, http_server: tuple[ServeProcess, str]) -> Any:
    return stdio_target(folder) if transport == "stdio" else http_server[1]


async def _session(target: Any, mode: str, folder: Path, outside: Path, expected: dict[str, Any]) -> None:
    answers = Answers("decline")
    roots = Roots(folder)
    with anyio.fail_after(TIMEOUT):
        async with Client(
            target, mode=mode, list_roots_callback=roots, elicitation_callback=answers
        ) as client:
            assert (client.protocol_version == "2026-07-28") == (mode == "2026-07-28")
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) == set(OUTPUTS)
            for name, model in OUTPUTS.items():
                assert tools[name].output_schema is not None, name
                assert tools[name].output_schema.get("title") == model
                assert "\n" not in (tools[name].description or "\n"), name
            assert list(tools["lint"].input_schema["properties"]) == ["paths", "select", "ignore"]
            assert list(tools["fix"].input_schema["properties"]) == ["paths", "codes", "unsafe_fixes"]
            assert tools["lint"].input_schema["required"] == ["paths"]

            linted = await client.call_tool("lint", {"paths": ["broken"]})
            assert not linted.is_error, text_of(linted)
            assert without_workspace(linted.structured_content) == expected["lint"]
            assert linted.structured_content["workspace"] == {
                "roots": [str(folder.resolve())],
                "source": "client",
                "note": None,
            }
            assert "Found 7 errors in 2 files; checked 2 files, 1 server, 7 tools." in text_of(linted)
            assert roots.asked >= 1

            drawn = await client.call_tool("graph", {"file": "bookshop/server.py"})
            assert not drawn.is_error, text_of(drawn)
            assert without_workspace(drawn.structured_content) == expected["graph"]
            assert "order_book" in text_of(drawn) and "the model never sees" in text_of(drawn)

            explained = await client.call_tool("explain", {"code": "resolver-cycle"})
            assert text_of(explained) == rule_markdown(find_rule("MCPD001"))
            assert explained.structured_content["code"] == "MCPD001"

            declined = await client.call_tool("fix", {"paths": ["broken"]})
            assert not declined.is_error, text_of(declined)
            assert declined.structured_content["status"] == "declined"
            assert (declined.structured_content["fixed"], declined.structured_content["proposed"]) == (0, 3)
            assert file_bytes(folder) == expected["before"]
            question = answers.asked[-1]
            assert "apply 3 safe fixes to 1 file" in question and "broken/server.py" in question
            assert "-def cancel_order(_order_id: str) -> str:" in question

            answers.action = "accept"
            applied = await client.call_tool("fix", {"paths": ["broken"]})
            assert not applied.is_error, text_of(applied)
            report = applied.structured_content
            assert report["status"] == "applied" and report["fixed"] == report["proposed"] == 3
            assert [f["path"] for f in report["files"]] == ["broken/server.py"]
            assert file_bytes(folder) == expected["after"]
            assert len(answers.asked) == 2  # one question per call, on both generations

            again = await client.call_tool("fix", {"paths": ["broken"]})
            assert again.structured_content["status"] == "nothing_to_fix" and len(answers.asked) == 2

            refused = await client.call_tool("lint", {"paths": [str(outside)]})
            assert refused.is_error
            assert "outside the workspace" in text_of(refused)
            still = await client.call_tool("lint", {"paths": ["broken"]})
            assert (
                not still.is_error and still.structured_content["summary"]["errors"] == 4
            )  # the cycle: at each file


@pytest.mark.parametrize("mode", PROTOCOLS)
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_agent_session(
    transport: str, mode: str, tmp_path: Path, expected: dict[str, Any], http_server: tuple[ServeProcess, str]
) -> None:
    folder = make_workspace(tmp_path / "ws")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "server.py").write_text("from mcp.server import MCPServer\n", encoding="utf-8")
    anyio.run(_session, _target(transport, folder, http_server), mode, folder, outside, expected)


@pytest.mark.parametrize("mode", PROTOCOLS)
def test_roots_bound_every_path(mode: str, tmp_path: Path) -> None:
    """Only the listed root is open: a sibling folder is refused, by absolute path or by `..`."""
    folder = make_workspace(tmp_path / "ws")

    async def main() -> None:
        with anyio.fail_after(TIMEOUT):
            roots = Roots(folder / "broken")
            async with Client(stdio_target(folder), mode=mode, list_roots_callback=roots) as client:
                inside = await client.call_tool("lint", {"paths": ["."]})
                assert not inside.is_error, text_of(inside)
                assert {d["path"] for d in inside.structured_content["diagnostics"]} == {
                    "deps.py",
                    "server.py",
                }
                for path in (str(folder / "bookshop"), "../bookshop", str(folder)):
                    refused = await client.call_tool("lint", {"paths": [path]})
                    assert refused.is_error, path
                    assert "workspace" in text_of(refused) or "'..'" in text_of(refused)

    anyio.run(main)


def test_without_roots_the_server_folder_is_used_and_said(tmp_path: Path, expected: dict[str, Any]) -> None:
    folder = make_workspace(tmp_path / "ws")

    async def main() -> None:
        with anyio.fail_after(TIMEOUT):
            async with Client(stdio_target(folder)) as client:
                linted = await client.call_tool("lint", {"paths": ["broken"]})
        assert without_workspace(linted.structured_content) == expected["lint"]
        workspace = linted.structured_content["workspace"]
        assert workspace["source"] == "cwd" and workspace["roots"] == [str(folder.resolve())]
        assert "does not share its roots" in workspace["note"]
        assert "does not share its roots" in text_of(linted)

    anyio.run(main)


def test_fix_writes_nothing_when_the_client_cannot_ask(tmp_path: Path, expected: dict[str, Any]) -> None:
    folder = make_workspace(tmp_path / "ws")
    result = anyio.run(call_once, folder, "fix", {"paths": ["broken"]})
    assert not result.is_error, text_of(result)
    assert result.structured_content["status"] == "not_asked"
    assert file_bytes(folder) == expected["before"]
    assert [f["path"] for f in result.structured_content["files"]] == ["broken/server.py"]


def test_fix_with_nothing_to_fix_does_not_ask(tmp_path: Path) -> None:
    folder = make_workspace(tmp_path / "ws")
    answers = Answers("accept")
    result = anyio.run(
        lambda: call_once(folder, "fix", {"paths": ["bookshop"]}, elicitation_callback=answers)
    )
    assert result.structured_content["status"] == "nothing_to_fix"
    assert answers.asked == []


def test_http_listens_on_loopback_through_serve(http_server: tuple[ServeProcess, str]) -> None:
    process, url = http_server
    assert url.startswith("http://127.0.0.1:")
    assert "DNS-rebinding protection on" in process.stderr
    assert "mcpdeps" in process.stderr and "confirm_fix" in process.stderr


def test_fix_codes_is_lint_fix_select(tmp_path: Path) -> None:
    """`codes` narrows the fixes exactly as `lint --fix --select` does."""
    by_cli = make_workspace(tmp_path / "cli")
    fixed = run_mcpdeps("lint", "--fix", "--no-cache", "--select", "MCPD006", "broken", cwd=by_cli)
    assert fixed.returncode == 0 and "Fixed 1 problem" in fixed.stderr
    folder = make_workspace(tmp_path / "ws")
    answers = Answers("accept")
    arguments = {"paths": ["broken"], "codes": ["underscore-parameter"]}
    result = anyio.run(lambda: call_once(folder, "fix", arguments, elicitation_callback=answers))
    assert result.structured_content["status"] == "applied" and result.structured_content["fixed"] == 1
    assert file_bytes(folder) == file_bytes(by_cli)
    assert "apply 1 safe fix to 1 file" in answers.asked[0]


def test_lint_keeps_its_cache_only_inside_the_workspace(tmp_path: Path, expected: dict[str, Any]) -> None:
    """A warm lint (cache in the workspace) says what a cold one says; a project root above the
    client's root would put the cache outside it, so nothing is written there."""
    folder = make_workspace(tmp_path / "ws")

    async def twice(root: Path) -> list[Any]:
        with anyio.fail_after(TIMEOUT):
            async with Client(in_memory_target(), list_roots_callback=Roots(root)) as client:
                return [await client.call_tool("lint", {"paths": ["broken"]}) for _ in range(2)]

    cold, warm = anyio.run(twice, folder)
    assert (folder / ".mcpdeps_cache").is_dir()
    assert (
        without_workspace(cold.structured_content)
        == expected["lint"]
        == without_workspace(warm.structured_content)
    )

    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'p'\n", encoding="utf-8")
    make_workspace(project / "sub")
    cold, warm = anyio.run(twice, project / "sub")
    assert not warm.is_error and warm.structured_content["summary"]["errors"] == 7
    assert not (project / ".mcpdeps_cache").exists() and not (project / "sub" / ".mcpdeps_cache").exists()
