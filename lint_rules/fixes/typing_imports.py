"""The `typing` names a marker fix made unused (`Optional`, `Union`) leave the import with it.

MCPD003 and MCPD101 rewrite `Optional[Annotated[T, Resolve(f)]]` as `Annotated[T, Resolve(f)]`;
when that was the file's last `Optional`, ruff (F401) and every editor would flag the import
the fix left behind. Only a name the fix itself made unused goes: one the file already
imported without using stays (it is not ours to judge), and so does one whose name still
appears anywhere else in the text (a string annotation, `__all__`, a comment), so nothing
that might be a use is ever removed. A shape this module does not rewrite with certainty
(a comment or a continuation inside the import, a statement sharing its line) is left as it is.
"""

from __future__ import annotations

import ast
import re

DROPPED_BY_FIXES = frozenset({"Optional", "Union"})
"""What the marker fixes delete from annotations."""

_TYPING = frozenset({"typing", "typing_extensions"})


def without_newly_unused(before: str, after: str) -> str:
    """`after` without the typing imports it no longer uses but `before` did."""
    for _ in range(len(DROPPED_BY_FIXES)):
        try:
            tree = ast.parse(after)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return after
        for statement, alias in _typing_aliases(tree):
            bound = alias.asname or alias.name
            if _uses(before, bound) and not _uses(after, bound):
                edited = _removed(after, statement, alias)
                if edited is not None:
                    after = edited
                    break  # positions moved: parse again for the next name
        else:
            return after
    return after


def _typing_aliases(tree: ast.Module) -> list[tuple[ast.ImportFrom, ast.alias]]:
    return [
        (statement, alias)
        for statement in tree.body
        if isinstance(statement, ast.ImportFrom) and statement.module in _TYPING and statement.level == 0
        for alias in statement.names
        if alias.name in DROPPED_BY_FIXES
    ]


def _uses(text: str, name: str) -> int:
    """How often `name` appears as a word, the one in its own import aside."""
    return max(0, len(re.findall(rf"(?<![\w.]){re.escape(name)}\b", text)) - 1)


def _removed(text: str, statement: ast.ImportFrom, alias: ast.alias) -> str | None:
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, column: int) -> int:  # ast columns are UTF-8 byte offsets
        return starts[line - 1] + len(lines[line - 1].encode()[:column].decode(errors="replace"))

    first = offset(statement.lineno, statement.col_offset)
    last = offset(statement.end_lineno or 0, statement.end_col_offset or 0)
    if "#" in text[first:last] or "\\" in text[first:last]:
        return None
    if len(statement.names) == 1:
        line_start, line_end = starts[statement.lineno - 1], starts[statement.end_lineno or 0]
        if text[line_start:first].strip() or text[last:line_end].strip():
            return None  # `import x; from typing import Optional` shares its line
        return text[:line_start] + text[line_end:]
    names = statement.names
    i = names.index(alias)
    spans = [
        (offset(a.lineno, a.col_offset), offset(a.end_lineno or 0, a.end_col_offset or 0)) for a in names
    ]
    if i + 1 < len(names):
        return text[: spans[i][0]] + text[spans[i + 1][0] :]  # the name, its comma, the space after
    return text[: spans[i - 1][1]] + text[spans[i][1] :]  # the comma before it, the name
