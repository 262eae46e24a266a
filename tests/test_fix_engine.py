"""How `--fix` writes and `--diff` shows: atomic, byte-faithful, refusing stale files.

Real files on disk and the real CLI; the changed-on-disk case drives the engine's
two steps (plan, then write) directly, changing the file in between like an editor would.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from conftest import run_mcpdeps
from hypothesis import given, settings
from hypothesis import strategies as st
from mcpdeps.lint_rules.config import LintConfig
from mcpdeps.lint_rules.fixes.edits import apply_edits, edits_between
from mcpdeps.lint_rules.fixes.engine import plan_fixes, write_plan
from mcpdeps.lint_rules.settings import merge
from mcpdeps.resolver_core.diagnostics import Edit

BROKEN = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("s")


def who() -> str:
    return "ada"  # é, a non-ASCII comment


@mcp.tool
def t(_title: str, w: Annotated[str, Resolve(who)] | None = None) -> str:
    return _title + w
"""
FIXED = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

mcp = MCPServer("s")


def who() -> str:
    return "ada"  # é, a non-ASCII comment


@mcp.tool()
def t(title: str, w: Annotated[str, Resolve(who)]) -> str:
    return title + w
"""


def test_diff_shows_every_fix_and_writes_nothing(tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_text(BROKEN, encoding="utf-8")
    proc = run_mcpdeps("lint", "--diff", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.startswith("--- a/server.py\n+++ b/server.py\n")
    assert proc.stdout.endswith(
        " # é, a non-ASCII comment\n \n \n-@mcp.tool\n"
        "-def t(_title: str, w: Annotated[str, Resolve(who)] | None = None) -> str:\n"
        "-    return _title + w\n"
        "+@mcp.tool()\n"
        "+def t(title: str, w: Annotated[str, Resolve(who)]) -> str:\n"
        "+    return title + w\n"
    )
    assert "Would fix 3 problems in 1 file." in proc.stderr
    assert server.read_text(encoding="utf-8") == BROKEN
    server.write_text(FIXED, encoding="utf-8")
    clean = run_mcpdeps("lint", "--diff", cwd=tmp_path)
    assert (clean.returncode, clean.stdout) == (0, "")


def test_several_fixes_on_one_parameter_converge(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(BROKEN, encoding="utf-8")
    proc = run_mcpdeps("lint", "--fix", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "server.py").read_text(encoding="utf-8") == FIXED
    assert "All checks passed!" in proc.stdout
    assert "Fixed 3 problems in 1 file." in proc.stderr


def test_crlf_bom_mode_and_symlink_survive(tmp_path: Path) -> None:
    target = tmp_path / "real_server.py"
    target.write_bytes(b"\xef\xbb\xbf" + BROKEN.replace("\n", "\r\n").encode("utf-8"))
    target.chmod(0o750)
    (tmp_path / "server.py").symlink_to(target.name)
    proc = run_mcpdeps("lint", "--fix", "server.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "server.py").is_symlink()
    assert target.read_bytes() == b"\xef\xbb\xbf" + FIXED.replace("\n", "\r\n").encode("utf-8")
    assert stat.S_IMODE(target.stat().st_mode) == 0o750
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".mcpdeps-fix")] == []


def test_pep263_encoding_is_kept(tmp_path: Path) -> None:
    source = "# -*- coding: latin-1 -*-\n" + BROKEN
    (tmp_path / "server.py").write_bytes(source.encode("latin-1"))
    assert run_mcpdeps("lint", "--fix", cwd=tmp_path).returncode == 0
    assert (tmp_path / "server.py").read_bytes() == ("# -*- coding: latin-1 -*-\n" + FIXED).encode("latin-1")


def test_a_file_changed_since_it_was_read_is_refused(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    server = tmp_path / "server.py"
    server.write_text(BROKEN, encoding="utf-8")
    plan = plan_fixes(["server.py"], merge(LintConfig()), cwd=tmp_path)
    assert plan.changed() == ["server.py"]
    edited = BROKEN + "# saved by an editor meanwhile\n"
    server.write_text(edited, encoding="utf-8")
    refused = write_plan(plan, tmp_path)
    assert refused == ["server.py changed on disk while it was being fixed; it was left as it is"]
    assert server.read_text(encoding="utf-8") == edited


def test_json_fix_edits_are_exactly_what_fix_writes(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(BROKEN, encoding="utf-8")
    report = json.loads(run_mcpdeps("lint", "--format", "json", cwd=tmp_path).stdout)
    fixes = {d["code"]: d["fix"] for d in report["diagnostics"]}
    assert set(fixes) == {"MCPD003", "MCPD006", "MCPD008"}
    assert all(f is not None and f["message"] and f["edits"] for f in fixes.values())
    assert fixes["MCPD003"]["edits"] == [
        {"path": "server.py", "line": 14, "column": 51, "end_line": 14, "end_column": 65, "content": ""}
    ]

    edits = [Edit(**e) for e in fixes["MCPD008"]["edits"] + fixes["MCPD003"]["edits"]]
    assert apply_edits(BROKEN, edits) == FIXED.replace("(title", "(_title").replace(
        "return title", "return _title"
    )


def test_fix_with_stdin_prints_the_fixed_source(tmp_path: Path) -> None:
    proc = run_mcpdeps("lint", "--fix", "--stdin-filename", "server.py", input=BROKEN, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == FIXED
    assert not (tmp_path / "server.py").exists()


def test_nothing_to_fix_leaves_the_file_untouched(tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_text(FIXED, encoding="utf-8")
    os.utime(server, (1_000_000, 1_000_000))
    assert run_mcpdeps("lint", "--fix", cwd=tmp_path).returncode == 0
    assert server.stat().st_mtime == 1_000_000


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab\n\r é_()", max_size=60), st.text(alphabet="ab\n\r é_()", max_size=60))
def test_edits_between_any_two_texts_round_trip(before: str, after: str) -> None:
    assert apply_edits(before, edits_between("f.py", before, after)) == after


DEPS = """\
from mcp.server.mcpserver import Sample
from mcp.types import SamplingMessage, TextContent


def summarize(text: str) -> Sample:
    message = SamplingMessage(role="user", content=TextContent(type="text", text=text))
    return Sample([message], max_tokens=100, include_context="thisServer")
"""
USES_DEPS = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
from mcp.types import CreateMessageResult

import deps

mcp = MCPServer("s")


@mcp.tool()
def digest(text: str, summary: Annotated[CreateMessageResult, Resolve(deps.summarize)]) -> str:
    return text
"""


def test_only_the_files_asked_for_are_rewritten(tmp_path: Path) -> None:
    """Like pre-commit on `server.py`: a problem in the imported deps.py is reported, not edited."""
    (tmp_path / "server.py").write_text(USES_DEPS, encoding="utf-8")
    (tmp_path / "deps.py").write_text(DEPS, encoding="utf-8")
    only_server = run_mcpdeps("lint", "--fix", "--format", "concise", "server.py", cwd=tmp_path)
    assert only_server.returncode == 0  # a warning does not fail
    assert "deps.py:7:" in only_server.stdout and "MCPD105" in only_server.stdout
    assert (tmp_path / "deps.py").read_text(encoding="utf-8") == DEPS
    both = run_mcpdeps("lint", "--fix", "--format", "concise", "server.py", "deps.py", cwd=tmp_path)
    assert "All checks passed!" in both.stdout
    assert (tmp_path / "deps.py").read_text(encoding="utf-8") == DEPS.replace(
        ', include_context="thisServer"', ""
    )


def test_a_fix_that_would_break_something_else_is_left_out(tmp_path: Path) -> None:
    """Renaming `_title` would unhook `who`, which gets `_title` by name: MCPD002 would appear."""
    source = BROKEN.replace(
        'def who() -> str:\n    return "ada"', "def who(_title: str) -> str:\n    return _title.upper()"
    ).replace(" | None = None", "")
    server = tmp_path / "server.py"
    server.write_text(source, encoding="utf-8")
    proc = run_mcpdeps("lint", "--fix", "--format", "concise", cwd=tmp_path)
    assert proc.returncode == 1
    assert "server.py:14:7: MCPD006 was not fixed: the fix would make a new error appear" in proc.stderr
    assert "Fixed 1 problem in 1 file." in proc.stderr  # the decorator still is
    assert server.read_text(encoding="utf-8") == source.replace("@mcp.tool\n", "@mcp.tool()\n")
    assert [line.split()[1] for line in proc.stdout.splitlines()[:-1]] == ["MCPD006"]


def _chained_default(terms: int) -> str:
    """MCPD111 (a default the resolver always overrides) whose default is a `terms`-long chain."""
    chain = " + ".join(['"x"'] * terms)
    return (
        "from typing import Annotated\nfrom mcp.server import MCPServer\n"
        "from mcp.server.mcpserver import Resolve\nmcp = MCPServer('s')\n"
        "def r() -> str:\n    return 'x'\n"
        f"@mcp.tool()\ndef t(title: str, v: Annotated[str, Resolve(r)] = {chain}) -> str:\n    return v\n"
    )


def _depth(text: str) -> int:
    import ast

    stack, deepest = [(ast.parse(text), 0)], 0
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def test_libcst_fixes_up_to_the_depth_limit_and_never_sees_a_deeper_file(tmp_path: Path) -> None:
    """At `TOO_DEEP_TO_FIX` levels the fix is libcst's as ever; one level deeper there is none,
    and the run does not pay libcst's quadratic parse (5,000 levels took 10 s and lost the fix)."""
    from mcpdeps.lint_rules.fixes import TOO_DEEP_TO_FIX

    at_limit = next(
        n
        for n in range(TOO_DEEP_TO_FIX - 10, TOO_DEEP_TO_FIX)
        if _depth(_chained_default(n)) == TOO_DEEP_TO_FIX
    )
    for name, terms in (("at_limit.py", at_limit), ("deeper.py", at_limit + 1)):
        (tmp_path / name).write_text(_chained_default(terms), encoding="utf-8")
    assert _depth((tmp_path / "deeper.py").read_text()) == TOO_DEEP_TO_FIX + 1
    report = json.loads(run_mcpdeps("lint", "--format", "json", "--no-cache", cwd=tmp_path).stdout)
    fixes = {d["path"]: d["fix"] for d in report["diagnostics"] if d["code"] == "MCPD111"}
    assert set(fixes) == {"at_limit.py", "deeper.py"}
    assert fixes["deeper.py"] is None
    assert fixes["at_limit.py"] is not None
    fixed = apply_edits(_chained_default(at_limit), [Edit(**e) for e in fixes["at_limit.py"]["edits"]])
    assert "Resolve(r)]) -> str" in fixed and '"x" + "x"' not in fixed


def test_the_parent_map_is_libcsts() -> None:
    """`CstSource.parents` (built from `children`) pairs every node as ParentNodeProvider does."""
    from libcst.metadata import MetadataWrapper, ParentNodeProvider
    from mcpdeps.lint_rules.fixes.cst_source import CstSource

    files = sorted((Path(__file__).parent.parent / "examples").rglob("*.py"))
    assert len(files) >= 4
    for path in files:
        source = CstSource(path.read_text(encoding="utf-8"))
        expected = MetadataWrapper(source.module, unsafe_skip_copy=True).resolve(ParentNodeProvider)
        assert {id(n): id(p) for n, p in source.parents.items()} == {
            id(n): id(p) for n, p in expected.items()
        }, path


def test_ctrl_c_as_the_temporary_file_is_created_leaves_nothing_behind(tmp_path: Path) -> None:
    """A real SIGINT, sent the moment `mkstemp` has created the temporary file and before it
    returns its name (where Ctrl+C used to leave `.NAME.*.mcpdeps-fix` behind): the write is
    interrupted, the target untouched, and no temporary file is left."""
    import os
    import signal
    import sys
    import tempfile

    import pytest
    from mcpdeps.lint_rules.fixes.atomic_write import Original, replace_file

    target = tmp_path / "server.py"
    target.write_bytes(b"old\n")
    sent = []

    def interrupt_once_created(frame, event: str, arg: object) -> None:
        if (
            event == "c_return"
            and arg is os.open
            and frame.f_code is tempfile._mkstemp_inner.__code__
            and not sent
        ):
            sent.append(True)
            os.kill(os.getpid(), signal.SIGINT)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        sys.setprofile(interrupt_once_created)
        with pytest.raises(KeyboardInterrupt):
            replace_file(target, b"new\n", Original.read(target, "server.py"), "server.py", ".mcpdeps-fix")
        sys.setprofile(None)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # handed back
    finally:
        sys.setprofile(None)
        signal.signal(signal.SIGINT, previous)
    assert sent == [True]
    assert target.read_bytes() == b"old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["server.py"]
