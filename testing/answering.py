"""The in-memory client's elicitation, sampling and roots callbacks: scripted answers, recorded in order.

Answers are the `mcpdeps call --answers` format (`resolver_core/answers.py`), looked up by
the asking resolver: on 2026-07-28 the SDK keys each question by its resolver's wire key;
on a legacy connection the question is a bare request sent right after a resolver returned
its `Elicit`/`Sample`/`ListRoots`, and the stand-ins (`rewiring.py`) saw which one. A
question nothing answers refuses the request and is kept as an `UnansweredQuestion`, which
the client raises once the SDK has unwound: the test fails with the question's text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..resolver_core.answer_results import (
    SamplingMismatch,
    elicit_result,
    form_schema,
    refusal,
    roots_result,
    sampling_result,
)
from ..resolver_core.answers import (
    AnswersFile,
    ElicitAnswer,
    QuestionKind,
    RootsAnswer,
    SampleAnswer,
    answer_key,
    content_problems,
    content_text,
    example_entry,
)

if TYPE_CHECKING:
    from mcp.client import ClientRequestContext
    from mcp_types import (
        CreateMessageRequestParams,
        CreateMessageResult,
        CreateMessageResultWithTools,
        ElicitRequestParams,
        ElicitResult,
        ErrorData,
        ListRootsResult,
    )

    from .rewiring import RunLog

_ASKS: dict[QuestionKind, str] = {
    "elicit": "asks the user",
    "sample": "asks the client's LLM",
    "list_roots": "asks for the client's roots",
}


class UnansweredQuestion(AssertionError):
    """A resolver asked something the test gave no usable answer for."""


@dataclass(frozen=True, slots=True)
class Question:
    """One question a resolver asked during a call, and the answer the test gave."""

    resolver: str
    """The asker's id, `module:qualname`."""
    kind: QuestionKind
    text: str
    """The elicitation's message, the last sampling message, or "the client's roots"."""
    answer: dict[str, Any]
    """The answer, in the answers format."""

    @property
    def resolver_name(self) -> str:
        return answer_key(self.resolver)


@dataclass(slots=True)
class Answerer:
    """The callbacks of one test client; `start_call` resets what one call records."""

    log: RunLog
    answers: tuple[AnswersFile, ...] = ()
    """Where answers are looked up, first layer first: the call's own, then the client's."""
    wire_ids: dict[str, str] = field(default_factory=dict)
    questions: list[Question] = field(default_factory=list)
    failure: UnansweredQuestion | None = None

    def start_call(self, answers: tuple[AnswersFile, ...], wire_ids: dict[str, str]) -> None:
        self.answers, self.wire_ids = answers, wire_ids
        self.questions, self.failure = [], None
        self.log.last_asker = None

    def _asker(self, context: ClientRequestContext) -> str:
        key = context.request_id
        if isinstance(key, str) and key in self.wire_ids:
            return self.wire_ids[key]
        return self.log.last_asker or "(a resolver)"

    def _answer(self, asker: str, kind: QuestionKind, text: str, schema: dict[str, Any] | None = None) -> Any:
        found = next(filter(None, (layer.find(asker, kind) for layer in self.answers)), None)
        if found is None:
            example = example_entry(asker, kind, schema)
            raise UnansweredQuestion(
                f"{asker} {_ASKS[kind]}: {text!r}, and the test gives no answer for it. "
                f"Give one, e.g. answers={example}."
            )
        key, answer = found
        if answer.kind != kind:
            raise UnansweredQuestion(
                f"{asker} {_ASKS[kind]}: {text!r}, but the test's answer {key!r} is a "
                f"{answer.kind.replace('_', ' ')} answer."
            )
        return answer

    def _refuse(self, error: UnansweredQuestion) -> ErrorData:
        self.failure = self.failure or error
        return refusal(str(error))

    async def elicit(
        self, context: ClientRequestContext, params: ElicitRequestParams
    ) -> ElicitResult | ErrorData:
        asker = self._asker(context)
        schema = form_schema(params)
        if schema is None:
            return self._refuse(
                UnansweredQuestion(f"{asker} asks a URL-mode elicitation; tests answer forms.")
            )
        try:
            answer: ElicitAnswer = self._answer(asker, "elicit", params.message, schema)
            problems = content_problems(answer.content, schema) if answer.action == "accept" else None
            if problems:
                raise UnansweredQuestion(
                    f"The test's answer to {asker} ({params.message!r}) does not fit its form: {problems}."
                )
        except UnansweredQuestion as error:
            return self._refuse(error)
        recorded = answer.model_dump(exclude={"kind"}, exclude_none=True)
        self.questions.append(Question(asker, "elicit", params.message, recorded))
        return elicit_result(answer.action, answer.content)

    async def sample(
        self, context: ClientRequestContext, params: CreateMessageRequestParams
    ) -> CreateMessageResult | CreateMessageResultWithTools | ErrorData:
        asker = self._asker(context)
        text = content_text(params.messages[-1].content) if params.messages else ""
        try:
            answer: SampleAnswer = self._answer(asker, "sample", text)
            try:
                result = sampling_result(answer, params)
            except SamplingMismatch as exc:
                raise UnansweredQuestion(f"The test's sampling answer to {asker} is {exc}.") from exc
        except UnansweredQuestion as error:
            return self._refuse(error)
        given = answer.model_dump(include={"text", "result"}, exclude_none=True)
        self.questions.append(Question(asker, "sample", text, given))
        return result

    async def list_roots(self, context: ClientRequestContext) -> ListRootsResult | ErrorData:
        asker = self._asker(context)
        try:
            answer: RootsAnswer = self._answer(asker, "list_roots", "the client's roots")
        except UnansweredQuestion as error:
            return self._refuse(error)
        self.questions.append(Question(asker, "list_roots", "the client's roots", {"roots": answer.roots}))
        return roots_result(answer.roots)
