"""What a lint run leaves for the next one: its records and the state of everything they
depend on, one file per configuration under the cache folder (`incremental` decides from it
what to check again; `adoption` takes records from other lists of paths' states)."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Sequence
from dataclasses import field
from pathlib import Path
from typing import Any

from ..resolver_core import bounded_read, file_guard
from ..resolver_core.cache import version
from ..resolver_core.records import slotted
from .per_file import FileRecord

_FORMAT = 9
KEEP_STATES = 16
"""States kept per cache folder (one per set of paths and options: pre-commit passes a new
list of files almost every time); the least recently written go first."""
SIBLINGS = 3
"""States of other lists of paths a run on a new list takes records from (`adoption`)."""


@slotted
class State:
    """What a run leaves for the next one (per configuration)."""

    files: list[list[Any]] = field(default_factory=list)
    """Each given file as [display, absolute path, explicit], in discovery order."""
    records: dict[str, FileRecord] = field(default_factory=dict)
    deps: dict[str, list[str]] = field(default_factory=dict)
    """Per given file, every dependency of its record: files (itself included) and import
    probes (`cache.probe_key`)."""
    hashes: dict[str, str | None] = field(default_factory=dict)
    """The state of every dependency some record has, as it was when checked."""
    directives: list[str] = field(default_factory=list)
    """Given files with a `# mcpdeps:` comment (judged for unused suppressions)."""
    result: list[dict[str, Any]] | None = None
    """The run's final diagnostics (after suppressions): a run with nothing to re-check
    returns them as they are."""
    fixes: dict[str, Any] = field(default_factory=dict)
    """The fixes computed for the last report's diagnostics, by file content
    (`lint_rules.fixes.attach_fixes`)."""
    stats: dict[str, list[int]] = field(default_factory=dict)
    """Per file in `hashes`, its `stat_key` when that hash was known good (see `Hashes`)."""

    def to_json(self) -> dict[str, Any]:
        # Each dependency's path once: `deps` and `stats` refer to `paths` by position, and
        # `hashes` lists the states of its first paths. Every file depends on a dozen paths,
        # so spelt out they were most of a state's bytes, and of its load and store times.
        paths = list(self.hashes)
        index = {path: i for i, path in enumerate(paths)}
        for path in (p for deps in self.deps.values() for p in deps if p not in index):
            index[path] = len(paths)
            paths.append(path)
        return {
            "format": _FORMAT,
            "files": self.files,
            "records": {k: r.to_json() for k, r in self.records.items()},
            "paths": paths,
            "deps": {origin: [index[p] for p in deps] for origin, deps in self.deps.items()},
            "hashes": list(self.hashes.values()),
            "directives": self.directives,
            "result": self.result,
            "fixes": self.fixes,
            "stats": [self.stats.get(path) for path in self.hashes],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State | None:
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            return None
        try:
            paths: list[str] = data["paths"]
            values, stats = data["hashes"], data["stats"]
            if not (isinstance(paths, list) and len(values) == len(stats) <= len(paths)):
                return None
            return cls(
                files=data["files"],
                records={k: FileRecord.from_json(r) for k, r in data["records"].items()},
                deps={origin: [paths[i] for i in deps] for origin, deps in data["deps"].items()},
                hashes=dict(zip(paths, values, strict=False)),  # paths[len(values):]: deps only
                directives=data["directives"],
                result=data["result"],
                fixes=dict(data["fixes"]),
                stats={path: st for path, st in zip(paths, stats, strict=False) if st is not None},
            )
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            return None


STATE_NAME = re.compile(r"mcpdeps-lint-[0-9a-f]{32}\.json")
"""How mcpdeps names its state files: the only files it ever prunes from a cache folder."""
MAX_STATE_BYTES = 256 * 1024 * 1024
"""A state file larger than this is not ours (or not any more): ignored, never read whole."""


class StateStore:
    """One state file per configuration (version, options) under the cache folder.

    Writes and deletions follow `file_guard`: a `.gitignore` only in folders mcpdeps created,
    and pruning only of regular files named as mcpdeps names its states, so `--cache-dir .`
    or a `lint/` folder linked elsewhere never costs the user a file.
    """

    def __init__(self, directory: Path, options: Sequence[str], paths: Sequence[str] = ()) -> None:
        # surrogateescape: a file or folder name that is not valid UTF-8 is hashed as its bytes.
        import hashlib  # OpenSSL's: loaded by the runs that hash (`cache.bytes_hash`)

        h = hashlib.sha256(f"{_FORMAT}|{version()}|".encode())
        h.update("\0".join(options).encode("utf-8", "surrogateescape"))
        self.family = h.hexdigest()[:16]
        """Half the name: the same for every list of paths linted with these options, whose
        records another list's run may take up (`adoption`)."""
        h.update(b"\0\0" + "\0".join(paths).encode("utf-8", "surrogateescape"))
        self.directory = directory
        self.path = directory / "lint" / f"mcpdeps-lint-{self.family}{h.hexdigest()[:16]}.json"

    def load(self) -> State | None:
        """The stored state; None when there is none or it is unusable (a FIFO, a device, too
        large, not UTF-8, not JSON, another format): a cache never fails a run."""
        return StateStore._read(self.path)

    @staticmethod
    def _read(path: Path) -> State | None:
        try:
            # Plain `json.loads`, without `read_json`'s nesting scan (a third of a warm run's
            # load): a state nested too deep for the parser is RecursionError, refused alike.
            text = bounded_read.read_text(path, "the lint cache", MAX_STATE_BYTES)
            return State.from_json(json.loads(text))
        except (bounded_read.Unreadable, ValueError, RecursionError):
            return None

    def siblings(self) -> list[State]:
        """The states of other lists of paths linted with the same options, most recent first
        (at most `SIBLINGS`); those unusable are left out."""
        with contextlib.suppress(OSError):
            found = []
            for path in (self.path.parent).glob(f"mcpdeps-lint-{self.family}*.json"):
                if path != self.path and STATE_NAME.fullmatch(path.name) and path.is_file():
                    found.append((path.stat().st_mtime_ns, path))
            states = (StateStore._read(path) for _, path in sorted(found, reverse=True)[:SIBLINGS])
            return [state for state in states if state is not None]
        return []

    def store(self, state: State) -> None:
        # `dumps` then write: `json.dump` streams through the pure-Python encoder (5x slower).
        data = json.dumps(state.to_json(), separators=(",", ":"))
        with contextlib.suppress(OSError):  # a read-only or full disk never fails a lint run
            file_guard.store_pruned(self.path, data, self.directory, STATE_NAME, KEEP_STATES)
