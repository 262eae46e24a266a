"""The language server's model on projects with `register(server)` helpers: an edit reaches
the helpers and their callers the way it does in `lint`, and no further.

A helper's verdict depends on its callers, anywhere in the project. Each case checks the
model, types one unsaved edit (`set_text`), and checks the stale files the way the server
does: the edited file first, then the rest one at a time (the smallest batches, where a
check that leaves out a caller would show). The report must equal what `lint` says of the
same texts, and the files made stale must be those the edit can reach, not the project.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from coupled_projects import CALLERS, DIRECT, project
from mcpdeps.cli.lsp.workspace import WorkspaceModel
from mcpdeps.lint_rules import api
from mcpdeps.lint_rules.incremental import check_files
from mcpdeps.resolver_core.diagnostics import Diagnostic

Row = tuple[str, int, int, str, str]


def _rows(diagnostics: list[Diagnostic]) -> list[Row]:
    return [(d.path, d.line, d.column, d.code, d.message) for d in diagnostics]


def _lint(root: Path, texts: dict[Path, str]) -> list[Row]:
    return _rows(api.lint(api.LintRequest(["."], root, texts=texts)).diagnostics)


def _type(
    model: WorkspaceModel, root: Path, name: str, old: str, new: str, texts: dict[Path, str]
) -> set[str]:
    """Put `name`'s text, `old` replaced by `new`, in the editor; returns the files made stale."""
    path = (root / name).absolute()
    text = texts.get(path, path.read_text())
    assert old in text
    texts[path] = text.replace(old, new)
    return model.set_text(path, texts[path]).stale


def _settle(model: WorkspaceModel, first: str) -> None:
    """Check as the server does: the edited file, then each stale file on its own."""
    model.check([first])
    while model.stale:
        model.check([next(o for o in model.order if o in model.stale)])


@pytest.fixture(params=sorted(CALLERS))
def checked(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, WorkspaceModel]:
    main, extra = CALLERS[request.param]
    root = tmp_path / "proj"
    project(root, main, extra)
    model = WorkspaceModel(root)
    _settle(model, "app/main.py")
    assert _rows(model.report()) == _lint(root, {})
    assert "MCPD110" in {row[3] for row in _rows(model.report())}, "the helpers' tools land on `mcp`"
    return root, model


def test_an_unrelated_edit_checks_that_file_alone(checked: tuple[Path, WorkspaceModel]) -> None:
    root, model = checked
    texts: dict[Path, str] = {}
    stale = _type(model, root, "app/unrelated.py", "return title", "return title.upper()", texts)
    assert stale == {"app/unrelated.py"}
    _settle(model, "app/unrelated.py")
    assert _rows(model.report()) == _lint(root, texts)


def test_an_edit_of_the_helper_reaches_its_callers_not_the_project(
    checked: tuple[Path, WorkspaceModel],
) -> None:
    root, model = checked
    texts: dict[Path, str] = {}
    stale = _type(model, root, "features/alpha.py", "def broken_1(", "def shared_1(", texts)
    assert "app/main.py" in stale and "app/unrelated.py" not in stale
    _settle(model, "features/alpha.py")
    assert _rows(model.report()) == _lint(root, texts)


def test_a_caller_moving_the_helpers_to_another_server_is_seen(checked: tuple[Path, WorkspaceModel]) -> None:
    root, model = checked
    texts: dict[Path, str] = {}
    for path in [*sorted((root / "features").glob("*.py")), root / "app" / "main.py"]:
        text = path.read_text()
        if "(mcp)" in text:
            name = path.relative_to(root).as_posix()
            _type(model, root, name, "(mcp)", "(other)", texts)
            _type(model, root, name, "import mcp", "import other", texts)
    _settle(model, "app/main.py")
    assert _rows(model.report()) == _lint(root, texts)


def test_a_new_caller_typed_in_an_unrelated_file_is_seen(tmp_path: Path) -> None:
    """`unrelated.py` starts calling `beta.register(other)`: no record listed `beta` in its
    closure, and `beta`'s tools now land on `other` too."""
    root = tmp_path / "proj"
    project(root, "from app.server import mcp\nfrom features import alpha\n\nalpha.register(mcp)\n")
    model = WorkspaceModel(root)
    _settle(model, "app/main.py")
    texts: dict[Path, str] = {}
    stale = _type(
        model,
        root,
        "app/unrelated.py",
        "return record\n",
        "return record\n\nfrom features import beta\n\nbeta.register(other)\n",
        texts,
    )
    assert stale == {"app/unrelated.py"}
    _settle(model, "app/unrelated.py")
    assert _rows(model.report()) == _lint(root, texts)
    assert len(model.order) > 3


def test_a_helper_opened_first_is_judged_with_its_callers(tmp_path: Path) -> None:
    """The editor opens a helper before anything is checked: its first check, alone, cannot
    know its callers; the files checked after it find them and judge it again."""
    root = tmp_path / "proj"
    project(root, DIRECT)
    model = WorkspaceModel(root)
    _settle(model, "features/beta.py")
    assert _rows(model.report()) == _lint(root, {})


@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_a_file_checked_alone_is_judged_as_with_every_file(caller: str, tmp_path: Path) -> None:
    """The model's builds name every workspace file, as `lint`'s name every given file: a
    caller of `register(server)` helpers checked without them records none of their tools.
    (A build naming only the caller took the helpers' modules for ones it passes its server
    to, and recorded their tools with the caller too: a duplicate MCPD110 until the helpers
    were checked again.)"""
    main, extra = CALLERS[caller]
    root = tmp_path / "proj"
    project(root, main, extra)
    model = WorkspaceModel(root)
    every = check_files(model.order, model.path_of, model._build, model.rules, model.hashes).records
    for origin in model.order:
        if not every[origin].coupled:  # a helper's record is its callers' too (`invalidation`)
            alone = check_files([origin], model.path_of, model._build, model.rules, model.hashes)
            assert alone.records[origin] == every[origin], origin


@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_no_check_of_part_of_the_project_reports_what_lint_does_not(caller: str, tmp_path: Path) -> None:
    """Whichever file the editor opens first, and however the rest follow one at a time, the
    report after every check holds nothing `lint` does not say of the same texts, and all of
    it in the end."""
    main, extra = CALLERS[caller]
    root = tmp_path / "proj"
    project(root, main, extra)
    expected = _lint(root, {})
    for first in WorkspaceModel(root).order:
        model = WorkspaceModel(root)
        model.check([first])
        while model.stale:
            assert set(_rows(model.report())) <= set(expected), first
            model.check([next(o for o in model.order if o in model.stale)])
        assert _rows(model.report()) == expected, first


def test_opening_a_document_as_it_was_read_rechecks_it_alone(checked: tuple[Path, WorkspaceModel]) -> None:
    """The editor opens files with the text the model read from disk: no file that reads them
    has anything new to say (only the document itself is checked again, to be published)."""
    root, model = checked
    for name in ("features/alpha.py", "app/server.py"):
        path = root / name
        assert model.set_text(path, path.read_text()).stale == {name}
        _settle(model, name)
        assert _rows(model.report()) == _lint(root, {})
