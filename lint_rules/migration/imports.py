"""The imports a migrated module needs, added beside its own; the ones it no longer uses, removed.

libcst's `AddImportsVisitor`/`RemoveImportsVisitor` did this at 1 s for a 100-line module
(matchers and scope analysis over the whole tree): most of a migration. What a codemod
here adds is always `from <module> import <Name>` at module level, and what it may remove
is one name (`Context`) whose last use it just moved, so a pass over the top-level
statements and one walk for names do the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import libcst as cst

from ..fixes.cst_source import dotted_name
from .statements import free_names


def _from_imports(module: cst.Module) -> Iterable[tuple[int, cst.ImportFrom]]:
    """(index in the body, statement) of each top-level `from x import a, b` line."""
    for index, statement in enumerate(module.body):
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            small = statement.body[0]
            if isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None:
                yield index, small


def _import_end(module: cst.Module) -> int:
    """Where a new import line goes: after the last top-level import (else after the docstring)."""
    end = 0
    for index, statement in enumerate(module.body):
        if isinstance(statement, cst.SimpleStatementLine):
            smalls = statement.body
            if all(isinstance(s, cst.Import | cst.ImportFrom) for s in smalls):
                end = index + 1
            elif index == 0 and isinstance(smalls[0], cst.Expr):
                end = max(end, 1)  # the docstring
            else:
                break
        else:
            break
    return end


def _with_names(statement: cst.ImportFrom, names: Sequence[str]) -> cst.ImportFrom:
    assert not isinstance(statement.names, cst.ImportStar)
    aliases = list(statement.names)
    was_sorted = [dotted_name(a.name) for a in aliases] == sorted(dotted_name(a.name) for a in aliases)
    last_comma = aliases[-1].comma
    between = aliases[0].comma if len(aliases) > 1 else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    aliases += [cst.ImportAlias(name=cst.Name(n)) for n in names]
    if was_sorted:
        aliases.sort(key=lambda a: dotted_name(a.name))
    aliases = [a.with_changes(comma=between) for a in aliases[:-1]] + [
        aliases[-1].with_changes(comma=last_comma)
    ]
    return statement.with_changes(names=aliases)


def with_imports(
    module: cst.Module, imports: set[tuple[str, str]], maybe_unused: Sequence[tuple[str, str]] = ()
) -> cst.Module:
    """`module` importing each (module, name) it does not import yet, beside its other imports,
    without the imports of `maybe_unused` that nothing uses any more (the `Context` of a tool
    whose only use of it was its question)."""
    body = list(module.body)
    wanted: dict[str, list[str]] = {}
    for source, name in sorted(imports):
        wanted.setdefault(source, []).append(name)
    new_lines = []
    for source, names in wanted.items():
        existing = [(i, s) for i, s in _from_imports(module) if dotted_name(s.module) == source]  # type: ignore[arg-type]
        present = {
            dotted_name(a.name)
            for _, s in existing
            if not isinstance(s.names, cst.ImportStar)
            for a in s.names
            if a.asname is None
        }
        missing = [n for n in names if n not in present]
        if not missing:
            continue
        if existing and not isinstance(existing[0][1].names, cst.ImportStar):
            index, statement = existing[0]
            line = body[index]
            assert isinstance(line, cst.SimpleStatementLine)
            body[index] = line.with_changes(body=[_with_names(statement, missing)])
        else:
            aliases = [cst.ImportAlias(name=cst.Name(n)) for n in missing]
            new_lines.append(cst.SimpleStatementLine([cst.ImportFrom(module=_dotted(source), names=aliases)]))
    end = _import_end(module)
    body[end:end] = new_lines
    return _without_unused(module.with_changes(body=body), maybe_unused)


def _dotted(name: str) -> cst.Attribute | cst.Name:
    parts = name.split(".")
    node: cst.Attribute | cst.Name = cst.Name(parts[0])
    for part in parts[1:]:
        node = cst.Attribute(value=node, attr=cst.Name(part))
    return node


def _without_unused(module: cst.Module, maybe_unused: Sequence[tuple[str, str]]) -> cst.Module:
    if not maybe_unused:
        return module
    used: set[str] = set()
    imports = dict(_from_imports(module))
    for index, top in enumerate(module.body):
        if index not in imports:
            used |= free_names(top)
    body: list[cst.BaseStatement | None] = list(module.body)
    for index, statement in imports.items():
        # `_from_imports` yields only absolute imports, whose module is never None
        if isinstance(statement.names, cst.ImportStar) or statement.module is None:
            continue
        source = dotted_name(statement.module)
        kept = [
            a
            for a in statement.names
            if a.asname is not None
            or (source, dotted_name(a.name)) not in maybe_unused
            or dotted_name(a.name) in used
        ]
        if len(kept) == len(statement.names):
            continue
        line = body[index]
        assert isinstance(line, cst.SimpleStatementLine)
        if not kept:
            body[index] = None  # the whole line goes
            continue
        kept[-1] = kept[-1].with_changes(comma=statement.names[-1].comma)
        body[index] = line.with_changes(body=[statement.with_changes(names=kept)])
    return module.with_changes(body=[s for s in body if s is not None])
