"""MCPD201-MCPD204's unsafe fixes: offered only with `--unsafe-fixes`, and what they write is
clean for `mcpdeps lint` and registers under the real SDK (the model no longer sees the value;
the confirmation is asked of the person through `Elicit`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_mcpdeps
from mcpdeps.lint_rules import lint
from mcpdeps.lint_rules.fixes import is_fixable, is_unsafe
from mcpdeps.lint_rules.fixes.cst_source import CstSource
from mcpdeps.lint_rules.fixes.model_supplied import fix
from mcpdeps.lint_rules.registry import find_rule
from mcpdeps.lint_rules.rules.model_supplied_arguments import HEADER
from trap_helpers import call, connect, load_server

CASES = [
    # rule, source, tool, the argument the fix takes away
    ("MCPD201", find_rule("MCPD201").INVALID[0], "list_orders", "tenant_id"),
    ("MCPD202", find_rule("MCPD202").INVALID[0], "order_book", "price"),
    ("MCPD203", find_rule("MCPD203").INVALID[0], "reserve_book", "api_key"),
    (
        "MCPD203",
        '"""A module docstring stays first."""\nfrom mcp.server import MCPServer\n\nmcp = MCPServer("s")\n\n\n'
        "@mcp.tool()\ndef query(flux: str, token: str | None = None, limit: int = 10) -> str:\n    return flux\n",
        "query",
        "token",
    ),
    ("MCPD204", find_rule("MCPD204").INVALID[0], "order_book", "confirm"),
]


def _fixed(tmp_path: Path, code: str, source: str) -> str:
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "server.py"
    path.write_text(source, encoding="utf-8")
    found = next(d for d in lint([path], select=["ALL"]).diagnostics if d.code == code)
    module = fix(CstSource(source), found)
    assert module is not None
    return module.code


def _schema(module: Any, tool: str) -> dict[str, Any]:
    async def body(client: Any) -> dict[str, Any]:
        listed = await client.list_tools()
        return next(t.input_schema for t in listed.tools if t.name == tool)

    return connect(module, body)


@pytest.mark.parametrize(("code", "source", "tool", "argument"), CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_the_fixed_code_lints_clean_and_the_sdk_no_longer_asks_the_model(
    code: str, source: str, tool: str, argument: str, tmp_path: Path
) -> None:
    fixed = _fixed(tmp_path / "plan", code, source)
    assert lint([tmp_path / "plan" / "server.py"], select=["ALL"]).diagnostics != []  # the original
    module, path = load_server(tmp_path / "fixed", fixed)
    assert [(d.code, d.message) for d in lint([path], select=["ALL"]).diagnostics] == []
    assert argument not in _schema(module, tool)["properties"]


def test_a_resolved_stub_raises_until_it_is_written(tmp_path: Path) -> None:
    module, _ = load_server(tmp_path, _fixed(tmp_path / "plan", "MCPD203", find_rule("MCPD203").INVALID[0]))
    is_error, text = call(module, "reserve_book", {"title": "Dune", "api_key": "sk-forged"})
    assert is_error and "sk-forged" not in text


def test_asking_the_person_hands_the_body_the_same_bool(tmp_path: Path) -> None:
    from mcp.types import ElicitResult

    module, _ = load_server(tmp_path, _fixed(tmp_path / "plan", "MCPD204", find_rule("MCPD204").INVALID[0]))
    asked: list[str] = []

    def answering(yes: bool) -> Any:
        async def answer(context: Any, params: Any) -> ElicitResult:
            asked.append(params.message)
            return ElicitResult(action="accept", content={"confirm": yes})

        return answer

    forged = {"title": "Dune", "confirm": True}  # what the model used to send is ignored now
    assert call(module, "order_book", forged, elicitation_callback=answering(False)) == (
        False,
        "No order placed.",
    )
    assert call(module, "order_book", forged, elicitation_callback=answering(True)) == (
        False,
        "Ordered 'Dune'.",
    )
    assert asked == ["Go ahead with order book?"] * 2


def test_no_fix_when_the_default_cannot_go(tmp_path: Path) -> None:
    """A resolved parameter keeps no default; dropping it after a defaulted one is a syntax error."""
    source = (
        HEADER
        + "@mcp.tool()\ndef query(flux: str, limit: int = 10, token: str = '') -> str:\n    return flux\n"
    )
    path = tmp_path / "server.py"
    path.write_text(source, encoding="utf-8")
    found = next(d for d in lint([path], select=["ALL"]).diagnostics if d.code == "MCPD203")
    assert fix(CstSource(source), found) is None


def test_no_fix_when_a_name_it_would_write_is_taken(tmp_path: Path) -> None:
    source = (
        HEADER
        + "def resolve_api_key() -> str:\n    return ''\n\n"
        + find_rule("MCPD203").INVALID[0].split("mcp = MCPServer('Bookshop')\n\n")[1]
    )
    path = tmp_path / "server.py"
    path.write_text(source, encoding="utf-8")
    found = next(d for d in lint([path], select=["ALL"]).diagnostics if d.code == "MCPD203")
    assert fix(CstSource(source), found) is None


def test_the_fixes_are_unsafe_only(tmp_path: Path) -> None:
    """`--fix` leaves the file alone; `--diff --unsafe-fixes` shows the rewrite; json lists no fix."""
    assert all(is_unsafe(c) for c in ("MCPD201", "MCPD202", "MCPD203", "MCPD204"))
    assert not any(is_fixable(c) for c in ("MCPD201", "MCPD202", "MCPD203", "MCPD204"))
    server = tmp_path / "server.py"
    source = find_rule("MCPD204").INVALID[0]
    server.write_text(source, encoding="utf-8")

    run_mcpdeps("lint", "--no-cache", "--fix", "server.py", cwd=tmp_path)
    assert server.read_text(encoding="utf-8") == source
    assert run_mcpdeps("lint", "--no-cache", "--diff", "server.py", cwd=tmp_path).stdout == ""

    shown = run_mcpdeps("lint", "--no-cache", "--diff", "--unsafe-fixes", "server.py", cwd=tmp_path)
    assert "+def ask_confirm_order_book() -> Elicit[OrderBookAnswer]:" in shown.stdout
    assert server.read_text(encoding="utf-8") == source  # a diff writes nothing

    run_mcpdeps("lint", "--no-cache", "--fix", "--unsafe-fixes", "server.py", cwd=tmp_path)
    assert "Resolve(confirm_order_book)" in server.read_text(encoding="utf-8")


def test_the_agents_fix_applies_them_only_when_asked_and_after_consent(tmp_path: Path) -> None:
    """`mcpdeps mcp`'s `fix` with `unsafe_fixes`: the user sees the edits (and that they change
    behaviour) before anything is written; without it, the unsafe fixes are not even offered."""
    import anyio
    from mcp_helpers import Answers, call_once, make_workspace

    folder = make_workspace(tmp_path / "ws")
    (folder / "shop").mkdir()
    server = folder / "shop" / "server.py"
    server.write_text(find_rule("MCPD204").INVALID[0], encoding="utf-8")
    arguments: dict[str, Any] = {"paths": ["shop"], "codes": ["MCPD204"]}

    answers = Answers("accept")
    safe = anyio.run(lambda: call_once(folder, "fix", arguments, elicitation_callback=answers))
    assert safe.structured_content["status"] == "nothing_to_fix" and answers.asked == []

    unsafe = {**arguments, "unsafe_fixes": True}
    answers.action = "decline"
    declined = anyio.run(lambda: call_once(folder, "fix", unsafe, elicitation_callback=answers))
    assert declined.structured_content["status"] == "declined"
    assert server.read_text(encoding="utf-8") == find_rule("MCPD204").INVALID[0]
    assert (
        "some change what the code does" in answers.asked[0] and "Elicit[OrderBookAnswer]" in answers.asked[0]
    )

    answers.action = "accept"
    applied = anyio.run(lambda: call_once(folder, "fix", unsafe, elicitation_callback=answers))
    assert applied.structured_content["status"] == "applied"
    assert "Resolve(confirm_order_book)" in server.read_text(encoding="utf-8")
