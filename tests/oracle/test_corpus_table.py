"""The corpus README's counts per rule are those of the case headers (regenerate, don't hand-edit)."""

from __future__ import annotations

import corpus_table


def test_every_case_has_a_known_header() -> None:
    headers = corpus_table.case_headers()
    assert len(headers) >= 90
    unknown = {case: codes for case, codes in headers.items() if set(codes) - set(corpus_table.RULES)}
    assert unknown == {}


def test_every_registration_rule_has_cases() -> None:
    counted = {code for codes in corpus_table.case_headers().values() for code in codes}
    assert counted == set(corpus_table.RULES)


def test_readme_is_up_to_date() -> None:
    expected = corpus_table.render(corpus_table.case_headers())
    actual = corpus_table.README.read_text(encoding="utf-8") if corpus_table.README.exists() else ""
    assert actual == expected, "tests/corpus/README.md is stale: run python tests/oracle/corpus_table.py"
