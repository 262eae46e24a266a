"""Every picture `mcpdeps graph` draws is accepted by the real renderers (and every tree draws).

The Mermaid and Graphviz text of every corpus case and example (valid or not)
goes through Graphviz's `dot -Tsvg` and through Mermaid in a headless
Chromium: the examples and one case per corpus group are fully drawn, the
others are checked by Mermaid's own parser (drawing all of them would cost
~25 s on a 2-core machine). The pictures are built in-process with the same
functions the CLI calls; one CLI run per format checks that the command prints
exactly that text.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, run_mcpdeps
from graph_renderers import RendererUnavailable, graphviz_dot, render_mermaid
from mcpdeps.cli.graph.dot import to_dot
from mcpdeps.cli.graph.mermaid import to_mermaid
from mcpdeps.cli.graph.render import print_graph
from mcpdeps.lint_rules.api.graph_problems import find_problems
from mcpdeps.resolver_core.import_closure import static_graph

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: Mermaid in headless Chromium and Graphviz over every case (~25 s).

EXAMPLES = sorted(p.parent.relative_to(REPO).as_posix() for p in REPO.glob("examples/*/server.py"))
CORPUS = sorted(p.parent.relative_to(REPO).as_posix() for p in REPO.glob("tests/corpus/*/*/server.py"))
CASES = EXAMPLES + CORPUS


@dataclass(frozen=True, slots=True)
class Pictures:
    mermaid: str
    dot: str
    tree: str
    tools: tuple[str, ...]


def _drawn(cases: list[str]) -> set[str]:
    """The cases Mermaid fully draws: every example and the first case of each corpus group."""
    firsts: dict[str, str] = {}
    for case in CORPUS:
        firsts.setdefault(case.split("/")[2], case)
    return {*EXAMPLES, *firsts.values()} & set(cases)


@pytest.fixture(scope="module")
def pictures() -> dict[str, Pictures]:
    """Both pictures of every case, as `mcpdeps graph CASE/server.py` builds them."""
    out = {}
    for case in CASES:
        graph = static_graph([f"{case}/server.py"], REPO)
        problems = find_problems(graph)
        tree = print_graph(graph, capture=True, problems=problems) or ""
        tools = tuple(t.name for _, t in graph.tools())
        out[case] = Pictures(to_mermaid(graph, problems), to_dot(graph, problems), tree, tools)
    return out


@pytest.fixture(scope="module")
def dot_program() -> str:
    try:
        return graphviz_dot()
    except RendererUnavailable as exc:
        pytest.fail(f"Graphviz is needed: {exc}", pytrace=False)


@pytest.fixture(scope="module")
def dot_svgs(pictures: dict[str, Pictures], dot_program: str) -> dict[str, subprocess.CompletedProcess[str]]:
    def render(case: str) -> tuple[str, subprocess.CompletedProcess[str]]:
        proc = subprocess.run(
            [dot_program, "-Tsvg"], input=pictures[case].dot, capture_output=True, text=True, timeout=60
        )
        return case, proc

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(pool.map(render, CASES))


@pytest.fixture(scope="module")
def mermaid_results(
    pictures: dict[str, Pictures], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    out_dir = tmp_path_factory.mktemp("mermaid")
    drawn = _drawn(CASES)
    charts = [{"name": c, "text": pictures[c].mermaid, "render": c in drawn} for c in CASES]
    try:
        results = render_mermaid(charts, out_dir)
    except RendererUnavailable as exc:
        pytest.fail(f"Mermaid needs a browser and Node.js: {exc}", pytrace=False)
    svgs = {c: out_dir / f"{i}.svg" for i, c in enumerate(CASES) if c in drawn}
    return {"errors": {r["name"]: r["error"] for r in results}, "svgs": svgs}


@pytest.mark.parametrize("case", CASES)
def test_graphviz_draws_the_picture(case: str, dot_svgs: dict[str, subprocess.CompletedProcess[str]]) -> None:
    proc = dot_svgs[case]
    assert proc.returncode == 0, proc.stderr
    assert "<svg" in proc.stdout
    assert "Warning" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("case", CASES)
def test_mermaid_accepts_the_picture(case: str, mermaid_results: dict[str, Any]) -> None:
    assert mermaid_results["errors"][case] is None, mermaid_results["errors"][case]
    svg: Path | None = mermaid_results["svgs"].get(case)
    if svg is not None:
        assert "<svg" in svg.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES)
def test_every_tool_gets_a_tree(case: str, pictures: dict[str, Pictures]) -> None:
    """Valid or not, every case draws: one tree root per tool, nothing left unexplained."""
    roots = [
        line.split("  tool · ")[0].split("  via @")[0]  # `reserve  via @logged  tool · ...`
        for line in pictures[case].tree.splitlines()
        if "  tool · " in line
    ]
    assert roots == list(pictures[case].tools)


def _node_lines(text: str, needle: str) -> Iterator[str]:
    return (line for line in text.splitlines() if needle in line)


def test_bookshop_mermaid_has_distinct_shapes_and_one_shared_resolver(pictures: dict[str, Pictures]) -> None:
    text = pictures["examples/bookshop"].mermaid
    assert next(_node_lines(text, "<b>order_book</b>")).strip().split('"')[0].endswith("[[")
    assert next(_node_lines(text, "<b>check_stock</b>")).strip().split('"')[0].endswith("(")
    assert next(_node_lines(text, "<b>title: str</b>")).strip().split('"')[0].endswith("([")
    assert next(_node_lines(text, "<b>asks the user</b>")).strip().split('"')[0].endswith("{{")
    assert len(list(_node_lines(text, "<b>check_stock</b>"))) == 1
    assert "shared: runs once per call (4 consumers)" in text
    assert sum(1 for line in text.splitlines() if line.strip().startswith("class ") and "shared" in line) == 1


def test_broken_pictures_draw_the_cycle_in_red(
    pictures: dict[str, Pictures], dot_svgs: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    mermaid = pictures["examples/broken"].mermaid
    assert "linkStyle" in mermaid and "stroke:#dc2626" in mermaid
    assert "✗ MCPD001" in mermaid
    svg = dot_svgs["examples/broken"].stdout
    assert svg.count('stroke="#dc2626"') >= 2
    assert "MCPD002" in svg


@pytest.mark.parametrize("fmt", ["mermaid", "dot"])
def test_the_cli_prints_the_same_picture(fmt: str, pictures: dict[str, Pictures]) -> None:
    proc = run_mcpdeps("graph", "--format", fmt, "examples/broken/server.py", cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == getattr(pictures["examples/broken"], fmt)


def test_the_readme_picture_is_the_rendered_bookshop() -> None:
    svg = (REPO / "docs" / "bookshop-graph.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg")
    for name in ("reserve_book", "order_book", "recommend_book", "check_stock", "asks the user"):
        assert name in svg
