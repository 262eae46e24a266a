"""Generated resolver graphs, judged by the real SDK and by mcpdeps: the verdicts must match.

Hypothesis draws batches of random graphs (tests/hardening/graphs.py): DAGs and cycles,
resolvers spread over two modules, edges written directly or through `Annotated` aliases,
parameters filled by tool arguments, Context, or nothing; random decorator stacks on
resolvers (with and without `functools.wraps`), and tools registered inside functions
(installers, factories, helpers with and without a `MCPServer` annotation) that module-level
code calls, or that only the case's start-up calls (`# start:` lines, which the oracle runs
after the import: every registration site counts). Each batch is written as real
case folders and judged in one SDK subprocess (`tests/oracle/sdk_verdicts.py`: importing
`mcp` costs ~0.7 s, so it is paid once per batch), then linted and graphed in-process.

Per tool, three verdicts must fit together:
- the model (`expected_codes`): every registration error the graph has;
- the SDK: ok exactly when the model finds nothing, else its one error is among the model's;
- `mcpdeps lint`: exactly the model's codes (it reports all errors, the SDK only its first);
and for every tool the SDK accepts, `graph --format json` has the SDK's arguments and
resolver ids.

CI runs FUZZ_BATCHES x BATCH graphs with a derandomized seed; `HARDENING_FUZZ_SCALE=N`
multiplies the batches for a long run by hand.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from conftest import REPO
from hardening.graphs import INSTALLS, GraphSpec, expected_codes, graph_specs, render
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from mcpdeps.lint_rules import lint
from mcpdeps.lint_rules.same_place import concerns
from mcpdeps.resolver_core import build_graph
from mcpdeps.resolver_core.graph_json import graph_document
from mcpdeps.resolver_core.source import deep_recursion_guard

deep_recursion_guard()  # lint() raises it on first use; do it before hypothesis records the limit

ORACLE = REPO / "tests" / "oracle" / "sdk_verdicts.py"
BATCH = 40
FUZZ_BATCHES = 4 * int(os.environ.get("HARDENING_FUZZ_SCALE", "1"))
REGISTRATION = {f"MCPD0{n:02}" for n in range(100)}
TRIED = {
    "graphs": 0,
    "tools": 0,
    "cycles": 0,
    "unclassifiable": 0,
    "ok": 0,
    "decorated_resolvers": 0,
    "hidden_by_wrapper": 0,
    **{f"installed_{where}": 0 for where in INSTALLS},
}


def sdk_verdicts(folders: list[Path]) -> dict[str, dict[str, object]]:
    """The SDK's verdict per tool for each case folder (one subprocess)."""
    proc = subprocess.run(
        [sys.executable, str(ORACLE), *map(str, folders)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    cases = json.loads(proc.stdout)["cases"]
    return {
        folder: {t["tool"]: t for t in case["tools"]} | {"__import_error__": case["import_error"]}
        for folder, case in cases.items()
    }


def _ids(resolved: dict[str, str]) -> dict[str, str]:
    """Resolver ids without the `#N` that tells same-named resolvers apart.

    The SDK numbers them per tool (its wire keys); the graph's `resolvers` map needs ids
    unique over the whole graph, so two lambdas of one module used by *different* tools are
    `<lambda>` and `<lambda>#1` there and `<lambda>` twice in the SDK. Left to the graph's
    owners (reported); the rest of the id must match.
    """
    return {name: re.sub(r"#\d+$", "", rid) for name, rid in resolved.items()}


def check_case(folder: Path, spec: GraphSpec, sdk: dict[str, object]) -> list[str]:
    """Disagreements between the model, the SDK and mcpdeps for one case (empty when all agree)."""
    problems: list[str] = []
    if sdk["__import_error__"]:
        return [f"the case does not import: {sdk['__import_error__']}"]
    result = lint([folder], cwd=folder)
    graph = graph_document(build_graph([folder], cwd=folder))
    graph_tools = {t["name"]: t for s in graph["servers"] for t in s["tools"]}
    TRIED["decorated_resolvers"] += sum(bool(r.decorators) for r in spec.resolvers)
    TRIED["hidden_by_wrapper"] += sum("nowraps" in r.decorators for r in spec.resolvers)
    for t, tool in enumerate(spec.tools):
        name = f"t{t}"
        if tool.installed is not None:
            TRIED[f"installed_{tool.installed}"] += 1
        model = expected_codes(spec, t)
        verdict = sdk[name]
        assert isinstance(verdict, dict)
        found = {d.code for d in result.diagnostics if concerns(d, name) and d.code in REGISTRATION}
        TRIED["tools"] += 1
        TRIED["cycles"] += "MCPD001" in model
        TRIED["unclassifiable"] += "MCPD002" in model
        TRIED["ok"] += not model
        if (verdict["verdict"] == "ok") != (not model):
            problems.append(f"{name}: model {sorted(model)} but SDK says {verdict['verdict']}")
        elif model and verdict["code"] not in model:
            problems.append(
                f"{name}: SDK {verdict['code']} ({verdict['verdict']}) not in model {sorted(model)}"
            )
        if found != model:
            problems.append(
                f"{name}: lint reports {sorted(found)}, expected {sorted(model)} (SDK: {verdict['verdict']})"
            )
        if verdict["verdict"] == "ok":
            shown = graph_tools.get(name)
            if shown is None:
                problems.append(f"{name}: accepted by the SDK, missing from the graph")
            elif shown["arguments"] != verdict["arguments"] or _ids(shown["resolved"]) != _ids(
                verdict["resolved"]
            ):
                problems.append(
                    f"{name}: graph {shown['arguments']} {shown['resolved']} != SDK "
                    f"{verdict['arguments']} {verdict['resolved']}"
                )
    return problems


@settings(
    max_examples=FUZZ_BATCHES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    # No shrinking: each step is an SDK subprocess; a failure prints the sources of its cases.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(st.lists(graph_specs(), min_size=BATCH, max_size=BATCH))
def test_generated_graphs_agree_with_the_sdk(batch: list[GraphSpec]) -> None:
    with tempfile.TemporaryDirectory(prefix="mcpdeps-fuzz-") as tmp:
        folders = []
        for i, spec in enumerate(batch):
            folder = Path(tmp) / f"case{i:03}"
            folder.mkdir()
            for name, text in render(spec).items():
                (folder / name).write_text(text, encoding="utf-8")
            folders.append(folder)
        verdicts = sdk_verdicts(folders)
        problems = []
        for folder, spec in zip(folders, batch, strict=True):
            TRIED["graphs"] += 1
            for problem in check_case(folder, spec, verdicts[str(folder)]):
                problems.append(
                    f"{folder.name}: {problem}\n--- server.py\n{(folder / 'server.py').read_text()}"
                    f"\n--- deps.py\n{(folder / 'deps.py').read_text()}"
                )
        assert not problems, "\n".join(problems[:3])


def test_zz_report_counts() -> None:
    """Print what the fuzzing above tried (shown with `pytest -s`; counted per process)."""
    print(f"\ngraph fuzzing: {TRIED}")
