"""The real renderers the picture tests feed: Graphviz `dot`, and Mermaid in a headless Chromium.

A clean CI machine gets them on first use: `graphviz` and `chromium` from Debian
(`apt-get`, when the tests run as root), `@mermaid-js/mermaid-cli` (which brings
`mermaid` and `puppeteer`) from npm into the git-ignored `.mcpdeps_cache/npm-tools/`.
Puppeteer's own Chrome download is skipped: Debian's Chromium is used instead.
Installs are serialised by a file lock so parallel workers do not race.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from npm_tools import TOOLS_DIR, ensure_package

MERMAID_CLI = "@mermaid-js/mermaid-cli"
MERMAID_CLI_VERSION = "11.12.0"
RENDER_SCRIPT = Path(__file__).resolve().parent / "graph_render_mermaid.mjs"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


class RendererUnavailable(RuntimeError):
    """A renderer is missing and cannot be installed here; the message says what to install."""


def _apt_install(package: str) -> None:
    """`apt-get install -y PACKAGE` (after one `apt-get update`), as root only."""
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        raise RendererUnavailable(f"install the Debian package {package!r} (apt-get install {package})")
    TOOLS_DIR.mkdir(parents=True, exist_ok=True)
    with open(TOOLS_DIR / ".apt.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update"], check=True, capture_output=True, env=env, timeout=600)
        subprocess.run(
            ["apt-get", "install", "-y", "--no-install-recommends", package],
            check=True,
            capture_output=True,
            env=env,
            timeout=900,
        )


def debian_program(program: str, package: str) -> str:
    """A program from a Debian package, installed when missing (RendererUnavailable if it cannot be)."""
    if shutil.which(program) is None:
        _apt_install(package)
    found = shutil.which(program)
    if found is None:
        raise RendererUnavailable(f"{package} was installed but `{program}` is not on PATH")
    return found


def graphviz_dot() -> str:
    """The `dot` program, installed from Debian's `graphviz` when missing."""
    if shutil.which("dot") is None:
        _apt_install("graphviz")
    found = shutil.which("dot")
    if found is None:
        raise RendererUnavailable("graphviz was installed but `dot` is not on PATH")
    return found


def chromium() -> str:
    """A Chromium binary for Puppeteer, installed from Debian's `chromium` when missing."""
    found = next((p for p in map(shutil.which, CHROMIUM_NAMES) if p), None)
    if found is None:
        _apt_install("chromium")
        found = next((p for p in map(shutil.which, CHROMIUM_NAMES) if p), None)
    if found is None:
        raise RendererUnavailable("chromium was installed but is not on PATH")
    return found


def mermaid_modules() -> Path:
    """`node_modules` holding mermaid-cli, mermaid and puppeteer (Chrome download skipped)."""
    previous = os.environ.get("PUPPETEER_SKIP_DOWNLOAD")
    os.environ["PUPPETEER_SKIP_DOWNLOAD"] = "1"
    try:
        ensure_package(MERMAID_CLI, MERMAID_CLI_VERSION)
    finally:
        if previous is None:
            os.environ.pop("PUPPETEER_SKIP_DOWNLOAD", None)
        else:
            os.environ["PUPPETEER_SKIP_DOWNLOAD"] = previous
    return TOOLS_DIR / "node_modules"


def render_mermaid(charts: list[dict[str, Any]], out_dir: Path) -> list[dict[str, Any]]:
    """Parse (and, for charts with `render`, draw to OUT_DIR/<index>.svg) every chart with Mermaid."""
    node = shutil.which("node")
    if node is None:
        raise RendererUnavailable("Node.js is needed to run Mermaid")
    proc = subprocess.run(
        [node, str(RENDER_SCRIPT), str(mermaid_modules()), chromium(), str(out_dir)],
        input=json.dumps(charts),
        capture_output=True,
        text=True,
        timeout=600,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the Mermaid renderer failed: {proc.stderr[-3000:]}")
    return list(json.loads(proc.stdout))
