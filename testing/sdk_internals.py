"""The parts of the SDK that `mcpdeps.testing` needs and the SDK does not publish, in one place.

The SDK builds each tool's resolver plans at registration and keeps them on its internal
`Tool` (`resolved_params`, `resolver_plans`); resolvers are memoised by an identity key and
named on the wire by `module:qualname`. Overriding a resolver means rebuilding those plans
with the SDK's own `build_resolver_plans`, so this module reads exactly what the SDK reads,
through its own helpers. They are private, so the SDK's version is checked once: outside
the range these were read from, mcpdeps says so in one sentence instead of misbehaving.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from importlib import metadata
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.client import Client
    from mcp.server import MCPServer

SUPPORTED = ((2, 3), (3, 0))
"""`mcp>=2.3,<3`: the versions whose internals this module was written against."""


class UnsupportedSDK(RuntimeError):
    """The installed SDK does not have the internals `mcpdeps.testing` relies on."""


def _version() -> tuple[int, int]:
    text = metadata.version("mcp")
    major, minor, *_ = [*(int(p) if p.isdigit() else 0 for p in text.split(".")[:2]), 0, 0]
    return major, minor


def check_sdk() -> None:
    """Fail with one sentence when the installed `mcp` is outside the supported range."""
    try:
        version = _version()
    except metadata.PackageNotFoundError as exc:
        raise UnsupportedSDK(
            "mcpdeps.testing needs the `mcp` package (mcp>=2.3,<3); it is not installed."
        ) from exc
    low, high = SUPPORTED
    if not low <= version < high:
        raise UnsupportedSDK(
            f"mcpdeps.testing supports mcp>=2.3,<3, but mcp {metadata.version('mcp')} is installed."
        )
    try:
        from mcp.server.mcpserver import resolve  # noqa: F401
        from mcp.server.mcpserver.resolve import _resolver_key, _state_key, _type_hints  # noqa: F401
        from mcp.shared._callable_inspection import is_async_callable  # noqa: F401
    except ImportError as exc:
        raise UnsupportedSDK(
            f"mcpdeps.testing cannot use mcp {metadata.version('mcp')}: its resolver internals moved ({exc})."
        ) from exc


def registered_tools(server: MCPServer) -> list[Any]:
    """The server's internal `Tool` objects, in registration order."""
    manager = getattr(server, "_tool_manager", None)
    if manager is None:
        raise UnsupportedSDK("mcpdeps.testing cannot find this MCPServer's tools (no `_tool_manager`).")
    return list(manager.list_tools())


def resolver_key(fn: Callable[..., Any]) -> Hashable:
    """The SDK's memoisation identity of a resolver (a bound method: its function and instance)."""
    from mcp.server.mcpserver.resolve import _resolver_key

    return _resolver_key(fn)


def wire_base(fn: Callable[..., Any]) -> str:
    """`module:qualname` as the SDK derives it (a callable object: its type's)."""
    from mcp.server.mcpserver.resolve import _state_key

    return _state_key(fn)


def hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """The type hints the SDK reads from a resolver ({} when any of them fails to evaluate)."""
    from mcp.server.mcpserver.resolve import _type_hints

    return dict(_type_hints(fn))


def is_async(fn: Callable[..., Any]) -> bool:
    """Whether the SDK awaits `fn` (otherwise it runs it in a worker thread)."""
    from mcp.shared._callable_inspection import is_async_callable

    return bool(is_async_callable(fn))


def resolved_parameters(tool: Any) -> dict[str, tuple[Callable[..., Any], bool]]:
    """A registered tool's resolved parameters: name to (resolver, whether it wants the `ElicitationResult`)."""
    return {name: (marker.fn, wants_union) for name, (marker, wants_union) in tool.resolved_params.items()}


def tool_resolvers(tool: Any) -> list[Callable[..., Any]]:
    """Every resolver a registered tool runs, in the order the SDK planned them (depth first)."""
    return [plan.fn for plan in tool.resolver_plans.values()]


def registered_plans(tool: Any) -> tuple[Any, Any]:
    """What `set_resolvers` replaces, for `restore_plans` to put back."""
    return tool.resolved_params, tool.resolver_plans


def restore_plans(tool: Any, saved: tuple[Any, Any]) -> None:
    tool.resolved_params, tool.resolver_plans = saved


def set_resolvers(
    tool: Any, params: dict[str, tuple[Callable[..., Any], bool]]
) -> dict[str, Callable[..., Any]]:
    """Make `tool` resolve `params` (name to (resolver, wants_union)) with plans the SDK builds.

    Returns each planned resolver by its wire key (the key a 2026-07-28 question carries).
    Raises the SDK's `InvalidSignature` (and changes nothing) when it would not register them.
    """
    from mcp.server.mcpserver import Resolve
    from mcp.server.mcpserver.resolve import build_resolver_plans

    fields = tool.fn_metadata.arg_model.model_fields
    argument_names = {field.alias or name for name, field in fields.items()}  # as `Tool.from_function`
    resolved = {name: (Resolve(fn), wants_union) for name, (fn, wants_union) in params.items()}
    plans = build_resolver_plans(resolved, argument_names)
    tool.resolved_params, tool.resolver_plans = resolved, plans
    return {plan.wire_key: plan.fn for plan in plans.values()}


def count_rounds(client: Client, on_round: Callable[[], None]) -> None:
    """Call `on_round` for every `tools/call` request this client sends.

    `Client.call_tool` sends each round of a 2026-07-28 call through its session's
    `call_tool`; the hook wraps that method on this one session object.
    """
    session = client.session
    send = session.call_tool

    async def counted(*args: Any, **kwargs: Any) -> Any:
        on_round()
        return await send(*args, **kwargs)

    session.call_tool = counted  # type: ignore[method-assign]
