"""`mcpdeps call SPEC TOOL`: try a tool from the terminal, its resolvers' questions answered by a person.

The command module stays light (no `mcp` import at module level, see architecture.md):
loading, connecting and rendering are imported inside `call`.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from ..shared_options import INTERPRETER_DEFAULT, NO_LINT, PYTHON, VERBOSE_SERVING
from ..typer_options import typer_option


class ProtocolChoice(str, Enum):
    """Protocol generations `call` can speak; `auto` lets the SDK's `Client` negotiate."""

    auto = "auto"
    modern = "2026-07-28"
    legacy = "legacy"


def call(
    spec: Annotated[
        str, typer.Argument(help="The server: file.py, file.py:obj, pkg.module:obj (as for serve).")
    ],
    tool: Annotated[str, typer.Argument(help="The tool to call.")],
    arg: Annotated[
        list[str] | None,
        typer.Option(
            "--arg", "-a", metavar="NAME=VALUE", help="A tool argument, typed by the tool's input schema."
        ),
    ] = None,
    args_json: Annotated[
        str | None, typer.Option("--args-json", metavar="JSON", help="Arguments as a JSON object.")
    ] = None,
    stdio: Annotated[
        bool, typer.Option("--stdio", help="Run the server as a `mcpdeps serve` subprocess on stdio.")
    ] = False,
    answers: Annotated[
        Path | None,
        typer.Option(
            "--answers", metavar="FILE", help="Recorded answers, keyed by resolver name or module:qualname."
        ),
    ] = None,
    sample_reply: Annotated[
        str | None,
        typer.Option("--sample-reply", metavar="TEXT", help="Answer every sampling question with TEXT."),
    ] = None,
    root: Annotated[
        list[Path] | None,
        typer.Option(
            "--root", metavar="PATH", help="A root for ListRoots (repeatable; default: the current folder)."
        ),
    ] = None,
    protocol: Annotated[
        ProtocolChoice,
        typer.Option("--protocol", help="Protocol generation: 2026-07-28, legacy, or auto (negotiate)."),
    ] = ProtocolChoice.auto,
    json_output: Annotated[bool, typer.Option("--json", help="Print the raw result as JSON.")] = False,
    no_lint: bool = typer_option(NO_LINT),
    python: Path | None = typer_option(
        replace(PYTHON, help=f"The interpreter that runs the server, over stdio {INTERPRETER_DEFAULT}.")
    ),
    verbose: bool = typer_option(VERBOSE_SERVING),
) -> None:
    """Call a tool of a server and answer the questions its resolvers ask (Elicit, Sample, ListRoots)."""
    import anyio
    from rich.console import Console
    from rich.markup import escape

    from ...resolver_core.user_output import user_output_to_stderr
    from ..runner.interpreter import explaining_missing
    from ..runner.sdk import interpreter_for
    from ..serve.render_gate import lint_gate
    from .answers import load_answers
    from .args import build_arguments
    from .prompts import TerminalPerson
    from .questions import AnswerSources, QuestionAnswerer, unused_answers
    from .render import print_json, questions_view, render_call
    from .resolvers import live_resolvers, static_resolvers
    from .session import CallTarget, StdioTarget, call_tool
    from .target import exit_on_interrupt, load_in_process, server_path

    out, err = Console(), Console(stderr=True)
    sources = AnswerSources(
        answers=load_answers(answers) if answers is not None else None,
        sample_reply=sample_reply,
        roots=root or [],
    )
    path = server_path(spec)
    interpreter = interpreter_for(python, path, "call")
    if not interpreter.own:
        err.print(f"mcpdeps call: the server runs under {escape(interpreter.describe())}", highlight=False)
    target: CallTarget
    if stdio or not interpreter.own:
        python_args = () if interpreter.own else ("--python", str(interpreter.executable))
        target = StdioTarget(spec, no_lint=no_lint, serve_args=python_args)
        resolvers = static_resolvers(path, tool)
    else:
        if not no_lint and not lint_gate(path, err, refusal="mcpdeps call: not calling the tool"):
            raise typer.Exit(1)  # the gate said why; exit 1 as lint would
        with explaining_missing(interpreter):
            server = load_in_process(spec, verbose=verbose)
        target = server
        resolvers = live_resolvers(server, tool)
    person = TerminalPerson(err) if sys.stdin.isatty() else None
    answerer = QuestionAnswerer(sources, person, resolvers)
    with exit_on_interrupt(err.print), user_output_to_stderr():  # a tool's print() never breaks the result
        outcome = anyio.run(
            call_tool,
            target,
            tool,
            lambda s: build_arguments(s, arg or [], args_json),
            answerer,
            protocol.value,
        )
    unused = unused_answers(answerer)
    if unused:
        err.print(f"[yellow]Not used from the answers file:[/] {escape(', '.join(unused))}")
    if outcome.result is None:
        if not json_output:
            out.print(questions_view(answerer.transcript))
        err.print(
            f"[bold red]The call failed with a protocol error:[/] {escape(outcome.protocol_error or '')}"
        )
        raise typer.Exit(1)
    if json_output:
        print_json(out, outcome.result)
    else:
        render_call(
            out,
            tool=tool,
            arguments=outcome.arguments,
            result=outcome.result,
            transcript=answerer.transcript,
            resolvers=resolvers,
            protocol=outcome.protocol_version,
        )
    raise typer.Exit(1 if outcome.result.is_error else 0)
