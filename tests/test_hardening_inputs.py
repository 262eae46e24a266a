"""`lint` and `graph` survive any file: each bad one becomes a diagnostic and the run goes on.

The zoo (tests/hardening/bad_files.py) is real files on disk: syntax errors, NUL bytes,
undecodable bytes and encoding cookies, BOM/CRLF/CR, mixed tabs, 5,000-deep nesting,
a 3 MB module, a sparse 21 MiB one, an empty file, a folder named `folder.py`, symlink
loops, a dangling link, a FIFO (reading it would block forever), a file whose read fails
with EIO even for root, and a file deleted between discovery and read. Through the real
CLI: exit 0/1, one well-formed JSON document, never a traceback. Deeply nested
expressions in every place the analyzer reads (tests/hardening/deep_programs.py) must
never reach Python's recursion limit, in `lint` nor in any `graph` format.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_mcpdeps
from hardening.bad_files import SERVER, write_bad_tree
from hardening.contract import graph_document, lint_document, no_crash
from hardening.deep_programs import deep_programs
from mcpdeps.cli.graph.dot import to_dot
from mcpdeps.cli.graph.mermaid import to_mermaid
from mcpdeps.cli.graph.render import print_graph
from mcpdeps.lint_rules import lint
from mcpdeps.lint_rules.api.graph_problems import find_problems
from mcpdeps.resolver_core import build_graph
from mcpdeps.resolver_core.graph_json import dumps
from mcpdeps.resolver_core.graph_json import graph_document as graph_json


@pytest.fixture(scope="module")
def zoo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[str]]:
    """A project folder holding every bad file, and the names that must be MCPD000."""
    root = tmp_path_factory.mktemp("zoo")
    bad = write_bad_tree(root / "zoo")
    (root / "zoo" / "server.py").write_text(SERVER, encoding="utf-8")
    return root, bad


def _mcpd000(doc: dict[str, object]) -> dict[str, str]:
    return {d["path"]: d["message"] for d in doc["diagnostics"] if d["code"] == "MCPD000"}  # type: ignore[index,union-attr]


def test_lint_json_over_the_whole_zoo(zoo: tuple[Path, set[str]]) -> None:
    root, bad = zoo
    proc = run_mcpdeps("lint", "zoo", "--format", "json", "--no-cache", cwd=root, timeout=300)
    no_crash(proc)
    assert proc.returncode == 1
    doc = lint_document(proc.stdout)
    found = _mcpd000(doc)
    found.pop("zoo/deep_binop.py", None)  # either verdict is fine (see EITHER_FILES)
    assert set(found) == {f"zoo/{name}" for name in bad}, found
    assert "too large" in found["zoo/too_large.py"]
    assert "cannot read" in found["zoo/dangling_link.py"]
    if "unreadable.py" in bad:
        assert "cannot read" in found["zoo/unreadable.py"]
    # The run went on: the good server and the module inside the folder named `folder.py` were read.
    assert doc["summary"]["files"] >= len(bad) + 3
    assert doc["summary"]["parsed"] in {doc["summary"]["files"] - len(bad) - i for i in (0, 1)}


def test_lint_with_every_file_named_explicitly(zoo: tuple[Path, set[str]]) -> None:
    """Named files skip the folder walk (and its prefilter): the reader meets them directly."""
    root, bad = zoo
    names = sorted(os.listdir(root / "zoo"))
    proc = run_mcpdeps("lint", *(f"zoo/{n}" for n in names), "--format", "json", cwd=root, timeout=300)
    no_crash(proc)
    found = _mcpd000(lint_document(proc.stdout))
    assert {f"zoo/{name}" for name in bad} <= set(found)
    assert "not a regular file" in found["zoo/fifo.py"]
    assert "zoo/server.py" not in found and "zoo/crlf.py" not in found and "zoo/bom.py" not in found
    # Cached second run (the cache hashes inputs and re-reads files for code frames): same bytes,
    # under another hash seed (a run in this process has the first one's, `run_mcpdeps`).
    again = run_mcpdeps(
        "lint", *(f"zoo/{n}" for n in names), "--format", "json", cwd=root, timeout=300, hash_seed=0
    )
    no_crash(again)
    assert again.stdout == proc.stdout


@pytest.mark.parametrize("fmt", ["json", "tree", "mermaid", "dot"])
def test_graph_over_the_whole_zoo(zoo: tuple[Path, set[str]], fmt: str) -> None:
    root, _ = zoo
    proc = run_mcpdeps("graph", "zoo", "--format", fmt, cwd=root, timeout=300)
    no_crash(proc, codes=(0,))
    if fmt == "json":
        doc = graph_document(proc.stdout)
        tools = {(t["path"], t["name"]) for s in doc["servers"] for t in s["tools"]}
        assert ("zoo/server.py", "ping") in tools and ("zoo/crlf.py", "ping") in tools


def test_fix_and_diff_leave_the_zoo_untouched(tmp_path: Path) -> None:
    bad = write_bad_tree(tmp_path / "zoo")
    before = {
        p: p.read_bytes()
        for p in (tmp_path / "zoo").rglob("*.py")
        if p.is_file() and p.name != "unreadable.py"
    }
    for extra in (("--fix", "--format", "json"), ("--diff",)):
        proc = run_mcpdeps("lint", "zoo", *extra, cwd=tmp_path, timeout=300)
        no_crash(proc)
    assert bad
    assert {p: p.read_bytes() for p in before} == before


def test_a_file_deleted_between_discovery_and_read(tmp_path: Path) -> None:
    """The progress callback runs mid-run, after discovery: delete the files not read yet."""
    for i in range(80):
        (tmp_path / f"m{i:02}.py").write_text(SERVER.replace("Ok", f"S{i}"), encoding="utf-8")
    doomed = [tmp_path / f"m{i:02}.py" for i in range(70, 80)]

    def delete_the_rest(done: int, total: int) -> None:
        for path in doomed:
            path.unlink(missing_ok=True)

    result = lint([tmp_path], cwd=tmp_path, progress=delete_the_rest)
    lost = {d.path for d in result.diagnostics if d.code == "MCPD000"}
    assert lost == {f"{tmp_path}/{p.name}" for p in doomed}, lost  # shown as given: an absolute folder
    assert all("cannot read" in d.message for d in result.diagnostics if d.code == "MCPD000")
    assert result.files == 80 and result.parsed == 70


STDIN_CASES = {
    "nul": (b"from mcp.server import MCPServer\nx = 1\x00\n", "null bytes"),
    "invalid utf-8": (b"from mcp.server import MCPServer\nx = '\xff'\n", "not valid UTF-8"),
    # Known gap: on stdin an unknown cookie is read as UTF-8 (a file says "unknown encoding").
    "bad cookie": (b"# coding: klingon\nfrom mcp.server import MCPServer\n", None),
    "bom crlf": (b"\xef\xbb\xbffrom mcp.server import MCPServer\r\nx = 1\r\n", None),
    "latin-1 cookie": (b"# coding: latin-1\nfrom mcp.server import MCPServer\nx = '\xe9'\n", None),
}


@pytest.mark.parametrize("case", sorted(STDIN_CASES))
@pytest.mark.parametrize("fix", [False, True])
def test_stdin_with_bad_bytes(tmp_path: Path, case: str, fix: bool) -> None:
    """Raw bytes on standard input (editors), under a strict UTF-8 locale: a diagnostic, never a
    traceback; decoded like a file (BOM, cookie); `--fix` prints back exactly the bytes it read."""
    source, expected = STDIN_CASES[case]
    argv = ["lint", "--stdin-filename", "s.py", "--format", "json", *(["--fix"] if fix else [])]
    raw = subprocess.run(
        [sys.executable, "-m", "mcpdeps", *argv],
        cwd=tmp_path,
        input=source,
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"},  # what en_US.UTF-8 gives
    )
    stderr = raw.stderr.decode("utf-8", "replace")
    assert raw.returncode in (0, 1) and "Traceback" not in stderr and "internal error" not in stderr, stderr
    if fix:
        assert raw.stdout == source  # nothing to fix: the same bytes, BOM and encoding included
        return
    found = [
        d["message"] for d in lint_document(raw.stdout.decode())["diagnostics"] if d["code"] == "MCPD000"
    ]
    assert (expected is None and not found) or (expected is not None and expected in " ".join(found)), found


DEEP = deep_programs(5000)
"""5,000-term chains: each walk of such a tree needs several frames per level, past the limit."""

FAST_DEEP = [
    "union_in_annotated.py",
    "union_in_resolver.py",
    "default_chain.py",
    "resolver_default_chain.py",
    "tool_name_chain.py",
    "server_name_chain.py",
    "resolve_target_chain.py",
    "resolve_target_attr.py",
    "decorator_attr.py",
    "sync_wrapper_chain.py",
    "alias_chain.py",
    "class_chain.py",
    "class_cycle.py",
    "self_alias.py",
]
"""The cases that crashed before (or that touch a distinct recursive walk), kept under a few
seconds each on a loaded 2-core machine. `deep_programs()` holds more: run them all with
`HARDENING_ALL_DEEP=1`."""


@pytest.mark.parametrize("name", sorted(DEEP) if os.environ.get("HARDENING_ALL_DEEP") else FAST_DEEP)
def test_deep_expressions_never_reach_the_recursion_limit(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(DEEP[name], encoding="utf-8")
    result = lint([path], cwd=tmp_path)
    # Either analysed, or one clear sentence at the registration: never a recursion traceback.
    assert all("nested too deeply" in d.message for d in result.diagnostics if d.code == "MCPD000")
    graph = build_graph([path], cwd=tmp_path)
    problems = find_problems(graph)
    dumps(graph_json(graph))
    to_mermaid(graph, problems)
    to_dot(graph, problems)
    print_graph(graph, capture=True, problems=problems)


def test_deep_expressions_through_the_cli(tmp_path: Path) -> None:
    """One CLI run over the crashing cases: the JSON formats compute fixes with libcst too."""
    for name in ("union_in_annotated.py", "union_in_resolver.py", "default_chain.py"):
        (tmp_path / name).write_text(DEEP[name], encoding="utf-8")
    proc = run_mcpdeps("lint", ".", "--format", "json", "--no-cache", cwd=tmp_path, timeout=300)
    no_crash(proc)
    lint_document(proc.stdout)
    graph = run_mcpdeps("graph", ".", "--format", "json", cwd=tmp_path, timeout=300)
    # Python's own parser refuses these files, so there is nothing to draw: a usage error
    # with one sentence per file, never a recursion traceback.
    no_crash(graph, codes=(2,))
    assert "nested too deeply" in graph.stderr and graph.stdout == ""


AWKWARD_SERVER = """from typing import Annotated
from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
mcp = MCPServer("x")
def r0(nobody: int, 名前: int = 1) -> int:
    return 1
@mcp.tool()
def t(b: Annotated[int, Resolve(r0)] = 4, title: str = "😀\tẞ\u0301") -> int:
    return 1
"""

AWKWARD_NAMES = [
    b"bad\xff.py",
    b"dir\xffname/in.py",
    b"new\nline.py",
    b"-dash.py",
    b"sp ace.py",
    b"tab\tname.py",
]
AWKWARD_NAMES += ["emoji_😀.py".encode(), b"my-pkg/__init__.py", b"a" * 200 + b".py"]


@pytest.mark.parametrize(
    "argv",
    [
        ("lint", ".", "--no-cache", "--format", "full"),
        ("lint", ".", "--no-cache", "--format", "concise"),
        ("lint", ".", "--no-cache", "--format", "json"),
        ("lint", ".", "--format", "json"),  # the result cache hashes the names too
        ("lint", ".", "--no-cache", "--format", "sarif"),
        ("lint", ".", "--no-cache", "--format", "github"),
        ("lint", ".", "--no-cache", "--diff"),
        ("lint", ".", "--no-cache", "--fix"),
        ("graph", ".", "--format", "json"),
        ("graph", "."),
        ("graph", ".", "--format", "mermaid"),
        ("graph", ".", "--format", "dot"),
        ("lint", ".", "--no-cache", "-o", "report.txt"),
        ("graph", ".", "-o", "graph.txt"),
    ],
    ids=" ".join,
)
def test_awkward_file_names_in_every_format(tmp_path: Path, argv: tuple[str, ...]) -> None:
    """Non-UTF-8 bytes, newlines, tabs, a leading dash, emoji and very long names in file names.

    The undecodable names used to crash every command (git's ignore check was fed text).
    """
    for raw in AWKWARD_NAMES:
        path = os.path.join(os.fsencode(tmp_path), raw)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(AWKWARD_SERVER)
    if argv[0] == "lint" and "--no-cache" not in argv:  # fill the cache; the run below reads it
        subprocess.run(
            [sys.executable, "-m", "mcpdeps", *argv], cwd=tmp_path, capture_output=True, timeout=300
        )
    raw = subprocess.run(
        [sys.executable, "-m", "mcpdeps", *argv],
        cwd=tmp_path,
        capture_output=True,
        timeout=300,
        # A strict UTF-8 locale (en_US.UTF-8), where printing such a name used to fail every report.
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "120", "PYTHONIOENCODING": "utf-8:strict"},
    )  # bytes: the names are echoed as the file system has them, not as UTF-8
    proc = subprocess.CompletedProcess(
        raw.args,
        raw.returncode,
        raw.stdout.decode("utf-8", "surrogateescape"),
        raw.stderr.decode("utf-8", "surrogateescape"),
    )
    no_crash(proc, codes=(0,) if argv[0] == "graph" else (0, 1))
    if "json" in argv and argv[0] == "lint":
        doc = lint_document(proc.stdout)
        assert doc["summary"]["files"] == len(AWKWARD_NAMES)
        assert {d["code"] for d in doc["diagnostics"]} >= {"MCPD002", "MCPD111"}
    if "sarif" in argv:
        assert '"uri": "bad%FF.py"' in proc.stdout
    if "json" in argv or "sarif" in argv:
        raw.stdout.decode("utf-8")  # strict: the document is UTF-8 (names escaped as \\udcXX)
