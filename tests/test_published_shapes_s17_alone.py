"""Resolver modules linted alone, round 4 (s17), pre-commit's other lists: several files at
once (a resolver file with a tool module), each cached run after an edit (the resolver file to
its clean twin and back, every file of a registry project), a resolver file with a syntax error,
importers that register nothing (a test, a script), the editor following the tool module's
unsaved edits. The projects are `test_published_shapes_s17_resolvers.CASES`, each checked there
against the SDK; a cached run or a list of several files must report what a cold `lint .` does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files
from published_shapes import (
    CLEAN,
    PROJECT,
    EditorCase,
    editor_test,
    found,
    sdk,
    the_editor_reports_what_lint_dot_reports,
)
from test_published_shapes_s14_resolvers import BAD
from test_published_shapes_s15_resolvers import HEAD, SERVER, entry, uses
from test_published_shapes_s17_resolvers import CASES, NOT_FOLLOWED

REGISTRY = "tools collected by a registry decorator of another package, added by the server"
REGISTRY_IN_FACTORY = (
    "tools collected by a registry decorator, added in a factory, imported by the package __init__"
)


TOOL_EDITS: dict[str, EditorCase] = {
    "the tool module's unsaved edit switching to the refused resolver": (
        {
            "app/server.py": SERVER,
            "app/deps.py": BAD + "\n\n" + CLEAN[1].replace("load_d", "ok_d") + "\n",
            "app/tools.py": uses("from app.deps import load_d, ok_d  # noqa: F401\n", "load_d"),
            "app/main.py": entry("app.tools"),
        },
        "app/tools.py",
        ("Resolve(load_d)", "Resolve(ok_d)"),
    ),
    "the tool module's unsaved edit dropping the import of the resolver module": (
        {
            "app/server.py": SERVER,
            "app/deps.py": BAD,
            "app/tools.py": uses("from app.deps import load_d\n", "load_d"),
            "app/main.py": entry("app.tools"),
        },
        "app/tools.py",
        ("from app.deps import load_d\n", "load_d = str.upper\n"),
    ),
}
"""Editor cases whose unsaved text is the tool module's, not the resolver file's: the resolver
file's diagnostics follow an edit of the file that runs it."""

test_the_editor_follows_the_tool_modules_unsaved_edits = editor_test({}, more=TOOL_EDITS)


def _about(found_: list[dict[str, object]], paths: list[str]) -> list[dict[str, object]]:
    return [d for d in found_ if d["path"] in paths]


SEVERAL: dict[str, tuple[str, list[str]]] = {
    "the resolver file and the tool module running it": (
        "star import of the resolver module in the tools module",
        ["app/deps.py", "app/tools.py"],
    ),
    "the resolver file and a module between it and the tools": (
        "alias in app/types.py (named like the stdlib module), resolver in deps.py",
        ["app/deps.py", "app/types.py"],
    ),
    "the resolver file and the entry point, not the tool module": (
        "plain tool functions registered by a factory of another package",
        ["app/auth/deps.py", "app/main.py"],
    ),
    "two resolver files of one chain": (
        "resolver module imported only by another resolver module, relatively",
        ["app/auth/tokens.py", "app/auth/users.py"],
    ),
    "the resolver file and the tools file a registry decorator collects from": (
        REGISTRY,
        ["app/auth/deps.py", "app/tools.py"],
    ),
    "one feature's resolver file and the other feature's tools": (
        "two features on one server, one feature's resolvers refused",
        ["app/users/deps.py", "app/orders/tools.py"],
    ),
    "the resolver file and a test importing it": (
        "resolver module also imported by a test and a script registering nothing",
        ["app/deps.py", "tests/test_deps.py"],
    ),
}


@pytest.mark.parametrize("several", sorted(SEVERAL))
def test_several_files_at_once_report_what_lint_dot_reports_there(tmp_path: Path, several: str) -> None:
    """pre-commit passes every changed file in one run: `lint deps.py tools.py` (in either order,
    cold and cached) reports about those files what `lint .` reports about them, and so again
    after the resolver file is edited to its clean twin and back (the cache kept)."""
    case, paths = SEVERAL[several]
    files, _, bad, _, clean = CASES[case]
    root = tmp_path / "p"
    write_files(root, {**PROJECT, **files})
    refused = (root / bad).read_text()
    caches = {tuple(given): tmp_path / f"cache{n}" for n, given in enumerate((paths, paths[::-1]))}
    for text in (refused, refused.replace(*clean), refused):
        (root / bad).write_text(text)
        expected = _about(found(root, ["."]), paths)
        errors = [d["code"] for d in expected if d["severity"] == "error"]
        assert errors == (["MCPD002"] if text == refused else []), expected
        for given, cache in caches.items():
            runs = [
                found(root, list(given)),
                found(root, list(given), cache),
                found(root, list(given), cache),
            ]
            assert all(_about(run, paths) == expected for run in runs), given


def test_a_resolver_module_only_tests_and_scripts_import_is_reported_by_nobody(tmp_path: Path) -> None:
    """A resolver module imported only by a test and a script, neither registering a tool: the
    SDK refuses nothing (no tool runs it), and neither `lint .` nor `lint deps.py` reports it."""
    write_files(
        tmp_path,
        {
            **PROJECT,
            "app/deps.py": BAD,
            "app/server.py": SERVER,
            "tests/test_deps.py": "from app.deps import load_d\n\n\ndef test_load_d() -> None:\n"
            "    assert load_d('a') == 'a'\n",
            "scripts/seed.py": "from app.deps import load_d\nfrom app.server import mcp\n\nprint(load_d('seed'), mcp)\n",
        },
    )
    assert sdk(tmp_path, "import runpy; runpy.run_path('scripts/seed.py')").returncode == 0
    assert found(tmp_path, ["."]) == []
    cache = tmp_path / "cache"
    assert found(tmp_path, ["app/deps.py"]) == found(tmp_path, ["app/deps.py"], cache) == []
    assert found(tmp_path, ["app/deps.py"], cache) == []


SYNTAX: dict[str, tuple[str, str]] = {
    "the resolver file": ("app/deps.py", "def load_d(nope: str) -> str:\n    return nope\n\ndef broken(:\n"),
    "the tool module": ("app/tools.py", uses("from app.deps import load_d\n", "load_d") + "\ndef broken(:\n"),
}


def _broken(root: Path, where: str) -> str:
    """The project of `entry("app.tools")` with a syntax error in `where`'s file (returned), which
    the SDK refuses to start (Python's import raises SyntaxError)."""
    path, text = SYNTAX[where]
    files = {
        "app/server.py": SERVER,
        "app/deps.py": BAD,
        "app/tools.py": uses("from app.deps import load_d\n", "load_d"),
        "app/main.py": entry("app.tools"),
    }
    write_files(root, {**PROJECT, **files, path: text})
    assert "SyntaxError" in sdk(root, "import app.main").stderr
    return path


@pytest.mark.parametrize("where", sorted(SYNTAX))
def test_a_syntax_error_is_reported_alike_alone_and_in_lint_dot(tmp_path: Path, where: str) -> None:
    """A syntax error in the resolver file (an edit half done) or in the tool module importing it:
    each of the two files alone, cold and cached, reports there what `lint .` reports there."""
    path = _broken(tmp_path, where)
    whole = found(tmp_path, ["."])
    cache = tmp_path / "cache"
    for given in (["app/deps.py"], ["app/tools.py"], ["app/deps.py", "app/tools.py"]):
        expected = _about(whole, given)
        runs = [found(tmp_path, given), found(tmp_path, given, cache), found(tmp_path, given, cache)]
        assert all(_about(run, given) == expected for run in runs), (path, given)


def test_a_resolver_files_syntax_error_is_an_error_alone_and_in_lint_dot(tmp_path: Path) -> None:
    """A plain resolver module that does not parse (the SDK does not start: SyntaxError in it):
    `lint deps.py` alone reports MCPD000 there, and so does `lint .` (which walks to it and would
    not parse a plain module of resolvers, but parses it as the tool module's import), beside
    the error it makes in the tool module importing it (MCPD007, naming the syntax error), not
    that the module lacks the resolver."""
    _broken(tmp_path, "the resolver file")
    alone = found(tmp_path, ["app/deps.py"])
    assert [(d["code"], d["path"]) for d in alone] == [("MCPD000", "app/deps.py")]
    whole = [(d["code"], d["path"], d["message"]) for d in found(tmp_path, ["."])]
    assert whole == [
        ("MCPD000", "app/deps.py", "syntax error: invalid syntax"),
        (
            "MCPD007",
            "app/tools.py",
            "invalid resolver: `load_d`: module 'app.deps' could not be analysed "
            "(syntax error: invalid syntax, app/deps.py:4)",
        ),
    ]
    assert [d for d in whole if d[1] == "app/deps.py"] == [
        (d["code"], d["path"], d["message"]) for d in alone
    ]


SYNTAX_EDITS = {
    "the tool module dropping the import, then taking it up again": (
        "app/tools.py",
        ("from app.deps import load_d\n", "load_d = str.upper\n"),
    ),
    "the resolver file fixed, then broken again": ("app/deps.py", ("def broken(:\n", "def broken(): ...\n")),
}


@pytest.mark.parametrize("edit", sorted(SYNTAX_EDITS))
def test_a_cached_run_follows_a_syntax_error_reached_through_an_import(tmp_path: Path, edit: str) -> None:
    """The resolver file's syntax error reported in `lint .` because the tool module's import
    parses it: after an edit of either file that ends or restores that (the import dropped,
    the syntax fixed) and back, each cached run of `lint .` and of each file alone reports what
    a cold run does, and the editor what `lint .` does of each version saved, and of the tool
    module's edit unsaved too (an unsaved text that does not parse is mid-typing for the
    editor: the modules importing it keep their results, `WorkspaceModel.set_text`)."""
    root = tmp_path / "p"
    _broken(root, "the resolver file")
    name, (before, after) = SYNTAX_EDITS[edit]
    path = root / name
    text = path.read_text()
    assert before in text
    lists = (["."], ["app/deps.py"], ["app/tools.py"])
    caches = {tuple(given): tmp_path / f"cache{n}" for n, given in enumerate(lists)}
    for version in (text, text.replace(before, after), text):
        path.write_text(version)
        for given in lists:
            assert found(root, given, caches[tuple(given)]) == found(root, given), (version, given)
        the_editor_reports_what_lint_dot_reports(root)
    if name == "app/tools.py":
        the_editor_reports_what_lint_dot_reports(root, name, (before, after))


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_cached_run_follows_edits_of_the_resolver_file(tmp_path: Path, case: str) -> None:
    """pre-commit's run after each commit, its cache kept: the resolver file edited to its clean
    twin, then back to the refused one. Each cached run (`lint deps.py`, `lint .`) reports what
    a cold run of the same edit does, which is MCPD002 in the resolver file, then nothing, then
    MCPD002 again (nothing in it where lint reads the marker as opaque: `NOT_FOLLOWED`) (a tool registered by the entry point's loop over what a decorator of another
    file collected was lost once the tools file was re-checked alone)."""
    files, _, bad, _, clean = CASES[case]
    root = tmp_path / "p"
    write_files(root, {**PROJECT, **files})
    path = root / bad
    refused = path.read_text()
    for given in ([bad], ["."]):
        cache = tmp_path / f"cache-{len(given[0])}"
        for text in (refused, refused.replace(*clean), refused):
            path.write_text(text)
            cold = found(root, given)
            refusal = ["MCPD002"] if text == refused and case not in NOT_FOLLOWED else []
            assert [d["code"] for d in _about(cold, [bad])] == refusal
            assert found(root, given, cache) == cold, (given, text)


@pytest.mark.parametrize("case", [REGISTRY, REGISTRY_IN_FACTORY])
def test_a_cached_run_follows_edits_of_every_file_of_a_registry_project(tmp_path: Path, case: str) -> None:
    """A registry project (a decorator collecting in one file, a loop adding in another) edited
    file after file (a comment appended, the commit of an unrelated change), the resolver file
    last to its clean twin: each cached run (`lint deps.py`, `lint .`) reports what a cold one does."""
    files, _, bad, _, clean = CASES[case]
    root = tmp_path / "p"
    write_files(root, {**PROJECT, **files})
    for given in ([bad], ["."]):
        cache = tmp_path / f"cache-{len(given[0])}"
        assert found(root, given, cache) == found(root, given)
        for name in sorted(files):
            path = root / name
            path.write_text(path.read_text() + "# touched\n")
            assert found(root, given, cache) == found(root, given), (given, name)
        path = root / bad
        path.write_text(path.read_text().replace(*clean))
        assert found(root, given, cache) == found(root, given) == [], given


def test_a_cached_run_follows_the_entry_points_loop_taken_out_and_put_back(tmp_path: Path) -> None:
    """The entry point's `for fn in REGISTERED: mcp.add_tool(fn)` taken out, then put back: each
    cached run of `lint .` reports what a cold run does."""
    root = tmp_path / "p"
    write_files(root, {**PROJECT, **CASES[REGISTRY][0]})
    main = root / "app/main.py"
    looped = main.read_text()
    cache = tmp_path / "cache"
    for text in (looped, looped.replace("mcp.add_tool(fn)", "print(fn)"), looped):
        main.write_text(text)
        assert found(root, ["."], cache) == found(root, ["."]), text


@pytest.mark.xfail(
    strict=True,
    reason="`python server.py` finds the standard library's `types` (imported before any user code, so "
    "in `sys.modules` first) and raises ImportError on `from types import CurrentUser`; lint resolves the "
    "script folder's own types.py, as for a module the interpreter has not imported yet, and reports "
    "MCPD002 in deps.py, a module Python never reaches",
)
def test_a_script_folders_types_py_does_not_shadow_the_standard_library(tmp_path: Path) -> None:
    """A flat script folder whose alias module is named `types.py` (FastAPI's `CurrentUser` alias
    moved beside `server.py`): the server does not start (ImportError, not the resolver's refusal),
    and lint reports no resolver verdict in deps.py, alone or in `lint .`."""
    write_files(
        tmp_path,
        {
            "pyproject.toml": PROJECT["pyproject.toml"],
            "srv/deps.py": BAD,
            "srv/types.py": HEAD
            + "\nfrom deps import load_d\n\nCurrentUser = Annotated[str, Resolve(load_d)]\n",
            "srv/server.py": "from types import CurrentUser\n\nfrom mcp.server import MCPServer\n\n"
            'mcp = MCPServer("x")\n\n\n@mcp.tool()\ndef t(x: int, user: CurrentUser) -> str:\n    return user\n',
        },
    )
    ran = sdk(tmp_path, "import runpy, sys; sys.path.insert(0, 'srv'); runpy.run_path('srv/server.py')")
    assert "ImportError: cannot import name 'CurrentUser' from 'types'" in ran.stderr
    assert _about(found(tmp_path, ["."]), ["srv/deps.py"]) == []
    assert found(tmp_path, ["srv/deps.py"]) == []
