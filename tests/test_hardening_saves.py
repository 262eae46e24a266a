"""A save that lands while mcpdeps writes is never lost, and a rewrite keeps the file's metadata
(issue 34, items 1 and 6).

The writer checks identity and content at the last moment (after the slow part, the fsync)
and, where the system can swap two names atomically, looks again at what it displaced:
a save caught there is put back. The deterministic tests land a save inside the fsync;
the race tests run an editor-like saver against every writer (`lint --fix`'s `write_plan`,
`new`'s `write_atomic`) and count the saves that disappeared: 35 and 44 of 60 before the
last look, 1 and 2 of 60 (saves by rename) with the last look alone, none with the swap.
"""

from __future__ import annotations

import errno
import os
import random
import struct
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from mcpdeps.cli.new.files import write_atomic as new_write
from mcpdeps.lint_rules.config import LintConfig
from mcpdeps.lint_rules.fixes import renames
from mcpdeps.lint_rules.fixes.engine import plan_fixes, write_plan
from mcpdeps.lint_rules.settings import merge

FIXABLE = (  # MCPD111: a default that is never used, fixed by removing it
    "from typing import Annotated\n\nfrom mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Resolve\n\nmcp = MCPServer('s')\n\n\n"
    "def r0(title: str) -> int:\n    return 1\n\n\n"
    "@mcp.tool()\ndef t(title: str, stock: Annotated[int, Resolve(r0)] = 5) -> int:\n    return stock\n"
)
SAVED = FIXABLE.replace("return 1", "return 2  # saved in the editor")


def save_in_place(path: Path, text: str) -> None:
    """How vim with `backupcopy=yes` and many IDEs save: truncate and write the same inode."""
    with open(path, "w") as f:
        f.write(text)


def save_by_rename(path: Path, text: str) -> None:
    """How VS Code's atomic save, emacs and most tools save: a new file renamed over the name."""
    tmp = path.with_name(f".{path.name}.editor")
    tmp.write_text(text)
    os.replace(tmp, path)


SAVERS = {"in place": save_in_place, "by rename": save_by_rename}


def _project(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    (root / "server.py").write_text(FIXABLE)
    return root / "server.py"


def _save_during_fsync(monkeypatch: pytest.MonkeyPatch, save: Callable[[], None]) -> list[int]:
    """Make the writer's fsync slow enough for the user to save meanwhile (once)."""
    real, calls = os.fsync, []

    def slow_fsync(fd: int) -> None:
        real(fd)
        if not calls:
            save()
        calls.append(fd)

    monkeypatch.setattr(os, "fsync", slow_fsync)
    return calls


@pytest.mark.parametrize("swap", [True, False], ids=["swap", "no swap"])
@pytest.mark.parametrize("saver", SAVERS)
def test_a_save_during_the_fix_write_is_kept_and_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, saver: str, swap: bool
) -> None:
    """Also where names cannot be swapped (`renames.exchange` says so): the last look catches it."""
    if not swap:
        monkeypatch.setattr(renames, "exchange", lambda a, b: False)
    server = _project(tmp_path / "p")
    plan = plan_fixes(["server.py"], merge(LintConfig()), cwd=server.parent)
    assert plan.changed() == ["server.py"]
    calls = _save_during_fsync(monkeypatch, lambda: SAVERS[saver](server, SAVED))
    refused = write_plan(plan, server.parent)
    assert calls, "the writer flushed its file"
    assert server.read_text() == SAVED
    assert refused == ["server.py changed on disk while it was being fixed; it was left as it is"]
    assert plan.refused == {"server.py"}
    assert sorted(p.name for p in server.parent.iterdir()) == ["pyproject.toml", "server.py"]


@pytest.mark.parametrize("saver", SAVERS)
def test_a_save_during_news_write_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, saver: str
) -> None:
    server = _project(tmp_path / "p")
    monkeypatch.chdir(server.parent)
    _save_during_fsync(monkeypatch, lambda: SAVERS[saver](server, SAVED))
    with pytest.raises(OSError) as caught:
        new_write(server, FIXABLE + "\n# added\n", expected=FIXABLE.encode())
    assert "changed on disk" in str(caught.value)
    assert server.read_text() == SAVED


def test_new_never_replaces_a_file_created_meanwhile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file `new` creates that someone else created first is theirs: refused, not replaced."""
    _project(tmp_path / "p")
    monkeypatch.chdir(tmp_path / "p")
    fresh = tmp_path / "p" / "tools.py"
    _save_during_fsync(monkeypatch, lambda: fresh.write_text("# someone else's\n"))
    with pytest.raises(OSError):
        new_write(fresh, "# mcpdeps's\n", expected=None)
    assert fresh.read_text() == "# someone else's\n"


RACES = 60


Writer = Callable[[Path], Callable[[], None]]
"""Prepares a write of one file (plans the fix, generates the code) and returns the write."""


def _race(tmp_path: Path, saver: Callable[[Path, str], None], prepare: Writer) -> tuple[int, int]:
    """RACES rounds of one write against one save at a random moment around it; returns
    (saves lost, writes refused). A save is lost when the file no longer holds its line."""
    rng = random.Random(34)
    lost = refused = 0
    for i in range(RACES):
        server = _project(tmp_path / f"r{i}")
        write = prepare(server)
        mark = f"saved in the editor {i}"
        editor = threading.Timer(
            rng.uniform(0, 0.003), saver, (server, SAVED.replace("saved in the editor", mark))
        )
        editor.start()
        try:
            write()
        except OSError:
            refused += 1
        editor.join()
        lost += mark not in server.read_text()
    return lost, refused


def _fix_writer(server: Path) -> Callable[[], None]:
    plan = plan_fixes(["server.py"], merge(LintConfig()), cwd=server.parent)

    def write() -> None:
        if write_plan(plan, server.parent):
            raise OSError("refused")

    return write


def _new_writer(server: Path) -> Callable[[], None]:
    text = server.read_text()
    return lambda: new_write(server, text + "\n# added\n", expected=text.encode())


@pytest.mark.parametrize("saver", SAVERS)
@pytest.mark.parametrize("writer", ["fix", "new"])
def test_saves_racing_every_writer_are_never_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, saver: str, writer: str
) -> None:
    """An editor that saves by rename never loses a save. One that saves in place (truncate,
    then write through a file it opened) can still, rarely, write into the file the swap has
    just displaced: its `open` came before the writer's last look and its `write` after it,
    and no writer that renames can see a write through a descriptor it does not hold. On a
    loaded machine that window widens (one in 60 was seen with other tests running), so in
    place a save or two may go; before the last look and the swap, 35 to 44 of 60 did."""
    monkeypatch.chdir(tmp_path)
    lost, refused = _race(tmp_path, SAVERS[saver], _fix_writer if writer == "fix" else _new_writer)
    allowed = 0 if saver == "by rename" else 2
    assert lost <= allowed, f"{lost} of {RACES} saves lost ({refused} writes refused)"


def _acl(*entries: tuple[int, int, int]) -> bytes:
    """A POSIX access ACL in the kernel's xattr form: version 2, then (tag, perm, id) entries."""
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *e) for e in entries)


USER_OBJ, USER, GROUP_OBJ, MASK, OTHER = 0x01, 0x02, 0x04, 0x10, 0x20
UNDEFINED = 0xFFFFFFFF
ACL = _acl(
    (USER_OBJ, 6, UNDEFINED),
    (USER, 6, 4321),  # one more user may write
    (GROUP_OBJ, 4, UNDEFINED),
    (MASK, 6, UNDEFINED),
    (OTHER, 0, UNDEFINED),
)


def _xattrs(path: Path) -> dict[str, bytes]:
    return {name: os.getxattr(path, name) for name in sorted(os.listxattr(path))}


def _with_metadata(server: Path) -> dict[str, bytes] | None:
    try:
        os.setxattr(server, "user.origin", b"downloaded from the wiki")
        os.setxattr(server, "system.posix_acl_access", ACL)
    except OSError as exc:
        if exc.errno in (errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM):
            return None
        raise
    return _xattrs(server)


def test_fix_keeps_acls_extended_attributes_and_mode(tmp_path: Path) -> None:
    server = _project(tmp_path / "p")
    before = _with_metadata(server)
    if before is None:
        pytest.skip("this file system keeps no extended attributes or ACLs")
    mode = server.stat().st_mode
    plan = plan_fixes(["server.py"], merge(LintConfig()), cwd=server.parent)
    assert write_plan(plan, server.parent) == []
    assert server.read_text() != FIXABLE
    assert _xattrs(server) == before
    assert oct(server.stat().st_mode) == oct(mode)  # the group bits are still the ACL's mask


def test_new_keeps_acls_extended_attributes_and_mode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = _project(tmp_path / "p")
    monkeypatch.chdir(server.parent)
    before = _with_metadata(server)
    if before is None:
        pytest.skip("this file system keeps no extended attributes or ACLs")
    mode = server.stat().st_mode
    new_write(server, FIXABLE + "\n# added\n", expected=FIXABLE.encode())
    assert server.read_text().endswith("# added\n")
    assert (_xattrs(server), oct(server.stat().st_mode)) == (before, oct(mode))


def test_metadata_that_cannot_be_kept_is_said_and_the_file_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file system that refuses an attribute on the new file (as `security.*` can): no silent loss."""
    server = _project(tmp_path / "p")
    if _with_metadata(server) is None:
        pytest.skip("this file system keeps no extended attributes")
    real = os.setxattr

    def refusing(path: object, name: str, *args: object, **kwargs: object) -> None:
        if name == "user.origin":
            raise OSError(errno.EPERM, "Operation not permitted")
        real(path, name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "setxattr", refusing)
    plan = plan_fixes(["server.py"], merge(LintConfig()), cwd=server.parent)
    refused = write_plan(plan, server.parent)
    assert server.read_text() == FIXABLE
    assert len(refused) == 1 and "user.origin" in refused[0] and "left as it is" in refused[0], refused
    assert sorted(p.name for p in server.parent.iterdir()) == ["pyproject.toml", "server.py"]
