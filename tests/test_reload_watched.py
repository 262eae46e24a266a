"""What `serve --reload` watches (`cli/serve/watched.py`), on real folders.

The folders lint never walks into are not watched (each would be an inotify watch, and
every write there a restart); the ones it walks are, each on its own. The process-level
behaviour (a huge cache, a folder created later, Ctrl+C) is in `tests/test_interrupts.py`.
"""

from __future__ import annotations

import itertools
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from mcpdeps.cli.serve.watched import WatchPlan, reload_plan, source_changes

SKIPPED = (
    ".git",
    ".mcpdeps_cache",
    "__pycache__",
    "node_modules",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".tox",
    ".nox",
    "build",
    "shop.egg-info",
    "generated",
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text('[tool.mcpdeps]\nextend-exclude = ["generated"]\n')
    (tmp_path / "server.py").write_text("")
    for name in (*SKIPPED, "shop/tools", "shop/__pycache__", "docs/.hidden"):
        (tmp_path / name / "inner").mkdir(parents=True)
    for venv in (".venv", "env"):  # a venv is known by its pyvenv.cfg, whatever its name
        (tmp_path / venv / "lib").mkdir(parents=True)
        (tmp_path / venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (tmp_path / "linked").symlink_to(tmp_path / "shop", target_is_directory=True)
    return tmp_path


def _watched(plan: WatchPlan, root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in plan.folders_to_watch()}


def test_the_source_root_without_caches_venvs_or_excluded_folders(project: Path) -> None:
    plan = reload_plan(None, project, project / "server.py", [], project)
    assert plan.exclude == ("generated",)
    assert _watched(plan, project) == {
        ".",
        "shop",
        "shop/tools",
        "shop/tools/inner",
        "docs",
        "docs/.hidden",
        "docs/.hidden/inner",
    }
    assert plan.skipped_at_top() == sorted({*SKIPPED, ".venv", "env"} - {"__pycache__"})


def test_what_git_ignores_is_not_watched_unless_git_ignores_the_whole_tree(project: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / ".gitignore").write_text("data/\nscratch/\n")
    (project / "data" / "runs" / "1").mkdir(parents=True)
    (project / "scratch" / "app" / "sub").mkdir(parents=True)
    plan = reload_plan(None, project, project / "server.py", [], project)
    watched = _watched(plan, project)
    assert "shop/tools" in watched and not any(p.startswith(("data", "scratch")) for p in watched)
    assert {"data", "scratch"} <= set(plan.skipped_at_top())
    (project / "data" / "new").mkdir()
    assert not plan.new_tree(project / "data" / "new")

    app = project / "scratch" / "app"  # a server in an ignored scratch folder
    inside = reload_plan(None, app, app / "server.py", [], project)
    assert _watched(inside, app) == {".", "sub"}


def test_a_reload_dir_is_watched_as_given_even_a_venv(project: Path) -> None:
    plan = reload_plan([Path(".venv"), Path("shop")], project, project / "server.py", [], project)
    assert _watched(plan, project) == {".venv", ".venv/lib", "shop", "shop/tools", "shop/tools/inner"}


def test_an_env_files_folder_outside_is_watched_alone(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    elsewhere = tmp_path_factory.mktemp("home")
    (elsewhere / "big" / "tree").mkdir(parents=True)
    inside = reload_plan(None, project, project / "server.py", [project / "shop" / ".env"], project)
    outside = reload_plan(None, project, project / "server.py", [elsewhere / ".env"], project)
    assert inside.folders == ()
    assert outside.folders == (elsewhere.resolve(),)
    assert elsewhere.resolve() / "big" not in outside.folders_to_watch()


def test_a_new_folder_is_watched_unless_it_is_skipped(project: Path) -> None:
    plan = reload_plan(None, project, project / "server.py", [], project)
    (project / "shop" / "new").mkdir()
    assert plan.new_tree(project / "shop" / "new")
    assert not plan.new_tree(project / "node_modules" / "inner")
    assert not plan.new_tree(project / "env" / "lib")
    assert not plan.new_tree(project / "server.py")


def test_folders_that_come_and_go_do_not_end_the_watch(tmp_path: Path) -> None:
    """Temporary folders created and removed at once (a build, a tool's scratch space): each is
    a new walk, and one gone before its watch is set must not end watching (it raised
    FileNotFoundError out of watchfiles)."""
    server = tmp_path / "server.py"
    server.write_text("")
    plan = WatchPlan((tmp_path.resolve(),))
    stop = threading.Event()

    def churn() -> None:
        n = 0
        while not stop.is_set():
            scratch = tmp_path / f"tmp{n % 5}"
            (scratch / "a" / "b").mkdir(parents=True, exist_ok=True)
            shutil.rmtree(scratch, ignore_errors=True)
            n += 1

    def edit() -> None:
        while not stop.wait(0.5):
            server.write_text(f"x = {time.monotonic()}\n")

    def too_long(signum: int, frame: object) -> None:
        raise TimeoutError("no change reported in 30 s")

    workers = [threading.Thread(target=churn), threading.Thread(target=edit)]
    previous = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(30)
    changes = source_changes(plan)
    try:
        for worker in workers:
            worker.start()
        seen = list(itertools.islice(changes, 3))  # three batches naming a source
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        stop.set()
        for worker in workers:
            worker.join()
        changes.close()
    assert all(names == ["server.py"] for names in seen), seen
