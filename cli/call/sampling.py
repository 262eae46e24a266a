"""A `Sample` question shown to a person, who types the completion the client's LLM would give.

Seeing the exact messages and system prompt a resolver sends is the point of trying
a sampling resolver by hand, so all of them are shown, with the request's limits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcpdeps.cli.call.form import ask_line
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

if TYPE_CHECKING:
    from mcp_types import CreateMessageRequestParams


def content_text(content: Any) -> str:
    """Text of one sampling content block (or of a list of them); other media by their type."""
    if isinstance(content, list):
        return "\n".join(content_text(part) for part in content)
    text = getattr(content, "text", None)
    if isinstance(text, str):
        return text
    return f"[{getattr(content, 'type', 'content')} {getattr(content, 'mime_type', '') or ''}]".replace(
        " ]", "]"
    )


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
