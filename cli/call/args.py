"""Turn `--arg NAME=VALUE` and `--args-json` into the arguments a tool's input schema wants.

A shell gives us strings; the server validates typed JSON. Guessing types from the
text (`"3"` is a number?) would be wrong for a string argument that looks like a
number, so each value is parsed by what the tool's published input schema says
about that property, and the whole set is validated against the schema before the
call: a typo or a missing argument is reported here, in the schema's words, instead
of as a server-side validation error after resolvers may already have asked questions.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from ...resolver_core import bounded_read
from ...resolver_core.suggest import did_you_mean
from ..errors import UserError

JsonSchema = Mapping[str, Any]

_TRUE = {"true", "yes", "y", "1", "on"}
_FALSE = {"false", "no", "n", "0", "off"}


def _resolve_ref(schema: JsonSchema, root: JsonSchema) -> JsonSchema:
    """Follow a local `#/$defs/...` reference (pydantic puts enums and models there)."""
    seen = 0
    while "$ref" in schema and seen < 32:
        target: Any = root
        for part in str(schema["$ref"]).removeprefix("#/").split("/"):
            target = target.get(part, {}) if isinstance(target, Mapping) else {}
        schema = target
        seen += 1
    return schema


def _types(schema: JsonSchema, root: JsonSchema) -> Iterator[str]:
    """Every JSON type a property admits, in the order the schema lists them."""
    schema = _resolve_ref(schema, root)
    declared = schema.get("type")
    if isinstance(declared, str):
        yield declared
    elif isinstance(declared, list):
        yield from (t for t in declared if isinstance(t, str))
    for key in ("anyOf", "oneOf", "allOf"):
        for arm in schema.get(key, []):
            yield from _types(arm, root)
    for value in schema.get("enum", []):
        yield _json_type(value)
    if "const" in schema:
        yield _json_type(schema["const"])


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _coerce(text: str, json_type: str) -> Any:
    """Parse `text` as one JSON type; raise ValueError when it is not one."""
    if json_type == "integer":
        return int(text)
    if json_type == "number":
        number = float(text)
        return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number
    if json_type == "boolean":
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ValueError(text)
    if json_type == "null":
        if text.lower() in {"null", "none"}:
            return None
        raise ValueError(text)
    if json_type in {"array", "object"}:
        value = bounded_read.parse_json(text, "the value")  # a ValueError when it is not JSON
        if _json_type(value) != json_type:
            raise ValueError(text)
        return value
    return text


def parse_value(name: str, text: str, schema: JsonSchema, root: JsonSchema) -> Any:
    """The typed value of `--arg name=text`: the first reading of the schema's types that validates."""
    types = list(dict.fromkeys(_types(schema, root))) or ["string"]
    # A string is the fallback: it is tried last so `count=3` becomes 3 under `integer | string`.
    ordered = [t for t in types if t != "string"] + (["string"] if "string" in types else [])
    validator = Draft202012Validator({**schema, "$defs": root.get("$defs", {})})
    for json_type in ordered:
        try:
            value = _coerce(text, json_type)
        except ValueError:
            continue
        if validator.is_valid(value):
            return value
    wanted = _describe(schema, root) or " or ".join(ordered)
    raise UserError(f"--arg {name}={text}: the tool's input schema wants {wanted}.")


def _describe(schema: JsonSchema, root: JsonSchema) -> str:
    """A short human description of a property schema (`integer from 1 to 8`, `one of: a, b`)."""
    schema = _resolve_ref(schema, root)
    enum = schema.get("enum")
    if enum:
        return "one of: " + ", ".join(map(str, enum))
    types = [t for t in dict.fromkeys(_types(schema, root)) if t != "null"]
    text = " or ".join(types)
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        text += f" from {low} to {high}"
    elif low is not None:
        text += f" ≥ {low}"
    elif high is not None:
        text += f" ≤ {high}"
    return text


def describe_arguments(schema: JsonSchema) -> str:
    """One line per argument: name, type, required or default; used in error messages."""
    properties: Mapping[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    if not properties:
        return "The tool takes no arguments."
    lines = []
    for name, prop in properties.items():
        if name in required:
            note = "required"
        else:
            note = f"default {json.dumps(prop['default'])}" if "default" in prop else "optional"
        lines.append(f"  {name}: {_describe(prop, schema) or 'any'} ({note})")
    return "The tool's arguments:\n" + "\n".join(lines)


def _error_sentence(error: ValidationError) -> str:
    if error.validator == "required":
        return f"missing required argument: {error.message.split(' is a required')[0]}"
    where = ".".join(str(p) for p in error.absolute_path)
    return f"argument {where}: {error.message}" if where else error.message


def build_arguments(schema: JsonSchema, pairs: Sequence[str], args_json: str | None) -> dict[str, Any]:
    """Merge `--args-json` and `--arg` pairs (pairs win), typed and validated by the input schema."""
    arguments: dict[str, Any] = {}
    if args_json is not None:
        try:
            loaded = bounded_read.parse_json(args_json, "--args-json")
        except bounded_read.Unreadable as exc:
            raise UserError(f"{exc}.") from exc
        if not isinstance(loaded, dict):
            raise UserError('--args-json must be a JSON object, like \'{"title": "Dune"}\'.')
        arguments.update(loaded)
    properties: Mapping[str, Any] = schema.get("properties", {})
    open_schema = schema.get("additionalProperties", True) is not False and not properties
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise UserError(f"--arg {pair!r} is not NAME=VALUE.")
        if name in properties:
            arguments[name] = parse_value(name, text, properties[name], schema)
        elif open_schema:
            arguments[name] = text
        else:
            hint = did_you_mean(name, properties)
            raise UserError(
                f"--arg {name}: the tool has no argument {name!r}{hint}.\n{describe_arguments(schema)}"
            )
    errors = sorted(Draft202012Validator(dict(schema)).iter_errors(arguments), key=lambda e: list(e.path))
    if errors:
        problems = "; ".join(_error_sentence(e) for e in errors)
        raise UserError(
            f"The arguments do not match the tool's input schema: {problems}.\n{describe_arguments(schema)}"
        )
    return arguments
