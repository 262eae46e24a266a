"""`lint --fix` and `new` never lose data: a write is atomic, a changed file is refused.

The kill tests start the real CLI on many large files and SIGKILL it at seeded random
moments spread over its whole run: start-up and analysis (a random time), and writing
(once a random number of files is written, seen in the folder). After each kill, every
file must be byte-for-byte its old content or the content a completed run writes, with
its mode and line endings: never a truncated or mixed file. A killed process cannot clean
up its temporary file, so `.NAME.*.mcpdeps-*` leftovers are allowed (they never replace
anything); they are counted, not hidden.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_mcpdeps
from mcpdeps.lint_rules.config import LintConfig
from mcpdeps.lint_rules.fixes.engine import plan_fixes, write_plan
from mcpdeps.lint_rules.settings import merge

FILES = 40
KILLS = 8
SEED = 20261130
BLOB = 64_000
"""Bytes of string in each module: many times a write buffer, so a writer that is not atomic
would be seen half-way. (It was 300 kB when the kills were timed, to make the run long enough
to land in: half of each run's CPU went to analysing it. The kills during the writes are now
placed by watching them.)"""


def _module(i: int, crlf: bool) -> bytes:
    """A large server module with one fixable diagnostic (MCPD111, a default never used)."""
    text = (
        f'"""Module {i}."""\nfrom typing import Annotated\n\nfrom mcp.server import MCPServer\n'
        f'from mcp.server.mcpserver import Resolve\n\nmcp = MCPServer("S{i}")\n\n'
        f'BLOB = """{"x" * BLOB}"""\n\n\ndef r0(title: str) -> int:\n    return 1\n\n\n'
        "@mcp.tool()\ndef t(title: str, stock: Annotated[int, Resolve(r0)] = 5) -> int:\n    return stock\n"
    )
    return (text.replace("\n", "\r\n") if crlf else text).encode()


def _project(root: Path) -> dict[str, tuple[bytes, int]]:
    """Write the project; return name -> (content, mode)."""
    root.mkdir(parents=True)
    made = {}
    for i in range(FILES):
        path = root / f"m{i:02}.py"
        path.write_bytes(_module(i, crlf=i % 3 == 0))
        mode = (0o600, 0o644, 0o755)[i % 3]
        path.chmod(mode)
        made[path.name] = (path.read_bytes(), mode)
    return made


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in root.glob("*.py")}


def _leftovers(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name.startswith(".") and "mcpdeps" in p.name)


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "mcpdeps", *args]


Stamp = tuple[int, int, int]
"""What a file's directory entry says of it: inode, size, modification time (ns)."""


def _stamps(folder: Path) -> dict[str, Stamp]:
    stamps = {}
    with os.scandir(folder) as entries:
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue  # a temporary file, renamed over its target since it was listed
            stamps[entry.name] = (st.st_ino, st.st_size, st.st_mtime_ns)
    return stamps


def _progress(folder: Path, before: dict[str, Stamp]) -> tuple[int, bool]:
    """How far the writes are: (files no longer as they were, whether a new file exists).

    A file counts once its entry changed in any way (replaced: a new inode; written in
    place: size or time), so the count follows a writer that is not atomic too; a new
    entry is the temporary file of the write in progress."""
    now = _stamps(folder)
    return sum(now.get(name) != stamp for name, stamp in before.items()), any(n not in before for n in now)


def _wait_for_writes(
    proc: subprocess.Popen[bytes], folder: Path, before: dict[str, Stamp], done: int, within: float = 300
) -> None:
    """Return once the run is writing the file after the first `done` (a temporary file beside
    them, or more changed), or has ended, or `within` seconds have passed: a moment given by
    the run's progress, not by a clock, so a loaded machine moves it no more than a fast one.

    The folder is listed every fraction of a millisecond (one directory read: a temporary file
    coming or going shows there) and its files looked at when that changed, or every 5 ms for a
    writer that leaves no temporary file: polling them all as often took half a core from the
    run it watches."""
    deadline = time.monotonic() + within
    names, looked = set(before), 0.0
    while proc.poll() is None and time.monotonic() < deadline:
        listed = set(os.listdir(folder))
        if listed != names or time.monotonic() - looked > 0.005:
            names, looked = listed, time.monotonic()
            changed, pending = _progress(folder, before)
            if changed > done or (changed == done and pending):
                return
        time.sleep(0.0003)


def _reference_run(tmp_path: Path, argv: list[str], cwd_of: str, folder_of: str) -> tuple[Path, float]:
    """Run `argv` to completion on a copy of the pristine project (`tmp_path / "reference"`);
    return the folder it wrote and the seconds from its start to its first write (the start-up
    and the analysis: the part of a run that a kill at a random time lands in)."""
    reference = tmp_path / "reference"
    shutil.copytree(tmp_path / "pristine", reference, symlinks=True)
    folder = reference / folder_of
    before = _stamps(folder)
    started = time.monotonic()
    proc = subprocess.Popen(argv, cwd=reference / cwd_of, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _wait_for_writes(proc, folder, before, 0)
    first_write = time.monotonic() - started
    _, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr.decode(errors="replace")
    return folder, first_write


def _kill_at_random_moments(
    tmp_path: Path,
    argv: list[str],
    cwd_of: str,
    folder_of: str,
    old: dict[str, bytes],
    new: dict[str, bytes],
    before_writes: float,
    sig: signal.Signals = signal.SIGKILL,
    kills: int = KILLS,
) -> list[int]:
    """Run `argv` `kills` times in a copy of the pristine project and send `sig`, then check
    every file; return how many files were already new at each kill.

    The moments are seeded: half at a random time before the first write (a fraction of
    `before_writes`, or the first write if it comes sooner: start-up, analysis, the files
    read), half once a random number of the files is written
    (while the next one is: its temporary file exists). Those are found by watching the folder,
    not by timing a run, so the writes are covered however loaded the machine is, and the test
    shares it with the others (it used to run alone: `serial`).

    SIGINT (Ctrl-C) must also leave no temporary file and no traceback: the process has the
    chance to clean up, and says "interrupted"."""
    rng = random.Random(SEED)
    written_counts = []
    for k in range(kills):
        run = tmp_path / f"run{k}"
        shutil.copytree(tmp_path / "pristine", run, symlinks=True)
        folder = run / folder_of
        before = _stamps(folder)
        proc = subprocess.Popen(argv, cwd=run / cwd_of, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if k % 2:
            _wait_for_writes(proc, folder, before, rng.randrange(len(old)))
        else:  # the first write comes first when this run is faster than the reference was
            _wait_for_writes(proc, folder, before, 0, within=rng.uniform(0.05, 1.0) * before_writes)
        proc.send_signal(sig)
        _, stderr = proc.communicate(timeout=60)
        if sig == signal.SIGINT:
            assert proc.returncode in (0, 130, -signal.SIGINT), (proc.returncode, stderr[-2000:])
            assert b"Traceback" not in stderr, stderr[-2000:]
            assert not _leftovers(folder), f"interrupt {k} left {_leftovers(folder)}"
        now = _snapshot(folder)
        assert set(now) == set(old), f"kill {k}: files appeared or vanished"
        for name, data in now.items():
            assert data in (old[name], new[name]), f"kill {k}: {name} is neither the old nor the new content"
            pristine = tmp_path / "pristine" / folder_of / name
            assert os.stat(folder / name).st_mode & 0o777 == os.stat(pristine).st_mode & 0o777
        written_counts.append(sum(now[n] == new[n] != old[n] for n in now))
        shutil.rmtree(run)
    return written_counts


FIX = _cli("lint", "proj", "--fix", "--no-cache")
NEW = _cli("new", "tool", "restock", "--in", "server.py", "--arg", "qty:int", "--sync")


def test_fix_killed_at_random_moments_leaves_every_file_old_or_new(tmp_path: Path) -> None:
    made = _project(tmp_path / "pristine" / "proj")
    old = {name: data for name, (data, _) in made.items()}
    reference, before_writes = _reference_run(tmp_path, FIX, ".", "proj")
    new = _snapshot(reference)
    for name, (data, mode) in made.items():
        assert new[name] != data and b"= 5" not in new[name]
        assert (b"\r\n" in new[name]) == (b"\r\n" in data), f"{name}: line endings changed"
        if b"\r\n" in data:
            assert new[name].count(b"\n") == new[name].count(b"\r\n"), f"{name}: bare LF in a CRLF file"
        assert os.stat(reference / name).st_mode & 0o777 == mode
    assert not _leftovers(reference)
    counts = _kill_at_random_moments(tmp_path, FIX, ".", "proj", old, new, before_writes)
    print(
        f"\n--fix ({FILES} files, {before_writes:.1f}s to the first write) killed {KILLS} times;"
        f" files already new per kill: {counts}"
    )


def test_new_killed_at_random_moments_leaves_the_module_old_or_new(tmp_path: Path) -> None:
    root = tmp_path / "pristine" / "proj"
    root.mkdir(parents=True)
    server = root / "server.py"
    server.write_bytes(_module(0, crlf=True))
    server.chmod(0o640)
    reference, before_writes = _reference_run(tmp_path, NEW, "proj", "proj")
    new = _snapshot(reference)
    old = {"server.py": server.read_bytes()}
    assert new["server.py"] != old["server.py"] and b"def restock" in new["server.py"]
    assert new["server.py"].count(b"\n") == new["server.py"].count(b"\r\n"), (
        "new wrote bare LF into a CRLF file"
    )
    assert os.stat(reference / "server.py").st_mode & 0o777 == 0o640
    counts = _kill_at_random_moments(tmp_path, NEW, "proj", "proj", old, new, before_writes, kills=KILLS // 2)
    print(f"\nnew killed {KILLS // 2} times; the module already new per kill: {counts}")


def _fix_project(root: Path) -> tuple[Path, Path]:
    root.mkdir()
    a, b = root / "a.py", root / "b.py"
    a.write_bytes(_module(1, crlf=False))
    b.write_bytes(_module(2, crlf=False))
    return a, b


def test_a_file_edited_after_planning_is_refused_and_keeps_the_edit(tmp_path: Path) -> None:
    """No monkeypatching: plan, let 'an editor' save the file, then write the plan."""
    a, b = _fix_project(tmp_path / "p")
    plan = plan_fixes(["."], merge(LintConfig()), cwd=tmp_path / "p")
    edited = a.read_bytes().replace(b'"""Module 1."""', b'"""Edited in an editor."""')
    a.write_bytes(edited)
    refused = write_plan(plan, tmp_path / "p")
    assert refused == ["a.py changed on disk while it was being fixed; it was left as it is"]
    assert a.read_bytes() == edited
    assert b"= 5" not in b.read_bytes()  # the other file was fixed


def test_a_file_deleted_after_planning_is_refused_not_recreated(tmp_path: Path) -> None:
    a, b = _fix_project(tmp_path / "p")
    plan = plan_fixes(["."], merge(LintConfig()), cwd=tmp_path / "p")
    a.unlink()
    refused = write_plan(plan, tmp_path / "p")
    assert len(refused) == 1 and refused[0].startswith("a.py")
    assert not a.exists()
    assert b"= 5" not in b.read_bytes()


def test_fix_refuses_to_touch_a_file_that_does_not_parse(tmp_path: Path) -> None:
    broken = _module(3, crlf=False) + b"\ndef broken(:\n"
    (tmp_path / "broken.py").write_bytes(broken)
    proc = run_mcpdeps("lint", "broken.py", "--fix", "--no-cache", cwd=tmp_path)
    assert proc.returncode == 1 and "MCPD000" in proc.stdout
    assert (tmp_path / "broken.py").read_bytes() == broken


@pytest.mark.parametrize("target", ["server.py", "folder"])
def test_new_refuses_what_it_cannot_edit(tmp_path: Path, target: str) -> None:
    """A module that does not parse, or a folder named where a module is expected: exit 2, untouched."""
    (tmp_path / "server.py").write_bytes(b"from mcp.server import MCPServer\nmcp = MCPServer('x')\ndef (:\n")
    (tmp_path / "folder").mkdir()
    before = (tmp_path / "server.py").read_bytes()
    proc = run_mcpdeps("new", "tool", "restock", "--in", target, "--arg", "qty:int", "--sync", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert (tmp_path / "server.py").read_bytes() == before


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
@pytest.mark.parametrize("command", ["fix", "new"])
def test_root_keeps_the_files_owner(tmp_path: Path, command: str) -> None:
    """Root fixing a user's checkout (a container, a CI job) must not leave the file owned by root."""
    path = tmp_path / "server.py"
    path.write_bytes(_module(4, crlf=False))
    os.chown(path, 4321, 4321)
    argv = (
        ("lint", "server.py", "--fix", "--no-cache")
        if command == "fix"
        else ("new", "tool", "restock", "--in", "server.py", "--arg", "qty:int", "--sync")
    )
    proc = run_mcpdeps(*argv, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert path.read_bytes() != _module(4, crlf=False)
    assert (path.stat().st_uid, path.stat().st_gid) == (4321, 4321)


def test_fix_interrupted_at_random_moments_cleans_up(tmp_path: Path) -> None:
    """Ctrl-C: every file old or new, no temporary file left, no traceback."""
    made = _project(tmp_path / "pristine" / "proj")
    old = {name: data for name, (data, _) in made.items()}
    reference, before_writes = _reference_run(tmp_path, FIX, ".", "proj")
    new = _snapshot(reference)
    counts = _kill_at_random_moments(
        tmp_path, FIX, ".", "proj", old, new, before_writes, sig=signal.SIGINT, kills=KILLS // 2
    )
    print(f"\n--fix interrupted {KILLS // 2} times; files already new per interrupt: {counts}")


LIBCST_LOSES_THIS = b"\n # a comment libcst drops\n "
"""A comment line, then a last line of only spaces without a newline: libcst 1.x parses it
to a module whose code no longer has the comment. Found by tests/test_fuzz_new.py."""


def test_fix_never_edits_through_a_lossy_parse(tmp_path: Path) -> None:
    source = _module(5, crlf=False) + LIBCST_LOSES_THIS
    (tmp_path / "server.py").write_bytes(source)
    proc = run_mcpdeps("lint", "server.py", "--fix", "--no-cache", cwd=tmp_path)
    assert "Traceback" not in proc.stderr
    assert (tmp_path / "server.py").read_bytes() == source  # the fix is not offered, the comment stays


def test_new_refuses_a_module_it_cannot_reproduce(tmp_path: Path) -> None:
    source = _module(6, crlf=False) + LIBCST_LOSES_THIS
    (tmp_path / "server.py").write_bytes(source)
    proc = run_mcpdeps(
        "new", "tool", "restock", "--in", "server.py", "--arg", "qty:int", "--sync", cwd=tmp_path
    )
    assert proc.returncode == 2 and "cannot be edited safely" in proc.stderr, proc.stderr
    assert (tmp_path / "server.py").read_bytes() == source
