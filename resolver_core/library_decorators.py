"""The decorators of the standard library whose effect mcpdeps knows, by qualified name.

Decorators written in the project are read (`decorators.py`); a library's cannot be (static
analysis never imports installed code), so these few are known by name: what `@name` gives
back for the function it decorates, as the SDK then sees it.
"""

from __future__ import annotations

IDENTITY = frozenset(
    {
        "typing.final",
        "typing.override",
        "typing.no_type_check",
        "typing.runtime_checkable",
        "typing_extensions.final",
        "typing_extensions.override",
        "typing_extensions.runtime_checkable",
        "abc.abstractmethod",
        "functools.total_ordering",
        "dataclasses.dataclass",
        "atexit.register",
    }
)
"""Library decorators that return their argument (possibly after marking it)."""

WRAPPING = frozenset(
    {
        "functools.cache",
        "functools.lru_cache",
        "functools.singledispatch",
        "contextlib.contextmanager",
        "contextlib.asynccontextmanager",
    }
)
"""Library decorators returning a sync wrapper made with `update_wrapper` (so `__wrapped__`)."""

MEMOIZING = frozenset({"functools.cache", "functools.lru_cache"})
"""Decorators under which every call returns what the first call made (a getter's server or
object is then one, however many call it)."""

PROPERTIES = frozenset({"builtins.property", "functools.cached_property"})
"""Library decorators making a property of the function."""
