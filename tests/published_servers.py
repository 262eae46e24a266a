"""The check of a whole published server shape against the SDK (`test_published_servers_*`).

Earlier surveys checked one shape at a time (a registration, a parameter, a layout). A whole
server combines them: a factory or a class builds the server, helpers register tools from
several modules, shared values (a db client, the current user, settings, a confirmation) flow
through resolvers in a `deps`/`auth` module. A case is such a project in two twins: the valid
one, and the same with one mistake planted where users make it. The SDK, started the way the
author starts the server (`start` binds `server`), is the oracle: it refuses the planted twin,
logs a dropped duplicate, or injects the wrong value into a call; `lint .` must report exactly
the expected codes, and nothing on the valid twin. No tests here.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import run_mcpdeps, write_files
from published_shapes import WARNINGS_KEPT, found, the_editor_reports_what_lint_dot_reports, with_known_gaps

PYPROJECT = {"pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n"}

HEAD = "from typing import Annotated\n\nfrom mcp.server.mcpserver import Context, Resolve\n"


def mod(body: str, head: str = HEAD) -> str:
    """A module: `head` (the imports resolvers need), then `body` dedented."""
    return head + textwrap.dedent(body)


ORACLE = (
    WARNINGS_KEPT
    + """
import sys
sys.path.insert(0, ".")
spec = json.loads(sys.argv[1])
scope = {}
exec(spec["start"], scope)
server = scope["server"]
result = None
if spec["call"]:
    import anyio
    from mcp import Client

    async def call():
        async with Client(server) as client:
            done = await client.call_tool(spec["call"][0], spec["call"][1])
            return "".join(getattr(c, "text", "") for c in done.content)

    result = anyio.run(call)
print(json.dumps({"dropped": [m for m in logged if "already exists" in m], "result": result}))
"""
)
"""Python starting the server as its author does (`spec["start"]` binds `server`), keeping the
SDK's duplicate warnings, then calling one tool through the in-memory client if asked."""


@dataclass(frozen=True)
class Server:
    """A published server's structure, rebuilt: `files` is the valid twin; `planted` replaces
    `old` by `new` in `path` (the mistake); `start` binds `server` as the author's entry point
    does; the SDK then refuses with `refused`, or logs a dropped duplicate (`dropped`), or the
    call `call` answers `answers` (what a tool returns of the injected value); `expected` is
    what `lint .` reports on the planted twin, as sorted (path, code) pairs."""

    files: dict[str, str]
    start: str
    planted: tuple[str, str, str]
    expected: list[tuple[str, str]]
    refused: str = ""
    dropped: bool = False
    call: tuple[str, dict[str, Any]] | None = None
    answers: tuple[str, str] = ("", "")
    """The call's answer on the valid twin, then on the planted one."""
    read_from: str = field(default="")
    """The published repository the structure was learnt from (for the reader; never copied)."""


def run_sdk(root: Path, server: Server) -> subprocess.CompletedProcess[str]:
    """The server started (and called) under the real SDK in a fresh interpreter in `root`."""
    spec = json.dumps({"start": server.start, "call": server.call})
    return subprocess.run(
        [sys.executable, "-c", ORACLE, spec], cwd=root, capture_output=True, text=True, timeout=120
    )


def pairs(diagnostics: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """`(path, code)` of each diagnostic, sorted."""
    return sorted((str(d["path"]), str(d["code"])) for d in diagnostics)


def plant(root: Path, server: Server) -> None:
    """Write the planted mistake over the valid twin in `root`."""
    path, old, new = server.planted
    before = (root / path).read_text()
    assert before.count(old) == 1, f"{old!r} is not once in {path}"
    (root / path).write_text(before.replace(old, new))


def check_valid_twin(root: Path, server: Server) -> None:
    """The SDK starts the valid twin (no duplicate dropped, the call answering as expected) and
    `lint .` reports nothing."""
    write_files(root, {**PYPROJECT, **server.files})
    ran = run_sdk(root, server)
    assert ran.returncode == 0, ran.stderr[-3000:]
    out = json.loads(ran.stdout)
    assert out["dropped"] == [] and out["result"] == (server.answers[0] if server.call else None), out
    assert found(root, ["."]) == []


def check_planted_twin(root: Path, server: Server) -> None:
    """The SDK refuses, drops or misinjects in the planted twin as the case says, and `lint .`
    reports exactly the expected codes."""
    write_files(root, {**PYPROJECT, **server.files})
    plant(root, server)
    ran = run_sdk(root, server)
    if server.refused:
        assert ran.returncode != 0 and server.refused in ran.stderr, ran.stderr[-3000:]
    else:
        assert ran.returncode == 0, ran.stderr[-3000:]
        out = json.loads(ran.stdout)
        assert bool(out["dropped"]) == server.dropped, out
        if server.call:
            assert out["result"] == server.answers[1], out
    assert pairs(found(root, ["."])) == server.expected, found(root, ["."])


def check_each_file_alone(root: Path, server: Server, tmp_path: Path, planted: bool) -> None:
    """Each file of a twin linted alone (pre-commit), cold and twice with its own cache,
    reports what `lint .` reports for it."""
    write_files(root, {**PYPROJECT, **server.files})
    if planted:
        plant(root, server)
    whole = found(root, ["."])
    for n, given in enumerate(sorted(str(p.relative_to(root)) for p in root.rglob("*.py"))):
        expected = [d for d in whole if d["path"] == given]
        cache = tmp_path / f"cache{n}"
        runs = [found(root, [given]), found(root, [given], cache), found(root, [given], cache)]
        assert all([d for d in run if d["path"] == given] == expected for run in runs), (
            given,
            runs,
            expected,
        )


def graph_agrees(root: Path, server: Server, spec: str) -> None:
    """`graph SPEC` (read) shows the servers, tools and resolvers `graph --live SPEC` (the
    SDK's, imported) shows, on the valid twin."""
    write_files(root, {**PYPROJECT, **server.files})
    static = run_mcpdeps("graph", "--format", "json", spec, cwd=root)
    live = run_mcpdeps("graph", "--format", "json", "--live", spec, cwd=root)
    assert live.returncode == 0, live.stderr
    assert static.returncode == 0, static.stderr
    assert json.loads(static.stdout) == json.loads(live.stdout)


def editor_agrees(root: Path, server: Server) -> None:
    """The editor's model reports what `lint .` reports on the planted twin, and with the valid
    text unsaved over it (and the planted one over the valid twin), as `published_shapes` checks."""
    write_files(root, {**PYPROJECT, **server.files})
    plant(root, server)
    path, old, new = server.planted
    the_editor_reports_what_lint_dot_reports(root, path, (new, old))


Test = Callable[..., None]


def server_tests(
    cases: dict[str, Server],
    specs: dict[str, str],
    not_drawn: dict[str, str] | None = None,
    not_followed: dict[str, str] | None = None,
) -> tuple[Test, Test, Test, Test, Test]:
    """The five tests of a survey of whole servers (bind them to module-level `test_...` names):
    `graph SPEC` agrees with `graph --live SPEC` on each valid twin (`specs`: the spec naming
    each case's server; `not_drawn`: strict xfails, with the reason); the SDK starts the valid
    twin and lint reports nothing; the SDK refuses, drops or misinjects in the planted twin and
    lint reports exactly that (`not_followed`: strict xfails); each file alone reports what
    `lint .` reports, on both twins; the editor reports it too."""

    def gaps(check: str, known: dict[str, str] | None) -> dict[tuple[str, str], str]:
        return {(check, name): reason for name, reason in (known or {}).items()}

    @pytest.mark.parametrize("case", with_known_gaps("graph", sorted(specs), gaps("graph", not_drawn)))
    def test_graph_of_the_valid_twin_is_what_graph_live_draws(tmp_path: Path, case: str) -> None:
        graph_agrees(tmp_path, cases[case], specs[case])

    @pytest.mark.parametrize("case", sorted(cases))
    def test_sdk_starts_the_valid_twin_and_lint_reports_nothing(tmp_path: Path, case: str) -> None:
        check_valid_twin(tmp_path, cases[case])

    @pytest.mark.parametrize("case", with_known_gaps("planted", sorted(cases), gaps("planted", not_followed)))
    def test_sdk_refuses_the_planted_twin_and_lint_reports_it(tmp_path: Path, case: str) -> None:
        check_planted_twin(tmp_path, cases[case])

    @pytest.mark.parametrize("planted", [False, True], ids=["valid", "planted"])
    @pytest.mark.parametrize("case", sorted(cases))
    def test_each_file_alone_reports_what_lint_dot_reports(tmp_path: Path, case: str, planted: bool) -> None:
        check_each_file_alone(tmp_path / "p", cases[case], tmp_path, planted)

    @pytest.mark.parametrize("case", sorted(cases))
    def test_the_editor_reports_what_lint_dot_reports(tmp_path: Path, case: str) -> None:
        editor_agrees(tmp_path, cases[case])

    return (
        test_graph_of_the_valid_twin_is_what_graph_live_draws,
        test_sdk_starts_the_valid_twin_and_lint_reports_nothing,
        test_sdk_refuses_the_planted_twin_and_lint_reports_it,
        test_each_file_alone_reports_what_lint_dot_reports,
        test_the_editor_reports_what_lint_dot_reports,
    )
