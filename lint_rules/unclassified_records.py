"""Whether a report could read what a companion's unclassified tools would find.

`lint FILE` leaves some of its companions' tools unclassified (`resolver_core/unclassified.py`):
those written in modules that import no given file, and read only what those modules import.
Nothing they would find is located in a given file, so their findings never reach the report
(`per_file.combine` keeps a companion's findings only where they are located in a given file).
Two things of theirs still may:

- the resolvers they run: a finding about a shared resolver (tagged with its key) is reported by
  the first file, in the run's order, whose tools run it (`per_file.owners`);
- their registrations: a tool whose classification fails (`builder.TOO_DEEP`) is not
  registered, which is known only by classifying it, and MCPD110 reads registrations.

`needs_classified` says when either could change the report; the run then checks those records
again, classified (`incremental.analyse`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .per_file import FileRecord


def needs_classified(order: Sequence[str], records: dict[str, FileRecord], given: Collection[str]) -> bool:
    """Whether `combine`'s report of `given` could differ were the unclassified records
    (`FileRecord.unclassified`) of `order` classified.

    A finding about resolver `k` that the report may show (in a given file's record, or located
    in a given file) is reported when its file is the first in `order` whose tools run `k`. A
    file before it known to run `k` (an unclassified record's other tools count: what they run
    is known) decides it either way; otherwise an unclassified record before it might run `k`,
    and only its classification tells. A duplicate tool name is reported where it is located:
    only a name registered both in a given file and by an unclassified record may move."""
    loose = [i for i, o in enumerate(order) if o in records and records[o].unclassified]
    if not loose:
        return False
    first_loose = loose[0]
    runs: set[str] = set()
    """The resolvers the files before `origin` are known to run."""
    for at, origin in enumerate(order):
        rec = records.get(origin)
        if rec is None:
            continue
        if at > first_loose:
            whole = origin in given
            for data, key in rec.diagnostics:
                if key is not None and key not in runs and (whole or data["path"] in given):
                    return True
        runs.update(rec.consumed)
    return _names_shared(order, records, given)


def _names_shared(order: Sequence[str], records: dict[str, FileRecord], given: Collection[str]) -> bool:
    """Whether a tool name on a server is registered both in a given file and by an
    unclassified record."""
    located: set[tuple[str, str]] = set()
    loose: set[tuple[str, str]] = set()
    for origin in order:
        rec = records.get(origin)
        for reg in rec.registrations if rec is not None else ():
            if any(span is not None and span.path in given for span in (reg.registration, reg.span)):
                located.add((reg.server, reg.name))
            if rec is not None and rec.unclassified:
                loose.add((reg.server, reg.name))
    return not located.isdisjoint(loose)
