"""The one check of a published registration shape against the SDK (`test_published_shapes_*`).

A case is a small project whose tool runs `load_d(nope)`, a resolver the SDK refuses at
registration (`InvalidSignature`: no tool argument `nope`). The SDK is run the way the server
starts (a subprocess running the entry point), so the verdict is the SDK's and not a guess of
what it would do; `lint .` must then report MCPD002 in the resolver's file and `lint FILE`
alone (pre-commit) the same there. With `load_d(x)` instead both must accept the project:
a shape lint "follows" by reporting everything would fail that twin. The editor (`mcpdeps
lsp`'s model, in the process) must report what `lint .` reports, with either twin saved and
the other's text unsaved (`the_editor_reports_what_lint_dot_reports`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, lint_diagnostics, located, write_files
from mcpdeps.cli.lsp.workspace import WorkspaceModel
from mcpdeps.lint_rules import api, lint
from mcpdeps.resolver_core.diagnostics import Diagnostic, plain
from oracle.sdk_verdicts import judge_case

CLEAN = ("def load_d(nope: str) -> str:\n    return nope", "def load_d(x: int) -> str:\n    return str(x)")
"""The refused resolver, and the one the SDK accepts for a tool whose argument is `x`."""

WARNINGS_KEPT = """
import json, logging
logged = []
class Keep(logging.Handler):
    def emit(self, record):
        logged.append(record.getMessage())
logging.getLogger().addHandler(Keep())
logging.getLogger().setLevel(logging.WARNING)
"""
"""The start of a script keeping what the SDK logs (`logged`) while the server starts."""

DUPLICATES_LOGGED = (
    WARNINGS_KEPT
    + """
import app.main
print(json.dumps([m for m in logged if "already exists" in m]))
"""
)
"""The server started under the SDK (`import app.main`), printing as JSON the "already exists"
warnings it logs: the SDK's word on a duplicate tool name (it keeps the first)."""

PROJECT = {"pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n", "app/__init__.py": ""}


ENTRY_POINT = """\
    from mcp.server import MCPServer

    {imports}

    mcp = MCPServer("x")
    {call}
"""


def entry_point(imports: str, call: str) -> str:
    """An entry point binding `mcp` at module level, then running `call` (its continuation
    lines indented by 4, as the template's)."""
    return ENTRY_POINT.format(imports=imports, call=call)


def resolver_module(body: str, imports: str = "") -> str:
    """A module importing what it needs (`imports` beside `Resolve`), defining `load_d` (the
    resolver the SDK refuses) and then `body` (dedented, as `write_files` writes them)."""
    return (
        "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n"
        + textwrap.dedent(imports)
        + "\n\ndef load_d(nope: str) -> str:\n    return nope\n\n\n"
        + textwrap.dedent(body)
    )


def sdk(root: Path, entry: str) -> subprocess.CompletedProcess[str]:
    """Python running `entry` in `root`: the server starting under the real SDK."""
    return subprocess.run([sys.executable, "-c", entry], cwd=root, capture_output=True, text=True)


def _codes(found: list[dict], path: str) -> list[tuple[str, int]]:
    return sorted((d["code"], d["line"]) for d in located(found, path))


REFUSED = "InvalidSignature: Resolver 'load_d' parameter 'nope'"
"""What the SDK says of `load_d(nope)`."""


def check_both_ways(
    root: Path,
    files: dict[str, str],
    entry: str,
    bad: str,
    refused_with: str = REFUSED,
    clean: tuple[str, str] = CLEAN,
) -> None:
    """The SDK refuses the project (saying `refused_with`) and lint reports MCPD002 in `bad`
    (`lint .` and `lint bad` alike); with the clean resolver (`bad`'s text with `clean`
    replaced) both accept it. A resolver of another shape (a method, a class, a lambda) says
    how it is refused and made clean."""
    write_files(root, {**PROJECT, **files})
    refused = sdk(root, entry)
    assert refused_with in refused.stderr, refused.stderr
    whole = lint_diagnostics(root, "--no-cache", ".")
    assert [code for code, _ in _codes(whole, bad)] == ["MCPD002"], whole
    assert _codes(lint_diagnostics(root, "--no-cache", bad), bad) == _codes(whole, bad)

    path = root / bad
    before = path.read_text()
    path.write_text(before.replace(*clean))
    assert path.read_text() != before, "the clean twin is the refused project"
    accepted = sdk(root, entry)
    assert accepted.returncode == 0, accepted.stderr
    assert lint_diagnostics(root, "--no-cache", ".") == []
    assert lint_diagnostics(root, "--no-cache", bad) == []


def found(root: Path, paths: list[str], cache: Path | None = None, jobs: int = 1) -> list[dict[str, object]]:
    """The diagnostics of a lint run in the process, as plain dicts."""
    return [plain(d) for d in lint(paths, cwd=root, cache_dir=cache, jobs=jobs).diagnostics]


def stays_silent(tmp_path: Path, cases: dict[str, dict[str, str]], entry: str = "import app.main") -> None:
    """Each of `cases` (a project's files, under `tmp_path`): the SDK starts it (`entry`) and
    lint, `lint .` and each file alone, reports nothing at error or warning severity: a shape's
    twin where the SDK registers nothing refused."""
    for n, (name, files) in enumerate(sorted(cases.items())):
        root = tmp_path / str(n)
        write_files(root, {**PROJECT, **files})
        started = sdk(root, entry)
        assert started.returncode == 0, (name, started.stderr)
        whole = [d for d in found(root, ["."]) if d["severity"] != "info"]
        assert whole == [], (name, whole)
        for path in files:
            assert [d for d in found(root, [path]) if d["severity"] != "info"] == [], (name, path)


def each_file_alone_reports_what_lint_dot_reports(
    root: Path, tmp_path: Path, entry: str = "app/main.py"
) -> None:
    """Every file of `root` linted alone (what pre-commit passes) reports what `lint .` reports
    there: cold, twice with a cache of its own, and with a cache the runs of `entry` (the entry
    point, or any file of the project) left."""
    whole = found(root, ["."])
    shared = tmp_path / "shared-cache"
    for n, given in enumerate(sorted(str(p.relative_to(root)) for p in root.rglob("*.py"))):
        expected = [d for d in whole if d["path"] == given]
        own = tmp_path / f"cache{n}"
        runs = [found(root, [given]), found(root, [given], own), found(root, [given], own)]
        found(root, [entry], shared)
        found(root, [entry, given], shared)
        runs.append(found(root, [given], shared))
        assert all([d for d in run if d["path"] == given] == expected for run in runs), given


def _unfixed(diagnostics: list[Diagnostic]) -> list[dict[str, object]]:
    """Diagnostics as the JSON report writes them, without their fixes: the editor computes a
    fix as a code action when asked (as `test_shape_verdicts` compares them)."""
    return [{**d.contract_dict(), "fix": None} for d in diagnostics]


def _lint_dot(root: Path) -> list[dict[str, object]]:
    """`lint .` in `root` through the engine every front end asks (settings, `per-file-ignores`)."""
    return _unfixed(api.lint(api.LintRequest(["."], root)).diagnostics)


def _editor(model: WorkspaceModel, opened: Path | None = None) -> list[dict[str, object]]:
    """What the editor publishes once it checked every stale file as `mcpdeps lsp` does: the
    `opened` document first (`WorkspaceModel.priority`), then the others in the background in
    batches of one file (the smallest the server makes), unless the first pass checks them all
    in one (`first_batch_whole`)."""
    first = model.priority([opened] if opened is not None else [])
    if first:
        model.check(first)
    while model.stale:
        stale = [o for o in model.order if o in model.stale]
        assert model.check(stale if model.first_batch_whole() else stale[:1]), "stale files left unchecked"
    return _unfixed(model.report())


def the_editor_reports_what_lint_dot_reports(
    root: Path, bad: str | None = None, clean: tuple[str, str] = CLEAN
) -> None:
    """The editor's model of `root` (`mcpdeps lsp`'s `WorkspaceModel`, in the process) reports
    what `lint .` reports. With `bad` (the refused resolver's file; `clean` makes its clean
    twin), both ways: the clean twin's text unsaved over the refused project saved, then the
    refused text unsaved over the clean twin saved, each model reporting what `lint .` reports
    of the text it shows saved, and of the saved project again once the unsaved text is dropped."""
    refused = _lint_dot(root)
    opened = root / bad if bad is not None else None
    model = WorkspaceModel(root)
    assert _editor(model, opened) == refused, "the editor's model of the project saved"
    if opened is None:
        return
    text = opened.read_text()
    twin = text.replace(*clean)
    opened.write_text(twin)
    accepted = _lint_dot(root)
    opened.write_text(text)
    model.set_text(opened, twin)
    assert _editor(model, opened) == accepted, "the clean twin unsaved over the refused project"
    model.set_text(opened, None)
    assert _editor(model, opened) == refused, "the clean twin's unsaved text dropped"
    opened.write_text(twin)
    model = WorkspaceModel(root)
    assert _editor(model, opened) == accepted, "the editor's model of the clean twin saved"
    model.set_text(opened, text)
    assert _editor(model, opened) == refused, "the refused text unsaved over the clean twin"
    model.set_text(opened, None)
    assert _editor(model, opened) == accepted, "the refused text's unsaved text dropped"


def duplicates_logged(
    root: Path, env: dict[str, str], unset: tuple[str, ...] = (), start: str = "import app.main"
) -> list[str]:
    """The SDK's duplicate warnings when the server starts (`start`: the entry point imported)
    with `env` set and the variables of `unset` taken out of the inherited environment."""
    inherited = {k: v for k, v in os.environ.items() if k not in unset}
    ran = subprocess.run(
        [sys.executable, "-c", DUPLICATES_LOGGED.replace("import app.main", start)],
        cwd=root,
        capture_output=True,
        text=True,
        env={**inherited, **env},
    )
    assert ran.returncode == 0, ran.stderr
    logged: list[str] = json.loads(ran.stdout)
    return logged


def with_known_gaps(check: str, names: list[str], gaps: dict[tuple[str, str], str]) -> list[Any]:
    """`names` as test parameters, those `gaps` lists for `check` as strict xfails with its
    reason (an XPASS once mcpdeps is fixed says to delete the entry)."""
    return [
        pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=gaps[(check, name)]))
        if (check, name) in gaps
        else name
        for name in names
    ]


def cases_of(script: str, cwd: Path, folders: list[str]) -> dict[str, Any]:
    """The `cases` of the JSON document `tests/<script> FOLDER...` prints, run in `cwd` by this
    interpreter in one process (the oracle's and `graph_static_live.py`'s: the SDK imported once)."""
    ran = subprocess.run(
        [sys.executable, str(REPO / "tests" / script), *folders],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    cases: dict[str, Any] = json.loads(ran.stdout)["cases"]
    return cases


def survey_tests(
    cases: dict[str, tuple[Any, ...]], not_followed: dict[str, str], editor_gaps: dict[str, str] | None = None
) -> tuple[Callable[[Path, str], None], Callable[[Path, str], None], Callable[[Path, str], None]]:
    """The three tests of a survey file's `cases` (`files, entry, bad, ...`, as `check_both_ways`
    takes them): the SDK refuses each and lint reports it alike, a case `not_followed` names
    being a strict xfail with its reason; each file alone reports what `lint .` does; and the
    editor's model reports it too, saved and unsaved (`editor_gaps`: its strict xfails).
    Bind them to module-level `test_...` names for pytest to collect."""
    gaps = {("sdk", name): reason for name, reason in not_followed.items()}

    @pytest.mark.parametrize("case", with_known_gaps("sdk", sorted(cases), gaps))
    def test_sdk_refuses_and_lint_reports_alike(tmp_path: Path, case: str) -> None:
        check_both_ways(tmp_path, *cases[case])

    @pytest.mark.parametrize("case", sorted(cases))
    def test_each_file_alone_reports_what_lint_dot_reports(tmp_path: Path, case: str) -> None:
        root = tmp_path / "p"
        write_files(root, {**PROJECT, **cases[case][0]})
        each_file_alone_reports_what_lint_dot_reports(root, tmp_path)

    return (
        test_sdk_refuses_and_lint_reports_alike,
        test_each_file_alone_reports_what_lint_dot_reports,
        editor_test(cases, editor_gaps),
    )


EditorCase = tuple[dict[str, str], str | None, tuple[str, str]]
"""A project's files, the refused resolver's file (None: the project only as saved) and the
text replaced in it to make its clean twin (`the_editor_reports_what_lint_dot_reports`)."""


def _editor_cases(cases: dict[str, tuple[Any, ...]]) -> dict[str, EditorCase]:
    """The editor's cases of `check_both_ways`'s (`files, entry, bad, [refused_with, clean]`)."""
    return {
        name: (files, bad, rest[1] if len(rest) > 1 else CLEAN)
        for name, (files, _, bad, *rest) in cases.items()
    }


def editor_test(
    cases: dict[str, tuple[Any, ...]],
    gaps: dict[str, str] | None = None,
    more: dict[str, EditorCase] | None = None,
) -> Callable[[Path, str], None]:
    """The test that the editor reports each of `cases` (as `check_both_ways` takes them) and of
    `more` as `lint .` does, saved and unsaved (`the_editor_reports_what_lint_dot_reports`), the
    cases `gaps` names being strict xfails with its reason. Bind it to a module-level `test_...` name."""
    every = {**_editor_cases(cases), **(more or {})}
    known = {("editor", name): reason for name, reason in (gaps or {}).items()}

    @pytest.mark.parametrize("case", with_known_gaps("editor", sorted(every), known))
    def test_the_editor_reports_what_lint_dot_reports(tmp_path: Path, case: str) -> None:
        files, bad, clean = every[case]
        write_files(tmp_path, {**PROJECT, **files})
        the_editor_reports_what_lint_dot_reports(tmp_path, bad, clean)

    return test_the_editor_reports_what_lint_dot_reports


def lint_and_the_sdk_agree(
    root: Path, tools: list[str], expected: list[str], files: tuple[str, ...] = ("server.py",)
) -> None:
    """The SDK, importing `root`'s `server.py` in the process (`judge_case`), registers `tools`
    in that order and refuses or logs exactly the codes of `expected` (but MCPD109: what it
    accepts, then mishandles); `lint .` and `lint FILE` of each of `files` (as pre-commit passes
    it) report `expected`, and `lint .` counts the tools the SDK keeps."""
    verdict = judge_case(root)
    assert verdict["import_error"] is None
    assert [t["tool"] for t in verdict["tools"]] == tools
    refused = {t["code"] for t in verdict["tools"] if t["verdict"] != "ok"}
    logged = {"MCPD110" for t in verdict["tools"] if t["duplicate"]}
    assert refused | logged == set(expected) - {"MCPD109"}
    for target in (root, *(root / name for name in files)):
        result = lint([target], cwd=root)
        assert sorted(d.code for d in result.diagnostics) == sorted(expected), target
        assert target != root or result.tools == len(set(tools))
