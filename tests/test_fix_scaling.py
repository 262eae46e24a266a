"""Fix edits cost time linear in the fixes of a file (issue 34, item 9).

`--format json`, `--fix` and the agent's `lint` compute each fix's edits; each diffed the
whole file with `difflib` (quadratic on a file of repeated lines) and walked the whole tree
to find its parameter: 100 fixable tools in one file took 3.8 s, 200 took 21 s, 400 took
150 s, while `--format concise` took under a second. Measured here as the CPU time of four
times the fixes: linear is 4 times as long, the old cost was over 35 times.
"""

from __future__ import annotations

import time
from pathlib import Path

from mcpdeps.lint_rules.config import LintConfig
from mcpdeps.lint_rules.fixes import with_fixes
from mcpdeps.lint_rules.fixes.engine import plan_fixes
from mcpdeps.lint_rules.settings import merge, run

HEAD = (
    "from typing import Annotated\n\nfrom mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Resolve\n\nmcp = MCPServer('s')\n\n\n"
    "def r0(title: str) -> int:\n    return 1\n"
)


def _server(folder: Path, tools: int) -> None:
    folder.mkdir()
    (folder / "server.py").write_text(
        HEAD
        + "".join(
            f"\n\n@mcp.tool()\ndef t{i}(title: str, stock: Annotated[int, Resolve(r0)] = {i}) -> int:\n"
            "    return stock\n"
            for i in range(tools)
        )
    )


def _cpu(folder: Path) -> float:
    started = time.process_time()
    result = with_fixes(run(["server.py"], merge(LintConfig()), cwd=folder))
    took = time.process_time() - started
    assert all(d.fix is not None for d in result.diagnostics) and result.diagnostics
    return took


def test_fix_edits_take_time_linear_in_the_fixes(tmp_path: Path) -> None:
    _server(tmp_path / "small", 150)
    _server(tmp_path / "large", 600)
    _cpu(tmp_path / "small")  # imports and first-use costs out of the measure
    small = min(_cpu(tmp_path / "small") for _ in range(2))
    large = _cpu(tmp_path / "large")
    assert large < 10 * small, f"150 fixes: {small:.2f}s, 600 fixes: {large:.2f}s"


def test_fix_writes_every_fix_of_a_large_file_quickly(tmp_path: Path) -> None:
    _server(tmp_path / "p", 600)
    started = time.process_time()
    plan = plan_fixes(["server.py"], merge(LintConfig()), cwd=tmp_path / "p")
    assert plan.fixed == 600
    assert time.process_time() - started < 30
