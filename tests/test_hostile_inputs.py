"""Hostile and careless inputs end in one sentence, exit 2, no hang, no secret echoed.
Every case through the real CLI."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from call_helpers import QUESTIONS, call
from conftest import run_mcpdeps
from test_write_guard import FIXABLE

SECRET = "sk-live-0123456789abcdef"


def _one_sentence(proc, code: int = 2) -> str:  # type: ignore[no-untyped-def]
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    return proc.stderr


def test_a_malformed_env_line_names_line_and_key_never_the_value(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(f"OK=1\nAPI_TOKEN {SECRET}\n")
    proc = run_mcpdeps("serve", str(QUESTIONS), "--env-file", str(env), "--transport", "stdio", input="")
    said = _one_sentence(proc)
    assert "line 2" in said and "API_TOKEN" in said
    assert SECRET not in said and "sk-live" not in said


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda d: Path("/dev/zero"), "not a regular file"),
        (lambda d: _fifo(d / "answers.json"), "not a regular file"),
        (lambda d: d.joinpath("deep.json").write_text("[" * 100_000) and d / "deep.json", "nested more than"),
        (lambda d: d.joinpath("bytes.json").write_bytes(b"\xff\xfe{}") and d / "bytes.json", "not UTF-8"),
        (
            lambda d: (
                d.joinpath("nested.json").write_text(
                    json.dumps({"trip_details": {"action": "accept", "content": {"nights": {"deep": [1]}}}})
                )
                and d / "nested.json"
            ),
            "no known shape",
        ),
        (lambda d: d / "missing.json", "does not exist"),
        (lambda d: d, "is a directory"),
    ],
    ids=["dev-zero", "fifo", "deep-json", "not-utf8", "nested-content", "missing", "folder"],
)
def test_answers_files_that_cannot_be_answers(tmp_path: Path, make, expected: str) -> None:  # type: ignore[no-untyped-def]
    answers = make(tmp_path)
    started = time.monotonic()
    proc = call(QUESTIONS, "plan_trip", "--arg", "city=Lyon", "--answers", answers, timeout=60)
    assert expected in _one_sentence(proc)
    assert time.monotonic() - started < 50


def test_deep_args_json_is_a_sentence() -> None:
    proc = call(QUESTIONS, "plan_trip", "--args-json", "[" * 100_000)
    assert "nested more than" in _one_sentence(proc)


@pytest.mark.parametrize("kind", ["lint", "report"])
@pytest.mark.parametrize("replacement", ["fifo", "dev-zero", "huge"])
def test_a_cache_state_that_is_not_a_state_is_ignored(tmp_path: Path, replacement: str, kind: str) -> None:
    """The lint state (`mcpdeps-lint-*`, read once the report memo is gone) or the report memo
    (`mcpdeps-report-*`) replaced by what no reader may block on or load whole."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    (tmp_path / "server.py").write_text(QUESTIONS.read_text())
    first = run_mcpdeps("lint", "--format", "json", "server.py", cwd=tmp_path)
    cache = tmp_path / ".mcpdeps_cache" / "lint"
    [state] = cache.glob(f"mcpdeps-{kind}-*.json")
    if kind == "lint":
        [memo] = cache.glob("mcpdeps-report-*.json")
        memo.unlink()
    state.unlink()
    if replacement == "fifo":
        os.mkfifo(state)
    elif replacement == "dev-zero":
        state.symlink_to("/dev/zero")
    else:
        with state.open("wb") as f:
            f.truncate(2**30)  # sparse: costs no disk
    again = run_mcpdeps("lint", "--format", "json", "server.py", cwd=tmp_path, timeout=60)
    assert again.returncode == first.returncode and again.stdout == first.stdout, again.stderr


def test_config_naming_a_folder_says_so(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text("x = 1\n")
    said = _one_sentence(run_mcpdeps("lint", "--config", str(tmp_path), "server.py", cwd=tmp_path))
    assert "names the folder" in said and "does not exist" not in said


def test_an_unknown_host_is_a_sentence() -> None:
    proc = run_mcpdeps(
        "serve", str(QUESTIONS), "--transport", "http", "--host", "no-such-host.invalid", timeout=60
    )
    assert "not an address or a host name" in _one_sentence(proc)


def test_a_bracketed_ipv6_host_is_the_address() -> None:
    from mcpdeps.cli.serve.http import plain_host

    assert plain_host("[::1]") == "::1" and plain_host("127.0.0.1") == "127.0.0.1"


QUOTED = """from mcp.server import MCPServer

mcp = MCPServer("s")  # to silence a rule here, write "# mcpdeps: ignore[MCPD002]" after it
"""


def test_a_quoted_directive_in_a_comment_is_prose(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(QUOTED)
    proc = run_mcpdeps(
        "lint", "--no-cache", "--format", "json", "--select", "MCPD114", "server.py", cwd=tmp_path
    )
    assert json.loads(proc.stdout)["diagnostics"] == []
    fixed = run_mcpdeps("lint", "--no-cache", "--fix", "--select", "MCPD114", "server.py", cwd=tmp_path)
    assert fixed.returncode == 0 and (tmp_path / "server.py").read_text() == QUOTED


def test_a_refused_write_is_not_counted_as_fixed(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(FIXABLE)
    (tmp_path / "server.py").chmod(0o444)
    proc = run_mcpdeps("lint", "--no-cache", "--fix", "server.py", cwd=tmp_path)
    assert "in 0 files" not in proc.stderr and "Fixed" not in proc.stderr
    assert "read-only" in _one_sentence(proc)


TYPO_SHARED = """from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("s")


def owner(titel: str) -> str:
    return titel


@mcp.tool()
def a(title: str, who: Annotated[str, Resolve(owner)]) -> str:
    return who


@mcp.tool()
def b(titel: str, who: Annotated[str, Resolve(owner)]) -> str:
    return who
"""


def test_after_fix_declines_a_rename_nothing_is_offered_again(tmp_path: Path) -> None:
    """Renaming `titel` to `title` would break tool `b`: --fix declines, and must not then say
    the problem "may be fixed with --fix"."""
    (tmp_path / "server.py").write_text(TYPO_SHARED)
    before = run_mcpdeps("lint", "--no-cache", "server.py", cwd=tmp_path)
    assert "MCPD002" in before.stdout
    proc = run_mcpdeps("lint", "--no-cache", "--fix", "server.py", cwd=tmp_path)
    assert "MCPD002" in proc.stdout
    assert "may be fixed" not in proc.stdout + proc.stderr


def test_new_resolver_into_a_file_without_a_final_newline_ends_with_one(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text('from mcp.server import MCPServer\n\nmcp = MCPServer("x")')
    proc = run_mcpdeps("new", "resolver", "owner", "--in", "server.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "server.py").read_text()
    assert text.endswith("\n") and 'mcp = MCPServer("x")\n' in text


SLOW = """import time

from mcp.server import MCPServer

mcp = MCPServer("slow")


@mcp.tool()
def nap(seconds: int) -> str:
    time.sleep(seconds)
    return "done"
"""


def _servers_of(spec: str) -> list[int]:
    """Pids of `mcpdeps serve SPEC` processes (read from /proc: nothing to install)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in argv and spec.encode() in argv:
            found.append(int(entry.name))
    return found


def test_ctrl_c_on_call_stdio_leaves_no_server_running(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    spec = str(tmp_path / "slow.py")
    (tmp_path / "slow.py").write_text(SLOW)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcpdeps", "call", "--stdio", spec, "nap", "--arg", "seconds=120"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not _servers_of(spec) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _servers_of(spec), "the serve child started"
        time.sleep(2)  # the tool is running in the server's worker thread
        proc.send_signal(signal.SIGINT)  # what Ctrl-C sends to the foreground process
        proc.communicate(timeout=30)
        assert proc.returncode == 130
        deadline = time.monotonic() + 10
        while _servers_of(spec) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _servers_of(spec) == [], "the server outlived its call"
    finally:
        for pid in _servers_of(spec):
            os.kill(pid, 9)
        if proc.poll() is None:
            proc.kill()


HOSTILE_NAME = "evil\x1b]0;pwned\x07\x1b[2J\nMCPD001 forged.py"

BARE = """from mcp.server import MCPServer

mcp = MCPServer("s")


@mcp.tool
def shout(text: str) -> str:
    return text
"""


@pytest.mark.parametrize(
    "command",
    [("lint", "--no-cache"), ("lint", "--no-cache", "--format", "concise"), ("graph",)],
    ids=["lint-full", "lint-concise", "graph"],
)
def test_terminal_escapes_in_file_names_are_escaped(tmp_path: Path, command: tuple[str, ...]) -> None:
    folder = tmp_path / HOSTILE_NAME
    folder.mkdir()
    (folder / "server.py").write_text(BARE)
    proc = run_mcpdeps(*command, ".", cwd=tmp_path, env={"COLUMNS": "300"})
    out = proc.stdout + proc.stderr
    assert "\x1b" not in out and "\x07" not in out, repr(out)
    assert "\\x1b]0;pwned\\x07\\x1b[2J\\nMCPD001 forged.py" in out
    assert not any(line.startswith("MCPD001 forged.py") for line in out.splitlines())


@pytest.mark.parametrize("fmt", ["full", "json"])
@pytest.mark.parametrize("stdout", ["full disk", "closed"])
def test_a_report_that_cannot_be_written_says_so(tmp_path: Path, stdout: str, fmt: str) -> None:
    """`lint >/dev/full` and `lint >&-`: one sentence naming standard output, exit 2, whether
    the report was computed or replayed from the memo (the third run)."""
    import subprocess
    import sys

    (tmp_path / "server.py").write_text(QUESTIONS.read_text())
    for args in (["--no-cache"], [], []):
        with open(os.devnull if stdout == "closed" else "/dev/full", "w") as sink:
            proc = subprocess.run(
                [sys.executable, "-m", "mcpdeps", "lint", "--format", fmt, *args, "server.py"],
                cwd=tmp_path,
                stdout=sink,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
                preexec_fn=(lambda: os.close(1)) if stdout == "closed" else None,
            )
        said = _one_sentence(proc)
        expected = "standard output is closed" if stdout == "closed" else "to standard output: No space left"
        assert expected in said and said.count("\n") == 1, said


@pytest.mark.parametrize("argv", [("serve", "--transport", "stdio"), ("graph", "--live")], ids=" ".join)
def test_a_nul_in_the_configured_server_spec_is_one_sentence(tmp_path: Path, argv: tuple[str, ...]) -> None:
    """argv cannot carry a NUL, pyproject.toml can (`"\\u0000"`): it was an internal error."""
    (tmp_path / "server.py").write_text("from mcp.server import MCPServer\n\nmcp = MCPServer('n')\n")
    (tmp_path / "pyproject.toml").write_text('[tool.mcpdeps]\nserve = "ser\\u0000ver.py"\n')
    said = _one_sentence(run_mcpdeps(*argv, cwd=tmp_path, input=""))
    assert "contains a NUL character" in said and "pyproject.toml" in said
