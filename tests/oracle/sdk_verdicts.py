"""Ask the real `mcp` SDK what it thinks of every corpus case, in one process.

Usage: `python tests/oracle/sdk_verdicts.py CASE_DIR [CASE_DIR ...]` prints one
JSON document on standard output (format below). It is the ground truth the
static analyzer is tested against, so it must see exactly what the SDK sees:

- each case folder goes first on `sys.path` and its `server.py` is imported as
  the top-level module `server` (what `mcp run server.py` does, except that the
  SDK names it `server_module`; we keep `server` so resolver ids match the
  static graph's `server:...`);
- `MCPServer.add_tool` and `MCPServer.tool` are patched so that a failing
  registration is *recorded* instead of aborting the import: the SDK stops at
  the first error of a module, we want the first error of every tool. Each
  verdict comes from the SDK's own `Tool.from_function`, the code the SDK's
  `ToolManager.add_tool` runs, so messages and schemas are the SDK's;
- the case's own modules are dropped from `sys.modules` afterwards, so cases
  that reuse module names (`server`, `deps`, `app`) never see each other;
- then the case starts: each `# start: <statement>` line of `server.py`'s leading
  comments runs in its namespace, in order, as an entry point would at start-up
  (`# start: admin = build_admin()` calls a factory and keeps its server under the
  factory's variable name; `# start: register(MCPServer("t"))` calls a helper with a
  fresh server). The SDK raises registration errors then: a linter reports them.

One process for the whole corpus because importing `mcp` costs ~0.7 s.

Output:

    {"version": 1, "mcp": "2.3.0",
     "cases": {"<dir as given>": {
        "import_error": null | "NameError: ...",
        "tools": [{"server": "mcp", "server_name": "Shop", "tool": "t",
                   "verdict": "ok" | "InvalidSignature: ...",
                   "code": null | "MCPD00X", "arguments": ["title", ...],
                   "context": null | "ctx", "resolved": {"stock": "server:check_stock"},
                   "duplicate": false}]}}}

`arguments` is `list(tool.parameters["properties"])`, in order; `context` the tool's
Context parameter; `resolved` maps each resolved parameter to its resolver's wire key
as the SDK computes it at registration (`module:qualname`, `#N` appended for distinct
resolvers of one tool sharing it). All three are empty on error.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import re
import sys
import traceback
from collections.abc import Callable, Iterator
from importlib.metadata import version
from pathlib import Path
from types import ModuleType
from typing import Any

# Shapes of the SDK's registration messages (mcp 2.3.0), mapped to the contract's
# codes. The SDK ids (R1..R5, T1..T10) are those of docs/sdk-semantics.md.
#
# T1 (a lambda registered without `name=`) has no row in the contract table
# (MCPD000-MCPD009). The linter gives it a code of its own in the same 0xx band,
# MCPD010 lambda-tool-without-name (lint_rules/rules/lambda_without_name.py): it is a
# registration error, and none of the fixed codes describes it (MCPD008 is about
# the decorator). The oracle follows that code.
MESSAGE_CODES: list[tuple[str, str, str]] = [
    ("TypeError", r"^The @tool decorator was used incorrectly", "MCPD008"),  # T9
    ("ValueError", r"^You must provide a name for lambda functions", "MCPD010"),  # T1
    ("InvalidSignature", r"combines Resolve\(\.\.\.\) parameters with an InputRequiredResult", "MCPD005"),
    ("InvalidSignature", r"^Parameter \S+ of \S+ cannot start with '_'", "MCPD006"),  # T2
    ("InvalidSignature", r"^Unable to evaluate type annotations for callable", "MCPD009"),  # T3
    # T3 by another path: a quoted name *inside* `Annotated[...]` that is not bound yet. The
    # SDK then sees no hints, keeps the parameter as an argument, and pydantic cannot build
    # the arguments model. Same cause, same fix: MCPD009.
    ("PydanticUserError", r"is not fully defined; you should define", "MCPD009"),
    ("InvalidSignature", r"wraps `Resolve\(\.\.\.\)` in a union", "MCPD003"),
    ("InvalidSignature", r"has a cyclic dependency$", "MCPD001"),
    ("InvalidSignature", r"cannot be resolved: expected a Context", "MCPD002"),
    ("InvalidSignature", r"has multiple Elicit/Sample/ListRoots arms", "MCPD004"),
    ("TypeError", r"is not a callable object$", "MCPD007"),  # T10
    ("ValueError", r"^no signature found", "MCPD007"),  # T10, builtin without a signature
    ("ValueError", r"is not supported by signature$", "MCPD007"),  # T10, e.g. operator.itemgetter(...)
]


def code_for(exc: BaseException) -> str | None:
    """The contract code for an SDK registration error, or None when it is no known shape."""
    message = str(exc)
    for type_name, pattern, code in MESSAGE_CODES:
        if type(exc).__name__ == type_name and re.search(pattern, message):
            return code
    return None


class Recorder:
    """Collects one verdict per attempted tool registration while a case is imported."""

    def __init__(self) -> None:
        self.entries: list[tuple[object, dict[str, Any]]] = []

    def record(self, server: object, name: str | None, error: BaseException | None, tool: Any = None) -> None:
        """Remember a verdict (`tool` is the SDK's `Tool` when it registered, else None).

        The server's variable name is filled in after the import.
        """
        from mcp.server.mcpserver.resolve import _resolver_key

        self.entries.append(
            (
                server,
                {
                    "server": None,
                    "server_name": getattr(server, "name", None),
                    "tool": name,
                    "verdict": "ok" if error is None else f"{type(error).__name__}: {error}",
                    "code": None if error is None else code_for(error),
                    "arguments": list(tool.parameters.get("properties", {})) if tool else [],
                    # The Context parameter and, per resolved parameter, the resolver's wire
                    # key: `module:qualname`, with `#1`, `#2`... for distinct resolvers of a
                    # tool that share one (closures of one factory, lambdas, partials).
                    "context": tool.context_kwarg if tool else None,
                    "resolved": {
                        p: tool.resolver_plans[_resolver_key(m.fn)].wire_key
                        for p, (m, _) in tool.resolved_params.items()
                    }
                    if tool
                    else {},
                    "duplicate": False,
                },
            )
        )


@contextlib.contextmanager
def patched_registration(recorder: Recorder) -> Iterator[None]:
    """Patch `MCPServer.add_tool`/`.tool` so every registration is judged and recorded, none raises."""
    from mcp.server import MCPServer
    from mcp.server.mcpserver.tools.base import Tool

    original_add_tool = MCPServer.add_tool
    original_tool = MCPServer.tool

    def add_tool(
        self: MCPServer[Any], fn: Callable[..., Any], name: str | None = None, **kwargs: Any
    ) -> None:
        tool_name = name or getattr(fn, "__name__", None)
        try:
            tool = Tool.from_function(fn, name=name, **kwargs)
        except Exception as exc:
            recorder.record(self, tool_name, exc)
            return
        recorder.record(self, tool.name, None, tool)
        if self._tool_manager.get_tool(tool.name) is not None:
            recorder.entries[-1][1]["duplicate"] = True
        original_add_tool(self, fn, name=name, **kwargs)

    def tool(self: MCPServer[Any], name: Any = None, *args: Any, **kwargs: Any) -> Callable[[Any], Any]:
        if callable(name):
            # T9: the SDK raises before registering anything; record its own error and
            # hand the function back so the rest of the module still imports.
            try:
                original_tool(self, name, *args, **kwargs)
            except Exception as exc:
                recorder.record(self, getattr(name, "__name__", None), exc)
            return name
        return original_tool(self, name, *args, **kwargs)

    MCPServer.add_tool = add_tool  # type: ignore[method-assign]
    MCPServer.tool = tool  # type: ignore[method-assign]
    try:
        yield
    finally:
        MCPServer.add_tool = original_add_tool  # type: ignore[method-assign]
        MCPServer.tool = original_tool  # type: ignore[method-assign]


def _inside(module: ModuleType, folder: Path) -> bool:
    """True when a module was loaded from `folder` (file or package/namespace path)."""
    locations = [getattr(module, "__file__", None), *list(getattr(module, "__path__", None) or [])]
    return any(loc and Path(loc).resolve().is_relative_to(folder) for loc in locations)


def _server_variables(modules: list[ModuleType]) -> dict[int, str]:
    """Map each MCPServer instance to the module-level variable holding it (entry module first)."""
    from mcp.server import MCPServer

    names: dict[int, str] = {}
    for module in modules:
        prefix = "" if module.__name__ == "server" else f"{module.__name__}."
        for var, value in vars(module).items():
            if isinstance(value, MCPServer):
                names.setdefault(id(value), prefix + var)
    return names


START = re.compile(r"^# start: (.+)$")


def start_statements(server: Path) -> list[str]:
    """The `# start: ...` statements of the comment lines heading `server.py`."""
    statements = []
    for line in server.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        match = START.match(line)
        if match is not None:
            statements.append(match.group(1))
    return statements


def judge_case(folder: Path) -> dict[str, Any]:
    """Import one case under the patched SDK and return its verdicts."""
    folder = folder.resolve()
    recorder = Recorder()
    import_error: str | None = None
    before = dict(sys.modules)
    sys.path.insert(0, str(folder))
    importlib.invalidate_caches()
    try:
        with patched_registration(recorder), contextlib.redirect_stdout(sys.stderr):
            namespace = vars(importlib.import_module("server"))
            for statement in start_statements(folder / "server.py"):
                exec(statement, namespace)
    except Exception as exc:
        import_error = f"{type(exc).__name__}: {exc}"
        traceback.print_exc(file=sys.stderr)
    finally:
        sys.path.remove(str(folder))
        # Only a module imported (or replaced) during the case can be the case's: the others were
        # there before its folder was on `sys.path` (resolving every module's path, ~650 of
        # them, for each of ~300 cases was most of this script's time).
        case_modules = {
            name: m for name, m in sys.modules.items() if before.get(name) is not m and _inside(m, folder)
        }
        for name in case_modules:
            del sys.modules[name]
    entry = case_modules.pop("server", None)
    ordered = ([entry] if entry is not None else []) + list(case_modules.values())
    variables = _server_variables(ordered)
    tools = []
    for server, verdict in recorder.entries:
        verdict["server"] = variables.get(id(server))
        tools.append(verdict)
    return {"import_error": import_error, "tools": tools}


def main(argv: list[str]) -> int:
    """Judge every case folder given and print the JSON document."""
    sys.dont_write_bytecode = True  # never leave __pycache__ in the corpus
    logging.disable(logging.WARNING)  # the SDK logs tool-name warnings; stdout must stay pure JSON
    import mcp.server  # noqa: F401  (pay the import once, before the first case)

    cases = {arg: judge_case(Path(arg)) for arg in argv}
    json.dump({"version": 1, "mcp": version("mcp"), "cases": cases}, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
