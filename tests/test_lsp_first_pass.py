"""The language server's first pass over a coupled project, batch by batch as the server runs it.

The server checks the open document, then the rest in small background batches
(`cli/lsp/server.py`). On a project registering tools in `register(server)` helpers, a batch
reaching one is checked with every file in one build, as `lint`'s first run does; before,
only a first round did, and a batch whose later rounds found the helpers grew its builds
round after round and left the rest to small batches, each following the coupled files
again (a 1,000-module `helpers` tree: 45 s before the editor showed every diagnostic,
against 2 s for `lint`). Here the batches are those of a typing user (two files, doubled
while a batch is quick), in this process.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import REPO
from mcpdeps.cli.lsp import workspace
from mcpdeps.cli.lsp.workspace import WorkspaceModel
from mcpdeps.resolver_core.diagnostics import plain

sys.path.insert(0, str(REPO / "benchmarks"))
from gen_shapes import generate


def _report(model: WorkspaceModel) -> list[str]:
    return sorted(json.dumps(plain(d), sort_keys=True) for d in model.report())


def _first_pass(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], int]:
    """The report after the open document then batches of the stale files, and the builds."""
    builds = 0
    check_files = workspace.check_files

    def counted(*args: object, **kwargs: object) -> workspace.Checked:
        nonlocal builds
        builds += 1
        return check_files(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(workspace, "check_files", counted)
    model = WorkspaceModel(root)
    model.check(model.order[:1])
    batch = 2
    while model.stale:
        model.check([o for o in model.order if o in model.stale][:batch])
        batch *= 2
    return _report(model), builds


@pytest.mark.parametrize(("shape", "seed"), [("helpers", 1), ("helpers", 3), ("dense", 1)])
def test_the_first_pass_is_one_check_of_every_file_in_few_builds(
    shape: str, seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generate(tmp_path, 120, shape, seed, 0.3)
    report, builds = _first_pass(tmp_path, monkeypatch)
    whole = WorkspaceModel(tmp_path)
    whole.check(whole.order)
    assert report == _report(whole)
    assert builds <= 6
