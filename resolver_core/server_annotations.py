"""What a helper parameter's annotation says about the servers its callers may pass.

Python never enforces a parameter's annotation, and the SDK never reads a `register(server)`
helper's: whatever a call passes is what `server.tool()` registers on. So the annotation
cannot decide *whether* a server arrives (the call sites do, `reach.py`); it says what the
author meant, read as a type checker reads it:

- `SERVER`: it names `MCPServer` (or a project subclass), also inside a union, `Optional`,
  `Annotated` or a string (`MCPServer | None = None`, `"MCPServer"`, a name imported under
  `TYPE_CHECKING`). Such a parameter is a server even when no call in the project passes one:
  a library of tools, checked on a server of its own.
- `OPEN`: it admits a server without naming one (`Any`, `object`, a `Protocol`, a `TypeVar`
  that does): a server where its callers pass one, as an unannotated parameter is. Published
  servers write `def register_tools(mcp: Any)` to avoid importing the SDK's class.
- `CLOSED`: it names some other type (`int`, `str`, a project class, a name not followed): a
  type checker refuses a server there, so no call is read as passing one. Reading every
  parameter as a possible server would make each `def f(port: int)` a slot that callers'
  values are matched against, for calls a type checker already rejects.
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Iterable

from .signatures import Classes
from .source import ParsedModule
from .symbols import Defined, Names, Value, sdk_name
from .typeexpr import TClass


class Slot(enum.Enum):
    """What an annotation lets through, from most to least: the order `_widest` takes."""

    SERVER = 2
    OPEN = 1
    CLOSED = 0


_OPEN_NAMES = frozenset({"Any", "builtins.object"})
"""The external types every value is an instance of (`typing.Any`, `typing_extensions.Any`, `object`)."""


def slot_of(names: Names, classes: Classes, module: ParsedModule, ann: ast.expr | None) -> Slot:
    """What the annotation `ann` (of a parameter written in `module`) lets through; an
    unannotated parameter is `OPEN`."""
    return Slot.OPEN if ann is None else _Reader(names, classes, module).slot(ann, 0)


class _Reader:
    """Reads one annotation as a type checker does (module-level names, `TYPE_CHECKING` ones too)."""

    def __init__(self, names: Names, classes: Classes, module: ParsedModule) -> None:
        self.names = names
        self.classes = classes
        self.module = module

    def slot(self, ann: ast.expr, depth: int) -> Slot:
        written = unquoted(ann)
        if written is None or depth > _MAX_DEPTH:
            return Slot.CLOSED
        if isinstance(written, ast.BinOp) and isinstance(written.op, ast.BitOr):  # `MCPServer | None`
            return self._widest([written.left, written.right], depth)
        if isinstance(written, ast.Subscript):
            head = sdk_name(self.names.declared(self.module, written.value))
            args = written.slice.elts if isinstance(written.slice, ast.Tuple) else [written.slice]
            if head in ("Union", "Optional"):
                return self._widest(args, depth)
            if head == "Annotated":
                return self.slot(args[0], depth + 1)
            written = written.value  # `MCPServer[Deps]`: the class
        declared = sdk_name(self.names.declared(self.module, written))
        if declared == "MCPServer":
            return Slot.SERVER
        if declared in _OPEN_NAMES:
            return Slot.OPEN
        return self._project(written, depth)

    def _widest(self, arms: Iterable[ast.expr], depth: int) -> Slot:
        """A union lets through what its widest arm does."""
        return max((self.slot(arm, depth + 1) for arm in arms), key=lambda s: s.value, default=Slot.CLOSED)

    def _project(self, written: ast.expr, depth: int) -> Slot:
        """A project class (a subclass of `MCPServer`, or a `Protocol` a server may satisfy,
        generic or not), a module-level `TypeVar` (its bound, or its constraints; any value
        without either) or a module-level alias (`ServerLike = Optional[MCPServer]`, read as its
        value: a type checker reads the alias as what it stands for)."""
        symbol = self.names.resolve(self.module, written, None)
        symbol = self.names.follow(symbol) if symbol is not None else None
        if isinstance(symbol, Defined) and isinstance(symbol.node, ast.ClassDef):
            cls = TClass(symbol.module.name, symbol.qualname, symbol.node, symbol.module)
            if self.classes.is_sub(cls, frozenset({"MCPServer"})):
                return Slot.SERVER
            # `class Reg(Protocol[T])`: a generic Protocol's base is a subscript of it.
            bases = (_unsubscripted(b) for b in symbol.node.bases)
            named = (sdk_name(self.names.canonical(symbol.module, b)) for b in bases)
            return Slot.OPEN if "Protocol" in named else Slot.CLOSED
        if not isinstance(symbol, Value) or symbol.scope is not None:
            return Slot.CLOSED
        reader = _Reader(self.names, self.classes, symbol.module)
        call = symbol.node
        if not (
            isinstance(call, ast.Call)
            and sdk_name(self.names.canonical(symbol.module, call.func)) == "TypeVar"
        ):
            # `ServerLike = MCPServer | None`: a module-level alias lets through what its value does.
            return reader.slot(call, depth + 1)
        bound = next((k.value for k in call.keywords if k.arg == "bound"), None)
        if bound is not None:
            return reader.slot(bound, depth + 1)
        return reader._widest(call.args[1:], depth) if len(call.args) > 1 else Slot.OPEN


_MAX_DEPTH = 20
"""How deeply nested an annotation is read (`Optional[Union[...]]`, a `TypeVar` bound to
another's): past it, nothing is let through."""


def _unsubscripted(base: ast.expr) -> ast.expr:
    """A class base as the class it names: `Protocol[T]` is `Protocol`."""
    return base.value if isinstance(base, ast.Subscript) else base


def unquoted(ann: ast.expr) -> ast.expr | None:
    """An annotation as written, or the expression a string annotation holds (None when the
    string is no expression)."""
    if not (isinstance(ann, ast.Constant) and isinstance(ann.value, str)):
        return ann
    try:
        return ast.parse(ann.value, mode="eval").body
    except SyntaxError:
        return None
