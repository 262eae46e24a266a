"""`suggest.closest`: the one close name of every "did you mean" (lint messages, rule
selectors, `call`'s tool names, paths), the same whichever candidates are aligned."""

from __future__ import annotations

import difflib
import random
import string

import pytest
from mcpdeps.resolver_core.suggest import CUTOFF, _edits, closest


def _every_candidate_aligned(name: str, candidates: list[str]) -> str | None:
    """The definition: the candidate fewest edits away when that is one slip for the name's
    length, else difflib's closest above the cut-off (case ignored)."""
    pool = [c for c in dict.fromkeys(candidates) if c != name]
    if not pool:
        return None
    best = min(pool, key=lambda c: (_edits(name.lower(), c.lower(), 99), c))
    if _edits(name.lower(), best.lower(), 99) <= (max(1, len(name) // 5) if len(name) >= 3 else 0):
        return best
    lowered = {c.lower(): c for c in reversed(pool)}
    found = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=CUTOFF)
    return lowered[found[0]] if found else None


@pytest.mark.parametrize(
    ("name", "candidates", "expected"),
    [
        ("titel", ["title", "user"], "title"),
        ("mpc", ["map", "mcp"], "mcp"),  # two letters swapped are one slip; `map` is two
        ("user", ["title"], None),
        ("Titel", ["title"], "title"),
        ("ab", ["ac"], None),  # two letters: no slip counts, difflib's 0.5 is under the cut-off
        ("customer_identifier", ["customer_identifer", "customer"], "customer_identifer"),
        ("x", [], None),
        ("title", ["title"], None),
    ],
)
def test_the_close_name(name: str, candidates: list[str], expected: str | None) -> None:
    assert closest(name, candidates) == expected


def test_the_same_name_as_aligning_every_candidate() -> None:
    """Random typos of random names against a NameError's pool: the names a slip away are
    the only ones aligned, and the answer is the one aligning all of them gives."""
    rng = random.Random(28)
    letters = string.ascii_letters[:30] + "_İß"
    for _ in range(1500):
        pool = ["".join(rng.choices(letters, k=rng.randint(1, 14))) for _ in range(rng.randint(0, 40))]
        base = rng.choice(pool) if pool and rng.random() < 0.7 else "".join(rng.choices(letters, k=6))
        typo = list(base)
        for _ in range(rng.randint(0, 3)):
            at = rng.randrange(len(typo) + 1)
            kind = rng.randrange(3)
            if kind == 0:
                typo.insert(at, rng.choice(letters))
            elif kind == 1 and typo:
                del typo[min(at, len(typo) - 1)]
            elif typo:
                typo[min(at, len(typo) - 1)] = rng.choice(letters)
        name = "".join(typo) or "a"
        assert closest(name, pool) == _every_candidate_aligned(name, pool), (name, pool)
