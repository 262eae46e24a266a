"""Connect the SDK's own `Client` to the server, find the tool, call it.

Using the real `Client` (not a hand-written loop) is what makes `call` a faithful
rehearsal: protocol negotiation, the 2026-07-28 input-required rounds and the
legacy mid-call requests all run exactly as they would for a real MCP host; `call`
only supplies the callbacks a host would, answered by a person or a file.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from ...resolver_core.records import record
from ..errors import UserError
from .questions import QuestionAnswerer

if TYPE_CHECKING:
    from mcp.client import Client, Transport
    from mcp.server import MCPServer
    from mcp_types import CallToolResult, Tool

Protocol = Literal["auto", "2026-07-28", "legacy"]
ArgumentBuilder = Callable[[Mapping[str, Any]], dict[str, Any]]


@record
class CallOutcome:
    """The result (or the protocol error that replaced it) and the negotiated version."""

    result: CallToolResult | None
    protocol_error: str | None
    protocol_version: str
    arguments: dict[str, Any]


@record
class StdioTarget:
    """A `mcpdeps serve SPEC` subprocess on stdio; its stderr is kept to explain a failed start."""

    spec: str
    no_lint: bool = False
    serve_args: tuple[str, ...] = ()
    """More `serve` options (`--python PATH`: serve runs the server under that interpreter)."""

    def command(self) -> list[str]:
        args = ["-m", "mcpdeps", "serve", self.spec, "--transport", "stdio", "--no-banner", *self.serve_args]
        return [sys.executable, *args, *(["--no-lint"] if self.no_lint else [])]


CallTarget: TypeAlias = "MCPServer | StdioTarget"
"""What `call_tool` calls: a server loaded in this process, or one `mcpdeps serve` runs."""


async def _find_tool(client: Client, name: str) -> Tool:
    cursor: str | None = None
    names: list[str] = []
    while True:
        page = await client.list_tools(cursor=cursor)
        for tool in page.tools:
            if tool.name == name:
                return tool
            names.append(tool.name)
        cursor = page.next_cursor
        if not cursor:
            break
    from ...resolver_core.suggest import did_you_mean

    listed = ", ".join(sorted(names)) or "none"
    raise UserError(f"The server has no tool named {name!r}{did_you_mean(name, names)}. Its tools: {listed}.")


async def call_tool(
    target: CallTarget,
    tool_name: str,
    build_arguments: ArgumentBuilder,
    answerer: QuestionAnswerer,
    protocol: Protocol,
) -> CallOutcome:
    """Connect, look the tool up, build its arguments from its schema, call it with `answerer` answering.

    A `UserError` raised inside the client's task groups comes out wrapped in an
    exception group; it is unwrapped here so the user still reads one sentence.
    """
    try:
        if isinstance(target, StdioTarget):
            return await _call_over_stdio(target, tool_name, build_arguments, answerer, protocol)
        return await _call_in_process(target, tool_name, build_arguments, answerer, protocol)
    except Exception as exc:
        user_error = next((leaf for leaf in _leaves(exc) if isinstance(leaf, UserError)), None)
        if user_error is None or user_error is exc:
            raise
        raise user_error from exc


def _client(server: MCPServer | Transport, answerer: QuestionAnswerer, protocol: Protocol) -> Client:
    """The SDK's `Client` with `answerer` as its elicitation, sampling and roots callbacks."""
    from mcp.client import Client

    return Client(
        server,
        mode=protocol,
        elicitation_callback=answerer.elicit,
        sampling_callback=answerer.sample,
        list_roots_callback=answerer.list_roots,
    )


async def _call_in_process(
    server: MCPServer,
    tool_name: str,
    build_arguments: ArgumentBuilder,
    answerer: QuestionAnswerer,
    protocol: Protocol,
) -> CallOutcome:
    """In memory: `Client(server)` runs the SDK's own in-process transport for the chosen protocol."""
    return await _run(_client(server, answerer, protocol), tool_name, build_arguments, answerer)


def _leaves(exc: BaseException) -> list[BaseException]:
    """The exceptions inside (nested) exception groups; task groups wrap the SDK's errors in them."""
    inner = getattr(exc, "exceptions", None)
    if not inner:
        return [exc]
    return [leaf for sub in inner for leaf in _leaves(sub)]


def _protocol_error(exc: Exception) -> str | None:
    """A sentence for the errors that replace a result; None for anything unexpected."""
    from mcp.client import InputRequiredRoundsExceededError
    from mcp.shared.exceptions import MCPError

    for leaf in _leaves(exc):
        if isinstance(leaf, MCPError):
            return f"{leaf.error.message} (code {leaf.error.code})"
        if isinstance(leaf, InputRequiredRoundsExceededError):
            return (
                f"The server was still asking after {leaf.max_rounds} rounds of answers. A question whose "
                "text changes between rounds (built from a clock, a counter, randomness) is never "
                "considered answered on protocol 2026-07-28 (see MCPD104)."
            )
    return None


async def _run(
    client: Client, tool_name: str, build_arguments: ArgumentBuilder, answerer: QuestionAnswerer
) -> CallOutcome:
    async with client:
        tool = await _find_tool(client, tool_name)
        arguments = build_arguments(tool.input_schema)
        try:
            result = await client.call_tool(tool_name, arguments)
        except Exception as exc:
            if answerer.failure is not None:
                raise answerer.failure from exc
            error = _protocol_error(exc)
            if error is None:
                raise
            return CallOutcome(None, error, client.protocol_version, arguments)
        if answerer.failure is not None:
            raise answerer.failure
        return CallOutcome(result, None, client.protocol_version, arguments)


async def _call_over_stdio(
    target: StdioTarget,
    tool_name: str,
    build_arguments: ArgumentBuilder,
    answerer: QuestionAnswerer,
    protocol: Protocol,
) -> CallOutcome:
    """Launch `mcpdeps serve` and talk to it over its stdin/stdout; explain a server that does not start."""
    from mcp.client.stdio import StdioServerParameters, stdio_client

    command, *args = target.command()
    from ..serve.parent_watch import EXIT_WITH_PARENT_ENV

    # The SDK starts the server in its own session: Ctrl-C never reaches it; it watches us instead.
    env = {**os.environ, EXIT_WITH_PARENT_ENV: str(os.getpid())}
    params = StdioServerParameters(command=command, args=args, env=env, cwd=Path.cwd())
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errlog:
        client = _client(stdio_client(params, errlog=errlog), answerer, protocol)
        try:
            return await _run(client, tool_name, build_arguments, answerer)
        except Exception as exc:
            if any(isinstance(leaf, UserError) for leaf in _leaves(exc)):
                raise
            errlog.seek(0)
            raise _startup_failure(target, errlog.read(), exc) from exc


def _startup_failure(target: StdioTarget, stderr: str, exc: BaseException) -> UserError:
    """Why the stdio server went away: its own stderr, and exit 1 when lint refused it."""
    said = stderr.strip()
    refused_by_lint = "MCPD0" in said or "not starting" in said
    detail = f" It said:\n{said}" if said else f" ({type(exc).__name__}: {exc})"
    return UserError(
        f"`mcpdeps serve {target.spec}` stopped before answering the call.{detail}",
        exit_code=1 if refused_by_lint else 2,
    )
