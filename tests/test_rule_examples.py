"""Every rule's own examples, and silence on correct code.

Each rule class carries `INVALID` and `VALID` sources (the docs show them, `mcpdeps rule`
prints them). Here each one is linted as a `server.py` of its own: an invalid example
must produce its rule's code, a valid one must produce no diagnostic at all (from any
rule, so an example never teaches a pattern another rule flags). Then the correct
corpus cases (`# expect: ok`) and `examples/bookshop` must not trigger any run-time
trap rule (MCPD1xx): a warning on correct code is a bug.

Linting is in-process (`lint_rules.lint`): it imports neither `mcp` nor the example.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest
from conftest import EXAMPLES, REPO
from mcpdeps.lint_rules import lint
from mcpdeps.lint_rules.base import Rule
from mcpdeps.lint_rules.registry import ALL_RULES
from mcpdeps.resolver_core.diagnostics import Diagnostic

CORPUS = REPO / "tests" / "corpus"


def _examples(kind: str) -> list[tuple[type[Rule], int, str]]:
    return [(rule, i, source) for rule in ALL_RULES for i, source in enumerate(getattr(rule, kind))]


def _ids(cases: list[tuple[type[Rule], int, str]]) -> list[str]:
    return [f"{rule.code}-{i}" for rule, i, _ in cases]


def _lint_source(tmp_path: Path, source: str) -> list[tuple[str, int, str]]:
    """Every rule, the opt-in ones included: no example may teach what an opt-in rule flags."""
    return [(d.code, d.line, d.message) for d in _lint_all(tmp_path, source)]


def _lint_all(tmp_path: Path, source: str) -> list[Diagnostic]:
    path = tmp_path / "server.py"
    path.write_text(source, encoding="utf-8")
    return lint([path], select=["ALL"]).diagnostics


INVALID = _examples("INVALID")
VALID = _examples("VALID")


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_every_rule_documents_itself_with_examples(rule: type[Rule]) -> None:
    assert rule.INVALID, f"{rule.code} has no INVALID example"
    assert rule.VALID, f"{rule.code} has no VALID example"
    assert rule.summary and rule.explanation, f"{rule.code} needs a summary and an explanation"
    expected = "error" if rule.code.startswith("MCPD0") or rule.code == "MCPD101" else None
    if expected is not None:
        assert rule.severity == expected
    if rule.code == "MCPD111":
        assert rule.severity == "info"
    elif "MCPD102" <= rule.code <= "MCPD112":
        assert rule.severity == "warning"


@pytest.mark.parametrize(("rule", "index", "source"), INVALID, ids=_ids(INVALID))
def test_invalid_example_reports_its_rule(rule: type[Rule], index: int, source: str, tmp_path: Path) -> None:
    found = _lint_source(tmp_path, source)
    assert rule.code in {code for code, _, _ in found}, f"{rule.code} INVALID[{index}] gave {found}"


@pytest.mark.parametrize(("rule", "index", "source"), VALID, ids=_ids(VALID))
def test_valid_example_is_silent(rule: type[Rule], index: int, source: str, tmp_path: Path) -> None:
    assert _lint_source(tmp_path, source) == []


def _correct_cases() -> list[Path]:
    cases = sorted(p.parent for p in CORPUS.glob("*/*/server.py") if p.read_text().startswith("# expect: ok"))
    return cases


CORRECT = _correct_cases()


def test_the_correct_corpus_is_not_empty() -> None:
    assert len(CORRECT) > 40


@pytest.fixture(scope="module")
def traps_by_case() -> dict[Path, list[Diagnostic]]:
    """The trap rules' findings in the correct cases, from one run over all of them.

    One run, not one per case: each run also looks through the whole repository for files
    importing its case (`lint deps.py` reports what their tools break), and the cases are
    separate projects that one run keeps apart (`test_oracle.py` holds it to each alone)."""
    found: dict[Path, list[Diagnostic]] = {case: [] for case in CORRECT}
    for d in lint(CORRECT, select=["MCPD1"], cwd=REPO).diagnostics:
        case = next((c for c in CORRECT if (REPO / d.path).is_relative_to(c)), REPO)
        found.setdefault(case, []).append(d)
    return found


@pytest.mark.parametrize("case", CORRECT, ids=[c.relative_to(CORPUS).as_posix() for c in CORRECT])
def test_no_runtime_trap_on_correct_code(case: Path, traps_by_case: dict[Path, list[Diagnostic]]) -> None:
    found = traps_by_case[case]
    assert [(d.code, d.line, d.message) for d in found if d.code != "MCPD113"] == []


def test_no_runtime_trap_outside_the_correct_cases(traps_by_case: dict[Path, list[Diagnostic]]) -> None:
    """A finding the run located in no case's folder (a file importing one) is a trap too."""
    outside = traps_by_case.get(REPO, [])
    assert [(d.path, d.code, d.line) for d in outside if d.code != "MCPD113"] == []


def test_the_bookshop_example_is_entirely_clean() -> None:
    assert lint([EXAMPLES / "bookshop"]).diagnostics == []


def test_trap_severities_drive_the_cli_exit_code(tmp_path: Path) -> None:
    """MCPD101 is an error (exit 1); the other traps only warn (exit 0 by default)."""
    import json

    from conftest import run_mcpdeps
    from mcpdeps.lint_rules.registry import find_rule

    hidden = tmp_path / "hidden" / "server.py"
    warned = tmp_path / "warned" / "server.py"
    for path, source in (
        (hidden, find_rule("MCPD101").INVALID[0]),
        (warned, find_rule("MCPD107").INVALID[0]),
    ):
        path.parent.mkdir()
        path.write_text(source, encoding="utf-8")
    assert run_mcpdeps("lint", "--no-cache", warned).returncode == 0
    both = run_mcpdeps("lint", "--no-cache", "--format", "json", hidden, warned)
    assert both.returncode == 1
    assert [(d["code"], d["name"], d["severity"]) for d in json.loads(both.stdout)["diagnostics"]] == [
        ("MCPD101", "hidden-resolve", "error"),
        ("MCPD107", "aliased-tool-argument", "warning"),
    ]


def _tools(source: str) -> list[str]:
    return re.findall(r"@mcp\.(?:tool|prompt)(?:\([^)]*\))?\n(?:async )?def (\w+)", source)


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_each_fixed_example_is_its_invalid_example_fixed(rule: type[Rule]) -> None:
    """`mcpdeps rule` shows INVALID[0] as "reported" and VALID[0] as "Fixed": the same code, repaired."""
    reported, fixed = rule.INVALID[0], rule.VALID[0]
    assert difflib.SequenceMatcher(None, reported, fixed).ratio() >= 0.5, (reported, fixed)
    assert _tools(reported) == _tools(fixed)
