"""Generated from the rules' own INVALID examples (Fixit's `Invalid(..., expected_replacement=)`).

For every example of every rule: lint it, the rule reports it exactly where `at` says; ask
its fix (the unsafe ones too, as `--unsafe-fixes` does), it gives exactly the `fixed` text,
or none when the example says none; the fixed text lints clean of that rule and imports under
the real SDK. A rule with a fix shows it on at least one example. Adding an example or a rule
adds its cases here.

More of the SDK's side: `tests/test_fix_rules.py` (each safe fix through `lint --fix`, then
the fixed server called through the real `mcp.Client`) and `tests/test_trust_fixes.py` (the
unsafe MCPD2xx fixes).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from mcpdeps.lint_rules import lint
from mcpdeps.lint_rules.base import Invalid, Rule
from mcpdeps.lint_rules.fixes import FixCache
from mcpdeps.lint_rules.fixes.edits import apply_edits
from mcpdeps.lint_rules.registry import ALL_RULES
from mcpdeps.resolver_core.diagnostics import Diagnostic

EXAMPLES = [
    pytest.param(rule, example, id=f"{rule.code}-{i}")
    for rule in ALL_RULES
    for i, example in enumerate(rule.INVALID)
]


def _reported(tmp_path: Path, source: str, code: str) -> tuple[list[Diagnostic], dict[str, str]]:
    path = tmp_path / "server.py"
    path.write_text(source, encoding="utf-8")
    result = lint([path], select=["ALL"], cwd=tmp_path)
    texts = {p: info.text for p, info in result.graph.sources.items() if info.text is not None}
    return [d for d in result.diagnostics if d.code == code], texts


@pytest.mark.parametrize(("rule", "example"), EXAMPLES)
def test_invalid_example_is_reported_there_and_fixed_as_it_says(
    rule: type[Rule], example: Invalid, tmp_path: Path
) -> None:
    assert isinstance(example, Invalid), f"{rule.code}: write INVALID examples as Invalid(source, at=...)"
    found, texts = _reported(tmp_path, example, rule.code)
    assert found, f"{rule.code} does not report its example"
    assert {(d.line, d.column, d.end_line, d.end_column) for d in found} == {example.at}

    fix = FixCache(texts.get, unsafe=True).fix_for(found[0])
    fixed = apply_edits(example, fix.edits) if fix is not None and fix.edits else None
    assert fixed == example.fixed
    if fixed is None:
        return
    assert fix is not None and rule.FIX is not None
    if found[0].fix is None:  # computed by the rule's fixer, under the rule's message
        assert fix.message == rule.FIX.message
    again, _ = _reported(tmp_path, fixed, rule.code)
    assert again == [], f"{rule.code}: the fixed example is still reported"


FIXED = [
    pytest.param(rule, example, id=p.id) for p in EXAMPLES for rule, example in [p.values] if example.fixed
]


@pytest.mark.parametrize(("rule", "example"), FIXED)
def test_the_sdk_registers_each_fixed_example(rule: type[Rule], example: Invalid, tmp_path: Path) -> None:
    """The oracle's side: the fixed example imports under the real SDK and lists its tools (in a
    fresh interpreter); where the SDK refused the example (an MCPD0xx error), it now accepts it."""
    from new_helpers import sdk_probe

    assert example.fixed is not None
    server = tmp_path / "server.py"
    server.write_text(example.fixed, encoding="utf-8")
    assert sdk_probe(server)["tools"]


@pytest.mark.parametrize("rule", [r for r in ALL_RULES if r.FIX is not None], ids=lambda r: r.code)
def test_a_rule_with_a_fix_shows_it_on_an_example(rule: type[Rule]) -> None:
    assert any(example.fixed is not None for example in rule.INVALID)


@pytest.mark.parametrize("rule", [r for r in ALL_RULES if r.FIX is None], ids=lambda r: r.code)
def test_a_rule_without_a_fix_promises_none(rule: type[Rule]) -> None:
    assert all(example.fixed is None for example in rule.INVALID)


def _broken(*_: object) -> None:
    raise ValueError("a fixer's bug")


@pytest.mark.parametrize("path", ["fixer", "splice"])
def test_a_fixers_bug_is_an_internal_error_naming_the_rule_and_the_file(
    path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refusal is a quiet "no fix" (`test_fix_rules.REFUSED`); an exception is a bug, said as one."""
    from conftest import run_mcpdeps
    from mcpdeps.lint_rules.registry import find_rule

    rule = find_rule("MCPD003")
    assert rule.FIX is not None
    broken = f"{__name__}:_broken"
    spec = replace(rule.FIX, fixer=broken) if path == "fixer" else replace(rule.FIX, splice=broken)
    if path == "fixer":
        spec = replace(spec, splice=None)
    monkeypatch.setattr(rule, "FIX", spec)
    server = tmp_path / "server.py"
    server.write_text(rule.INVALID[0], encoding="utf-8")
    proc = run_mcpdeps("lint", "--no-cache", "--fix", "server.py", cwd=tmp_path)
    assert proc.returncode == 2
    assert (
        "internal error: FixerBug: the fix of MCPD003 failed on server.py:11: ValueError: a fixer's bug"
        in proc.stderr
    )
    assert server.read_text(encoding="utf-8") == rule.INVALID[0]
