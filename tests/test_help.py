"""`--help` as a new user reads it (issue 33, item 2), at 80 and 120 columns.

Scannable like `ruff check --help`: no Python types as placeholders, no `<bool>` after a flag,
choices listed as words, command summaries whole, `-h`, options in groups; a bad choice is
answered in a sentence.
"""

from __future__ import annotations

import re

import pytest
from conftest import run_mcpdeps

WIDTHS = (80, 120)
PYTHON_TYPES = re.compile(r"<(?:bool|str|int|float|path|list\[[^\]]*\]|int range|float range)>|\{\w+\}")


def _help(*argv: str, width: int) -> str:
    proc = run_mcpdeps(*argv, env={"COLUMNS": str(width)})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(
    "command", [("lint",), ("graph",), ("serve",), ("call",), ("mcp",), ("lsp",), ("rule",), ("new", "tool")]
)
def test_help_shows_placeholders_a_person_reads(command: tuple[str, ...], width: int) -> None:
    text = _help(*command, "--help", width=width)
    assert not PYTHON_TYPES.search(text), text
    assert all(len(line) <= width for line in text.splitlines()), text
    assert "…" not in text and not re.search(r"[a-z]\.\.\.", text)
    assert _help(*command, "-h", width=width) == text


@pytest.mark.parametrize("width", WIDTHS)
def test_lint_help_groups_its_options_like_ruff(width: int) -> None:
    text = _help("lint", "--help", width=width)
    sections = re.findall(r"^(\w[\w ]*):$", text, re.MULTILINE)
    assert sections == ["Arguments", "Rule selection", "File selection", "Fixes", "Output", "Miscellaneous"]
    assert "Usage: mcpdeps lint [OPTIONS] [PATHS]..." in text
    assert re.search(r"^      --fix +Apply the safe fixes", text, re.MULTILINE)  # a flag takes no value
    assert re.search(r"^      --select <RULES> +Rule codes", text, re.MULTILINE)
    assert "[possible values: full, concise, json, sarif, github]" in " ".join(text.split())
    assert re.search(r"^  -j, --jobs <N> ", text, re.MULTILINE)


@pytest.mark.parametrize("width", WIDTHS)
def test_graph_help_groups_its_options(width: int) -> None:
    text = _help("graph", "--help", width=width)
    sections = re.findall(r"^(\w[\w ]*):$", text, re.MULTILINE)
    assert sections == ["Arguments", "Selection", "Output", "Live graph", "Miscellaneous"]
    assert "[possible values: tree, json, mermaid, dot]" in " ".join(text.split())


def test_command_summaries_are_whole_at_80_columns() -> None:
    text = " ".join(_help("--help", width=80).split())
    assert (
        "lint Check MCP servers for everything the SDK would refuse at registration, without importing them."
        in text
    )
    assert not re.search(
        r"[a-z]\.\.\.", text
    )  # click cut them: `Check MCP servers for everything the SDK...`


def test_call_usage_names_its_arguments() -> None:
    assert "Usage: mcpdeps call [OPTIONS] SPEC TOOL" in _help("call", "-h", width=80)


@pytest.mark.parametrize(
    ("argv", "sentence"),
    [
        (("lint", "--format", "xml"), "must be one of full, concise, json, sarif or github, not 'xml'"),
        (("lint", "--format", "jsn"), "not 'jsn' (did you mean 'json'?)"),
        (
            ("graph", "-f", "dott"),
            "must be one of tree, json, mermaid or dot, not 'dott' (did you mean 'dot'?)",
        ),
    ],
)
def test_a_bad_choice_is_one_sentence(argv: tuple[str, ...], sentence: str) -> None:
    proc = run_mcpdeps(*argv, env={"COLUMNS": "200"})
    assert proc.returncode == 2 and proc.stdout == ""
    said = " ".join(re.sub(r"[│╭╮╰╯─]", " ", proc.stderr).split())
    assert sentence in said and "Value error" not in said
