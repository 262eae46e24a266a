"""The SDK is the oracle: every corpus case, judged by the real SDK and by mcpdeps, must agree.

Each case is a folder `tests/corpus/<group>/<case>/` (plus `examples/bookshop` and
`examples/broken`) whose `server.py` starts with `# expect: ok` or
`# expect: MCPD00X[, MCPD00Y]`. Three checks per case:

1. the SDK's verdicts (`tests/oracle/sdk_verdicts.py`, one subprocess for the whole
   corpus) produce exactly the header's codes: this keeps the corpus honest;
2. `mcpdeps lint --format json` (one run over every case) reports the SDK's code for
   every tool the SDK rejects, no registration error for a tool it accepts, and the
   header's set of MCPD0xx codes per case;
3. `mcpdeps graph --format json <case>/server.py` (each case on its own, all in one
   subprocess: `tests/oracle/graph_each.py`) lists, for every tool the SDK accepts,
   exactly the input-schema properties the SDK publishes, in order; and (a separate
   test) the same Context parameter and resolver ids (`module:qualname`) as the SDK.

Expensive runs are session fixtures: the SDK import (~0.7 s) and the lint start-up are
paid once, not per case. A corpus case never has two registration errors on one tool,
because the SDK reports only the first one per tool (see tests/corpus/README.md).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from conftest import REPO, run_mcpdeps
from mcpdeps.lint_rules.same_place import RUNS

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: the SDK's, lint's and graph's runs over the whole corpus (session fixtures, ~25 s).

CORPUS = REPO / "tests" / "corpus"
ORACLE_SCRIPT = REPO / "tests" / "oracle" / "sdk_verdicts.py"
GRAPH_DRIVER = REPO / "tests" / "oracle" / "graph_each.py"
EXAMPLE_CASES = ("examples/bookshop", "examples/broken")
HEADER = re.compile(r"^# expect: (ok|MCPD0\d\d(?:, MCPD0\d\d)*)\s*$")
REGISTRATION_CODE = re.compile(r"^MCPD0\d\d$")
LAMBDA = "<lambda>"
# The oracle checks the analyzer, so no result cache from an earlier run in this checkout.
LINT_OPTIONS = ("--format", "json", "--no-cache")


def _case_dirs() -> list[str]:
    """Every case folder, relative to the repository, in a stable order."""
    corpus = sorted(p.parent.relative_to(REPO).as_posix() for p in CORPUS.glob("*/*/server.py"))
    return corpus + list(EXAMPLE_CASES)


CASES = _case_dirs()


# Where mcpdeps and the SDK disagree today: (check, case) -> which side is wrong and why.
# The SDK is the oracle, so it is always mcpdeps. Each entry is an explicit xfail that
# shows in the summary (XFAIL, or XPASS once mcpdeps is fixed: then delete the entry).
KNOWN_DISAGREEMENTS: dict[tuple[str, str], str] = {
    ("resolvers", "tests/corpus/resolver_kinds/opaque_subscript"): (
        "a resolver read from a dict cannot be named statically (mcpdeps says so with MCPD113); "
        "its id is the expression, the SDK's is `server:<lambda>`"
    ),
}


def cases_for(check: str) -> list[Any]:
    """CASES, with the known disagreements of `check` marked as (non-strict) xfail."""
    return [
        pytest.param(case, marks=pytest.mark.xfail(reason=KNOWN_DISAGREEMENTS[(check, case)]))
        if (check, case) in KNOWN_DISAGREEMENTS
        else case
        for case in CASES
    ]


def expected_codes(case: str) -> frozenset[str]:
    """The codes listed on the first line of the case's `server.py` (empty for `ok`)."""
    first_line = (REPO / case / "server.py").read_text(encoding="utf-8").partition("\n")[0]
    match = HEADER.match(first_line)
    if match is None:
        pytest.fail(
            f"{case}/server.py must start with '# expect: ok' or '# expect: MCPD00X[, ...]',"
            f" not {first_line!r}"
        )
    return frozenset() if match.group(1) == "ok" else frozenset(match.group(1).split(", "))


# ---------------------------------------------------------------- session-wide runs


@dataclass
class CommandRun:
    """A JSON-producing command run once for the session; `error` explains why it is unusable."""

    error: str | None = None
    document: Any = None

    def require(self) -> Any:
        """The parsed document, or fail the calling test with the reason it is missing."""
        if self.error is not None:
            pytest.fail(self.error, pytrace=False)
        return self.document


def _parse(what: str, proc: subprocess.CompletedProcess[str], ok_codes: tuple[int, ...]) -> CommandRun:
    """Parse a command's JSON standard output, or record why that was impossible."""
    if proc.returncode not in ok_codes:
        return CommandRun(error=f"{what} exited {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    try:
        return CommandRun(document=json.loads(proc.stdout))
    except json.JSONDecodeError as exc:
        return CommandRun(error=f"{what} did not print one JSON document ({exc}): {proc.stdout[:500]!r}")


def _start(*argv: str) -> subprocess.Popen[str]:
    """Start a command with the environment `conftest.run_mcpdeps` uses (plain, 120 columns)."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120", "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("FORCE_COLOR", None)
    return subprocess.Popen(
        [sys.executable, *argv], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


@pytest.fixture(scope="session")
def started() -> Iterator[dict[str, subprocess.Popen[str]]]:
    """The three expensive runs, started together so that they overlap on a 2-core CI.

    - `sdk`: the SDK's verdicts for every case (`tests/oracle/sdk_verdicts.py`);
    - `lint`: one `mcpdeps lint --format json` over every case folder;
    - `graph`: `mcpdeps graph --format json <case>/server.py` for every case, each case its
      own run (the cases are separate projects) inside one process (`graph_each.py`).
    """
    runs = {
        "sdk": _start(str(ORACLE_SCRIPT), *CASES),
        "lint": _start("-m", "mcpdeps", "lint", *LINT_OPTIONS, *CASES),
        "graph": _start(str(GRAPH_DRIVER), *(f"{case}/server.py" for case in CASES)),
    }
    yield runs
    for proc in runs.values():  # a run no selected test needed: stop it
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def _finish(started: dict[str, subprocess.Popen[str]], name: str) -> subprocess.CompletedProcess[str]:
    """Wait for one of the started runs and return it as a completed process."""
    proc = started[name]
    stdout, stderr = proc.communicate(timeout=300)
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


@pytest.fixture(scope="session")
def sdk(started: dict[str, subprocess.Popen[str]]) -> dict[str, Any]:
    """The SDK's verdicts, per case."""
    return _parse("the SDK oracle", _finish(started, "sdk"), (0,)).require()["cases"]


@dataclass
class LintByCase:
    """`mcpdeps lint` diagnostics, grouped by the case folder their path is in."""

    run: CommandRun
    by_case: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def _case_of(path: str) -> str | None:
    """The case folder a diagnostic path belongs to (paths are as given, relative to REPO)."""
    full = (REPO / path).resolve()
    for case in CASES:
        if full.is_relative_to((REPO / case).resolve()):
            return case
    return None


@pytest.fixture(scope="session")
def lint(started: dict[str, subprocess.Popen[str]]) -> LintByCase:
    """The lint run's diagnostics, grouped per case."""
    result = LintByCase(_parse("mcpdeps lint --format json", _finish(started, "lint"), (0, 1)))
    if result.run.error is None:
        for diagnostic in result.run.document.get("diagnostics", []):
            case = _case_of(diagnostic.get("path") or "")
            result.by_case.setdefault(case or "<outside every case>", []).append(diagnostic)
    return result


@pytest.fixture(scope="session")
def graphs(started: dict[str, subprocess.Popen[str]]) -> dict[str, CommandRun]:
    """Each case's static graph, parsed (or the reason it is unusable)."""
    proc = _finish(started, "graph")
    if proc.returncode != 0:
        error = CommandRun(
            error=f"tests/oracle/graph_each.py exited {proc.returncode}: {proc.stderr[-2000:]}"
        )
        return dict.fromkeys(CASES, error)
    return {
        path.removesuffix("/server.py"): _parse(
            f"mcpdeps graph --format json {path}",
            subprocess.CompletedProcess([], run["exit"], run["stdout"], run["stderr"]),
            (0,),
        )
        for path, run in json.loads(proc.stdout).items()
    }


# ---------------------------------------------------------------- the checks


def _sdk_errors(verdict: dict[str, Any]) -> Iterator[dict[str, Any]]:
    return (t for t in verdict["tools"] if t["verdict"] != "ok")


@pytest.mark.parametrize("case", cases_for("header"))
def test_sdk_agrees_with_header(case: str, sdk: dict[str, Any]) -> None:
    """The real SDK rejects exactly the header's codes, so the corpus says what it claims."""
    expected = expected_codes(case)
    verdict = sdk[case]
    assert verdict["import_error"] is None, f"the case does not import: {verdict['import_error']}"
    assert verdict["tools"], "the case registers no tool at all"
    unmapped = [t["verdict"] for t in _sdk_errors(verdict) if t["code"] is None]
    assert not unmapped, f"SDK errors with no MCPD code: {unmapped}"
    assert {t["code"] for t in _sdk_errors(verdict)} == expected


def _tool_matches(diagnostic_tool: str | None, sdk_tool: str | None) -> bool:
    """A lambda registered without a name has no registered name: `<lambda>` or null both fit."""
    if sdk_tool == LAMBDA:
        return diagnostic_tool in (LAMBDA, None)
    return diagnostic_tool == sdk_tool


def _names_tool(d: dict[str, Any], sdk_tool: str | None) -> bool:
    """The diagnostic's tool, or another tool it says fails the same way (MCPD002 on a shared resolver)."""
    also = RUNS.format(sdk_tool)
    return _tool_matches(d.get("tool"), sdk_tool) or any(r["message"] == also for r in d["related"])


@pytest.mark.parametrize("case", cases_for("lint"))
def test_lint_agrees_with_sdk(case: str, sdk: dict[str, Any], lint: LintByCase) -> None:
    """Per tool: the SDK's code where it rejects, silence where it accepts; per case: the header's set."""
    lint.run.require()
    diagnostics = [d for d in lint.by_case.get(case, []) if REGISTRATION_CODE.match(d.get("code", ""))]
    problems: list[str] = []
    for tool in sdk[case]["tools"]:
        found = [d for d in diagnostics if _names_tool(d, tool["tool"])]
        if tool["verdict"] == "ok":
            problems += [
                f"tool {tool['tool']!r} registers with the SDK, lint says {d['code']}: {d['message']}"
                for d in found
            ]
        elif not any(d["code"] == tool["code"] for d in found):
            seen = sorted({d["code"] for d in found}) or "nothing"
            problems.append(
                f"tool {tool['tool']!r}: SDK {tool['code']} ({tool['verdict']}), lint reports {seen}"
            )
    codes = {d["code"] for d in diagnostics}
    if codes != expected_codes(case):
        problems.append(f"lint codes {sorted(codes)} != header {sorted(expected_codes(case))}")
    assert not problems, "\n".join(problems)


def _graph_tools_for(
    case: str, sdk: dict[str, Any], graphs: dict[str, CommandRun]
) -> Iterator[tuple[dict[str, Any], dict[str, Any] | None]]:
    """Each tool the SDK accepts in `case`, paired with the graph's entry for it (None if absent).

    A name used on several servers is told apart by the server's variable.
    """
    accepted = [t for t in sdk[case]["tools"] if t["verdict"] == "ok" and not t["duplicate"]]
    if not accepted:
        pytest.skip("the SDK accepts no tool in this case: nothing to compare")
    document = graphs[case].require()
    published = [
        (s.get("variable"), {**t, "server_name": s.get("name")})
        for s in document.get("servers", [])
        for t in s.get("tools", [])
    ]
    for tool in accepted:
        same_name = [entry for entry in published if entry[1].get("name") == tool["tool"]]
        if len(same_name) > 1:
            same_name = [entry for entry in same_name if entry[0] == tool["server"]]
        yield tool, (same_name[0][1] if len(same_name) == 1 else None)


@pytest.mark.parametrize("case", cases_for("arguments"))
def test_graph_arguments_match_sdk_schema(
    case: str, sdk: dict[str, Any], graphs: dict[str, CommandRun]
) -> None:
    """For every tool the SDK accepts, the graph's `arguments` are its published schema properties."""
    problems = [
        f"tool {tool['tool']!r}: SDK schema {tool['arguments']}, graph "
        + (repr(entry.get("arguments")) if entry is not None else "has no such tool")
        for tool, entry in _graph_tools_for(case, sdk, graphs)
        if entry is None or entry.get("arguments") != tool["arguments"]
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("case", cases_for("registered"))
def test_graph_lists_only_tools_the_sdk_registers(
    case: str, sdk: dict[str, Any], graphs: dict[str, CommandRun]
) -> None:
    """No tool in the graph that the SDK never saw: a registration inside a function counts as
    if the function ran, and the oracle runs the case's start-up (`# start:` lines) for it."""
    registered = {(t["server"], t["tool"]) for t in sdk[case]["tools"]}
    names = {name for _, name in registered}
    document = graphs[case].require()
    extra = [
        f"{s.get('variable')}.{t.get('name')}"
        for s in document.get("servers", [])
        for t in s.get("tools", [])
        if t.get("name") not in names and not (t.get("name") == LAMBDA and LAMBDA in names)
    ]
    assert not extra, f"the graph lists tools the SDK never registered: {extra}"


@pytest.mark.parametrize("case", cases_for("resolvers"))
def test_graph_context_and_resolvers_match_sdk(
    case: str, sdk: dict[str, Any], graphs: dict[str, CommandRun]
) -> None:
    """The graph's server name, `context` and `resolved` ids are the SDK's (ids are its wire keys)."""
    problems = []
    for tool, entry in _graph_tools_for(case, sdk, graphs):
        if entry is None:
            problems.append(f"tool {tool['tool']!r}: the graph has no such tool")
            continue
        if entry.get("context") != tool["context"]:
            problems.append(
                f"tool {tool['tool']!r}: SDK context {tool['context']!r}, graph {entry.get('context')!r}"
            )
        # A server no literal names (a library helper's parameter) has no static name: null.
        if entry.get("server_name") not in (tool["server_name"], None):
            problems.append(
                f"tool {tool['tool']!r}: SDK server {tool['server_name']!r}, graph {entry.get('server_name')!r}"
            )
        if entry.get("resolved") != tool["resolved"]:
            problems.append(
                f"tool {tool['tool']!r}: SDK resolved {tool['resolved']}, graph {entry.get('resolved')}"
            )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("case", EXAMPLE_CASES)
def test_lint_of_one_case_is_unchanged_by_the_others(case: str, lint: LintByCase) -> None:
    """Linting many projects in one run reports, for each, exactly what linting it alone does.

    The cases are separate projects that reuse module names (`server`, `deps`); a run over
    several folders must not merge them (e.g. into duplicate-tool findings across projects).
    """
    lint.run.require()
    alone = _parse(
        f"mcpdeps lint --format json {case}", run_mcpdeps("lint", *LINT_OPTIONS, case, cwd=REPO), (0, 1)
    )

    def key(d: dict[str, Any]) -> tuple[Any, ...]:
        return (d["path"], d["line"], d["column"], d["code"], d.get("tool"), d["message"])

    assert sorted(map(key, lint.by_case.get(case, []))) == sorted(map(key, alone.require()["diagnostics"]))
