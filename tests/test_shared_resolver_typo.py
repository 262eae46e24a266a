"""A typo in a resolver that several tools share is one problem: one diagnostic, whatever the run.

The SDK refuses each of those tools (whichever it registers first stops the server), and
one rename repairs them all. The rules judge tool by tool and file by file, so the finding
arrives once per tool; `lint_rules.same_place` unites them where every run's verdicts pass
last. Each run that could disagree is held here to the same single diagnostic: cold, cached
(after an edit of one tool file), parallel workers, one file linted with its importers, the
command line, `--fix`; the language server's is in `test_lsp_pull.py`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run_mcpdeps
from mcpdeps.lint_rules import LintResult, lint
from mcpdeps.lint_rules.slice_plan import MIN_FILES_PER_JOB
from mcpdeps.resolver_core.diagnostics import plain
from new_helpers import sdk_probe

DEPS = "def stock_of(titel: str) -> int:\n    return len(titel)\n"

SERVER = """\
from mcp.server import MCPServer

mcp = MCPServer("shop")
"""

TOOLS = """\
from typing import Annotated

from mcp.server.mcpserver import Resolve

from deps import stock_of
from server import mcp


@mcp.tool()
def order_{i}(title: str, stock: Annotated[int, Resolve(stock_of)]) -> str:
    return f"{{title}}: {{stock}}"


@mcp.tool()
def reserve_{i}(title: str, stock: Annotated[int, Resolve(stock_of)]) -> str:
    return f"{{title}}: {{stock}}"
"""


def make_project(root: Path, tool_files: int) -> None:
    """`deps.py` with the typo, and `tool_files` modules of two tools each that run it."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'shop'\nversion = '0'\n")
    (root / "deps.py").write_text(DEPS)
    (root / "server.py").write_text(SERVER)
    for i in range(tool_files):
        (root / f"tools_{i:03}.py").write_text(TOOLS.format(i=i))


def _dump(result: LintResult) -> list[dict[str, Any]]:
    return [plain(d) for d in result.diagnostics]


def _the_one(result: LintResult, tool_files: int) -> dict[str, Any]:
    """The run's one diagnostic, checked to name every tool once, in the order of the files."""
    [d] = _dump(result)
    assert (d["code"], d["path"], d["line"], d["column"]) == ("MCPD002", "deps.py", 1, 14)
    assert "'titel'" in d["message"] and "(did you mean 'title'?)" in d["message"]
    assert "order_" not in d["message"] and "reserve_" not in d["message"]
    expected = [
        (f"tools_{i:03}.py", f"tool '{kind}_{i}' runs this resolver")
        for i in range(tool_files)
        for kind in ("order", "reserve")
    ]
    assert [(r["path"], r["message"]) for r in d["related"]] == expected
    assert d["tool"] == "order_0"
    return d


def test_two_tools_of_one_file_get_one_diagnostic_naming_both(tmp_path: Path) -> None:
    make_project(tmp_path, 1)
    proc = run_mcpdeps("lint", "--no-cache", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.count("MCPD002") == 2, "one heading, one caret"
    assert "= note: tools_000.py:9:2: tool 'order_0' runs this resolver" in proc.stdout
    assert "= note: tools_000.py:14:2: tool 'reserve_0' runs this resolver" in proc.stdout
    assert "Found 1 error in 1 file" in proc.stdout and "1 may be fixed" in proc.stdout
    concise = run_mcpdeps("lint", "--no-cache", "--format", "concise", cwd=tmp_path).stdout
    assert concise.count("MCPD002") == 1


def test_cold_cached_and_one_file_runs_agree(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    make_project(root, 3)
    cold = lint(["."], cwd=root)
    _the_one(cold, 3)
    cache = tmp_path / "cache"
    assert _dump(lint(["."], cwd=root, cache_dir=cache)) == _dump(cold)
    edited = root / "tools_001.py"
    edited.write_text(edited.read_text() + "\n# an edit\n")  # one tool file checked again
    again = lint(["."], cwd=root, cache_dir=cache)
    assert again.analysed == 1 and _dump(again) == _dump(cold)
    # The resolver's file alone (pre-commit's case) sees it through its importers, whole.
    assert _dump(lint(["deps.py"], cwd=root)) == _dump(cold)
    assert _dump(lint(["deps.py"], cwd=root, cache_dir=cache)) == _dump(cold)
    # One tool file alone: its own tools, the one diagnostic all the same.
    [alone] = _dump(lint(["tools_002.py"], cwd=root))
    assert [r["message"] for r in alone["related"]] == [
        "tool 'order_2' runs this resolver",
        "tool 'reserve_2' runs this resolver",
    ]
    assert {k: v for k, v in alone.items() if k not in ("related", "tool")} == {
        k: v for k, v in _dump(cold)[0].items() if k not in ("related", "tool")
    }


def test_parallel_workers_unite_what_their_slices_found(tmp_path: Path) -> None:
    """The tools sharing the resolver are checked in different workers: still one diagnostic."""
    files = MIN_FILES_PER_JOB * 2 + 4
    make_project(tmp_path, files)
    one = lint(["."], cwd=tmp_path, jobs=1)
    many = lint(["."], cwd=tmp_path, jobs=2)
    assert one.graph.servers and not many.graph.servers, "the graphs stayed in the workers"
    _the_one(one, files)
    assert _dump(many) == _dump(one)


def test_the_sdk_refuses_each_tool_and_the_one_fix_repairs_all(tmp_path: Path) -> None:
    """The oracle: each tool alone fails registration on `titel`; after `--fix`, all register."""
    root = tmp_path / "shop"
    make_project(root, 1)
    for keep, drop in (("order_0", "reserve_0"), ("reserve_0", "order_0")):
        alone = tmp_path / f"only_{keep}"
        alone.mkdir()
        (alone / "deps.py").write_text(DEPS)
        (alone / "server.py").write_text(SERVER)
        tools = TOOLS.format(i=0)
        start = tools.index(f"@mcp.tool()\ndef {drop}")
        end = tools.find("@mcp.tool()", start + 1)
        (alone / "tools.py").write_text(tools[:start] + (tools[end:] if end > 0 else ""))
        with pytest.raises(AssertionError, match="'titel' cannot be resolved"):
            sdk_probe(alone / "tools.py")
    fixed = run_mcpdeps("lint", "--fix", "--no-cache", cwd=root)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "Fixed 1 problem in 1 file." in fixed.stderr
    assert "titel" not in (root / "deps.py").read_text()
    assert sorted(sdk_probe(root / "tools_000.py")["tools"]) == ["order_0", "reserve_0"]
    report = json.loads(run_mcpdeps("lint", "--format", "json", "--no-cache", cwd=root).stdout)
    assert report["diagnostics"] == []


CYCLE = """\
from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Resolve


def stock_of(plan: Annotated[str, Resolve(plan_of)]) -> int:
    return 1


def plan_of(stock: Annotated[int, Resolve(stock_of)]) -> str:
    return "free"
"""


def test_a_cycle_several_tools_share_is_one_diagnostic_naming_each(tmp_path: Path) -> None:
    """MCPD001 is united as MCPD002 is: the cycle once, its edges, then every tool that runs it.
    The SDK refuses each of those tools at registration (the oracle), and every run agrees."""
    root = tmp_path / "shop"
    make_project(root, 2)
    (root / "deps.py").write_text(CYCLE)
    with pytest.raises(AssertionError, match="cyclic dependency"):
        sdk_probe(root / "tools_001.py")
    cold = lint(["."], cwd=root)
    [d] = _dump(cold)
    assert (d["code"], d["path"], d["message"]) == (
        "MCPD001",
        "deps.py",
        "resolver cycle: stock_of -> plan_of -> stock_of",
    )
    assert [r["message"] for r in d["related"]] == [
        "stock_of depends on plan_of here",
        "plan_of depends on stock_of here",
        *(f"tool '{kind}_{i}' runs this resolver" for i in range(2) for kind in ("order", "reserve")),
    ]
    assert run_mcpdeps("lint", "--no-cache", "--format", "concise", cwd=root).stdout.count("MCPD001") == 1
    cache = tmp_path / "cache"
    assert _dump(lint(["."], cwd=root, cache_dir=cache)) == _dump(cold)
    assert _dump(lint(["deps.py"], cwd=root)) == _dump(cold)
    assert _dump(lint(["deps.py"], cwd=root, cache_dir=cache)) == _dump(cold)
