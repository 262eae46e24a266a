"""Recorded answers to resolver questions: one format, one parser, for `mcpdeps call --answers`
and `mcpdeps.testing`.

Keys name the resolver the way a user knows it: the function's name
(`confirm_backorder`), its qualified name, or the SDK's wire key `module:qualname`
(`server:confirm_backorder`). The value's shape says which kind of question it
answers, so an entry that answers an elicitation with a sampling reply is caught
when it is read, not after the server has asked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, RootModel, ValidationError, model_validator

QuestionKind = Literal["elicit", "sample", "list_roots"]

SHAPES = (
    'An elicitation answer is {"action": "accept"|"decline"|"cancel", "content": {...}}, '
    'a sampling answer {"text": "..."} or {"result": {...}}, a roots answer {"roots": ["file:///..."]}.'
)


class AnswersError(ValueError):
    """Answers that cannot be used; the message is one sentence naming `where` they came from."""


class ElicitAnswer(BaseModel):
    """`{"action": "accept", "content": {...}}`: what the person did with the form."""

    model_config = ConfigDict(extra="forbid")
    action: Literal["accept", "decline", "cancel"]
    content: dict[str, str | int | float | bool | list[str] | None] | None = None
    """What MCP's `ElicitResult.content` can hold: flat values (a nested object is refused
    here, where the answers are read, not as an error from inside the client session)."""
    kind: Literal["elicit"] = "elicit"


class SampleAnswer(BaseModel):
    """`{"text": "..."}`, or `{"result": {...}}`: what the client's LLM would have returned.

    `text` is the common case (one text block); `result` is a whole `CreateMessageResult`
    in its wire form, for anything else (images, tool use, a stop reason).
    """

    model_config = ConfigDict(extra="forbid")
    text: str | None = None
    result: dict[str, Any] | None = None
    model: str = "mcpdeps-call"
    kind: Literal["sample"] = "sample"

    @model_validator(mode="after")
    def _one_of(self) -> SampleAnswer:
        if (self.text is None) == (self.result is None):
            raise ValueError('a sampling answer is {"text": "..."} or {"result": {...}}')
        return self

    def wire(self) -> dict[str, Any]:
        """The `CreateMessageResult` this answer stands for, as JSON (the callbacks validate it)."""
        if self.result is not None:
            return self.result
        text = {"type": "text", "text": self.text}
        return {"role": "assistant", "content": text, "model": self.model, "stopReason": "endTurn"}


class RootsAnswer(BaseModel):
    """`{"roots": ["file:///srv/data", "./docs"]}`: URIs, or paths made absolute from a base folder."""

    model_config = ConfigDict(extra="forbid")
    roots: list[str]
    kind: Literal["list_roots"] = "list_roots"


Answer = ElicitAnswer | SampleAnswer | RootsAnswer


class AnswersFile(RootModel[dict[str, Answer]]):
    """All the answers: resolver name or `module:qualname` to its answer."""

    def find(self, resolver_id: str | None, kind: QuestionKind) -> tuple[str, Answer] | None:
        """The answer recorded for a resolver, or for an unknown resolver the only one of this kind.

        `resolver_id` is the SDK's wire key (`module:qualname`, maybe `#n`-suffixed for
        closures); a key matches it whole, without the suffix, by qualname, or by the
        function's own name.
        """
        if resolver_id is None:
            same_kind = [(key, answer) for key, answer in self.root.items() if answer.kind == kind]
            return same_kind[0] if len(same_kind) == 1 else None
        base = resolver_id.split("#", 1)[0]
        qualname = base.split(":", 1)[-1]
        for candidate in (resolver_id, base, qualname, qualname.rsplit(".", 1)[-1]):
            if candidate in self.root:
                return candidate, self.root[candidate]
        return None


def _location(loc: tuple[int | str, ...]) -> str:
    key = next((str(part) for part in loc if isinstance(part, str)), "")
    return f"answer for {key!r}" if key else "the answers"


def parse_answers(raw: object, where: str, base: Path) -> AnswersFile:
    """Validate decoded answers (`where` names them in errors); relative roots become URIs under `base`."""
    if not isinstance(raw, dict):
        raise AnswersError(
            f"{where} must hold a JSON object keyed by resolver name, like "
            '{"confirm_backorder": {"action": "accept", "content": {"confirm": true}}}.'
        )
    try:
        answers = AnswersFile.model_validate(raw)
    except ValidationError as exc:
        keys = sorted({_location(err["loc"]) for err in exc.errors()})
        raise AnswersError(f"{where} has an answer of no known shape ({', '.join(keys)}). {SHAPES}") from exc
    for answer in answers.root.values():
        if isinstance(answer, RootsAnswer):
            answer.roots = [_as_uri(root, base) for root in answer.roots]
    return answers


def read_answers_file(path: Path) -> AnswersFile:
    """Read and validate an answers file (bounded, no links followed); `AnswersError` says what is wrong."""
    from . import bounded_read

    try:
        raw = bounded_read.read_json(path, f"the answers file {path}")
    except bounded_read.Unreadable as exc:
        raise AnswersError(exc.sentence()) from exc
    return parse_answers(raw, f"The answers file {path}", path.parent)


def _as_uri(root: str, base: Path) -> str:
    """A root as a URI: kept when it has a scheme, otherwise a path relative to `base`."""
    if "://" in root:
        return root
    return (base / root).resolve().as_uri()


def content_problems(content: dict[str, Any] | None, schema: dict[str, Any]) -> str | None:
    """Why accepted content does not fit the form the server sent (None when it fits)."""
    if content is None:
        return "it accepts but gives no content"
    from jsonschema import Draft202012Validator

    errors = sorted(Draft202012Validator(schema).iter_errors(content), key=lambda e: list(e.path))
    return "; ".join(e.message for e in errors) or None


def _example_value(prop: dict[str, Any]) -> Any:
    """A plausible value for one form property, to show in an error message."""
    if "default" in prop:
        return prop["default"]
    for key in ("enum", "oneOf"):
        if prop.get(key):
            first = prop[key][0]
            return first["const"] if isinstance(first, dict) else first
    kind = prop.get("type")
    if kind == "boolean":
        return True
    if kind in ("integer", "number"):
        return prop.get("minimum", 1)
    return [] if kind == "array" else "..."


def answer_key(resolver_id: str | None) -> str:
    """The shortest key that answers this resolver in an answers file: the function's own name."""
    return (resolver_id or "resolver").split("#", 1)[0].rsplit(":", 1)[-1].rsplit(".", 1)[-1]


def example_entry(resolver_id: str | None, kind: QuestionKind, schema: dict[str, Any] | None = None) -> str:
    """An answers-file entry for this resolver's question, as JSON, for a message that asks for one."""
    import json

    return json.dumps({answer_key(resolver_id): example_answer(kind, schema)})


def example_answer(kind: QuestionKind, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """An answer of the right shape; for a form, with content that fits it."""
    if kind == "sample":
        return {"text": "..."}
    if kind == "list_roots":
        return {"roots": ["file:///..."]}
    properties = (schema or {}).get("properties", {})
    return {"action": "accept", "content": {name: _example_value(p) for name, p in properties.items()}}


def content_text(content: Any) -> str:
    """Text of one sampling content block (or of a list of them); other media by their type."""
    if isinstance(content, list):
        return "\n".join(content_text(part) for part in content)
    text = getattr(content, "text", None)
    if isinstance(text, str):
        return text
    return f"[{getattr(content, 'type', 'content')} {getattr(content, 'mime_type', '') or ''}]".replace(
        " ]", "]"
    )
