"""A non-editable install works and touches nothing else: the wheel carries every package and the
templates under one import package, `mcpdeps`; installed by pip into a fresh venv, its files are
`mcpdeps/`, its `.dist-info` and its console script, nothing else; next to a real distribution that
ships top-level `cli/` (create-a-cli-tool, from the registry) both work, and uninstalling mcpdeps
leaves the other's files in place."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import EXAMPLES, REPO
from venv_tools import local_wheel

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: the wheel, built and installed into a new venv with its dependencies.

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
    for package in (
        REPO / "cli",
        REPO / "resolver_core",
        REPO / "lint_rules",
        REPO / "templates",
        REPO / "testing",
    ):
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
    points = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "mcpdeps = mcpdeps.cli.main:main" in points
    assert "[pytest11]\nmcpdeps = mcpdeps.testing.plugin" in points, "the pytest plugin is registered"


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


@dataclass(frozen=True)
class Venv:
    """A fresh virtual environment made by `python -m venv`, with its interpreter and site-packages."""

    root: Path
    python: Path
    site: Path

    def run(self, *args: str | Path, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        return subprocess.run(
            [str(a) for a in args],
            cwd=cwd,
            env={**env, "NO_COLOR": "1"},
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def pip(self, *args: str | Path) -> subprocess.CompletedProcess[str]:
        return self.run(self.python, "-m", "pip", "--disable-pip-version-check", *args, cwd=self.root)

    def record(self, distribution: str) -> list[str]:
        """The paths in the installed distribution's RECORD, relative to site-packages."""
        (info,) = self.site.glob(f"{distribution.replace('-', '_')}-*.dist-info")
        return [line.rsplit(",", 2)[0] for line in (info / "RECORD").read_text().splitlines() if line]


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    """The wheel, with its dependencies, installed into a new venv by that venv's own pip."""
    root = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([sys.executable, "-m", "venv", str(root)], check=True, timeout=300)
    python = root / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    made = Venv(root, python, Path(site))
    installed = made.pip("install", "-q", str(wheel))
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return made


def test_installed_record_holds_only_mcpdeps_its_metadata_and_script(venv: Venv) -> None:
    record = venv.record("mcpdeps")
    outside = sorted({path.split("/")[0] for path in record if not path.startswith("../")})
    assert outside == ["mcpdeps", "mcpdeps-0.1.0.dist-info"]
    scripts = sorted(path for path in record if path.startswith("../"))
    assert [os.path.normpath(venv.site / path) for path in scripts] == [str(venv.root / "bin" / "mcpdeps")]
    assert sum(path.startswith("mcpdeps/templates/server/") for path in record) >= 6, "the templates ship"
    assert venv.run(venv.root / "bin" / "mcpdeps", "--version", cwd=venv.root).stdout == "mcpdeps 0.1.0\n"
    # `--version` reads the distribution's metadata; SARIF and the language server read
    # `mcpdeps.__version__` (no importlib.metadata): both must be the version pyproject built.
    read = "import importlib.metadata as m, mcpdeps; print(m.version('mcpdeps'), mcpdeps.__version__)"
    assert venv.run(venv.python, "-c", read, cwd=venv.root).stdout == "0.1.0 0.1.0\n"


OTHER_USER = """
import sys

if sys.argv[1] == "page":
    from templates import PAGE

    print(PAGE.format(title=sys.argv[2]))
else:
    from cli import CLI

    app = CLI("demo", no_welcome_message=True)

    @app.command()
    def hello(name):
        print(f"hello {name}")

    app.run(interactive=False)
"""
"""A program written against create-a-cli-tool's top-level `cli` and another's top-level `templates`."""

STAND_IN_CLI = """import sys


class CLI:
    def __init__(self, name, no_welcome_message=False):
        self.commands = {}

    def command(self):
        def add(fn):
            self.commands[fn.__name__] = fn
            return fn

        return add

    def run(self, interactive=True):
        self.commands[sys.argv[1]](*sys.argv[2:])
"""
"""create-a-cli-tool's `CLI`, as much of it as the program uses (when the registry cannot be reached)."""


@pytest.fixture(scope="module")
def beside(venv: Venv, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """Installed in mcpdeps' venv: the registry's create-a-cli-tool (top-level `cli/`; a local stand-in if
    it cannot be installed) and a local distribution with a top-level `templates/`. A program using both."""
    others = ["create-a-cli-tool", "page-templates"]
    folder = tmp_path_factory.mktemp("others")
    files = {"templates/__init__.py": 'PAGE = "<h1>{title}</h1>"\n'}
    if venv.pip("install", "-q", "create-a-cli-tool").returncode != 0:
        stand_in = local_wheel(folder, "create_a_cli_tool", "0.0.0", {"cli/__init__.py": STAND_IN_CLI})
        assert venv.pip("install", "-q", str(stand_in)).returncode == 0
    assert (
        venv.pip("install", "-q", str(local_wheel(folder, "page_templates", "0.0.0", files))).returncode == 0
    )
    program = folder / "demo.py"
    program.write_text(OTHER_USER)
    return program, others


def _others_work(venv: Venv, program: Path, who: str) -> None:
    assert venv.run(venv.python, program, "hello", who, cwd=program.parent).stdout == f"hello {who}\n"
    assert venv.run(venv.python, program, "page", who, cwd=program.parent).stdout == f"<h1>{who}</h1>\n"


def test_both_work_side_by_side_and_uninstall_leaves_the_others(
    venv: Venv, beside: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """Runs last in this module: it uninstalls mcpdeps from the shared venv."""
    program, others = beside
    records = {name: venv.record(name) for name in others}
    assert any(path.startswith("cli/") for path in records["create-a-cli-tool"])
    _others_work(venv, program, "Ada")
    mcpdeps = venv.root / "bin" / "mcpdeps"
    shutil.copytree(EXAMPLES / "bookshop", tmp_path / "bookshop")
    lint = venv.run(mcpdeps, "lint", "--no-cache", "bookshop", cwd=tmp_path)
    assert lint.returncode == 0 and "All checks passed" in lint.stdout, lint.stdout + lint.stderr
    new = venv.run(mcpdeps, "new", "server", "fresh", cwd=tmp_path)
    assert new.returncode == 0, new.stdout + new.stderr
    assert (tmp_path / "fresh" / "src" / "fresh" / "server.py").is_file(), "mcpdeps' own templates"
    graph = venv.run(mcpdeps, "graph", "--live", "--format", "json", "bookshop/server.py", cwd=tmp_path)
    assert graph.returncode == 0 and '"order_book"' in graph.stdout, graph.stderr
    _others_work(venv, program, "Ada")

    removed = venv.pip("uninstall", "-y", "mcpdeps")
    assert removed.returncode == 0, removed.stderr
    assert not (venv.site / "mcpdeps").exists() and not mcpdeps.exists()
    for name, record in records.items():
        missing = [path for path in record if not path.endswith(".pyc") and not (venv.site / path).exists()]
        assert missing == [], f"uninstalling mcpdeps removed {name}'s files"
    _others_work(venv, program, "Bo")
