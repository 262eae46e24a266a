"""pre-commit on `gen_shapes.py`'s `helpers` tree after runs on other lists of files
(`lint_rules.adoption`): records of companions followed only as far as a `Reach` are taken
up when their build asked that limit nothing this run's answers otherwise
(`FileRecord.limited`), and a file checked again is built with the registrars it applies.

Each run must report what a cold run reports and leave the records a run on the same list
with an empty cache leaves (the next runs start from them).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from mcpdeps.lint_rules import LintResult, lint
from mcpdeps.resolver_core.diagnostics import plain


def _tree(root: Path) -> list[str]:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from gen_shapes import generate

    generate(root, 150, "helpers", 1)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    return sorted(str(p.relative_to(root)) for p in root.glob("pkg*/*.py"))


def _records(cache: Path, given: str) -> dict[str, Any]:
    """The records of the state of the run given `given` alone (its companions beside it)."""
    for path in (cache / "lint").glob("mcpdeps-lint-*.json"):
        state = json.loads(path.read_text())
        if [entry[0] for entry in state["files"] if len(entry) == 3] == [given]:
            return {
                display: {key: value for key, value in record.items() if key != "limited"}
                for display, record in state["records"].items()
            }
    raise AssertionError(f"no state for {given}")


def _precommit(root: Path, cache: Path, given: str, other: str) -> LintResult:
    """`bench_one_file.py`'s pre-commit row: runs on other lists, then `given` edited alone."""
    lint([other], cwd=root, cache_dir=cache)
    lint([other, "app/server.py"], cwd=root, cache_dir=cache)
    with (root / given).open("a") as handle:
        handle.write("\n# edited\n")
    return lint([given], cwd=root, cache_dir=cache)


_CLASSIFIED_ONLY = ("diagnostics", "consumed", "unclassified")
"""What a record holds only when its tools were classified: a companion an empty cache's run
leaves unclassified (`FileRecord.unclassified`) vouches for its registrations alone, where a
run that took up another list's whole record of it keeps that one."""


def _as_cold(result: LintResult, root: Path, cache: Path, given: str) -> None:
    assert [plain(d) for d in result.diagnostics] == [plain(d) for d in lint([given], cwd=root).diagnostics]
    lint([given], cwd=root, cache_dir=cache.parent / "fresh")
    kept, fresh = _records(cache, given), _records(cache.parent / "fresh", given)
    assert kept.keys() == fresh.keys()
    for display, record in fresh.items():
        if record["unclassified"]:
            record = {k: v for k, v in record.items() if k not in _CLASSIFIED_ONLY}
            assert {k: v for k, v in kept[display].items() if k not in _CLASSIFIED_ONLY} == record, display
        else:
            assert kept[display] == record, display


def test_a_tool_module_takes_up_the_companions_its_reach_does_not_move(tmp_path: Path) -> None:
    """The decorator-using companions (`@h.register_tool`) of a tool module's run are followed
    only as far as its `Reach`, which depends on the last given file, so another list's never
    matched: every one was checked again (32 of 32 files here). They hand no server on and ask
    the limit nothing: only the tool module and the entry point calling the helpers are."""
    root = tmp_path / "tree"
    files = _tree(root)
    tools = [f for f in files if Path(f).name.startswith("tools_")]
    result = _precommit(root, tmp_path / "cache", tools[1], tools[0])
    assert result.analysed <= 2
    _as_cold(result, root, tmp_path / "cache", tools[1])


@pytest.mark.parametrize("at", [0, 1])
def test_a_decorated_module_is_checked_with_the_registrar_it_applies(tmp_path: Path, at: int) -> None:
    """A module applying another module's `def register_tool(fn)` decorator, after runs on
    another such module: its record was not taken up (named here, a companion there), and a
    build of it without the decorator's module neither scans that module nor follows the
    import to it, so the record said `coupled: false` where `lint .` says true (and so did the
    other module's, checked with it)."""
    root = tmp_path / "tree"
    decorated = [f for f in _tree(root) if Path(f).name.startswith("decorated_")]
    given, other = decorated[at], decorated[1 - at]
    result = _precommit(root, tmp_path / "cache", given, other)
    _as_cold(result, root, tmp_path / "cache", given)


def test_a_companion_classified_again_is_built_with_the_registrar_it_applies(tmp_path: Path) -> None:
    """Found by an attack: on `gen_shapes.py`'s `helpers` tree of 30 modules (seed 221, a
    third of them with errors), `lint pkg0/feature_10.py` with an empty cache reported an
    MCPD004 a run without a cache did not. Its second round (the companions left
    unclassified, classified: `incremental.analyse`) built `pkg0/decorated_13.py` alone:
    a companion followed only as far as its `Reach`, whose `@h.expose` helper
    (`pkg0/decos_6.py`, `def expose(fn): mcp.add_tool(fn)`) is a file of the run but not of
    that build, was not scanned, so its six tools were lost (and with them which file first
    runs the shared resolver `bad_1`, which reports its finding). Such a companion's imported
    registrars are scanned among the run's files, as a build of every file scans them."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from gen_shapes import generate

    generate(tmp_path, 30, "helpers", 221, errors=0.3)
    given = ["pkg0/feature_10.py"]
    cold = [plain(d) for d in lint(given, cwd=tmp_path).diagnostics]
    cached = lint(given, cwd=tmp_path, cache_dir=tmp_path / ".cache")
    assert [plain(d) for d in cached.diagnostics] == cold
    state = next((tmp_path / ".cache" / "lint").glob("mcpdeps-lint-*.json"))
    records = json.loads(state.read_text())["records"]
    assert len(records["pkg0/decorated_13.py"]["registrations"]) == 6
