"""`[tool.mcpdeps]`: found upward, validated (exit 2 naming key and file), overridden by flags.

Every test writes a real project (pyproject.toml + modules) and runs the real CLI.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import run_mcpdeps

# Two findings of different codes and severities in one tool: MCPD006 (error), MCPD111 (info).
SERVER = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("s")


def who() -> str:
    return "reader"


@mcp.tool()
def t(_title: str, w: Annotated[str, Resolve(who)] = "x") -> str:
    return _title
"""


def _project(root: Path, config: str, files: dict[str, str] | None = None) -> Path:
    (root / "pyproject.toml").write_text(textwrap.dedent(config), encoding="utf-8")
    for name, text in (files or {"server.py": SERVER}).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _codes(*args: str, cwd: Path) -> tuple[int, list[tuple[str, str]]]:
    proc = run_mcpdeps("lint", "--format", "json", *args, cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, [(d["path"], d["code"]) for d in json.loads(proc.stdout)["diagnostics"]]


def test_no_config_runs_every_rule(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    assert _codes(cwd=tmp_path) == (1, [("server.py", "MCPD006"), ("server.py", "MCPD111")])


def test_select_and_ignore_accept_codes_prefixes_and_names(tmp_path: Path) -> None:
    _project(tmp_path, '[tool.mcpdeps]\nselect = ["MCPD1"]\nextend-select = ["underscore-parameter"]\n')
    assert _codes(cwd=tmp_path)[1] == [("server.py", "MCPD006"), ("server.py", "MCPD111")]
    _project(tmp_path, '[tool.mcpdeps]\nignore = ["ignored-default", "MCPD0"]\n')
    assert _codes(cwd=tmp_path) == (0, [])


def test_config_is_found_upward_from_the_linted_path(tmp_path: Path) -> None:
    _project(tmp_path, '[tool.mcpdeps]\nignore = ["MCPD006"]\n', {"pkg/server.py": SERVER})
    elsewhere = tmp_path.parent
    assert _codes(str(tmp_path / "pkg" / "server.py"), cwd=elsewhere)[1] == [
        (str(tmp_path / "pkg" / "server.py"), "MCPD111")
    ]


def test_a_pyproject_without_the_table_is_skipped_on_the_way_up(tmp_path: Path) -> None:
    _project(tmp_path, '[tool.mcpdeps]\nignore = ["MCPD111"]\n', {"sub/server.py": SERVER})
    (tmp_path / "sub" / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    assert _codes(cwd=tmp_path / "sub")[1] == [("server.py", "MCPD006")]


def test_a_pyproject_that_never_names_mcpdeps_is_not_parsed(tmp_path: Path) -> None:
    """A pyproject.toml that never spells `mcpdeps` cannot hold its table: it is skipped on the
    way up without being parsed, so one that is not even valid TOML does not stop lint (it is
    not mcpdeps' file), and a run that meets only such files imports no TOML parser."""
    _project(tmp_path, '[tool.mcpdeps]\nignore = ["MCPD111"]\n', {"sub/server.py": SERVER})
    (tmp_path / "sub" / "pyproject.toml").write_text('[project\nname = "x"\n', encoding="utf-8")
    assert _codes(cwd=tmp_path / "sub")[1] == [("server.py", "MCPD006")]
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    probe = (
        "import sys\nfrom mcpdeps.cli.main import main\ntry:\n    main()\nfinally:\n"
        "    sys.stderr.write(str('tomllib' in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, "lint", "--no-cache", "server.py"],
        cwd=tmp_path / "sub",
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr[-5:]) == (1, "False"), done.stderr


@pytest.mark.parametrize(
    "table", ['[tool."mcpdep\\u0073"]\n', '[tool]\n"mcpdep\\U00000073" = {ignore = ["MCPD111"]}\n']
)
def test_a_table_named_with_escapes_is_still_found(tmp_path: Path, table: str) -> None:
    """A quoted key may spell `mcpdeps` with escapes: such a file is parsed, and its table used."""
    body = table if "ignore" in table else table + 'ignore = ["MCPD111"]\n'
    _project(tmp_path, body)
    assert "mcpdeps" not in (tmp_path / "pyproject.toml").read_text()
    assert _codes(cwd=tmp_path)[1] == [("server.py", "MCPD006")]


def test_command_line_flags_override_the_file(tmp_path: Path) -> None:
    _project(tmp_path, '[tool.mcpdeps]\nselect = ["MCPD111"]\nfail-on = "info"\n')
    assert _codes(cwd=tmp_path) == (1, [("server.py", "MCPD111")])
    assert _codes("--fail-on", "error", cwd=tmp_path) == (0, [("server.py", "MCPD111")])
    assert _codes("--select", "MCPD006", cwd=tmp_path) == (1, [("server.py", "MCPD006")])
    assert _codes("--ignore", "MCPD111", cwd=tmp_path) == (0, [])


def test_fail_on_warning_from_the_file(tmp_path: Path) -> None:
    _project(tmp_path, '[tool.mcpdeps]\nselect = ["MCPD111"]\nfail-on = "warning"\n')
    assert _codes(cwd=tmp_path)[0] == 0  # an info is below "warning"


def test_per_file_ignores(tmp_path: Path) -> None:
    _project(
        tmp_path,
        """\
        [tool.mcpdeps.per-file-ignores]
        "legacy/*.py" = ["underscore-parameter"]
        """,
        {"legacy/old.py": SERVER, "server.py": SERVER},
    )
    assert _codes(cwd=tmp_path)[1] == [
        ("legacy/old.py", "MCPD111"),
        ("server.py", "MCPD006"),
        ("server.py", "MCPD111"),
    ]


def test_exclude_and_extend_exclude(tmp_path: Path) -> None:
    files = {"server.py": SERVER, "gen/a.py": SERVER, "vendor/b.py": SERVER}
    _project(
        tmp_path,
        '[tool.mcpdeps]\nselect = ["MCPD006"]\nexclude = ["gen"]\nextend-exclude = ["vendor"]\n',
        files,
    )
    assert _codes(cwd=tmp_path)[1] == [("server.py", "MCPD006")]
    assert _codes("--exclude", "server.py", cwd=tmp_path)[1] == [("gen/a.py", "MCPD006")]


def test_exclude_does_not_match_a_dot_folder_without_its_dot(tmp_path: Path) -> None:
    """`gen` skips `gen/` but not `.gen/` (the folder's leading dot was once stripped before matching)."""
    files = {"server.py": SERVER, ".gen/a.py": SERVER, "gen/b.py": SERVER}
    _project(tmp_path, '[tool.mcpdeps]\nselect = ["MCPD006"]\nexclude = ["gen"]\n', files)
    assert _codes(cwd=tmp_path)[1] == [(".gen/a.py", "MCPD006"), ("server.py", "MCPD006")]


def test_src_adds_a_source_root(tmp_path: Path) -> None:
    """`src` lets `import deps` resolve to lib/deps.py, so the cycle inside it is found."""
    deps = textwrap.dedent(
        """\
        from __future__ import annotations
        from typing import Annotated
        from mcp.server.mcpserver import Resolve

        def a(x: Annotated[int, Resolve(b)]) -> int:
            return x

        def b(y: Annotated[int, Resolve(a)]) -> int:
            return y
        """
    )
    server = textwrap.dedent(
        """\
        from typing import Annotated
        from mcp.server import MCPServer
        from mcp.server.mcpserver import Resolve
        import deps

        mcp = MCPServer("s")

        @mcp.tool()
        def t(v: Annotated[int, Resolve(deps.a)]) -> int:
            return v
        """
    )
    _project(
        tmp_path,
        '[tool.mcpdeps]\nselect = ["MCPD001", "MCPD007"]\n',
        {"app/server.py": server, "lib/deps.py": deps},
    )
    assert _codes("app", cwd=tmp_path)[1] == []  # `deps` is not found: treated as a third-party module
    _project(tmp_path, '[tool.mcpdeps]\nselect = ["MCPD001", "MCPD007"]\nsrc = ["lib"]\n', {})
    assert _codes("app", cwd=tmp_path)[1] == [("lib/deps.py", "MCPD001")]


def test_explicit_config_file(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    (tmp_path / "ci.toml").write_text('select = ["ignored-default"]\n', encoding="utf-8")
    assert _codes("--config", "ci.toml", cwd=tmp_path)[1] == [("server.py", "MCPD111")]
    (tmp_path / "pyproject.toml").write_text('[tool.mcpdeps]\nselect = ["MCPD006"]\n', encoding="utf-8")
    assert _codes("--config", "pyproject.toml", cwd=tmp_path)[1] == [("server.py", "MCPD006")]


def test_serve_key_is_allowed(tmp_path: Path) -> None:
    _project(tmp_path, '[tool.mcpdeps]\nserve = "server.py:mcp"\n')
    assert _codes(cwd=tmp_path)[0] == 1


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ('[tool.mcpdeps]\nselec = ["MCPD001"]\n', "unknown key 'selec' (did you mean 'select'?)"),
        ('[tool.mcpdeps]\nfail_on = "info"\n', "unknown key 'fail_on' (did you mean 'fail-on'?)"),
        (
            '[tool.mcpdeps]\nfail-on = "fatal"\n',
            "bad value for 'fail-on': Input should be 'error', 'warning' or 'info'",
        ),
        ('[tool.mcpdeps]\nselect = "MCPD001"\n', "bad value for 'select'"),
        ('[tool.mcpdeps]\nignore = ["MCPD999"]\n', "ignore names 'MCPD999', which is no rule"),
        (
            '[tool.mcpdeps.per-file-ignores]\n"a.py" = ["no-such-rule"]\n',
            "per-file-ignores.'a.py' names 'no-such-rule'",
        ),
        ("[tool.mcpdeps]\nselect = [\n", "is not valid TOML"),
        # The parser's own ValueError (Python's limit on an integer's digits), not its
        # TOMLDecodeError: the same sentence (it was an internal error).
        (f"[tool.mcpdeps]\nx = {'1' * 5000}\n", "is not valid TOML: Exceeds the limit (4300 digits)"),
    ],
)
def test_bad_config_is_an_exit_2_sentence_naming_key_and_file(
    tmp_path: Path, config: str, expected: str
) -> None:
    _project(tmp_path, config)
    proc = run_mcpdeps("lint", cwd=tmp_path)
    assert proc.returncode == 2
    assert expected in proc.stderr
    assert str(tmp_path / "pyproject.toml") in proc.stderr
    assert "Traceback" not in proc.stderr
    verbose = run_mcpdeps("lint", "-v", cwd=tmp_path)
    assert verbose.returncode == 2 and "Traceback" in verbose.stderr


def test_missing_config_file_and_unknown_flag_rule(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    missing = run_mcpdeps("lint", "--config", "nope.toml", cwd=tmp_path)
    assert missing.returncode == 2 and "nope.toml does not exist" in missing.stderr
    unknown = run_mcpdeps("lint", "--select", "MCPD999", cwd=tmp_path)
    assert unknown.returncode == 2 and "--select" in unknown.stderr and "MCPD999" in unknown.stderr
