"""`mcpdeps lint` starts without typer for the command lines it can read.

The fast start (`cli/lint/argv.py`, `cli/fast_start.py`) must be invisible: every line it
accepts, typer reads into the same values; every line it refuses (help, errors, rarities)
goes to typer; and the process prints and exits alike either way. Checked three ways:
its option table against the typer command's parameters, random command lines through
both parsers (hypothesis), and real processes run both ways, byte for byte.
"""

from __future__ import annotations

import enum
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from hypothesis import given, settings
from hypothesis import strategies as st
from mcpdeps.cli.app import app
from mcpdeps.cli.lint.argv import OPTIONS, LintArgs, parse
from typer.exceptions import Exit, TyperException  # typer carries its own click

BROKEN = 'from mcp.server.mcpserver import MCPServer\nmcp = MCPServer("x")\n\n@mcp.tool\ndef t(_x: int) -> int:\n    return 1\n'


def _lint_command() -> typer.core.TyperCommand:
    return typer.main.get_command(app).commands["lint"]


def _typer_reads(argv: list[str]) -> dict[str, object] | None:
    """The values typer hands `lint` for `argv`, or None when it refuses the line."""
    command = _lint_command()
    try:
        with command.make_context("lint", list(argv)) as ctx:
            params = dict(ctx.params)
    except (TyperException, Exit):
        return None
    return {k: _plain(v) for k, v in params.items()}


def _plain(value: object) -> object:
    """typer's values in `LintArgs`' terms: enums as their value, empty lists as None."""
    if isinstance(value, (list, tuple)):
        return list(value) or None
    return getattr(value, "value", value)


def _fast_reads(argv: list[str]) -> dict[str, object] | None:
    args = parse(argv)
    if args is None:
        return None
    return {name: _plain(getattr(args, name)) for name in LintArgs.__slots__}


def test_the_option_table_is_the_typer_command() -> None:
    """Same options, same spellings, same kinds and choices: a new typer option must be added here."""
    table = {o.dest: o for o in OPTIONS}
    params = [p for p in _lint_command().params if p.param_type_name == "option"]
    assert sorted(table) == sorted(p.name for p in params)
    kinds = {bool: "flag", list[str]: "list", int: "int", Path: "path", str: "value"}
    for param in params:
        option = table[param.name]
        assert set(option.names) == {*param.opts, *param.secondary_opts}, param.name
        annotation = param.type_descriptor.annotation
        if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            assert (option.kind, option.choices) == ("value", tuple(m.value for m in annotation)), param.name
        else:
            assert (option.kind, option.choices) == (kinds[annotation], ()), param.name
    assert set(LintArgs.__slots__) == {p.name for p in _lint_command().params}


WORDS = [
    *(name for o in OPTIONS for name in o.names),
    *("json", "sarif", "full", "concise", "github", "bogus", "JSON"),
    *("error", "info", "warning", "MCPD001", "MCPD1,MCPD002", "resolver-cycle"),
    *("0", "2", "04", "-1", "x", "a.py", "src", "./a//b.py", "out.txt", ""),
    *("--help", "-h", "--", "-", "-j2", "-vo", "--fix=1", "--format=json", "--jobs=3", "--select=X"),
    *("--nope", "--form", "-x", "--exit-zero=yes", "-o=out"),
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=7))
def test_every_line_the_fast_start_reads_typer_reads_alike(argv: list[str]) -> None:
    fast = _fast_reads(argv)
    if fast is not None:
        assert _typer_reads(argv) == fast, argv


@pytest.mark.parametrize(
    "argv",
    [
        ["a.py"],
        ["--format", "json", "-j", "1", "a.py", "b.py"],
        ["--select", "MCPD1", "--select=MCPD002", "--ignore", "MCPD101", "--exit-zero"],
        ["--format=sarif", "--fail-on", "info", "-v", "-o", "out.txt"],
        ["--statistics", "--no-cache", "--cache-dir", "c", "--extend-exclude", "x*"],
    ],
)
def test_common_lines_take_the_fast_start(argv: list[str]) -> None:
    assert parse(argv) is not None
    assert _typer_reads(argv) == _fast_reads(argv)


def _run(tmp_path: Path, argv: list[str], fast: bool, stdin: bytes = b"") -> tuple[int, bytes, bytes]:
    entry = f"from mcpdeps.cli.main import main; main(fast_start={fast})"
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    proc = subprocess.run(
        [sys.executable, "-c", entry, "lint", *argv], cwd=tmp_path, capture_output=True, input=stdin, env=env
    )
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["server.py"],
        ["--format", "json", "server.py"],
        ["--format", "concise", "--exit-zero", "."],
        ["--statistics", "--no-cache", "server.py"],
        ["--select", "MCPD999", "server.py"],  # usage error from the engine: exit 2 with a sentence
        ["missing.py"],
        ["--format", "concise", "--stdin-filename", "server.py"],
        ["--diff", "server.py"],
        ["--format", "bogus", "server.py"],  # typer's error, on both paths
        ["--help"],
    ],
)
def test_both_ways_print_and_exit_alike(tmp_path: Path, argv: list[str]) -> None:
    (tmp_path / "server.py").write_text(BROKEN)
    stdin = BROKEN.encode()
    assert _run(tmp_path, argv, True, stdin) == _run(tmp_path, argv, False, stdin)


def test_the_fast_start_imports_no_typer(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(BROKEN)
    probe = (
        "import sys\nfrom mcpdeps.cli.main import main\ntry:\n    main()\nfinally:\n"
        "    sys.stderr.write('typer' + str('typer' in sys.modules) + ' click' + str('click' in sys.modules))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe, "lint", "--format", "concise", "server.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.endswith("typerFalse clickFalse"), proc.stderr
    assert "server.py:5:7: MCPD006" in proc.stdout


@pytest.mark.parametrize("fast", [True, False])
def test_a_reader_that_goes_away_ends_the_run_quietly(tmp_path: Path, fast: bool) -> None:
    """`mcpdeps lint | head -1`: exit 1 and no traceback once the pipe is closed, either way."""
    for i in range(300):
        (tmp_path / f"server_{i}.py").write_text(BROKEN)
    entry = f"from mcpdeps.cli.main import main; main(fast_start={fast})"
    proc = subprocess.Popen(
        [sys.executable, "-c", entry, "lint", "--format", "concise", "--no-cache", "."],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 1, err
    assert b"Traceback" not in err and b"Error" not in err, err
