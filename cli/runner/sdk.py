"""Which MCP SDK the server's interpreter has, checked before anything of the user's is imported.

mcpdeps models `mcp` 2.x from 2.3 on; a server run with 1.x (whose `mcp.server.fastmcp`
has no `Resolve`) or with no SDK at all would only fail later, inside the import, with a
message that blames nobody. So `serve`, `call` and `graph --live` ask first: in their own
process through the installed distributions' metadata (nothing is imported), in another
interpreter through a one-line probe (no user code, no mcpdeps code runs there).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

from ...resolver_core.records import record
from ..errors import UserError
from .interpreter import Interpreter

SDK_REQUIREMENT = "mcp>=2.3,<3"
"""The SDK range mcpdeps supports (the same as in pyproject.toml; a test keeps them equal)."""

MINIMUM_PYTHON = (3, 10)
PROBE_TIMEOUT = 60.0

# Runs in the other interpreter: drops the current folder from sys.path first, as the
# runner does, so a user's own `mcp/` folder does not pass for the SDK.
PROBE = """\
import sys
del sys.path[0]
import json, importlib.util
try:
    import importlib.metadata as md
    version = md.version("mcp")
except Exception:
    version = None
found = importlib.util.find_spec("mcp") is not None
print(json.dumps({"python": "%d.%d.%d" % sys.version_info[:3], "mcp": version if found else None}))
"""


@record
class SdkFacts:
    """What an interpreter has: its Python version and its `mcp` distribution's version."""

    python: str
    mcp: str | None


def in_range(version: str) -> bool:
    """`version` satisfies `>=2.3,<3` (a pre-release of 2.3.0 itself does not, as in PEP 440)."""
    match = re.match(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?(.*)", version.strip())
    if match is None:
        return False
    major, minor, micro = (int(part or 0) for part in match.groups()[:3])
    prerelease = bool(re.match(r"[.\-_]?(a|b|c|rc|alpha|beta|pre|preview|dev)", match.group(4) or ""))
    if (major, minor, micro) == (2, 3, 0) and prerelease:
        return False
    return major == 2 and minor >= 3


def own_facts() -> SdkFacts:
    """The SDK of mcpdeps' own environment, read from distribution metadata (nothing imported)."""
    python = ".".join(map(str, sys.version_info[:3]))
    try:
        version: str | None = importlib.metadata.version("mcp")
    except importlib.metadata.PackageNotFoundError:
        version = None
    found = importlib.util.find_spec("mcp") is not None
    return SdkFacts(python, version if found else None)


def probe(interpreter: Interpreter, command: str) -> SdkFacts:
    """Ask another interpreter for its Python and `mcp` versions; a broken interpreter is exit 2."""
    exe = str(interpreter.executable)
    try:
        done = subprocess.run(
            [exe, "-c", PROBE],
            capture_output=True,
            text=True,
            timeout=PROBE_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as exc:
        raise UserError(
            f"{exe} did not answer within {PROBE_TIMEOUT:.0f}s when asked for its Python version."
        ) from exc
    except OSError as exc:
        raise UserError(
            f"`mcpdeps {command}` cannot run {exe} ({interpreter.reason}): {exc.strerror or exc}. "
            "Point --python at a Python interpreter, e.g. .venv/bin/python."
        ) from exc
    try:
        data = json.loads(done.stdout.strip().splitlines()[-1])
        return SdkFacts(str(data["python"]), data["mcp"])
    except (IndexError, ValueError, KeyError, TypeError):
        said = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        raise UserError(
            f"{exe} ({interpreter.reason}) is not a Python interpreter mcpdeps can use ({said}). "
            "Point --python at a Python 3.10+ interpreter, e.g. .venv/bin/python."
        ) from None


def check_sdk(interpreter: Interpreter, command: str) -> SdkFacts:
    """Refuse (exit 2, nothing started) unless the interpreter has Python 3.10+ and `mcp>=2.3,<3`."""
    facts = own_facts() if interpreter.own else probe(interpreter, command)
    where = (
        f"mcpdeps' own interpreter {interpreter.executable} (Python {facts.python})"
        if interpreter.own
        else f"{interpreter.executable} (Python {facts.python}, {interpreter.reason})"
    )
    python = tuple(int(p) for p in facts.python.split(".")[:2])
    if python < MINIMUM_PYTHON:
        raise UserError(
            f"`mcpdeps {command}` runs the server with {where}, but the MCP SDK mcpdeps supports "
            f"({SDK_REQUIREMENT}) needs Python 3.10 or newer. Point --python at a newer interpreter. "
            "Nothing was started."
        )
    if facts.mcp is not None and in_range(facts.mcp):
        return facts
    found = f"mcp {facts.mcp}" if facts.mcp is not None else "no mcp package"
    install = f'`{interpreter.executable} -m pip install "{SDK_REQUIREMENT}"`'
    remedy = (
        "Reinstall mcpdeps with its dependencies (`pip install --force-reinstall mcpdeps`), or run the "
        "server with an interpreter that has a matching SDK: --python PATH"
        if interpreter.own
        else f"Install a matching SDK there ({install}, or `uv pip install --python "
        f'{interpreter.executable} "{SDK_REQUIREMENT}"`), or point --python at an interpreter that has one'
    )
    raise UserError(
        f"`mcpdeps {command}` runs the server with {where}, which has {found}; mcpdeps needs the MCP "
        f"Python SDK {SDK_REQUIREMENT} there (mcp 1.x servers use `mcp.server.fastmcp`, which mcpdeps "
        f"does not model). {remedy}. Nothing was started."
    )


def interpreter_for(python: Path | None, server: Path, command: str) -> Interpreter:
    """The interpreter that will run the server, its SDK checked (exit 2 before anything starts)."""
    from .interpreter import choose_interpreter

    interpreter = choose_interpreter(python, server, Path.cwd())
    check_sdk(interpreter, command)
    return interpreter
