"""The import index: who imports whom in a project, kept between runs (`companions.py` chooses
from it the files a run checks beside the files it was given).

Finding importers must not cost a parse of the whole project each time (pre-commit runs on
every commit of a 1,000-module project): imports are read from the text with a pattern
(`import_scan.scan_imports`, never `ast`; it may list too much, which only costs a check,
never too little), and the index keeps each file's imports beside its `os.stat`, under the
lint cache (`mcpdeps-imports-<hash>.json`, one per project root and exclusions). A warm run
lists the project's folders and stats its files; only files whose stat changed are read
again. Module names are not kept: they are computed each run from the folders' `__init__.py`
(a marker created or deleted renames modules without touching any file).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import field
from pathlib import Path

from . import bounded_read, file_guard
from .file_states import RACY_NS, stat_key
from .import_scan import Import, imported_modules, scan_imports
from .patterns import compiled_when_used
from .records import slotted

_FORMAT = 12  # 12: a module a lazy `__getattr__` spells is marked (`import_scan.LAZY`)
INDEX_NAME = compiled_when_used(r"mcpdeps-imports-[0-9a-f]{32}\.json")
"""How mcpdeps names its import indexes (pruned only by this name)."""
KEEP_INDEXES = 4
MAX_INDEX_BYTES = 64 * 1024 * 1024


@slotted
class Entry:
    """What the index keeps of one file."""

    stat: list[int]
    contributes: bool
    """Whether the prefilter lets it through (`prefilter.might_contribute`): only such files
    can register tools."""
    imports: list[Import]
    creates: bool = False
    """Whether its text names `MCPServer` beyond importing it (`names_server`: it may create a
    server, or subclass the class): the files that register tools on a server a given file
    uses are checked too (duplicate names)."""
    serves: bool = True
    """Whether it may register anything or hand a server on (`may_serve`): when no given file
    nor anything they import may, no duplicate tool name can be located in a given file, and
    the files sharing their servers are not needed."""
    handed: bool = True
    """Whether it may register a function it is handed (`prefilter.may_register_handed`): a
    decorator or helper registering the functions its callers pass (`def deco(fn): return
    mcp.tool()(fn)`), whose tools are defined in the files calling it."""
    nested: bool = True
    """Whether it may register inside a function (`prefilter.may_register_in_functions`): a
    `register(server)` helper, whose tools land on the servers its callers hand it."""
    top: bool = True
    """Whether it may register at its top level (`prefilter.may_register_at_top`): only such
    registrations of two files are met in the order a program imports them
    (`per_file.by_import_order`), so only then can a file shown after the given ones come first."""
    module: str = ""
    """The module name `resolved` was computed under (`name/` for a package); "" for none."""
    resolved: list[str] = field(default_factory=list)
    """`imported_modules` of `imports` under `module`, those of the project's top-level names
    only (`ImportIndex.tops`: `typing`, `mcp` and the like are no project file's): computed
    again only when the file, its module name or the top-level names change (resolving every
    file's imports was most of a warm lookup)."""

    def imported(self, name: str, is_package: bool, tops: Collection[str]) -> list[str]:
        key = f"{name}/" if is_package else name
        if self.module != key:
            found = imported_modules(self.imports, name, is_package)
            self.module, self.resolved = key, sorted(m for m in found if m.partition(".")[0] in tops)
        return self.resolved


@slotted
class ImportIndex:
    """The imports of every source file of one project, kept between runs under the cache."""

    root: Path
    entries: dict[str, Entry] = field(default_factory=dict)
    path: Path | None = None
    cache_dir: Path | None = None
    changed: bool = False
    tops: list[str] = field(default_factory=list)
    """The top-level names of the project's modules the entries' `resolved` were kept for
    (`retarget`)."""
    spelling: dict[str, list[str]] = field(default_factory=dict)
    """`carriers.reaching` of a run's given files among their importers, by the carriers and
    the importers' stats (`SpellingSearch.spelling`), the last `spelling_search.KEEP_SPELLING` found."""

    @classmethod
    def open(cls, root: Path, exclude: Sequence[str], cache_dir: Path | None) -> ImportIndex:
        index = cls(root)
        if cache_dir is None:
            return index
        import hashlib  # OpenSSL's: loaded by the runs that hash (`cache.bytes_hash`)

        key = hashlib.sha256(
            json.dumps([_FORMAT, str(root), list(exclude)]).encode("utf-8", "surrogateescape")
        )
        index.cache_dir = cache_dir
        index.path = cache_dir / "lint" / f"mcpdeps-imports-{key.hexdigest()[:32]}.json"
        try:
            data = json.loads(bounded_read.read_text(index.path, "the import index", MAX_INDEX_BYTES))
            if isinstance(data, dict) and data.get("format") == _FORMAT:
                index.entries = {
                    path: Entry(
                        stat,
                        bool(contributes),
                        imports,
                        bool(creates),
                        bool(serves),
                        bool(handed),
                        bool(nested),
                        bool(top),
                        module,
                        resolved,
                    )
                    for path, (
                        stat,
                        contributes,
                        imports,
                        creates,
                        serves,
                        handed,
                        nested,
                        top,
                        module,
                        resolved,
                    ) in data["files"].items()
                }
                index.spelling = {str(k): list(v) for k, v in data.get("spelling", {}).items()}
                index.tops = [str(t) for t in data["tops"]]
        except (bounded_read.Unreadable, ValueError, RecursionError, KeyError, TypeError, AttributeError):
            index.entries = {}  # no index yet, or a damaged or foreign one: read the files again
        return index

    def refresh(self, paths: Sequence[Path]) -> None:
        """Keep an entry for each of `paths` (and no other): read again each file whose stat
        is not the one kept."""
        fresh: dict[str, Entry] = {}
        for path in paths:
            key = str(path)
            st = stat_key(key)
            entry = self.entries.get(key)
            if st is None or entry is None or entry.stat != st:
                entry = _read(path, st)
                # An entry its stat cannot vouch for is not stored (`store`): the one kept
                # already fails its stat next run, so the index is not written again for it
                # (pre-commit edits the file it passes just before the run).
                self.changed = self.changed or bool(entry.stat)
            fresh[key] = entry
        self.changed = self.changed or len(fresh) != len(self.entries)
        self.entries = fresh

    def retarget(self, tops: list[str]) -> None:
        """Keep each entry's `resolved` for these top-level names: every entry resolves its
        imports again when they are not those it was kept for (a new top-level module or
        package appeared, or went)."""
        if tops != self.tops:
            self.tops = tops
            for entry in self.entries.values():
                entry.module = ""
            self.changed = True

    def store(self) -> None:
        if self.path is None or self.cache_dir is None or not self.changed:
            return
        files = {
            p: [
                e.stat,
                e.contributes,
                e.imports,
                e.creates,
                e.serves,
                e.handed,
                e.nested,
                e.top,
                e.module,
                e.resolved,
            ]
            for p, e in self.entries.items()
            if e.stat
        }
        data = json.dumps(
            {"format": _FORMAT, "files": files, "tops": self.tops, "spelling": self.spelling},
            separators=(",", ":"),
        )
        with contextlib.suppress(OSError, ValueError):  # a read-only or full disk never fails a run
            file_guard.store_pruned(self.path, data, self.cache_dir, INDEX_NAME(), KEEP_INDEXES)


def _read(path: Path, st: list[int] | None) -> Entry:
    # Imported here: a warm run reads no file, and the report memo's replay (which finds
    # importers too) loads none of the analyzer.
    from .prefilter import (
        may_register_at_top,
        may_register_handed,
        may_register_in_functions,
        might_contribute,
    )
    from .source import decode, regular_bytes

    data = regular_bytes(path)
    if data is None:
        return Entry([], False, [])
    # Kept with its stat only when that stat vouches for what was read: not changed while it
    # was read, nor within `RACY_NS` (a second same-size edit in one time stamp keeps it).
    vouched = st if st is not None and stat_key(str(path)) == st and st[2] < time.time_ns() - RACY_NS else []
    try:
        text = decode(data)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return Entry(vouched, might_contribute(data), [], names_server(data))
    return Entry(
        vouched,
        might_contribute(data),
        scan_imports(text),
        names_server(data),
        may_serve(data),
        may_register_handed(data),
        may_register_in_functions(data),
        may_register_at_top(data),
    )


_REGISTERING = (b"tool", b"prompt", b"resource")
"""Every registration names one of these (`.tool`, `add_tool`, `.prompt`, `.resource`)."""
_IMPORT_ONLY = compiled_when_used(rb"[ \t]*(?:from|import)[ \t][^;:\n]*(?:\n|$)")
_RENAMED_SERVER = compiled_when_used(rb"MCPServer[ \t]+as[ \t]")


def may_serve(data: bytes) -> bool:
    """Whether a file may register a tool or hand a server to a helper, by its bytes: a
    registration word, or `Server` on a line other than a plain import (`mcp = MCPServer(...)`,
    `def register(server: MCPServer)`, as `server_lines.server_variables` reads a server's variable).
    Says yes too often, never no for a file that does either."""
    return any(word in data for word in _REGISTERING) or _beyond_imports(data, b"Server")


def names_server(data: bytes) -> bool:
    """Whether a file may create a server (or subclass the class), by its bytes: `MCPServer`
    on a line other than a plain import, or imported under another name (`MCPServer as S`).
    Typed modules import the class for their annotations (`def register(mcp: MCPServer)` is
    no import line and counts); an import alone creates nothing, and counted, it made every
    module importing such a module share a server with the given files (`companions._sharing`)."""
    return _beyond_imports(data, b"MCPServer") or _RENAMED_SERVER().search(data) is not None


def _beyond_imports(data: bytes, word: bytes) -> bool:
    """Whether `word` occurs on a line that is not a plain import (an import continued over
    several lines counts: says yes too often, never no)."""
    at = data.find(word)
    while at >= 0:
        start = data.rfind(b"\n", 0, at) + 1
        if _IMPORT_ONLY().match(data, start) is None:
            return True
        at = data.find(word, at + len(word))
    return False


def closure(start: set[str], edges: Mapping[str, set[str]]) -> set[str]:
    """`start` and every file reached from it along `edges`."""
    reached = set(start)
    todo = list(start)
    while todo:
        for found in edges.get(todo.pop(), ()):
            if found not in reached:
                reached.add(found)
                todo.append(found)
    return reached
