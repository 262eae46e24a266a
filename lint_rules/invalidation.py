"""Which kept records an edit reaches beyond the files whose closure changed.

A record depends on its file's import closure (`lint_rules.incremental`), except a coupled
one (`FileRecord.coupled`): a `register(server)` function, or a `def tool(fn)` helper, lands
its tools on whatever its callers pass, and its callers are elsewhere. A caller can only
name the function through the imports the builder follows (directly, through a package's
`__init__`, a helper passing the server on, a loop over imported modules, a method of an
imported class): the function's file is in the caller's closure, which the state keeps
(`State.deps`). So a coupled record is checked again when a file whose closure holds it is
checked again (a caller edited, added to or removed from it, or anything it imports
changed), and not when an unrelated file changed.

What the state cannot know is a caller that is new: a file edited to import and call a
helper it did not use before. After the files are checked, their new closures are compared
with the records kept (`reached`): a coupled record a checked file now reaches, every file a
coupled checked file reaches, and every file it reaches that may register inside a function
(a `def tool(fn)` helper is coupled only once something applies it, and a build of the
applying file alone does not scan the helper) is checked too. Files added, removed or renamed still re-check everything
(`incremental._dirty`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import Protocol, TypeVar

from .coupling import ImportedFiles
from .per_file import FileRecord


class Checked(Protocol):
    """The records a check made, and the closures it followed (`incremental.Checked`)."""

    @property
    def records(self) -> Mapping[str, FileRecord]: ...

    @property
    def deps(self) -> Mapping[str, Collection[str]]: ...


C = TypeVar("C", bound=Checked)


def check_reached(
    todo: Collection[str],
    check: Callable[[set[str], C | None], C],
    kept: Mapping[str, FileRecord],
    kept_deps: Mapping[str, Collection[str]],
    display_of: Mapping[str, str],
    edited: Collection[str],
) -> tuple[C, set[str]]:
    """Check `todo`, then check it again with the files the records just made reach
    (`reached`), until they reach none: a caller the kept records did not know of is judged
    in one build with what it calls, as a build of every file judges them. `lint` and the
    language server (`cli/lsp/workspace.py`) both check through here, so that an edit
    reaches the same files in both.

    `check(files, last)` checks `files` (`last`: the previous round's check, None the first
    time; `files` then holds its files and those it reached). Returns the last check and the
    files it checked.

    A second round that would check half of the files or more checks them all: each round is
    one build of all its files, and on coupled projects the rounds go on to reach the rest
    (pre-commit on a tool module of a 1,000-module project built 98, 107, then all 123 files
    of its run). A record is the same whichever files are checked with it. So is a first
    round of half of the files or more when one of them has no record kept (taken up from no
    other list's state: `adoption`): its whole closure is new to `reached`, which then finds
    the kept records it holds, and the second round built every file again (pre-commit on a
    resolver module after `lint .`: 115 of 139 files, then all 139, twice a cold run's parses)."""
    files = set(todo)
    if 2 * len(files) >= len(display_of) and not files <= kept.keys():
        files |= set(display_of.values())
    checked = check(files, None)
    more = reached(checked.records, checked.deps, kept, kept_deps, display_of, edited)
    while more:
        files |= more
        if 2 * len(files) >= len(display_of):
            files |= set(display_of.values())
        checked = check(files, checked)
        more = reached(checked.records, checked.deps, kept, kept_deps, display_of, edited)
    return checked, files


def widened(
    dirty: Iterable[str],
    records: Mapping[str, FileRecord],
    deps: Mapping[str, Collection[str]],
    display_of: Mapping[str, str],
) -> set[str]:
    """`dirty`, and the kept records an edit of those files can change: each coupled record in
    a dirty file's closure, everything in a dirty coupled file's closure, and every caller of
    a coupled record checked again, or of one with no record kept (a build finds callers only
    among the files it checks).

    `deps`: each file's dependency keys as the state keeps them (absolute paths, then probes);
    `display_of`: the given files' displays by those paths."""
    out = set(dirty)
    for origin in list(out):
        whole = _coupled(records.get(origin))
        for key in deps.get(origin, ()):
            found = display_of.get(key)
            if found is not None and (whole or _coupled(records.get(found))):
                out.add(found)
    return out | _callers(_maybe_coupled(out, records), [deps], display_of)


def _maybe_coupled(files: Iterable[str], records: Mapping[str, FileRecord]) -> set[str]:
    """The coupled records among `files`, and those with no record kept (not taken up from
    another list's state, or not checked yet), which may be coupled too."""
    return {f for f in files if f not in records or _coupled(records.get(f))}


def reached(
    checked: Mapping[str, FileRecord],
    deps: Mapping[str, Collection[str]],
    kept: Mapping[str, FileRecord],
    kept_deps: Mapping[str, Collection[str]],
    display_of: Mapping[str, str],
    edited: Collection[str],
) -> set[str]:
    """The files not yet checked that the records just made (`checked`, with their new
    closures `deps`) reach: a coupled kept record in a checked file's closure, every file in a
    coupled checked file's closure, and every file in a checked file's closure that may
    register inside a function (a `def tool(fn)` helper: a build of the checked files alone
    does not scan it, so neither record knows yet that one applies the other); with the
    callers of each, in the closures kept (`kept_deps`) or just made.

    Only what is new in a closure counts, unless its file's own text was `edited`: a file
    checked again with an unchanged text (a caller of a helper, an importer of an edited
    module) applies and calls nothing it did not before. An edited file the prefilter turned
    away (it declares no server and passes none: `setup_fast()`) has no closure but itself,
    yet may now call a function registering on a module-level server, whose record has no
    caller to be coupled to: the files its text may import stand for its closure (built
    with one of them, it is parsed if it spells a function whose callers are wanted)."""
    out: set[str] = set()
    imported: _ImportedKeys | None = None
    for origin, record in checked.items():
        keys = deps.get(origin, ())
        if origin not in edited:
            before = set(kept_deps.get(origin, ()))
            keys = [key for key in keys if key not in before]
        elif _unparsed(origin, keys, display_of):
            imported = imported or _ImportedKeys(display_of)
            keys = [*keys, *imported.of(origin)]
        for key in keys:
            found = display_of.get(key)
            if found is None or found in checked or found in out:
                continue
            if record.coupled or _coupled(kept.get(found)) or _may_register_in_functions(key):
                out.add(found)
    coupled = out | {origin for origin, record in checked.items() if record.coupled}
    return (out | _callers(coupled, [kept_deps, deps], display_of)) - checked.keys()


def _callers(
    targets: Collection[str], closures: Iterable[Mapping[str, Collection[str]]], display_of: Mapping[str, str]
) -> set[str]:
    """The files whose closure (in any of `closures`) holds one of `targets` (by display), and
    the files no build parsed, which may call them all the same.

    A file the prefilter turns away is parsed only when it spells a function whose callers a
    build wants (`resolver_core.skipped_callers`), so its closure is known only while one
    does: `main.py` calling `wiring.install(api)` is parsed for `install` only while
    `install` passes its server to a helper. Such a file has no dependency but itself (a
    parsed one has at least the probes of its package markers): it is built with the
    coupled records, where it is parsed if it calls one.

    Only given files: a kept closure can be a file's the run no longer checks (`lint deps.py`
    after an edit of the `__init__` that made `main.py` one of its companions)."""
    if not targets:
        return set()
    paths = {path for path, display in display_of.items() if display in targets}
    given = set(display_of.values())
    return {
        origin
        for deps in closures
        for origin, keys in deps.items()
        if origin in given and (not paths.isdisjoint(keys) or _unparsed(origin, keys, display_of))
    }


def _unparsed(origin: str, keys: Collection[str], display_of: Mapping[str, str]) -> bool:
    """Whether no build parsed `origin`: its closure is itself (a parsed file has at least the
    probes of its package markers)."""
    return len(keys) == 1 and display_of.get(next(iter(keys))) == origin


class _ImportedKeys:
    """The dependency keys of the given files a file's text may import (`coupling.ImportedFiles`),
    made once for every unparsed file `reached` asks about."""

    def __init__(self, display_of: Mapping[str, str]) -> None:
        self._key_of = {display: key for key, display in display_of.items()}
        self._files = ImportedFiles({display: Path(key) for display, key in self._key_of.items()})

    def of(self, origin: str) -> list[str]:
        return [self._key_of[f] for f in sorted(self._files.of(origin))]


def _may_register_in_functions(path: str) -> bool:
    from ..resolver_core.prefilter import may_register_in_functions, might_contribute
    from ..resolver_core.source import regular_bytes

    data = regular_bytes(Path(path))
    return data is not None and may_register_in_functions(data) and might_contribute(data)


def _coupled(record: FileRecord | None) -> bool:
    return record is not None and record.coupled
