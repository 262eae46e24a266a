"""The codemods of `mcpdeps migrate` on small shapes: what each rewrites, what it reports, and idempotence.

The whole-server cases, with the SDKs as the oracle, are `test_migrate.py`; these pin the
shapes one at a time (the constructor's settings and each way a server is started, the
renamed names under aliases, MCPD112's fix on one tool).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mcpdeps.lint_rules.fixes import FixCache, fix_of, is_fixable, is_unsafe
from mcpdeps.lint_rules.migration import migrate_text
from mcpdeps.lint_rules.migration.files import plan_migration

HEADER = "from mcp.server.fastmcp import FastMCP\n"


def migrated(source: str) -> tuple[str, list[str]]:
    result = migrate_text(source)
    assert migrate_text(result.text).text == result.text  # idempotent
    return result.text, [f"{n.line}: {n.reason}" for n in result.notes]


def test_settings_go_to_the_run_of_their_transport() -> None:
    text, notes = migrated(
        HEADER + 'mcp = FastMCP("s", host="0.0.0.0", port=9000, stateless_http=True, sse_path="/e")\n'
        'mcp.run(transport="streamable-http")\n'
        'mcp.run(transport="sse")\n'
        "mcp.run()\n"
    )
    assert 'mcp = MCPServer("s")\n' in text
    assert 'mcp.run(transport="streamable-http", host="0.0.0.0", port=9000, stateless_http=True)\n' in text
    assert 'mcp.run(transport="sse", host="0.0.0.0", port=9000, sse_path="/e")\n' in text
    assert text.endswith("mcp.run()\n")  # stdio takes none: v1 ignored them there too
    assert notes == []


def test_a_transport_chosen_at_run_time_gets_what_every_http_transport_takes() -> None:
    text, notes = migrated(
        "import sys\n" + HEADER + 'mcp = FastMCP("s", port=9000, json_response=True)\nmcp.run(sys.argv[1])\n'
    )
    assert "mcp.run(sys.argv[1], port=9000)\n" in text
    assert notes == ["4: the transport is chosen at run time: pass its own settings to `run()` for it"]


def test_app_factories_take_their_own_settings_and_mount_path_goes() -> None:
    text, notes = migrated(
        HEADER + 'mcp = FastMCP("s", json_response=True, sse_path="/e", port=1)\n'
        "app = mcp.streamable_http_app()\n"
        'events = mcp.sse_app("/mounted")\n'
    )
    assert "app = mcp.streamable_http_app(json_response=True)\n" in text
    assert 'events = mcp.sse_app(sse_path="/e")\n' in text
    assert notes == ["4: `mount_path` was removed in mcp 2 (mounting sets ASGI's `root_path`)"]


def test_settings_with_nowhere_to_go_are_reported_at_the_constructor() -> None:
    text, notes = migrated(
        HEADER + 'def build(port: int) -> FastMCP:\n    server = FastMCP("s", port=port)\n    return server\n'
    )
    assert '    server = MCPServer("s")\n' in text
    assert notes == [
        "3: `port=` left the constructor in mcp 2: pass them to `run()`, `sse_app()` or "
        "`streamable_http_app()` where the server is started"
    ]


def test_positional_arguments_after_the_name_become_keywords() -> None:
    text, _ = migrated(HEADER + 'mcp = FastMCP("s", "Be brief.", "https://example.org")\n')
    assert 'mcp = MCPServer("s", instructions="Be brief.", website_url="https://example.org")\n' in text


def test_renamed_names_under_module_aliases_and_removed_aliases() -> None:
    text, notes = migrated(
        "import mcp.server.fastmcp as fm\n"
        "from mcp import McpError\n"
        "from mcp.types import Content, Cursor, ErrorData\n"
        "from mcp.shared.version import LATEST_PROTOCOL_VERSION\n"
        'server = fm.FastMCP("s")\n'
        "def page(cursor: Cursor | None, c: Content) -> None:\n"
        "    raise McpError(ErrorData(code=1, message='no'))\n"
    )
    assert text == (
        "import mcp.server.mcpserver as fm\n"
        "from mcp import MCPError\n"
        "from mcp.types import ContentBlock, ErrorData\n"
        "from mcp.types.version import LATEST_PROTOCOL_VERSION\n"
        'server = fm.MCPServer("s")\n'
        "def page(cursor: str | None, c: ContentBlock) -> None:\n"
        "    raise MCPError.from_error_data(ErrorData(code=1, message='no'))\n"
    )
    assert notes == []


def test_camel_case_fields_are_renamed_only_in_modules_that_use_mcp() -> None:
    text, _ = migrated("from mcp import ClientSession\n\ndef f(r):\n    return r.isError, r.nextCursor\n")
    assert "return r.is_error, r.next_cursor" in text
    unrelated = "def f(r):\n    return r.isError\n"
    assert migrate_text(unrelated).text == unrelated


def test_a_question_inside_an_expression_is_reported_not_moved() -> None:
    source = (
        HEADER + "from mcp.server.fastmcp import Context\nfrom pydantic import BaseModel\n"
        "mcp = FastMCP('s')\n\nclass Ok(BaseModel):\n    ok: bool\n\n@mcp.tool()\n"
        "async def t(ctx: Context) -> str:\n    return str(await ctx.elicit('Sure?', Ok))\n"
    )
    text, notes = migrated(source)
    assert "await ctx.elicit('Sure?', Ok)" in text
    assert notes == [
        "11: `ctx.elicit(...)` not moved: asked inside an expression, not as `answer = await ...` on its own line"
    ]


def test_mcpd112_is_unsafe_never_counted_and_fixed_only_when_asked() -> None:
    spec = fix_of("MCPD112")
    assert spec is not None and spec.fixer is not None and is_unsafe("MCPD112")
    assert not is_fixable("MCPD112")


@pytest.mark.parametrize("unsafe", [False, True])
def test_the_fix_cache_gates_unsafe_fixes(unsafe: bool, tmp_path: Path) -> None:
    from mcpdeps.lint_rules import lint

    source = (
        "from mcp.server import MCPServer\nfrom mcp.server.mcpserver import Context\n"
        "from pydantic import BaseModel\n\nmcp = MCPServer('s')\n\n\nclass Ok(BaseModel):\n    ok: bool\n\n\n"
        "@mcp.tool()\nasync def t(x: str, ctx: Context) -> str:\n"
        "    a = await ctx.elicit(f'{x}?', Ok)\n    return x if a.data.ok else ''\n"
    )
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    result = lint([tmp_path / "server.py"], cwd=tmp_path)
    [d] = [d for d in result.diagnostics if d.code == "MCPD112"]
    fix = FixCache(lambda path: source, unsafe=unsafe).fix_for(d)
    assert (fix is not None) == unsafe
    if fix is not None:
        assert any("Resolve(ask_t)" in e.content for e in fix.edits)


def test_an_unparsable_file_is_listed_and_left_alone(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("from mcp.server.fastmcp import FastMCP\ndef (:\n", encoding="utf-8")
    (tmp_path / "fine.py").write_text(HEADER + "mcp = FastMCP('s')\n", encoding="utf-8")
    plan = plan_migration(["."], tmp_path)
    assert plan.changed() == ["fine.py"]
    assert [(n.path, n.reason.split(":")[0]) for n in plan.notes] == [("broken.py", "not migrated")]


def test_removed_apis_and_context_changes_without_a_drop_in_are_reported() -> None:
    source = (
        HEADER + "from mcp.server.fastmcp import Context\n"
        "from mcp.shared.memory import create_connected_server_and_client_session\n"
        "mcp = FastMCP('s')\n\n"
        "async def helper() -> None:\n    await mcp.get_context().info('hi')\n\n"
        "@mcp.tool()\nasync def who(ctx: Context) -> str:\n    return str(ctx.client_id)\n"
    )
    text, notes = migrated(source)
    assert notes == [
        "3: `create_connected_server_and_client_session` was removed in mcp 2: use `mcp.Client(server)`",
        "7: `get_context()` was removed in mcp 2: pass the tool's `Context` parameter to this code",
        "11: `Context.client_id` was removed in mcp 2: read `ctx.request_context.meta` or the OAuth access token instead",
    ]
    assert "await mcp.get_context().info('hi')" in text  # left as it is


def test_get_context_in_a_tool_becomes_its_context_parameter() -> None:
    text, notes = migrated(
        HEADER + "mcp = FastMCP('s')\n\n@mcp.tool()\nasync def t(x: int = 1) -> int:\n"
        "    ctx = mcp.get_context()\n    await ctx.report_progress(1, 2)\n    return x\n"
    )
    assert "async def t(x: int = 1, *, ctx: Context) -> int:\n    await ctx.report_progress(1, 2)" in text
    assert "from mcp.server.mcpserver import Context, MCPServer" in text
    assert notes == []


def test_migrating_never_imports_the_sdk_nor_the_code_it_rewrites(tmp_path: Path) -> None:
    """A codemod reads text: the SDK (1.x or 2.x) and the user's modules stay unimported (the
    process's own imports are the subject, hence a fresh interpreter)."""
    import subprocess
    import sys

    (tmp_path / "server.py").write_text(HEADER + "mcp = FastMCP('s')\nraise SystemExit('imported!')\n")
    probe = (
        "import sys\nfrom mcpdeps.lint_rules.migration.files import plan_migration\nfrom pathlib import Path\n"
        f"plan = plan_migration(['.'], Path({str(tmp_path)!r}))\n"
        "print(plan.changed(), sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'server'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert done.stdout.strip() == "['server.py'] []", done.stderr
