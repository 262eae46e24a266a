"""`@record`: the immutable records of mcpdeps (facts, plans, diagnostics, settings).

A record is never changed after it is made: a fact is shared by the caches, the graph and
every rule, and two equal records are one dictionary key. That is the type checker's
guarantee here (`frozen_default`: mypy --strict refuses an assignment to a field, as it does
for `@dataclass(frozen=True)`), and at run time a record is a slotted dataclass hashed by its
fields, as a frozen one is.

Why not `@dataclass(frozen=True)` itself: Python writes and compiles the methods of each
dataclass from text when its module is imported, and a frozen one has two more
(`__setattr__`, `__delattr__`), with an `__init__` that sets every field through
`object.__setattr__`. Every `mcpdeps lint FILE` (pre-commit) imports about eighty records, and
those methods were 64 M of the 934 M instructions of an edited one-file run
(`benchmarks/README.md`); a record made in the analysis' loops is built faster too.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, overload

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # pydantic's dependency
    from typing_extensions import dataclass_transform

T = TypeVar("T")


@overload
def record(cls: type[T], /) -> type[T]: ...
@overload
def record(*, slots: bool = True, kw_only: bool = False) -> Callable[[type[T]], type[T]]: ...
@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[Any] | None = None, /, *, slots: bool = True, kw_only: bool = False) -> Any:
    """`@record`, `@record(kw_only=True)`; `slots=False` for a record that keeps a `__dict__`
    (a `functools.cached_property`, or a base whose layout slots would conflict with)."""
    make = dataclass(slots=slots, unsafe_hash=True, kw_only=kw_only)
    return make if cls is None else make(cls)
