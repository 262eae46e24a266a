"""A non-editable install works: the wheel carries every package and the templates,
and the installed `mcpdeps` lints the shipped example from outside the checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import EXAMPLES, REPO

SKIP = shutil.ignore_patterns(
    ".git",
    ".venv",
    "node_modules",
    "__pycache__",
    ".mcpdeps_cache",
    "build",
    "*.egg-info",
    ".cache",
    "corpus",
)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("pkg")
    source = work / "src"
    shutil.copytree(REPO, source, ignore=SKIP)
    out = work / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(out),
            str(source),
        ],
        check=True,
        timeout=300,
    )
    return next(out.glob("mcpdeps-*.whl"))


def test_wheel_has_every_package_templates_and_the_script(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {"mcpdeps", "mcpdeps-0.1.0.dist-info"}, (
        "one import package and its metadata, nothing else at the top of site-packages"
    )
    for package in (REPO / "cli", REPO / "resolver_core", REPO / "lint_rules", REPO / "templates"):
        for init in package.rglob("__init__.py"):
            assert f"mcpdeps/{init.relative_to(REPO).as_posix()}" in names, "every package ships"
    assert {"mcpdeps/__init__.py", "mcpdeps/__main__.py"} <= set(names)
    assert any(n.startswith("mcpdeps/templates/") and not n.endswith(".py") for n in names), (
        "template files are package data"
    )
    assert not any(
        n.startswith("mcpdeps/") and n.endswith((".md", ".toml")) for n in names if "/templates/" not in n
    ), "the repository's own files (README, pyproject) are not package data"
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "mcpdeps = mcpdeps.cli.main:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_installed_copy_lints_from_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
        timeout=300,
    )
    shutil.copytree(EXAMPLES / "bookshop", tmp_path / "bookshop")
    env = {**os.environ, "PYTHONPATH": str(target), "NO_COLOR": "1"}
    version = subprocess.run(
        [sys.executable, "-m", "mcpdeps", "--version"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert version.returncode == 0 and version.stdout.startswith("mcpdeps ")
    where = subprocess.run(
        [sys.executable, "-c", "import mcpdeps; print(mcpdeps.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert where.stdout.startswith(str(target)), "the installed copy, not the checkout, is what runs"
    lint = subprocess.run(
        [sys.executable, "-m", "mcpdeps", "lint", "--no-cache", "bookshop"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert "All checks passed" in lint.stdout
