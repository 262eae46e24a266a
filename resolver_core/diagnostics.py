"""Diagnostics: what lint reports, in the exact shape of the JSON contract.

Frozen dataclasses, validated and described by pydantic where data comes in or a schema
goes out (`TypeAdapter(Diagnostic)`: the tests, the `mcpdeps mcp` tools' output schemas):
the JSON output, the SARIF/GitHub renderers and the tests all read the same fields, and
`sort_key` gives the contract's order (path, line, column, code) so the same input always
yields the same bytes.

Not pydantic models: defining those imports pydantic, and building their validator on a
run's first diagnostic was a quarter of a run that re-checks one edited file (and of
every run that needs no config validation). The rules build them as they are; the tests
validate every diagnostic and fix the corpus and the rule examples produce
(`tests/test_diagnostics_plain.py`).
"""

from __future__ import annotations

from dataclasses import field, is_dataclass, replace
from typing import Any, Literal, TypeVar

from .records import record

Severity = Literal["error", "warning", "info"]
SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2}


@record(kw_only=True)
class Related:
    """Another place that explains a diagnostic (each edge of a cycle, the other tool...)."""

    path: str
    line: int
    column: int
    message: str


@record(kw_only=True)
class Edit:
    """One text replacement of a fix, by its span in the file."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    content: str


@record(kw_only=True)
class Fix:
    """What `--fix` would change for a diagnostic, and how it says so."""

    message: str
    edits: list[Edit]


@record(kw_only=True)
class Diagnostic:
    """One finding at one place, as the contract's JSON shows it."""

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
    related: list[Related] = field(default_factory=list)
    fix: Fix | None = None
    help: str | None = None
    """A one-line hint shown by the `full` format (not part of the JSON contract)."""
    _resolver: str | None = None
    """`Resolver.key` when it is about a resolver (reported once however many files use it);
    never part of the JSON."""

    def sort_key(self) -> tuple[str, int, int, str, str, str]:
        return (self.path, self.line, self.column, self.code, self.tool or "", self.message)

    def contract_dict(self) -> dict[str, object]:
        """The JSON object of the contract (no extra keys)."""
        out = plain(self)
        del out["help"]
        return out

    def with_fix(self, fix: Fix | None) -> Diagnostic:
        return replace(self, fix=fix)


# What the lint cache and the json/sarif formats hold are these as plain JSON data: `plain`
# and `from_plain` convert them, field kinds below, checked against the dataclass fields,
# and the round trip against pydantic's `TypeAdapter` (`tests/test_diagnostics_plain.py`).

Model = TypeVar("Model", Related, Edit, Fix, Diagnostic)

KINDS: dict[type[Any], dict[str, Any]] = {
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


def plain(model: Any) -> dict[str, Any]:
    """The JSON data of one of these, in field order (pydantic's `dump_python(mode="json")`
    but `_resolver`)."""
    return {name: _plain(getattr(model, name)) for name in KINDS[type(model)]}


def _plain(value: Any) -> Any:
    if is_dataclass(value):
        return plain(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


class NotPlain(ValueError):
    """Data that is not a model as `plain` writes it (a damaged or foreign cache)."""


def from_plain(cls: type[Model], data: Any) -> Model:
    """What `plain` gave `data` for, built without validating; `NotPlain` for anything else."""
    kinds = KINDS[cls]
    if not isinstance(data, dict) or data.keys() != kinds.keys():
        raise NotPlain(cls.__name__)
    return cls(**{name: _from(kind, data[name]) for name, kind in kinds.items()})


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
    if kind in KINDS:
        return from_plain(kind, value)
    if not _fits(kind, value):
        raise NotPlain(repr(value)[:40])
    return value


def _fits(kind: type, value: Any) -> bool:
    if kind in KINDS:
        return isinstance(value, dict)
    return type(value) is kind  # bool is not an int here, as pydantic's strict JSON would not have it
