"""What the MCPD2xx rules know about values the model must never supply.

A name alone is a weak signal: `amount` in `transfer(amount)` is the user's to
choose, `price` in `order(sku, price)` is the catalogue's; `user_id` in an
admin's `get_user(user_id)` names a record, in `my_orders(user_id)` it names
the caller. So each judgement here combines the parameter's words with its
type, the tool's name and docstring, what the body does with the value (an
`if` that decides on it is an authorization decision) and what the graph
already resolves (a tool that gets the caller from the session takes `user_id`
as a target, not as an identity). Everything reads source only: these rules
run in `lint`, which never imports user code.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable, Iterator

from ...resolver_core.model import Graph, Parameter, Resolver, Tool
from ...resolver_core.patterns import compiled_when_used
from .._source import FunctionNode, used_resolvers, walk_body


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _phrases(text: str) -> frozenset[tuple[str, ...]]:
    """`"is_admin role"` → {('is', 'admin'), ('role',)}: word lists written as snake_case names."""
    return frozenset(tuple(phrase.split("_")) for phrase in text.split())


def words(name: str) -> list[str]:
    """`userId`, `user_id`, `UserID` → ['user', 'id']."""
    return list(_words_of(name))


@functools.lru_cache(maxsize=4096)
def _words_of(name: str) -> tuple[str, ...]:
    """`words`, once per name: every rule of the family asks about every tool argument, and
    a project repeats the same few names (`user_id`, `query`, `limit`) across its tools."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return tuple(w for w in re.split(r"[_\W]+", spaced.lower()) if w)


@functools.lru_cache(maxsize=4096)
def type_names(annotation: str | None) -> frozenset[str]:
    """The plain types an annotation admits: `Annotated[str | None, Field(...)]` → {'str'}.

    `Annotated` metadata, `None` and the `Optional`/`Union` wrappers are dropped; a
    `Literal[...]` is `Literal`. Unparseable or missing annotations give an empty set.
    Kept per text (a frozen set): several rules ask about each tool argument, and a
    project writes the same annotations (`str`, `int`, `UserDep`) over and over.
    """
    if not annotation:
        return frozenset()
    try:
        node = ast.parse(annotation, mode="eval").body
    except SyntaxError:
        return frozenset()
    out: set[str] = set()
    _collect(node, out)
    return frozenset(out)


def _collect(node: ast.expr, out: set[str]) -> None:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        _collect(node.left, out)
        _collect(node.right, out)
    elif isinstance(node, ast.Subscript):
        base = _last(node.value)
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if base == "Annotated":
            _collect(args[0], out)
        elif base in {"Optional", "Union"}:
            for arg in args:
                _collect(arg, out)
        else:
            out.add(base)
    elif isinstance(node, ast.Constant) and node.value is None:
        return
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        _collect_text(node.value, out)
    else:
        out.add(_last(node))


def _collect_text(text: str, out: set[str]) -> None:
    try:
        _collect(ast.parse(text, mode="eval").body, out)
    except SyntaxError:
        return


def _last(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text.rsplit(".", 1)[-1]


SCALAR_ID = {"str", "int", "UUID", "Any", "EmailStr"}
TEXT = {"str", "SecretStr", "SecretBytes", "bytes"}
NUMBER = {"int", "float", "Decimal"}


def is_bool(param: Parameter) -> bool:
    """A bool argument, by annotation or (unannotated) by a `True`/`False` default."""
    types = type_names(param.annotation)
    if types:
        return "bool" in types and types <= {"bool"}
    return param.default in {"True", "False"}


def docstring(node: ast.AST | None) -> str:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return ast.get_docstring(node) or ""
    return ""


def function_of(node: ast.AST | None) -> FunctionNode | None:
    return node if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) else None


def tool_arguments(tool: Tool) -> list[Parameter]:
    return [p for p in tool.parameters if p.kind == "tool_argument"]


# --- the walks the rules share: what they look at ------------------------------------------


def argument_sites(graph: Graph) -> Iterator[tuple[Tool, Parameter]]:
    """Every tool argument with a place in the source, and its tool: what MCPD201-MCPD204 judge."""
    for _, tool in graph.tools():
        for p in tool_arguments(tool):
            if p.span is not None:
                yield tool, p


def code_owners(graph: Graph) -> Iterator[tuple[ast.AST | None, str, Tool, Resolver | None]]:
    """Every body a tool call runs, as (node, how a message names it, tool, resolver or None):
    each tool, then each resolver it uses that has a definition in the source."""
    for _, tool in graph.tools():
        yield tool.node, f"tool {tool.name!r}", tool, None
    for resolver, tool in used_resolvers(graph):
        if resolver.anchored:
            yield resolver.node, f"resolver {resolver.name!r}", tool, resolver


# --- what the body does with a value -------------------------------------------------------

_AUTH_CALL = compiled_when_used(r"(auth|permi|allow|access|can_|may_|grant|polic|acl|privileg|role)", re.I)


def decides_on(fn: FunctionNode | None, name: str, *, truthiness: bool = False) -> bool:
    """The body takes a decision on `name`: it is compared in an `if`/`assert`/`while`/ternary
    test (`if doc.owner != user_id`; with `truthiness`, `if is_admin:` counts too, while for
    an id `if account_id:` only asks whether one was given), or passed to a call whose name
    speaks of authorization (`check_permission(user_id, ...)`, `can_edit(role)`)."""
    if fn is None:
        return False
    for node in walk_body(fn):
        tests: list[ast.AST] = []
        if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            tests.append(node.test)
        elif (
            isinstance(node, ast.Call)
            and _AUTH_CALL().search(_callee(node))
            and any(_mentions(a, name) for a in [*node.args, *(k.value for k in node.keywords)])
        ):
            return True
        for test in tests:
            if truthiness and _mentions(test, name):
                return True
            if any(
                isinstance(c, ast.Compare) and _mentions(c, name) and not _none_check(c)
                for c in ast.walk(test)
            ):
                return True
    return False


def _none_check(compare: ast.Compare) -> bool:
    return any(isinstance(c, ast.Constant) and c.value in (None, "") for c in compare.comparators)


def _callee(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def calls(fn: FunctionNode | None, *names: str) -> bool:
    """The body calls a function or method of one of these names (`get_access_token()`)."""
    if fn is None:
        return False
    return any(isinstance(n, ast.Call) and _callee(n) in names for n in walk_body(fn))


# --- identity and authority (MCPD201, MCPD205) ---------------------------------------------

_WHO = {"user", "account", "tenant", "owner", "org", "organization", "customer", "member", "principal"}
_CALLER = {
    "caller",
    "requester",
    "requestor",
    "current",
    "acting",
    "my",
    "me",
    "self",
    "whoami",
    "impersonate",
}
_AUTHORITY = _phrases(
    "role roles is_admin admin is_superuser superuser is_staff permissions permission scopes "
    "access_level privileges privilege is_owner is_authorized authorized is_authenticated "
    "authenticated"
)
_SELF_DOC = compiled_when_used(
    r"\b(current(ly)?[ -](logged|user|account|tenant)|logged[ -]in user|authenticated user|"
    r"the caller|calling user|requesting user|on behalf of|acting as)\b",
    re.I,
)


def identity_words(name: str) -> tuple[str, ...] | None:
    """The words of a name that refers to a principal: `tenant_id`, `user_id`, `as_user`,
    `caller`, `owner_email` (None for anything else; `username` counts, `user_query` not)."""
    ws = words(name)
    if not ws:
        return None
    if ws[0] in _CALLER and len(ws) > 1 and ws[1] in _WHO | {"id", "user"}:
        return tuple(ws)
    if ws[:2] == ["as", "user"] or ws[:3] == ["on", "behalf", "of"] or ws[0] in {"caller", "requester"}:
        return tuple(ws)
    if ws[-1] in {"id", "ids", "uuid"} and len(ws) == 2 and ws[0] in _WHO:
        return tuple(ws)
    if ws in (["userid"], ["tenant"], ["uid"]):
        return tuple(ws)
    return None


def authority_words(name: str) -> tuple[str, ...] | None:
    """A name that states the caller's rights: `role`, `is_admin`, `permissions`, `scopes`."""
    ws = tuple(words(name))
    return ws if ws in _AUTHORITY else None


def is_caller_named(name: str) -> bool:
    """The name itself says it is the caller: `caller_id`, `current_user_id`, `as_user`."""
    ws = words(name)
    return bool(ws) and (ws[0] in _CALLER or ws[:2] == ["as", "user"] or ws[:3] == ["on", "behalf", "of"])


def speaks_of_caller(text: str) -> bool:
    """A docstring or description that says the value is the caller's (`your account id`)."""
    return bool(_SELF_DOC().search(text))


_SESSION_CALLS = ("get_access_token", "get_http_request", "get_current_user", "current_user")
_SESSION_WORDS = {"user", "identity", "principal", "caller", "account", "token", "session", "auth", "me"}


def knows_caller_from_session(tool: Tool, resolved_names: Iterable[str]) -> bool:
    """The tool already has the caller from the session: it calls `get_access_token()` (or
    reads the request), or a resolved parameter is named for the caller. Then a `user_id`
    argument names someone else, a target the person may well choose."""
    if calls(function_of(tool.node), *_SESSION_CALLS):
        return True
    return any(set(words(n)) & _SESSION_WORDS for n in resolved_names)


# --- secrets (MCPD203) ----------------------------------------------------------------------

_SECRET_LAST = {"password", "passwd", "passphrase", "secret", "apikey", "credentials", "credential"}
_CREDENTIAL_TOKEN = {
    "auth",
    "access",
    "bearer",
    "refresh",
    "session",
    "api",
    "oauth",
    "personal",
    "pat",
    "jwt",
    "id",
}
"""Kinds of token that are credentials; a `client_token` (an idempotency key), a
`starting_token` or `version_token` (a cursor, an optimistic lock) are not."""
_NOT_SECRET = {"max", "count", "limit", "num", "total", "name", "arn", "id", "path", "file", "length", "ref"}


def secret_words(name: str) -> tuple[str, ...] | None:
    """`api_key`, `auth_token`, `password`, `client_secret`, `private_key` (not `max_tokens`,
    `page_token`, `client_token`, `secret_name`: a count, a cursor, an idempotency key, a
    reference to a secret the server holds)."""
    ws = words(name)
    if not ws or ws[-1] in _NOT_SECRET:
        return None
    if ws[-2:] in (
        ["api", "key"],
        ["private", "key"],
        ["secret", "key"],
        ["access", "key"],
        ["signing", "key"],
    ):
        return tuple(ws)
    if ws[-1] in {"token", "tokens"} and (
        len(ws) == 1 or ws[-2] in _CREDENTIAL_TOKEN or ws[0] in {"aws", "github", "slack", "gitlab"}
    ):
        return tuple(ws)
    if ws[-1] in _SECRET_LAST and not {"max", "count", "length"} & set(ws):
        return tuple(ws)
    return None


# --- server-owned facts (MCPD202) ------------------------------------------------------------

_FACT = _phrases(
    "price unit_price item_price cost unit_cost balance account_balance current_balance "
    "discount discount_percent discount_rate stock stock_level in_stock quantity_available "
    "credit_limit fee tax_rate list_price"
)
_RECORD_KEY_LAST = {"id", "sku", "isbn", "title", "code", "product", "item", "symbol", "ticker", "number"}
_SETTING_VERBS = _words(
    "create add set update edit new register calculate calc compute estimate convert format "
    "simulate quote list search find filter get query change adjust modify upsert put patch "
    "restock import"
)


def fact_words(name: str) -> tuple[str, ...] | None:
    ws = tuple(words(name))
    return ws if ws in _FACT else None


def record_key(args: Iterable[Parameter], but: str) -> Parameter | None:
    """Another argument that picks a record the server keeps (`sku`, `book_id`, `title`)."""
    for p in args:
        ws = words(p.name)
        if p.name != but and ws and ws[-1] in _RECORD_KEY_LAST:
            return p
    return None


def sets_records(tool_name: str) -> bool:
    """`create_product`, `update_price`, `calculate_total`, `search_items`: the person sets,
    computes or filters by the value; it is not read back from a record."""
    ws = words(tool_name)
    return bool(ws) and ws[0] in _SETTING_VERBS


# --- confirmations (MCPD204) and irreversible tools (MCPD207) -----------------------------------

_CONFIRM = _phrases(
    "confirm confirmed confirmation approve approved approval yes sure are_you_sure "
    "acknowledge acknowledged i_understand user_confirmed user_approved user_confirmation "
    "confirm_delete confirm_deletion confirm_send confirm_payment confirm_transfer "
    "skip_confirmation no_confirm really consent user_consent"
)


def confirmation_words(name: str) -> tuple[str, ...] | None:
    ws = tuple(words(name))
    return ws if ws in _CONFIRM else None


_IRREVERSIBLE = _words(
    "delete remove drop destroy purge wipe erase truncate transfer pay send refund charge "
    "withdraw revoke terminate rm unlink"
)
_HARMLESS_FIRST = {
    "get",
    "list",
    "search",
    "preview",
    "draft",
    "estimate",
    "simulate",
    "validate",
    "check",
    "can",
}
_HARMLESS_ANY = {"draft", "preview", "dry", "test", "simulate", "estimate"}


def irreversible_verb(tool_name: str) -> str | None:
    """The verb that makes a tool irreversible (`delete_file` → 'delete'), or None."""
    ws = words(tool_name)
    if not ws or ws[0] in _HARMLESS_FIRST or set(ws) & _HARMLESS_ANY:
        return None
    return next((w for w in ws if w in _IRREVERSIBLE), None)


_INERT_CALLS = {"str", "int", "float", "len", "format", "print", "dict", "list", "isinstance", "join", "repr"}


def has_effect(fn: FunctionNode | None) -> bool:
    """The body does something besides building its answer (a demo's `return f"sent {m}"` does
    not): it calls something other than a formatting builtin, or deletes."""
    if fn is None:
        return True
    return any(
        isinstance(n, ast.Delete) or (isinstance(n, ast.Call) and _callee(n) not in _INERT_CALLS)
        for n in walk_body(fn)
    )


def asks_person(fn: FunctionNode | None, module_text: str = "") -> bool:
    """The body asks the person itself: `ctx.elicit(...)` (MCPD112 says how, but it asks), or
    returns `InputRequiredResult(input_requests={...})` for an answer, the round trip the SDK's
    deployment guide shows, where its module builds an `ElicitRequest` (not only a
    `CreateMessageRequest`, which asks the model, or a `ListRootsRequest`)."""
    return calls(fn, "elicit", "elicit_form", "elicit_url") or (
        "ElicitRequest" in module_text and calls(fn, "InputRequiredResult")
    )


# --- headers (MCPD206) --------------------------------------------------------------------

_HEADER_WHO = compiled_when_used(
    r"^x-(.*-)?(user|user-id|userid|tenant|tenant-id|account|account-id|org|org-id|role|roles|"
    r"principal|identity|email|user-email|auth-user|forwarded-user|forwarded-email|remote-user|"
    r"caller|caller-id|customer-id|owner|owner-id|scopes|permissions)$|^remote-user$",
    re.I,
)


def identity_header(key: str) -> bool:
    """A request header that claims who the caller is (`X-User-Id`, `X-Tenant`, `Remote-User`)."""
    return bool(_HEADER_WHO().match(key.strip().replace("_", "-")))


def header_reads(fn: FunctionNode | None) -> Iterable[tuple[ast.AST, str]]:
    """`<...>.headers[KEY]` and `<...>.headers.get(KEY)` in a body, with the key's text."""
    if fn is None:
        return
    for node in walk_body(fn):
        key: ast.expr | None = None
        if isinstance(node, ast.Subscript) and _is_headers(node.value):
            key = node.slice
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"get", "get_all", "getlist"}
            and _is_headers(node.func.value)
            and node.args
        ):
            key = node.args[0]
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            yield node, key.value


def _is_headers(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "headers") or (
        isinstance(node, ast.Name) and node.id == "headers"
    )
