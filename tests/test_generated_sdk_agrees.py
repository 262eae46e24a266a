"""The errors `benchmarks/gen_shapes.py` seeds are real: the SDK refuses exactly the tools lint refuses.

The generated trees hold the verdict-equality tests (`test_shape_verdicts.py`) and the
engineers' checks of every speed change to something: they are only worth it if what they
report is what the SDK does. So a small `helpers` tree (tools registered through
`register(server)` helpers, chains of them, another module's decorator, classes, server
factories) is started under the real SDK (`tests/oracle/tree_verdicts.py`, in a subprocess:
lint never imports `mcp` in its own process), and its registration errors must be lint's
`MCPD0xx` diagnostics, tool by tool, each reported in the module holding the error (the
tool's, or the shared resolver's that tools of other modules run).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from conftest import REPO, run_mcpdeps
from mcpdeps.lint_rules.same_place import RUNS

sys.path.insert(0, str(REPO / "benchmarks"))
from gen_shapes import generate

ORACLE = REPO / "tests" / "oracle" / "tree_verdicts.py"
RESOLVER = re.compile(r"\b[Rr]esolver '(\w+)'")
"""The resolver at fault, as the SDK's message and lint's name it."""
RUNS_MESSAGE = re.compile("^" + re.escape(RUNS).replace(re.escape("{!r}"), "'(.+)'") + "$")


class Refusal(NamedTuple):
    """A registration error: the code, the tools it refuses, the resolver at fault (if any)."""

    code: str
    tools: frozenset[str]
    resolver: str | None
    path: str | None = None
    """Where lint reports it (the SDK's error names no file)."""

    def covers(self, other: Refusal) -> bool:
        """Whether this refusal says what `other` says: the same code, for one of its tools or
        at the same resolver (MCPD004 is reported once per resolver, with its first tool)."""
        same_place = bool(self.tools & other.tools) or (
            self.resolver is not None and self.resolver == other.resolver
        )
        return self.code == other.code and same_place


def _sdk(root: Path) -> list[Refusal]:
    done = subprocess.run(
        [sys.executable, str(ORACLE), str(root)], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    verdicts: dict[str, Any] = json.loads(done.stdout)
    assert verdicts["import_error"] is None, verdicts["import_error"]
    refused = [t for t in verdicts["tools"] if t["verdict"] != "ok"]
    assert all(t["code"] for t in refused), f"SDK errors with no MCPD code: {refused}"
    return [Refusal(t["code"], frozenset({t["tool"]}), _resolver(t["verdict"])) for t in refused]


def _lint(root: Path) -> list[Refusal]:
    done = run_mcpdeps("lint", "--format", "json", "--no-cache", ".", cwd=root)
    assert done.returncode in (0, 1), done.stderr
    return [
        Refusal(d["code"], frozenset({d["tool"], *_runs(d)}), _resolver(d["message"]), d["path"])
        for d in json.loads(done.stdout)["diagnostics"]
        if d["code"].startswith("MCPD0")
    ]


def _runs(d: dict[str, Any]) -> set[str]:
    """The other tools a united diagnostic (MCPD002 on a shared resolver) says run the resolver."""
    return {m.group(1) for r in d["related"] if (m := RUNS_MESSAGE.match(r["message"]))}


def _resolver(message: str) -> str | None:
    match = RESOLVER.search(message)
    return match.group(1) if match else None


@pytest.mark.parametrize("seed", [1, 2])
def test_lint_refuses_the_tools_the_sdk_refuses_on_a_helpers_tree(tmp_path: Path, seed: int) -> None:
    root = tmp_path / "tree"
    generate(root, 40, "helpers", seed)
    sdk, lint = _sdk(root), _lint(root)
    assert len({r.code for r in sdk}) >= 5, f"too few kinds of error to hold lint to: {sdk}"
    missed = [r for r in sdk if not any(found.covers(r) for found in lint)]
    unfounded = [found for found in lint if not any(found.covers(r) for r in sdk)]
    assert (missed, unfounded) == ([], [])
    assert not [found for found in lint if not _in_its_module(found)]


def _in_its_module(found: Refusal) -> bool:
    """Reported in the module that holds the error: a seeded tool `bad_<i>` in module `<kind>_<i>`,
    a seeded resolver `bad_<j>` (run by tools `runs_bad_<i>_<j>`) in `deps_<j>`."""
    owner = found.resolver or min(found.tools)
    index = owner.rsplit("_", 1)[-1]
    stem = Path(found.path or "").stem
    return (
        stem == f"deps_{index}"
        if owner.startswith(("runs_", "loop_")) or found.resolver
        else stem.endswith(f"_{index}")
    )


DECORATOR_NAMED_TOOL = {
    "pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n",
    "app/__init__.py": "",
    "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('a')\n",
    "app/main.py": "import features.search  # registers its tools\n",
    "features/__init__.py": "",
    "features/decos.py": "from app.server import mcp\n\n\ndef tool(fn):\n    return mcp.tool()(fn)\n",
    "features/search.py": (
        "from features import decos as h\n\n\n@h.tool\ndef find(_query: str) -> str:\n    return _query\n"
    ),
}


def test_a_decorator_named_tool_of_another_module(tmp_path: Path) -> None:
    """`@h.tool`, where `h.tool` calls `mcp.tool()(fn)`: the SDK refuses `find` (MCPD006)."""
    for name, text in DECORATOR_NAMED_TOOL.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    sdk = _sdk(tmp_path)
    assert [(r.code, r.tools) for r in sdk] == [("MCPD006", frozenset({"find"}))]
    assert [(r.code, r.tools) for r in _lint(tmp_path)] == [("MCPD006", frozenset({"find"}))]
