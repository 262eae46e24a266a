"""Which helper modules an entry point calls before a given one, read before anything is built.

`lint app/a.py` alone checks the helpers whose registrations may come before a.py's: those
shown before it, and (`companions._before_last`) those an entry point calls first. When
`app/main.py` calls `b.register(mcp)` and then `a.register(mcp)`, b's tools run first
(`call_order.py`), so `app/b.py` must be read for the duplicate name to be located in
`app/a.py`, as `lint .` locates it. The callers are the files importing both; each is
parsed once and its calls are mapped to the modules they reach through its imports (`b`
of `from app import b`, `register_b` of `from app.b import register as register_b`). A
call of a later module somewhere before the last call of a given one is enough: reading a
helper too many costs time, never a verdict.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Mapping


class CalledFirst:
    """For the given helper files (`given`), the later helpers their callers call first."""

    def __init__(
        self,
        given: Collection[str],
        imported_by: Mapping[str, set[str]],
        names: Mapping[str, tuple[str, bool]],
        text: Callable[[str], str | None],
    ) -> None:
        self.given, self.imported_by, self.names, self.text = given, imported_by, names, text
        self._calls: dict[str, tuple[dict[str, int], int | None] | None] = {}
        """Per caller, read once (`_read`): the first line calling into each module or name
        its calls reach (`app.b` and `app.b.register` of `app.b.register(mcp)`), and the last
        line calling into a given file's module (None: none); None for a caller importing no
        given file, never parsed. `before` is asked for every helper an entry point imports
        (two hundred of them): each asks the same callers."""

    def before(self, later: str) -> bool:
        """Whether a file importing `later` and a given file calls into `later` before its last
        call into a given file."""
        module = self.names.get(later, ("", False))[0]
        if not module:
            return False
        for caller in self.imported_by.get(later, ()):
            read = self._read(caller)
            if read is not None and read[1] is not None:
                first = read[0].get(module)
                if first is not None and first < read[1]:
                    return True
        return False

    def _read(self, caller: str) -> tuple[dict[str, int], int | None] | None:
        """`caller`'s calls (`_calls`), parsed once; None for a file importing no given file
        (not parsed: it calls none of them)."""
        if caller in self._calls:
            return self._calls[caller]
        givens = [
            self.names[g][0] for g in self.given if caller in self.imported_by.get(g, ()) and g in self.names
        ]
        known = None
        if givens:
            calls = _calls(self.text(caller) or "", *self.names.get(caller, ("", False)))
            firsts: dict[str, int] = {}
            for line, name in calls:  # in line order: the first line of each prefix is kept
                for prefix in _prefixes(name):
                    firsts.setdefault(prefix, line)
            last = max((line for line, name in calls if any(_within(name, g) for g in givens)), default=None)
            known = (firsts, last)
        self._calls[caller] = known
        return known


def _prefixes(dotted: str) -> list[str]:
    """Every module `dotted` is `_within`: `a`, `a.b`, `a.b.c` of `a.b.c`."""
    parts = dotted.split(".")
    return [".".join(parts[: n + 1]) for n in range(len(parts))]


def _within(dotted: str, module: str) -> bool:
    return dotted == module or dotted.startswith(f"{module}.")


def _calls(text: str, name: str, is_package: bool) -> list[tuple[int, str]]:
    """Each call of `text` whose function is a name its imports bind, as the dotted name it
    reaches (`app.b.register`), with its line."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    package = name if is_package else name.rpartition(".")[0]
    local: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                local[alias.asname or alias.name.partition(".")[0]] = (
                    alias.name if alias.asname else alias.name.partition(".")[0]
                )
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            origin = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                local[alias.asname or alias.name] = f"{origin}.{alias.name}" if origin else alias.name
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            parts, func = [], node.func
            while isinstance(func, ast.Attribute):
                parts.append(func.attr)
                func = func.value
            if isinstance(func, ast.Name) and func.id in local:
                out.append((node.lineno, ".".join([local[func.id], *reversed(parts)])))
    return sorted(out)
