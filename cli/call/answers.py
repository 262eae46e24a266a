"""`--answers FILE`: the shared answers format (`resolver_core/answers.py`) read from a file."""

from __future__ import annotations

from pathlib import Path

from ...resolver_core import bounded_read
from ...resolver_core.answers import (
    Answer,
    AnswersError,
    AnswersFile,
    ElicitAnswer,
    QuestionKind,
    RootsAnswer,
    SampleAnswer,
    example_answer,
    parse_answers,
)
from ..errors import UserError

__all__ = [
    "Answer",
    "AnswersFile",
    "ElicitAnswer",
    "QuestionKind",
    "RootsAnswer",
    "SampleAnswer",
    "example_answer",
    "load_answers",
]


def load_answers(path: Path) -> AnswersFile:
    """Read and validate an answers file; every problem becomes a sentence (exit 2)."""
    try:
        raw = bounded_read.read_json(path, f"the answers file {path}")
    except bounded_read.Unreadable as exc:
        raise UserError(exc.sentence()) from exc
    try:
        return parse_answers(raw, f"The answers file {path}", path.parent)
    except AnswersError as exc:
        raise UserError(str(exc)) from exc
