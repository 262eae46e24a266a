"""Which elicitation-model fields the SDK's schema gate rejects, decided statically.

`mcp.server.elicitation.render_elicitation_schema` renders the model with pydantic
and validates every property against the spec's `PrimitiveSchemaDefinition`. The
lists below were checked against that function (mcp 2.3.0): a verdict is given
only for types whose rendering is known; anything else is left alone (no guess,
no false alarm).
"""

from __future__ import annotations

import ast

from ...resolver_core.evaluator import Evaluator
from ...resolver_core.signatures import Classes
from ...resolver_core.typeexpr import (
    TAnnotated,
    TClass,
    TConst,
    TGeneric,
    TRef,
    TUnion,
    TypeExpr,
    display,
    sdk_of,
)

OK_SCALARS = frozenset(
    {
        "builtins.str",
        "builtins.int",
        "builtins.float",
        "builtins.bool",
        "datetime.date",
        "datetime.datetime",
    }
)
"""Render as `string`/`integer`/`number`/`boolean`, or `string` with format date/date-time."""

REJECTED = {
    "datetime.time": "renders as format 'time'",
    "datetime.timedelta": "renders as format 'duration'",
    "uuid.UUID": "renders as format 'uuid'",
    "decimal.Decimal": "renders as a number-or-string union",
    "builtins.bytes": "renders as format 'binary'",
    "builtins.bytearray": "renders as format 'binary'",
    "builtins.object": "renders with no type",
    "typing.Any": "renders with no type",
    "typing_extensions.Any": "renders with no type",
    "builtins.dict": "renders as an object",
    "builtins.tuple": "renders as an array of positional items",
    "builtins.list": "renders as an array without enum items",
    "builtins.set": "renders as an array without enum items",
    "builtins.frozenset": "renders as an array without enum items",
    "pathlib.Path": "renders as format 'path'",
    "ipaddress.IPv4Address": "renders as an IP-address format",
    "ipaddress.IPv6Address": "renders as an IP-address format",
}
"""Types whose rendering the spec's primitive schema refuses."""

REJECTED_PYDANTIC = {
    "SecretStr": "renders as format 'password'",
    "SecretBytes": "renders as format 'password'",
    "Json": "renders with no primitive type",
    "IPvAnyAddress": "renders as an IP-address format",
    "UUID1": "renders as format 'uuid1'",
    "UUID4": "renders as format 'uuid4'",
    "FilePath": "renders as format 'file-path'",
    "DirectoryPath": "renders as format 'directory-path'",
}

ARRAYS = frozenset({"list", "set", "frozenset", "List", "Set", "FrozenSet", "Sequence", "AbstractSet"})
MAPPINGS = frozenset({"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "defaultdict"})


class ElicitSchema:
    """Checks an elicitation model's fields the way `render_elicitation_schema` would."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self.classes = Classes(evaluator)

    def fields(self, model: TClass, depth: int = 0) -> list[tuple[str, ast.AnnAssign, TypeExpr | None]]:
        """Pydantic fields of a project model (inherited ones first), with evaluated annotations."""
        out: dict[str, tuple[str, ast.AnnAssign, TypeExpr | None]] = {}
        if depth < 10:
            for base in self.classes.bases(model):
                if isinstance(base, TClass):
                    for name, field, t in self.fields(base, depth + 1):
                        out[name] = (name, field, t)
        for stmt in model.node.body:
            if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                continue
            name = stmt.target.id
            t = self.evaluator.annotation(model.source, stmt.annotation, None)
            if name.startswith("_") or name == "model_config" or sdk_of(_strip(t)) == "ClassVar":
                continue
            out[name] = (name, stmt, t)
        return list(out.values())

    def is_model(self, t: TypeExpr | None) -> bool:
        return isinstance(t, TClass) and self.classes.is_sub(t, frozenset({"BaseModel"}))

    def problem(self, t: TypeExpr | None) -> str | None:
        """Why a field of type `t` fails the gate, or None (accepted, or not known statically)."""
        t = _strip(t)
        if isinstance(t, TUnion):
            members = [m for m in (_strip(a) for a in t.args) if m != TConst(None)]
            if len(members) > 1:
                if all(_literal_values(m) is not None for m in members):
                    return None  # unions of Literals: rendering not pinned down here
                if not all(isinstance(m, TRef | TClass | TGeneric) for m in members):
                    return None  # a member static analysis cannot see: no guess
                return f"`{display(t)}` renders as a union (anyOf) of several types"
            return self.problem(members[0]) if members else "a None-only field renders as type 'null'"
        if isinstance(t, TRef):
            return self._ref(t)
        if isinstance(t, TClass):
            return self._class(t)
        if isinstance(t, TGeneric):
            values = _literal_values(t)
            if values is not None:
                return _literal_problem(values)
            return self._generic(t)
        return None

    def _ref(self, t: TRef) -> str | None:
        if t.qualname in OK_SCALARS:
            return None
        if t.qualname in REJECTED:
            return f"`{display(t)}` {REJECTED[t.qualname]}"
        root, last = t.qualname.partition(".")[0], t.qualname.rpartition(".")[2]
        if root == "pydantic" and last in REJECTED_PYDANTIC:
            return f"`{last}` {REJECTED_PYDANTIC[last]}"
        if root == "typing" and last in MAPPINGS | {"Tuple"}:
            return f"`{last}` renders as an object or positional array"
        if root == "typing" and last in ARRAYS:
            return f"`{last}` renders as an array without enum items"
        return None

    def _class(self, t: TClass) -> str | None:
        if self._is_enum(t):
            return f"the Enum class `{t.qualname}` renders as a $ref, not an inline enum (use Literal[...])"
        if self.is_model(t) or _is_record(t):
            return f"the nested model `{t.qualname}` renders as an object ($ref); elicitation is flat"
        return None

    def _is_enum(self, t: TClass, depth: int = 0) -> bool:
        if depth > 20:
            return False
        for base in self.classes.bases(t):
            if isinstance(base, TRef) and base.qualname.startswith("enum."):
                return True
            if isinstance(base, TClass) and self._is_enum(base, depth + 1):
                return True
        return False

    def _generic(self, t: TGeneric) -> str | None:
        origin = t.origin.qualname.rpartition(".")[2] if isinstance(t.origin, TRef) else None
        if origin in MAPPINGS:
            return f"`{display(t)}` renders as an object"
        if origin in ("tuple", "Tuple"):
            if len(t.args) == 2 and display(t.args[1]) == "...":  # tuple[X, ...] is an array of X
                return self._items(t, t.args[0])
            return f"`{display(t)}` renders as an array of positional items"
        if origin in ARRAYS and len(t.args) == 1:
            return self._items(t, t.args[0])
        return None

    def _items(self, t: TGeneric, item: TypeExpr) -> str | None:
        item = _strip(item)  # type: ignore[assignment]
        if isinstance(item, TUnion):  # `T | None` items are flattened to `T` by the SDK's renderer
            rest = [a for a in item.args if a != TConst(None)]
            item = rest[0] if len(rest) == 1 else item
        values = _literal_values(_strip(item))
        if values is None:
            known = isinstance(_strip(item), TRef | TClass | TUnion | TGeneric)
            return f"`{display(t)}` renders as an array without enum items" if known else None
        if len(values) < 2:
            return f"`{display(t)}` renders its single-value Literal items as `const`, not an enum"
        if not all(isinstance(v, str) for v in values):
            return f"`{display(t)}`: an array's enum items must be strings"
        return None


def _is_record(t: TClass) -> bool:
    """A dataclass or TypedDict: pydantic renders both as nested objects."""
    decorators = {ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in t.node.decorator_list}
    bases = {ast.unparse(b) for b in t.node.bases}
    return bool(
        decorators & {"dataclass", "dataclasses.dataclass"} or bases & {"TypedDict", "typing.TypedDict"}
    )


def _strip(t: TypeExpr | None) -> TypeExpr | None:
    return _strip(t.inner) if isinstance(t, TAnnotated) else t


def _literal_values(t: TypeExpr | None) -> list[object] | None:
    if isinstance(t, TGeneric) and sdk_of(t.origin) == "Literal":
        return [a.value if isinstance(a, TConst) else a for a in t.args]
    return None


def _literal_problem(values: list[object]) -> str | None:
    if any(v is None for v in values):
        return "a Literal containing None renders an enum without a type"
    kinds = {type(v) for v in values}
    if len(kinds) > 1:
        return f"a Literal mixing {', '.join(sorted(k.__name__ for k in kinds))} values renders an enum without a type"
    if kinds - {str, int, float, bool}:
        return "a Literal of non-primitive values is not a primitive enum"
    return None
