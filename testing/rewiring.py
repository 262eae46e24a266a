"""Point a server's tools at counting stand-ins for its resolvers, overrides included, and back.

The SDK builds each tool's resolver plans at registration and calls the function each
`Resolve` marker holds, so replacing a resolver in its module after import changes
nothing. Here every resolver a tool reaches gets one stand-in (one per SDK identity, so
memoisation is unchanged): a function the SDK sees exactly as it saw the resolver it
stands for (same signature, same hints, same `module:qualname`, hence the same wire keys
and answers), which counts its runs and calls the resolver, or the override that replaces
it. The stand-ins are new `Resolve` markers on the tool's own fields, and the plans are
rebuilt by the SDK's `build_resolver_plans`: the user's annotations and every other server
are untouched, the input schema (built from the tool function) cannot change, and
restoring two fields undoes everything.
"""

from __future__ import annotations

import inspect
import threading
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, get_args, get_origin

from . import sdk_internals
from .naming import ResolverIndex

if TYPE_CHECKING:
    from mcp.server import MCPServer


class OverrideError(ValueError):
    """An override the SDK would not accept as a resolver of that tool."""


@dataclass(frozen=True, slots=True)
class Value:
    """An override that is a plain value: the resolved parameter receives it as is."""

    value: Any


def value(obj: Any) -> Value:
    """Override with `obj` itself even when it is callable (a callable is otherwise a fake resolver)."""
    return Value(obj)


Replacement = Callable[..., Any] | Value


@dataclass(slots=True)
class RunLog:
    """What the stand-ins saw: runs per resolver id, and the last resolver that asked a question."""

    runs: Counter[str] = field(default_factory=Counter)
    last_asker: str | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def ran(self, rid: str, result: Any) -> None:
        from mcp.server.mcpserver import Elicit, ListRoots, Sample

        with self._lock:
            self.runs[rid] += 1
            if isinstance(result, Elicit | Sample | ListRoots):
                self.last_asker = rid


def _standin(impl: Callable[..., Any], rid: str, log: RunLog) -> Callable[..., Any]:
    """A function that runs `impl` and counts it; async exactly when the SDK would await `impl`."""
    if sdk_internals.is_async(impl):

        async def run_async(**kwargs: Any) -> Any:
            result = await impl(**kwargs)
            log.ran(rid, result)
            return result

        return run_async

    def run(**kwargs: Any) -> Any:
        result = impl(**kwargs)
        log.ran(rid, result)
        return result

    return run


@dataclass(slots=True)
class Rewiring:
    """The stand-ins of one server's resolvers while a test client is open."""

    server: MCPServer
    index: ResolverIndex
    overrides: dict[Hashable, Replacement]
    log: RunLog = field(default_factory=RunLog)
    wire_ids: dict[str, dict[str, str]] = field(default_factory=dict)
    """Per tool, the SDK's wire key of each resolver to its id (how a 2026-07-28 question names its asker)."""
    _standins: dict[Hashable, Callable[..., Any]] = field(default_factory=dict)
    _ids: dict[int, str] = field(default_factory=dict)
    _saved: list[tuple[Any, tuple[Any, Any]]] = field(default_factory=list)

    def install(self) -> None:
        """Give every tool plans over the stand-ins; on an override the SDK refuses, change nothing."""
        from mcp.server.mcpserver.exceptions import InvalidSignature

        self._standins.clear()
        try:
            for tool in sdk_internals.registered_tools(self.server):
                registered = sdk_internals.resolved_parameters(tool)
                if not registered:
                    continue
                params = {name: (self._standin(fn), wants) for name, (fn, wants) in registered.items()}
                saved = sdk_internals.registered_plans(tool)
                try:
                    planned = sdk_internals.set_resolvers(tool, params)
                except InvalidSignature as exc:
                    raise OverrideError(
                        f"With the overrides, tool {tool.name!r} would not register: {exc}."
                    ) from exc
                self._saved.append((tool, saved))
                self.wire_ids[tool.name] = {key: self._ids[id(fn)] for key, fn in planned.items()}
        except BaseException:
            self.uninstall()
            raise

    def uninstall(self) -> None:
        """Put back the plans the SDK built at registration."""
        while self._saved:
            tool, saved = self._saved.pop()
            sdk_internals.restore_plans(tool, saved)
        self.wire_ids.clear()

    def reinstall(self) -> None:
        self.uninstall()
        self.install()

    def _standin(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """The one stand-in of `fn`'s SDK identity, made (with its dependencies') on first sight."""
        entry = self.index.add(fn)
        if entry.key in self._standins:
            return self._standins[entry.key]
        replacement = self.overrides.get(entry.key)
        impl = _constant(replacement.value) if isinstance(replacement, Value) else replacement or fn
        standin = _standin(impl, entry.id, self.log)
        self._standins[entry.key] = standin
        self._ids[id(standin)] = entry.id
        module, _, qualname = sdk_internals.wire_base(fn).partition(":")
        standin.__module__, standin.__qualname__ = module, qualname
        standin.__name__ = qualname.rsplit(".", 1)[-1]
        standin.__signature__ = inspect.signature(impl)  # type: ignore[attr-defined]
        standin.__annotations__ = {name: self._rewired(h) for name, h in sdk_internals.hints(impl).items()}
        return standin

    def _rewired(self, hint: Any) -> Any:
        """`hint` with its `Resolve` marker (the first, the one the SDK honours) on a stand-in."""
        from mcp.server.mcpserver import Resolve

        if get_origin(hint) is not Annotated:
            return hint
        base, *metadata = get_args(hint)
        at = next((i for i, m in enumerate(metadata) if isinstance(m, Resolve)), None)
        if at is None:
            return hint
        metadata[at] = Resolve(self._standin(metadata[at].fn))
        arguments = (base, *metadata)
        return Annotated[arguments]


def _constant(obj: Any) -> Callable[[], Any]:
    async def constant() -> Any:
        return obj

    return constant
