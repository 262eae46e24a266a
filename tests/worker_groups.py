"""Tests marked `xdist_group(NAME)` run on one xdist worker, the others wherever a worker is free.

A module whose fixtures are expensive (the oracle's runs over the whole corpus, Chromium
drawing every picture, a wheel installed into a new venv) marks its tests with one group,
so the fixtures are built once per run instead of once per worker (`-n auto` gave each of
two workers its own copy of all of them).

pytest-xdist's own `--dist loadgroup` cannot do it under pytest 9: it appends `@NAME` to each
marked test's `item._nodeid`, which pytest 9 ignores (node ids are derived from the tree),
so every marked test was scheduled on its own. Here each worker writes, while collecting,
which group each of its tests is in to a file the controller names (`workerinput`), and the
controller's scheduler, `GroupScheduling`, reads it once every worker has collected (before
any test is sent):

- a test's unit of work is its group, or the test alone;
- units go out largest first (xdist's `--loadscope-reorder`, on by default): the groups,
  which are the long units, start at once, and the single tests fill the workers up to
  the end of the run, a few at a time, so no worker idles while another has a queue.

A pytest plugin (`pytest_plugins` in `conftest.py`); `--dist loadgroup` (in `pyproject.toml`)
turns it on. Without xdist (`-n 0`) the marks change nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

GROUPS_FILE = "mcpdeps_groups_file"
"""The `workerinput` key naming the file a worker writes its tests' groups to."""

_controller_folder: list[Path] = []


def _group_of(item: pytest.Item) -> str | None:
    names = sorted(
        {
            str(m.args[0] if m.args else m.kwargs.get("name", "default"))
            for m in item.iter_markers("xdist_group")
        }
    )
    return "_".join(names) or None


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Controller: tell each worker where to write its groups (one file per worker)."""
    if not _controller_folder:
        _controller_folder.append(Path(tempfile.mkdtemp(prefix="pytest-groups-")))
    node.workerinput[GROUPS_FILE] = str(_controller_folder[0] / f"{node.gateway.id}.json")


def pytest_unconfigure(config: pytest.Config) -> None:
    while _controller_folder:
        shutil.rmtree(_controller_folder.pop(), ignore_errors=True)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Worker: write `{node id: group}` for the marked tests, before collection is reported."""
    target = getattr(config, "workerinput", {}).get(GROUPS_FILE)
    if target is None:
        return
    groups = {item.nodeid: group for item in items if (group := _group_of(item)) is not None}
    partial = f"{target}.partial"
    Path(partial).write_text(json.dumps(groups), encoding="utf-8")
    os.replace(partial, target)


def _scheduler_class() -> type:
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        """xdist's load-by-scope scheduling, the scope of a test being its group, or itself."""

        _groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self._groups is None:
                self._groups = {}
                for written in sorted(_controller_folder[0].glob("*.json")) if _controller_folder else ():
                    self._groups.update(json.loads(written.read_text(encoding="utf-8")))
            group = self._groups.get(nodeid)
            return f"group:{group}" if group is not None else nodeid

    return GroupScheduling


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") != "loadgroup":
        return None
    return _scheduler_class()(config, log)
