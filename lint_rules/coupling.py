"""Which given files must be checked in one build: a file that registers on a server
parameter, with every file that may call it.

`def register(server: MCPServer)` registers its tools on the servers its call sites pass,
and `def tool(fn): mcp.add_tool(fn)` registers what its callers pass in: such a file's
record is *coupled* (`FileRecord.coupled`) to its callers. A caller names the function
through imports, directly or through other modules (`app/main.py` imports
`tools/notes.py`, or a package `__init__` that re-exports its `register`), so it is among
the files that import the coupled file, transitively. A build of the coupled file together
with all of those scans every call site a build of every file would scan, and records the
same verdicts; the other files are checked in slices as anywhere else.

Imports are read from the text (`import_scan.scan_imports`, which may list too much, never
too little) and matched to files by every dotted tail of their paths (`a/b/c.py` answers to
`c`, `b.c` and `a.b.c`): whatever the source roots, a module's name is one of those. More
importers than really exist only make a group larger. What the text cannot show (an import
through a module the run was not given) is caught after the builds: by `confirmed`, from the
imports the builds followed, and by a build that finds a given file outside its slice
registering through a parameter (`incremental._recoupled`); either sends the coupled records
to one build of every file. A registration of what a loop yields is never grouped
(`coupled_files`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field
from pathlib import Path

from ..resolver_core.import_index import closure
from ..resolver_core.import_scan import found_under, imported_modules, scan_imports
from ..resolver_core.patterns import compiled_when_used
from ..resolver_core.prefilter import (
    may_register_for_callers,
    may_register_in_functions,
    might_contribute,
    registers_for_importers,
)
from ..resolver_core.records import slotted
from ..resolver_core.source import regular_bytes


@slotted
class Groups:
    """The given files of a run, cut into what must be built together and what need not."""

    groups: list[list[str]]
    """Each coupled file with its importers, in the run's order (groups are disjoint)."""
    free: list[str]
    """The files in no group, in the run's order."""
    helpers: dict[str, set[str]]
    """Each given helper registering what it is handed (`registering_helpers`), with the given
    files that may import it: a slice holding one of those builds the helper too (`extras`)."""
    callers: dict[str, set[str]] = field(default_factory=dict)
    """Each coupled file's importers among the given files (the files that may call it)."""


@slotted
class Piece:
    """One build of part of a coupling group (`pieces`)."""

    origins: list[str]
    """The files it records."""
    extras: list[str]
    """The files it builds beside them (recorded by another piece): callers of its coupled
    files that another piece holds first."""
    cut: bool = False
    """One of several pieces of its group: its callers' calls naming another piece's files are
    left unresolved (`confined.Confined.in_functions`)."""


Read = Callable[[str], "bytes | None"]
"""A given file's bytes by its display (`reader`)."""
Scan = Callable[[Sequence[str]], Mapping[str, Iterable[str]]]
"""The given files each of the files asked about may import (`ImportedFiles.of_each`)."""

PREFILTERED_PER_PARSED = 32
"""How many files the byte prefilter turns away cost about what one parsed file does (read
and scanned: a tenth of a millisecond; parsed and analysed: several)."""
CALLER_SHARE = 1 / 3
"""The share of a coupling group's build that each of its pieces builds again (`pieces`): its
coupled files' callers, with what they import. On `helpers` 1,000 (`benchmarks/README.md`,
"A coupling group cut only where its pieces end sooner") k pieces of a group whose build
took G each took about G/3 + 2G/3k (k = 2, 3 and 5)."""
GROUP_WEIGHT = 1.6
"""How much more a byte of a coupling group costs to check than a byte of a file in no group:
a group's files are MCP modules, built with their callers' imports (1.5 on `helpers`, 1.85 on
`dense`, 1,000 modules, CPU seconds per byte the prefilter lets through)."""


def reader(path_of: Mapping[str, Path]) -> Read:
    """Each given file's bytes, read once for the plan's several looks at them (the coupled
    files, the helpers, the imports)."""
    read: dict[str, bytes | None] = {}

    def bytes_of(origin: str) -> bytes | None:
        if origin not in read:
            read[origin] = regular_bytes(path_of[origin])
        return read[origin]

    return bytes_of


def registering_helpers(
    origins: Sequence[str], path_of: Mapping[str, Path], read: Read | None = None
) -> list[str]:
    """The files of `origins` that may register a function they are handed (`def expose(fn):
    mcp.add_tool(fn)`, `tool = mcp.tool()`): the functions are their importers' tools, found
    where the helper's registration is scanned (`resolver_core.imported_registrars`). A slice
    whose importer of one the prefilter turned away (it spells no MCP marker: `@expose`
    alone) reads it only because the helper asks for its name; so each slice holding an
    importer builds the helper too, beside its own files."""
    read = read or reader(path_of)
    out = []
    for origin in origins:
        data = read(origin)
        if registers_for_importers(data):
            out.append(origin)
    return out


def extras(chunk: Sequence[str], helpers: Mapping[str, set[str]]) -> list[str]:
    """The helpers (`Groups.helpers`) a slice of files builds beside them: those its files may
    import, that it does not hold."""
    if not helpers:
        return []
    held = set(chunk)
    return [h for h, importers in helpers.items() if h not in held and not importers.isdisjoint(held)]


def coupled_files(
    origins: Sequence[str], path_of: Mapping[str, Path], read: Read | None = None
) -> list[str] | None:
    """The files of `origins` that may register where their callers decide
    (`prefilter.may_register_for_callers`, which says yes too often: a group too many).

    None when a file registers what a loop yields (`for fn in TOOLS: mcp.add_tool(fn)`): the
    collection may be filled by a decorator applied in any file (`TOOLS.append(fn)`), which
    need not import the registering file nor be imported by it, so no grouping by imports
    holds: only one build of every file finds those tools."""
    read = read or reader(path_of)
    out = []
    for origin in origins:
        data = read(origin)
        if data is None or not may_register_in_functions(data) or not might_contribute(data):
            continue
        if _registers_loop_values(data):
            return None
        if may_register_for_callers(data):
            out.append(origin)
    return out


_FOR_TARGETS = compiled_when_used(rb"for[ \t(]+([\w \t,()]+?)[ \t)]+in\b")
"""A `for` clause's targets. Starts with its literal bytes, which `re` looks for first (a
leading `\b` had it try every position); `for` ending a longer word is skipped by hand."""
_WORD = compiled_when_used(rb"\w+")
_REGISTRATION_TOKENS = (b"add_tool", b".tool", b".prompt", b".resource")


def _registers_loop_values(data: bytes) -> bool:
    """Whether a line holding a registration token names a variable a `for` binds (in a loop
    or a comprehension): may say yes too often (the same name bound elsewhere), which only
    costs the run its workers."""
    bound: set[bytes] = set()
    for match in _FOR_TARGETS().finditer(data):
        if match.start() == 0 or _WORD().fullmatch(data, match.start() - 1, match.start()) is None:
            bound.update(_WORD().findall(match.group(1)))
    if not bound:
        return False
    for token in _REGISTRATION_TOKENS:
        at = data.find(token)
        while at >= 0:
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at)
            end = len(data) if end < 0 else end
            if not bound.isdisjoint(_WORD().findall(data, start, end)):
                return True
            at = data.find(token, end)
    return False


def coupling_groups(
    origins: Sequence[str],
    path_of: Mapping[str, Path],
    coupled: Sequence[str],
    helpers: Sequence[str] = (),
    read: Read | None = None,
    scan: Scan | None = None,
) -> Groups:
    """The groups of the `coupled` files among `origins` (`coupled_files`), and the importers of
    the `helpers` (`registering_helpers`); `scan` reads which files each file imports (this
    process's `ImportedFiles` when None; a run's workers share it: `incremental`)."""
    imported_by: dict[str, set[str]] = {}
    if coupled or helpers:
        scan = scan or ImportedFiles({o: path_of[o] for o in origins}, read).of_each
        for origin, found in scan(origins).items():
            for target in found:
                imported_by.setdefault(target, set()).add(origin)
    owner: dict[str, int] = {}
    members: list[set[str]] = []
    callers: dict[str, set[str]] = {}
    for origin in coupled:
        reached = closure({origin}, imported_by)
        callers[origin] = reached - {origin}
        merged = {owner[o] for o in reached if o in owner}
        group = reached.union(*(members[i] for i in merged))
        for i in merged:
            members[i] = set()
        members.append(group)
        owner.update(dict.fromkeys(group, len(members) - 1))
    grouped = [m for m in members if m]
    return Groups(
        [[o for o in origins if o in group] for group in grouped],
        [o for o in origins if o not in owner],
        {h: closure({h}, imported_by) - {h} for h in helpers},
        callers,
    )


def pieces(group: Sequence[str], callers: Mapping[str, set[str]], parts: int) -> list[Piece]:
    """A coupling group cut into up to `parts` builds, so that workers share it: each holds a
    run of the group's coupled files (in the run's order) and every file of the group that
    may call one of them (`Groups.callers`: an entry point, the helpers relaying the server,
    a factory passing its own). A coupled file's record is then its whole build's: every
    caller is in its piece, and no server is followed into another piece's files
    (`confined.Confined.withheld`). A caller is recorded by the first piece holding it and
    built again by the others (`Piece.extras`): cheap where callers are few and light, as
    those of `register(server)` helpers are."""
    coupled = [o for o in group if o in callers]
    if parts < 2 or len(coupled) < 2:
        return [Piece(list(group), [])]
    size, extra = divmod(len(coupled), min(parts, len(coupled)))
    recorded: set[str] = set()
    out: list[Piece] = []
    start = 0
    while start < len(coupled):
        end = start + size + (1 if len(out) < extra else 0)
        own = set(coupled[start:end])
        held = own.union(*(callers[o] for o in own))
        origins = [o for o in group if o in own or (o in held and o not in callers and o not in recorded)]
        recorded.update(origins)
        out.append(Piece(origins, [o for o in group if o in held and o not in origins], cut=True))
        start = end
    return out


def piece_count(group: Sequence[str], rest: float, read: Read, workers: int, most: int) -> int:
    """Into how many pieces (`pieces`, at most `most`) to cut a coupling group that `workers`
    check beside other files estimated at `rest` (`work`): the count whose builds are estimated
    to end first. Each piece builds again what the group's callers cost (`CALLER_SHARE`), so
    two workers share a group only when it outweighs the other files by half again (on
    `helpers` trees, from 250 to 4,000 modules, it never did, and its pieces cost a tenth of
    the run's wall time); more workers share it sooner, where its one build would be the run's
    critical path."""
    if workers < 2 or most < 2:
        return 1
    whole = GROUP_WEIGHT * work(group, read)

    def ends(parts: int) -> float:
        piece = whole * (CALLER_SHARE + (1 - CALLER_SHARE) / parts)
        return max(piece, (parts * piece + rest) / workers)

    return min(range(1, most + 1), key=ends)  # the first of equals: fewer pieces


def work(files: Iterable[str], read: Read) -> float:
    """About what checking `files` costs, in bytes parsed: a file the byte prefilter turns
    away counts `1 / PREFILTERED_PER_PARSED` of its bytes (its imports may still be followed)."""
    total = 0.0
    for origin in files:
        data = read(origin)
        if data is not None:
            total += len(data) if might_contribute(data) else len(data) / PREFILTERED_PER_PARSED
    return total


def confirmed(
    groups: Iterable[Piece],
    coupled: Iterable[str],
    path_of: Mapping[str, Path],
    edges: Mapping[str, Iterable[str]],
) -> bool:
    """Whether each coupled record was checked with every given file that reaches it over
    the imports the builds followed (`Graph.imports` of every slice): True when the text's
    imports missed none (`coupling_groups`), so the records are those of one whole build."""
    held: list[set[str]] = []
    group_of: dict[str, int] = {}
    for i, group in enumerate(groups):
        held.append({*group.origins, *group.extras})
        group_of.update(dict.fromkeys(group.origins, i))
    imported_by: dict[str, set[str]] = {}
    for near, targets in edges.items():
        for target in targets:
            imported_by.setdefault(target, set()).add(near)
    given = {str(path): origin for origin, path in path_of.items()}
    for origin in coupled:
        if origin not in group_of:
            return False
        for path in closure({str(path_of[origin])}, imported_by):
            caller = given.get(path)
            if caller is not None and caller not in held[group_of[origin]]:
                return False
    return True


class ImportedFiles:
    """The given files a given file's text may import (`_imported`), the files' module names
    taken once for every file asked about (an edit of hundreds of files, a branch checked
    out, asks about each; a run's plan asks about every file)."""

    def __init__(self, path_of: Mapping[str, Path], read: Read | None = None) -> None:
        self._names = _module_names(list(path_of), path_of)
        self._read = read or reader(path_of)

    def of(self, origin: str) -> set[str]:
        return set(_imported(origin, self._read(origin), *self._names))

    def of_each(self, origins: Sequence[str]) -> dict[str, list[str]]:
        """`of` each file of `origins` (a `Scan`)."""
        return {origin: list(self.of(origin)) for origin in origins}


def _module_names(
    origins: Sequence[str], path_of: Mapping[str, Path]
) -> tuple[dict[str, list[str]], dict[str, tuple[str, bool]]]:
    """The given files by every dotted tail of their paths, and each one's dotted path and
    whether it is a package (what a relative import is read from)."""
    by_name: dict[str, list[str]] = {}
    dotted: dict[str, tuple[str, bool]] = {}
    for origin in origins:
        path = path_of[origin]
        is_package = path.name == "__init__.py"
        parts = [*path.parent.parts[1:], *(() if is_package else (path.stem,))]
        dotted[origin] = (".".join(parts), is_package)
        for i in range(len(parts)):
            by_name.setdefault(".".join(parts[i:]), []).append(origin)
    return by_name, dotted


def _imported(
    origin: str, data: bytes | None, by_name: Mapping[str, list[str]], dotted: Mapping[str, tuple[str, bool]]
) -> Iterable[str]:
    if data is None or b"import" not in data:
        return
    name, is_package = dotted[origin]
    for target in imported_modules(scan_imports(data.decode("utf-8", "replace")), name, is_package):
        yield from (found for found in found_under(target, by_name) if found != origin)
