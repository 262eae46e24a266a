""" "Did you mean ...?": the one close name, for every message that names something unknown.

Shared by lint rules (a resolver parameter's misspelt tool argument), rule selectors, server specs,
`call`'s tool names and file paths, so every typo is answered the same way. Pure
library: a thin layer over `difflib.get_close_matches` with one cut-off for all.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

CUTOFF = 0.75
"""How alike two names must be (difflib's ratio): `titel`/`title` 0.8, `user`/`title` 0.2."""


def closest(name: str, candidates: Iterable[str], *, cutoff: float = CUTOFF) -> str | None:
    """The candidate most like `name`, or None when none is close enough to be a typo of it.

    One slip of the finger (a letter missing, added, replaced, or two swapped: `mpc`) counts
    for names of three letters or more; otherwise difflib's ratio must reach `cutoff`. Case is ignored when comparing.
    """
    pool = [c for c in dict.fromkeys(candidates) if c != name]
    if not pool:
        return None
    wanted = name.lower()
    slips = max(1, len(name) // 5) if len(name) >= 3 else 0
    # Each slip changes the length by one at most: only names that much longer or shorter can
    # be that close (a misspelt name is asked about among every global and builtin).
    near = [
        (_edits(wanted, low, slips), c) for c in pool if abs(len(low := c.lower()) - len(wanted)) <= slips
    ]
    if near and (best := min(near))[0] <= slips:
        return best[1]
    import difflib  # (only for a name that is not one slip away: every start-up imports this module)

    lowered = {c.lower(): c for c in reversed(pool)}
    found = difflib.get_close_matches(wanted, list(lowered), n=1, cutoff=cutoff)
    return lowered[found[0]] if found else None


def _edits(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (insertions, deletions, substitutions, adjacent swaps),
    or some distance above `limit` once it is sure to exceed it: a row's least cost never falls.
    Lengths more than 3 apart answer their difference, whatever the limit."""
    if abs(len(a) - len(b)) > min(3, limit):
        return abs(len(a) - len(b))
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, previous2[j - 2] + 1)
            row.append(cost)
        if (least := min(row)) > limit:
            return least
        previous2, previous = previous, row
    return previous[-1]


def did_you_mean(name: str, candidates: Iterable[str], *, cutoff: float = CUTOFF) -> str:
    """` (did you mean 'title'?)`, or an empty string when nothing is close."""
    found = closest(name, candidates, cutoff=cutoff)
    return f" (did you mean {found!r}?)" if found is not None else ""


def did_you_mean_path(typed: str, cwd: Path) -> str:
    """` (did you mean 'shop/server.py'?)` from the names in the typed path's folder, when it exists."""
    folder, name = os.path.split(typed)
    try:
        names = [e.name for e in os.scandir(cwd / folder)] if (cwd / folder).is_dir() else []
    except OSError:
        return ""
    found = closest(name, names)
    return f" (did you mean {os.path.join(folder, found)!r}?)" if found is not None else ""
