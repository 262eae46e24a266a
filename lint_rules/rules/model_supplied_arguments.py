"""MCPD201-MCPD204: tool arguments that carry what the model must never supply.

Every tool argument is in the input schema, so the model fills it: whatever it
writes there (an identity, a price, a token, "yes, the user agreed") is what
the tool gets. The seed's fix is a resolved parameter, which the model never
sees and a client cannot send. Judgements live in `_trust`; these classes only
say which argument, with which words, on which tool.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Parameter, Tool
from ..base import Invalid, Rule, RuleFix
from . import _trust as trust

HEADER = (
    "from typing import Annotated\n"
    "from pydantic import BaseModel, Field\n"
    "from mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Context, Elicit, Resolve\n\n"
    "mcp = MCPServer('Bookshop')\n\n"
)
"""The imports every example of the family starts from."""


_UNSAFE = (
    "Unsafe: a client can no longer send the value, and the stub raises until you write where it "
    "comes from (or the person is asked before the body runs)."
)
RESOLVE_INSTEAD = RuleFix(
    "resolve it instead: a resolved parameter and a resolver stub beside the tool",
    fixer="mcpdeps.lint_rules.fixes.model_supplied",
    safety="unsafe",
    safety_note=_UNSAFE,
)
ASK_THE_PERSON = RuleFix(
    "ask the person: an `Elicit` resolver with a one-field model",
    fixer="mcpdeps.lint_rules.fixes.model_supplied",
    safety="unsafe",
    safety_note=_UNSAFE,
)
_NO_STUB = "The fix is offered for a tool at module level only: nested in a factory or a class, the stub would have nowhere to go."


class TrustRule(Rule):
    """A rule of the MCPD2xx family: a warning, with a SARIF `security-severity`."""

    severity = "warning"
    security_severity: str = "5.0"
    """CVSS-like score GitHub code scanning sorts security alerts by (`critical` ≥ 9.0,
    `high` ≥ 7.0, `medium` ≥ 4.0)."""


class IdentityArgument(TrustRule):
    enabled_by_default = False  # 0 of 19 findings true on published servers before the line was drawn
    code = "MCPD201"
    name = "identity-argument"
    FIX = RESOLVE_INSTEAD
    known_problems = _NO_STUB
    security_severity = "8.1"
    summary = "A tool argument names the caller or their rights; the model can write anyone's."
    explanation = (
        "The model fills every tool argument, so a `tenant_id`, a `role` or an `is_admin` the tool "
        "trusts is whatever the model (or a prompt injected into it) wrote: one call reads another "
        "tenant's records or grants itself admin.\n\n"
        "Where the line is: an argument is reported when it states the caller's rights (`role`, "
        "`is_admin`, `permissions`, `scopes`) and the body decides on it, when it names a tenant, "
        "or when it names a user or account that the name, docstring or body says is the caller "
        "(`current_user_id`, 'your account', `if doc.owner != user_id`). `get_user(user_id)` in an "
        "admin tool names a record and is left alone, as is any tool that already takes the caller "
        "from the session.\n\n"
        "Fix: resolve it, as the bookshop resolves `stock`: a resolver that reads the caller from "
        "the session (`get_access_token()`, the lifespan state) and "
        "`caller: Annotated[Caller, Resolve(current_caller)]`."
    )
    INVALID = [
        Invalid(
            HEADER + "ORDERS = {'t1': ['Dune']}\n\n"
            "@mcp.tool()\n"
            "async def list_orders(tenant_id: str) -> list[str]:\n"
            '    """List the orders of your shop."""\n'
            "    return ORDERS.get(tenant_id, [])\n",
            at=(11, 23, 11, 37),
            fixed=(
                HEADER + "ORDERS = {'t1': ['Dune']}\n"
                "\n"
                "def resolve_tenant_id(ctx: Context) -> str:\n"
                '    """Where `tenant_id` comes from instead of the model: the session, the lifespan state, your records."""\n'
                '    raise NotImplementedError("resolve tenant_id on the server")\n'
                "\n"
                "\n"
                "@mcp.tool()\n"
                "async def list_orders(tenant_id: Annotated[str, Resolve(resolve_tenant_id)]) -> list[str]:\n"
                '    """List the orders of your shop."""\n'
                "    return ORDERS.get(tenant_id, [])\n"
            ),
        ),
        Invalid(
            HEADER + "@mcp.tool()\n"
            "async def feature_title(title: str, role: str) -> str:\n"
            "    if role != 'manager':\n"
            "        return 'not allowed'\n"
            "    return f'featured {title}'\n",
            at=(9, 37, 9, 46),
            fixed=(
                HEADER + "def resolve_role(ctx: Context) -> str:\n"
                '    """Where `role` comes from instead of the model: the session, the lifespan state, your records."""\n'
                '    raise NotImplementedError("resolve role on the server")\n'
                "\n"
                "\n"
                "@mcp.tool()\n"
                "async def feature_title(title: str, role: Annotated[str, Resolve(resolve_role)]) -> str:\n"
                "    if role != 'manager':\n"
                "        return 'not allowed'\n"
                "    return f'featured {title}'\n"
            ),
        ),
    ]
    VALID = [
        HEADER + "ORDERS = {'t1': ['Dune']}\n\n"
        "def current_tenant(ctx: Context) -> str:\n"
        "    return 't1'\n\n"
        "@mcp.tool()\n"
        "async def list_orders(tenant_id: Annotated[str, Resolve(current_tenant)]) -> list[str]:\n"
        '    """List the orders of your shop."""\n'
        "    return ORDERS.get(tenant_id, [])\n",
        HEADER + "@mcp.tool()\n"
        "async def get_author(author_id: str) -> str:\n"
        '    """Look an author up."""\n'
        "    return author_id\n",
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for tool, p in trust.argument_sites(graph):
            why = self.reason(tool, p)
            if why and p.span is not None:
                yield self.diagnostic(
                    p.span,
                    f"tool argument {p.name!r} of tool {tool.name!r} {why}: the model chooses it, and "
                    "so can claim to be anyone",
                    tool=tool.name,
                    help="resolve it from the session (`get_access_token()`, the lifespan state) with "
                    "`Annotated[T, Resolve(fn)]`; the model then never sees it",
                )

    @staticmethod
    def reason(tool: Tool, p: Parameter) -> str | None:
        """Why `p` is the caller's identity or authority, or None when it is not."""
        fn = trust.function_of(tool.node)
        if trust.knows_caller_from_session(tool, tool.resolved):
            return None
        if trust.authority_words(p.name):
            decides = trust.decides_on(fn, p.name, truthiness=True)
            return "states the caller's rights and the tool decides on it" if decides else None
        ws = trust.identity_words(p.name)
        if ws is None or (trust.type_names(p.annotation) - trust.SCALAR_ID - {"Literal"}):
            return None
        if "tenant" in ws or trust.is_caller_named(p.name):
            return "names the caller"
        text = f"{trust.docstring(tool.node)} {p.annotation or ''}"
        if trust.speaks_of_caller(text):
            return "is the caller's, as its description says"
        if trust.decides_on(fn, p.name):
            return "names a principal the tool takes an access decision on"
        return None


class ServerOwnedFact(TrustRule):
    enabled_by_default = False  # no finding on 116 published servers: unmeasured, so opt-in
    code = "MCPD202"
    name = "server-owned-fact"
    FIX = RESOLVE_INSTEAD
    known_problems = _NO_STUB
    security_severity = "6.5"
    summary = "A price, balance, discount or stock level of your records is a tool argument."
    explanation = (
        "A value the server keeps in its records, taken as a tool argument, is the model's guess "
        "(or an attacker's choice): an order placed at `unit_price=0.01`, a refund above the "
        "balance, a reservation of stock that is not there.\n\n"
        "Where the line is: a numeric `price`, `cost`, `balance`, `discount`, `stock` or `fee` is "
        "reported only when another argument picks the record it belongs to (`sku`, `book_id`, "
        "`title`) and the tool does not set, compute or search by it (`update_price`, "
        "`calculate_tax`, `search_books(max_price)` are the user's numbers). An `amount` the user "
        "asks to transfer is theirs and never reported.\n\n"
        "Fix: look it up from the records in a resolver, as the bookshop's `check_stock` does."
    )
    INVALID = [
        Invalid(
            HEADER + "PRICES = {'Dune': 12.5}\n\n"
            "@mcp.tool()\n"
            "async def order_book(title: str, price: float) -> str:\n"
            "    return f'Ordered {title} for {price}'\n",
            at=(11, 34, 11, 46),
            fixed=(
                HEADER + "PRICES = {'Dune': 12.5}\n"
                "\n"
                "def resolve_price(title: str) -> float:\n"
                '    """Where `price` comes from instead of the model: the session, the lifespan state, your records."""\n'
                '    raise NotImplementedError("resolve price on the server")\n'
                "\n"
                "\n"
                "@mcp.tool()\n"
                "async def order_book(title: str, price: Annotated[float, Resolve(resolve_price)]) -> str:\n"
                "    return f'Ordered {title} for {price}'\n"
            ),
        )
    ]
    VALID = [
        HEADER + "PRICES = {'Dune': 12.5}\n\n"
        "async def catalogue_price(title: str) -> float:\n"
        "    return PRICES[title]\n\n"
        "@mcp.tool()\n"
        "async def order_book(title: str, price: Annotated[float, Resolve(catalogue_price)]) -> str:\n"
        "    return f'Ordered {title} for {price}'\n",
        HEADER + "@mcp.tool()\n"
        "async def top_up_gift_card(card: str, amount: float) -> str:\n"
        "    return f'{amount} to {card}'\n",
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for tool, p in trust.argument_sites(graph):
            args = trust.tool_arguments(tool)
            if not trust.fact_words(p.name) or trust.sets_records(tool.name):
                continue
            types = trust.type_names(p.annotation)
            key = trust.record_key(args, p.name)
            if key is None or not types or not types <= trust.NUMBER | {"int"} or p.span is None:
                continue
            yield self.diagnostic(
                p.span,
                f"tool argument {p.name!r} of tool {tool.name!r} is a fact of the record {key.name!r} "
                "picks: the model supplies it, your records should",
                tool=tool.name,
                help=f"look it up from {key.name!r} in a resolver and take it as `Annotated[T, Resolve(fn)]`",
            )


class SecretArgument(TrustRule):
    code = "MCPD203"
    name = "secret-argument"
    FIX = RESOLVE_INSTEAD
    known_problems = _NO_STUB
    security_severity = "7.5"
    summary = "An API key, token or password is a tool argument; it passes through the model."
    explanation = (
        "A secret taken as a tool argument is typed into, stored in and replayed from the "
        "model's context: it leaks into transcripts and logs, and any prompt injection can "
        "read it back or swap in its own.\n\n"
        "Where the line is: string arguments named as credentials (`api_key`, `auth_token`, "
        "`password`, `client_secret`, `private_key`); pagination cursors (`page_token`, "
        "`next_token`), counts (`max_tokens`) and coins (`token_address`) are not.\n\n"
        "Fix: the server holds its own credentials (the lifespan state, the environment), and the "
        "caller's come from the session: resolve them, as the bookshop resolves `stock`."
    )
    INVALID = [
        Invalid(
            HEADER + "@mcp.tool()\n"
            "async def reserve_book(title: str, api_key: str) -> str:\n"
            "    return f'reserved {title}'\n",
            at=(9, 36, 9, 48),
            fixed=(
                HEADER + "def resolve_api_key(ctx: Context) -> str:\n"
                '    """Where `api_key` comes from instead of the model: the session, the lifespan state, your records."""\n'
                '    raise NotImplementedError("resolve api_key on the server")\n'
                "\n"
                "\n"
                "@mcp.tool()\n"
                "async def reserve_book(title: str, api_key: Annotated[str, Resolve(resolve_api_key)]) -> str:\n"
                "    return f'reserved {title}'\n"
            ),
        )
    ]
    VALID = [
        HEADER + "import os\n\n"
        "def shop_key() -> str:\n"
        "    return os.environ.get('SHOP_KEY', '')\n\n"
        "@mcp.tool()\n"
        "async def reserve_book(title: str, api_key: Annotated[str, Resolve(shop_key)]) -> str:\n"
        "    return f'reserved {title}'\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for tool, p in trust.argument_sites(graph):
            types = trust.type_names(p.annotation)
            if trust.secret_words(p.name) and (not types or types <= trust.TEXT | {"Any"}) and p.span:
                yield self.diagnostic(
                    p.span,
                    f"tool argument {p.name!r} of tool {tool.name!r} is a secret: it travels through the "
                    "model's context, its transcripts and logs",
                    tool=tool.name,
                    help="hold it on the server (lifespan state, environment) or take the caller's from "
                    "the session, through `Annotated[str, Resolve(fn)]`",
                )


class ForgeableConfirmation(TrustRule):
    code = "MCPD204"
    name = "forgeable-confirmation"
    FIX = ASK_THE_PERSON
    known_problems = _NO_STUB
    security_severity = "6.1"
    summary = "A `confirm`/`approved` boolean is a tool argument: the model can say yes for the person."
    explanation = (
        "A confirmation the model fills in is the model agreeing with itself: it sets "
        "`confirm=True` on the first call (or an injected prompt tells it to), and the person "
        "whose approval the flag stands for is never asked.\n\n"
        "Where the line is: a boolean argument named as consent (`confirm`, `confirmed`, "
        "`approved`, `yes`, `i_understand`); an `include_archived`, a `dry_run` or a `force` (which "
        "on published servers means 'delete what is attached too') is an option, not a consent, and "
        "is not reported.\n\n"
        "Fix: ask the person with an `Elicit` resolver, as the bookshop's `confirm_backorder` does: "
        "a one-field model, and the answer as `Annotated[Model, Resolve(ask)]`."
    )
    INVALID = [
        Invalid(
            HEADER + "@mcp.tool()\n"
            "async def order_book(title: str, confirm: bool = False) -> str:\n"
            "    if not confirm:\n"
            "        return 'No order placed.'\n"
            "    return f'Ordered {title!r}.'\n",
            at=(9, 34, 9, 47),
            fixed=(
                HEADER + "class OrderBookAnswer(BaseModel):\n"
                "    confirm: bool = Field(description='Go ahead with order book?')\n"
                "\n"
                "\n"
                "def ask_confirm_order_book() -> Elicit[OrderBookAnswer]:\n"
                "    return Elicit('Go ahead with order book?', OrderBookAnswer)\n"
                "\n"
                "\n"
                "def confirm_order_book(answer: Annotated[OrderBookAnswer, Resolve(ask_confirm_order_book)]) -> bool:\n"
                "    return answer.confirm\n"
                "\n"
                "\n"
                "@mcp.tool()\n"
                "async def order_book(title: str, confirm: Annotated[bool, Resolve(confirm_order_book)]) -> str:\n"
                "    if not confirm:\n"
                "        return 'No order placed.'\n"
                "    return f'Ordered {title!r}.'\n"
            ),
        )
    ]
    VALID = [
        HEADER + "class Backorder(BaseModel):\n"
        "    confirm: bool = Field(description='Order anyway and wait?')\n\n"
        "async def confirm_backorder(title: str) -> Elicit[Backorder]:\n"
        "    return Elicit(f'{title!r} is out of stock. Order anyway?', Backorder)\n\n"
        "@mcp.tool()\n"
        "async def order_book(title: str, confirm: Annotated[Backorder, Resolve(confirm_backorder)]) -> str:\n"
        "    if not confirm.confirm:\n"
        "        return 'No order placed.'\n"
        "    return f'Ordered {title!r}.'\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for tool, p in trust.argument_sites(graph):
            if trust.confirmation_words(p.name) and trust.is_bool(p) and p.span is not None:
                yield self.diagnostic(
                    p.span,
                    f"tool argument {p.name!r} of tool {tool.name!r} is a confirmation the model fills in: "
                    "it can say yes without asking the person",
                    tool=tool.name,
                    help="ask the person: a resolver returning `Elicit(message, Model)` with one bool field, "
                    "taken as `Annotated[Model, Resolve(ask)]`",
                )
