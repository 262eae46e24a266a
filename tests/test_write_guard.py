"""mcpdeps writes and deletes only what is its own to touch.

`resolver_core.file_guard` decides for `lint --fix`, `new` and the lint cache: regular files
inside the project, never through a link, never splitting a hard link, only what the user
could write, keeping owner and mode; cache pruning only of files named as mcpdeps names
them; a `.gitignore` only in folders mcpdeps created.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import run_mcpdeps
from mcpdeps.lint_rules.config import LintConfig
from mcpdeps.lint_rules.fixes.engine import plan_fixes, write_plan
from mcpdeps.lint_rules.settings import merge

FIXABLE = (  # MCPD111: a default that is never used, fixed by removing it
    "from typing import Annotated\n\nfrom mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Resolve\n\nmcp = MCPServer('s')\n\n\n"
    "def r0(title: str) -> int:\n    return 1\n\n\n"
    "@mcp.tool()\ndef t(title: str, stock: Annotated[int, Resolve(r0)] = 5) -> int:\n    return stock\n"
)


CONFIGURATIONS = [("--ignore", f"MCPD1{i:02}") for i in range(1, 15)] + [
    ("--select", f"MCPD00{i}") for i in range(1, 7)
]
"""20 option sets: 20 cache states, more than the 16 a folder keeps."""


def _project(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    return root


def _fix(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_mcpdeps("lint", "--no-cache", "--fix", "--exit-zero", *args, cwd=cwd)


def test_cache_dir_dot_keeps_the_users_files_and_hides_nothing_from_git(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    (root / "server.py").write_text(FIXABLE)
    mine = root / "lint"
    mine.mkdir()
    for i in range(20):
        (mine / f"{i:032x}.json").write_text("{}")
        os.utime(mine / f"{i:032x}.json", (1, 1))  # the oldest files of the folder
    for option in CONFIGURATIONS:
        proc = run_mcpdeps("lint", "--cache-dir", ".", "--exit-zero", *option, "server.py", cwd=root)
        assert proc.returncode == 0, proc.stderr
    assert len(list(mine.glob("0*.json"))) == 20, "every file of the user's is still there"
    assert len(list(mine.glob("mcpdeps-lint-*.json"))) == 16, "mcpdeps pruned its own states"
    assert not (root / ".gitignore").exists(), "a `*` .gitignore at the project root hides the project"


def test_a_linked_cache_folder_loses_no_unrelated_file(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    (root / "server.py").write_text(FIXABLE)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for i in range(30):
        (elsewhere / f"{i}.json").write_text("{}")
        os.utime(elsewhere / f"{i}.json", (1, 1))
    (root / ".mcpdeps_cache").mkdir()
    (root / ".mcpdeps_cache" / "lint").symlink_to(elsewhere)
    for option in CONFIGURATIONS:
        assert run_mcpdeps("lint", "--exit-zero", *option, "server.py", cwd=root).returncode == 0
    assert len(list(elsewhere.glob("[0-9]*.json"))) == 30


def test_fix_never_writes_through_a_link_out_of_the_project(tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text(FIXABLE)
    root = _project(tmp_path / "p")
    (root / "server.py").symlink_to(outside)
    proc = _fix(".", cwd=root)
    assert outside.read_text() == FIXABLE
    assert proc.returncode == 2 and "symbolic link" in proc.stderr and "Traceback" not in proc.stderr


def test_fix_keeps_a_hard_link_whole(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    (root / "server.py").write_text(FIXABLE)
    os.link(root / "server.py", root / "alias.txt")
    proc = _fix("server.py", cwd=root)
    assert (root / "alias.txt").read_text() == (root / "server.py").read_text() == FIXABLE
    assert os.stat(root / "server.py").st_ino == os.stat(root / "alias.txt").st_ino
    assert proc.returncode == 2 and "hard links" in proc.stderr


def test_fix_leaves_a_read_only_file_alone(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    (root / "server.py").write_text(FIXABLE)
    (root / "server.py").chmod(0o444)
    proc = _fix("server.py", cwd=root)
    assert (root / "server.py").read_text() == FIXABLE
    assert proc.returncode == 2 and "read-only" in proc.stderr


def test_two_link_aliases_of_one_file_are_fixed_once(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    (root / "server.py").write_text(FIXABLE)
    (root / "alias.py").symlink_to("server.py")
    proc = _fix(".", cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert "= 5" not in (root / "server.py").read_text()
    assert (root / "alias.py").is_symlink()
    assert "changed on disk" not in proc.stderr


NOBODY = pwd.getpwnam("nobody") if os.geteuid() == 0 else None


def _write_as_nobody(folder: Path) -> list[str]:
    """Plan the fixes (as root), then write them from a forked child that became `nobody`
    (the interpreter lives where `nobody` cannot read it, so no new process can run as it)."""
    assert NOBODY is not None
    plan = plan_fixes(["server.py"], merge(LintConfig()), cwd=folder)
    assert plan.changed(), "there is something to fix"
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop privileges for good, write, report, leave
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(NOBODY.pw_gid)
            os.setuid(NOBODY.pw_uid)
            refused = write_plan(plan, folder)
            os.write(write, json.dumps(refused).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as answer:
        data = answer.read()
    os.waitpid(pid, 0)
    return json.loads(data)


@pytest.mark.skipif(NOBODY is None, reason="needs root, to write as another user")
def test_another_users_file_in_a_world_writable_folder_is_not_replaced(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777 & ~0o1000)  # world-writable, no sticky bit: anyone may rename over files
    (shared / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    (shared / "server.py").write_text(FIXABLE)  # owned by root, 0644
    (shared / "server.py").chmod(0o644)
    refused = _write_as_nobody(shared)
    st = os.stat(shared / "server.py")
    assert (st.st_uid, (shared / "server.py").read_text()) == (0, FIXABLE)
    assert refused and "server.py" in refused[0], refused


@pytest.mark.skipif(NOBODY is None, reason="needs root, to write as another user")
def test_fix_in_a_folder_the_user_cannot_write_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    (folder / "server.py").write_text(FIXABLE)
    (folder / "server.py").chmod(0o666)  # the file is writable by anyone, its folder is not
    os.chown(folder / "server.py", NOBODY.pw_uid, NOBODY.pw_gid)
    folder.chmod(0o755)
    refused = _write_as_nobody(folder)
    assert (folder / "server.py").read_text() == FIXABLE
    assert len(refused) == 1 and "server.py" in refused[0] and "permission denied" in refused[0].lower()


def test_new_refuses_to_edit_through_a_link(tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text(FIXABLE)
    root = _project(tmp_path / "p")
    (root / "server.py").symlink_to(outside)
    proc = run_mcpdeps("new", "resolver", "owner", "--in", "server.py", cwd=root)
    assert outside.read_text() == FIXABLE
    assert proc.returncode == 2 and "symbolic link" in proc.stderr
    shutil.rmtree(root)
