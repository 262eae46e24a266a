"""Which importers of the given files spell a name carrying their definitions
(`carriers.reaching`), remembered in the import index between runs; and the trees that search
parses, kept for the run's build.

When nothing given may register, a run checks only the importers that can have a tool running
a given file's resolvers (`companions._registering`). Finding them parses the given files and
their importers; a warm run, or a pre-commit run editing only a given file's code, reads the
answer from the index instead (`ImportIndex.spelling`). The files parsed are most of those the
build then checks, so one `SpellingSearch` per run keeps their trees (`Discovered.parses`,
`lent_parses`), and the functions choosing companions do not each pass them on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from .import_index import ImportIndex, closure

if TYPE_CHECKING:
    import ast

    from .discovery import Parses

KEEP_SPELLING = 32
"""How many searches of carriers (`SpellingSearch.spelling`) an import index keeps (each under two keys)."""


class SpellingSearch:
    """One run's searches of carriers, and the trees they parsed (`parses`), by file, for the
    run's build, which parses most of the same files again (the importers spelling a given
    file's names, and the given file)."""

    __slots__ = ("parses",)

    def __init__(self) -> None:
        self.parses: Parses = {}

    def spelling(
        self, given: set[str], importers: set[str], imported_by: Mapping[str, set[str]], index: ImportIndex
    ) -> set[str] | None:
        """`carriers.reaching` of the given files' definitions, read from the index when it was
        found for the same names and importers, none of them changed since (a warm run reads
        no importer, nor does a pre-commit run editing only the given file's code).

        Kept under two keys: the carriers, and the given files' own stats. The first holds across
        an edit of a given file's code; the second spares an unchanged given file its parse (a
        warm run of `lint deps.py` reads nothing but the index)."""
        stats = [(p, index.entries[p].stat) for p in sorted(importers)]
        if any(not stat for _, stat in stats):  # one too recent for its stat to vouch for it
            return self._search(given, importers, imported_by)
        mine = [(p, index.entries[p].stat) for p in sorted(given)]
        unchanged = _digest(["files", mine, stats]) if all(stat for _, stat in mine) else None
        found = index.spelling.get(unchanged) if unchanged is not None else None
        if found is not None:
            return set(found)
        from .carriers import defined  # only here: parsing and tokenizing, for resolver modules

        carriers = defined(sorted(given), text_of, self.parse)
        if carriers is None:
            return None
        named = _digest([sorted(carriers), stats])
        found = index.spelling.get(named)
        if found is None:
            found = sorted(self._search(given, importers, imported_by, carriers) or ())
        for digest in (named, unchanged):
            if digest is not None and index.spelling.get(digest) != found:
                index.spelling.pop(digest, None)
                index.spelling = dict(list(index.spelling.items())[-(KEEP_SPELLING - 1) :])
                index.spelling[digest] = found
                index.changed = True
        return set(found)

    def _search(
        self,
        given: set[str],
        importers: set[str],
        imported_by: Mapping[str, set[str]],
        carriers: set[str] | None = None,
    ) -> set[str] | None:
        """`carriers.reaching` from the given files' carriers (read from them unless passed)."""
        from .carriers import defined, reaching

        carriers = defined(sorted(given), text_of, self.parse) if carriers is None else carriers
        if carriers is None:
            return None
        return reaching(
            carriers, importers, text_of, lambda p: closure({p}, imported_by), self.parse, sorted(given)
        )

    def parse(self, path: str, text: str) -> tuple[ast.Module, frozenset[str]] | None:
        """`carriers.parsed`, keeping each tree in `parses` for the run's build (`lent_parses`)."""
        from .carriers import parsed

        read = parsed(path, text)
        if read is not None:
            self.parses[Path(path)] = (text, *read)
        return read


def _digest(value: object) -> str:
    import hashlib  # OpenSSL's: loaded by the runs that hash (`cache.bytes_hash`)

    return hashlib.sha256(json.dumps(value).encode("utf-8", "surrogateescape")).hexdigest()[:32]


def text_of(path: str) -> str | None:
    """A file's text as the build decodes it; None where it cannot be read or decoded."""
    from .source import decode, regular_bytes

    data = regular_bytes(Path(path))
    try:
        return decode(data) if data is not None else None
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return None
