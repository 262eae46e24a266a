"""What the import index and the code fingerprint keep between runs, and when they look again.

A one-file run (what pre-commit passes) finds its companions from the import index
(`resolver_core/import_index.py`), and every cached run is keyed by a fingerprint of the
analyzer's code (`cache.version`). Both are kept to do less work; each test here holds one
of those savings to the verdict a run without it gives.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import lint_diagnostics, located, write_files
from hypothesis import given
from hypothesis import strategies as st

PROJECT = {
    "pyproject.toml": "[project]\nname = 'app'\nversion = '0'\n",
    "app.py": """\
        from typing import Annotated

        from mcp.server import MCPServer
        from mcp.server.mcpserver import Resolve

        from extra import deps

        mcp = MCPServer("app")


        @mcp.tool()
        def show(title: str, who: Annotated[str, Resolve(deps.owner)]) -> str:
            return who
        """,
}

DEPS = {
    "extra/__init__.py": "",
    "extra/deps.py": """\
        def owner(user_id: str) -> str:
            return user_id
        """,
}


def test_a_new_top_level_package_is_found_from_the_files_importing_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`from extra import deps` names no project module until `extra/` is created: the index
    keeps only the imports of the project's top-level names, so it resolves them again."""
    from mcpdeps.resolver_core import import_index

    monkeypatch.setattr(import_index, "RACY_NS", 0)  # every entry kept, as in an older project
    write_files(tmp_path, PROJECT)
    lint_diagnostics(tmp_path, "app.py")  # the index is kept while `extra` names no module
    write_files(tmp_path, DEPS)
    found = lint_diagnostics(tmp_path, "extra/deps.py")
    assert [(d["code"], d["tool"]) for d in found] == [("MCPD002", "show")]  # `user_id`, no argument of show
    assert found == located(lint_diagnostics(tmp_path, "--no-cache", "."), "extra/deps.py")


def test_the_index_is_not_written_again_for_a_file_its_stat_cannot_vouch_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pre-commit edits the file it passes just before the run: its entry is read again but not
    kept (its stat vouches for nothing yet), so the index on disk stays as it was; the next
    run, past the racy window, reads the file again and keeps it."""
    from mcpdeps.resolver_core import import_index
    from mcpdeps.resolver_core.discovery import discover
    from mcpdeps.resolver_core.import_index import ImportIndex

    write_files(tmp_path, {**PROJECT, **DEPS})
    cache = tmp_path / ".mcpdeps_cache"
    files = [f.path for f in discover([tmp_path], [], tmp_path)]
    monkeypatch.setattr(import_index, "RACY_NS", 0)
    kept = ImportIndex.open(tmp_path, [], cache)
    kept.refresh(files)
    kept.store()
    assert kept.path is not None
    written = kept.path.read_bytes()
    app = tmp_path / "app.py"
    app.write_text(app.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    monkeypatch.setattr(import_index, "RACY_NS", 10**18)  # edited "just now"
    racy = ImportIndex.open(tmp_path, [], cache)
    racy.refresh(files)
    assert not racy.changed and racy.entries[str(app)].stat == []
    racy.store()
    assert kept.path.read_bytes() == written
    monkeypatch.setattr(import_index, "RACY_NS", 0)
    later = ImportIndex.open(tmp_path, [], cache)
    later.refresh(files)
    assert later.changed and later.entries[str(app)].stat != []


def test_a_warm_run_of_a_resolver_module_reads_its_importers_from_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The importers spelling a resolver module's names are kept by the module's own stat too:
    an unchanged module is not parsed again to name them, and an edit of its code that keeps
    its names finds them by its names."""
    from mcpdeps.resolver_core import carriers, import_index

    monkeypatch.setattr(import_index, "RACY_NS", 0)  # every entry kept, as in an older project
    write_files(tmp_path, {**PROJECT, **DEPS})
    deps = tmp_path / "extra" / "deps.py"
    first = lint_diagnostics(tmp_path, "extra/deps.py")
    assert [(d["code"], d["tool"]) for d in first] == [("MCPD002", "show")]
    read: list[str] = []
    defined = carriers.defined
    monkeypatch.setattr(
        carriers, "defined", lambda given, r, *parse: read.extend(given) or defined(given, r, *parse)
    )
    assert lint_diagnostics(tmp_path, "--no-cache", "extra/deps.py") == first
    assert read == [str(deps)]  # no index kept: the module is read for its names
    read.clear()
    assert lint_diagnostics(tmp_path, "extra/deps.py") == first
    assert read == []
    deps.write_text(deps.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert lint_diagnostics(tmp_path, "extra/deps.py") == first
    assert read == [str(deps)]


def test_the_code_fingerprint_changes_with_a_module_and_only_then(tmp_path: Path) -> None:
    """Keyed as the interpreter keys bytecode: by each module's size and modification time."""
    from mcpdeps.resolver_core.cache import sources_fingerprint

    package = tmp_path / "pkg"
    write_files(package, {"a.py": "x = 1\n", "sub/b.py": "y = 2\n", "__pycache__/a.cpython-311.pyc": "?"})
    first = sources_fingerprint([package])
    assert sources_fingerprint([package]) == first
    (package / "__pycache__" / "a.cpython-311.pyc").write_text("??", encoding="utf-8")
    assert sources_fingerprint([package]) == first  # compiled files are not the code
    b = package / "sub" / "b.py"
    b.write_text("y = 3\n", encoding="utf-8")  # same size
    os.utime(b, ns=(b.stat().st_atime_ns, b.stat().st_mtime_ns + 1))
    assert sources_fingerprint([package]) != first
    (package / "c.py").write_text("", encoding="utf-8")
    assert sources_fingerprint([package]) != first


_PART = st.sampled_from(["a", "b", "ab", "..", "x.py", "é"])


@given(st.lists(_PART, min_size=1, max_size=4), st.lists(_PART, min_size=1, max_size=5))
def test_a_companion_is_shown_as_relpath_shows_it(cwd_parts: list[str], rest: list[str]) -> None:
    from mcpdeps.resolver_core.companions import companion_display

    cwd = Path("/", *cwd_parts)
    for path in (Path(cwd, *rest), Path("/", *rest)):
        expected = os.path.relpath(path, cwd) if path.is_relative_to(cwd) else str(path)
        assert companion_display(path, cwd) == companion_display(str(path), cwd) == expected
