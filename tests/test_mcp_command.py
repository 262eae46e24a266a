"""`mcpdeps mcp` as a program: its own source is clean and drawable, the Inspector drives it, bad options exit 2.

The server is the project's showcase of `Resolve`: `mcpdeps lint cli/agent` must find
nothing and `mcpdeps graph cli/agent/server.py` must draw every resolver it runs,
with the questions they ask. The MCP Inspector's CLI (the version `serve --inspector`
pins) lists the tools and calls `lint` over stdio.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps
from mcp_helpers import cli_json, make_workspace, without_workspace
from test_serve_inspector import inspector as pinned_inspector  # noqa: F401 - a fixture: the pinned Inspector
from test_serve_support import cli_env

SOURCE = REPO / "cli" / "agent"


def test_its_own_source_lints_clean() -> None:
    document = cli_json("lint", "--format", "json", "--no-cache", "cli/agent", cwd=REPO)
    assert document["diagnostics"] == []
    assert document["summary"]["files"] == len(list(SOURCE.glob("*.py")))
    done = run_mcpdeps("lint", "--no-cache", "cli/agent", cwd=REPO)
    assert done.returncode == 0 and "All checks passed!" in done.stdout, done.stdout


def test_graph_draws_its_resolvers_and_questions() -> None:
    document = cli_json("graph", "--format", "json", "cli/agent/server.py", cwd=REPO)
    (server,) = document["servers"]
    tools = {t["name"]: t for t in server["tools"]}
    assert list(tools) == ["lint", "graph", "explain", "fix"]
    assert tools["lint"]["arguments"] == ["paths", "select", "ignore"]
    assert tools["fix"]["arguments"] == ["paths", "codes", "unsafe_fixes"]
    assert set(tools["fix"]["resolved"]) == {"proposal", "can_ask", "consent"}
    resolvers = {r["name"]: r for r in document["resolvers"].values()}
    assert resolvers["client_roots"]["asks"] == "list_roots"
    assert resolvers["confirm_fix"]["asks"] == "elicit"
    assert sorted(resolvers["current_workspace"]["used_by"]) == ["fix", "graph", "lint"]
    tree = run_mcpdeps("graph", "cli/agent/server.py", cwd=REPO)
    assert tree.returncode == 0 and "✗" not in tree.stdout
    assert "asks the user (Elicit)" in tree.stdout and "asks the client for its roots" in tree.stdout


def test_the_sdk_is_never_shadowed() -> None:
    """No folder of the package is named `mcp`: from any of them, `import mcp` is still the SDK."""
    package_dirs = [REPO, *(p.parent for p in REPO.glob("*/**/__init__.py") if ".venv" not in p.parts)]
    assert not [d for d in package_dirs if (d / "mcp").exists()]
    probe = "import mcp, mcpdeps.cli.agent.server as s; print(mcp.__file__); print(type(s.server).__module__)"
    for cwd in (REPO, REPO / "cli", SOURCE):
        done = subprocess.run(
            [sys.executable, "-c", probe], cwd=cwd, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        sdk_file, server_module = done.stdout.split()
        assert "site-packages" in Path(sdk_file).parts, sdk_file
        assert server_module.startswith("mcp.server")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-t", "sse"], "Unknown transport 'sse'"),
        (["--log-level", "loud"], "Unknown log level 'loud'"),
        (["-t", "http", "--path", "mcp"], "--path must start with '/'"),
    ],
)
def test_bad_options_exit_2_with_a_sentence(args: list[str], message: str) -> None:
    done = run_mcpdeps("mcp", *args, cwd=REPO, timeout=60)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def test_readme_pins_the_inspector_the_tests_use() -> None:
    from mcpdeps.cli.serve.inspector import INSPECTOR_PACKAGE, INSPECTOR_VERSION

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"{INSPECTOR_PACKAGE}@{INSPECTOR_VERSION} mcpdeps mcp" in readme


def test_static_commands_do_not_import_the_sdk_for_it() -> None:
    """Registering the command must not load `mcp`: `lint` start-up stays SDK-free."""
    probe = "import sys, mcpdeps.cli.main; print('mcp' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr


def _inspector_cli(inspector: Path, cwd: Path, *args: str) -> dict[str, object]:
    result = subprocess.run(
        # a loaded machine can take more than the default 15 s to import the SDK
        [
            str(inspector),
            "--cli",
            "--connect-timeout",
            "120000",
            sys.executable,
            "-m",
            "mcpdeps",
            "mcp",
            *args,
        ],
        cwd=cwd,
        env=cli_env(),
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout[result.stdout.index("{") :])


def test_inspector_cli_lists_tools_and_calls_lint(pinned_inspector: Path, tmp_path: Path) -> None:  # noqa: F811
    inspector = pinned_inspector
    folder = make_workspace(tmp_path / "ws")
    listed = _inspector_cli(inspector, folder, "--method", "tools/list")
    tools = {t["name"]: t for t in listed["tools"]}  # type: ignore[index,union-attr]
    assert set(tools) == {"lint", "graph", "explain", "fix"}
    assert all("outputSchema" in t for t in tools.values())
    called = _inspector_cli(
        inspector, folder, "--method", "tools/call", "--tool-name", "lint", "--tool-arg", 'paths=["broken"]'
    )
    assert called["isError"] is False
    expected = cli_json("lint", "--format", "json", "--no-cache", "broken", cwd=folder)
    structured = called["structuredContent"]
    assert without_workspace(structured) == expected  # type: ignore[arg-type]
    assert structured["workspace"]["source"] == "cwd"  # type: ignore[index]
    assert "listed no roots" in structured["workspace"]["note"]  # type: ignore[index]


def test_over_stdio_it_prints_nothing_to_the_clients_log(tmp_path: Path) -> None:
    """A client keeps the stderr of the server it launched as a log: no `serve` banner there."""
    done = run_mcpdeps("mcp", cwd=tmp_path, input="")  # stdin at EOF: the session ends at once
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and done.stdout == ""
