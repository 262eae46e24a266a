"""MCPD103: an `Elicit(..., Model)` whose model the elicitation schema cannot express."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Resolver, Span
from ...resolver_core.typeexpr import TClass
from .._source import found_in, used_resolvers
from ..base import Invalid, Rule, related
from ._elicit_schema import ElicitSchema

_HEADER = (
    "from typing import Annotated, Literal\n"
    "from pydantic import BaseModel\n"
    "from mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Elicit, Resolve\n\n"
    "mcp = MCPServer('s')\n\n"
)
_TAIL = (
    "def ask(title: str) -> Elicit[Shipping]:\n"
    "    return Elicit(f'How should we ship {title}?', Shipping)\n\n"
    "@mcp.tool()\n"
    "def order(title: str, shipping: Annotated[Shipping, Resolve(ask)]) -> str:\n"
    "    return title\n"
)


class InvalidElicitationSchema(Rule):
    code = "MCPD103"
    name = "invalid-elicitation-schema"
    severity = "warning"
    summary = (
        "An `Elicit` model has a field the elicitation schema cannot express; the call fails when it asks."
    )
    explanation = (
        "Elicitation forms are flat: every field must render as a primitive - `str`, `int`, "
        "`float`, `bool`, a `Literal[...]` of one primitive type, `date`, `datetime`, a URL, an "
        "optional or constrained version of those, or a `list[Literal[...]]`/`set[Literal[...]]` of "
        "two or more strings. The SDK checks the model only when the question is first asked, so "
        "a server with an `Enum` class, a nested model, `int | str`, `Decimal`, `UUID`, `time`, "
        "`timedelta`, `bytes`, `dict`, `tuple`, `Any` or a bare `list[str]` field registers fine "
        "and then fails every call that reaches the question (`Elicitation schema field ... is not "
        "a valid PrimitiveSchemaDefinition`).\n\n"
        "Fix: flatten the model - `Literal['air', 'sea']` instead of an `Enum`, one field per "
        "nested value, `str` for identifiers and durations."
    )
    INVALID = [
        Invalid(
            _HEADER + "import enum\n\n"
            "class Speed(enum.Enum):\n    AIR = 'air'\n    SEA = 'sea'\n\n"
            "class Shipping(BaseModel):\n    speed: Speed\n\n" + _TAIL,
            at=(18, 12, 18, 60),
        ),
        Invalid(
            _HEADER + "class Address(BaseModel):\n    city: str\n\n"
            "class Shipping(BaseModel):\n    to: Address\n    quantity: int | str\n\n" + _TAIL,
            at=(16, 12, 16, 60),
        ),
    ]
    VALID = [
        _HEADER + "import datetime\n\n"
        "class Shipping(BaseModel):\n"
        "    speed: Literal['air', 'sea']\n"
        "    city: str\n"
        "    quantity: int = 1\n"
        "    note: str | None = None\n"
        "    extras: list[Literal['gift', 'insured']] = []\n"
        "    by: datetime.date | None = None\n\n" + _TAIL
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        if graph.evaluator is None:
            return
        schema = ElicitSchema(graph.evaluator)
        for resolver, tool in used_resolvers(graph):
            for span, model, name, why, declared in found_in(
                graph, self.code, resolver, partial(_inexpressible, schema)
            ):
                yield self.diagnostic(
                    span,
                    f"elicitation model {model!r} (asked by resolver {resolver.name!r}) has "
                    f"field {name!r} that the elicitation schema cannot express: {why}; every call "
                    f"that asks this question fails",
                    tool=tool.name,
                    resolver=resolver,
                    related=related(declared, f"field {name!r} is declared here"),
                    help="use flat primitive fields: str, int, float, bool, Literal['a', 'b'], date, "
                    "datetime, or list[Literal['a', 'b']]",
                )


def _inexpressible(schema: ElicitSchema, resolver: Resolver) -> list[tuple[Span, str, str, str, Span]]:
    """Each field of the models `resolver` elicits that the schema cannot express: where the
    question is, the model, the field, why, and where the field is declared."""
    out = []
    for q in resolver.questions:
        model = q.model_type
        if q.kind != "elicit" or not isinstance(model, TClass) or q.span is None:
            continue
        for name, stmt, t in schema.fields(model):
            why = schema.problem(t)
            if why is not None:
                out.append((q.span, model.qualname, name, why, model.source.span(stmt)))
    return out
