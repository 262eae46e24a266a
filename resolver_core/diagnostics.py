"""Diagnostics: what lint reports, in the exact shape of the JSON contract.

pydantic models, because the JSON output, the SARIF/GitHub renderers and the
tests all read the same fields; `sort_key` gives the contract's order (path,
line, column, code) so the same input always yields the same bytes.

The rules build them with `model_construct` (no validation): building pydantic's
validator, on the first diagnostic of a run, was a tenth of a run that re-checks one
edited file. What the rules build is validated by the tests instead: every diagnostic
and fix the corpus and the rule examples produce (`tests/test_diagnostics_plain.py`).
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

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
        out = plain(self)
        del out["help"]
        return out


# What the lint cache and the json/sarif formats hold are these models as plain JSON data.
# `plain` and `from_plain` convert without pydantic's validator and serializer: building them
# (deferred until first use) imports pydantic's plugin machinery and costs more than a warm
# run that has nothing to check. The models stay pydantic for everything else; the field
# kinds below are checked against `model_fields` and the round trip against `model_dump`
# and `model_validate` (`tests/test_diagnostics_plain.py`).

Model = TypeVar("Model", Related, Edit, Fix, Diagnostic)

KINDS: dict[type[BaseModel], dict[str, Any]] = {
    Related: {"path": str, "line": int, "column": int, "message": str},
    Edit: {
        "path": str, "line": int, "column": int, "end_line": int, "end_column": int, "content": str
    },
    Fix: {"message": str, "edits": [Edit]},
    Diagnostic: {
        "code": str, "name": str, "severity": tuple(SEVERITY_RANK), "message": str, "path": str,
        "line": int, "column": int, "end_line": int, "end_column": int, "tool": (str, None),
        "related": [Related], "fix": (Fix, None), "help": (str, None),
    },
}  # fmt: skip
"""Per model, each field's kind: a type, a tuple of allowed values or kinds, or `[Model]`."""


def plain(model: BaseModel) -> dict[str, Any]:
    """`model.model_dump(mode="json")` for these models, in field order."""
    return {name: _plain(getattr(model, name)) for name in KINDS[type(model)]}


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return plain(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


class NotPlain(ValueError):
    """Data that is not a model as `plain` writes it (a damaged or foreign cache)."""


def from_plain(cls: type[Model], data: Any) -> Model:
    """The model `plain` gave `data`, built without validating; `NotPlain` for anything else."""
    kinds = KINDS[cls]
    if not isinstance(data, dict) or data.keys() != kinds.keys():
        raise NotPlain(cls.__name__)
    return cls.model_construct(**{name: _from(kind, data[name]) for name, kind in kinds.items()})


def _from(kind: Any, value: Any) -> Any:
    if isinstance(kind, list):
        if not isinstance(value, list):
            raise NotPlain(repr(value)[:40])
        return [from_plain(kind[0], v) for v in value]
    if isinstance(kind, tuple):
        for option in kind:
            if option is None or isinstance(option, str):
                if value == option:
                    return value
            elif isinstance(option, type) and _fits(option, value):
                return _from(option, value)
        raise NotPlain(repr(value)[:40])
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return from_plain(kind, value)
    if not _fits(kind, value):
        raise NotPlain(repr(value)[:40])
    return value


def _fits(kind: type, value: Any) -> bool:
    if issubclass(kind, BaseModel):
        return isinstance(value, dict)
    return type(value) is kind  # bool is not an int here, as pydantic's strict JSON would not have it
