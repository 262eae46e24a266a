"""Call every tool of every *valid* corpus case through the SDK's real in-process Client.

Run as a script: ``python tests/oracle/sdk_calls.py CASE_DIR...`` prints one JSON document
``{"version": 1, "cases": {CASE_DIR: {"import_error": ..., "calls": [...]}}}``.

Why: a valid case must not only register, it must also be free of the run-time traps
(MCPD1xx: positional-only parameters, aliased arguments, unawaited coroutines, unstable
questions, elicitation models the schema cannot express...), because the whole valid corpus
must lint silent. Registration cannot show those traps; a call can. Each tool is called
with arguments synthesised from the input schema the SDK publishes, by a client that
answers every question (elicitation, sampling, roots), over the newest protocol, so a
question whose rendering changes between rounds never converges and shows up as an error.

One process for the whole corpus (the `mcp` import is paid once); each case is imported
as the module `server` with its folder first on `sys.path`, as `sdk_verdicts.py` does,
then started (its `# start:` statements run, so a factory's server is kept under a module
name), and its modules are dropped from `sys.modules` afterwards.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

SAMPLE_TEXT = "Dune"


def sample_value(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """A plausible value for a JSON schema: enough for a tool call to pass validation."""
    if "$ref" in schema:
        return sample_value(defs[schema["$ref"].rsplit("/", 1)[1]], defs)
    if "default" in schema:
        return schema["default"]
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            options = [s for s in schema[key] if s.get("type") != "null"] or schema[key]
            return sample_value(options[0], defs)
    kind = schema.get("type", "string")
    if kind == "object":
        return {
            name: sample_value(prop, defs)
            for name, prop in schema.get("properties", {}).items()
            if name in schema.get("required", [])
        }
    if kind == "array":
        return [sample_value(schema.get("items", {}), defs)]
    if kind == "integer":
        return max(1, schema.get("minimum", 1))
    if kind == "number":
        return float(max(1, schema.get("minimum", 1)))
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    if schema.get("format") == "date":
        return "2026-01-01"
    if schema.get("format") == "date-time":
        return "2026-01-01T00:00:00Z"
    if schema.get("format") == "uri":
        return "https://example.invalid/"
    return SAMPLE_TEXT


def sample_arguments(input_schema: dict[str, Any]) -> dict[str, Any]:
    """Values for a tool's required arguments (optional ones keep their defaults)."""
    defs = input_schema.get("$defs", {})
    return sample_value({**input_schema, "type": "object"}, defs)


class AnsweringClient:
    """Client callbacks that answer every question, and count how often each was asked."""

    def __init__(self) -> None:
        self.asked = 0

    async def elicit(self, context: Any, params: Any) -> Any:
        from mcp.types import ElicitResult

        self.asked += 1
        schema = params.requested_schema
        return ElicitResult(action="accept", content=sample_arguments(schema))

    async def sample(self, context: Any, params: Any) -> Any:
        from mcp.types import CreateMessageResult, TextContent

        self.asked += 1
        return CreateMessageResult(
            role="assistant", content=TextContent(type="text", text=SAMPLE_TEXT), model="x"
        )

    async def list_roots(self, context: Any) -> Any:
        from mcp.types import ListRootsResult, Root

        self.asked += 1
        return ListRootsResult(roots=[Root(uri="file:///srv/workspace", name="workspace")])


async def call_every_tool(server: Any) -> list[dict[str, Any]]:
    """Connect the SDK's Client in-process and call each listed tool once."""
    from mcp import Client

    answers = AnsweringClient()
    calls = []
    async with Client(
        server,
        elicitation_callback=answers.elicit,
        sampling_callback=answers.sample,
        list_roots_callback=answers.list_roots,
    ) as client:
        for tool in (await client.list_tools()).tools:
            arguments = sample_arguments(tool.input_schema)
            before = answers.asked
            try:
                result = await client.call_tool(tool.name, arguments)
                error = bool(result.is_error)
                text = " ".join(getattr(block, "text", type(block).__name__) for block in result.content)
            except Exception as exc:  # a protocol error: the call never produced a result
                error, text = True, f"{type(exc).__name__}: {exc}"
            calls.append(
                {
                    "server": getattr(server, "name", None),
                    "tool": tool.name,
                    "arguments": arguments,
                    "error": error,
                    "text": text[:500],
                    "questions": answers.asked - before,
                }
            )
    return calls


def _case_modules(folder: Path, names: set[str]) -> dict[str, ModuleType]:
    """The modules among `names` that were loaded from `folder` (libraries stay loaded)."""
    found = {}
    for name in names:
        module = sys.modules.get(name)
        # A namespace package has no __file__, only a __path__ into the folder.
        locations = [getattr(module, "__file__", None), *(getattr(module, "__path__", None) or [])]
        if module is not None and any(
            loc and Path(loc).resolve().is_relative_to(folder) for loc in locations
        ):
            found[name] = module
    return found


def run_case(folder: Path) -> dict[str, Any]:
    """Import a valid case and call every tool of every server it defines."""
    import anyio
    from mcp.server import MCPServer
    from sdk_verdicts import start_statements  # this script's neighbour (run as a script)

    folder = folder.resolve()
    before = set(sys.modules)
    sys.path.insert(0, str(folder))
    importlib.invalidate_caches()
    try:
        namespace = vars(importlib.import_module("server"))
        for statement in start_statements(folder / "server.py"):
            exec(statement, namespace)
        servers = {
            id(value): value
            for module in _case_modules(folder, set(sys.modules) - before).values()
            for value in vars(module).values()
            if isinstance(value, MCPServer)
        }
        calls = [call for server in servers.values() for call in anyio.run(call_every_tool, server)]
        return {"import_error": None, "calls": calls}
    except Exception as exc:
        return {"import_error": f"{type(exc).__name__}: {exc}", "calls": []}
    finally:
        sys.path.remove(str(folder))
        for name in _case_modules(folder, set(sys.modules) - before):
            del sys.modules[name]
        sys.modules.pop("server", None)


def main(argv: list[str]) -> int:
    """Run every case folder given; print the JSON document on stdout, logs on stderr."""
    sys.dont_write_bytecode = True
    logging.disable(logging.CRITICAL)
    with contextlib.redirect_stdout(sys.stderr):
        cases = {arg: run_case(Path(arg)) for arg in argv}
    json.dump({"version": 1, "cases": cases}, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
