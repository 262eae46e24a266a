"""Refusals a server's own tests assert (`with pytest.raises(InvalidSignature):`) are not reported.

The oracle is the user's test run under the SDK: when it passes, the block caught the SDK's
refusal, and `lint .` reports nothing there; when the expected exception does not catch what
the SDK raises (`pytest.raises(ValueError)` around an `InvalidSignature`), the test fails
and the report stays. The clean twin (the resolver fixed) is accepted by the SDK (the test
fails with "DID NOT RAISE") and reported by neither.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import lint_diagnostics, write_files
from published_shapes import PROJECT

HEADER = """\
import unittest
from typing import Annotated

import pytest

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
from mcp.server.mcpserver.exceptions import InvalidSignature
from mcp.server.mcpserver import exceptions

"""

REFUSED = """\
def load_d(nope: str) -> str:
    return nope

@mcp.tool()
def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
    return d
"""
"""A resolver the SDK refuses (MCPD002), and the tool registering it."""

LAMBDA = 'mcp.add_tool(lambda x: "x")\n'
"""A lambda registered without a name: the SDK raises `ValueError` (MCPD010)."""

BARE = "@mcp.tool\ndef add(x: int) -> int:\n    return x\n"
"""`@mcp.tool` without its call, the block's first line a decorator: the SDK raises
`TypeError` (MCPD008)."""

CODES = {REFUSED: "MCPD002", LAMBDA: "MCPD010", BARE: "MCPD008"}


def _pytest_function(opening: str, body: str) -> str:
    inner = "".join(f"        {line}\n" if line else "\n" for line in body.splitlines())
    return HEADER + f'def test_refused():\n    mcp = MCPServer("x")\n    {opening}:\n{inner}'


def _unittest_method(opening: str, body: str) -> str:
    inner = "".join(f"            {line}\n" if line else "\n" for line in body.splitlines())
    return (
        HEADER + "class TestRefused(unittest.TestCase):\n    def test_refused(self):\n"
        f'        mcp = MCPServer("x")\n        {opening}:\n{inner}'
    )


CASES = {
    "pytest.raises(InvalidSignature)": (
        _pytest_function,
        "with pytest.raises(InvalidSignature)",
        REFUSED,
        True,
    ),
    "pytest.raises(Exception, match=...)": (
        _pytest_function,
        'with pytest.raises(Exception, match="cannot be resolved")',
        REFUSED,
        True,
    ),
    "a tuple naming exceptions.InvalidSignature": (
        _pytest_function,
        "with pytest.raises((RuntimeError, exceptions.InvalidSignature))",
        REFUSED,
        True,
    ),
    "self.assertRaises(InvalidSignature)": (
        _unittest_method,
        "with self.assertRaises(InvalidSignature)",
        REFUSED,
        True,
    ),
    "pytest.raises(ValueError) does not catch InvalidSignature": (
        _pytest_function,
        "with pytest.raises(ValueError)",
        REFUSED,
        False,
    ),
    "pytest.raises(ValueError) around an unnamed lambda": (
        _pytest_function,
        "with pytest.raises(ValueError)",
        LAMBDA,
        True,
    ),
    "pytest.raises(TypeError) does not catch the lambda's ValueError": (
        _pytest_function,
        "with pytest.raises(TypeError)",
        LAMBDA,
        False,
    ),
    "pytest.raises(TypeError) around a bare decorator": (
        _pytest_function,
        'with pytest.raises(TypeError, match="used incorrectly")',
        BARE,
        True,
    ),
    "pytest.raises(ValueError) does not catch a bare decorator's TypeError": (
        _pytest_function,
        "with pytest.raises(ValueError)",
        BARE,
        False,
    ),
}


def _run_tests(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "tests/test_server.py",
        ],
        cwd=root,
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize("case", CASES)
def test_a_refusal_the_test_expects(tmp_path: Path, case: str) -> None:
    write, opening, body, caught = CASES[case]
    write_files(tmp_path, {**PROJECT, "tests/test_server.py": write(opening, body)})
    ran = _run_tests(tmp_path)
    assert (ran.returncode == 0) is caught, ran.stdout
    codes = [d["code"] for d in lint_diagnostics(tmp_path, "--no-cache", ".")]
    alone = [d["code"] for d in lint_diagnostics(tmp_path, "--no-cache", "tests/test_server.py")]
    expected = [] if caught else [CODES[body]]
    assert codes == alone == expected

    if body == REFUSED:  # the clean twin: the SDK accepts it, the test fails as it did not raise
        path = tmp_path / "tests/test_server.py"
        text = (
            path.read_text()
            .replace("load_d(nope: str)", "load_d(x: int)")
            .replace("return nope", "return str(x)")
        )
        path.write_text(text)
        ran = _run_tests(tmp_path)
        assert ran.returncode != 0, ran.stdout
        assert "DID NOT RAISE" in ran.stdout or "not raised" in ran.stdout, ran.stdout
        assert lint_diagnostics(tmp_path, "--no-cache", ".") == []


def test_a_refusal_outside_such_a_block_is_reported(tmp_path: Path) -> None:
    """The same registration in a test that expects nothing: the test errors, lint reports it."""
    write_files(tmp_path, {**PROJECT, "tests/test_server.py": _pytest_function("if True", REFUSED)})
    assert _run_tests(tmp_path).returncode != 0
    assert [d["code"] for d in lint_diagnostics(tmp_path, "--no-cache", ".")] == ["MCPD002"]
