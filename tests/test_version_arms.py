"""`if sys.version_info ...` arms, read as every Python the SDK runs on reads them.

mcpdeps has no setting naming the project's target Python, and the Python running it is
not the project's: a test is decided only when every Python the SDK supports (3.10 and
later) decides it alike (`version_tests.py`); the others are read as any `if` (both arms).
A resolver imported per arm (`from app.new import load_d` / `from app.old import load_d`)
was read from the last arm: the SDK runs the first everywhere, and refuses it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import lint_diagnostics, write_files
from mcpdeps.resolver_core.version_tests import version_test
from published_shapes import CLEAN, PROJECT, check_both_ways, sdk

TOOL = (
    "from typing import Annotated\n\nfrom mcp.server import MCPServer\nfrom mcp.server.mcpserver import Resolve\n"
    "{imports}\n\nmcp = MCPServer('x')\n\n\n@mcp.tool()\n"
    "def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n"
)

ARMS = {
    ">= (3, 10): the first arm": (
        "import sys\n\nif sys.version_info >= (3, 10):\n    from app.new import load_d\n"
        "else:\n    from app.old import load_d\n",
        "app/new.py",
    ),
    "< (3, 10) turned round, under not: the else arm": (
        "import sys\n\nif not (3, 10) > sys.version_info[:2]:\n    from app.new import load_d\n"
        "else:\n    from app.old import load_d\n",
        "app/new.py",
    ),
    "< (3, 9): the else arm, the last written": (
        "import sys\n\nif sys.version_info < (3, 9):\n    from app.old import load_d\n"
        "else:\n    from app.new import load_d\n",
        "app/new.py",
    ),
}
"""The tool module's imports, and the module whose `load_d` every supported Python imports
(the SDK refuses it; `app/old.py`'s is clean)."""


@pytest.mark.parametrize("case", sorted(ARMS))
def test_the_arm_every_supported_python_takes_is_read(tmp_path: Path, case: str) -> None:
    imports, bad = ARMS[case]
    files = {
        "app/main.py": TOOL.format(imports=imports),
        "app/new.py": CLEAN[0] + "\n",
        "app/old.py": CLEAN[1] + "\n",
    }
    check_both_ways(tmp_path, files, "import app.main", bad)


@pytest.mark.parametrize(
    ("test", "decided"),
    [
        ("sys.version_info >= (3, 10)", True),
        ("sys.version_info >= (3,)", True),
        ("sys.version_info > (3, 9)", True),
        ("sys.version_info[:2] >= (3, 8)", True),
        ("(3, 10) <= sys.version_info", True),
        ("sys.version_info < (3, 10)", False),
        ("sys.version_info <= (3, 9, 9)", False),
        ("not sys.version_info < (3, 10)", True),
        # Decided the other way by some supported Python, or no version test: both arms.
        ("sys.version_info >= (3, 11)", None),
        ("sys.version_info > (3, 10)", None),
        ("sys.version_info < (3, 13)", None),
        ("sys.version_info >= (3, 10, 2)", None),
        ("sys.version_info[0] >= 3", None),
        ("sys.platform >= 'a'", None),
        ("sys.version_info >= (3, 10) and FLAG", None),
    ],
)
def test_which_tests_are_decided(test: str, decided: bool | None) -> None:
    assert version_test(ast.parse(test, mode="eval").body) is decided


NEVER_RUN = {
    "a registration": (
        "import sys\n\nfrom app.new import load_d\n",
        "if sys.version_info < (3, 10):\n    mcp.add_tool(t2)\n",
    ),
    "a helper's call": (
        "import sys\n\nfrom app.new import load_d\n\n\ndef add(server, fn):\n    server.add_tool(fn)\n",
        "if sys.version_info >= (3, 10):\n    pass\nelse:\n    add(mcp, t2)\n",
    ),
}
"""A tool the SDK refuses (`t2` runs the refused `load_d`), registered in the arm no supported
Python takes: the imports, and the code after `t2` is defined."""


@pytest.mark.parametrize("case", sorted(NEVER_RUN))
def test_what_no_supported_python_runs_is_not_analysed(tmp_path: Path, case: str) -> None:
    imports, code = NEVER_RUN[case]
    main = (
        "from typing import Annotated\n\nfrom mcp.server import MCPServer\nfrom mcp.server.mcpserver import Resolve\n"
        f"{imports}\n\nmcp = MCPServer('x')\n\n\n"
        "def t2(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n\n\n" + code
    )
    write_files(tmp_path, {**PROJECT, "app/main.py": main, "app/new.py": CLEAN[0] + "\n"})
    started = sdk(tmp_path, "import app.main")
    assert started.returncode == 0, started.stderr
    for given in (".", "app/main.py", "app/new.py"):
        assert lint_diagnostics(tmp_path, "--no-cache", given) == [], given
