"""`resolver_core/patterns.py`: a pattern declared with `compiled_when_used` is compiled the
first time a run asks for it, once, and is then the same pattern."""

from __future__ import annotations

import re

import pytest
from mcpdeps.resolver_core import patterns


def test_a_pattern_is_compiled_when_first_used_and_once(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[str] = []
    real = re.compile

    def counted(pattern: str, flags: int = 0) -> re.Pattern[str]:
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(re, "compile", counted)
    word = patterns.compiled_when_used(r"\w+", re.ASCII)
    assert compiled == [], "nothing compiled where it is declared"
    assert word().findall("é ab c") == ["ab", "c"]
    assert word() is word() and compiled == [r"\w+"]
