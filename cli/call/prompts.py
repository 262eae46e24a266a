"""The person at the terminal answering `call`'s questions: the elicitation form and the sampling prompt.

`TerminalPerson` is what `QuestionAnswerer` asks when no recorded answer or flag
answers a question. It shows exactly what the resolver sent (the form's message and
fields; the sampling request's system prompt, messages and limits) and reads the
answer line by line, checking each field before the next (`form.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from ...resolver_core.answers import content_text
from ...resolver_core.records import record
from ..errors import UserError
from .form import Action, FormOutcome, action_of, choices, hint, multi_choices, parse_field

if TYPE_CHECKING:
    from mcp_types import CreateMessageRequestParams

_MISSING = object()


@record
class TerminalPerson:
    """Questions asked on `console` (stderr: stdout carries the result)."""

    console: Console

    def fill_form(self, asker: str, message: str, schema: Mapping[str, Any]) -> FormOutcome:
        return fill_form(self.console, asker, message, schema)

    def complete(self, asker: str, params: CreateMessageRequestParams) -> str:
        show_sample_request(self.console, asker, params)
        return ask_completion(self.console)


def ask_line(console: Console, prompt: str) -> str:
    """Read one line after a rich-markup prompt; a closed terminal is a user-facing error."""
    try:
        return console.input(prompt).strip()
    except EOFError:
        raise UserError("The terminal closed while a question was being answered.") from None


def _ask_field(console: Console, name: str, prop: Mapping[str, Any], required: bool) -> Any:
    """Prompt until the value is valid; returns _MISSING for a skipped optional field."""
    title = prop.get("title") or name
    if prop.get("description"):
        console.print(Text(f"  {prop['description']}", style="dim"))
    for options in (choices(prop), multi_choices(prop)):
        if options:
            listing = "   ".join(f"[bold]{i}[/]) {escape(label)}" for i, (_, label) in enumerate(options, 1))
            console.print(f"  {listing}")
    shown = hint(prop, required)
    prompt = f"[bold cyan]{escape(str(title))}[/]" + (f" [dim]({escape(shown)})[/]" if shown else "") + ": "
    while True:
        raw = ask_line(console, prompt)
        if not raw:
            if "default" in prop:
                return prop["default"]
            if not required:
                return _MISSING
            console.print("  [red]this field is required[/]")
            continue
        try:
            return parse_field(raw, prop)
        except ValueError as exc:
            console.print(f"  [red]{escape(raw)}: {escape(str(exc))}[/]")


def ask_action(console: Console) -> Action:
    """Accept, decline or cancel; any start of the word is enough (`a`, `acc`), Enter accepts."""
    while True:
        raw = ask_line(console, "[bold]Send?[/] [dim](accept / decline / cancel, default accept)[/]: ")
        action = action_of(raw)
        if action is not None:
            return action
        console.print("  [red]type accept, decline or cancel[/]")


def fill_form(console: Console, asker: str, message: str, schema: Mapping[str, Any]) -> FormOutcome:
    """Show the question, ask every property, then the action."""
    console.print(Panel(Text(message), title=f"[bold]{escape(asker)}[/] asks", title_align="left"))
    properties: Mapping[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    content: dict[str, Any] = {}
    for name, prop in properties.items():
        value = _ask_field(console, name, prop, name in required)
        if value is not _MISSING:
            content[name] = value
    action = ask_action(console)
    return FormOutcome(action, content if action == "accept" else None)


def show_sample_request(console: Console, asker: str, params: CreateMessageRequestParams) -> None:
    """The system prompt, each message with its role, and the token limit."""
    parts: list[Text] = []
    if params.system_prompt:
        parts.append(Text.assemble(("system: ", "bold magenta"), params.system_prompt))
    for message in params.messages:
        parts.append(Text.assemble((f"{message.role}: ", "bold"), content_text(message.content)))
    limits = f"max {params.max_tokens} tokens"
    if params.temperature is not None:
        limits += f", temperature {params.temperature}"
    parts.append(Text(limits, style="dim"))
    title = f"[bold]{escape(asker)}[/] asks the client's LLM"
    console.print(Panel(Group(*parts), title=title, title_align="left"))


def ask_completion(console: Console) -> str:
    """The completion, typed as one line; an empty line is asked again."""
    while True:
        text = ask_line(console, "[bold cyan]Completion[/] [dim](what the LLM answers)[/]: ")
        if text:
            return text
        console.print("  [red]type the completion (one line)[/]")
