"""`main(argv)` runs in any process, as often as asked; the tests' in-process runs leave it as they found it.

Importing mcpdeps sets nothing up (a fresh interpreter, whose start is the subject, shows
it); `main(argv)` does what its run needs. The runner behind `run_mcpdeps`
(`tests/in_process.py`) gives each run its folder, environment, streams and exit code, and
puts back what a run may change: a run after another sees what a new process would.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps

TOOL_SERVER = """
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("{name}")


def {resolver}() -> str:
    return "x"


@mcp.tool()
def {tool}(value: Annotated[str, Resolve({resolver})]) -> str:
    return value
"""


def _project(root: Path, name: str, tool: str, resolver: str) -> Path:
    root.mkdir()
    (root / "server.py").write_text(TOOL_SERVER.format(name=name, tool=tool, resolver=resolver))
    return root


def test_importing_mcpdeps_sets_nothing_up() -> None:
    """Under a `lint` command line, importing the entry point leaves the collector on and the
    environment alone (it used to act on `sys.argv` when imported)."""
    probe = textwrap.dedent(
        """
        import gc, json, os, sys
        sys.argv = ["mcpdeps", "lint", "."]
        before = dict(os.environ)
        import mcpdeps.cli.main, mcpdeps.cli.app
        print(json.dumps({"gc": gc.isenabled(), "env": dict(os.environ) == before}))
        """
    )
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"gc": True, "env": True}


def test_main_given_a_list_runs_it_and_keeps_the_callers_collector(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`main(argv)` reads the list, not `sys.argv`, and may be called again; it does not switch
    off the collector of a process that is not its own."""
    from mcpdeps.cli.main import main

    monkeypatch.setattr(sys, "argv", ["pytest", "graph", "--live"])
    monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS", raising=False)
    for _ in range(2):
        with pytest.raises(SystemExit) as ended:
            main(["rule", "MCPD001"])
        assert ended.value.code in (0, None)
        assert "MCPD001" in capsys.readouterr().out
    assert gc.isenabled()
    assert os.environ["PYDANTIC_DISABLE_PLUGINS"] == "__all__"  # a static command's own setting


def test_a_run_leaves_the_folder_environment_streams_and_handlers_as_they_were(tmp_path: Path) -> None:
    before = _process_state()
    proc = run_mcpdeps("lint", ".", cwd=tmp_path, env={"MCPDEPS_TEST_ONLY": "1"})
    assert proc.returncode == 0, proc.stderr
    assert before == _process_state()


def _process_state() -> tuple[object, ...]:
    """What a run in this process must leave as it found: folder, environment, argv, streams,
    the SIGINT handler and the cyclic collector."""
    return (
        os.getcwd(),
        dict(os.environ),
        sys.argv,
        (sys.stdin, sys.stdout, sys.stderr),
        signal.getsignal(signal.SIGINT),
        gc.isenabled(),
    )


def test_each_live_run_imports_its_own_server(tmp_path: Path) -> None:
    """Two projects, each with its own `server.py`: the second run must import the second one,
    as a new process would, not find the first one's module still imported; and this process's
    own `server`, if any, is neither seen by the runs nor replaced by theirs."""
    own = sys.modules.get("server")  # a test before may have imported an example's itself
    first = _project(tmp_path / "first", "First", "first_tool", "first_resolver")
    second = _project(tmp_path / "second", "Second", "second_tool", "second_resolver")
    for project, tool in ((first, "first_tool"), (second, "second_tool")):
        proc = run_mcpdeps("graph", "--live", "--format", "json", "server.py", cwd=project)
        assert proc.returncode == 0, proc.stderr
        servers = json.loads(proc.stdout)["servers"]
        tools = [t["name"] for server in servers for t in server["tools"]]
        assert tools == [tool]
    assert sys.modules.get("server") is own


def test_exit_codes_and_output_are_those_of_a_process(tmp_path: Path) -> None:
    """The same command line, in the process and in a new one: the same code and the same text."""
    (tmp_path / "broken.py").write_text("def broken(:\n")
    for args in (("lint", "broken.py"), ("rule", "MCPD999"), ("no-such-command",), ("--version",)):
        inside = run_mcpdeps(*args, cwd=tmp_path)
        fresh = run_mcpdeps(*args, cwd=tmp_path, fresh=True)
        assert (inside.returncode, inside.stdout, inside.stderr) == (
            fresh.returncode,
            fresh.stdout,
            fresh.stderr,
        ), args


def test_input_is_the_runs_standard_input(tmp_path: Path) -> None:
    source = (REPO / "examples" / "bookshop" / "server.py").read_text(encoding="utf-8")
    proc = run_mcpdeps(
        "lint", "-", "--stdin-filename", "server.py", "--format", "json", input=source, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["summary"]["parsed"] == 1


def test_a_run_past_its_timeout_is_stopped_as_subprocess_stops_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """An in-process run cannot be killed: an alarm interrupts it, and the caller gets what
    `subprocess.run` raises, with what was printed so far."""
    import mcpdeps.cli.main

    def stuck(argv: list[str]) -> None:
        print("started")
        time.sleep(30)

    monkeypatch.setattr(mcpdeps.cli.main, "main", stuck)
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired) as expired:
        run_mcpdeps("lint", timeout=0.5)
    assert time.monotonic() - started < 10
    assert expired.value.output == "started\n"
