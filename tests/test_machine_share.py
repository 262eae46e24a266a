"""The suite's own scheduling, with two xdist workers: a `serial` test overlaps no other test, and
the tests of one `xdist_group` run on one worker while the others spread over both."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

PROBE = """\
import os, time
import pytest

def _record(name):
    start = time.time()
    time.sleep(0.2)
    with open(os.environ["PROBE_LOG"], "a") as log:
        log.write(f"{name} {os.environ['PYTEST_XDIST_WORKER']} {start} {time.time()}\\n")

@pytest.mark.parametrize("i", range(6))
def test_shared(i):
    _record(f"shared{i}")

@pytest.mark.serial
@pytest.mark.parametrize("i", range(2))
def test_alone(i):
    _record(f"serial{i}")
"""


RECORD = PROBE.split("@pytest.mark.parametrize")[0]
GROUPED = (
    RECORD
    + """\
pytestmark = pytest.mark.xdist_group("probe")

@pytest.mark.parametrize("i", range(6))
def test_grouped(i):
    _record(f"grouped{i}")
"""
)
SINGLES = (
    RECORD
    + """\
@pytest.mark.parametrize("i", range(12))
def test_single(i):
    _record(f"single{i}")
"""
)

# Each probe test sleeps 0.2 s: far longer than the workers' skew in taking tests, so the
# tests of the two workers overlap wherever the lock lets them (0.4 s gave the same records
# and 3 s more of the run).

TWO_WORKERS = ("-n", "2", "--dist", "loadgroup")
"""As `pyproject.toml` schedules the suite, on two workers."""

Run = tuple[str, str, float, float]
"""A probe test's name, its worker, when it started and ended."""

# One xdist worker runs this module, so the probe run (a nested pytest) is made once.
pytestmark = pytest.mark.xdist_group("machine_share")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Run]:
    """The probe modules run by a nested pytest with two workers, both plugins and
    `--dist loadgroup` (as `pyproject.toml` gives them).

    Only xdist of the installed plugins is loaded (`PYTEST_DISABLE_PLUGIN_AUTOLOAD`): importing
    the others (hypothesis', pytest-lsp's) was ~2 s of CPU in each of its three processes."""
    tmp_path = tmp_path_factory.mktemp("probe")
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["machine_share", "worker_groups"]\n')
    for i, text in enumerate((PROBE, GROUPED, SINGLES)):
        (tmp_path / f"test_probe{i}.py").write_text(text)
    log = tmp_path / "probe.log"
    env = {
        **os.environ,
        "PYTHONPATH": str(TESTS),
        "PROBE_LOG": str(log),
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    env.pop("PYTEST_XDIST_WORKER", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "xdist.plugin", "-p", "no:cacheprovider", *TWO_WORKERS],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split() for line in log.read_text().splitlines()]
    return [(name, worker, float(start), float(end)) for name, worker, start, end in rows]


def test_serial_tests_overlap_no_other_test_and_the_others_share(runs: list[Run]) -> None:
    assert len(runs) == 26 and {w for _, w, _, _ in runs} == {"gw0", "gw1"}

    def overlap(a: Run, b: Run) -> bool:
        return a[2] < b[3] and b[2] < a[3]

    alone = [r for r in runs if r[0].startswith("serial")]
    assert len(alone) == 2
    assert not [(a[0], b[0]) for a in alone for b in runs if a is not b and overlap(a, b)]
    shared = [r for r in runs if r[0].startswith(("shared", "single"))]
    assert any(overlap(a, b) for a in shared for b in shared if a is not b), "the others run in parallel"


def test_a_group_runs_on_one_worker_and_the_others_spread(runs: list[Run]) -> None:
    """`xdist_group` through `tests/worker_groups.py` (xdist's own loadgroup does not group under pytest 9)."""
    grouped = [worker for name, worker, _, _ in runs if name.startswith("grouped")]
    assert len(grouped) == 6 and len(set(grouped)) == 1, runs
    assert {worker for name, worker, _, _ in runs if name.startswith("single")} == {"gw0", "gw1"}, runs
