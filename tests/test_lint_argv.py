"""`mcpdeps lint`'s options are declared once, and the fast start reading them is invisible.

`LintArgs` (`cli/lint/argv.py`) is the one list of the options: the typer command
(`cli/typer_options.py`), its help and the fast reader (`cli/fast_argv.py`) are derived from
it. Checked here: an option added in one place (a declared field) shows in all three; every
line the fast reader accepts, typer reads into the same values (hypothesis); every line it
refuses (help, errors, rarities) goes to typer; and real processes print and exit alike
either way, byte for byte.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal, NoReturn

import pytest
import typer.main
from hypothesis import given, settings
from hypothesis import strategies as st
from mcpdeps.cli.app import app
from mcpdeps.cli.fast_argv import read
from mcpdeps.cli.lint.argv import LintArgs, parse
from mcpdeps.cli.option_spec import Option, declared, option, params
from mcpdeps.cli.render.help import prepare_help, render
from mcpdeps.cli.typer_options import command_of
from typer.exceptions import Exit, TyperException  # typer carries its own click

BROKEN = 'from mcp.server.mcpserver import MCPServer\nmcp = MCPServer("x")\n\n@mcp.tool\ndef t(_x: int) -> int:\n    return 1\n'


def _lint_command() -> Any:
    return typer.main.get_command(app).commands["lint"]  # a new click command at each call


def _typer_reads(argv: list[str], command: Any = None) -> dict[str, object] | None:
    """The values typer hands `lint` for `argv`, or None when it refuses the line."""
    command = command or _lint_command()
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


def _fast_reads(argv: list[str], declared: type = LintArgs) -> dict[str, object] | None:
    args = read(argv, declared)
    if args is None:
        return None
    return {name: _plain(value) for name, value in dataclasses.asdict(args).items()}


@declared
class WithColour(LintArgs):
    """A copy of lint's table with one option more, declared in one place: this field."""

    colour: Literal["auto", "always", "never"] = option(
        Option(("--colour",), "auto", "When to colour the report.", "Output", "WHEN")
    )


def _help(command: Any) -> str:
    with command.make_context("mcpdeps lint", [], resilient_parsing=True) as ctx:
        return render(command, ctx)


def test_an_option_declared_once_is_in_typer_help_the_fast_reader_and_the_args() -> None:
    """Adding an option is one field: typer's command, its help and the fast start all take it."""
    received: list[WithColour] = []

    @command_of(WithColour)
    def lint(args: WithColour) -> None:
        """Check a few things."""
        received.append(args)

    built = typer.Typer()
    built.command("lint")(lint)
    built.command("other")(lambda: None)  # two commands: `lint` stays a subcommand, as in the app
    group = typer.main.get_command(built)
    prepare_help(group)
    command = group.commands["lint"]

    text = _help(command)
    output = text[text.index("Output:") : text.index("Miscellaneous:")]
    assert "--colour <WHEN>" in output
    assert "When to colour the report. [default: auto] [possible values: auto, always, never]" in " ".join(
        output.split()
    )
    assert _sections(text) == _sections(_help(_lint_command_with_help()))

    argv = ["--colour", "always", "--format", "json", "a.py"]
    assert _fast_reads(argv, WithColour) == {**(_fast_reads(argv[2:]) or {}), "colour": "always"}
    assert _typer_reads(argv, command) == _fast_reads(argv, WithColour)
    assert _typer_reads(["--colour", "sometimes"], command) is None
    assert read(["--colour", "sometimes"], WithColour) is None  # typer's error, then
    with command.make_context("lint", argv) as ctx:
        command.invoke(ctx)
    assert received == [WithColour(paths=[Path("a.py")], output_format="json", colour="always")]


def _lint_command_with_help() -> Any:
    command = _lint_command()
    prepare_help(command)
    return command


def _sections(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.endswith(":") and not line.startswith(" ")]


def test_the_lint_command_is_made_of_the_declarations() -> None:
    """Each declared field is one typer parameter, in order, spelt, worded and filed as declared."""
    command = _lint_command()
    assert [p.name for p in command.params] == [p.name for p in params(LintArgs)]
    for param, declared_param in zip(command.params, params(LintArgs), strict=True):
        spec = declared_param.spec
        assert param.help == spec.help, param.name
        if isinstance(spec, Option):
            assert param.opts == list(spec.names), param.name
            assert param.rich_help_panel == spec.panel, param.name
            assert _plain(param.default) == spec.default, param.name


def test_a_field_not_declared_is_refused() -> None:
    @dataclasses.dataclass
    class Plain:
        verbose: bool = False

    with pytest.raises(TypeError, match=r"Plain\.verbose is not declared"):
        params(Plain)


WORDS = [
    *(name for p in params(LintArgs) if isinstance(p.spec, Option) for name in p.spec.names),
    *(choice for p in params(LintArgs) for choice in p.choices),
    *("bogus", "JSON", "MCPD001", "MCPD1,MCPD002", "resolver-cycle"),
    *("0", "2", "04", "-1", "x", "a.py", "src", "./a//b.py", "out.txt", ""),
    *("--help", "-h", "--", "-", "-j2", "-vo", "--fix=1", "--format=json", "--jobs=3", "--select=X"),
    *("--nope", "--form", "-x", "--exit-zero=yes", "-o=out"),
    *("-j1", "-j01", "-j=1", "-j-1", "-jv", "-vj1", "-vv", "-vjx", "-oout.txt", "-o-x"),
    *("-v-", "--jobs=", "-o"),
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
        ["-j1", "a.py"],  # a value attached to a short option, as click (and ruff, argparse) read it
        ["-vj1", "-oout.txt", "--jobs=2"],  # short flags grouped, then one that takes the rest
        ["-o=out"],  # click takes all that follows `-o`: the file is `=out`
        ["-v", "--", "--fix", "-"],  # paths after `--`, whatever they look like
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
        ["-j1", "-ofound.txt", "--format=concise", "--", "server.py"],
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


def test_a_process_of_its_own_ends_inside_the_run_still_holding_its_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run as its own program, the fast start ends the process without the interpreter's
    teardown (`_leave`): from inside `run_lint` once the report is written, while the run's
    result and the graph it holds are still referenced (returned first, the whole build was
    freed one object at a time); after it, for a run that built nothing (a replayed report)."""
    from mcpdeps.cli import fast_start
    from mcpdeps.lint_rules import LintResult

    (tmp_path / "server.py").write_text(BROKEN)
    monkeypatch.chdir(tmp_path)
    seen: list[tuple[int, str, bool]] = []

    def leave(code: int) -> NoReturn:
        kept = sys._getframe(1).f_locals.values()  # what `run_lint` holds as it calls `leave`
        held = any(isinstance(value, LintResult) and bool(value.graph.servers) for value in kept)
        seen.append((code, capsys.readouterr().out, held))
        raise SystemExit(code)

    monkeypatch.setattr(fast_start, "_leave", leave)
    for own_process in (True, True, False):  # a run, its report replayed, a caller's process
        with pytest.raises(SystemExit) as ended:
            fast_start.start_lint(["lint", "--format", "concise", "server.py"], own_process=own_process)
        assert ended.value.code == 1
    [(code, out, held), (replayed_code, replayed_out, _)] = seen[:2]
    assert code == 1 and "server.py:5:7: MCPD006" in out, "the report is written before"
    assert held, "the run's result, with its graph, is still held when the process ends"
    assert (replayed_code, replayed_out) == (code, out), "the replayed report's run leaves too"
    assert len(seen) == 2, "a caller's own process (a test, an embedding) returns from the run as before"


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


def test_fail_on_offers_the_levels_the_settings_take() -> None:
    """`--fail-on`'s choices are declared apart from the settings' (the fast start loads no settings)."""
    from typing import get_args

    from mcpdeps.cli.lint import argv
    from mcpdeps.lint_rules import config

    assert get_args(argv.FailOn) == get_args(config.FailOn)
