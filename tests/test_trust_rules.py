"""MCPD2xx, values the model must never supply: the SDK agrees, selection, and the line each rule draws.

The oracle half imports each rule's own examples and drives them with the SDK's in-memory
`Client`: what a rule reports as model-supplied is a property of the tool's input schema and
a value the model sends reaches the tool; the fixed example's resolved parameter is not in
the schema and a value sent for it is ignored. The other half lints, in the process, shapes
seen on published servers (written anew here) on both sides of each rule's line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_mcpdeps
from mcpdeps.lint_rules import lint
from mcpdeps.lint_rules.registry import ALL_RULES, find_rule, select_rules
from mcpdeps.lint_rules.rules.model_supplied_arguments import HEADER
from trap_helpers import call, connect, load_server

TRUST = [r for r in ALL_RULES if r.code.startswith("MCPD2")]


def _schema(module: Any, tool: str) -> dict[str, Any]:
    async def body(client: Any) -> dict[str, Any]:
        listed = await client.list_tools()
        return next(t.input_schema for t in listed.tools if t.name == tool)

    return connect(module, body)


def _codes(tmp_path: Path, source: str, **selection: Any) -> list[tuple[str, int]]:
    path = tmp_path / "server.py"
    path.write_text(source, encoding="utf-8")
    return [(d.code, d.line) for d in lint([path], **selection).diagnostics]


# --- the SDK as the oracle -----------------------------------------------------------------

MODEL_FILLED = [
    # rule, tool, the argument the rule reports, what a model sends, what the tool answers
    ("MCPD201", "list_orders", "tenant_id", {"tenant_id": "t1"}, "Dune"),
    ("MCPD202", "order_book", "price", {"title": "Dune", "price": 0.01}, "Ordered Dune for 0.01"),
    ("MCPD203", "reserve_book", "api_key", {"title": "Dune", "api_key": "sk-forged"}, "reserved Dune"),
    ("MCPD204", "order_book", "confirm", {"title": "Dune", "confirm": True}, "Ordered 'Dune'."),
]


@pytest.mark.parametrize(
    ("code", "tool", "argument", "sent", "answer"), MODEL_FILLED, ids=[m[0] for m in MODEL_FILLED]
)
def test_what_the_rule_reports_the_model_fills_and_the_fix_takes_away(
    code: str, tool: str, argument: str, sent: dict[str, Any], answer: str, tmp_path: Path
) -> None:
    rule = find_rule(code)
    module, _ = load_server(tmp_path / "invalid", rule.INVALID[0])
    assert argument in _schema(module, tool)["properties"]
    is_error, text = call(module, tool, sent)
    assert not is_error and answer in text  # the model's value is the one the tool used

    fixed, _ = load_server(tmp_path / "valid", rule.VALID[0])
    assert argument not in _schema(fixed, tool)["properties"]


def test_a_laundered_identity_is_still_the_models_choice(tmp_path: Path) -> None:
    """MCPD205: behind the resolver, the account is whichever one the model named."""
    module, _ = load_server(tmp_path, find_rule("MCPD205").INVALID[0])
    assert "account_id" in _schema(module, "order_book")["properties"]
    assert call(module, "order_book", {"title": "Dune", "account_id": "someone-else"}) == (
        False,
        "Dune charged to someone-else",
    )


def test_an_unconfirmed_refund_runs_at_the_first_call_and_the_fixed_one_asks(tmp_path: Path) -> None:
    """MCPD207: nothing stands between the call and the act; the fix's resolver asks first."""
    from mcp.types import ElicitResult

    rule = find_rule("MCPD207")
    module, _ = load_server(tmp_path / "invalid", rule.INVALID[0])
    assert call(module, "refund_order", {"title": "Dune"}) == (False, "refunded Dune")

    asked: list[str] = []

    async def answer(context: Any, params: Any) -> ElicitResult:
        asked.append(params.message)
        return ElicitResult(action="accept", content={"confirm": False})

    fixed, _ = load_server(tmp_path / "valid", rule.VALID[0])
    assert call(fixed, "refund_order", {"title": "Dune"}, elicitation_callback=answer) == (False, "kept")
    assert asked == ["Refund 'Dune'?"]


@pytest.mark.parametrize("rule", TRUST, ids=[r.code for r in TRUST])
def test_every_example_registers_under_the_sdk(rule: Any, tmp_path: Path) -> None:
    for i, source in enumerate([*rule.INVALID, *rule.VALID]):
        module, _ = load_server(tmp_path / str(i), source)
        assert _schema(module, _first_tool(source)) is not None


def _first_tool(source: str) -> str:
    import re

    found = re.search(r"@mcp\.tool\(\)\n(?:async )?def (\w+)", source)
    assert found is not None
    return found.group(1)


# --- selection: which rules run by default ------------------------------------------------------


def test_opt_in_rules_run_only_when_a_selector_names_them(tmp_path: Path) -> None:
    source = find_rule("MCPD201").INVALID[0]
    assert "MCPD201" not in {c for c, _ in _codes(tmp_path, source)}
    assert "MCPD201" in {c for c, _ in _codes(tmp_path, source, extend_select=["MCPD201"])}
    assert "MCPD201" in {c for c, _ in _codes(tmp_path, source, extend_select=["identity-argument"])}
    assert "MCPD201" in {c for c, _ in _codes(tmp_path, source, select=["ALL"])}
    assert "MCPD201" in {c for c, _ in _codes(tmp_path, source, select=["MCPD2"])}


def test_the_default_set_is_every_rule_but_the_opt_in_ones() -> None:
    opt_in = {r.code for r in ALL_RULES if not r.enabled_by_default}
    assert opt_in == {"MCPD201", "MCPD202", "MCPD205", "MCPD206"}
    assert {r.code for r in select_rules()} == {r.code for r in ALL_RULES} - opt_in
    assert {r.code for r in select_rules(["ALL"])} == {r.code for r in ALL_RULES}
    assert "MCPD203" not in {r.code for r in select_rules(ignore=["MCPD2"])}


def test_extend_select_in_the_project_config_turns_the_family_on(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.mcpdeps]\nextend-select = ["MCPD2"]\n', encoding="utf-8")
    (tmp_path / "server.py").write_text(find_rule("MCPD206").INVALID[0], encoding="utf-8")
    result = run_mcpdeps("lint", "--no-cache", "--format", "json", "server.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr  # warnings only
    codes = [d["code"] for d in json.loads(result.stdout)["diagnostics"]]
    assert codes == ["MCPD206"]


def test_sarif_gives_the_family_a_security_severity() -> None:
    from mcpdeps.cli.lint.render_sarif import _rules

    described = {r["id"]: r["properties"] for r in _rules()}
    for rule in TRUST:
        score = float(described[rule.code]["security-severity"])
        assert 0.0 < score <= 10.0 and "security" in described[rule.code]["tags"]
    assert "security-severity" not in described["MCPD101"]


# --- where the line is: shapes from published servers, written anew --------------------------

NOT_REPORTED = {
    "pagination and idempotency tokens": "@mcp.tool()\n"
    "async def list_logs(group: str, starting_token: str | None = None, client_token: str = '') -> str:\n"
    "    return group\n",
    "a count of model tokens": "@mcp.tool()\n"
    "async def summarize(text: str, max_tokens: int = 200) -> str:\n"
    "    return text[:max_tokens]\n",
    "a force option on a delete the person asked for": "class Sure(BaseModel):\n    ok: bool\n\n"
    "def ask(name: str) -> Elicit[Sure]:\n    return Elicit(f'Delete {name}?', Sure)\n\n"
    "@mcp.tool()\n"
    "async def delete_group(name: str, sure: Annotated[Sure, Resolve(ask)], force: bool = False) -> str:\n"
    "    return name if sure.ok else 'kept'\n",
    "an administrator's target user": "@mcp.tool()\n"
    "async def get_user(user_name: str, user_id: str = '') -> str:\n"
    "    if user_id:\n        return user_id\n    return user_name\n",
    "an account the query is about": "@mcp.tool()\n"
    "async def budgets(account_id: str | None = None) -> str:\n"
    "    if account_id is None:\n        return 'all'\n    return account_id\n",
    "a bucket owner for a cross-account check": "@mcp.tool()\n"
    "async def create_cache(bucket: str, cache_bucket_owner_id: str) -> str:\n"
    "    return bucket if cache_bucket_owner_id != 'x' else ''\n",
    "a demo that only says it sent": "@mcp.tool()\n"
    "def send_message(message: str) -> str:\n    return f'Message sent: {message}'\n",
    "copies the person wants": "@mcp.tool()\n"
    "def reserve(title: str, copies: int) -> str:\n    return f'{copies} x {title}'\n",
    "a price the person searches by": "@mcp.tool()\n"
    "def search_books(title: str, max_price: float, price: float = 0) -> str:\n    return title\n",
    "the role of a chat message": "@mcp.tool()\n"
    "def add_message(role: str, content: str) -> str:\n    return f'{role}: {content}'\n",
    "a tool that takes the caller from the session": "from mcp.server.auth.middleware.auth_context import "
    "get_access_token\n\n@mcp.tool()\n"
    "def my_orders(current_user_id: str) -> str:\n"
    "    token = get_access_token()\n    return current_user_id if token else ''\n",
    "a tracing header": "def trace(ctx: Context) -> str:\n"
    "    return ctx.request_context.request.headers.get('x-request-id', '')\n\n"
    "@mcp.tool()\ndef ping(trace_id: Annotated[str, Resolve(trace)]) -> str:\n    return trace_id\n",
}

REPORTED = {
    "a confirmed flag on a mutating admin tool": (
        "MCPD204",
        "@mcp.tool()\nasync def attach_policy(user: str, policy: str, confirmed: bool = False) -> str:\n"
        "    return policy if confirmed else 'not confirmed'\n",
    ),
    "a database token on every call": (
        "MCPD203",
        "@mcp.tool()\nasync def query(flux: str, token: str) -> str:\n    return flux\n",
    ),
    "cloud credentials as arguments": (
        "MCPD203",
        "@mcp.tool()\nasync def search(q: str, aws_secret_access_key: str, aws_session_token: str = '') -> str:\n"
        "    return q\n",
    ),
    "a collection dropped on the first call": (
        "MCPD207",
        "import shutil\n\n@mcp.tool()\nasync def delete_collection(name: str) -> str:\n"
        "    shutil.rmtree(name)\n    return name\n",
    ),
    "an identity from the tool's own token": (
        "MCPD205",
        "def user_of(token: str) -> str:\n    return token[:4]\n\n"
        "@mcp.tool()\ndef buy(token: str, item: str, user: Annotated[str, Resolve(user_of)]) -> str:\n"
        "    return f'{user} bought {item}'\n",
    ),
    "an authorization decision on a model-given role": (
        "MCPD201",
        "@mcp.tool()\ndef purge_cache(region: str, is_admin: bool = False) -> str:\n"
        "    if not is_admin:\n        return 'denied'\n    return region\n",
    ),
}


@pytest.mark.parametrize("shape", sorted(NOT_REPORTED))
def test_the_line_leaves_these_alone(shape: str, tmp_path: Path) -> None:
    found = [c for c, _ in _codes(tmp_path, HEADER + NOT_REPORTED[shape], select=["MCPD2"])]
    assert found == []


@pytest.mark.parametrize("shape", sorted(REPORTED))
def test_the_line_reports_these(shape: str, tmp_path: Path) -> None:
    code, source = REPORTED[shape]
    assert code in {c for c, _ in _codes(tmp_path, HEADER + source, select=["MCPD2"])}


def test_the_seeds_bookshop_raises_nothing(tmp_path: Path) -> None:
    """The seed's examples (examples/bookshop) resolve what they must: no MCPD2xx, opt-in included."""
    assert lint([EXAMPLES / "bookshop"], select=["MCPD2"]).diagnostics == []


def test_a_cached_run_does_not_hide_the_opt_in_rules(tmp_path: Path) -> None:
    """The lint cache is keyed by the rules that ran: opting in after a default run reports them."""
    (tmp_path / "server.py").write_text(find_rule("MCPD202").INVALID[0], encoding="utf-8")
    first = run_mcpdeps("lint", "--format", "json", "server.py", cwd=tmp_path)
    assert json.loads(first.stdout)["diagnostics"] == []
    second = run_mcpdeps("lint", "--format", "json", "--extend-select", "MCPD202", "server.py", cwd=tmp_path)
    assert [d["code"] for d in json.loads(second.stdout)["diagnostics"]] == ["MCPD202"]
