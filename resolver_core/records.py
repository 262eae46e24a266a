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

For the same reason comparing, hashing and showing a record are the same three functions for
every record, made over its fields' names (`_compared_by_value`), and they behave as the ones
`@dataclass(unsafe_hash=True)` writes (fields compared as a tuple, `compare=False` and `hash=`
honoured, the same `repr`). Its `__init__` is compiled when the first record of its class is
made (`_init_on_first_use`): a small run imports about eighty record classes and makes
records of half of them, and compiling an `__init__` costs more than the rest of a class.
"""

from __future__ import annotations

import reprlib
import sys
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from operator import attrgetter
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

    def make(plain: type[Any]) -> type[Any]:
        made = dataclass(slots=slots, init=False, eq=False, repr=False, kw_only=kw_only)(plain)
        return _compared_by_value(_init_on_first_use(made))

    return make if cls is None else make(cls)


@dataclass_transform(field_specifiers=(field,))
def slotted(cls: type[T], /) -> type[T]:
    """`@slotted`: a mutable slotted dataclass, compared by its fields and unhashable, as
    `@dataclass(slots=True)` makes it (the graph's tools, servers and findings, built a piece
    at a time), with only its `__init__` compiled (`_compared_by_value`)."""
    made = _init_on_first_use(dataclass(slots=True, init=False, eq=False, repr=False)(cls))
    out: type[T] = _compared_by_value(made, hashable=False)
    return out


def _compared_by_value(cls: type[Any], hashable: bool = True) -> type[Any]:
    """Give a dataclass the `__eq__`, `__hash__` and `__repr__` that `@dataclass(unsafe_hash=True)`
    writes (`hashable=False`: `__eq__`, `__repr__` and no hash, as `@dataclass` writes), as
    closures over its fields' names instead of methods compiled from text: the dataclass
    still compiles its `__init__`, but not the others."""
    compared = tuple(f.name for f in fields(cls) if f.compare)
    hashed = tuple(f.name for f in fields(cls) if (f.compare if f.hash is None else f.hash))
    shown = tuple(f.name for f in fields(cls) if f.repr)
    key, hash_key = _values(compared), _values(hashed)

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(key(self) == key(other))
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(hash_key(self))

    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({inner})"

    methods = {"__eq__": __eq__, "__repr__": reprlib.recursive_repr()(__repr__)}
    if hashable:
        methods["__hash__"] = __hash__
    for name, method in methods.items():
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)
    if not hashable:  # what `@dataclass(eq=True)` leaves a mutable class
        cls.__hash__ = None  # type: ignore[assignment]
    return cls


def _init_on_first_use(cls: type[Any]) -> type[Any]:
    """Give a dataclass made with `init=False` the `__init__` that `@dataclass` writes (every
    field a parameter in order, keyword-only ones after `*`, defaults and default factories,
    `init=False` fields set from theirs), compiled when it is first called; a class that writes
    its own keeps it, as with `@dataclass`."""
    if "__init__" in cls.__dict__:
        return cls

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        compiled = _compiled_init(cls)
        cls.__init__ = compiled
        compiled(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = __init__
    return cls


def _compiled_init(cls: type[Any]) -> Callable[..., None]:
    declared = fields(cls)
    me = "__record_self__" if any(f.name == "self" for f in declared) else "self"
    positional, keyword, body = [me], list[str](), list[str]()
    scope: dict[str, object] = {"__missing__": MISSING}
    for f in declared:
        value, default = f.name, f"__default_{f.name}__"
        if f.default_factory is not MISSING:
            scope[default] = f.default_factory
            value = f"{default}() if {f.name} is __missing__ else {f.name}" if f.init else f"{default}()"
            parameter = f"{f.name}=__missing__"
        elif f.default is not MISSING:
            scope[default] = f.default
            value = f.name if f.init else default
            parameter = f"{f.name}={default}"
        else:
            parameter = f.name
        if f.init:
            (keyword if f.kw_only else positional).append(parameter)
        if f.init or value != f.name:
            body.append(f"    {me}.{f.name} = {value}")
    signature = ", ".join([*positional, *(["*", *keyword] if keyword else [])])
    exec(f"def __init__({signature}):\n" + ("\n".join(body) or "    pass"), scope)
    init: Callable[..., None] = scope["__init__"]  # type: ignore[assignment]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _values(names: tuple[str, ...]) -> Callable[[object], tuple[object, ...]]:
    """The values of the attributes `names` of an object, as a tuple."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()
