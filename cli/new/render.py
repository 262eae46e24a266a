"""Everything `new` shows on the terminal, through rich: diffs, file trees, diagnostics, notes."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text
from rich.tree import Tree

from ...resolver_core.lines import split_lines

_SEVERITY_COLOURS = {"error": "red", "warning": "yellow", "info": "blue"}


def out() -> Console:
    """The console for stdout, made when it is used: its width and colours are the terminal's
    and environment's of this run (one made at import would keep those of the first)."""
    return Console(highlight=False, soft_wrap=True)


def err() -> Console:
    """The console for stderr (as `out`)."""
    return Console(stderr=True, highlight=False, soft_wrap=True)


def diff_lines(path: str, old: str, new: str) -> list[str]:
    """A unified diff (3 lines of context), without the CR of CRLF files (shown as a note instead)."""
    return [
        line.rstrip("\r\n")
        for line in difflib.unified_diff(
            split_lines(old, keepends=True), split_lines(new, keepends=True), f"a/{path}", f"b/{path}"
        )
    ]


def show_diff(path: str, old: str, new: str) -> None:
    """Print the change as a coloured unified diff."""
    styles = {"+": "green", "-": "red", "@": "cyan"}
    for line in diff_lines(path, old, new):
        style = "bold" if line.startswith(("+++", "---")) else styles.get(line[:1], "")
        out().print(Text(line, style=style))
    if "\r\n" in old:
        out().print(Text("(CRLF line endings are kept)", style="dim"))


def show_tree(root: Path, files: Iterable[str]) -> None:
    """Print the files of a new project as a tree."""
    tree = Tree(Text(f"{root}/", style="bold"))
    folders: dict[str, Tree] = {"": tree}
    for rel in sorted(files, key=lambda f: (f.count("/"), f)):
        *parts, name = rel.split("/")
        node, key = tree, ""
        for part in parts:
            key = f"{key}/{part}" if key else part
            if key not in folders:
                folders[key] = node.add(Text(f"{part}/", style="bold"))
            node = folders[key]
        node.add(name)
    out().print(tree)


def show_diagnostics(diagnostics: Sequence[Any]) -> None:
    """Print lint diagnostics the way `mcpdeps lint` prints them: path:line:col: CODE message."""
    for d in diagnostics:
        colour = _SEVERITY_COLOURS.get(d.severity, "red")
        err().print(
            f"{escape(str(d.path))}:{d.line}:{d.column}: [bold {colour}]{d.code}[/] "
            f"[{colour}]{escape(d.name)}[/]: {escape(d.message)}"
        )


def note(message: str) -> None:
    """A one-line status message."""
    out().print(message)
