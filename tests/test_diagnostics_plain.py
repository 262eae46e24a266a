"""Diagnostics as plain JSON data, checked against pydantic.

`resolver_core.diagnostics.plain` / `from_plain` carry diagnostics in and out of the lint
cache and into the json/sarif documents without pydantic (loading it, and building its
validator, was a quarter of a run that re-checks one file). They must be exactly what
pydantic's `TypeAdapter` dumps (`dump_python(mode="json")`, but the internal `_resolver`)
and validates, for every diagnostic, and refuse what is not one (a damaged cache).
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st
from mcpdeps.lint_rules import lint
from mcpdeps.lint_rules.config import default_config, load_config
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
from pydantic import TypeAdapter

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


ADAPTERS = {model: TypeAdapter(model) for model in KINDS}


def _dumped(d: Diagnostic) -> dict:
    data = ADAPTERS[Diagnostic].dump_python(d, mode="json")
    del data["_resolver"]
    return data


def _validated(data: dict) -> Diagnostic:
    """What pydantic makes of the JSON text of `data`, strictly (no coercion)."""
    return ADAPTERS[Diagnostic].validate_json(json.dumps(data), strict=True)


def test_the_kinds_name_every_field_in_order() -> None:
    for model, kinds in KINDS.items():
        names = [f.name for f in dataclasses.fields(model) if f.name != "_resolver"]
        assert list(kinds) == names, model.__name__


@settings(max_examples=300, deadline=None)
@given(diagnostic)
def test_plain_is_pydantics_dump_and_from_plain_its_validation(d: Diagnostic) -> None:
    data = plain(d)
    assert data == _dumped(d)
    assert json.dumps(data) == json.dumps(_dumped(d))  # same key order, same bytes
    back = from_plain(Diagnostic, json.loads(json.dumps(data)))
    assert back == _validated(data) == d
    assert d.contract_dict() == {k: v for k, v in _dumped(d).items() if k != "help"}


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
        _validated(data)


def test_a_key_more_is_refused_too() -> None:
    data = {**_sample(), "extra": 1}
    with pytest.raises(NotPlain):
        from_plain(Diagnostic, data)


def test_the_default_config_is_the_validated_one(tmp_path: Path) -> None:
    """The built-in settings are what validating an empty table gives."""
    (tmp_path / "mcpdeps.toml").write_text("")
    assert dataclasses.replace(load_config(tmp_path / "mcpdeps.toml"), path=None) == default_config()
    assert default_config().path is None


def test_a_run_without_a_config_file_never_imports_pydantic(tmp_path: Path) -> None:
    """Diagnostics are dataclasses and the built-in settings are not validated: cold or warm,
    in every format, a project without a config file costs no pydantic import (a quarter of
    a run that re-checks one file). A config file is validated with it."""
    (tmp_path / "server.py").write_text(
        "from mcp.server.mcpserver import MCPServer\nmcp = MCPServer('x')\n\n@mcp.tool\ndef t(_x: int) -> int:\n    return 1\n"
    )
    probe = (
        "import sys\nfrom mcpdeps.cli.main import main\ntry:\n    main()\nfinally:\n"
        "    sys.stderr.write(str(sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'pydantic_core'})))\n"
    )
    for fmt in ("concise", "json", "sarif", "full", "github"):
        argv = [sys.executable, "-c", probe, "lint", "--format", fmt, "server.py"]
        for run in ("cold", "warm", "cold, no cache"):
            done = subprocess.run(
                [*argv, "--no-cache"] if run == "cold, no cache" else argv,
                cwd=tmp_path,
                capture_output=True,
                text=True,
                check=False,
            )
            assert done.returncode == 1, done.stderr
            assert done.stderr.endswith("[]"), (fmt, run, done.stderr)
    (tmp_path / "mcpdeps.toml").write_text('fail-on = "warning"\n')
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.stderr.endswith("['pydantic', 'pydantic_core']"), done.stderr


def test_every_diagnostic_and_fix_the_rules_build_is_valid(tmp_path: Path) -> None:
    """The rules build their diagnostics without validating them (dataclasses): pydantic
    checks here what they build, over every rule's INVALID examples and the whole
    corpus, with every fix."""
    examples = []
    for i, source in enumerate(source for rule in ALL_RULES for source in rule.INVALID):
        (tmp_path / f"example_{i}").mkdir()
        examples.append(tmp_path / f"example_{i}" / "server.py")
        examples[-1].write_text(source, encoding="utf-8")
    built = [
        d
        for paths in (examples, [REPO / "tests" / "corpus"], [REPO / "examples"])
        for d in lint(paths, select=["ALL"], fixes=True).diagnostics
    ]
    assert {d.code for d in built} >= {rule.code for rule in ALL_RULES}
    assert any(d.fix is not None for d in built) and any(d.related for d in built)
    for d in built:
        assert plain(_validated(plain(d))) == plain(d), d
