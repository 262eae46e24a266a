"""Two projects made by `mcpdeps new server`, installed (not editable) into one environment, both work.

Before each project had its own package, both installed `site-packages/server.py` and the
second silently replaced the first. Real `pip install`s of the real generated projects; each
console script serves its own server to a real SDK stdio client.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_mcpdeps

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: the generated projects installed into one venv.

PROJECTS = ("bookshop", "library")

PROBE = """
import json, os, sys, anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

async def main():
    params = StdioServerParameters(command=sys.argv[1], args=[], env=dict(os.environ))
    async with Client(params) as client:
        result = await client.call_tool("greet", {"name": "Ada"})
        print(json.dumps({"server": client.server_info.name, "text": result.content[0].text}))

anyio.run(main)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Both projects scaffolded, then installed by pip into one target folder."""
    root = tmp_path_factory.mktemp("two-servers")
    for name in PROJECTS:
        proc = run_mcpdeps("new", "server", name, cwd=root)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    target = root / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target)]
        + [str(root / name) for name in PROJECTS],
        check=True,
        timeout=600,
    )
    return target


def _env(site: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(site)}


def test_each_project_installs_its_own_package(site: Path) -> None:
    tops = sorted(p.name for p in site.iterdir() if not p.name.endswith(".dist-info"))
    assert tops == ["bin", *PROJECTS], "one package per project; no shared top-level `server` module"
    for name in PROJECTS:
        assert (site / name / "server.py").is_file()


def test_both_servers_import_side_by_side(site: Path) -> None:
    code = "from bookshop.server import mcp as a; from library.server import mcp as b; print(a.name, b.name)"
    proc = subprocess.run(
        [sys.executable, "-c", code], env=_env(site), cwd=site.parent, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == list(PROJECTS)


@pytest.mark.parametrize("name", PROJECTS)
def test_each_console_script_serves_its_own_server(site: Path, name: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(site / "bin" / name)],
        env=_env(site),
        cwd=site.parent,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"server": name, "text": "Hello, Ada!"}
