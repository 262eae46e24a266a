"""A lint run that re-checks only the files an edit can have changed.

Each given file keeps its record (`per_file.FileRecord`) between runs, with the state of
everything its analysis could depend on: itself and its closure over the imports the run
followed (`Project.edges`), each as the content hash of the very bytes that were parsed
(`Project.digests`: never hashed again after parsing, so an edit during a run shows next
time), and every import lookup those modules made (`Project.probes`: a module that was
missing, or a `deps/__init__.py` added beside `deps.py`, changes which file an import
means). A file is re-checked when one of those states changed;
the others keep their records, and `per_file.combine` unions all records. What makes a
record depend on more than its closure forces a wider run instead of a wrong answer:

- another file now owns (or no longer owns) a resolver it reported on: re-check it too;
- a `register(server: MCPServer)` function (a coupled record): its tools land on servers
  named by callers elsewhere, so it is re-checked with its callers whenever one of them is
  (`invalidation`);
- files added, removed or renamed (module names and import targets may move): every file.

A file's hash is read again only when its `os.stat` changed: the state keeps each file's
size, mtime, ctime, inode and device beside its hash (`State.stats`), as git's index does,
so a warm run stats its files instead of reading them. A file changed within `RACY_NS` of a
run is never vouched for by its stat (a same-tick edit would keep it): it is hashed next time.

The state is one JSON file per configuration (options and list of paths) under the cache
folder, replaced atomically (a concurrent run sees the old or the new one, never half), and
ignored when unreadable. A run on a list of paths with no state of its own takes up the
records that hold for it from the states of other lists with the same options (`adoption`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..resolver_core.discovery import SourceFile, signature
from ..resolver_core.file_states import Hashes
from ..resolver_core.model import Graph, SourceInfo
from ..resolver_core.records import slotted
from ..resolver_core.unclassified import Classified
from . import coupling, invalidation, per_file, record_states, slice_plan
from .coupling import confirmed
from .lint_state import State
from .per_file import FileRecord
from .unclassified_records import needs_classified

if TYPE_CHECKING:
    from .base import Rule


@slotted
class Outcome:
    """A run's diagnostics before suppressions, and what to render them with."""

    state: State
    graph: Graph
    """The graph of the files checked in this run (all of them when nothing was kept)."""
    origins: list[str]
    """The given files analysed (the rest kept their records)."""
    hashes: Hashes
    """The dependency states this run compared; `Hashes.stats` gives the state's `stats`."""

    @property
    def checked(self) -> int:
        """How many given files were analysed."""
        return len(self.origins)


@slotted
class Checked:
    """The records of the files one build checked, and what the state keeps of them."""

    records: dict[str, FileRecord]
    deps: dict[str, list[str]]
    hashes: dict[str, str | None]
    """The content hash of every file in `deps` (computed where the file was read)."""
    directives: set[str]
    graph: Graph | None
    """None when workers checked the files (their graphs stay in the workers)."""
    imports: dict[str, list[str]] = field(default_factory=dict)
    """A slice's `Graph.imports` (the imports its build followed, for `coupling.confirmed`)."""
    strays: set[str] = field(default_factory=set)
    """Given files outside this build's `origins` (in a run cut in slices, those another slice
    checks: `among`) that it found registering through a parameter
    (`Graph.coupled`): their own build, without this one's files, did not see
    it, so their records are not a whole build's. A file the run does not check keeps its
    record: the edit did not reach it (`invalidation.widened`)."""
    whole: bool = False
    """`graph` is a build of every given file: any of them is recorded from it as from its
    own whole build (`analyse`: the files a second round reaches)."""
    withheld: dict[str, list[str]] = field(default_factory=dict)
    """Per origin, the files of its closure this build did not follow a server into
    (`confined.Confined.withheld`: another slice checks them). Their own closures are added
    to its dependencies once the run is united (`record_states.through_withheld`)."""


Build = Callable[[set[Path] | None, bool, frozenset[Path], Classified, bool], Graph]
"""`build(only, report_progress, withheld, classified, piece)`: the graph of the given files in
`only` (None: all), following no server into the files `withheld` (`confined.Confined.withheld`),
classifying the tools `classified` says (`resolver_core/unclassified.py`): those of the files
recorded, but a companion's checked for its registrations where that is all it can change;
`piece`: the files are a piece of a coupling group (`confined.Confined.in_functions`)."""


def check_files(
    origins: Sequence[str],
    path_of: Mapping[str, Path],
    build: Build,
    rules: Sequence[type[Rule]],
    hashes: Hashes,
    in_worker: bool = False,
    whole: bool = False,
    quiet: bool = False,
    remember: bool = True,
    extras: Sequence[str] = (),
    among: Sequence[str] = (),
    companions: Collection[str] = (),
    loose: Collection[str] = (),
    piece: bool = False,
) -> Checked:
    """Build the graph of `origins` only (of all given files when that is all, or `whole`) and
    record each. `in_worker`: no graph is returned (it stays in the worker); `quiet` (and
    `in_worker`): the build reports no progress (the caller does, per slice). `extras`: given
    files built beside `origins` and not recorded (`coupling.extras`). `among`: the files
    checked in this run's other slices, each with every file that may hand it a server: no
    server is followed into them (`confined.Confined.withheld`). `companions`: the files
    checked only for what they find in the others, `loose` those of them importing none of
    the others (`resolver_core/unclassified.py`: some of their tools are left unclassified).
    `piece`: `origins` are a piece of a coupling group (`coupling.Piece.cut`). `remember=False`:
    no state is kept (`lint --no-cache`), so no dependency is listed nor its state looked up.

    The language server calls it for the files an edit can change, with its own project
    (parsed once) and hashes (of the unsaved texts)."""
    if in_worker:
        from . import parallel

        parallel.make_room()
    only = None if whole or len(origins) == len(path_of) else {path_of[o] for o in [*origins, *extras]}
    withheld = frozenset(path_of[o] for o in among).difference(only) if only is not None else frozenset()
    # The tools of the files not recorded here are never read (`resolver_core/unclassified.py`).
    recorded = frozenset(path_of if only is None else origins)
    classified = Classified(recorded, recorded.intersection(companions), frozenset(loose))
    graph = build(only, not (in_worker or quiet), withheld, classified, piece)
    checked = _recorded(graph, origins, path_of, rules, hashes, in_worker, remember, extras)
    checked.whole = only is None and not in_worker
    if withheld and remember and graph.evaluator is not None:
        checked.withheld = record_states.withheld_in(checked.deps, graph.evaluator.names.project.withheld)
    if among:  # a file no slice of the run checks keeps its record (`invalidation.widened`)
        checked.strays &= set(among)
    if in_worker:
        from . import parallel

        # Freed, if ever, after the answer is sent (`parallel.make_room`); its trees are lent
        # to this worker's next builds meanwhile.
        project = graph.evaluator.names.project if graph.evaluator is not None else None
        lent = project.lent if project is not None else None
        if project is not None and lent is not None:
            lent.hold(project.modules)
        parallel.hold(graph, lent.release if lent is not None else None)
    return checked


def _recorded(
    graph: Graph,
    origins: Sequence[str],
    path_of: Mapping[str, Path],
    rules: Sequence[type[Rule]],
    hashes: Hashes,
    in_worker: bool,
    remember: bool,
    extras: Sequence[str] = (),
) -> Checked:
    """The records of `origins` in `graph`, and what the state keeps of them (`extras`: files
    it built for them, which it does not record)."""
    records = per_file.records(graph, origins, rules)
    deps = {o: record_states.dependencies(path_of[o], graph) for o in origins} if remember else {}
    limited = graph.evaluator.names.project.limited if graph.evaluator is not None and remember else {}
    for origin in (o for o in origins if path_of[o] in limited):
        asked = {str(path): inside for path, inside in limited[path_of[origin]].items()}
        records[origin] = replace(records[origin], limited=asked)
    # As read: a file edited after it was parsed keeps the hash of what was judged.
    seen = {
        p: graph.digests[p] if p in graph.digests else hashes[p] for paths in deps.values() for p in paths
    }
    directives = {o for o in origins if _has_directive(graph.sources.get(o))}
    strays = {o for o in graph.coupled if o in path_of} - set(origins) - set(extras)
    if in_worker:
        return Checked(records, deps, seen, directives, None, _followed(graph), strays)
    return Checked(records, deps, seen, directives, graph, strays=strays)


def analyse(
    files: Sequence[SourceFile],
    rules: Sequence[type[Rule]],
    build: Build,
    previous: State | None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    remember: bool = True,
    read: Callable[[Path], bytes | None] | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> Outcome:
    """Re-check the files that need it (all without `previous`) and keep the other records.

    `remember=False`: the state will not be kept (no cache), so it holds no dependency
    states and none is computed (the build need not hash what it reads either). `read`: how
    the plan reads the files it samples (`slice_plan.parsing_work`), by default from disk;
    `GivenFiles.read_ahead` keeps them for the build, which then reads them no second time.
    `meanwhile`: what this process may do while workers check the last slices and a core is
    free (`parallel.Workers.map`).

    A companion's tools are left unclassified where nothing they find can be located in a given
    file (`resolver_core/unclassified.py`). When the report could still read what they run
    (`unclassified_records.needs_classified`: a finding about a shared resolver, which the first file
    running it reports), the companions' records left so are checked again, classified, the
    others kept, as after an edit of those files alone."""
    companions = {f.display for f in files if f.companion}
    loose = {f.display for f in files if f.unclassified}
    loosely = (companions, loose)
    outcome = _analysed(files, rules, build, previous, jobs, progress, remember, loosely, read, meanwhile)
    order = [f.display for f in files]
    records = outcome.state.records
    if not companions or not needs_classified(order, records, set(order) - companions):
        return outcome
    state = outcome.state
    state.stats = outcome.hashes.stats(state.hashes)
    first = set(outcome.origins)
    for display in [o for o in order if records[o].unclassified]:
        del state.records[display]
        state.deps.pop(display, None)
    state.result = None
    again = _analysed(files, rules, build, state, jobs, progress, remember, (set(), set()), read, meanwhile)
    again.origins = [o for o in order if o in first or o in again.origins]
    return again


def _analysed(
    files: Sequence[SourceFile],
    rules: Sequence[type[Rule]],
    build: Build,
    previous: State | None,
    jobs: int,
    progress: Callable[[int, int], None] | None,
    remember: bool,
    loosely: tuple[Collection[str], Collection[str]],
    read: Callable[[Path], bytes | None] | None,
    meanwhile: Callable[[], object] | None,
) -> Outcome:
    """`analyse`, `loosely` giving `check_files`' `companions` and `loose` (none: every tool
    of a record classified)."""
    order = [f.display for f in files]
    path_of = {f.display: f.path.absolute() for f in files}
    display_of = record_states.displays(files)
    old = previous or State()
    hashes = Hashes(previous=previous)
    dirty = invalidation.widened(
        record_states.dirty(files, previous, hashes), old.records, old.deps, display_of
    )
    # Files whose own text may differ from the one their kept record judged (`reached`).
    edited = {
        o
        for o in dirty
        if o not in old.records or hashes[str(path_of[o])] != old.hashes.get(str(path_of[o]), "")
    }
    explicit = {f.display for f in files if f.explicit}

    helpers: dict[str, set[str]] = {}
    beside: dict[tuple[str, ...], list[str]] = {}
    """The callers each piece of a coupling group builds beside its files (`coupling.pieces`)."""

    def check(
        chunk: Sequence[str], among: Sequence[str] = (), extras: Sequence[str] | None = None, **how: bool
    ) -> Checked:
        if extras is None:
            extras = [] if how.get("whole") else extras_of(chunk)
        return check_files(
            chunk,
            path_of,
            build,
            rules,
            hashes,
            remember=remember,
            extras=extras,
            among=among,
            companions=loosely[0],
            loose=loosely[1],
            **how,
        )

    def extras_of(chunk: Sequence[str]) -> list[str]:
        return [*beside.get(tuple(chunk), ()), *coupling.extras(chunk, helpers)]

    def run(origins: Sequence[str]) -> Checked:
        if not origins:
            # Every record stands: no graph to build, so no analyzer to import (a warm
            # `lint FILE` whose report memo missed is then mostly start-up). As after workers,
            # the run's graph is an empty one, which `_read_sources` fills as needed.
            return Checked({}, {}, {}, set(), None)
        # Files' worth of parsing (`parsing_work`, judged on a sample of a large run's files):
        # whether workers pay, and how many slices the parsed trees need.
        large = len(origins) >= slice_plan.MIN_FILES_PER_JOB * 2
        work = slice_plan.parsing_work(origins, path_of, explicit, read) if large else float(len(origins))
        workers = jobs > 1 and large and work >= slice_plan.MIN_FILES_PER_JOB * 2
        slices = slice_plan.slices(origins, path_of, work / len(origins))
        if not workers and slices == 1:
            return check(origins)
        from . import parallel  # only large runs fork workers

        if workers and parallel.available():
            checked = in_workers(origins)
        else:
            plan = slice_plan.plan(origins, path_of, 1)
            if plan is None:
                # Coupled files no grouping holds (a registration of what a loop yields, one
                # group of nearly every file) are checked over one build of every file.
                return check(origins, whole=True)
            checked = _in_slices(planned(plan), functools.partial(check, among=origins), progress)
        if checked.whole:
            return checked
        checked = _recoupled(checked, check, pieces, path_of)
        record_states.through_withheld(checked.deps, checked.withheld, old.deps, display_of)
        return checked

    pieces: list[coupling.Piece] = []

    def planned(plan: tuple[list[coupling.Piece], list[list[str]], dict[str, set[str]]]) -> list[list[str]]:
        """The plan's slices, its pieces and helpers kept for `extras_of` and `_recoupled`."""
        groups, cut, found = plan
        pieces[:] = groups
        helpers.update(found)
        beside.update((tuple(g.origins), g.extras) for g in groups if g.extras)
        return cut

    def in_workers(origins: Sequence[str]) -> Checked:
        """The slices checked by workers forked before the plan is made: they load the
        analyzer and scan the files' imports for it (`coupling.ImportedFiles`) meanwhile, and
        are sent each slice with the files built beside it. A plan that holds no grouping is
        one build of every file, here."""
        from . import parallel

        imported = coupling.ImportedFiles({o: path_of[o] for o in origins})
        tasks = {
            "scan": imported.of_each,
            "check": lambda item: check(item[0], origins, item[1], in_worker=True, piece=bool(item[2])),
        }
        with parallel.Workers(jobs, tasks, start=_load_analyzer) as pool:

            def scan(files: Sequence[str]) -> dict[str, list[str]]:
                parts = pool.map("scan", parallel.chunks(files, jobs))
                return {origin: found for part in parts for origin, found in part.items()}

            plan = slice_plan.plan(origins, path_of, jobs, scan)
            if plan is not None:
                chunks = planned(plan)
                cut = {tuple(p.origins) for p in pieces if p.cut}
                items = [(chunk, extras_of(chunk), tuple(chunk) in cut) for chunk in chunks]
                answers = pool.map("check", items, progress, lambda item: len(item[0]), meanwhile)
                return _united(answers, None)
        return check(origins, whole=True)

    def again(todo: set[str], last: Checked | None) -> Checked:
        if last is not None:  # a second round: `todo` holds what the last one reached
            added = [o for o in order if o in todo and o not in last.records]
            taken = _taken_from_whole(last, added, path_of, rules, hashes, remember)
            if taken is not None:
                return taken
        return run([o for o in order if o in todo])

    # Callers the state did not know of (`invalidation.reached`) are checked with the others.
    checked, dirty = invalidation.check_reached(dirty, again, old.records, old.deps, display_of, edited)
    origins = [o for o in order if o in dirty]
    deps = {o: checked.deps.get(o) or old.deps[o] for o in order} if remember else {}
    known = record_states.merged(hashes, checked.hashes)
    kept = set(order) - set(origins)
    state = State(
        signature(files),
        records={o: checked.records.get(o) or old.records[o] for o in order},
        deps=deps,
        hashes={p: known[p] for paths in deps.values() for p in paths} if remember else {},
        directives=[o for o in order if o in checked.directives or (o in kept and o in old.directives)],
    )
    state.fixes = old.fixes  # keyed by file content: still right for every file not edited
    if not origins and old.result is not None:
        state.result = old.result
    return Outcome(state, checked.graph or Graph(), origins, hashes)


Check = Callable[..., Checked]
"""`check_files` of one run, bound to everything but the files and its keyword options."""


def _load_analyzer() -> None:
    """What a worker loads while the run plans its slices (every slice's build needs it)."""
    from ..resolver_core import builder  # noqa: F401


def _in_slices(
    slices: Sequence[Sequence[str]], check: Check, progress: Callable[[int, int], None] | None
) -> Checked:
    """`check_files` over the slices of the files (`slice_plan.plan`) in this process, one build at a time.

    Only the texts of each slice's graph are kept (renderers, suppressions and fixes read
    them), with the imports its build followed (for `_recoupled`, as the workers send them):
    its trees, symbols and model go before the next slice is parsed.
    """
    origins = [o for chunk in slices for o in chunk]
    sources: dict[str, SourceInfo] = {}
    parts: list[Checked] = []
    done = 0
    for chunk in slices:
        part = check(chunk, quiet=True)
        assert part.graph is not None
        for path, info in part.graph.sources.items():
            sources.setdefault(path, info)
        part.imports = _followed(part.graph)
        part.graph = None
        parts.append(part)
        done += len(chunk)
        if progress is not None:
            progress(done, len(origins))
    return _united(parts, Graph(sources=sources))


def _united(parts: Sequence[Checked], graph: Graph | None) -> Checked:
    imports: dict[str, list[str]] = {}
    for part in parts:
        for near, targets in part.imports.items():
            imports.setdefault(near, []).extend(targets)
    return Checked(
        {o: r for p in parts for o, r in p.records.items()},
        {o: d for p in parts for o, d in p.deps.items()},
        {path: h for p in parts for path, h in p.hashes.items()},
        {o for p in parts for o in p.directives},
        graph,
        imports,
        {o for p in parts for o in p.strays},
        withheld={o: w for p in parts for o, w in p.withheld.items()},
    )


def _taken_from_whole(
    checked: Checked,
    more: Sequence[str],
    path_of: Mapping[str, Path],
    rules: Sequence[type[Rule]],
    hashes: Hashes,
    remember: bool,
) -> Checked | None:
    """`checked` with the records of `more` taken from its graph, when that is a build of every
    given file (coupled files are checked over one): building it again would find the same
    records. None otherwise."""
    if not checked.whole or checked.graph is None:
        return None
    extra = _recorded(checked.graph, more, path_of, rules, hashes, False, remember)
    out = _united([checked, extra], checked.graph)
    out.whole = True
    return out


def _recoupled(
    checked: Checked, check: Check, groups: Sequence[coupling.Piece], path_of: Mapping[str, Path]
) -> Checked:
    """The workers' coupled records (`register(server)` functions, registrations inside
    functions) as one build of every given file finds them: which servers they register on
    depends on their callers. Kept when each was checked in its coupling group and the
    imports the builds followed confirm the group (`coupling.confirmed`); otherwise checked
    again over one build of every given file."""
    coupled = [o for o, r in checked.records.items() if r.coupled]
    edges, checked.imports = checked.imports, {}
    if not checked.strays and (not coupled or confirmed(groups, coupled, path_of, edges)):
        return checked
    again_for = checked.strays.union(coupled)
    coupled = [o for o in path_of if o in again_for]
    again = check(coupled, whole=True)
    checked.records.update(again.records)
    checked.deps.update(again.deps)
    for origin in coupled:  # built over every file: nothing withheld
        checked.withheld.pop(origin, None)
    checked.hashes.update(again.hashes)
    checked.directives = (checked.directives - set(coupled)) | again.directives
    checked.graph = again.graph
    return checked


def _followed(graph: Graph) -> dict[str, list[str]]:
    """`Graph.imports` as strings (a path pickles as its parts, several times slower)."""
    return {str(near): [str(p) for p in targets] for near, targets in graph.imports.items()}


def _has_directive(info: SourceInfo | None) -> bool:
    return info is not None and info.text is not None and "mcpdeps:" in info.text
