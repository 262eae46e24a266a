"""Diagnostics: what lint reports, in the exact shape of the JSON contract.

pydantic models, because the JSON output, the SARIF/GitHub renderers and the
tests all read the same fields; `sort_key` gives the contract's order (path,
line, column, code) so the same input always yields the same bytes.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr

Severity = Literal["error", "warning", "info"]
SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2}


class Related(BaseModel):
    """Another place that explains a diagnostic (each edge of a cycle, the other tool...)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    path: str
    line: int
    column: int
    message: str


class Edit(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    content: str


class Fix(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    message: str
    edits: list[Edit]


class Diagnostic(BaseModel):
    """One finding at one place, as the contract's JSON shows it."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    code: str
    name: str
    severity: Severity
    message: str
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    tool: str | None = None
    related: list[Related] = []
    fix: Fix | None = None
    help: str | None = None
    """A one-line hint shown by the `full` format (not part of the JSON contract)."""
    _resolver: str | None = PrivateAttr(default=None)
    """`Resolver.key` when it is about a resolver (reported once however many files use it)."""

    def sort_key(self) -> tuple[str, int, int, str, str, str]:
        return (self.path, self.line, self.column, self.code, self.tool or "", self.message)

    def contract_dict(self) -> dict[str, object]:
        """The JSON object of the contract (no extra keys)."""
        return self.model_dump(mode="json", exclude={"help"})
