"""`mcpdeps graph` output as a new user reads it, on the real CLI and real files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps, run_mcpdeps_in_colour
from graph_renderers import RendererUnavailable, graphviz_dot

BOOKSHOP = "examples/bookshop/server.py"
BROKEN = "examples/broken"


@pytest.mark.parametrize("live", [False, True], ids=["static", "live"])
def test_sample_question_shows_its_prompt_and_max_tokens(live: bool) -> None:
    args = ("graph", *(["--live"] if live else []), "--tool", "recommend_book", BOOKSHOP)
    proc = run_mcpdeps(*args, env={"COLUMNS": "200"})
    assert proc.returncode == 0, proc.stderr
    assert "user: f'Suggest one {genre} book title. Answer with the title only.'" in proc.stdout
    assert "max_tokens: 50" in proc.stdout
    assert "SamplingMessage(" not in proc.stdout


def test_header_says_static_or_live() -> None:
    static = run_mcpdeps("graph", BOOKSHOP).stdout.splitlines()[0]
    live = run_mcpdeps("graph", "--live", BOOKSHOP).stdout.splitlines()[0]
    assert static.startswith("static graph: read from the source, nothing imported")
    assert live.startswith("live graph: the server imported with the SDK")


def test_a_cyclic_tool_shows_the_cycle_not_a_run_order() -> None:
    proc = run_mcpdeps("graph", "--tool", "upload_cover", BROKEN)
    tree = proc.stdout
    assert "run order (" not in tree and "step " not in tree and "already run" not in tree
    assert "⟲ resolver cycle: no run order exists, the SDK refuses this tool" in tree
    loop = [line.split("── ", 1)[1].strip() for line in tree.strip().splitlines()[-3:]]
    assert loop == ["plan_of", "→ check_quota", "→ plan_of  (back to the start)"]


def test_the_model_never_sees_is_not_dim() -> None:
    proc = run_mcpdeps_in_colour("graph", BOOKSHOP)
    line = next(line for line in proc.stdout.splitlines() if "the model never sees" in line)
    assert "\x1b[2m" not in line.split("the model never sees")[0][-12:]


@pytest.mark.parametrize(
    ("name", "starts"),
    [
        ("g.json", '{\n  "version": 1'),
        ("g.mmd", "flowchart"),
        ("g.dot", "digraph"),
        ("g.txt", "static graph"),
    ],
)
def test_output_format_follows_the_extension(tmp_path: Path, name: str, starts: str) -> None:
    out = tmp_path / name
    proc = run_mcpdeps("graph", BOOKSHOP, "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert out.read_text(encoding="utf-8").startswith(starts)


@pytest.fixture(scope="module")
def graphviz() -> str:
    """Graphviz's `dot`, installed when missing where it can be (`graph_renderers`): decided when
    the test runs, not at collection, so a first run on a clean machine draws the pictures too."""
    try:
        return graphviz_dot()
    except RendererUnavailable as exc:
        pytest.skip(str(exc))


@pytest.mark.parametrize(("name", "magic"), [("g.svg", b"<?xml"), ("g.png", b"\x89PNG"), ("g.pdf", b"%PDF")])
@pytest.mark.usefixtures("graphviz")
def test_pictures_are_drawn_by_graphviz(tmp_path: Path, name: str, magic: bytes) -> None:
    out = tmp_path / name
    proc = run_mcpdeps("graph", BOOKSHOP, "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes().startswith(magic)


def test_a_picture_without_graphviz_is_a_clear_error(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    proc = run_mcpdeps("graph", BOOKSHOP, "-o", tmp_path / "g.svg", env={"PATH": str(empty)})
    assert proc.returncode == 2
    assert "needs Graphviz's `dot` program, which is not installed" in proc.stderr
    assert not (tmp_path / "g.svg").exists()


def test_unknown_or_contradicting_extensions_are_refused(tmp_path: Path) -> None:
    unknown = run_mcpdeps("graph", BOOKSHOP, "-o", tmp_path / "g.xyz")
    assert unknown.returncode == 2 and "Cannot tell the format" in unknown.stderr
    both = run_mcpdeps("graph", BOOKSHOP, "-f", "json", "-o", tmp_path / "g.svg")
    assert both.returncode == 2 and "contradicts" in both.stderr
    assert not list(tmp_path.iterdir())


def test_graph_to_a_pipe_is_what_the_o_file_holds(tmp_path: Path) -> None:
    """A pipe (`| less`, `> out.txt`) gets the 120 columns `-o` writes, no padding spaces; not
    rich's default 80 columns with a space at every wrap. A real pipe: the subject here."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    piped = subprocess.run(
        [sys.executable, "-m", "mcpdeps", "graph", "examples/bookshop/server.py"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert piped.returncode == 0, piped.stderr
    written = run_mcpdeps("graph", "examples/bookshop/server.py", "-o", str(tmp_path / "g.txt"), cwd=REPO)
    assert written.returncode == 0, written.stderr
    assert piped.stdout == (tmp_path / "g.txt").read_text(encoding="utf-8")
    assert not any(line != line.rstrip() for line in piped.stdout.splitlines())
    assert max(len(line) for line in piped.stdout.splitlines()) > 80
