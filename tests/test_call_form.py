"""Form fields parsed against the `requestedSchema` the SDK renders for an `Elicit` model."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from call_helpers import QUESTIONS
from mcpdeps.cli.call.form import parse_field


@pytest.fixture(scope="module")
def properties() -> dict[str, Any]:
    """The SDK's rendering of the questions example's `TripDetails`, plus the shapes it cannot show."""
    from mcp.server.elicitation import render_elicitation_schema
    from mcpdeps.resolver_core.loading import load_server

    module = sys.modules[load_server(str(QUESTIONS)).module]
    rendered: dict[str, Any] = render_elicitation_schema(module.TripDetails)["properties"]
    return {
        **rendered,
        "titled": {
            "type": "string",
            "oneOf": [{"const": "fr", "title": "French"}, {"const": "en", "title": "English"}],
        },
        "tags": {"type": "array", "items": {"enum": ["a", "b", "c"]}, "maxItems": 2},
        "day": {"type": "string", "format": "date"},
    }


@pytest.mark.parametrize(
    ("name", "raw", "value"),
    [
        ("travellers", "3", 3),
        ("budget", "12.5", 12.5),
        ("transport", "2", "plane"),
        ("transport", "bike", "bike"),
        ("hotel", "y", True),
        ("hotel", "no", False),
        ("notes", "window seat", "window seat"),
        ("titled", "English", "en"),
        ("titled", "1", "fr"),
        ("tags", "1, c", ["a", "c"]),
        ("day", "2026-12-01", "2026-12-01"),
    ],
)
def test_valid_input_becomes_the_json_value(
    properties: dict[str, Any], name: str, raw: str, value: Any
) -> None:
    assert parse_field(raw, properties[name]) == value


@pytest.mark.parametrize(
    ("name", "raw", "reason"),
    [
        ("travellers", "0", "must be at least 1"),
        ("travellers", "2.5", "is not an integer"),
        ("budget", "-1", "must be at least 0"),
        ("transport", "car", "choose one of: train, plane, bike"),
        ("hotel", "maybe", "answer y or n"),
        ("notes", "x" * 201, "takes at most 200 characters"),
        ("tags", "a,b,c", "choose at most 2"),
        ("day", "tomorrow", r"is not a date \(YYYY-MM-DD\)"),
    ],
)
def test_invalid_input_says_why(properties: dict[str, Any], name: str, raw: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_field(raw, properties[name])
