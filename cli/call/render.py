"""Show a tool's result, and the resolvers and questions behind it, with rich.

Content blocks are shown as what they are (text as text, other media by type and
size); structured content as a table when it is flat enough to read as one, JSON
otherwise. The SDK wraps a non-object return value as `{"result": value}` and also
sends it as text, so that wrapper is not shown twice.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.json import JSON
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..render.hanging import Hanging
from ..render.markup import markup as escape  # terminal-safe, then markup-safe
from .questions import AskedQuestion
from .resolvers import ResolverIndex

if TYPE_CHECKING:
    from mcp_types import CallToolResult

_SCALARS = (str, int, float, bool, type(None))
_KIND_LABEL = {"elicit": "elicitation", "sample": "sampling", "list_roots": "roots"}


def _scalar(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _content_block(block: Any) -> RenderableType:
    kind = getattr(block, "type", "?")
    if kind == "text":
        return Text(block.text)
    if kind in ("image", "audio"):
        return Text(f"[{kind} {block.mime_type}, {len(block.data) * 3 // 4} bytes]", style="italic")
    if kind == "resource_link":
        return Text(f"[link {block.uri}]", style="italic")
    resource = getattr(block, "resource", None)
    text = getattr(resource, "text", None)
    return Text(text) if isinstance(text, str) else Text(f"[{kind} {getattr(resource, 'uri', '')}]")


def structured_view(data: Any) -> RenderableType:
    """A table for an object of scalars or a list of such objects; JSON for anything deeper."""
    if isinstance(data, Mapping) and data and all(isinstance(v, _SCALARS) for v in data.values()):
        table = Table(box=box.SIMPLE_HEAD, show_header=True)
        table.add_column("field", style="bold")
        table.add_column("value")
        for key, value in data.items():
            table.add_row(escape(str(key)), escape(_scalar(value)))
        return table
    rows = data.get("result") if isinstance(data, Mapping) and set(data) == {"result"} else data
    if (
        isinstance(rows, list)
        and rows
        and all(isinstance(r, Mapping) and all(isinstance(v, _SCALARS) for v in r.values()) for r in rows)
    ):
        columns = list(dict.fromkeys(k for r in rows for k in r))
        table = Table(*columns, box=box.SIMPLE_HEAD)
        for row in rows:
            table.add_row(*(escape(_scalar(row.get(c, ""))) for c in columns))
        return table
    return JSON(json.dumps(data))


def _parses_to(text: Any, value: Any) -> bool:
    if not isinstance(text, str):
        return False
    try:
        return bool(json.loads(text) == value)
    except ValueError:
        return bool(text == value)


def _text_repeats(structured: Any, result: CallToolResult) -> bool:
    """True when the text content is only the structured content serialized again (the SDK sends both)."""
    texts = [getattr(b, "text", None) for b in result.content]
    if len(texts) == 1 and _parses_to(texts[0], structured):
        return True
    wrapped = isinstance(structured, Mapping) and set(structured) == {"result"}
    return wrapped and bool(texts) and _parses_to(texts[0] if len(texts) == 1 else None, structured["result"])


def _structured_repeats(structured: Any, result: CallToolResult) -> bool:
    """True for the SDK's `{"result": ...}` wrapper of scalars the text blocks already show one by one."""
    if not (isinstance(structured, Mapping) and set(structured) == {"result"}):
        return False
    value = structured["result"]
    items = value if isinstance(value, list) else [value]
    texts = [getattr(b, "text", None) for b in result.content]
    return (
        all(isinstance(item, _SCALARS) for item in items)
        and len(texts) == len(items)
        and all(_parses_to(text, item) for text, item in zip(texts, items, strict=True))
    )


def call_signature(tool: str, arguments: Mapping[str, Any]) -> str:
    """`order_book(title="Dune")`: the call as it was sent, for the result panel's title."""
    shown = ", ".join(f"{name}={json.dumps(value, ensure_ascii=False)}" for name, value in arguments.items())
    return f"{tool}({shown})"


def result_view(
    result: CallToolResult, tool: str, arguments: Mapping[str, Any] | None = None
) -> RenderableType:
    """The result panel: content blocks and structured content, each shown once."""
    structured = result.structured_content
    if structured is not None and _structured_repeats(structured, result):
        structured = None
    blocks = list(result.content)
    if structured is not None and _text_repeats(structured, result):
        blocks = []
    parts: list[RenderableType] = [_content_block(b) for b in blocks]
    if structured is not None:
        parts.append(structured_view(structured))
    if not parts:
        parts.append(Text("(no content)", style="dim"))
    called = escape(call_signature(tool, arguments or {}))
    title = f"[bold red]{called} failed[/]" if result.is_error else f"[bold green]{called}[/]"
    return Panel(
        Group(*parts), title=title, title_align="left", border_style="red" if result.is_error else "green"
    )


def questions_view(transcript: Sequence[AskedQuestion]) -> RenderableType:
    """Which questions were asked, by which resolver, and how each was answered (one block each)."""
    if not transcript:
        return Text("No question was asked.", style="dim")
    blocks: list[RenderableType] = [Text("Questions", style="bold")]
    for number, q in enumerate(transcript, start=1):
        lines = [
            Text.assemble(
                (q.resolver or "(unknown resolver)", "bold"),
                (f" · {_KIND_LABEL[q.kind]} · answered by {q.answered_by}", "dim"),
            ),
            Text(q.question, style="italic"),
            Text.assemble("→ ", (q.answer, "cyan")),
        ]
        blocks.append(Hanging(f"{number:>3}. ", lines))  # wrapped lines stay under their question
    return Group(*blocks)


def resolvers_view(resolvers: ResolverIndex | None, ran: bool) -> RenderableType:
    """The tool's resolvers in run order; all of them ran when the tool body did."""
    if resolvers is None:
        return Text("Resolvers: not known over this connection.", style="dim")
    if not resolvers.resolvers:
        return Text("Resolvers: none (the tool has no Resolve(...) parameters).", style="dim")
    names = ", ".join(r.id.split(":", 1)[-1] for r in resolvers.resolvers)
    verb = "ran, in order" if ran else "of this tool (the call failed; some may not have run)"
    return Hanging(Text(f"Resolvers {verb}: ", style="bold"), [Text(names)])


def render_call(
    console: Console,
    *,
    tool: str,
    arguments: Mapping[str, Any],
    result: CallToolResult,
    transcript: Sequence[AskedQuestion],
    resolvers: ResolverIndex | None,
    protocol: str,
) -> None:
    """Everything a person reads after a call."""
    console.print(result_view(result, tool, arguments))
    console.print(resolvers_view(resolvers, ran=not result.is_error))
    console.print(questions_view(transcript))
    console.print(Text(f"protocol {protocol}", style="dim"))


def print_json(console: Console, result: CallToolResult) -> None:
    """The raw result as the server sent it, unwrapped, as one JSON document on stdout."""
    document = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    console.out(json.dumps(document, indent=2, ensure_ascii=False), highlight=False)
