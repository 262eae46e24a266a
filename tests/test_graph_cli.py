"""`mcpdeps graph` as a user runs it: the real CLI in a subprocess, on the real examples.

Every invocation the tests need runs once, concurrently, in a module fixture
(each run costs a Python start-up; the SDK import for `--live` ~0.7 s more).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps

# One xdist worker runs this module (`--dist loadfile`), so its fixtures are built once per run, not once
# per worker: one run of each format, made together (~13 s).

BOOKSHOP = "examples/bookshop/server.py"
BROKEN = "examples/broken"
TWO_SERVERS = "tests/corpus/registration/two_servers/server.py"

RUNS: dict[str, tuple[str, ...]] = {
    "json": ("graph", "--format", "json", BOOKSHOP),
    "live json": ("graph", "--format", "json", "--live", BOOKSHOP),
    "tree": ("graph", BOOKSHOP),
    "live tree": ("graph", "--live", BOOKSHOP),
    "broken tree": ("graph", BROKEN),
    "one tool": ("graph", "--format", "json", "--tool", "order_book", "--tool", "reserve_book", BOOKSHOP),
    "depth": ("graph", "--depth", "1", "--tool", "order_book", BOOKSHOP),
    "unknown tool": ("graph", "--tool", "sell_book", BOOKSHOP),
    "unknown server": ("graph", "--server", "app", BOOKSHOP),
    "missing file": ("graph", "examples/nowhere.py"),
    "live refused": ("graph", "--live", f"{BROKEN}/server.py"),
    "two servers": ("graph", "--format", "json", TWO_SERVERS),
    "admin only": ("graph", "--format", "json", "--server", "admin", TWO_SERVERS),
    "live admin": ("graph", "--format", "json", "--live", f"{TWO_SERVERS}:admin"),
    "live ambiguous": ("graph", "--live", TWO_SERVERS),
}

BOOKSHOP_DOCUMENT = {
    "version": 1,
    "servers": [
        {
            "name": "Bookshop",
            "variable": "mcp",
            "path": BOOKSHOP,
            "line": 21,
            "tools": [
                {
                    "name": "reserve_book",
                    "function": "reserve_book",
                    "path": BOOKSHOP,
                    "line": 69,
                    "arguments": ["title"],
                    "context": None,
                    "resolved": {"stock": "server:check_stock"},
                },
                {
                    "name": "order_book",
                    "function": "order_book",
                    "path": BOOKSHOP,
                    "line": 77,
                    "arguments": ["title"],
                    "context": None,
                    "resolved": {
                        "stock": "server:check_stock",
                        "delivery": "server:estimate_delivery",
                        "backorder": "server:confirm_backorder",
                    },
                },
                {
                    "name": "recommend_book",
                    "function": "recommend_book",
                    "path": BOOKSHOP,
                    "line": 92,
                    "arguments": ["genre"],
                    "context": None,
                    "resolved": {"suggestion": "server:suggest_title"},
                },
            ],
        }
    ],
    "resolvers": {
        "server:check_stock": {
            "name": "check_stock",
            "qualname": "check_stock",
            "module": "server",
            "path": BOOKSHOP,
            "line": 39,
            "is_async": True,
            "asks": None,
            "parameters": [{"name": "title", "kind": "tool_argument", "resolver": None}],
            "used_by": ["reserve_book", "order_book"],
        },
        "server:estimate_delivery": {
            "name": "estimate_delivery",
            "qualname": "estimate_delivery",
            "module": "server",
            "path": BOOKSHOP,
            "line": 44,
            "is_async": True,
            "asks": None,
            "parameters": [{"name": "stock", "kind": "resolved", "resolver": "server:check_stock"}],
            "used_by": ["order_book"],
        },
        "server:confirm_backorder": {
            "name": "confirm_backorder",
            "qualname": "confirm_backorder",
            "module": "server",
            "path": BOOKSHOP,
            "line": 49,
            "is_async": True,
            "asks": "elicit",
            "parameters": [
                {"name": "title", "kind": "tool_argument", "resolver": None},
                {"name": "stock", "kind": "resolved", "resolver": "server:check_stock"},
            ],
            "used_by": ["order_book"],
        },
        "server:suggest_title": {
            "name": "suggest_title",
            "qualname": "suggest_title",
            "module": "server",
            "path": BOOKSHOP,
            "line": 59,
            "is_async": False,
            "asks": "sample",
            "parameters": [{"name": "genre", "kind": "tool_argument", "resolver": None}],
            "used_by": ["recommend_book"],
        },
    },
}


@pytest.fixture(scope="module")
def runs() -> dict[str, subprocess.CompletedProcess[str]]:
    return {name: run_mcpdeps(*args, cwd=REPO) for name, args in RUNS.items()}


def _ok(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return proc.stdout


# ------------------------------------------------------------------------ JSON


def test_json_is_the_contract_document(runs: dict[str, subprocess.CompletedProcess[str]]) -> None:
    assert json.loads(_ok(runs["json"])) == BOOKSHOP_DOCUMENT


def test_live_json_is_byte_for_byte_the_static_json(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    assert _ok(runs["live json"]) == _ok(runs["json"])


def test_tool_filter_keeps_the_chosen_tools_and_only_their_resolvers(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    document = json.loads(_ok(runs["one tool"]))
    assert [t["name"] for t in document["servers"][0]["tools"]] == ["reserve_book", "order_book"]
    assert "server:suggest_title" not in document["resolvers"]
    assert document["resolvers"]["server:check_stock"]["used_by"] == ["reserve_book", "order_book"]


def test_server_option_picks_one_of_several_servers(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    both = json.loads(_ok(runs["two servers"]))
    assert [s["variable"] for s in both["servers"]] == ["shop", "admin"]
    admin = json.loads(_ok(runs["admin only"]))
    assert [(s["variable"], s["name"]) for s in admin["servers"]] == [("admin", "Admin")]
    assert all(
        set(r["used_by"]) <= {t["name"] for t in admin["servers"][0]["tools"]}
        for r in admin["resolvers"].values()
    )


def test_live_spec_object_is_the_static_server_option(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    assert _ok(runs["live admin"]) == _ok(runs["admin only"])


def test_output_file_gets_the_same_document(tmp_path: Path) -> None:
    target = tmp_path / "graph.json"
    proc = run_mcpdeps("graph", "--format", "json", "--output", target, BOOKSHOP, cwd=REPO)
    assert _ok(proc) == ""
    assert json.loads(target.read_text(encoding="utf-8")) == BOOKSHOP_DOCUMENT


# ------------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    ("run", "sentence"),
    [
        ("unknown tool", "No tool named 'sell_book' was found; the tools found are: order_book, "),
        ("unknown server", "No server variable 'app' was found; the servers found are: mcp."),
        ("missing file", "examples/nowhere.py does not exist; give a Python file or a folder."),
        ("live refused", "Resolver 'plan_of' has a cyclic dependency"),
        ("live ambiguous", "defines several servers: shop (line 8, MCPServer(...)); admin"),
    ],
)
def test_user_errors_are_sentences_with_exit_2(
    run: str, sentence: str, runs: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    proc = runs[run]
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert sentence in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_refused_live_server_points_to_the_static_graph(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    assert "Without --live, `mcpdeps graph` reads the source" in runs["live refused"].stderr


# ------------------------------------------------------------------------ tree


def _tool_block(tree: str, tool: str) -> str:
    """The lines of one tool's tree (from its root line to the blank line after it)."""
    start = next(i for i, line in enumerate(tree.splitlines()) if line.startswith(f"{tool}  tool"))
    block = []
    for line in tree.splitlines()[start:]:
        if not line.strip():
            break
        block.append(line)
    return "\n".join(block)


def test_tree_shows_what_the_model_sees_and_what_it_never_sees(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    order = _tool_block(_ok(runs["tree"]), "order_book")
    assert order.splitlines()[0] == "order_book  tool · async · server.py:77"
    assert "├── the model sees\n│   └── title: str  required" in order
    assert "the model never sees" in order
    assert "stock: Stock  ← check_stock  step 1" in order
    assert "async · server.py:39" in order


def test_tree_marks_the_shared_resolver_with_its_consumers(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    order = _tool_block(_ok(runs["tree"]), "order_book")
    assert (
        "shared: runs once per call for order_book.stock, estimate_delivery.stock, confirm_backorder.stock"
        in order
    )
    assert order.count("← check_stock  step 1 already run: the same value, not a second call") == 2
    assert "also used by reserve_book" in order


def test_tree_shows_the_question_and_what_the_consumer_gets(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    tree = _ok(runs["tree"])
    order = _tool_block(tree, "order_book")
    assert '? asks the user (Elicit)  f"{title!r} is out of stock (2-3 weeks). Order anyway?"' in order
    assert "answer model Backorder" in order
    assert "confirm: bool" in order
    assert "gets the unwrapped answer: a declined or cancelled question aborts the call" in order
    assert "sync, in a worker thread · server.py:59" in _tool_block(tree, "recommend_book")
    assert "? asks the client's LLM (Sample)" in _tool_block(tree, "recommend_book")


def test_tree_numbers_the_run_order_dependencies_first(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    order = _tool_block(_ok(runs["tree"]), "order_book")
    steps = [line.split("── ", 1)[1] for line in order.splitlines() if "── " in line and line[-1] != ":"]
    tail = steps[steps.index("1. check_stock") :]
    assert tail == [
        "1. check_stock",
        "2. estimate_delivery",
        "3. confirm_backorder  asks the user",
        "4. order_book (the tool itself)",
    ]


def test_live_tree_is_the_static_tree(runs: dict[str, subprocess.CompletedProcess[str]]) -> None:
    live, static = _ok(runs["live tree"]).partition("\n"), _ok(runs["tree"]).partition("\n")
    assert live[2] == static[2]  # the same tree; only the header says where it comes from
    assert live[0].startswith("live graph") and static[0].startswith("static graph")


def test_depth_cuts_the_tree_below_the_tools_own_resolvers(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    tree = _ok(runs["depth"])
    assert "delivery: str  ← estimate_delivery  step 2" in tree
    assert "… deeper levels hidden (--depth)" in tree
    assert "? asks the user" not in tree
    assert "reserve_book" not in tree


def test_broken_tree_shows_each_problem_at_its_node(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    tree = _ok(runs["broken tree"])
    upload = _tool_block(tree, "upload_cover")
    assert "plan: str  ← plan_of  ⟲ cycle: plan_of -> check_quota -> plan_of ✗ MCPD001" in upload
    assert "⟲ resolver cycle: no run order exists, the SDK refuses this tool" in upload
    assert "run order (" not in upload  # a cycle has none: the SDK refuses the tool before running it
    reserve = _tool_block(tree, "reserve_book")
    assert "warehouse: str  ← no tool argument of that name ✗ MCPD002" in reserve
    order = _tool_block(tree, "order_book")
    assert "delivery: Annotated[str, Resolve(deps.estimate_delivery)] | None  required ✗ MCPD003" in order
    assert "answer: object  ← ask_reader  step 1 ✗ MCPD004" in _tool_block(tree, "recommend_book")
    assert "_order_id: str  required ✗ MCPD006" in _tool_block(tree, "cancel_order")
    assert _tool_block(tree, "list_books").splitlines()[0].endswith("✗ MCPD008")
    assert "✗" not in _tool_block(tree, "browse")


def test_tree_written_to_a_file_is_plain_text(
    tmp_path: Path, runs: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    target = tmp_path / "tree.txt"
    proc = run_mcpdeps("graph", "--output", target, BOOKSHOP, cwd=REPO)
    assert _ok(proc) == ""
    text = target.read_text(encoding="utf-8")
    assert "\x1b[" not in text
    assert text == _ok(runs["tree"])


CONTEXT_REPLACED = """
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Resolve

mcp = MCPServer("Replaced")


def fake() -> str:
    return "not a Context"


@mcp.tool()
def t(title: str, ctx: Annotated[Context, Resolve(fake)]) -> str:
    return str(ctx)
"""


def test_a_resolved_context_parameter_is_resolved_in_both_views(tmp_path: Path) -> None:
    """`ctx: Annotated[Context, Resolve(f)]`: the SDK injects f's value over the Context (`pass_directly |=`)."""
    (tmp_path / "server.py").write_text(CONTEXT_REPLACED, encoding="utf-8")
    static = _ok(run_mcpdeps("graph", "--format", "json", "server.py", cwd=tmp_path))
    live = _ok(run_mcpdeps("graph", "--format", "json", "--live", "server.py", cwd=tmp_path))
    assert live == static
    tool = json.loads(live)["servers"][0]["tools"][0]
    assert (tool["context"], tool["resolved"]) == ("ctx", {"ctx": "server:fake"})
