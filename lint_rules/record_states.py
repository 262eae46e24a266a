"""What a record depends on, and which records a run keeps: the states of a record's files.

A given file's record stands while every file its analysis read (its closure over the imports
the build followed) and every import lookup those made (`Project.probes`) are as they were:
`dependencies` lists them (as the state keeps them), `dirty` compares them with the state of
the last run, once per dependency, and `merged` is what the next state keeps of each.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ..resolver_core.cache import probe_key
from ..resolver_core.discovery import SourceFile, signature
from ..resolver_core.file_states import CHANGED, Hashes
from ..resolver_core.model import Graph
from .lint_state import State


def dirty(files: Sequence[SourceFile], previous: State | None, hashes: Hashes) -> set[str]:
    """The given files whose record cannot be kept (all of them without a usable state)."""
    everything = {f.display for f in files}
    if previous is None or previous.files != signature(files):
        return everything
    deps, records = previous.deps, previous.records
    kept = [f.display for f in files if f.display in records and f.display in deps]
    # Each dependency compared once, not once per file that has it (files share most of
    # theirs: 1,000 generated modules list 22,000 dependencies of 1,600 paths).
    shared: set[str] = set().union(*(deps[d] for d in kept))
    old = previous.hashes
    changed = {p for p in shared if hashes[p] != old.get(p, "")}
    return (everything - set(kept)) | {d for d in kept if not changed.isdisjoint(deps[d])}


def displays(files: Sequence[SourceFile]) -> dict[str, str]:
    """Each given file's display by the dependency key the state lists it under."""
    return {str(f.path.absolute()): f.display for f in files}


def merged(compared: Mapping[str, str | None], read: Mapping[str, str | None]) -> dict[str, str | None]:
    """Dependency states for the new state: what was read (parsed) where this run read it."""
    out = dict(read)
    for key, value in compared.items():
        if key in out and out[key] != value:
            out[key] = CHANGED  # edited between the comparison and the parse
        else:
            out.setdefault(key, value)
    return out


def dependencies(start: Path, graph: Graph) -> list[str]:
    """The dependency keys of a given file's record: its import closure and their probes."""
    closure = _closure(start, graph.imports)
    probes = {probe_key(base) for module in closure for base in graph.probes.get(module, ())}
    return [str(p) for p in closure] + sorted(probes)


def _closure(start: Path, edges: Mapping[Path, set[Path]]) -> list[Path]:
    """`start` and every module reachable from it over followed imports."""
    seen = {start}
    todo = [start]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return sorted(seen)


def withheld_in(
    deps: Mapping[str, Sequence[str]], withheld: Mapping[Path, set[Path]]
) -> dict[str, list[str]]:
    """Per origin, the files a module of its closure did not follow a server into."""
    by_caller = {str(caller): sorted(map(str, callees)) for caller, callees in withheld.items()}
    out: dict[str, list[str]] = {}
    for origin, keys in deps.items():
        found = {callee for key in keys if key in by_caller for callee in by_caller[key]}
        if found:
            out[origin] = sorted(found)
    return out


def through_withheld(
    deps: dict[str, list[str]],
    withheld: Mapping[str, Sequence[str]],
    kept: Mapping[str, Sequence[str]],
    display_of: Mapping[str, str],
) -> None:
    """Add to each record's dependencies the closures of the files its slice withheld
    (`withheld`: `withheld_in`), as this run (`deps`) or the last one (`kept`) recorded them.

    A build of every file follows a caller's server through the helpers it calls
    (`app/main.py` -> `group.register_all(mcp)` -> `feature.setup(mcp)`), so the caller's
    closure holds the helpers. A slice withholding `group` stops at it, and the caller's
    closure then lacked `feature`: the next run that built them together found `feature`
    new in it (`invalidation.reached`) and checked every coupled file a second time. With
    the withheld files' closures a record depends on what a whole build would have it depend
    on, or more (an edit re-checks more, never less): closures are the same however the run
    was cut."""
    before = {o: list(deps[o]) for o in withheld}
    for origin, found in withheld.items():
        mine = deps[origin]
        have = set(mine)
        for key in found:
            other = display_of.get(key)
            if other is None:
                continue
            more = before.get(other) or deps.get(other) or kept.get(other, ())
            mine.extend(k for k in more if k not in have)
            have.update(more)
