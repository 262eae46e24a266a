"""Add the imports new code needs, once, merged into the module's existing import lines.

`from typing import Annotated` is added to an existing `from typing import ...` line when
there is one (parenthesized or not, keeping its comma and line style); a new line is placed in
the leading import block, in isort group order. Names the module already binds at top level are
never imported again.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Set

import libcst as cst

from .module_info import dotted_name


def _group(module: str) -> int:
    """isort-style sections: __future__, standard library, third party."""
    if module == "__future__":
        return 0
    return 1 if module.split(".")[0] in sys.stdlib_module_names else 2


def _sort_key(name: str) -> tuple[int, str]:
    """ruff/isort `order-by-type`: CONSTANTS, then Classes, then functions and variables."""
    if name.isupper() and len(name) > 1:
        return (0, name)
    return (1, name) if name[:1].isupper() else (2, name)


def _import_from(stmt: cst.BaseStatement, module: str) -> cst.ImportFrom | None:
    """The `from MODULE import a, b` small statement on this line, if it is one (no star, not relative)."""
    if not isinstance(stmt, cst.SimpleStatementLine):
        return None
    for small in stmt.body:
        if (
            isinstance(small, cst.ImportFrom)
            and not small.relative
            and small.module is not None
            and dotted_name(small.module) == module
            and not isinstance(small.names, cst.ImportStar)
        ):
            return small
    return None


def _default_comma() -> cst.Comma:
    return cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


def _has_comma(alias: cst.ImportAlias) -> bool:
    return isinstance(alias.comma, cst.Comma)


def _between(node: cst.ImportFrom, aliases: list[cst.ImportAlias]) -> cst.Comma:
    """The comma (with its whitespace) this line puts between two names: copied from the line itself."""
    for alias in aliases[:-1]:
        if _has_comma(alias):
            return alias.comma  # type: ignore[return-value]
    if node.lpar is not None and isinstance(node.lpar.whitespace_after, cst.ParenthesizedWhitespace):
        return cst.Comma(whitespace_after=node.lpar.whitespace_after)  # one name per line
    return _default_comma()


def merge_names(node: cst.ImportFrom, names: list[str]) -> cst.ImportFrom:
    """Add `names` to an existing `from M import ...`, at their sorted place if the line is sorted."""
    aliases = list(node.names)  # type: ignore[arg-type]
    for name in sorted(names, key=_sort_key):
        plain = [dotted_name(a.name) or "" for a in aliases]
        pos = len(aliases)
        if plain == sorted(plain, key=_sort_key):
            pos = next((i for i, a in enumerate(plain) if _sort_key(a) > _sort_key(name)), len(aliases))
        between = _between(node, aliases)
        new = cst.ImportAlias(name=cst.Name(name))
        if pos < len(aliases):
            aliases.insert(pos, new.with_changes(comma=between))
        else:  # the new last name takes over the old last name's ending (trailing comma or not)
            last = aliases[-1]
            aliases[-1] = last.with_changes(comma=between)
            aliases.append(new.with_changes(comma=last.comma))
    return node.with_changes(names=aliases)


def _is_docstring(stmt: cst.BaseStatement) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def _import_key(stmt: cst.SimpleStatementLine) -> tuple[int, str]:
    first = stmt.body[0]
    if isinstance(first, cst.ImportFrom):
        name = "." * len(first.relative) + ((dotted_name(first.module) if first.module else "") or "")
        return (3, name) if first.relative else (_group(name), name)
    assert isinstance(first, cst.Import)
    name = dotted_name(first.names[0].name) or ""
    return (_group(name), name)


def _is_import_line(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(
        isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body
    )


def _add_line(module: cst.Module, module_name: str, names: list[str]) -> cst.Module:
    """Insert `from module_name import names` in the leading docstring+imports block."""
    body = list(module.body)
    new = cst.parse_statement(f"from {module_name} import {', '.join(sorted(names, key=_sort_key))}\n")
    key = (_group(module_name), module_name)
    lead = 0
    while lead < len(body) and (_is_import_line(body[lead]) or (lead == 0 and _is_docstring(body[lead]))):
        lead += 1
    import_lines = [i for i in range(lead) if _is_import_line(body[i])]
    after = [i for i in import_lines if _import_key(body[i]) <= key]  # type: ignore[arg-type]
    blank = [cst.EmptyLine()]
    if after:
        at = after[-1] + 1
        same = _import_key(body[after[-1]])[0] == key[0]  # type: ignore[arg-type]
        body.insert(at, new.with_changes(leading_lines=[] if same else blank))
    elif import_lines:
        at = import_lines[0]
        first = body[at]
        same = _import_key(first)[0] == key[0]  # type: ignore[arg-type]
        body[at] = first.with_changes(leading_lines=[] if same else blank)
        body.insert(at, new.with_changes(leading_lines=first.leading_lines))
    else:
        at = lead
        if at < len(body) and not body[at].leading_lines:
            body[at] = body[at].with_changes(leading_lines=blank)
        body.insert(at, new.with_changes(leading_lines=blank if at else []))
    return module.with_changes(body=body)


def add_imports(module: cst.Module, needs: Mapping[str, Set[str]], bound: Set[str]) -> cst.Module:
    """Make every needed name importable, merging into existing `from M import` lines."""
    for module_name in sorted(needs, key=lambda m: (_group(m), m)):
        missing = sorted(n for n in needs[module_name] if n not in bound)
        if not missing:
            continue
        for index, stmt in enumerate(module.body):
            node = _import_from(stmt, module_name)
            if node is not None:
                assert isinstance(stmt, cst.SimpleStatementLine)
                small = [merge_names(s, missing) if s is node else s for s in stmt.body]
                body = list(module.body)
                body[index] = stmt.with_changes(body=small)
                module = module.with_changes(body=body)
                break
        else:
            module = _add_line(module, module_name, missing)
    return module
