"""Tool names written as class constants and enum members: `@mcp.tool(name=ToolName.SEARCH)`.

Published servers keep their tool names in one place (`core/enums.py`): a class of string
constants (`class Names: READ = "read-document"`), a string enum (`class ToolName(str, Enum)`,
`class ToolName(StrEnum)`) whose members the SDK takes as the strings they are (pydantic reads
a `str` subclass by its value), or any enum's member read through `.value`. The name the SDK
registers is that string: it is what the graph shows and what a duplicate is compared by. A
member of a class whose bases are not read so (a plain `Enum` member passed whole, a base of the
project's) stays unread: the tool's name counts as computed, compared with no other.
"""

from __future__ import annotations

import ast

from .source import ParsedModule
from .symbols import Defined, Names, Scope, Value

_ENUMS = frozenset({"Enum", "StrEnum", "IntEnum", "Flag", "IntFlag"})
_STRING_ENUMS = frozenset({"StrEnum"})


def constant_text(names: Names, module: ParsedModule, node: ast.Attribute, scope: Scope | None) -> str | None:
    """The string `Cls.NAME` or `Cls.NAME.value` stands for, when `Cls` is a project class whose
    body binds `NAME` once to a string, and reading it so is what Python does: a plain class's
    constant, a string enum's member, any enum member's `.value`."""
    value = node.attr == "value" and isinstance(node.value, ast.Attribute)
    member = node.value if value else node
    assert isinstance(member, ast.Attribute)
    symbol = names.resolve(module, member.value, scope)
    cls = names.follow(symbol) if symbol is not None else None
    if not isinstance(cls, Defined) or not isinstance(cls.node, ast.ClassDef):
        return None
    bases = {_base_name(b) for b in cls.node.bases}
    if None in bases or bases - {"object", "str", *_ENUMS}:
        return None  # a base of the project's, or a computed one: its members are not read here
    is_enum = bool(bases & _ENUMS)
    if is_enum and not value and not (bases & _STRING_ENUMS or "str" in bases):
        return None  # a plain `Enum` member passed whole is no string
    if not is_enum and value:
        return None  # `Names.READ.value` of a plain string constant: no such attribute
    return _bound_once(cls.node, member.attr)


def _base_name(base: ast.expr) -> str | None:
    """`Enum` of `Enum` or `enum.Enum`; None for anything else (a subscript, a call)."""
    if isinstance(base, ast.Name):
        return base.id
    if isinstance(base, ast.Attribute):
        return base.attr
    return None


def _bound_once(cls: ast.ClassDef, name: str) -> str | None:
    """The string the class body binds `name` to, when it binds it exactly once, plainly."""
    found = [
        stmt.value
        for stmt in cls.body
        if (
            isinstance(stmt, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
        )
        or (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name)
    ]
    if len(found) != 1:
        return None
    text = found[0]
    return text.value if isinstance(text, ast.Constant) and isinstance(text.value, str) else None


def text_value(names: Names, module: ParsedModule, node: ast.expr | None, scope: Scope | None) -> str | None:
    """A tool name written as a string, or as a name bound to one (`name=LOOKUP`), or as a
    class constant or string enum member (`name=ToolName.SEARCH`, `constant_text`)."""
    if isinstance(node, ast.Attribute):
        return constant_text(names, module, node, scope)
    if isinstance(node, ast.Name):
        symbol = names.lookup(module, node.id, scope)
        node = symbol.node if isinstance(symbol, Value) else None
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
