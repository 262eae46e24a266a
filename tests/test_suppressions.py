"""`# mcpdeps: ignore[...]`, bare `ignore`, `ignore-file`, and MCPD114 for those that silence nothing."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_mcpdeps
from hypothesis import given, settings
from hypothesis import strategies as st
from mcpdeps.lint_rules import lint
from mcpdeps.lint_rules.suppressions import parse_suppressions

HEAD = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("s")


def who() -> str:
    return "reader"

"""
TOOL = """
@mcp.tool()
def t{n}(_title: str, w: Annotated[str, Resolve(who)] = "x") -> str:{comment}
    return _title
"""


def _lint(tmp_path: Path, source: str, **kwargs: object) -> list[tuple[int, str, str]]:
    path = tmp_path / "server.py"
    path.write_text(source, encoding="utf-8")
    return [(d.line, d.code, d.message) for d in lint([path], **kwargs).diagnostics]  # type: ignore[arg-type]


def _tool(n: int, comment: str = "") -> str:
    return TOOL.format(n=n, comment=f"  {comment}" if comment else "")


def _codes(found: list[tuple[int, str, str]]) -> list[tuple[int, str]]:
    return [(line, code) for line, code, _ in found]


def test_line_suppression_by_code_name_and_prefix(tmp_path: Path) -> None:
    source = (
        HEAD
        + _tool(1, "# mcpdeps: ignore[MCPD006]")
        + _tool(2, "# mcpdeps: ignore[underscore-parameter, ignored-default]")
        + _tool(3, "# mcpdeps: ignore[MCPD1]")
    )
    assert _codes(_lint(tmp_path, source)) == [(14, "MCPD111"), (22, "MCPD006")]


def test_bare_ignore_silences_everything_on_its_line_only(tmp_path: Path) -> None:
    source = HEAD + _tool(1, "# mcpdeps: ignore") + _tool(2)
    assert _codes(_lint(tmp_path, source)) == [(18, "MCPD006"), (18, "MCPD111")]


def test_ignore_file_at_the_top(tmp_path: Path) -> None:
    source = '"""Doc."""\n# mcpdeps: ignore-file[MCPD006]\n' + HEAD + _tool(1) + _tool(2)
    assert _codes(_lint(tmp_path, source)) == [(16, "MCPD111"), (20, "MCPD111")]
    assert _lint(tmp_path, "# mcpdeps: ignore-file\n" + HEAD + _tool(1)) == []


def test_ignore_file_below_the_first_statement_has_no_effect_and_is_reported(tmp_path: Path) -> None:
    source = HEAD + "# mcpdeps: ignore-file[MCPD006]\n" + _tool(1)
    found = _lint(tmp_path, source)
    assert _codes(found) == [(12, "MCPD114"), (15, "MCPD006"), (15, "MCPD111")]
    assert "has no effect below the first statement" in found[0][2]


def test_directive_text_inside_a_string_is_not_a_directive(tmp_path: Path) -> None:
    source = HEAD + 'NOTE = "# mcpdeps: ignore-file"\n' + _tool(1)
    assert _codes(_lint(tmp_path, source)) == [(15, "MCPD006"), (15, "MCPD111")]


def test_unused_and_unknown_suppressions_are_reported(tmp_path: Path) -> None:
    source = HEAD.replace('mcp = MCPServer("s")', 'mcp = MCPServer("s")  # mcpdeps: ignore') + _tool(
        1, "# mcpdeps: ignore[MCPD006, MCPD104, no-such-rule]"
    )
    found = _lint(tmp_path, source)
    assert _codes(found) == [(6, "MCPD114"), (14, "MCPD111"), (14, "MCPD114")]
    assert found[0][2] == "unused suppression: nothing on this line is reported"
    assert found[2][2] == "suppression names no rule: no-such-rule; it silences nothing on this line: MCPD104"


def test_unused_is_not_judged_for_rules_that_did_not_run_or_when_mcpd114_is_off(tmp_path: Path) -> None:
    source = HEAD + _tool(1, "# mcpdeps: ignore[MCPD104]")
    assert _codes(_lint(tmp_path, source, select=["MCPD006", "MCPD114"])) == [(14, "MCPD006")]
    assert _codes(_lint(tmp_path, source, ignore=["unused-suppression"])) == [
        (14, "MCPD006"),
        (14, "MCPD111"),
    ]


def test_unused_is_judged_only_in_files_that_were_asked_for(tmp_path: Path) -> None:
    (tmp_path / "helpers.py").write_text("X = 1  # mcpdeps: ignore\n", encoding="utf-8")
    source = HEAD.replace(
        "from mcp.server import MCPServer", "from mcp.server import MCPServer\nimport helpers"
    )
    (tmp_path / "server.py").write_text(source + _tool(1, "# mcpdeps: ignore"), encoding="utf-8")
    assert lint([tmp_path / "server.py"]).diagnostics == []
    assert [d.path for d in lint([tmp_path]).diagnostics] == [str(tmp_path / "helpers.py")]


def test_fix_removes_unused_suppressions_and_keeps_the_used_codes(tmp_path: Path) -> None:
    source = (
        HEAD
        + "# mcpdeps: ignore\n"
        + _tool(1, "# mcpdeps: ignore[MCPD006, MCPD111, MCPD104]")
        + _tool(2, "# mcpdeps: ignore[MCPD1]  # mcpdeps: ignore[MCPD006]")
        + "X = 1  # mcpdeps: ignore  because of the generator\n"
    )
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    proc = run_mcpdeps(
        "lint", "--fix", "--format", "json", "--select", "MCPD006,MCPD111,MCPD104,MCPD114", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["diagnostics"] == []
    fixed = (tmp_path / "server.py").read_text(encoding="utf-8")
    assert fixed == (
        HEAD
        + _tool(1, "# mcpdeps: ignore[MCPD006, MCPD111]")
        + _tool(2, "# mcpdeps: ignore[MCPD1]  # mcpdeps: ignore[MCPD006]")
        + "X = 1  # because of the generator\n"
    )


def test_a_file_that_does_not_parse_can_still_silence_its_syntax_error(tmp_path: Path) -> None:
    broken = "import mcp\nx = (1,\n"
    assert _codes(_lint(tmp_path, broken)) == [(2, "MCPD000")]
    assert _lint(tmp_path, "# mcpdeps: ignore-file[syntax-error]\n" + broken) == []
    assert _lint(tmp_path, broken.replace("(1,", "(1,  # mcpdeps: ignore[MCPD000]")) == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("# mcpdeps:ignore-file[]MCPD0,\n\"'()x=\\\t")), max_size=80))
def test_any_text_is_scanned_without_error(text: str) -> None:
    for s in parse_suppressions("f.py", text):
        assert s.line >= 1 and 0 <= s.start < s.end
        assert s.line_text[s.start : s.end].startswith("#")
