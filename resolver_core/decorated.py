"""The objects decorators make, as the model of `decorators.py` builds them: what Python would
hold once a def's decorators ran (only what the SDK reads of it: its signature's function, its
names, its `__wrapped__` chain, its async-ness), or why it cannot be told (`opaque`)."""

from __future__ import annotations

import ast

from .annotation_writes import Written
from .model import ProblemKind
from .records import record
from .source import ParsedModule
from .symbols import Defined, Scope

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
MAX_DEPTH = 12
MAX_WRAPPED = MAX_DEPTH * 4
"""`__wrapped__` links followed (`innermost`, `named`): stacks deeper are not followed."""


@record
class Obj:
    """A callable object as Python would have built it (only what the SDK reads of it).

    kind: `function` (a def, or a library wrapper when `node` is None), `lambda`, `instance`
    (of a project class: `cls`), `class`, `partial` (of `base`), `wraps` (the decorator
    `functools.wraps(x)` returns), `cache` (the decorator `lru_cache(...)` returns), `keeping`
    (the decorator `validate_call(...)` returns),
    `property`, `external` (a library object, by `qualname`), `param` (a parameter of the
    function being analysed, standing for its argument) or `opaque` (see `opaque`).
    """

    kind: str
    module: ParsedModule | None = None
    node: FunctionNode | ast.ClassDef | None = None
    qualname: str = ""
    scope: Scope | None = None
    """Where `node`'s annotations are evaluated (the scope the def is written in)."""
    owner: Defined | None = None
    """The class a method was looked up on (its body is the annotation scope)."""
    wrapped: Obj | None = None
    """`__wrapped__`: what `inspect.signature` and the hints follow."""
    names_copied: bool = False
    """`__name__`/`__qualname__`/`__module__` copied from `wrapped` (wraps, update_wrapper)."""
    is_async: bool = False
    """The object's own `inspect.iscoroutinefunction` (or its `__call__`'s)."""
    base: Obj | None = None
    positional: int = 0
    keywords: tuple[str, ...] = ()
    cls: Defined | None = None
    call: Defined | None = None
    """An instance's `__call__` method."""
    binding: str | None = None
    """`staticmethod` / `classmethod` when the def is marked so (methods only)."""
    opaque: str | None = None
    opaque_kind: ProblemKind = "opaque"
    """`invalid` when what the decorators produce is no callable at all (a decorator returning None)."""
    decorated: bool = False
    """Produced by applying at least one decorator (not the def as written)."""
    annotations: tuple[Written, ...] = ()
    """Annotations a decorator wrote into it (`annotation_writes.py`), by parameter name."""

    @property
    def innermost(self) -> Obj:
        """What `inspect.unwrap` reaches: the object whose signature the SDK reads."""
        cur = self
        for _ in range(MAX_WRAPPED):
            if cur.wrapped is None:
                break
            cur = cur.wrapped
        return cur

    @property
    def named(self) -> Obj:
        """The object whose `__name__`/`__qualname__`/`__module__` this one carries."""
        cur = self
        for _ in range(MAX_WRAPPED):
            if not (cur.names_copied and cur.wrapped is not None):
                break
            cur = cur.wrapped
        return cur

    @property
    def awaits_nothing(self) -> bool:
        """A sync object whose wrapped chain reaches an `async def`: it returns a coroutine."""
        if self.is_async or self.kind not in ("function", "instance"):
            return False
        cur = self.wrapped
        while cur is not None:
            if cur.is_async:
                return True
            cur = cur.wrapped
        return False


def wrapping_depth(obj: Obj) -> int:
    """How many `__wrapped__` links lead from `obj` (counted up to one past `MAX_WRAPPED`)."""
    depth, cur = 0, obj.wrapped
    while cur is not None and depth <= MAX_WRAPPED:
        depth, cur = depth + 1, cur.wrapped
    return depth


def opaque(reason: str, kind: ProblemKind = "opaque") -> Obj:
    """An object the model cannot follow, and why."""
    return Obj("opaque", opaque=reason, opaque_kind=kind)


def replaced(obj: Obj, decorated: ast.AST) -> bool:
    """A decorator that returned some other module-level function: the def's decorators are
    not part of what the SDK holds (nothing links that function back to the def)."""
    inner = obj.innermost
    return (
        obj.kind == "function"
        and obj.wrapped is None
        and inner.node is not decorated
        and "<locals>" not in inner.qualname
    )
