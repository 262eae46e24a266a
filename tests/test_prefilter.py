"""Which walked files `lint` parses (`builder.might_contribute`), and that skipping the others
changes no verdict.

A file found by walking a folder is parsed only if it can declare a server, a tool, a
resolver, a registration function or a suppression: its bytes name `mcp` (not inside a
word), `MCPServer`, `Resolve` (the name, not `Resolved` or prose), the attribute `.tool` or
`add_tool`. The modules the others could matter to (a tool's resolvers live anywhere) are
parsed when an import is followed into them. The SDK checks the case that matters most:
`tests/corpus/multimodule/resolver_module_without_markers` (a resolver module with no marker,
only longer words) is judged by the oracle like every corpus case.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps
from mcpdeps.lint_rules import lint
from mcpdeps.resolver_core.diagnostics import plain
from mcpdeps.resolver_core.prefilter import may_register_handed, may_register_in_functions, might_contribute

CODE = [
    "from mcp.server import MCPServer\n",
    "import mcp.types\n",
    "x = 1  # mcpdeps: ignore[MCPD006]\n",
    "#mcpdeps: ignore-file\n",
    "from app import my_mcp\nregister(my_mcp)\n",
    "from app import mcp_server\n",
    "app = MCPServerFactory()\n",
    "def register(server: 'MCPServer') -> None: ...\n",
    "x: Annotated[int, Resolve(load)]\n",
    "x: Annotated[int, sdk.Resolve (load)]\n",
    "from deps import Resolve as R\n",
    "from deps import (\n    Resolve,\n)\n",
    "R = Resolve\n",
    "@app.tool\ndef f(): ...\n",
    "@app.tool  # bare\ndef f(): ...\n",
    "@app.tool()\ndef f(): ...\n",
    "@app.tool(\n    name='t'\n)\ndef f(): ...\n",
    "register = app.tool\n",
    "deco = app.tool()\n",
    "app.add_tool(f)\n",
    "helper(app.add_tool)\n",
]
"""Each declares (or can declare) something the analysis reads: the file is parsed."""

WORDS = [
    "'lo_la.ibmcp1133': 'lo_LA.IBM-CP1133',\n",
    "int('5qmcpqg', 30)\n",
    "Resolved = 1\n",
    "parser.setEntityResolver(resolver)\n",
    "class TestConflictResolve(ConflictBase): ...\n",
    "class ResolveNameTests: ...\n",
    '"""Resolve a relative module name to an absolute one."""\n',
    "# Resolve the symbolic link\n",
    "from idlelib.tooltip import Hovertip\n",
    "self.toolbar = None\n",
    "args = [sys.executable, '-m', 'json.tool']\n",
    '"""Using json.tool from the shell."""\n',
    "x = a.tool_count\n",
]
"""Each mentions a marker only inside a longer word, or in prose: the file is not parsed."""


@pytest.mark.parametrize("text", CODE)
def test_a_file_that_can_declare_something_is_parsed(text: str) -> None:
    assert might_contribute(text.encode())


@pytest.mark.parametrize("text", WORDS)
def test_a_marker_inside_a_word_or_prose_is_not_enough(text: str) -> None:
    assert not might_contribute(text.encode())
    assert might_contribute((text + "import mcp\n").encode())  # any real marker still counts


def _lint(root: Path, *paths: str) -> list[tuple[str, str, int]]:
    result = lint(list(paths), cwd=root)
    return [(d.code, d.path, d.line) for d in result.diagnostics]


def test_a_resolver_module_without_markers_is_parsed_through_the_import(tmp_path: Path) -> None:
    case = REPO / "tests" / "corpus" / "multimodule" / "resolver_module_without_markers"
    (tmp_path / "case").mkdir()
    for source in case.glob("*.py"):  # not a __pycache__ an import of the case wrote
        (tmp_path / "case" / source.name).write_bytes(source.read_bytes())
    assert not might_contribute((tmp_path / "case" / "quotas.py").read_bytes())
    walked = lint(["case"], cwd=tmp_path)
    assert [(d.code, d.path, d.line) for d in walked.diagnostics] == [("MCPD002", "case/quotas.py", 5)]
    assert "case/quotas.py" in walked.graph.sources  # read for the tool's resolver, not as a file
    assert _lint(tmp_path, "case/server.py", "case/quotas.py") == _lint(tmp_path, "case")


def test_syntax_errors_are_reported_for_the_files_that_pass_or_are_named(tmp_path: Path) -> None:
    """As ruff reports only the files it checks: a walked file with no marker is not parsed."""
    (tmp_path / "words.py").write_text('"""Resolved, with a .tooltip."""\ndef f(:\n')
    (tmp_path / "marked.py").write_text("from mcp.server import MCPServer\ndef f(:\n")
    assert _lint(tmp_path, ".") == [("MCPD000", "marked.py", 2)]
    assert _lint(tmp_path, "words.py") == [("MCPD000", "words.py", 2)]


def test_a_file_whose_only_marker_is_a_suppression_is_judged(tmp_path: Path) -> None:
    (tmp_path / "plain.py").write_text("x = 1  # mcpdeps: ignore[MCPD006]\n")
    assert _lint(tmp_path, ".") == [("MCPD114", "plain.py", 1)]


def test_walking_the_corpus_reports_what_naming_every_file_does(tmp_path: Path) -> None:
    """The prefilter drops no verdict: every case, walked, equals the case with all its files named.

    Each case is checked from a copy in a project of its own (a `pyproject.toml` above the
    case's folder), as a user's server sits in theirs. Left in the repository, both runs would
    look for importers of the case's files in the whole repository, every file of mcpdeps and
    its tests read again for each of some 300 cases, to find none."""
    corpus = REPO / "tests" / "corpus"
    different = []
    for case in sorted(p.parent for p in corpus.glob("*/*/server.py")):
        project = tmp_path / case.parent.name / case.name
        shutil.copytree(case, project / case.name)
        (project / "pyproject.toml").write_text("", encoding="utf-8")
        named = sorted(str(p.relative_to(project)) for p in (project / case.name).rglob("*.py"))
        if _lint(project, case.name) != _lint(project, *named):
            different.append(case.relative_to(corpus).as_posix())
    assert different == []


def test_workers_start_only_for_files_past_the_prefilter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large tree the prefilter turns away is checked in one process (forking workers cost
    more than its reads and scans: `slice_plan.parsing_work`); a tree of servers still goes
    to the workers. Either way the report is the one process's."""
    from conftest import worker_tasks

    forks = worker_tasks(monkeypatch)
    inert, servers = tmp_path / "inert", tmp_path / "servers"
    for i in range(200):
        (inert / f"p{i // 50}").mkdir(parents=True, exist_ok=True)
        (inert / f"p{i // 50}" / f"m{i}.py").write_text(f"import os\n\nVALUE = {i}\n", encoding="utf-8")
        (servers / f"s{i // 50}").mkdir(parents=True, exist_ok=True)
        (servers / f"s{i // 50}" / f"m{i}.py").write_text(
            "from mcp.server import MCPServer\n\nmcp = MCPServer('s')\n\n\n"
            f"@mcp.tool\ndef t{i}(_x: int) -> int:\n    return 1\n",
            encoding="utf-8",
        )
    for tree, forked in ((inert, False), (servers, True)):
        forks.clear()
        one = lint(["."], cwd=tree, jobs=1)
        two = lint(["."], cwd=tree, jobs=2)
        assert bool(forks) == forked, tree.name
        assert [plain(d) for d in two.diagnostics] == [plain(d) for d in one.diagnostics]
        assert (two.files, two.parsed) == (one.files, one.parsed) == (200, 200)
    assert {d.code for d in one.diagnostics} >= {"MCPD006", "MCPD008"}


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
def test_a_utf16_module_in_a_walked_folder_is_reported_not_skipped(tmp_path: Path, encoding: str) -> None:
    """Its bytes hold NULs between the letters, so no marker matched and the file passed;
    Python cannot import it (null bytes / no encoding), so it is MCPD000 as when named (issue 34, item 12)."""
    (tmp_path / "server.py").write_bytes(
        "from mcp.server import MCPServer\nmcp = MCPServer('s')\n".encode(encoding)
    )
    (tmp_path / "ok.py").write_text("x = 1\n")
    proc = run_mcpdeps("lint", "--no-cache", "--format", "concise", ".", cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout
    assert "server.py:1:1: MCPD000" in proc.stdout, proc.stdout


@pytest.mark.parametrize(
    ("text", "nested"),
    [
        ("def register(server):\n    @server.tool()\n    def f(): ...\n", True),
        ("async def setup(s):\n    s.add_tool(f)\n", True),
        ("def register(s): s.add_tool(f)\n", True),
        ("class Shop(MCPServer):\n    def __init__(self):\n        self.prompt()(p)\n", True),
        ("@mcp.tool()\ndef f(x):\n    return x.tooltip\n", False),
        ("@mcp.tool()\ndef f(x):\n    return 1\n", False),
        ("mcp.add_tool(f)\nmcp.resource('r://x')(g)\n", False),
    ],
)
def test_registrations_inside_functions_are_foreseen_from_the_text(text: str, nested: bool) -> None:
    """The guess that sends a run to one build of every file (coupled files): never no for a
    registration in a function (a no only costs time, the test keeps it honest), no for a tree
    that registers at module level only."""
    assert may_register_in_functions(text.encode()) is nested


@pytest.mark.parametrize(
    ("text", "handed"),
    [
        ("def deco(fn):\n    return mcp.tool()(fn)\n", True),
        ("def tool():\n    return mcp.tool()\n", True),
        ("def register(fn):\n    mcp.add_tool(fn)\n", True),
        ("class R:\n    def add(self, fn):\n        self.server.tool(name='x')(fn)\n", True),
        (
            "def deco(fn):\n    @mcp.tool()\n    @functools.wraps(fn)\n"
            "    def inner(*a):\n        return fn(*a)\n\n    return inner\n",
            True,
        ),
        ("def register(server: MCPServer):\n    @server.tool()\n    def f(): ...\n", False),
        ("def register(server):\n    @server.prompt()\n    def p(): ...\n", False),
        ("@mcp.tool()\ndef f(x):\n    return 1\n", False),
        ("mcp.add_tool(f)\n", False),
    ],
)
def test_registrations_of_a_handed_function_are_foreseen_from_the_text(text: str, handed: bool) -> None:
    """Which files registering inside a function may register a function their callers hand
    them (a decorator, a helper's `add_tool(fn)`): a resolver module checked alone is built
    with those its importers use (`companions._registering`). Never no for one that does;
    no for a `register(server)` helper declaring its own tools."""
    assert may_register_handed(text.encode()) is handed
