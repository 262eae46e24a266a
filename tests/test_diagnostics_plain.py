"""Diagnostics as plain JSON data without pydantic's validator (issue 16).

`resolver_core.diagnostics.plain` / `from_plain` carry diagnostics in and out of the lint
cache and into the json/sarif documents; building pydantic's validator and serializer for
that was a tenth of a warm run. They must be exactly `model_dump(mode="json")` and
`model_validate` on every diagnostic, and refuse what is not one (a damaged cache).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st
from mcpdeps.lint_rules import lint
from mcpdeps.lint_rules.config import LintConfig, default_config
from mcpdeps.lint_rules.registry import ALL_RULES
from mcpdeps.resolver_core.diagnostics import (
    KINDS,
    SEVERITY_RANK,
    Diagnostic,
    Edit,
    Fix,
    NotPlain,
    Related,
    from_plain,
    plain,
)

text = st.text(max_size=12)
number = st.integers(min_value=0, max_value=10**6)
related = st.builds(Related, path=text, line=number, column=number, message=text)
edit = st.builds(
    Edit, path=text, line=number, column=number, end_line=number, end_column=number, content=text
)
fix = st.builds(Fix, message=text, edits=st.lists(edit, max_size=3))
diagnostic = st.builds(
    Diagnostic,
    code=text,
    name=text,
    severity=st.sampled_from(sorted(SEVERITY_RANK)),
    message=text,
    path=text,
    line=number,
    column=number,
    end_line=number,
    end_column=number,
    tool=st.none() | text,
    related=st.lists(related, max_size=3),
    fix=st.none() | fix,
    help=st.none() | text,
)


def test_the_kinds_name_every_field_in_order() -> None:
    for model, kinds in KINDS.items():
        assert list(kinds) == list(model.model_fields), model.__name__


@settings(max_examples=300, deadline=None)
@given(diagnostic)
def test_plain_is_model_dump_and_from_plain_is_model_validate(d: Diagnostic) -> None:
    data = plain(d)
    assert data == d.model_dump(mode="json")
    assert json.dumps(data) == json.dumps(d.model_dump(mode="json"))  # same key order, same bytes
    back = from_plain(Diagnostic, json.loads(json.dumps(data)))
    assert back == Diagnostic.model_validate(data) == d
    assert d.contract_dict() == d.model_dump(mode="json", exclude={"help"})


def _sample() -> dict:
    return plain(
        Diagnostic(
            code="MCPD001",
            name="resolver-cycle",
            severity="error",
            message="m",
            path="a.py",
            line=1,
            column=2,
            end_line=1,
            end_column=3,
            related=[Related(path="b.py", line=4, column=5, message="r")],
            fix=Fix(
                message="f", edits=[Edit(path="a.py", line=1, column=2, end_line=1, end_column=3, content="")]
            ),
        )
    )


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("line"),
        lambda d: d.update(line="1"),
        lambda d: d.update(line=True),
        lambda d: d.update(severity="fatal"),
        lambda d: d.update(related={"path": "x"}),
        lambda d: d["related"][0].update(line=None),
        lambda d: d.update(fix=[]),
        lambda d: d["fix"]["edits"][0].pop("content"),
        lambda d: d.update(tool=3),
    ],
)
def test_what_is_not_a_diagnostic_is_refused(damage) -> None:  # type: ignore[no-untyped-def]
    data = _sample()
    from_plain(Diagnostic, data)
    damage(data)
    with pytest.raises(NotPlain):
        from_plain(Diagnostic, data)
    with pytest.raises(ValueError):  # pydantic refuses it too
        Diagnostic.model_validate(data, strict=True)


def test_a_key_more_is_refused_too() -> None:
    data = {**_sample(), "extra": 1}
    with pytest.raises(NotPlain):
        from_plain(Diagnostic, data)


def test_the_default_config_is_the_validated_one() -> None:
    assert default_config() == LintConfig()
    assert default_config().model_dump() == LintConfig().model_dump()
    assert default_config().path is None


def test_a_warm_run_builds_no_pydantic_validator(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Nothing to check, no config file: no model is validated, so pydantic's plugin loader
    (and the schema builder behind it) never loads."""
    (tmp_path / "server.py").write_text(
        "from mcp.server.mcpserver import MCPServer\nmcp = MCPServer('x')\n\n@mcp.tool\ndef t(_x: int) -> int:\n    return 1\n"
    )
    probe = (
        "import sys\nfrom mcpdeps.cli.main import main\ntry:\n    main()\nfinally:\n"
        "    from mcpdeps.resolver_core.diagnostics import KINDS\n"
        "    from mcpdeps.lint_rules.config import LintConfig\n"
        "    built = [m.__name__ for m in (*KINDS, LintConfig) if m.__pydantic_complete__]\n"
        "    sys.stderr.write(str(built + ['_loader'] * ('pydantic.plugin._loader' in sys.modules)))\n"
    )
    for fmt in ("concise", "json", "sarif", "full", "github"):
        argv = [sys.executable, "-c", probe, "lint", "--format", fmt, "server.py"]
        subprocess.run(argv, cwd=tmp_path, capture_output=True, check=False)  # fills the cache
        warm = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, check=False)
        assert warm.returncode == 1, warm.stderr
        assert warm.stderr.endswith("[]"), (fmt, warm.stderr)


def test_every_diagnostic_and_fix_the_rules_build_is_valid(tmp_path: Path) -> None:
    """The rules build their diagnostics without validating them (`model_construct`):
    pydantic checks here what they build, over every rule's INVALID examples and the whole
    corpus, with every fix."""
    examples = []
    for i, source in enumerate(source for rule in ALL_RULES for source in rule.INVALID):
        (tmp_path / f"example_{i}").mkdir()
        examples.append(tmp_path / f"example_{i}" / "server.py")
        examples[-1].write_text(source, encoding="utf-8")
    built = [
        d
        for paths in (examples, [REPO / "tests" / "corpus"], [REPO / "examples"])
        for d in lint(paths, fixes=True).diagnostics
    ]
    assert {d.code for d in built} >= {rule.code for rule in ALL_RULES}
    assert any(d.fix is not None for d in built) and any(d.related for d in built)
    for d in built:
        assert plain(Diagnostic.model_validate(plain(d))) == plain(d), d
