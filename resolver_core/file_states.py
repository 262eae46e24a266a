"""What each dependency of a lint verdict is now: a file's content hash or an import
probe's state, computed at most once per run, with a file's stat vouching for its hash.

Shared by the lint cache (`lint_rules.incremental`), the language server (its unsaved
texts override files) and the report memo (`cli/lint/report_memo.py`), which asks the
same question before it replays a report. Imports nothing of the analyzer or pydantic:
the memo's whole point is a run that loads neither.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from .cache import PROBE, dependency_state, text_hash
from .module_search import ModuleSearch
from .records import record

CHANGED = "changed during the run"
"""The state kept for a dependency that kept records were compared against in one state and
this run's analysis read in another: it matches nothing, so each record is checked again."""


class Known(Protocol):
    """What an earlier run knew: each dependency's state, and the stats that vouch for them."""

    hashes: dict[str, str | None]
    stats: dict[str, list[int]]


@record
class Seen:
    """What one run's verdicts were computed from, as JSON data: its files
    (`discovery.signature`), the state of every dependency of every verdict, the stats
    that vouch for those states, and where imports were looked for (`search_roots.root_names`:
    a root that appears changes no state but which file an import means). Another run with
    the same files, states and roots judges alike."""

    files: list[list[object]]
    hashes: dict[str, str | None]
    stats: dict[str, list[int]]
    roots: list[str]

    def holds(self, files: list[list[object]], roots: list[str]) -> bool:
        """Whether nothing it was computed from has changed: the same files and roots, and
        every dependency in the same state.

        A file whose stat vouched for its hash must still have that stat: one that differs
        (an edit, or only a touch) ends the check unread, so a run that finds an edit pays
        for little more than a stat. Files without a vouching stat (changed within the racy
        window) and import probes are looked at. Keys are checked in the order kept
        (`recent_first`: the file being edited is usually the first to differ)."""
        if files != self.files or roots != self.roots:
            return False
        search = ModuleSearch()
        for key, value in self.hashes.items():
            kept = self.stats.get(key)
            if kept is not None:
                if stat_key(key) != kept:
                    return False
            elif dependency_state(key, search) != value:
                return False
        return True

    def recent_first(self) -> Seen:
        """The same, its dependencies ordered by their kept mtime, newest first (probes and
        files without a vouching stat, which are read anyway, last)."""
        stats = self.stats

        def age(key: str) -> int:
            kept = stats.get(key)
            return -kept[1] if kept is not None else 0

        return Seen(self.files, {k: self.hashes[k] for k in sorted(self.hashes, key=age)}, stats, self.roots)


RACY_NS = 2_000_000_000
"""A file whose inode changed less than this before a run started is not vouched for by its
stat: file systems stamp times coarsely (FAT to 2 s), and a second edit within one stamp
leaves size and times alone (git's "racy" entries)."""


def stat_key(path: str) -> list[int] | None:
    """What a file's stat says of its content: size, mtime, ctime, inode, device (None: no regular file)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


class Hashes(dict[str, str | None]):
    """Current dependency states (`cache.dependency_state`), each computed at most once per run;
    `overrides` (unsaved texts) win.

    With `previous`, a file whose stat still equals the one that state kept beside its hash
    keeps that hash without being read (`lint_state.State.stats`)."""

    def __init__(self, overrides: Mapping[Path, str] | None = None, previous: Known | None = None) -> None:
        super().__init__()
        self.overrides = overrides or {}
        self.search = ModuleSearch()
        self.previous = previous
        self.started_ns = time.time_ns()
        self._stats: dict[str, list[int] | None] = {}
        """Each file's stat as this run took it (before reading it, if it did)."""

    def __missing__(self, key: str) -> str | None:
        text = self.overrides.get(Path(key)) if self.overrides else None
        value: str | None
        if text is not None:
            value = text_hash(text)
        elif key.startswith(PROBE):
            value = dependency_state(key, self.search)
        else:
            self._stats[key] = st = stat_key(key)
            previous = self.previous
            if previous is not None and st is not None and previous.stats.get(key) == st:
                value = previous.hashes.get(key)
            else:
                value = dependency_state(key, self.search)
        self[key] = value
        return value

    def _vouches(self, st: list[int] | None) -> bool:
        return st is not None and st[2] < self.started_ns - RACY_NS

    def outdated(self) -> bool:
        """Whether the previous state's stats would vouch for fewer files than a new one would
        (files touched but not changed, or aged past the racy window): worth storing again."""
        kept = self.previous.stats if self.previous is not None else {}
        return any(kept.get(key) != st and self._vouches(st) for key, st in self._stats.items())

    def stats(self, hashes: Mapping[str, str | None]) -> dict[str, list[int]]:
        """The stats that vouch for `hashes` next time: files untouched since before this run."""
        out: dict[str, list[int]] = {}
        overrides = self.overrides
        for key, value in hashes.items():
            if value is None or value == CHANGED or key.startswith(PROBE):
                continue
            if overrides and Path(key) in overrides:
                continue
            st = self._stats[key] if key in self._stats else stat_key(key)
            if st is not None and self._vouches(st):
                out[key] = st
        return out
