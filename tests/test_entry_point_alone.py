"""The file that starts a server, linted alone, reports the errors of every helper it calls.

pre-commit passes `app/main.py` alone when only it changed. Importing it is what makes the
SDK run `alpha.register(mcp)` and refuse the bad resolver of a tool registered there, however
`main.py` reaches the helper (`coupled_projects.CALLERS`: a direct import, a package
re-export, a helper passing the server on, a loop over modules, a class taking the server).
`lint app/main.py` must report that refusal where `lint .` does, cold and cached, and record
the helpers in `main.py`'s dependencies (an edit of one re-checks it with `main.py`).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import lint_diagnostics
from coupled_projects import CALLERS, project


def _refusals(found: list[dict]) -> list[tuple[str, str, str]]:
    return sorted((d["code"], d["path"], d["message"]) for d in found if d["path"].startswith("features/"))


@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_the_entry_point_alone_reports_the_helpers_refusals(tmp_path: Path, caller: str) -> None:
    main, extra = CALLERS[caller]
    project(tmp_path, main, extra)
    sdk = subprocess.run(
        [sys.executable, "-c", "import app.main"], cwd=tmp_path, capture_output=True, text=True
    )
    assert "InvalidSignature: Resolver 'load_1' parameter 'title'" in sdk.stderr, sdk.stderr
    whole = [d for d in _refusals(lint_diagnostics(tmp_path, "--no-cache", ".")) if d[0] == "MCPD002"]
    assert ("MCPD002", "features/alpha.py") in {d[:2] for d in whole}
    assert _refusals(lint_diagnostics(tmp_path, "--no-cache", "app/main.py")) == whole
    assert _refusals(lint_diagnostics(tmp_path, "app/main.py")) == whole
    (tmp_path / "features/alpha.py").write_text(
        (tmp_path / "features/alpha.py")
        .read_text()
        .replace("def load_1(title: str) -> str:\n    return title", "def load_1() -> str:\n    return ''")
    )
    fixed = [d for d in whole if d[1] != "features/alpha.py"]
    assert _refusals(lint_diagnostics(tmp_path, "app/main.py")) == fixed
    assert _refusals(lint_diagnostics(tmp_path, "--no-cache", "app/main.py")) == fixed
