"""Parses one build of a run lends the next (`Project.load_path`, `source.parse`).

A large run is built slice by slice (`lint_rules.incremental`), and each slice's trees go
with its graph, which bounds the run's memory. A module that files of several slices import
was parsed again in each of them: on 1,000 flat generated modules (`benchmarks/gen_shapes.py`)
five slices made 1,529 parses of 1,009 modules, a third of the run's parsing. So the modules
an import led to are kept here, up to a budget of source characters (a tree takes 50 to 65
times its text), and a later build that reads the same text takes the kept tree instead of
parsing it again. The same text gives the same tree, so no verdict can tell the difference;
what the analysis stores on a tree is derived from the tree alone
(`lint_rules._source.walk_body`), and the kept trees make no reference cycle.

A worker holds each build it made while its memory allows (`lint_rules.parallel.hold`): the
trees of that build, given files included, are lent to its next builds until it lets them
go (`hold`, `release`): a resolver module checked in one slice is imported by files of the
next one, and keeping those trees costs no memory the held build does not take already
(`benchmarks/README.md`, "A worker lends the trees of the build it holds").

The first build takes the trees the run parsed before it too: `lint deps.py` finds the
importers that spell what `deps.py` defines by parsing them (`carriers.reaching`), and those
are most of the files the build then checks (`SpellingSearch.parse`, `Discovered.parses`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from .records import record
from .source import ParsedModule, future_annotations

BUDGET = 4 * 1024 * 1024
"""Characters of source whose trees a run keeps for later builds. At 1 MiB a run of 4,000
modules parsed a third of its modules twice or more (`dense`: 5,232 parses of 3,850 modules);
at 4 MiB, 4,000 parses. Where a coupling group's build is the run's largest (`dense`,
`helpers`, `mixed`), the kept trees are modules that build held anyway, and the peak is
unchanged; in a tree of free files (`flat` 4,000) the peak went from 261 to 402 MB, against
the whole tree's 1.2 GB of trees."""


@record
class _Parse:
    """A kept parse: the text it was made from (a later build takes it only for the same text)."""

    text: str
    tree: ast.Module
    type_params: frozenset[str]
    future_annotations: bool


class LentParses:
    """The trees of imported modules, kept for the run's next builds, first come first kept."""

    __slots__ = ("_held", "_kept", "_room")

    def __init__(self, budget: int = BUDGET) -> None:
        self._kept: dict[Path, _Parse] = {}
        self._room = budget
        self._held: dict[Path, _Parse] = {}

    def lend(self, module: ParsedModule) -> bool:
        """Give `module` (its text read) the tree kept for the same text; False when there is none."""
        kept = self._kept.get(module.path) or self._held.get(module.path)
        if kept is None or kept.text != module.text:
            return False
        module.tree = kept.tree
        module.type_params = kept.type_params
        module.future_annotations = kept.future_annotations
        return True

    def keep(self, module: ParsedModule) -> None:
        """Keep `module`'s parse for later builds, while the budget has room for its text."""
        text, tree = module.text, module.tree
        if text is not None and tree is not None and self._room_for(module.path, text):
            self._kept[module.path] = _Parse(text, tree, module.type_params, module.future_annotations)

    def hold(self, modules: Iterable[ParsedModule]) -> None:
        """Lend the parses of `modules` (a build something else keeps alive) to later builds,
        whatever the budget, until `release`."""
        for module in modules:
            text, tree = module.text, module.tree
            if text is not None and tree is not None and module.path not in self._kept:
                self._held[module.path] = _Parse(text, tree, module.type_params, module.future_annotations)

    def release(self) -> None:
        """Stop lending what `hold` lent: the build it came from is being freed."""
        self._held.clear()

    def keep_parse(self, path: Path, text: str, tree: ast.Module, type_params: frozenset[str]) -> None:
        """Keep a parse made before the run's first build (`source.tree_of` of `text`, read
        from `path`): finding the files a run checks parses some of them
        (`SpellingSearch.parse`), and the build would parse them again."""
        if self._room_for(path, text):
            self._kept[path] = _Parse(text, tree, type_params, future_annotations(tree))

    def _room_for(self, path: Path, text: str) -> bool:
        """Whether a parse of `text` from `path` is kept: none is yet, and the budget has room
        for it (then taken)."""
        if path in self._kept or len(text) > self._room:
            return False
        self._room -= len(text)
        return True
