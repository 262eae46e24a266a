"""Valid corpus cases are valid all the way: they run under the SDK, and they lint silent.

`test_oracle.py` proves that valid cases *register*. Two more promises of the corpus are
checked here, each with one subprocess for all valid cases, both started at once:

- every tool of every valid case answers a call through the SDK's real in-process Client
  (`sdk_calls.py`), so no valid case hides a run-time trap (MCPD1xx) the SDK would only
  show at call time;
- a control: six servers that register fine but carry a run-time trap (MCPD104, 106, 108 twice,
  103, 112) fail under the same runner, so a passing valid case means something;
- `mcpdeps lint` reports nothing at all on the valid cases (not even a 1xx warning),
  except MCPD113, the notice that a resolver is computed at run time and cannot be seen
  statically (that is a case's point, not a defect).
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import corpus_table
import pytest
from conftest import REPO, run_mcpdeps

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: every valid case run under the SDK's runner.

SDK_CALLS = Path(__file__).resolve().with_name("sdk_calls.py")
VALID = sorted(case for case, codes in corpus_table.case_headers().items() if not codes)
ALLOWED_ON_VALID = {"MCPD113"}

_ASK_HEAD = """
from typing import Annotated
from pydantic import BaseModel
from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Elicit, Resolve
mcp = MCPServer("Trap")
class Ok(BaseModel):
    ok: bool
"""
# Servers the SDK registers but that fail when called; each is a rule of the 1xx family.
TRAPS: dict[str, str] = {
    "unstable_question_MCPD104": _ASK_HEAD
    + """
import itertools
COUNTER = itertools.count()
def ask(title: str) -> Elicit[Ok]:
    return Elicit(f"Order {title}? (question {next(COUNTER)})", Ok)
@mcp.tool()
def order(title: str, ok: Annotated[Ok, Resolve(ask)]) -> str:
    return title
""",
    "positional_only_MCPD106": _ASK_HEAD
    + """
@mcp.tool()
def shout(text: str, /) -> str:
    return text.upper()
""",
    "unawaited_resolver_MCPD108": _ASK_HEAD
    + """
async def stock(title: str) -> int:
    return 3
def stock_sync(title: str):
    return stock(title)
@mcp.tool()
def order(title: str, n: Annotated[int, Resolve(stock_sync)]) -> str:
    return str(n + 1)
""",
    "decorated_sync_wrapper_MCPD108": _ASK_HEAD
    + """
import functools
def traced(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper
@traced
async def stock(title: str) -> int:
    return 3
@mcp.tool()
def order(title: str, n: Annotated[int, Resolve(stock)]) -> str:
    return str(n + 1)
""",
    "nested_elicitation_model_MCPD103": _ASK_HEAD
    + """
class Nested(BaseModel):
    inner: Ok
def ask(title: str) -> Elicit[Nested]:
    return Elicit("Sure?", Nested)
@mcp.tool()
def order(title: str, answer: Annotated[Nested, Resolve(ask)]) -> str:
    return title
""",
    "context_elicit_in_tool_MCPD112": _ASK_HEAD
    + """
@mcp.tool()
async def order(title: str, ctx: Context) -> str:
    answer = await ctx.elicit("Sure?", Ok)
    return answer.action
""",
}


def run_sdk_calls(cases: list[str]) -> dict[str, Any]:
    """Call every tool of the cases under the real SDK, in one subprocess."""
    done = subprocess.run(
        [sys.executable, str(SDK_CALLS), *cases], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)["cases"]


def run_lint(cases: list[str]) -> list[dict[str, Any]]:
    """`mcpdeps lint --format json` over all the cases at once; its diagnostics."""
    done = run_mcpdeps("lint", "--format", "json", "--exit-zero", *cases, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)["diagnostics"]


def write_traps(root: Path) -> list[str]:
    """Write each trap server as `root/<name>/server.py`; return the case folders."""
    folders = []
    for name, source in TRAPS.items():
        (root / name).mkdir(parents=True)
        (root / name / "server.py").write_text(source.lstrip(), encoding="utf-8")
        folders.append(str(root / name))
    return folders


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The three runs, concurrently: the SDK's calls in processes of their own (on the cases and
    on the traps) while lint runs in this one."""
    traps = write_traps(tmp_path_factory.mktemp("traps"))
    with ThreadPoolExecutor(max_workers=2) as pool:
        calls = pool.submit(run_sdk_calls, VALID)
        trap_calls = pool.submit(run_sdk_calls, traps)
        lint = run_lint(VALID)
        return {"calls": calls.result(), "traps": trap_calls.result(), "lint": lint}


@pytest.mark.parametrize("trap", sorted(TRAPS))
def test_control_a_run_time_trap_fails_under_the_runner(results: dict[str, Any], trap: str) -> None:
    outcome = next(v for k, v in results["traps"].items() if Path(k).name == trap)
    assert outcome["import_error"] is None  # it registers: only a call shows the trap
    assert [call["error"] for call in outcome["calls"]] == [True]


def test_there_are_valid_cases() -> None:
    assert len(VALID) >= 45


@pytest.mark.parametrize("case", VALID)
def test_every_tool_runs_under_the_sdk(results: dict[str, Any], case: str) -> None:
    outcome = results["calls"][case]
    assert outcome["import_error"] is None
    failed = [f"{c['tool']}({c['arguments']}): {c['text']}" for c in outcome["calls"] if c["error"]]
    assert failed == []


@pytest.mark.parametrize("case", VALID)
def test_lint_is_silent(results: dict[str, Any], case: str) -> None:
    prefix = case + "/"
    found = [
        f"{d['path']}:{d['line']}: {d['code']} {d['message']}"
        for d in results["lint"]
        if d["path"].startswith(prefix)
        and d["code"] not in ALLOWED_ON_VALID
        and not d["code"].startswith("MCPD2")
    ]  # the MCPD2xx family judges trust (a `token` argument), not what the SDK accepts
    assert found == []
