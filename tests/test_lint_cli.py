"""`mcpdeps lint` as users and tools drive it: formats, output file, statistics, stdin, exit codes,
colour, `mcpdeps rule`, and docs/rules.md kept in step with the rule classes. Real CLI throughout."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_mcpdeps
from hardening.contract import DIAGNOSTIC_KEYS
from mcpdeps.lint_rules.docs import DOC_PATH, document


def run_coloured(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Like `run_mcpdeps`, but with the colour variables as given (conftest always sets NO_COLOR)."""
    full = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    full.update(env, TERM="xterm-256color", COLUMNS="120")
    return subprocess.run(
        [sys.executable, "-m", "mcpdeps", *args], cwd=cwd, env=full, capture_output=True, text=True
    )


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    root = tmp_path / "broken"
    shutil.copytree(EXAMPLES / "broken", root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_full_format_shows_frames_help_and_summary(broken: Path) -> None:
    proc = run_mcpdeps("lint", cwd=broken)
    assert proc.returncode == 1
    assert "server.py:65:2: MCPD008 tool 'list_books' is registered with a bare decorator" in proc.stdout
    assert "65 | @mcp.tool\n" in proc.stdout and "^^^^^^^^ MCPD008" in proc.stdout
    assert "= help: write the decorator with parentheses" in proc.stdout
    assert proc.stdout.rstrip().endswith(
        "Found 7 errors in 2 files; checked 2 files, 1 server, 7 tools."
        " 3 may be fixed with `mcpdeps lint --fix` (`--diff` to preview)."
    )


def test_concise_format(broken: Path) -> None:
    lines = run_mcpdeps("lint", "--format", "concise", cwd=broken).stdout.splitlines()
    assert lines[0] == "deps.py:29:28: MCPD001 resolver cycle: plan_of -> check_quota -> plan_of"
    assert lines[3] == "server.py:31:24: MCPD001 resolver cycle: plan_of -> check_quota -> plan_of"
    assert len(lines) == 8  # the cycle crosses two files: reported at the edge in each


def test_json_format_is_the_contract_and_stable(broken: Path) -> None:
    first = run_mcpdeps("lint", "--format", "json", cwd=broken)
    second = run_mcpdeps("lint", "--output-format", "json", cwd=broken)
    assert first.stdout == second.stdout
    doc = json.loads(first.stdout)
    assert set(doc) == {"version", "diagnostics", "summary"}
    assert doc["summary"] == {"files": 2, "parsed": 2, "errors": 7, "warnings": 0, "infos": 0}
    assert all(set(d) == DIAGNOSTIC_KEYS for d in doc["diagnostics"])
    order = [(d["path"], d["line"], d["column"], d["code"]) for d in doc["diagnostics"]]
    assert order == sorted(order)


def test_github_format_escapes_and_maps_severities(tmp_path: Path) -> None:
    (tmp_path / "a,b.py").write_text(
        "from typing import Annotated\nfrom mcp.server import MCPServer\nfrom mcp.server.mcpserver import Resolve\n\n"
        "mcp = MCPServer('s')\n\ndef who() -> str:\n    return 'x'\n\n"
        "@mcp.tool()\ndef t(_q: str, w: Annotated[str, Resolve(who)] = '100%') -> str:\n    return w\n",
        encoding="utf-8",
    )
    lines = run_mcpdeps("lint", "--format", "github", cwd=tmp_path).stdout.splitlines()
    assert lines == [
        "::error file=a%2Cb.py,line=11,col=7,endLine=11,endColumn=14,title=mcpdeps MCPD006 (underscore-parameter)"
        "::MCPD006 parameter '_q' of tool 't' starts with '_'; the SDK refuses it",
        lines[1],
    ]
    assert (
        lines[1].startswith("::notice file=a%2Cb.py,line=11,col=16,")
        and "title=mcpdeps MCPD111 (ignored-default)::" in lines[1]
    )


def test_output_file_gets_the_report_without_colour(broken: Path) -> None:
    proc = run_coloured("lint", "--output-file", "report.txt", cwd=broken, FORCE_COLOR="1")
    assert proc.returncode == 1 and proc.stdout == ""
    text = (broken / "report.txt").read_text(encoding="utf-8")
    assert "MCPD008" in text and "\x1b[" not in text
    bad = run_mcpdeps("lint", "-o", "missing/dir/report.txt", cwd=broken)
    assert bad.returncode == 2 and "Cannot write the report to missing/dir/report.txt" in bad.stderr


def test_statistics_text_and_json(broken: Path) -> None:
    text = run_mcpdeps("lint", "--statistics", cwd=broken)
    assert text.returncode == 1
    assert text.stdout.splitlines()[:3] == [
        "2  MCPD001      resolver-cycle",
        "1  MCPD002      unclassifiable-parameter",
        "1  MCPD003  [*] resolve-in-union",
    ]
    rows = json.loads(run_mcpdeps("lint", "--statistics", "--format", "json", cwd=broken).stdout)
    assert rows[0] == {"code": "MCPD001", "name": "resolver-cycle", "count": 2, "fixable": False}
    assert sum(r["count"] for r in rows) == 7


def test_stdin_is_linted_as_the_given_path_with_its_config(broken: Path) -> None:
    (broken / "pyproject.toml").write_text('[tool.mcpdeps]\nignore = ["MCPD008"]\n', encoding="utf-8")
    source = (broken / "server.py").read_text(encoding="utf-8").replace("_order_id", "order_id")
    proc = run_mcpdeps(
        "lint", "--format", "concise", "--stdin-filename", "server.py", input=source, cwd=broken
    )
    codes = [line.split()[1] for line in proc.stdout.splitlines()[:-1]]
    assert codes == [
        "MCPD001",
        "MCPD002",
        "MCPD004",
        "MCPD001",
        "MCPD003",
    ]  # deps.py is still followed; no 006, 008 ignored
    assert all(line.startswith(("deps.py:", "server.py:")) for line in proc.stdout.splitlines()[:-1])


def test_fail_on_and_exit_zero(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(
        "from typing import Annotated\nfrom mcp.server import MCPServer\nfrom mcp.server.mcpserver import Resolve\n\n"
        "mcp = MCPServer('s')\n\ndef who() -> str:\n    return 'x'\n\n"
        "@mcp.tool()\ndef t(w: Annotated[str, Resolve(who)] = 'x') -> str:\n    return w\n",
        encoding="utf-8",
    )
    assert run_mcpdeps("lint", cwd=tmp_path).returncode == 0  # one info: below "error"
    assert run_mcpdeps("lint", "--fail-on", "warning", cwd=tmp_path).returncode == 0
    assert run_mcpdeps("lint", "--fail-on", "info", cwd=tmp_path).returncode == 1
    assert run_mcpdeps("lint", "--fail-on", "info", "--exit-zero", cwd=tmp_path).returncode == 0
    assert run_mcpdeps("lint", "--fail-on", "fatal", cwd=tmp_path).returncode == 2


def test_colour_follows_the_terminal_no_color_and_force_color(broken: Path) -> None:
    assert "\x1b[" not in run_coloured("lint", cwd=broken).stdout  # stdout is a pipe
    forced = run_coloured("lint", cwd=broken, FORCE_COLOR="1").stdout
    assert "\x1b[1;31mMCPD008\x1b[0m" in forced
    no_colour = run_coloured("lint", cwd=broken, FORCE_COLOR="1", NO_COLOR="1").stdout
    assert not re.search(r"\x1b\[[0-9;]*3[0-7]m", no_colour)  # styles may stay, colours go
    assert "MCPD008" in no_colour


@pytest.mark.parametrize(
    ("env", "styled"),
    [
        ({}, False),
        ({"FORCE_COLOR": "1"}, True),
        ({"FORCE_COLOR": ""}, False),
        ({"TTY_COMPATIBLE": "1"}, True),
        ({"TTY_COMPATIBLE": "0", "FORCE_COLOR": "1"}, False),
    ],
)
def test_a_clean_report_is_what_rich_prints_to_the_same_stream(
    tmp_path: Path, env: dict[str, str], styled: bool
) -> None:
    """Nothing found: the report is what rich prints to the same stream, styled only where
    rich styles (a terminal, `FORCE_COLOR`, `TTY_COMPATIBLE`)."""
    import io

    from mcpdeps.cli.lint.render_text import render_diagnostics
    from mcpdeps.lint_rules import lint
    from rich.console import Console

    (tmp_path / "a.py").write_text("x = 1\n", encoding="utf-8")
    proc = run_coloured("lint", "--no-cache", ".", cwd=tmp_path, **env)
    assert proc.returncode == 0, proc.stderr
    streamed = io.StringIO()  # a pipe, as the CLI's stdout is here
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    environ.update(env, TERM="xterm-256color", COLUMNS="120")
    console = Console(file=streamed, highlight=False, _environ=environ)
    render_diagnostics(lint(["."], cwd=tmp_path), console=console)
    assert proc.stdout == streamed.getvalue()
    assert ("\x1b[" in proc.stdout) == styled


def test_rule_command_by_code_name_and_all() -> None:
    by_code = run_mcpdeps("rule", "MCPD003")
    assert by_code.returncode == 0
    # Piped, `rule` prints its Markdown as is (no padding to the terminal's width).
    for part in (
        "## MCPD003 `resolve-in-union`",
        "**Severity:** error",
        "**Why it matters:**",
        "**Example** (reported):",
        "**Fixed** (not reported):",
    ):
        assert part in by_code.stdout
    assert run_mcpdeps("rule", "resolve-in-union").stdout == by_code.stdout
    from mcpdeps.lint_rules.registry import ALL_RULES

    every = run_mcpdeps("rule", "--all").stdout
    assert all(f"## {r.code} `{r.name}`" in every for r in ALL_RULES)
    unknown = run_mcpdeps("rule", "MCPD999")
    assert unknown.returncode == 2 and "unknown rule 'MCPD999'" in unknown.stderr
    assert run_mcpdeps("rule").returncode == 2


def test_docs_rules_md_is_up_to_date() -> None:
    assert DOC_PATH.read_text(encoding="utf-8") == document(), (
        "run `python -m mcpdeps.lint_rules.docs` to regenerate docs/rules.md"
    )


def test_lint_does_not_import_mcp_or_libcst_without_fix(broken: Path) -> None:
    proc = run_mcpdeps("lint", "--format", "concise", "-v", cwd=broken, env={"PYTHONPROFILEIMPORTTIME": "1"})
    imported = {
        line.rsplit("|", 1)[-1].strip().split(".")[0] for line in proc.stderr.splitlines() if "|" in line
    }
    assert "mcp" not in imported and "libcst" not in imported
    fixing = run_mcpdeps("lint", "--diff", cwd=broken, env={"PYTHONPROFILEIMPORTTIME": "1"})
    assert fixing.stdout.startswith("--- a/") and " mcp\n" not in fixing.stderr
    # the example's fixes are plain shapes, computed from ast spans (tests/test_fix_spans.py)
    assert " libcst\n" not in fixing.stderr
