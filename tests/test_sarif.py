"""`--format sarif` against Microsoft's real validator (`@microsoft/sarif-multitool validate`).

The validator is an npm package with a self-contained .NET build per platform (no
.NET install needed); it is installed once into the git-ignored `.mcpdeps_cache/npm-tools/`
by the shared `npm_tools` helper. `DOTNET_SYSTEM_GLOBALIZATION_INVARIANT` lets it
run on machines without libicu.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_mcpdeps
from npm_tools import TOOLS_DIR, NpmUnavailable, ensure_package

VALIDATOR = ("@microsoft/sarif-multitool", "5.7.0")

EXTRA = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("extra")


def who() -> str:
    return "ada"


@mcp.tool()
def greet(greeting: str, user: Annotated[str, Resolve(who)] = "x") -> str:
    return greeting
"""


@pytest.fixture(scope="module")
def validator() -> Path:
    try:
        ensure_package(*VALIDATOR)
    except NpmUnavailable as exc:
        pytest.skip(str(exc))
    return TOOLS_DIR / "node_modules" / ".bin" / "sarif-multitool"


def validate(validator: Path, log: Path, tmp_path: Path) -> list[dict[str, Any]]:
    """The validator's findings (its own SARIF output) for one log; errors and warnings only."""
    out = tmp_path / f"{log.stem}.validation.sarif"
    proc = subprocess.run(
        [str(validator), "validate", str(log), "--output", str(out), "--quiet"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT": "1"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    results = json.loads(out.read_text(encoding="utf-8-sig"))["runs"][0]["results"]
    return [r for r in results if r.get("level", "warning") in ("error", "warning")]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The broken bookshop (six errors, a cycle with related locations, fixes) plus an info diagnostic."""
    root = tmp_path / "project"
    shutil.copytree(EXAMPLES / "broken", root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "extra.py").write_text(EXTRA, encoding="utf-8")
    return root


def test_sarif_passes_the_validator_with_no_error_or_warning(
    validator: Path, project: Path, tmp_path: Path
) -> None:
    proc = run_mcpdeps("lint", "--format", "sarif", "--output-file", "../report.sarif", cwd=project)
    assert proc.returncode == 1 and proc.stdout == ""
    log = tmp_path / "report.sarif"
    assert validate(validator, log, tmp_path) == []

    run = json.loads(log.read_text(encoding="utf-8"))["runs"][0]
    driver = run["tool"]["driver"]
    from importlib.metadata import version

    assert (driver["name"], driver["version"], driver["semanticVersion"]) == (
        "mcpdeps",
        version("mcpdeps"),
        version("mcpdeps"),
    )
    from mcpdeps.lint_rules.registry import ALL_RULES

    assert [r["id"] for r in driver["rules"]] == [r.code for r in ALL_RULES]
    cycle = driver["rules"][[r.code for r in ALL_RULES].index("MCPD001")]
    assert cycle["name"] == "ResolverCycle" and cycle["defaultConfiguration"] == {"level": "error"}
    assert cycle["fullDescription"]["text"].endswith(".")

    results = run["results"]
    assert {r["ruleId"] for r in results} == {
        "MCPD001",
        "MCPD002",
        "MCPD003",
        "MCPD004",
        "MCPD006",
        "MCPD008",
        "MCPD111",
    }
    assert all(driver["rules"][r["ruleIndex"]]["id"] == r["ruleId"] for r in results)
    by_rule = {r["ruleId"]: r for r in results}
    assert by_rule["MCPD111"]["level"] == "note"
    assert len(by_rule["MCPD001"]["relatedLocations"]) == 3  # two edges, the tool running the cycle
    assert by_rule["MCPD003"]["fixes"][0]["artifactChanges"][0]["artifactLocation"] == {
        "uri": "server.py",
        "uriBaseId": "%SRCROOT%",
    }
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.as_uri() + "/"


def test_sarif_with_absolute_paths_and_no_findings_is_valid(
    validator: Path, project: Path, tmp_path: Path
) -> None:
    absolute = run_mcpdeps("lint", "--format", "sarif", str(project / "extra.py"), cwd=tmp_path)
    (tmp_path / "absolute.sarif").write_text(absolute.stdout, encoding="utf-8")
    location = json.loads(absolute.stdout)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": (project / "extra.py").as_uri()}
    assert validate(validator, tmp_path / "absolute.sarif", tmp_path) == []

    clean = run_mcpdeps("lint", "--format", "sarif", str(EXAMPLES / "bookshop"), cwd=tmp_path)
    assert clean.returncode == 0
    (tmp_path / "clean.sarif").write_text(clean.stdout, encoding="utf-8")
    assert json.loads(clean.stdout)["runs"][0]["results"] == []
    assert validate(validator, tmp_path / "clean.sarif", tmp_path) == []


def test_the_validator_does_catch_a_poor_log(validator: Path, tmp_path: Path) -> None:
    """Guards the harness: a log without tool version and home page must be flagged."""
    poor = tmp_path / "poor.sarif"
    poor.write_text(
        json.dumps(
            {
                "version": "2.1.0",
                "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
                "runs": [{"tool": {"driver": {"name": "x"}}, "results": []}],
            }
        ),
        encoding="utf-8",
    )
    assert {r["ruleId"] for r in validate(validator, poor, tmp_path)} == {"SARIF2005"}
