"""MCPD205-MCPD207: identities the model still chooses, and acts nobody was asked about.

A resolver hides a value from the model's schema, but not from the model's
choice when its input is a tool argument (MCPD205) or a header any client can
set (MCPD206); and a tool that deletes, pays or sends is one call away from an
act the person never saw (MCPD207).
"""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Resolver, Tool
from .._source import found_in, module_at, used_resolvers
from ..base import Invalid
from . import _trust as trust
from .model_supplied_arguments import HEADER, TrustRule


class LaunderedIdentity(TrustRule):
    enabled_by_default = False  # no finding on 116 published servers: unmeasured, so opt-in
    code = "MCPD205"
    name = "laundered-identity"
    security_severity = "7.1"
    summary = "A resolver takes an identity from a tool argument: the model still chooses who the caller is."
    explanation = (
        "A resolver parameter named like a tool argument is filled from that argument, so a "
        "`load_account(account_id)` resolver looks like server-side identity but serves whatever "
        "account the model named. The value is hidden behind a `Resolve`, not taken out of the "
        "model's hands.\n\n"
        "Where the line is: a resolver whose tool-argument parameter names a user, account, tenant "
        "or owner, a role, or a credential (`user_of(token)`), and that consults nothing else (no `Context`, no other resolver, no "
        "`get_access_token()`) to check it belongs to the caller.\n\n"
        "Fix: have the resolver read the caller from the session (the bookshop's resolvers read "
        "only what the records say), and check the argument against it."
    )
    INVALID = [
        Invalid(
            HEADER + "class Account(BaseModel):\n    id: str\n    credit: float\n\n"
            "async def load_account(account_id: str) -> Account:\n"
            "    return Account(id=account_id, credit=10.0)\n\n"
            "@mcp.tool()\n"
            "async def order_book(title: str, account_id: str, account: Annotated[Account, Resolve(load_account)]) -> str:\n"
            "    return f'{title} charged to {account.id}'\n",
            at=(12, 24, 12, 39),
        )
    ]
    VALID = [
        HEADER + "class Account(BaseModel):\n    id: str\n    credit: float\n\n"
        "async def load_account(ctx: Context) -> Account:\n"
        "    return Account(id='from-session', credit=10.0)\n\n"
        "@mcp.tool()\n"
        "async def order_book(title: str, account: Annotated[Account, Resolve(load_account)]) -> str:\n"
        "    return f'{title} charged to {account.id}'\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for resolver, tool in used_resolvers(graph):
            if not found_in(graph, self.code, resolver, _consults_only_arguments):
                continue
            for p in resolver.parameters:
                if p.kind != "tool_argument" or not _identifies(p.name):
                    continue
                span = graph.located(tool, resolver, p.span)
                if span is not None:
                    yield self.diagnostic(
                        span,
                        f"resolver {resolver.name!r} takes {p.name!r} from the tool's arguments: the model "
                        "still chooses it, and nothing checks it against the session",
                        tool=tool.name,
                        resolver=resolver,
                        help="read the caller from the session (a `Context` parameter, `get_access_token()`) "
                        "and check the argument against it",
                    )


def _identifies(name: str) -> bool:
    """An identity, a right, or a credential the resolver would turn into an identity."""
    return bool(trust.identity_words(name) or trust.authority_words(name) or trust.secret_words(name))


def _consults_only_arguments(resolver: Resolver) -> bool:
    if not resolver.anchored or any(p.kind in {"context", "resolved"} for p in resolver.parameters):
        return False
    return not trust.calls(trust.function_of(resolver.node), "get_access_token", "get_http_request")


class HeaderIdentity(TrustRule):
    enabled_by_default = False  # no finding on 116 published servers: unmeasured, so opt-in
    code = "MCPD206"
    name = "header-identity"
    security_severity = "7.5"
    summary = "Who the caller is is read from a request header (`X-User-Id`); any client can send it."
    explanation = (
        "A header is whatever the client sent: `X-User-Id: admin` costs one line of any HTTP "
        "client, and the SDK's own documentation says request headers are never an identity. "
        "Only the verified token the auth middleware put in the session is.\n\n"
        "Where the line is: a read of `headers[...]`/`headers.get(...)` whose key claims a user, "
        "tenant, account, role or e-mail (`X-User-Id`, `X-Tenant`, `Remote-User`), in a tool or a "
        "resolver. Tracing headers (`X-Request-Id`) and content negotiation are not reported.\n\n"
        "Fix: resolve the caller from `get_access_token()` (configure the server's `auth` and "
        "token verifier), as the bookshop resolves `stock` from its records."
    )
    INVALID = [
        Invalid(
            HEADER + "def current_tenant(ctx: Context) -> str:\n"
            "    return ctx.request_context.request.headers.get('x-tenant-id', '')\n\n"
            "@mcp.tool()\n"
            "async def list_orders(tenant: Annotated[str, Resolve(current_tenant)]) -> list[str]:\n"
            "    return [tenant]\n",
            at=(9, 12, 9, 70),
        )
    ]
    VALID = [
        HEADER + "from mcp.server.auth.middleware.auth_context import get_access_token\n\n"
        "def current_tenant(ctx: Context) -> str:\n"
        "    token = get_access_token()\n"
        "    return token.client_id if token else ''\n\n"
        "@mcp.tool()\n"
        "async def list_orders(tenant: Annotated[str, Resolve(current_tenant)]) -> list[str]:\n"
        "    return [tenant]\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for node, owner, tool, resolver in trust.code_owners(graph):
            module = module_at(graph, resolver.span if resolver else tool.span)
            if module is None:
                continue
            for read, key in trust.header_reads(trust.function_of(node)):
                if trust.identity_header(key):
                    yield self.diagnostic(
                        module.span(read),
                        f"{owner} reads who the caller is from the {key!r} header: any client can send it",
                        tool=tool.name,
                        resolver=resolver,
                        help="resolve the caller from `get_access_token()` (the verified token), not headers",
                    )


class UnconfirmedIrreversible(TrustRule):
    code = "MCPD207"
    name = "unconfirmed-irreversible"
    security_severity = "5.3"
    summary = "A tool that deletes, pays, transfers or sends asks the person nothing first."
    explanation = (
        "An irreversible act one tool call away is one hallucination or one injected instruction "
        "away: the file is gone, the money sent, the e-mail out, before the person saw anything. "
        "The model's own `confirm=True` is no question (MCPD204).\n\n"
        "Where the line is: a tool whose name carries an irreversible verb (delete, remove, drop, "
        "purge, transfer, pay, refund, charge, send, revoke) and whose graph has no resolver that "
        "returns `Elicit` and whose body asks nothing (no `ctx.elicit(...)`, no "
        "`InputRequiredResult(...)` returned for the person's answer); `preview_`, `draft_`, "
        "`get_`, `list_` tools are not acts.\n\n"
        "Fix: take the person's answer from an `Elicit` resolver, as the bookshop's "
        "`confirm_backorder` does (it asks only when the answer matters)."
    )
    INVALID = [
        Invalid(
            HEADER + "def refund(title: str) -> None: ...\n\n"
            "@mcp.tool()\n"
            "async def cancel_order(title: str) -> str:\n"
            "    return f'refunded {title}'\n\n"
            "@mcp.tool()\n"
            "async def refund_order(title: str) -> str:\n"
            "    refund(title)\n"
            "    return f'refunded {title}'\n",
            at=(15, 1, 15, 1),
        )
    ]
    VALID = [
        HEADER + "class Refund(BaseModel):\n"
        "    confirm: bool = Field(description='Refund this order?')\n\n"
        "def refund(title: str) -> None: ...\n\n"
        "async def ask_refund(title: str) -> Elicit[Refund]:\n"
        "    return Elicit(f'Refund {title!r}?', Refund)\n\n"
        "@mcp.tool()\n"
        "async def cancel_order(title: str) -> str:\n"
        "    return f'refunded {title}'\n\n"
        "@mcp.tool()\n"
        "async def refund_order(title: str, answer: Annotated[Refund, Resolve(ask_refund)]) -> str:\n"
        "    if answer.confirm:\n"
        "        refund(title)\n"
        "    return f'refunded {title}' if answer.confirm else 'kept'\n",
        HEADER + "from mcp.types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult\n\n"
        "ASK = ElicitRequest(params=ElicitRequestFormParams(message='Refund?', requested_schema={}))\n\n"
        "def refund(title: str) -> None: ...\n\n"
        "@mcp.tool()\n"
        "async def refund_order(title: str, ctx: Context) -> str | InputRequiredResult:\n"
        "    if ctx.input_responses is None:\n"
        "        return InputRequiredResult(input_requests={'ok': ASK})\n"
        "    refund(title)\n"
        "    return f'refunded {title}'\n",
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for _, tool in graph.tools():
            verb = trust.irreversible_verb(tool.name)
            if verb is None or tool.span is None or self._asks(graph, tool):
                continue
            yield self.diagnostic(
                tool.span,
                f"tool {tool.name!r} is irreversible ({verb}) and its graph asks the person nothing",
                tool=tool.name,
                help="take the person's answer from a resolver returning `Elicit(message, Model)`",
            )

    @staticmethod
    def _asks(graph: Graph, tool: Tool) -> bool:
        if any(r.asks == "elicit" for r in graph.reachable(tool)):
            return True
        if not trust.has_effect(trust.function_of(tool.node)):
            return True  # a demo that only says it sent: nothing to confirm
        if any(trust.confirmation_words(p.name) for p in trust.tool_arguments(tool)):
            return True  # MCPD204 reports the forgeable confirmation itself
        module = module_at(graph, tool.span)
        return trust.asks_person(
            trust.function_of(tool.node), module.text or "" if module is not None else ""
        )
