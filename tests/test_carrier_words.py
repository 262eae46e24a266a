"""The word tests the search of carriers runs on every importer (`carriers.spells`,
`carriers._passes`) find exactly what their regular expressions find.

They are written as `str.find` and a look at each occurrence's neighbours, because the
patterns open with a look-behind or a character class, which `re` cannot search for by a
literal prefix. The patterns stay here as the definition they are held to, on texts made of
the characters that decide them: word characters of every kind `re` knows (letters, digits,
`_`, accented and other scripts' letters and digits), dots, the openings and closings, blanks
of several kinds, and a middle dot (a character Python allows in names that `\\w` does not match).
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from mcpdeps.resolver_core.carriers import _passes, spells

_ALPHABET = "ab_1é٣ｒ·.[](),= \t\n\xa0\u2003x"
_texts = st.text(alphabet=_ALPHABET, max_size=40)
_words = st.text(alphabet="ab_1é٣·", min_size=1, max_size=4)


def _spells_by_pattern(text: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def _passes_by_pattern(text: str, names: set[str]) -> bool:
    return any(re.search(rf"[\[(,=]\s*(?:\w+\.)*{re.escape(n)}\s*[\]),]", text) is not None for n in names)


@settings(max_examples=3000, deadline=None)
@given(_texts, _words)
def test_spells_finds_what_its_pattern_finds(text: str, word: str) -> None:
    assert spells(text, word) == _spells_by_pattern(text, word)


@settings(max_examples=3000, deadline=None)
@given(_texts, st.sets(_words, min_size=1, max_size=3))
def test_passes_finds_what_its_pattern_finds(text: str, names: set[str]) -> None:
    assert _passes(text, names) == _passes_by_pattern(text, names)


def test_the_shapes_that_decide_them() -> None:
    """Inside a longer word, at either end of the text, after dotted names, across blanks."""
    assert not spells("Repo10 = Repo12", "Repo1") and spells("x = Repo10 or Repo1", "Repo1")
    assert spells("Repo1", "Repo1") and not spells("_Repo1", "Repo1") and spells("a·Repo1", "Repo1")
    assert _passes("register(mcp, app.tools)", {"tools"}) and _passes("x = [\n  tools ,\n]", {"tools"})
    assert not _passes("register(mcp, app.mytools)", {"tools"}) and not _passes("(.tools)", {"tools"})
    assert not _passes("f(tools.x)", {"tools"}) and _passes("modules=[tools, more]", {"more", "tools"})
