"""The SDK range mcpdeps checks before it imports a server, and how it reads versions."""

from __future__ import annotations

import importlib.metadata

import pytest
from conftest import REPO
from mcpdeps.cli.runner.sdk import SDK_REQUIREMENT, in_range, own_facts

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]


def test_the_checked_range_is_the_one_pyproject_installs() -> None:
    dependencies = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "dependencies"
    ]
    assert SDK_REQUIREMENT in dependencies


@pytest.mark.parametrize(
    ("version", "accepted"),
    [
        ("2.3.0", True),
        ("2.3", True),
        ("2.3.1", True),
        ("2.10.0", True),
        ("2.4.0rc1", True),
        ("2.3.0rc1", False),
        ("2.3.0.dev2", False),
        ("2.2.9", False),
        ("1.30.0", False),
        ("3.0.0", False),
        ("3.0.0.dev1", False),
        ("not a version", False),
    ],
)
def test_in_range_follows_the_specifier(version: str, accepted: bool) -> None:
    assert in_range(version) is accepted


def test_own_environment_is_read_from_metadata() -> None:
    facts = own_facts()
    assert facts.mcp == importlib.metadata.version("mcp")
    assert in_range(facts.mcp)
