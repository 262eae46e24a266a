"""Rule documentation, generated from the rule classes: `mcpdeps rule CODE` and `docs/rules.md`.

One source of truth: each rule's summary, explanation and VALID/INVALID
examples (which the test suite lints) become its doc, so the docs cannot
drift from what the rules check. `python -m mcpdeps.lint_rules.docs` rewrites
`docs/rules.md`; a test fails when it is out of date.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .base import Rule

DOC_PATH = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
HOME_URL = "https://pypi.org/project/mcpdeps/"


def rule_url(code: str) -> str:
    """Where a rule's documentation is linked from (SARIF `helpUri`, LSP `codeDescription`)."""
    return f"{HOME_URL}#{code.lower()}"


def _code_block(source: str) -> str:
    return f"```python\n{source.rstrip()}\n```"


def rule_markdown(rule: type[Rule], heading: str = "##", *, details: bool = False) -> str:
    """A rule's page: what it finds, why it matters, an example and how it looks fixed.

    `details`: the "Fix safety" and "Known problems" sections too (docs/rules.md); the terminal's
    `mcpdeps rule` and the agent's explanation keep to the short page."""
    parts = [
        f"{heading} {rule.code} `{rule.name}`",
        f"**Severity:** {rule.severity}{_opt_in(rule)} · **Fix:** {fix_line(rule)}",
        f"**What it finds:** {rule.summary}",
    ]
    if rule.explanation:
        parts.append(f"**Why it matters:** {rule.explanation}")
    if rule.INVALID:
        parts.append(f"**Example** (reported):\n\n{_code_block(rule.INVALID[0])}")
    if rule.VALID:
        parts.append(f"**Fixed** (not reported):\n\n{_code_block(rule.VALID[0])}")
    if details and rule.FIX is not None:
        parts.append(f"**Fix safety:** {fix_safety(rule)}")
    if details and rule.known_problems:
        parts.append(f"**Known problems:** {rule.known_problems}")
    return "\n\n".join(parts) + "\n"


def fix_line(rule: type[Rule]) -> str:
    """How the rule is fixed, in one line, from its `FIX`."""
    fix = rule.FIX
    if fix is None:
        return "manual"
    if fix.docs:
        return fix.docs
    if not fix.safe:
        return f"`mcpdeps lint --diff --unsafe-fixes` offers to {fix.message} (unsafe: it changes behaviour)"
    if fix.availability == "sometimes":
        return f"`mcpdeps lint --fix` repairs {fix.case}; the rest is manual"
    return "`mcpdeps lint --fix` repairs it"


def fix_safety(rule: type[Rule]) -> str:
    """ruff's "Fix safety": whether `--fix` applies the fix, and why it may (or what it changes)."""
    fix = rule.FIX
    assert fix is not None
    if fix.safe:
        when = " where it is offered (the case above)" if fix.availability == "sometimes" else ""
        return f"Safe: `--fix` applies it{when}, and the editor prefers it. {fix.safety_note}".strip()
    return (
        f"{fix.safety_note} Applied only with `--unsafe-fixes`; the editor offers it, never as the "
        "preferred action, and the json/sarif reports do not list it."
    ).strip()


def _fix_column(rule: type[Rule]) -> str:
    """The index's "fix" column: yes, some (only in one case), unsafe, or nothing."""
    fix = rule.FIX
    if fix is None:
        return ""
    if not fix.safe:
        return "unsafe"
    return "some" if fix.availability == "sometimes" else "yes"


def _opt_in(rule: type[Rule]) -> str:
    return "" if rule.enabled_by_default else " (off by default: `extend-select` it)"


def configuration_markdown() -> str:
    """The `[tool.mcpdeps]` keys, from the settings' own declaration (what validates them)."""
    from .config import KEYS, key_name

    rows = "\n".join(f"| `{key_name(key)}` | {key.metadata['description']} |" for key in KEYS)
    return (
        "## Configuration\n\n"
        "`[tool.mcpdeps]` in the nearest `pyproject.toml` above the linted paths (or `mcpdeps.toml`, "
        "or `--config FILE`). Unknown keys and bad values stop the run (exit 2). `--select`, `--exclude` "
        "and `--fail-on` on the command line replace the file's value; `--ignore`, `--extend-select` and "
        "`--extend-exclude` add to it.\n\n"
        "| key | meaning |\n|---|---|\n" + rows + "\n\n"
        '```toml\n[tool.mcpdeps]\nextend-select = ["MCPD1"]\nignore = ["opaque-resolver"]\n'
        'fail-on = "warning"\n\n[tool.mcpdeps.per-file-ignores]\n"tests/*" = ["MCPD111"]\n```\n\n'
        "## Suppressions\n\n"
        "`# mcpdeps: ignore[MCPD104]` (codes or names, comma-separated) or a bare `# mcpdeps: ignore` "
        "silences diagnostics reported on that line; `# mcpdeps: ignore-file[...]` before the first "
        "statement silences them in the whole file. A suppression that silences nothing is reported as "
        "MCPD114, and `--fix` removes it.\n\n"
        "## pre-commit\n\n"
        "```yaml\n- repo: <this repository>\n  rev: <a tag>\n  hooks:\n    - id: mcpdeps-lint\n"
        "    # - id: mcpdeps-fix    # applies the safe fixes first\n```\n\n"
        "The hook follows imports: a problem in a module you did not stage is still reported "
        "(but `--fix` only rewrites the files it was given).\n\n"
    )


def expected_refusals_markdown() -> str:
    """What the refusal rules leave to a test that expects the refusal (`expected_refusals`)."""
    from .expected_refusals import REFUSED_WITH

    caught: dict[tuple[str, ...], list[str]] = {}
    for code, names in REFUSED_WITH.items():
        caught.setdefault(names, []).append(code)
    listed = "; ".join(
        f"{', '.join(codes)}: {', '.join(f'`{n}`' for n in names)}" for names, codes in caught.items()
    )
    return (
        "## Refusals a test expects\n\n"
        "The MCPD0xx rules report what the SDK refuses when a tool is registered. A server's own "
        "tests register such tools on purpose inside `with pytest.raises(X):` or `with "
        "self.assertRaises(X):`; a report located inside such a block is not made when `X` (or "
        f"one of a tuple) catches what the SDK raises there ({listed}). Any other exception there "
        "does not catch the refusal (the test fails), and the report stays; so do warnings.\n\n"
        "**Known problems:** only reports located inside the block are left out: a resolver "
        "defined outside it (at the test module's top level) is still reported at its "
        "parameter; an exception imported under another name (`InvalidSignature as Refused`) "
        "is not recognised.\n\n"
    )


def document() -> str:
    """The whole of docs/rules.md."""
    from .registry import ALL_RULES

    index = "\n".join(
        f"| [{r.code}](#{r.code.lower()}-{r.name}) | `{r.name}` | {r.severity}{'' if r.enabled_by_default else ' (opt-in)'} | "
        f"{_fix_column(r)} | {r.summary.replace('|', '&#124;')} |"
        for r in ALL_RULES
    )
    head = (
        "# mcpdeps rules\n\n"
        "<!-- Generated by `python -m mcpdeps.lint_rules.docs` from the rule classes; do not edit. -->\n\n"
        "Select or ignore rules by code, code prefix (`MCPD1`) or name, on the command line "
        "(`--select`, `--ignore`, `--extend-select`) or in `[tool.mcpdeps]`; silence one line with "
        "`# mcpdeps: ignore[CODE]`, a file with `# mcpdeps: ignore-file[CODE]` at its top.\n\n"
        "| code | name | severity | fix | what it finds |\n|---|---|---|---|---|\n"
    )
    return (
        head
        + index
        + "\n\n"
        + expected_refusals_markdown()
        + configuration_markdown()
        + "\n".join(rule_markdown(r, details=True) for r in ALL_RULES)
    )


def main(argv: list[str]) -> int:
    """Write docs/rules.md (or, with `--check`, exit 1 when it is out of date)."""
    text = document()
    if "--check" in argv:
        current = DOC_PATH.read_text(encoding="utf-8") if DOC_PATH.exists() else ""
        if current != text:
            sys.stderr.write(f"{DOC_PATH} is out of date: run `python -m mcpdeps.lint_rules.docs`.\n")
            return 1
        return 0
    DOC_PATH.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
