"""The elicitation form: a terminal form built from the `requestedSchema` an `Elicit` sends.

The spec limits that schema to flat primitive properties (strings with length and
format, numbers with bounds, booleans, single- and multi-select enums), so each
property becomes one prompt. Every value is checked against its property before the
next prompt, so a person fixes a mistake where they made it instead of having the
server reject the whole answer; then they choose accept, decline or cancel, the
three outcomes the SDK hands to the resolver's consumer.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Literal

from mcpdeps.cli.errors import UserError
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

Action = Literal["accept", "decline", "cancel"]
_MISSING = object()


@dataclass(frozen=True, slots=True)
class FormOutcome:
    """What the person did: the action, and the content when they accepted."""

    action: Action
    content: dict[str, Any] | None


def ask_line(console: Console, prompt: str) -> str:
    """Read one line after a rich-markup prompt; a closed terminal is a user-facing error."""
    try:
        return console.input(prompt).strip()
    except EOFError:
        raise UserError("The terminal closed while a question was being answered.") from None


def _choices(prop: Mapping[str, Any]) -> list[tuple[str, str]] | None:
    """(value, label) pairs of a single-select enum in any of the spec's three spellings."""
    if "oneOf" in prop:
        return [(str(o["const"]), str(o.get("title", o["const"]))) for o in prop["oneOf"]]
    if "enum" in prop:
        names = prop.get("enumNames") or prop["enum"]
        return [(str(v), str(n)) for v, n in zip(prop["enum"], names, strict=False)]
    return None


def _multi_choices(prop: Mapping[str, Any]) -> list[tuple[str, str]] | None:
    if prop.get("type") != "array":
        return None
    items = prop.get("items", {})
    if "anyOf" in items:
        return [(str(o["const"]), str(o.get("title", o["const"]))) for o in items["anyOf"]]
    return [(str(v), str(v)) for v in items.get("enum", [])]


def _pick(raw: str, choices: Sequence[tuple[str, str]]) -> str:
    """A choice by its value or label, else by its number (so a value "2" is never read as choice 2)."""
    for value, label in choices:
        if raw in (value, label):
            return value
    if raw.isdigit() and 1 <= int(raw) <= len(choices):
        return choices[int(raw) - 1][0]
    raise ValueError("choose one of: " + ", ".join(v for v, _ in choices))


def _check_bounds(value: float, prop: Mapping[str, Any]) -> None:
    low, high = prop.get("minimum"), prop.get("maximum")
    if low is not None and value < low:
        raise ValueError(f"must be at least {low}")
    if high is not None and value > high:
        raise ValueError(f"must be at most {high}")


def _check_string(value: str, prop: Mapping[str, Any]) -> str:
    low, high = prop.get("minLength"), prop.get("maxLength")
    if low is not None and len(value) < low:
        raise ValueError(f"needs at least {low} characters")
    if high is not None and len(value) > high:
        raise ValueError(f"takes at most {high} characters")
    fmt = prop.get("format")
    parsers = {
        "date": (date.fromisoformat, "YYYY-MM-DD"),
        "date-time": (datetime.fromisoformat, "YYYY-MM-DDTHH:MM"),
    }
    if fmt in parsers:
        parse, shape = parsers[fmt]
        try:
            parse(value)
        except ValueError:
            raise ValueError(f"is not a {fmt} ({shape})") from None
    elif fmt == "email" and "@" not in value:
        raise ValueError("is not an e-mail address")
    elif fmt == "uri" and ":" not in value:
        raise ValueError("is not a URI (like https://example.org)")
    return value


def parse_field(raw: str, prop: Mapping[str, Any]) -> Any:
    """Turn typed text into the property's JSON value, or raise ValueError saying why not."""
    multi = _multi_choices(prop)
    if multi is not None:
        values = [_pick(part.strip(), multi) for part in raw.split(",") if part.strip()]
        for key, word in (("minItems", "at least"), ("maxItems", "at most")):
            limit = prop.get(key)
            if limit is not None and (len(values) < limit if key == "minItems" else len(values) > limit):
                raise ValueError(f"choose {word} {limit}")
        return values
    choices = _choices(prop)
    if choices is not None:
        return _pick(raw, choices)
    kind = prop.get("type")
    if kind == "boolean":
        if raw.lower() in {"y", "yes", "true", "1"}:
            return True
        if raw.lower() in {"n", "no", "false", "0"}:
            return False
        raise ValueError("answer y or n")
    if kind in {"integer", "number"}:
        try:
            number: float = int(raw) if kind == "integer" else float(raw)
        except ValueError:
            raise ValueError("is not an integer" if kind == "integer" else "is not a number") from None
        _check_bounds(number, prop)
        return number
    return _check_string(raw, prop)


def _hint(prop: Mapping[str, Any], required: bool) -> str:
    """The bracketed part of a prompt: type, bounds, default, optional."""
    parts: list[str] = []
    kind = prop.get("type")
    if kind == "boolean":
        parts.append("y/n")
    elif kind in {"integer", "number"}:
        low, high = prop.get("minimum"), prop.get("maximum")
        bounds = f" {low}–{high}" if low is not None and high is not None else ""
        bounds = bounds or (f" ≥ {low}" if low is not None else f" ≤ {high}" if high is not None else "")
        parts.append(f"{kind}{bounds}")
    elif _multi_choices(prop) is not None:
        parts.append("numbers or values, comma-separated")
    elif kind == "string" and _choices(prop) is None:
        if prop.get("format"):
            parts.append(str(prop["format"]))
        if prop.get("minLength") is not None:
            parts.append(f"≥ {prop['minLength']} chars")
        if prop.get("maxLength") is not None:
            parts.append(f"≤ {prop['maxLength']} chars")
    if "default" in prop:
        default = prop["default"]
        shown = ("y" if default else "n") if isinstance(default, bool) else json.dumps(default).strip('"')
        parts.append(f"default {shown}")
    elif not required:
        parts.append("optional, Enter to skip")
    return ", ".join(parts)


def _ask_field(console: Console, name: str, prop: Mapping[str, Any], required: bool) -> Any:
    """Prompt until the value is valid; returns _MISSING for a skipped optional field."""
    title = prop.get("title") or name
    if prop.get("description"):
        console.print(Text(f"  {prop['description']}", style="dim"))
    for choices in (_choices(prop), _multi_choices(prop)):
        if choices:
            listing = "   ".join(f"[bold]{i}[/]) {escape(label)}" for i, (_, label) in enumerate(choices, 1))
            console.print(f"  {listing}")
    hint = _hint(prop, required)
    prompt = f"[bold cyan]{escape(str(title))}[/]" + (f" [dim]({escape(hint)})[/]" if hint else "") + ": "
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


_ACTIONS: dict[str, Action] = {
    word: action for action in ("accept", "decline", "cancel") for word in (action, action[0])
} | {"": "accept"}


def ask_action(console: Console) -> Action:
    """Accept, decline or cancel; the first letter is enough, Enter accepts."""
    while True:
        raw = ask_line(console, "[bold]Send?[/] [dim](accept / decline / cancel, default accept)[/]: ")
        action = _ACTIONS.get(raw.lower())
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
