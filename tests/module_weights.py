"""The order test modules start in: the heaviest first, so that no long module starts last.

`--dist loadfile` gives each xdist worker a whole module at a time, in the order the
modules are queued. Left to itself, xdist queues them by their number of tests
(`--loadscope-reorder`), which says little about time here: one test that walks the corpus
or builds a venv outweighs a module of a hundred parametrized string checks. Queued by
test count, such a module could be handed out last and run alone while the other workers
sit idle. So the suite runs with `--no-loadscope-reorder` and the collection is put in
order of each module's recorded wall time (`module_weights.json`, seconds in one full run),
longest first: the longest-processing-time-first rule, which keeps the last module to
finish short.

The recorded times only order the modules; no test reads them, so a stale file costs
time, never a result. A module not in the file (a new one) is given the median weight.
Record them again after a module's time changes much, from a full run's JUnit report:

    pytest --junitxml=/tmp/junit.xml && python tests/module_weights.py /tmp/junit.xml
"""

from __future__ import annotations

import json
import statistics
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
WEIGHTS = Path(__file__).with_name("module_weights.json")


def recorded() -> dict[str, float]:
    """The recorded seconds per module path (`tests/test_x.py`), or none if the file is missing."""
    try:
        data = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {str(name): float(seconds) for name, seconds in data.items()}


def heaviest_first(items: Sequence[pytest.Item], weights: dict[str, float]) -> list[pytest.Item]:
    """`items` with their modules in order of falling weight; tests keep their order within a module.

    Ties keep collection order (the sort is stable), so the order is the same on every
    worker, which xdist requires of their collections."""
    default = statistics.median(weights.values()) if weights else 0.0
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    order = sorted(modules, key=lambda module: -weights.get(module, default))
    return [item for module in order for item in modules[module]]


def from_junit(report: Path) -> dict[str, float]:
    """Seconds per module in a JUnit report: the sum of its test cases' times (set-up and
    teardown included, which is where a module's shared fixtures are paid)."""
    weights: dict[str, float] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        module = case.get("classname", "").split(".")
        # `classname` is the dotted path of the module, then any class: `tests.test_x.TestY`
        while module and not REPO.joinpath(*module).with_suffix(".py").is_file():
            module.pop()
        if module:
            path = Path(*module).with_suffix(".py").as_posix()
            weights[path] = weights.get(path, 0.0) + float(case.get("time") or 0)
    return weights


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python tests/module_weights.py JUNIT_XML", file=sys.stderr)
        return 2
    weights = from_junit(Path(argv[0]))
    ordered = dict(
        sorted(((name, round(seconds, 1)) for name, seconds in weights.items()), key=lambda kv: -kv[1])
    )
    WEIGHTS.write_text(json.dumps(ordered, indent=1) + "\n", encoding="utf-8")
    print(f"{len(ordered)} modules, {sum(ordered.values()):.0f} s recorded in {WEIGHTS.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
