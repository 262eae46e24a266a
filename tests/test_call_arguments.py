"""`--arg` / `--args-json` parsed by the input schema the real SDK publishes for a tool."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import anyio
import pytest
from call_helpers import BOOKSHOP, call
from mcpdeps.cli.call.args import build_arguments
from mcpdeps.cli.errors import UserError
from pydantic import Field


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    """The input schema of a tool with one parameter of each interesting kind, from `Client.list_tools`."""
    from mcp.client import Client
    from mcp.server import MCPServer

    server = MCPServer("Args")

    @server.tool()
    def book(
        title: str,
        count: int,
        ratio: float = 0.5,
        gift: bool = False,
        cover: Literal["hard", "soft"] = "soft",
        tags: list[str] | None = None,
        shelf: int | None = None,
        copies: Annotated[int, Field(ge=1, le=5)] = 1,
    ) -> str:
        return title

    async def list_schema() -> dict[str, Any]:
        async with Client(server) as client:
            return (await client.list_tools()).tools[0].input_schema

    return anyio.run(list_schema)


def test_values_are_typed_by_the_schema(schema: dict[str, Any]) -> None:
    pairs = ["title=1984", "count=3", "ratio=2", "gift=yes", "cover=hard", 'tags=["a","b"]', "shelf=null"]
    assert build_arguments(schema, pairs, None) == {
        "title": "1984",  # a string stays a string even when it looks like a number
        "count": 3,
        "ratio": 2,
        "gift": True,
        "cover": "hard",
        "tags": ["a", "b"],
        "shelf": None,
    }


def test_optional_int_reads_a_number(schema: dict[str, Any]) -> None:
    assert build_arguments(schema, ["title=x", "count=1", "shelf=7"], None)["shelf"] == 7


def test_args_json_is_merged_and_arg_pairs_win(schema: dict[str, Any]) -> None:
    arguments = build_arguments(schema, ["count=2"], '{"title": "Dune", "count": 1}')
    assert arguments == {"title": "Dune", "count": 2}


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        (["title=x", "count=three"], "--arg count=three: the tool's input schema wants integer"),
        (
            ["title=x", "count=1", "copies=9"],
            "--arg copies=9: the tool's input schema wants integer from 1 to 5",
        ),
        (["title=x", "count=1", "cover=paper"], "wants one of: hard, soft"),
        (["title=x", "count=1", "pages=3"], "the tool has no argument 'pages'"),
        (["count=1"], "missing required argument: 'title'"),
        (["title"], "--arg 'title' is not NAME=VALUE"),
    ],
)
def test_bad_arguments_are_reported_from_the_schema(
    schema: dict[str, Any], pairs: list[str], message: str
) -> None:
    with pytest.raises(UserError) as caught:
        build_arguments(schema, pairs, None)
    assert message in str(caught.value)
    assert caught.value.exit_code == 2


def test_error_lists_every_argument_with_its_type(schema: dict[str, Any]) -> None:
    with pytest.raises(UserError) as caught:
        build_arguments(schema, [], None)
    text = str(caught.value)
    assert "title: string (required)" in text
    assert "copies: integer from 1 to 5 (default 1)" in text
    assert 'cover: one of: hard, soft (default "soft")' in text


@pytest.mark.parametrize("bad", ["{not json", "[1, 2]"])
def test_args_json_must_be_an_object(schema: dict[str, Any], bad: str) -> None:
    with pytest.raises(UserError, match="--args-json"):
        build_arguments(schema, [], bad)


def test_the_cli_reports_a_bad_argument_before_calling() -> None:
    done = call(BOOKSHOP, "reserve_book", "--arg", "title=Dune", "--arg", "copies=2")
    assert done.returncode == 2
    assert "the tool has no argument 'copies'" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_misspelt_argument_gets_a_did_you_mean() -> None:
    done = call(BOOKSHOP, "reserve_book", "--arg", "titel=Dune")
    assert done.returncode == 2
    assert "--arg titel: the tool has no argument 'titel' (did you mean 'title'?)." in done.stderr
