"""How a lint run's files are cut into slices, and whether workers check them.

A build keeps every tree it parsed until its records are taken, so a large run is checked a
slice at a time (in one process as in workers); files registering through a server parameter
are built with every file that may call them (`coupling`: one group, one slice), and the rest
in contiguous slices sized for memory and for the workers. The plan picks only where files are
checked, never what is found: every slice's records are what one build of every file finds
(`lint_rules.per_file`), which `incremental` unites.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from . import coupling
from .coupling import PREFILTERED_PER_PARSED, coupled_files, coupling_groups

MIN_FILES_PER_JOB = 72
"""Below this many files' worth of parsing per worker (`parsing_work`), forking costs more
than it saves: the coupling plan, forking the workers, and the modules both import, parsed
in each (`benchmarks/README.md`, "Workers for large runs")."""
MAX_GROUP_SHARE = 0.75
"""A coupling group (`coupling.py`: a `register(server)` file and every file that may call
it) is one slice's build. When one holds more than this share of a run's files, the other
slices could save less than parsing their imports again costs: the run is one build."""
SAMPLE = 64
"""How many of a large run's files are read first, to judge how many a build would parse."""
MAX_BYTES_PER_SLICE = 3 * 512 * 1024
"""Source bytes of the given files checked by one build. A build keeps every syntax tree it
parsed until its records are taken, and a tree takes 50 to 65 times the bytes of its source
(about 100 MB for a full slice), so a larger run is checked slice by slice, in one process as
in workers, and each slice's graph is freed (by reference counting: nothing a build makes is
a cycle) before the next one is built. No more slices than memory needs: each one analyses
again what its files import that an earlier slice analysed (a flat tree's shared `deps`
modules, their resolvers and the names read in them)."""
MAX_FILES_PER_SLICE = 1024
"""Given files checked by one build, whatever their size: what a build keeps per file beside
its tree (its module, bindings, spans) bounds a run of many small modules. Trees are bounded
by `MAX_BYTES_PER_SLICE` (a file cap of 256 cut 259 generated modules, 1.3 MiB, in two)."""


def plan(
    origins: Sequence[str], path_of: Mapping[str, Path], workers: int, scan: coupling.Scan | None = None
) -> tuple[list[coupling.Piece], list[list[str]], dict[str, set[str]]] | None:
    """The coupling groups of `origins` and the slices to check them in: each group one slice
    (its files built together, as one build of every file would see them), the other files
    in contiguous slices (`slices`; `free_slices` with `workers`). This process checks the
    slices one after the other (`workers` 1), forked workers side by side; `scan` reads the
    files' imports (`coupling.coupling_groups`).

    None when no grouping holds: a registration of what a loop yields (`coupled_files`), or a
    group of over `MAX_GROUP_SHARE` of the files (its build is nearly one of every file: the
    other slices would only parse its imports again)."""
    from .parallel import chunks

    read = coupling.reader(path_of)
    coupled = coupled_files(origins, path_of, read)
    if coupled is None:
        return None
    # A helper that is coupled itself (`register_tool(server, fn)`) is built in its group.
    helpers = [h for h in coupling.registering_helpers(origins, path_of, read) if h not in coupled]
    plan = coupling_groups(origins, path_of, coupled, helpers, read, scan)
    if not coupled:
        return [], chunks(origins, free_slices(0, slices(origins, path_of), workers)), plan.helpers
    if max(map(len, plan.groups)) > len(origins) * MAX_GROUP_SHARE:
        return None
    # With workers, a group larger than a worker's share of slices may be built in pieces.
    share = max(1.0, len(origins) / (2 * workers))
    pieces: list[coupling.Piece] = []
    for group in plan.groups:
        most = -int(-len(group) // share) if workers > 1 else 1
        if most > 1:
            held = set(group)
            rest = coupling.work((o for o in origins if o not in held), read)
            most = coupling.piece_count(group, rest, read, workers, most)
        pieces += coupling.pieces(group, plan.callers, most)
    needed = slices(plan.free, path_of)
    free = chunks(plan.free, free_slices(len(pieces), needed, workers)) if plan.free else []
    return pieces, [*(p.origins for p in pieces), *free], plan.helpers


def free_slices(groups: int, needed: int, workers: int) -> int:
    """Into how many slices to cut the files in no coupling group, beside `groups` slices of
    groups: `needed` (`slices`) in one process. Workers get two slices each at least, counting
    the groups' (a slow slice does not idle the other worker to the end), and a multiple of
    their number: slices go to whichever worker is free, so one more than a multiple is checked
    by one worker while the others wait (a `dense` tree's group and four slices on two workers:
    one worker checked three). No more than that: each slice analyses again what its files
    import that another slice analysed."""
    if workers == 1:
        return needed
    total = max(groups + needed, 2 * workers)
    return -(-total // workers) * workers - groups


def parsing_work(
    origins: Sequence[str],
    path_of: Mapping[str, Path],
    explicit: set[str],
    read: Callable[[Path], bytes | None] | None = None,
) -> float:
    """About how many files' worth of parsing checking `origins` is, judged on an even sample
    of them (each read with `read`, by default from disk): files named explicitly are parsed,
    walked files only when the prefilter lets them through, and those it turns away count
    `1 / PREFILTERED_PER_PARSED`.

    A tree of files that declare nothing costs less to check in one process than forking
    workers for it does (a copy of the stdlib: 1,790 files, 2 of them past the prefilter).
    The estimate picks only where files are checked, never what is found."""
    from ..resolver_core.prefilter import might_contribute
    from ..resolver_core.source import regular_bytes

    read = read or regular_bytes
    sample = origins[:: max(1, len(origins) // SAMPLE)]
    parsed = 0
    for origin in sample:
        if origin not in explicit:
            data = read(path_of[origin])
            if data is not None and not might_contribute(data):
                continue
        parsed += 1
    share = (parsed + (len(sample) - parsed) / PREFILTERED_PER_PARSED) / len(sample)
    return share * len(origins)


def slices(origins: Sequence[str], path_of: Mapping[str, Path], parsed: float = 1.0) -> int:
    """Into how many slices to cut `origins` (`MAX_FILES_PER_SLICE`, `MAX_BYTES_PER_SLICE`), of
    which about the share `parsed` is parsed (`parsing_work`): the bounds are on what a build
    keeps of its files, and a file the byte prefilter turns away leaves no tree (a copy of the
    stdlib, 1,790 files of which 2 pass, was checked in 21 slices, each planned and built)."""
    size = 0
    for origin in origins:
        with contextlib.suppress(OSError):  # the build reports it
            size += path_of[origin].stat().st_size
    files, size = int(len(origins) * parsed), int(size * parsed)
    return max(1, -(-files // MAX_FILES_PER_SLICE), -(-size // MAX_BYTES_PER_SLICE))
