"""The options several commands take, declared once (`cli/option_spec.py` says what a declaration is).

A command that words one its own way (`lsp`'s `-v` logs rather than shows tracebacks) takes
`dataclasses.replace(VERBOSE, help=...)`: its spellings, type and default stay these.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from .option_spec import Option

MISCELLANEOUS = "Miscellaneous"
"""The help section that closes a grouped `--help` (`-v`, `-h`), as ruff's does."""

VERBOSE: Option[bool] = Option(("-v", "--verbose"), False, "Show tracebacks for internal errors.")
VERBOSE_SERVING = replace(VERBOSE, help="Show tracebacks for errors.")
"""`-v` of the commands that run a server (`serve`, `call`, `mcp`), whose errors are not all mcpdeps'."""

INTERPRETER_DEFAULT = (
    "(default: mcpdeps' own when it can import the server's packages, else the project's: "
    "VIRTUAL_ENV, .venv, venv)"
)
"""How `--python` is chosen when it is not given (`cli/runner/interpreter.py`), said in every help."""

PYTHON: Option[Path | None] = Option(
    ("--python",), None, f"The interpreter that runs the server {INTERPRETER_DEFAULT}.", metavar="PATH"
)

NO_LINT: Option[bool] = Option(("--no-lint",), False, "Do not lint the server before importing it.")

EXCLUDE: Option[list[str] | None] = Option(("--exclude",), None, "Glob patterns to skip.", metavar="GLOBS")

DIFF: Option[bool] = Option(("--diff",), False, "Show the changes as a unified diff; write nothing.")

# Serving over HTTP: `serve` and `mcp`.
TRANSPORT: Option[str] = Option(("--transport", "-t"), "stdio", "stdio or http (streamable-http).")
HOST: Option[str] = Option(("--host",), "127.0.0.1", "Address to bind (HTTP).")
PORT: Option[int] = Option(("--port", "-p"), 8000, "Port to bind (HTTP).", minimum=0, maximum=65535)
HTTP_PATH: Option[str] = Option(("--path",), "/mcp", "URL path of the MCP endpoint (HTTP).")
LOG_LEVEL: Option[str] = Option(("--log-level",), "info", "debug, info, warning, error, critical.")
