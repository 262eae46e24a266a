"""Helpers in a folder without `__init__.py` (a namespace package), checked against the SDK.

`from features import alpha` where `features/` has no `__init__.py`: Python imports the
submodule `features.alpha` all the same, and the server starts with alpha's tools. lint read
`features` as a module outside the project (a namespace package has no file of its own), so
`alpha.register(mcp)` was no call of a project helper: `lint .` said MCPD113 (not analysed)
where the SDK refuses the resolver, and `lint app/main.py` alone said nothing.

Each project's tool runs `load_d(nope)`, which the SDK refuses at registration; the SDK is run
as the server starts (a subprocess importing the entry point). `lint .`, `lint FILE` alone for
the helper and for the entry point must all report MCPD002 in the helper's file, and nothing
once `load_d(x)` makes the project one the SDK accepts.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import lint_diagnostics, located, write_files

HELPER = textwrap.dedent(
    """\
    from typing import Annotated

    from mcp.server.mcpserver import Resolve


    def load_d(nope: str) -> str:
        return nope


    def register(mcp) -> None:
        @mcp.tool()
        def t{n}(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
            return d
"""
)

CLEAN = ("def load_d(nope: str) -> str:\n    return nope", "def load_d(x: int) -> str:\n    return str(x)")

ENTRY = "from app.server import mcp\n"

CASES: dict[str, dict[str, str]] = {
    "from the namespace package import the helper module": {
        "app/main.py": ENTRY + "from features import alpha\n\nalpha.register(mcp)\n",
    },
    "several helper modules, called in a loop": {
        "app/main.py": ENTRY
        + "from features import alpha, beta\n\nfor m in (beta, alpha):\n    m.register(mcp)\n",
        "features/beta.py": HELPER.format(n="_b").replace(*CLEAN),
    },
    "a relative import inside the namespace package": {
        "features/every.py": "from . import alpha\n\n\ndef register_all(mcp) -> None:\n    alpha.register(mcp)\n",
        "app/main.py": ENTRY + "from features import every\n\nevery.register_all(mcp)\n",
    },
    "the submodule imported under its dotted name": {
        "app/main.py": ENTRY + "import features.alpha as alpha\n\nalpha.register(mcp)\n",
    },
}


def _project(root: Path, files: dict[str, str]) -> None:
    write_files(
        root,
        {
            "pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n",
            "app/__init__.py": "",
            "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('x')\n",
            "features/alpha.py": HELPER.format(n=""),
            **files,
        },
    )


def _sdk(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "import app.main"], cwd=root, capture_output=True, text=True)


@pytest.mark.parametrize("case", sorted(CASES))
def test_lint_follows_helpers_in_a_namespace_package_as_the_sdk_does(tmp_path: Path, case: str) -> None:
    _project(tmp_path, CASES[case])
    assert not (tmp_path / "features/__init__.py").exists()
    refused = _sdk(tmp_path)
    assert "InvalidSignature: Resolver 'load_d' parameter 'nope'" in refused.stderr, refused.stderr
    whole = lint_diagnostics(tmp_path, "--no-cache", ".")
    bad = "features/alpha.py"
    assert [(d["code"], d["path"]) for d in whole] == [("MCPD002", bad)], whole
    for alone in (bad, "app/main.py"):
        assert located(lint_diagnostics(tmp_path, "--no-cache", alone), bad) == whole, alone

    path = tmp_path / bad
    path.write_text(path.read_text().replace(*CLEAN))
    accepted = _sdk(tmp_path)
    assert accepted.returncode == 0, accepted.stderr
    assert lint_diagnostics(tmp_path, "--no-cache", ".") == []
    assert lint_diagnostics(tmp_path, "--no-cache", "app/main.py") == []
