"""A cached run re-checks a `register(server)` helper when its callers change, and only then.

Each case builds a small project (`coupled_projects.py`: every way a caller reaches a
helper, and a `def tool(fn)` decorator helper here), fills the cache, makes one edit, and
compares the cached run with a cold one: same report, and only the files the edit can reach
checked.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from coupled_projects import CALLERS, DIRECT, TOOLS, edit, project
from mcpdeps.lint_rules import LintResult, lint
from mcpdeps.resolver_core.diagnostics import plain


def _dump(result: LintResult) -> list[dict[str, object]]:
    return [plain(d) for d in result.diagnostics]


def _same_as_cold(root: Path, cache: Path) -> LintResult:
    warm = lint(["."], cwd=root, cache_dir=cache)
    cold = lint(["."], cwd=root)
    assert _dump(warm) == _dump(cold)
    assert (warm.files, warm.parsed, warm.servers, warm.tools) == (
        cold.files,
        cold.parsed,
        cold.servers,
        cold.tools,
    )
    return warm


@pytest.fixture(params=sorted(CALLERS))
def built(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, Path]:
    main, extra = CALLERS[request.param]
    root, cache = tmp_path / "proj", tmp_path / "cache"
    project(root, main, extra)
    first = lint(["."], cwd=root, cache_dir=cache)
    assert "MCPD110" in {d.code for d in first.diagnostics}, "the helpers' tools land on `mcp`"
    return root, cache


def test_an_unrelated_edit_keeps_the_helpers_records(built: tuple[Path, Path]) -> None:
    root, cache = built
    edit(root / "app" / "unrelated.py", "return title", "return title.upper()")
    assert _same_as_cold(root, cache).analysed == 1


def test_an_edit_of_a_tool_module_beside_the_helpers_keeps_their_records(built: tuple[Path, Path]) -> None:
    root, cache = built
    edit(root / "app" / "tools.py", "def shared(", "def shared_too(")
    warm = _same_as_cold(root, cache)
    assert "MCPD110" in {d.code for d in warm.diagnostics}, "the helpers' `shared` tools still clash"
    assert warm.analysed == 1


def test_an_edit_of_the_helper_is_seen(built: tuple[Path, Path]) -> None:
    root, cache = built
    edit(root / "features" / "alpha.py", "def load_1(title: str)", "def load_1(user_id: str)")
    warm = _same_as_cold(root, cache)
    assert warm.analysed < warm.files


def test_an_edit_of_the_caller_is_seen(built: tuple[Path, Path]) -> None:
    root, cache = built
    for path in (root / "app" / "main.py", *(root / "features").glob("*.py")):
        text = path.read_text()
        if "(mcp)" in text:
            path.write_text(text.replace("(mcp)", "(other)").replace("import mcp", "import other"))
    warm = _same_as_cold(root, cache)
    # As the SDK does: every helper registers its `shared` on `other` now, where the one
    # registered second is dropped (`Tool already exists`); `mcp` keeps only `tools.py`'s.
    clashes = [d for d in warm.diagnostics if d.code == "MCPD110"]
    assert clashes and all("already registered on server 'other'" in d.message for d in clashes)


def test_a_caller_that_stops_calling_is_seen(built: tuple[Path, Path]) -> None:
    root, cache = built
    main = root / "app" / "main.py"
    main.write_text("from app.server import mcp\n")
    warm = _same_as_cold(root, cache)
    assert "MCPD110" not in {d.code for d in warm.diagnostics}


def test_a_new_caller_in_an_edited_file_is_seen(tmp_path: Path) -> None:
    """`unrelated.py` starts calling `beta.register(other)`: the state never listed `beta` in
    its closure, and `beta`'s tools now land on `other` too."""
    root, cache = tmp_path / "proj", tmp_path / "cache"
    project(root, "from app.server import mcp\nfrom features import alpha\n\nalpha.register(mcp)\n")
    lint(["."], cwd=root, cache_dir=cache)
    unrelated = root / "app" / "unrelated.py"
    unrelated.write_text(unrelated.read_text() + "\nfrom features import beta\n\nbeta.register(other)\n")
    warm = _same_as_cold(root, cache)
    assert warm.analysed < warm.files


def test_a_decorator_helper_applied_for_the_first_time_is_seen(tmp_path: Path) -> None:
    """`def tool(fn): mcp.add_tool(fn)` registers nothing until something applies it (its record
    is not coupled yet): an edited file that starts to must re-check the helper."""
    root, cache = tmp_path / "proj", tmp_path / "cache"
    helper = "from app.server import mcp\n\n\ndef tool(fn):\n    mcp.add_tool(fn)\n    return fn\n"
    project(root, DIRECT, {"app/helper.py": helper})
    lint(["."], cwd=root, cache_dir=cache)
    tools = root / "app" / "tools.py"
    tools.write_text(
        tools.read_text()
        + "\nfrom app.helper import tool\n\n\n@tool\ndef shared(record: Annotated[str, Resolve(fetch)]) -> str:\n"
        "    return record\n"
    )
    _same_as_cold(root, cache)
    tools.write_text(TOOLS)
    _same_as_cold(root, cache)


def test_an_edit_of_one_caller_keeps_what_the_others_pass(tmp_path: Path) -> None:
    """`alpha` is called from `main.py` and from `second.py`: after an edit of `main.py`, the
    helper checked again must still land on the server `second.py` passes."""
    root, cache = tmp_path / "proj", tmp_path / "cache"
    second = "from app.server import other\nfrom features import alpha\n\nalpha.register(other)\n"
    project(root, DIRECT, {"app/second.py": second})
    lint(["."], cwd=root, cache_dir=cache)
    edit(root / "app" / "main.py", "beta.register(mcp)\n", "")
    warm = _same_as_cold(root, cache)
    assert warm.analysed < warm.files
    edit(root / "features" / "alpha.py", "def broken_1(", "def shared_1(")
    _same_as_cold(root, cache)
