"""Real virtual environments for the tests that run servers under another interpreter.

Built once per machine into `.mcpdeps_cache/venvs/` (git-ignored), each under a file lock
(parallel xdist workers wait for the first one, then reuse it), and named by a hash of
what goes in, so a changed requirement builds a new one. A clean CI clone builds them on
first use. Costs kept down: `--without-pip` venvs filled by this interpreter's pip
(`pip --python`), `--no-deps` where only metadata matters, pip's own cache for the
downloads, and the mcpdeps wheel rebuilt only when the sources change (its dependencies
stay installed; only the wheel is replaced).
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / ".mcpdeps_cache" / "venvs"
INSTALL_TIMEOUT = 900
SOURCES = (
    "__init__.py",
    "__main__.py",
    "pyproject.toml",
    "README.md",
    "cli",
    "resolver_core",
    "lint_rules",
    "templates",
    "testing",
)
"""What the mcpdeps wheel is built from (its hash names the wheel)."""


@contextlib.contextmanager
def _locked(name: str) -> Iterator[None]:
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _digest(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else part.encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def python_of(venv: Path) -> Path:
    return venv / "bin" / "python"


def _pip(venv: Path, *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python_of(venv)), "install", "-q", *args],
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT,
    )
    if done.returncode != 0:
        raise RuntimeError(f"pip install {' '.join(args)} failed:\n{done.stderr[-3000:]}")


def venv(
    name: str,
    requirements: Sequence[str] = (),
    *,
    no_deps: Sequence[str | Path] = (),
    python: Path | None = None,
) -> Path:
    """A venv holding `requirements` (with their dependencies) and `no_deps` (without), built once.

    `python`: the interpreter it is made from (this one by default)."""
    interpreter = str(python or sys.executable)
    key = _digest(
        sys.version if python is None else interpreter, *requirements, *(_file_key(p) for p in no_deps)
    )
    folder = CACHE / f"{name}-{key}"
    with _locked(folder.name):
        if (folder / ".complete").is_file():
            return folder
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run([interpreter, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
        if requirements:
            _pip(folder, *requirements)
        if no_deps:
            _pip(folder, "--no-deps", *map(str, no_deps))
        (folder / ".complete").write_text("ok\n", encoding="utf-8")
    return folder


def _file_key(item: str | Path) -> str:
    path = Path(item)
    return _digest(path.name, path.read_bytes()) if path.is_file() else str(item)


def _sources_digest() -> str:
    h = hashlib.sha256()
    for entry in SOURCES:
        base = REPO / entry
        files = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
        for path in files:
            if "__pycache__" in path.parts:
                continue
            h.update(path.relative_to(REPO).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def mcpdeps_wheel() -> Path:
    """The mcpdeps wheel of the current sources, built once per source state."""
    folder = CACHE / "wheels" / _sources_digest()
    with _locked("wheel"):
        found = sorted(folder.glob("mcpdeps-*.whl"))
        if found:
            return found[0]
        work = CACHE / "wheels" / "src"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        for entry in SOURCES:
            source = REPO / entry
            if source.is_dir():
                shutil.copytree(source, work / entry, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(source, work / entry)
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder), str(work)],
            check=True,
            timeout=INSTALL_TIMEOUT,
            capture_output=True,
        )
        shutil.rmtree(work, ignore_errors=True)
        return sorted(folder.glob("mcpdeps-*.whl"))[0]


def mcpdeps_tool_venv() -> Path:
    """mcpdeps installed on its own, as pipx or `uv tool install` would: its wheel and its dependencies.

    The dependencies are installed once (keyed by pyproject.toml); the wheel is swapped
    in whenever the sources change.
    """
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]

    wheel = mcpdeps_wheel()
    dependencies = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "dependencies"
    ]
    folder = venv("mcpdeps-tool", dependencies)
    with _locked(folder.name):
        marker = folder / ".wheel"
        if not marker.is_file() or marker.read_text(encoding="utf-8") != str(wheel):
            _pip(folder, "--no-deps", "--force-reinstall", str(wheel))
            marker.write_text(str(wheel), encoding="utf-8")
    return folder


def local_wheel(folder: Path, name: str, version: str, files: dict[str, str]) -> Path:
    """A tiny pure-Python distribution, written as a wheel by hand (what pip installs, nothing built)."""
    dist = f"{name}-{version}.dist-info"
    entries = {
        **files,
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: mcpdeps-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for path, text in entries.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    record.append(f"{dist}/RECORD,,")
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in [*entries.items(), (f"{dist}/RECORD", "\n".join(record) + "\n")]:
            archive.writestr(zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0)), text)
    return wheel
