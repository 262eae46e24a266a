"""npm tools the tests drive, installed once per clone into `.mcpdeps_cache/npm-tools/` (git-ignored).

A clean CI clone installs them itself on first use; later runs (and parallel
xdist workers, serialised by a file lock) reuse the install. The Inspector's
version is the one `mcpdeps serve --inspector` pins, so the tests exercise what
users get.
"""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
from pathlib import Path

from mcpdeps.cli.serve.inspector import INSPECTOR_PACKAGE, INSPECTOR_VERSION

TOOLS_DIR = Path(__file__).resolve().parent.parent / ".mcpdeps_cache" / "npm-tools"
"""In the ignored cache folder at the repository root, not among the tests."""
INSTALL_TIMEOUT = 600


class NpmUnavailable(RuntimeError):
    """npm is not installed: tests that need Node tools skip with this reason."""


def _installed_version(package: str) -> str | None:
    manifest = TOOLS_DIR / "node_modules" / package / "package.json"
    try:
        return str(json.loads(manifest.read_text(encoding="utf-8"))["version"])
    except (OSError, ValueError, KeyError):
        return None


def ensure_package(package: str, version: str) -> Path:
    """Install `package@version` into TOOLS_DIR unless that exact version is there; return its folder."""
    npm = shutil.which("npm")
    if npm is None:
        raise NpmUnavailable("npm is not on PATH (Node.js is needed for the MCP Inspector)")
    TOOLS_DIR.mkdir(parents=True, exist_ok=True)
    with open(TOOLS_DIR / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _installed_version(package) != version:
            manifest = TOOLS_DIR / "package.json"
            if not manifest.exists():
                manifest.write_text('{"name": "mcpdeps-test-tools", "private": true}\n', encoding="utf-8")
            installed = subprocess.run(
                [npm, "install", "--no-audit", "--no-fund", "--save-exact", f"{package}@{version}"],
                cwd=TOOLS_DIR,
                capture_output=True,
                text=True,
                timeout=INSTALL_TIMEOUT,
            )
            if installed.returncode != 0:
                raise RuntimeError(f"npm install {package}@{version} failed:\n{installed.stderr[-2000:]}")
    return TOOLS_DIR / "node_modules" / package


def inspector_bin() -> Path:
    """The pinned MCP Inspector's launcher (`mcp-inspector`), installed if needed."""
    ensure_package(INSPECTOR_PACKAGE, INSPECTOR_VERSION)
    return TOOLS_DIR / "node_modules" / ".bin" / "mcp-inspector"
