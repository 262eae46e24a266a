"""One folder or file the user cannot read does not break the run (issue 34, item 7).

As a non-root user, a folder like a database volume (mode 700, another owner) used to end
`lint .` with "internal error: PermissionError" and no results, and an unreadable file was
called "does not exist". Now what cannot be read is skipped and said once, and the rest is
checked. The tests run the real CLI as `nobody` (a process of another user is the subject;
root reads everything), on a project in a folder `nobody` may enter.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

NOBODY = pwd.getpwnam("nobody") if os.geteuid() == 0 else None
pytestmark = pytest.mark.skipif(NOBODY is None, reason="needs root, to run as another user")

SERVER = (
    "from typing import Annotated\n\nfrom mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Resolve\n\nmcp = MCPServer('s')\n\n\n"
    "def r0(title: str) -> int:\n    return 1\n\n\n"
    "@mcp.tool()\ndef t(title: str, stock: Annotated[int, Resolve(r0)] = 5) -> int:\n    return stock\n"
)


@pytest.fixture
def project() -> Iterator[Path]:
    """A project `nobody` can read, holding a root-only folder (`db/`, 700) and file (`secret.py`, 600)."""
    root = Path(tempfile.mkdtemp(prefix="mcpdeps-unreadable-"))
    root.chmod(0o755)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    (root / "server.py").write_text(SERVER)
    (root / "db").mkdir()
    (root / "db" / "volume.py").write_text("x = 1\n")
    (root / "db").chmod(0o700)
    (root / "secret.py").write_text("TOKEN = 'x'\n")
    (root / "secret.py").chmod(0o600)
    yield root
    shutil.rmtree(root)


def _cli(argv: tuple[str, ...]) -> int:
    """Run the CLI in this process; its exit code."""
    from mcpdeps.cli.main import main

    sys.argv = ["mcpdeps", *argv]
    try:
        main()
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    return 0


def _as_nobody(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The CLI run by `nobody`, in a forked child (the interpreter lives where `nobody` cannot
    read it, so no new process can run as it). The same command runs first as root in this
    process, so every module the child needs is already imported."""
    assert NOBODY is not None
    import colorsys  # noqa: F401  (rich converts colours with it when it prints an error)

    import rich.console  # noqa: F401  (a report with findings is rendered by rich: load it here)

    saved = (sys.argv, os.getcwd())
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            _cli(argv)
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            pid = os.fork()
            if pid == 0:  # the child: become nobody for good, run, leave
                code = 70
                try:
                    os.setgroups([])
                    os.setgid(NOBODY.pw_gid)
                    os.setuid(NOBODY.pw_uid)
                    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                        code = _cli(argv)
                    out.flush()
                    err.flush()
                finally:
                    os._exit(code)
            _, status = os.waitpid(pid, 0)
            out.seek(0)
            err.seek(0)
            return subprocess.CompletedProcess(
                argv, os.waitstatus_to_exitcode(status), out.read(), err.read()
            )
    finally:
        sys.argv = saved[0]
        os.chdir(saved[1])


def test_lint_skips_an_unreadable_folder_says_so_once_and_checks_the_rest(project: Path) -> None:
    proc = _as_nobody("lint", "--no-cache", "--format", "json", ".", cwd=project)
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    codes = {(d["path"], d["code"]) for d in report["diagnostics"]}
    assert ("server.py", "MCPD111") in codes  # the rest was checked
    unreadable = [d for d in report["diagnostics"] if d["path"] == "secret.py"]
    assert [d["code"] for d in unreadable] == ["MCPD000"]
    assert "permission denied" in unreadable[0]["message"].lower()
    assert "does not exist" not in unreadable[0]["message"]
    info = [line for line in proc.stderr.splitlines() if "db" in line]
    assert len(info) == 1 and "cannot be read" in info[0] and "permission denied" in info[0].lower(), (
        proc.stderr
    )
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("named", ["secret.py", "db/volume.py"])
def test_an_unreadable_file_named_is_not_called_missing(project: Path, named: str) -> None:
    proc = _as_nobody("lint", "--no-cache", named, cwd=project)
    assert "does not exist" not in proc.stdout + proc.stderr
    assert "permission denied" in (proc.stdout + proc.stderr).lower()
    assert proc.returncode in (1, 2) and "Traceback" not in proc.stderr


def test_graph_skips_an_unreadable_folder(project: Path) -> None:
    proc = _as_nobody("graph", "--format", "json", ".", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert [s["path"] for s in json.loads(proc.stdout)["servers"]] == ["server.py"]
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr


def test_the_language_server_model_checks_the_rest(project: Path) -> None:
    """The editor's model of the folder (what `mcpdeps lsp` publishes from), built as `nobody`."""
    from mcpdeps.cli.lsp.workspace import WorkspaceModel

    def check() -> list[str]:
        model = WorkspaceModel(project)
        model.check(model.order)
        return sorted(f"{d.path}:{d.code}" for d in model.report())

    as_root = check()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(NOBODY.pw_gid)  # type: ignore[union-attr]
            os.setuid(NOBODY.pw_uid)  # type: ignore[union-attr]
            os.write(write, json.dumps(check()).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as answer:
        found = json.loads(answer.read() or "null")
    os.waitpid(pid, 0)
    assert "server.py:MCPD111" in as_root
    assert found is not None and "server.py:MCPD111" in found and "secret.py:MCPD000" in found, found
