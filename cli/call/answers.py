"""`--answers FILE`: the shared answers format (`resolver_core/answers.py`) read from a file."""

from __future__ import annotations

from pathlib import Path

from ...resolver_core.answers import (
    Answer,
    AnswersError,
    AnswersFile,
    ElicitAnswer,
    QuestionKind,
    RootsAnswer,
    SampleAnswer,
    example_answer,
    read_answers_file,
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
        return read_answers_file(path)
    except AnswersError as exc:
        raise UserError(str(exc)) from exc
