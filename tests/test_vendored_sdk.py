"""The SDK's names are the SDK's whether `mcp` is installed or part of the tree.

Inside the SDK's own sdist (`src/mcp`, found as the project's `src/` root), its docs
examples must get the same verdicts as the same files copied out of it; and random trees
holding a vendored `mcp` package (at a root, in `src/`, as a namespace) must not change a
server's verdicts.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcpdeps.lint_rules import lint

SDIST_CACHE = REPO / ".mcpdeps_cache" / "sdist"


@pytest.fixture(scope="session")
def sdk_sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The SDK's source distribution, unpacked outside the repository (whose `.gitignore`
    would hide it from discovery); the archive is downloaded once into a gitignored folder."""
    archive = SDIST_CACHE / "mcp-2.3.0.tar.gz"
    if not archive.is_file():
        SDIST_CACHE.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "mcp==2.3.0",
                "--no-binary",
                ":all:",
                "--no-deps",
                "-q",
                "-d",
                str(SDIST_CACHE),
            ],
            capture_output=True,
            text=True,
            timeout=600,
        )
        if proc.returncode != 0 or not archive.is_file():
            pytest.skip(f"cannot download the SDK's sdist: {proc.stderr[-500:]}")
    target = tmp_path_factory.mktemp("sdist")
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    return target / "mcp-2.3.0"


def _diagnostics(*args: str, cwd: Path) -> list[tuple[str, str, int]]:
    proc = run_mcpdeps("lint", "--no-cache", "--exit-zero", "--format", "json", *args, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return sorted((d["code"], d["path"], d["line"]) for d in json.loads(proc.stdout)["diagnostics"])


def test_the_sdks_own_examples_inside_its_sdist(sdk_sdist: Path, tmp_path: Path) -> None:
    shutil.copytree(sdk_sdist / "docs_src", tmp_path / "docs_src")
    outside = _diagnostics("docs_src", cwd=tmp_path)
    assert outside, "the SDK's examples include some the linter reports (ctx.elicit, duplicates)"
    assert _diagnostics("docs_src", cwd=sdk_sdist) == outside
    graph = run_mcpdeps("graph", "docs_src/dependencies/tutorial004.py", cwd=sdk_sdist)
    assert graph.returncode == 0, graph.stderr
    assert "No MCPServer found" not in graph.stdout and "suggest_title" in graph.stdout


SERVER = """from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("v")


def owner(user_id: str) -> str:
    return user_id


@mcp.tool()
def show(title: str, who: Annotated[str, Resolve(owner)], _hidden: int = 0) -> str:
    return who
"""

VENDORED = {  # a stand-in SDK: classes of the SDK's names, none of which is the SDK's behaviour
    "__init__.py": "",
    "server/__init__.py": "from mcp.server.mcpserver import MCPServer\n",
    "server/mcpserver/__init__.py": (
        "class MCPServer:\n    def tool(self, *a, **k):\n        return lambda f: f\n\n\n"
        "class Context: ...\n\n\nclass Resolve:\n    def __init__(self, fn): ...\n"
    ),
}


@settings(
    max_examples=int(os.environ.get("EXAMPLES", "12")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    where=st.sampled_from(["", "src", "vendor", "lib/third_party"]),
    namespace=st.booleans(),
    project_file=st.booleans(),
)
def test_a_vendored_sdk_changes_no_verdict(where: str, namespace: bool, project_file: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        plain, vendored = Path(tmp) / "plain", Path(tmp) / "vendored"
        for root in (plain, vendored):
            root.mkdir()
            (root / "server.py").write_text(SERVER)
            if project_file:
                (root / "pyproject.toml").write_text("[project]\nname = 'v'\nversion = '0'\n")
        base = vendored / where / "mcp"
        for rel, text in VENDORED.items():
            if namespace and rel == "__init__.py":
                continue
            (base / rel).parent.mkdir(parents=True, exist_ok=True)
            (base / rel).write_text(text)
        src = [where] if where not in ("", "src") else []

        def codes(root: Path) -> list[tuple[str, int]]:
            result = lint(["server.py"], cwd=root, src=src) if src else lint(["server.py"], cwd=root)
            return [(d.code, d.line) for d in result.diagnostics]

        expected = codes(plain)
        assert {c for c, _ in expected} >= {"MCPD002", "MCPD006"}
        assert codes(vendored) == expected
