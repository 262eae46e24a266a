"""Which resolver of a server a test means: by the function itself, its qualified name, or its id.

Ids are the graph's (`mcpdeps graph --json`): `module:qualname`, `#n`-suffixed when two
resolvers share one (two closures made by one factory), numbered in the order the SDK
meets them. A reference that names nothing, or more than one resolver, is an error that
says what it could have meant: keyed by the wrong identity is the mistake FastAPI's
`dependency_overrides` lets pass silently.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..resolver_core.suggest import did_you_mean
from . import sdk_internals

if TYPE_CHECKING:
    from mcp.server import MCPServer

ResolverRef = Callable[..., Any] | str
"""A resolver as a test names it: the callable given to `Resolve(...)`, its qualname or its id."""


class NotAResolver(KeyError):
    """A reference to something that is not a resolver of the server under test."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True, slots=True)
class ResolverEntry:
    """One resolver of the server, as registered."""

    id: str
    fn: Callable[..., Any]
    key: Hashable

    @property
    def qualname(self) -> str:
        return self.id.split("#", 1)[0].split(":", 1)[1]

    @property
    def name(self) -> str:
        return self.qualname.rsplit(".", 1)[-1]


@dataclass(slots=True)
class ResolverIndex:
    """A server's resolvers, every tool's, each once, in the order the SDK meets them."""

    server_name: str
    entries: list[ResolverEntry] = field(default_factory=list)
    by_key: dict[Hashable, ResolverEntry] = field(default_factory=dict)
    _bases: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, server: MCPServer) -> ResolverIndex:
        index = cls(getattr(server, "name", None) or type(server).__name__)
        for tool in sdk_internals.registered_tools(server):
            for fn in sdk_internals.tool_resolvers(tool):
                index.add(fn)
        return index

    def add(self, fn: Callable[..., Any]) -> ResolverEntry:
        """The entry of `fn`, made on first sight (also for resolvers only an override depends on)."""
        key = sdk_internals.resolver_key(fn)
        if key in self.by_key:
            return self.by_key[key]
        base = sdk_internals.wire_base(fn)
        seen = self._bases.get(base, 0)
        self._bases[base] = seen + 1
        entry = ResolverEntry(base if seen == 0 else f"{base}#{seen}", fn, key)
        self.entries.append(entry)
        self.by_key[key] = entry
        return entry

    def find(self, ref: ResolverRef) -> ResolverEntry:
        """The one resolver `ref` names, or `NotAResolver` with what it could mean."""
        if isinstance(ref, str):
            return self._find_name(ref)
        try:
            key = sdk_internals.resolver_key(ref)
        except TypeError:
            key = None
        if key is not None and key in self.by_key:
            return self.by_key[key]
        base = sdk_internals.wire_base(ref) if callable(ref) else repr(ref)
        twins = [e.id for e in self.entries if e.id.split("#", 1)[0] == base]
        if twins:
            raise NotAResolver(
                f"{base} is not the resolver object server {self.server_name!r} registered, but "
                f"{_listed(twins)} {'has' if len(twins) == 1 else 'have'} its name (another closure "
                "or instance?); name the one you mean by its id."
            )
        label = base.split(":", 1)[-1]
        raise NotAResolver(self._unknown(label))

    def _find_name(self, name: str) -> ResolverEntry:
        for matches in (
            [e for e in self.entries if e.id == name],
            [e for e in self.entries if name in (e.id.split("#", 1)[0], e.qualname)],
            [e for e in self.entries if e.name == name],
        ):
            if len(matches) == 1:
                return matches[0]
            if matches:
                raise NotAResolver(
                    f"{name!r} names {len(matches)} resolvers of server {self.server_name!r} "
                    f"({_listed(e.id for e in matches)}); name one by its id."
                )
        raise NotAResolver(self._unknown(name))

    def _unknown(self, label: str) -> str:
        names = [e.name for e in self.entries] + [e.qualname for e in self.entries]
        known = _listed(e.id for e in self.entries) or "none"
        return (
            f"{label!r} is not a resolver of server {self.server_name!r}{did_you_mean(label, names)}. "
            f"Its resolvers: {known}."
        )


def _listed(ids: Iterable[str]) -> str:
    return ", ".join(ids)
