"""`mcpdeps migrate`: our own 1.x-style servers, before and after, with both SDKs as the oracle.

Each case in `tests/migrate_cases/` is a server written for mcp 1.x; `<case>.after` is what
migrate makes of it and `<case>.notes` what it leaves to the user (regenerate both with
`MCPDEPS_UPDATE_SNAPSHOTS=1` after reading the diff). The oracle: mcp 1.x (a venv of its
own, `MCPDEPS_MCP1_PYTHON` or built once) lists the tools of the case and answers calls
through its in-memory session; mcp 2.3.0 (this process) does the same for the migrated
module through its `Client`, on both protocol generations. Names and input schemas must be
equal, and a tool whose question moved into a resolver must answer the same to the same
answers (accept, decline, cancel; a sample; the roots).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import anyio
import pytest
from conftest import REPO, run_mcpdeps
from mcpdeps.lint_rules.migration import migrate_text
from venv_tools import python_of, venv

CASES_DIR = REPO / "tests" / "migrate_cases"
CASES = sorted(p.stem for p in CASES_DIR.glob("*.py"))
UPDATE = bool(os.environ.get("MCPDEPS_UPDATE_SNAPSHOTS"))

ACCEPT_OK = {"action": "accept", "content": {"ok": True}}
DECLINE = {"action": "decline"}
CANCEL = {"action": "cancel"}
CALLS: dict[str, list[dict[str, Any]]] = {
    "questions": [
        {"tool": "delete", "arguments": {"path": "a.txt"}, "answer": ACCEPT_OK},
        {"tool": "delete", "arguments": {"path": "a.txt"}, "answer": DECLINE},
        {"tool": "delete", "arguments": {"path": "a.txt", "force": True}, "answer": CANCEL},
        {"tool": "rename", "arguments": {"old": "a", "new": "b"}, "answer": ACCEPT_OK},
        {
            "tool": "rename",
            "arguments": {"old": "a", "new": "b"},
            "answer": {**ACCEPT_OK, "content": {"ok": False}},
        },
        {"tool": "rename", "arguments": {"old": "a", "new": "b"}, "answer": DECLINE},
        {
            "tool": "order",
            "arguments": {"title": "Dune"},
            "answer": {"action": "accept", "content": {"express": True}},
        },
        {"tool": "summarize", "arguments": {"text": "long"}, "answer": ACCEPT_OK},
        {"tool": "where", "arguments": {}, "answer": ACCEPT_OK},
        {"tool": "chained", "arguments": {"name": "Ada"}, "answer": ACCEPT_OK},
    ],
    "get_context": [
        {"tool": "greet", "arguments": {}, "answer": {"action": "accept", "content": {"name": "Ada"}}},
        {
            "tool": "greet",
            "arguments": {"greeting": "Hi"},
            "answer": {"action": "accept", "content": {"name": "Bo"}},
        },
    ],
    "factory": [
        {"tool": "wipe", "arguments": {"table": "users"}, "answer": ACCEPT_OK},
    ],
    "basics": [
        {"tool": "add", "arguments": {"a": 1}, "answer": None},
        {"tool": "check", "arguments": {"value": 3}, "answer": None},
    ],
}
"""The calls each case answers the same before and after (the answer given to any question)."""

PROBE_1X = """
import asyncio, json, logging, sys, importlib.util
logging.disable(logging.CRITICAL)
from mcp.shared.memory import create_connected_server_and_client_session
from mcp import types

spec = importlib.util.spec_from_file_location("case_module", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
server = module.mcp

async def main():
    tools = {t.name: t.inputSchema for t in await server.list_tools()}
    results = []
    for call in json.loads(sys.argv[2]):
        async def elicit(context, params):
            return types.ElicitResult(**call["answer"])
        async def sample(context, params):
            text = types.TextContent(type="text", text="a summary of " + params.messages[0].content.text)
            return types.CreateMessageResult(role="assistant", content=text, model="m")
        async def roots(context):
            return types.ListRootsResult(roots=[types.Root(uri="file:///srv/data")])
        async with create_connected_server_and_client_session(
            server._mcp_server, elicitation_callback=elicit, sampling_callback=sample, list_roots_callback=roots
        ) as client:
            r = await client.call_tool(call["tool"], call["arguments"])
            results.append({"is_error": r.isError, "text": [c.text for c in r.content if hasattr(c, "text")]})
    print(json.dumps({"tools": tools, "calls": results}))

asyncio.run(main())
"""


def _before(case: str) -> str:
    return (CASES_DIR / f"{case}.py").read_text(encoding="utf-8")


def _snapshot(path: Path, text: str) -> str:
    if UPDATE or not path.exists():
        path.write_text(text, encoding="utf-8")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES)
def test_migrated_text_and_notes_match_their_snapshots(case: str) -> None:
    migrated = migrate_text(_before(case))
    assert migrated.text == _snapshot(CASES_DIR / f"{case}.after", migrated.text)
    notes = "".join(f"{n.line}: {n.reason}\n" for n in migrated.notes)
    assert notes == _snapshot(CASES_DIR / f"{case}.notes", notes)


@pytest.mark.parametrize("case", CASES)
def test_migrating_twice_changes_nothing_the_second_time(case: str) -> None:
    once = migrate_text(_before(case))
    twice = migrate_text(once.text)
    assert twice.text == once.text
    assert twice.questions == 0


def test_what_is_left_is_named_with_its_line_and_reason() -> None:
    notes = {n.line: n.reason for n in migrate_text(_before("left_alone")).notes}
    source = _before("left_alone").splitlines()
    assert all("await ctx." in source[line - 1] for line in notes)
    reasons = sorted(r.split("asked ", 1)[1] for r in notes.values())
    assert reasons == [
        "after line 16, which has effects",
        "from `confirm`, a helper, not at the start of a tool body",
        "in a `try` block",
        "in a branch",
        "in a loop",
    ]


def test_the_standalone_fastmcp_package_is_not_the_sdk() -> None:
    """`fastmcp` (the separate package) has its own `Context.fastmcp`: only the SDK's is renamed."""
    source = (
        "from fastmcp import Context, FastMCP\n\nmcp = FastMCP('s')\n\n\n@mcp.tool()\n"
        "async def name(ctx: Context) -> str:\n    return ctx.fastmcp.name\n"
    )
    assert migrate_text(source).text == source
    sdk = source.replace("from fastmcp import", "from mcp.server.fastmcp import")
    assert "ctx.mcp_server.name" in migrate_text(sdk).text


def test_lint_is_clean_on_the_output_but_for_what_was_left(tmp_path: Path) -> None:
    for case in CASES:
        (tmp_path / f"{case}.py").write_text(migrate_text(_before(case)).text, encoding="utf-8")
    result = run_mcpdeps("lint", "--format", "json", "--no-cache", ".", cwd=tmp_path)
    found = [(d["path"], d["code"]) for d in json.loads(result.stdout)["diagnostics"]]
    assert found == [("left_alone.py", "MCPD112")] * 3, result.stdout  # no MCPD112 for a helper or a sample


def test_the_command_writes_through_the_file_guard_and_previews_with_diff(tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_text(_before("questions"), encoding="utf-8")
    preview = run_mcpdeps("migrate", "--diff", "server.py", cwd=tmp_path)
    assert preview.returncode == 1
    assert preview.stdout.startswith("--- a/server.py\n+++ b/server.py\n")
    assert server.read_text(encoding="utf-8") == _before("questions")
    assert "Would migrate 1 file, 7 questions moved into resolvers." in preview.stderr

    written = run_mcpdeps("migrate", ".", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    assert "Migrated 1 file, 7 questions moved into resolvers." in written.stderr
    assert server.read_text(encoding="utf-8") == (CASES_DIR / "questions.after").read_text(encoding="utf-8")
    again = run_mcpdeps("migrate", ".", cwd=tmp_path)
    assert (again.returncode, again.stdout) == (0, "")
    assert "Nothing to migrate in 1 file." in again.stderr


def test_left_alone_places_are_listed_and_make_the_exit_code_1(tmp_path: Path) -> None:
    shutil.copy(CASES_DIR / "left_alone.py", tmp_path / "server.py")
    result = run_mcpdeps("migrate", "server.py", cwd=tmp_path)
    assert result.returncode == 1
    assert "server.py:25: `ctx.elicit(...)` not moved: asked in a loop" in result.stderr
    assert "5 places left for you" in result.stderr


def test_links_out_of_the_project_and_missing_paths_are_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text(_before("basics"), encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'p'\n", encoding="utf-8")
    (project / "server.py").symlink_to(outside)
    refused = run_mcpdeps("migrate", "server.py", cwd=project)
    assert refused.returncode == 2
    assert "outside the project" in refused.stderr
    assert outside.read_text(encoding="utf-8") == _before("basics")
    missing = run_mcpdeps("migrate", "nope.py", cwd=project)
    assert missing.returncode == 2
    assert "nope.py does not exist" in missing.stderr


def test_lint_offers_the_mcpd112_fix_only_with_unsafe_fixes(tmp_path: Path) -> None:
    migrated = migrate_text(_before("basics")).text  # a 2.x module...
    tool = (
        "\n\nclass Confirm(BaseModel):\n    ok: bool\n\n\n@mcp.tool()\n"
        "async def delete(path: str, ctx: Context) -> str:\n"
        '    answer = await ctx.elicit(f"Delete {path}?", Confirm)\n'
        '    return path if answer.action == "accept" and answer.data.ok else "kept"\n'
    )
    server = tmp_path / "server.py"
    server.write_text("from pydantic import BaseModel\n" + migrated + tool, encoding="utf-8")  # ...that asks
    safe = run_mcpdeps("lint", "--diff", "server.py", cwd=tmp_path)
    assert (safe.returncode, safe.stdout) == (0, "")
    unsafe = run_mcpdeps("lint", "--diff", "--unsafe-fixes", "server.py", cwd=tmp_path)
    assert unsafe.returncode == 1
    assert "+async def ask_delete(path: str) -> Elicit[Confirm]:" in unsafe.stdout
    fixed = run_mcpdeps("lint", "--fix", "--unsafe-fixes", "server.py", cwd=tmp_path)
    assert "Fixed 1 problem in 1 file." in fixed.stderr
    assert "ctx.elicit" not in server.read_text(encoding="utf-8")
    assert run_mcpdeps("lint", "server.py", cwd=tmp_path).returncode == 0


# The oracle: mcp 1.x before, mcp 2.3.0 after.


@pytest.fixture(scope="module")
def mcp1_python() -> str:
    """A Python with mcp 1.x and its dependencies: `MCPDEPS_MCP1_PYTHON`, else a venv built
    once per machine (`tests/venv_tools.py`) and shared by every run after the first."""
    given = os.environ.get("MCPDEPS_MCP1_PYTHON")
    if given:
        return given
    try:
        return str(python_of(venv("mcp1-sdk", ["mcp<2"])))
    except RuntimeError as exc:  # no registry: say so rather than fail every case
        pytest.skip(f"mcp 1.x could not be installed: {str(exc)[-300:]}")


def _under_1x(python: str, path: Path, calls: list[dict[str, Any]], tmp_path: Path) -> dict[str, Any]:
    probe = tmp_path / "probe_1x.py"
    probe.write_text(PROBE_1X, encoding="utf-8")
    done = subprocess.run(
        [python, str(probe), str(path), json.dumps(calls)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _under_2x(path: Path, calls: list[dict[str, Any]], mode: str) -> dict[str, Any]:
    from mcp import Client, types

    spec = importlib.util.spec_from_file_location(f"migrated_{path.stem}_{mode}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    async def run() -> dict[str, Any]:
        results = []
        async with Client(module.mcp, mode=mode) as client:
            tools = {t.name: t.input_schema for t in (await client.list_tools()).tools}
        for call in calls:

            async def elicit(context: Any, params: Any, answer: Any = call["answer"]) -> Any:
                return types.ElicitResult(**answer)

            async def sample(context: Any, params: Any) -> Any:
                text = types.TextContent(type="text", text="a summary of " + params.messages[0].content.text)
                return types.CreateMessageResult(role="assistant", content=text, model="m")

            async def roots(context: Any) -> Any:
                return types.ListRootsResult(roots=[types.Root(uri="file:///srv/data")])

            async with Client(
                module.mcp,
                mode=mode,
                elicitation_callback=elicit,
                sampling_callback=sample,
                list_roots_callback=roots,
            ) as client:
                r = await client.call_tool(call["tool"], call["arguments"])
                results.append(
                    {"is_error": r.is_error, "text": [c.text for c in r.content if hasattr(c, "text")]}
                )
        return {"tools": tools, "calls": results}

    return anyio.run(run)


@pytest.mark.parametrize("case", sorted(CALLS))
def test_same_tools_and_same_answers_before_and_after(case: str, mcp1_python: str, tmp_path: Path) -> None:
    before = tmp_path / f"{case}.py"
    shutil.copy(CASES_DIR / f"{case}.py", before)
    after = tmp_path / f"{case}_v2.py"
    after.write_text(migrate_text(_before(case)).text, encoding="utf-8")
    old = _under_1x(mcp1_python, before, CALLS[case], tmp_path)
    for mode in ("auto", "legacy"):  # 2026-07-28 (no back-channel) and 2025-11-25
        new = _under_2x(after, CALLS[case], mode)
        assert new["tools"] == old["tools"], mode
        for call, was, now in zip(CALLS[case], old["calls"], new["calls"], strict=True):
            assert now["is_error"] == was["is_error"], (mode, call, was, now)
            if not was["is_error"]:
                assert now["text"] == was["text"], (mode, call)
    if case == "questions":  # the oracle itself answered, in every way a body can take
        texts = [c["text"][0] if c["text"] else "" for c in old["calls"]]
        assert texts[:5] == ["deleted a.txt", "declined", "cancelled", "b", "a"]
        assert old["calls"][5]["is_error"]  # `.data` of a declined answer: the call fails, as after
        assert texts[6:9] == ["1 x Dune, express=True", "a summary of Summarize: long", "file:///srv/data"]
