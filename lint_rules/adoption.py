"""Records kept by runs on other lists of paths, taken up by a run on a new list.

pre-commit passes the files a commit touches: a new list almost every time, and the state
is one per list (`lint_state.StateStore`), so each commit would start cold, companions
(`companions.importers`) included. A record does not depend on which other files are
checked with it, except through what a run's list decides about the files its analysis
reads: whether each is one of the run's files (its tools are then its own, not those of the
given file that handed it a server: `Tool.origin`), under which display, and whether it was
named (named files are parsed whatever the prefilter says). So a record is taken from
another state of the same options when its file and every file of its closure stand in both
lists alike; the dependency states come with it, and `incremental._dirty` then re-checks it
if any changed, as it would in its own state.

What else a list decides of a record is what its build asks of the file's limit, where its
servers are followed only so far (`resolver_core.confined`): a caller checked only for the
run's helpers, into the run's files; a companion, as far as its `Reach` (which depends on
the run's last given file, so two lists seldom share one). The build notes each question
and its answer (`FileRecord.limited`), and asks the limit nothing else: a record is taken
where this run's limit answers them alike (`_followed_alike`), a caller's of `lint deps.py`
by `lint deps.py other.py` (both answer `features/beta.py` "not a file of the run"). A
record followed everywhere (`lint .`'s) asked nothing: it is taken where the limit holds
every file its build read, as a limited build answering "within" to every question
proceeds as an unlimited one.

A record whose tools were not all classified (`FileRecord.unclassified`: a companion checked
for the registrations a given file's come after) holds what only its own list's report reads,
and is never taken up. (Taking it where the run would leave the same modules' tools
unclassified was tried: a coupled record kept beside it then went stale when its caller was
edited, and a duplicate tool name went unreported; `test_adoption_across_lists.py`.)

A file with no record taken is built again, with the registrars its closure held
(`_drop_registrars`): without them its build would not follow its imports to them.

A coupled record (`FileRecord.coupled`) also depends on its callers, which a build finds only
among the run's files, and on what they read (the server they hand it), which its own
dependencies do not list: it is taken only from a state whose files include every file of
this run, whose callers of it (the files whose closure holds it) are all in this run, and are
exactly the records taken whose closure holds it, each standing in the helper's state as in
the one its record comes from (`_drop_uncalled`: an edited caller re-checks them). And a
caller's closure holds a helper only when its build held the helper, so no record is taken
from a state whose list lacks a file of this run that may be coupled (`_drop_blind`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..resolver_core.cache import PROBE
from ..resolver_core.companions import companion_display
from ..resolver_core.discovery import SourceFile, signature
from .lint_state import State
from .per_file import FileRecord

_CONFLICT = "\0conflict"
"""The dependency state of a path two adopted records saw differently: never a real state, so
both are re-checked."""


def adopted(files: Sequence[SourceFile], states: Sequence[State], cwd: Path) -> State | None:
    """A state for `files` made of the records of `states` (most recent first) that hold for
    them; None when none does."""
    sig = signature(files)
    ours = {str(entry[1]): entry[:3] for entry in sig}
    limits = {str(entry[1]): _limits(entry) for entry in sig}
    bounds = _bounds(files)
    out = State(files=sig)
    sources: dict[str, State] = {}
    called_by: dict[str, list[str]] = {}
    for state in states:
        theirs = {str(entry[1]): entry[:3] for entry in state.files}
        their_limits = {str(entry[1]): _limits(entry) for entry in state.files}
        whole = ours.keys() <= theirs.keys()
        callers = _callers(state, theirs) if whole else {}
        for path, entry in ours.items():
            display = str(entry[0])
            record, deps = state.records.get(display), state.deps.get(display)
            if display in out.records or record is None or deps is None or path not in theirs:
                continue
            if not _followed_alike(record, deps, limits[path], their_limits[path], bounds.get(path)):
                continue
            if record.unclassified:  # its registrations only: no other list's record
                continue
            if not _same_file(path, entry, theirs[path]):
                continue
            if not all(
                _same_dependency(key, record, ours, theirs, state, cwd) for key in deps if key != path
            ):
                continue
            if record.coupled and not (whole and all(c in ours for c in callers.get(path, ()))):
                continue
            out.records[display], out.deps[display] = record, deps
            sources[display] = state
            if record.coupled:
                called_by[display] = [str(ours[c][0]) for c in callers.get(path, ())]
    _drop_blind(out, sources, ours)
    _drop_uncalled(out, sources, called_by, ours)
    while _drop_registrars(out, sources, ours, states):
        _drop_blind(out, sources, ours)
        _drop_uncalled(out, sources, called_by, ours)
    if not out.records:
        return None
    for display, deps in out.deps.items():
        state = sources[display]
        for key in deps:
            value = state.hashes.get(key, _CONFLICT)
            if out.hashes.setdefault(key, value) != value:
                out.hashes[key] = _CONFLICT
                out.stats.pop(key, None)
            elif key in state.stats and out.hashes[key] != _CONFLICT:
                out.stats[key] = state.stats[key]
        if display in state.directives:
            out.directives.append(display)
    for state in reversed(states):  # keyed by file content: any state's are right
        out.fixes.update(state.fixes)
    return out


def _drop_uncalled(
    out: State, sources: dict[str, State], called_by: dict[str, list[str]], ours: dict[str, list[object]]
) -> None:
    """Drop each coupled record whose callers in this run are not the ones its state knew, or
    stood otherwise there, until none is.

    A coupled record's tools land on what its callers hand it, so the record depends on its
    callers' texts and closures as much as on its own, yet lists only its own closure
    (`record_states.dependencies`): within one state, an edit of a caller re-checks the
    helpers its kept record's closure held (`invalidation.widened`). Across states, that holds
    only when this run's callers of the helper (the records taken whose closure holds it) are
    its state's callers, each taken (an edit of it re-checks the helper) and standing in the
    helper's state as in its own (`_stood_alike`). A caller edited to call a helper after the
    `lint .` the helper's record came from, its record taken from a run after the edit, left
    the helper registering on its parameter, and its duplicate tool name unreported (and one
    edited to stop calling it left the duplicate reported)."""
    path_of = {str(entry[0]): path for path, entry in ours.items()}
    dropped = True
    while dropped:
        dropped = False
        for display, known in called_by.items():
            if display not in out.records:
                continue
            state, path = sources[display], path_of[display]
            callers = {c for c, deps in out.deps.items() if c != display and path in deps}
            if callers != set(known) or not all(_stood_alike(state, sources[c], c) for c in callers):
                del out.records[display], out.deps[display], sources[display]
                dropped = True


def _stood_alike(state: State, other: State, display: str) -> bool:
    """Whether a caller (`display`) and everything its records in `state` and `other` read had
    the same contents when each state was written (`other`'s, the one its record is taken
    from, are checked against the files now)."""
    if state is other:
        return True
    keys = {*state.deps.get(display, ()), *other.deps.get(display, ())}
    return all(key in state.hashes and state.hashes[key] == other.hashes.get(key, _CONFLICT) for key in keys)


def _drop_blind(out: State, sources: dict[str, State], ours: dict[str, list[object]]) -> None:
    """Drop the records taken from a state whose list lacks a file this run checks that may
    be coupled (no record taken for it, or a coupled one), until none is left.

    A caller's closure holds a `register(server)` helper only when its build held the helper
    (`app/main.py` looping over `features.alpha` and `features.beta` is not followed into them
    when built alone), so a record from such a state does not list the helper among its
    dependencies, and `invalidation` would check the helper without that caller."""
    shown = {str(entry[0]): path for path, entry in ours.items()}
    while True:
        open_ = {
            path
            for display, path in shown.items()
            if display not in out.records or out.records[display].coupled
        }
        blind = [d for d, state in sources.items() if not open_ <= {str(e[1]) for e in state.files}]
        if not blind:
            return
        for display in blind:
            del out.records[display], out.deps[display], sources[display]


def _drop_registrars(
    out: State, sources: dict[str, State], ours: dict[str, list[object]], states: Sequence[State]
) -> bool:
    """Drop the records taken of the registrars a file this run checks again may apply: the
    files that may register what they are handed (`prefilter.may_register_handed`: `@h.expose`
    with `def expose(fn): mcp.add_tool(fn)` in `h.py`) among those its closure held in a state
    listing it (anywhere in the run when none does). True when one was dropped.

    A build of the applying file without its registrar neither scans the registrar nor follows
    the file's imports to it (a `def tool(fn)` helper is coupled only once something applies
    it: `invalidation`), so the file's record would not be the one `lint .` makes. Checked
    again, the registrar is built with it, and `invalidation.widened` adds its other callers."""
    shown = {str(entry[0]): path for path, entry in ours.items()}
    listed = [{(str(entry[0]), str(entry[1])) for entry in state.files} for state in states]
    near: set[str] = set()
    for display, path in shown.items():
        if display not in out.records:
            found = (
                s.deps.get(display)
                for s, files in zip(states, listed, strict=True)
                if (display, path) in files
            )
            near.update(next((deps for deps in found if deps is not None), shown.values()))
    dropped = [
        d for d, path in shown.items() if d in out.records and path in near and _registers_handed(path)
    ]
    for display in dropped:
        del out.records[display], out.deps[display], sources[display]
    return bool(dropped)


def _registers_handed(path: str) -> bool:
    from ..resolver_core.prefilter import may_register_handed
    from ..resolver_core.source import regular_bytes

    data = regular_bytes(Path(path))
    return data is None or may_register_handed(data)


def _limits(entry: list[object]) -> list[object]:
    """How far a file's servers were followed, from its signature entry: everywhere (`[]`),
    only into its run's files (a caller), or as far as its `Reach` (`resolver_core.confined`):
    a record is taken only where they were followed alike."""
    return [flag for flag in entry[3:] if flag == "caller" or str(flag).startswith("reach:")]


def _bounds(files: Sequence[SourceFile]) -> dict[str, frozenset[Path]]:
    """Each limited file's limit (by path), as `builder` sets it: a caller's servers are
    followed into the run's files, a companion's with a `Reach` as far as its paths."""
    run = frozenset(f.path.absolute() for f in files)
    out: dict[str, frozenset[Path]] = {}
    for f in files:
        if f.caller:
            out[str(f.path.absolute())] = run
        elif f.reach is not None:
            out[str(f.path.absolute())] = f.reach.paths
    return out


def _followed_alike(
    record: FileRecord,
    deps: Sequence[str],
    ours: list[object],
    theirs: list[object],
    limit: frozenset[Path] | None,
) -> bool:
    """Whether a record's file's servers were followed as this run follows them: as far (the
    same `Reach`, or everywhere in both), or, when the record's build followed them only so
    far (a caller's limit, the run's files, or a `Reach`: `confined`), answering every
    question that build asked of its limit (`FileRecord.limited`) as this run's limit does
    (`limit`; None: followed everywhere, which admits every file).

    A build asks its limits nothing else (`confined._within`), so a run whose limit answers
    alike makes the same record. A caller's limit is its run's files, and a `Reach` depends on
    the last file a run was given (`companions._reach`), so two lists seldom share either; a
    caller handing its server only to helpers both lists hold (or to none of either), or a
    companion applying a decorator of the run's files, asks nothing else of it. A record
    followed everywhere asked nothing (`lint .`'s): it is taken where this run limits the file
    only when every file its build read (`deps`: what it followed, the modules whose calls it
    resolved, and their imports) is within the limit. A limited build proceeds as the
    unlimited one while every question it asks is answered "within", and it asks only of the
    modules it would follow or resolve a call into, which the unlimited build read."""
    if ours == theirs and "caller" not in ours:
        return True
    if not theirs:
        return limit is not None and all(key.startswith(PROBE) or Path(key) in limit for key in deps)
    if not ours and "caller" in theirs:
        return False
    return all((limit is None or Path(p) in limit) == inside for p, inside in record.limited.items())


def _same_file(path: str, ours: list[object], theirs: list[object]) -> bool:
    """Whether a file's record judged it as this run will: under the same display, and parsed
    in both (a walked file the prefilter turns away is not parsed; a named one always is)."""
    if ours[0] != theirs[0]:
        return False
    if ours[2] == theirs[2]:
        return True
    from ..resolver_core.prefilter import might_contribute
    from ..resolver_core.source import regular_bytes

    data = regular_bytes(Path(path))
    return data is not None and might_contribute(data)


def _same_dependency(
    key: str,
    record: FileRecord,
    ours: dict[str, list[object]],
    theirs: dict[str, list[object]],
    state: State,
    cwd: Path,
) -> bool:
    """Whether a file a record's analysis read stands in this run as in the record's: shown
    under the same display, and, when it is one of the run's files in only one of them, not a
    helper registering on a server the record's file handed it (`Tool.origin`: its tools are
    the record's file's when it is not one of the run's files)."""
    if key.startswith(PROBE):
        return True
    mine, other = ours.get(key), theirs.get(key)
    if mine is None and other is None:
        return True
    if mine is not None and other is not None:
        return mine[0] == other[0]
    if mine is None:  # one of their files only: its record says whether it registers so
        assert other is not None
        theirs_record = state.records.get(str(other[0]))
        return (
            other[0] == companion_display(key, cwd)
            and theirs_record is not None
            and not theirs_record.coupled
        )
    # One of ours only: what it registered on a handed server would be in the record, there.
    shown = str(mine[0])
    spans = (reg.registration or reg.span for reg in record.registrations)
    return shown == companion_display(key, cwd) and all(span is None or span.path != shown for span in spans)


def _callers(state: State, theirs: dict[str, list[object]]) -> dict[str, list[str]]:
    """For each coupled record of `state` (by path), the files whose closure holds it."""
    paths = {str(entry[0]): path for path, entry in theirs.items()}
    coupled = {paths[d] for d, record in state.records.items() if record.coupled and d in paths}
    out: dict[str, list[str]] = {}
    for display, deps in state.deps.items():
        for key in deps:
            if key in coupled and key != paths.get(display):
                out.setdefault(key, []).append(paths.get(display, display))
    return out
