"""Paths and a runner shared by the `tests/test_call*.py` modules."""

from __future__ import annotations

import io
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
from conftest import EXAMPLES, REPO, run_mcpdeps
from mcpdeps.cli.call.args import build_arguments
from mcpdeps.cli.call.questions import AnswerSources, AskedQuestion, QuestionAnswerer
from mcpdeps.cli.call.render import render_call
from mcpdeps.cli.call.resolvers import live_resolvers
from mcpdeps.cli.call.session import CallOutcome, Protocol, call_tool
from rich.console import Console

if TYPE_CHECKING:
    from mcp.server import MCPServer

QUESTIONS = EXAMPLES / "questions" / "server.py"
BOOKSHOP = EXAMPLES / "bookshop" / "server.py"

PROTOCOLS = ("2026-07-28", "legacy")


def call(*args: str | Path, cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`mcpdeps call ARGS` in a subprocess, without a terminal (stdin is a closed pipe)."""
    return run_mcpdeps("call", *args, cwd=cwd or REPO, input="", timeout=timeout)


def write_answers(folder: Path, answers: dict[str, Any]) -> Path:
    """An answers file in `folder`."""
    path = folder / "answers.json"
    path.write_text(json.dumps(answers), encoding="utf-8")
    return path


@dataclass(frozen=True)
class InProcessCall:
    """What an in-process call left behind: the outcome, the transcript and the rendered text."""

    outcome: CallOutcome
    transcript: list[AskedQuestion]
    text: str


def load_example(path: Path) -> MCPServer:
    """Import an example server once per test process (the loader reuses the imported module)."""
    from mcpdeps.resolver_core.loading import load_server

    return load_server(str(path)).server


def call_in_process(
    server: MCPServer,
    tool: str,
    *pairs: str,
    sources: AnswerSources | None = None,
    protocol: Protocol = "2026-07-28",
) -> InProcessCall:
    """The library path of `mcpdeps call` (real `Client`, real server, rich rendering), without a subprocess.

    For the many variations where the process boundary adds nothing but a second of start-up.
    """
    console = Console(file=io.StringIO(), width=120, record=True)
    answerer = QuestionAnswerer(sources or AnswerSources(), resolvers=live_resolvers(server, tool))

    async def bounded() -> CallOutcome:
        with anyio.fail_after(30):
            return await call_tool(
                server, tool, lambda schema: build_arguments(schema, pairs, None), answerer, protocol
            )

    outcome = anyio.run(bounded)
    if outcome.result is not None:
        render_call(
            console,
            tool=tool,
            arguments=outcome.arguments,
            result=outcome.result,
            transcript=answerer.transcript,
            resolvers=answerer.resolvers,
            protocol=outcome.protocol_version,
        )
    return InProcessCall(outcome, answerer.transcript, console.export_text())
