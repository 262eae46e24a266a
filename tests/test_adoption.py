"""A run on a new list of paths takes up the records other lists' runs left (`lint_rules.adoption`).

pre-commit passes a new list of files almost every time. Property: through random edits
(`test_incremental`'s), each run on a random list of paths (one file, a few, or `.`) with
a cache shared by all lists reports exactly what a cold run on that list reports; and a
list never linted before re-checks only what the other lists' records cannot vouch for.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from coupled_projects import CALLERS, project
from mcpdeps.lint_rules import LintResult, lint, slice_plan
from mcpdeps.resolver_core.diagnostics import plain
from test_incremental import REGISTER, _edit, make_project


def _dump(result: LintResult) -> list[dict[str, object]]:
    return [plain(d) for d in result.diagnostics]


def _paths(root: Path, rng: random.Random) -> list[str]:
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*.py"))
    return ["."] if rng.random() < 0.25 else rng.sample(files, min(len(files), rng.randint(1, 3)))


@pytest.mark.parametrize("seed", range(12))
def test_runs_on_changing_lists_of_paths_report_what_cold_runs_report(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    root, cache = tmp_path / "proj", tmp_path / "cache"
    make_project(root, rng)
    if rng.random() < 0.5:  # a register(server) helper and its caller from the start
        (root / "app" / "extra.py").write_text(REGISTER)
        (root / "app" / "wire.py").write_text(
            "from app.extra import register\nfrom app.server import mcp\n\nregister(mcp)\n"
        )
    history: list[str] = []
    for _ in range(10):
        paths = _paths(root, rng)
        if rng.random() < 0.6:
            history.append(_edit(root, rng))
        history.append(f"lint {paths}")
        warm = lint(paths, cwd=root, cache_dir=cache)
        cold = lint(paths, cwd=root)
        assert _dump(warm) == _dump(cold), history
        assert (warm.files, warm.parsed, warm.servers, warm.tools) == (
            cold.files,
            cold.parsed,
            cold.servers,
            cold.tools,
        ), history


def test_a_new_list_rechecks_only_what_changed(tmp_path: Path) -> None:
    root, cache = tmp_path / "proj", tmp_path / "cache"
    make_project(root, random.Random(4), modules=8)
    whole = lint(["."], cwd=root, cache_dir=cache)
    assert whole.analysed == whole.files
    tools = "pkg0/tools_0.py"
    alone = lint([tools], cwd=root, cache_dir=cache)
    assert alone.analysed == 0, "every record it needs was left by `lint .`"
    assert _dump(alone) == _dump(lint([tools], cwd=root))
    path = root / tools
    path.write_text(path.read_text() + "\n# edited\n")
    edited = lint([tools, "pkg1/tools_1.py"], cwd=root, cache_dir=cache)
    assert edited.analysed == 1
    assert _dump(edited) == _dump(lint([tools, "pkg1/tools_1.py"], cwd=root))


def test_a_factory_edited_after_other_lists_checks_each_file_in_one_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pre-commit on a factory module of `gen_shapes.py`'s dense tree, after runs on other
    lists: the coupled files (a run of several slices, made small here) reach the modules
    their closures hold (`invalidation.reached`), whose records come from the build that
    checked them, not a second one; and the report is a cold run's. (The other lists lack
    the factory, so their records are not taken up: `adoption._drop_blind`.)"""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from gen_shapes import generate

    monkeypatch.setattr(slice_plan, "MAX_FILES_PER_SLICE", 16)

    root, cache = tmp_path / "tree", tmp_path / "cache"
    generate(root, 200, "dense", 1)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    files = sorted(str(p.relative_to(root)) for p in root.glob("pkg*/*.py"))
    tools = next(f for f in files if Path(f).name.startswith("tools_"))
    factory = next(f for f in files if Path(f).name.startswith("factory_"))
    lint([tools], cwd=root, cache_dir=cache)
    lint([tools, "app/server.py"], cwd=root, cache_dir=cache)
    (root / factory).write_text((root / factory).read_text() + "\n# edited\n")
    builds = counting_builds(monkeypatch)
    edited = lint([factory], cwd=root, cache_dir=cache)
    checked = [only for only in builds if isinstance(only, set)]
    assert builds == [None] or sum(map(len, checked)) == len(set().union(*checked)), "each file in one build"
    assert _dump(edited) == _dump(lint([factory], cwd=root))


def counting_builds(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """What each build of the runs from now on checks (`build_graph`'s `only`; None: every file)."""
    from mcpdeps.resolver_core import builder

    builds: list[object] = []
    build_graph = builder.build_graph

    def counted(*args: object, **kwargs: object) -> object:
        builds.append(kwargs.get("only"))
        return build_graph(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builder, "build_graph", counted)
    return builds


@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_a_helper_after_another_list_reports_what_a_cold_run_reports(tmp_path: Path, caller: str) -> None:
    """pre-commit on a `register(server)` helper (and on the project's other files) after a
    run on one other file: a caller's record left by a build without the helper does not
    list it among its dependencies, so taking it up would check the helper without its
    caller (MCPD113 on its tools instead of the MCPD002 of its resolver)."""
    main, extra = CALLERS[caller]
    root = tmp_path / "proj"
    project(root, main, extra)
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*.py"))
    for target in ["features/alpha.py", "features/beta.py", *extra]:
        cold = _dump(lint([target], cwd=root))
        for before in [*files, "."]:
            cache = (
                tmp_path / f"cache-{files.index(before) if before in files else 'dot'}-{Path(target).stem}"
            )
            lint([before], cwd=root, cache_dir=cache)
            assert _dump(lint([target], cwd=root, cache_dir=cache)) == cold, (target, before)


@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_a_helper_edited_after_runs_of_it_and_of_the_whole_reports_what_a_cold_run_reports(
    tmp_path: Path, caller: str
) -> None:
    """pre-commit on a helper after `lint .`, then again after an edit of it. The second run
    takes the helper's record up from `lint .` and checks its caller again, in a build without
    the helper: that build must follow the caller into the helper as a whole build does (a
    loop over modules, `for feature in (alpha, beta): feature.register(mcp)`, was followed only
    from the helper's side), or the caller's record does not list the helper, and the edit
    checks the helper without its caller (MCPD113 instead of the MCPD002 of its resolver)."""
    main, extra = CALLERS[caller]
    root, cache = tmp_path / "proj", tmp_path / "cache"
    project(root, main, extra)
    for target in ["features/alpha.py", *extra]:
        lint(["."], cwd=root, cache_dir=cache)
        lint([target], cwd=root, cache_dir=cache)
        with (root / target).open("a") as handle:
            handle.write("# edited\n")
        assert _dump(lint([target], cwd=root, cache_dir=cache)) == _dump(lint([target], cwd=root)), target
