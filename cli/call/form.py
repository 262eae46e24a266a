"""The elicitation form's fields: what a `requestedSchema` an `Elicit` sends allows, as values.

The spec limits that schema to flat primitive properties (strings with length and
format, numbers with bounds, booleans, single- and multi-select enums), so each
property is one field: `parse_field` turns typed text into the property's JSON value
(or says why not) and `hint` describes what it takes. The terminal form (`prompts.py`)
asks field by field with them, so a person fixes a mistake where they made it instead of
having the server reject the whole answer; any other front end can do the same.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any, Literal

from ...resolver_core.records import record

Action = Literal["accept", "decline", "cancel"]
ACTIONS: tuple[Action, ...] = ("accept", "decline", "cancel")


def action_of(typed: str) -> Action | None:
    """What a person typed to choose the outcome: the word or any start of it (`a`, `acc`;
    the three start differently), or nothing (accept). None for anything else."""
    word = typed.strip().lower()
    if not word:
        return "accept"
    return next((action for action in ACTIONS if action.startswith(word)), None)


@record
class FormOutcome:
    """What the person did: the action, and the content when they accepted."""

    action: Action
    content: dict[str, Any] | None


def choices(prop: Mapping[str, Any]) -> list[tuple[str, str]] | None:
    """(value, label) pairs of a single-select enum in any of the spec's three spellings."""
    if "oneOf" in prop:
        return [(str(o["const"]), str(o.get("title", o["const"]))) for o in prop["oneOf"]]
    if "enum" in prop:
        names = prop.get("enumNames") or prop["enum"]
        return [(str(v), str(n)) for v, n in zip(prop["enum"], names, strict=False)]
    return None


def multi_choices(prop: Mapping[str, Any]) -> list[tuple[str, str]] | None:
    """(value, label) pairs of a multi-select enum (an array of enum or anyOf items)."""
    if prop.get("type") != "array":
        return None
    items = prop.get("items", {})
    if "anyOf" in items:
        return [(str(o["const"]), str(o.get("title", o["const"]))) for o in items["anyOf"]]
    return [(str(v), str(v)) for v in items.get("enum", [])]


def _pick(raw: str, options: Sequence[tuple[str, str]]) -> str:
    """A choice by its value or label, else by its number (so a value "2" is never read as choice 2)."""
    for value, label in options:
        if raw in (value, label):
            return value
    if raw.isdigit() and 1 <= int(raw) <= len(options):
        return options[int(raw) - 1][0]
    raise ValueError("choose one of: " + ", ".join(v for v, _ in options))


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
    multi = multi_choices(prop)
    if multi is not None:
        values = [_pick(part.strip(), multi) for part in raw.split(",") if part.strip()]
        for key, word in (("minItems", "at least"), ("maxItems", "at most")):
            limit = prop.get(key)
            if limit is not None and (len(values) < limit if key == "minItems" else len(values) > limit):
                raise ValueError(f"choose {word} {limit}")
        return values
    single = choices(prop)
    if single is not None:
        return _pick(raw, single)
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


def hint(prop: Mapping[str, Any], required: bool) -> str:
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
    elif multi_choices(prop) is not None:
        parts.append("numbers or values, comma-separated")
    elif kind == "string" and choices(prop) is None:
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
