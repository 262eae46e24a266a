"""Answer the questions resolvers ask during one `mcpdeps call`, and keep a transcript of them.

This object is the SDK `Client`'s elicitation, sampling and list-roots callbacks.
Each question is answered, in this order, from the `--answers` file, from a flag
(`--sample-reply`, `--root`), or from a person (`Person`: the terminal's prompts in
`prompts.py`; an editor's dialog tomorrow). Without a person and without a recorded
answer the call cannot go on: the callback refuses the request
and keeps a `UserError` naming the resolver, which the command raises once the SDK
has unwound, so the user sees a sentence instead of the protocol error it caused.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

import anyio
import anyio.to_thread

from ...resolver_core.answer_results import (
    SamplingMismatch,
    elicit_result,
    form_schema,
    refusal,
    roots_result,
    sampling_result,
)
from ...resolver_core.answers import content_problems, content_text, example_entry
from ...resolver_core.records import record, slotted
from ..errors import UserError
from .answers import (
    AnswersFile,
    ElicitAnswer,
    QuestionKind,
    RootsAnswer,
    SampleAnswer,
)
from .form import FormOutcome
from .resolvers import ResolverIndex

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

AnsweredBy = Literal["terminal", "answers file", "--sample-reply", "--root", "current folder"]
_T = TypeVar("_T")

_ANSWER_WORDS: dict[QuestionKind, str] = {
    "elicit": "a form answer",
    "sample": "a sampling answer",
    "list_roots": "a roots answer",
}
_KIND_WORDS: dict[QuestionKind, str] = {
    "elicit": "the user a question",
    "sample": "the client's LLM for a completion",
    "list_roots": "for the client's roots",
}


@record
class AskedQuestion:
    """One question in the transcript: who asked what, and how it was answered."""

    resolver: str | None
    kind: QuestionKind
    question: str
    answered_by: AnsweredBy
    answer: str


class Person(Protocol):
    """Whoever answers what nothing recorded answers. Called in a worker thread, one question at a time."""

    def fill_form(self, asker: str, message: str, schema: Mapping[str, Any]) -> FormOutcome:
        """The elicitation `message` and the form `schema` (a `requestedSchema`), answered."""
        ...

    def complete(self, asker: str, params: CreateMessageRequestParams) -> str:
        """The completion the client's LLM would give to the sampling request `params`."""
        ...


@slotted
class AnswerSources:
    """Where answers come from, besides the person."""

    answers: AnswersFile | None = None
    sample_reply: str | None = None
    roots: Sequence[Path] = ()


@slotted
class QuestionAnswerer:
    """The `Client` callbacks for one call; `transcript` and `failure` are read afterwards."""

    sources: AnswerSources
    person: Person | None = None
    """None: nobody to ask (no terminal), so an unanswered question fails the call with a sentence."""
    resolvers: ResolverIndex | None = None
    transcript: list[AskedQuestion] = field(default_factory=list)
    failure: UserError | None = None
    used_answers: set[str] = field(default_factory=set)
    """Keys of the answers file that answered a question (the rest are likely typos)."""
    _asking: anyio.Lock = field(default_factory=anyio.Lock)

    def _asker(
        self, ctx: ClientRequestContext, kind: QuestionKind, fields: Iterable[str] | None
    ) -> str | None:
        """The asking resolver's id: the input-request key on 2026-07-28, inferred on legacy."""
        key = ctx.request_id
        if isinstance(key, str) and ":" in key:
            return key
        info = self.resolvers.attribute(kind, fields) if self.resolvers is not None else None
        return info.id if info is not None else None

    def _recorded(
        self, asker: str | None, kind: QuestionKind
    ) -> ElicitAnswer | SampleAnswer | RootsAnswer | None:
        if self.sources.answers is None:
            return None
        found = self.sources.answers.find(asker, kind)
        if found is None:
            return None
        key, answer = found
        self.used_answers.add(key)
        if answer.kind != kind:
            raise UserError(
                f"The answers file's entry {key!r} is {_ANSWER_WORDS[answer.kind]}, "
                f"but {asker} asks {_KIND_WORDS[kind]}."
            )
        return answer

    def _missing(
        self, asker: str | None, kind: QuestionKind, question: str, schema: dict[str, Any] | None = None
    ) -> UserError:
        example = example_entry(asker, kind, schema)
        return UserError(
            f"The resolver {asker or '(unknown)'} asks {_KIND_WORDS[kind]} ({question!r}), but there is no "
            f"terminal to ask and no recorded answer for it. Run in a terminal, or pass --answers FILE "
            f"with an entry like {example}."
        )

    async def _ask_person(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run a blocking question to the person in a worker thread, one question at a time.

        On 2026-07-28 the SDK dispatches a round's questions concurrently; the lock
        keeps their prompts from interleaving on the one terminal.
        """
        async with self._asking:
            return await anyio.to_thread.run_sync(fn, *args, abandon_on_cancel=True)

    def _refuse(self, error: UserError) -> ErrorData:
        self.failure = self.failure or error
        return refusal(str(error))

    async def elicit(
        self, context: ClientRequestContext, params: ElicitRequestParams
    ) -> ElicitResult | ErrorData:
        """The elicitation callback: an answers-file entry, else the terminal form."""
        schema = form_schema(params)
        if schema is None:
            return self._refuse(
                UserError("A resolver asked for a URL-mode elicitation; `call` answers forms only.")
            )
        asker = self._asker(context, "elicit", schema.get("properties", {}))
        try:
            recorded = self._recorded(asker, "elicit")
            by: AnsweredBy
            if isinstance(recorded, ElicitAnswer):
                outcome = FormOutcome(
                    recorded.action, recorded.content if recorded.action == "accept" else None
                )
                _check_recorded_content(asker, outcome, schema)
                by = "answers file"
            elif self.person is not None:
                outcome = await self._ask_person(
                    self.person.fill_form, asker or "a resolver", params.message, schema
                )
                by = "terminal"
            else:
                raise self._missing(asker, "elicit", params.message, schema)
        except UserError as error:
            return self._refuse(error)
        shown = outcome.action + (f" {json.dumps(outcome.content)}" if outcome.content is not None else "")
        self.transcript.append(AskedQuestion(asker, "elicit", params.message, by, shown))
        return elicit_result(outcome.action, outcome.content)

    async def sample(
        self, context: ClientRequestContext, params: CreateMessageRequestParams
    ) -> CreateMessageResult | CreateMessageResultWithTools | ErrorData:
        """The sampling callback: an answers-file entry, `--sample-reply`, else the person types it."""
        asker = self._asker(context, "sample", None)
        question = content_text(params.messages[-1].content) if params.messages else ""
        try:
            recorded = self._recorded(asker, "sample")
            by: AnsweredBy
            if isinstance(recorded, SampleAnswer):
                answer, by = recorded, "answers file"
            elif self.sources.sample_reply is not None:
                answer, by = SampleAnswer(text=self.sources.sample_reply), "--sample-reply"
            elif self.person is not None:
                text = await self._ask_person(self.person.complete, asker or "a resolver", params)
                answer, by = SampleAnswer(text=text), "terminal"
            else:
                raise self._missing(asker, "sample", question)
            try:
                result = sampling_result(answer, params)
            except SamplingMismatch as exc:
                raise UserError(f"The sampling answer for {asker} is {exc}.") from exc
        except UserError as error:
            return self._refuse(error)
        self.transcript.append(AskedQuestion(asker, "sample", question, by, content_text(result.content)))
        return result

    async def list_roots(self, context: ClientRequestContext) -> ListRootsResult | ErrorData:
        """The roots callback: an answers-file entry, `--root` paths, else the current folder; never asks."""
        asker = self._asker(context, "list_roots", None)
        try:
            recorded = self._recorded(asker, "list_roots")
        except UserError as error:
            return self._refuse(error)
        by: AnsweredBy
        if isinstance(recorded, RootsAnswer):
            uris, by = recorded.roots, "answers file"
        elif self.sources.roots:
            uris, by = [p.resolve().as_uri() for p in self.sources.roots], "--root"
        else:
            uris, by = [Path.cwd().as_uri()], "current folder"
        self.transcript.append(AskedQuestion(asker, "list_roots", "the client's roots", by, ", ".join(uris)))
        return roots_result(uris)


def _check_recorded_content(asker: str | None, outcome: FormOutcome, schema: dict[str, Any]) -> None:
    """A recorded accept must fit the form the server sent; say which field does not."""
    if outcome.action != "accept":
        return
    if outcome.content is None:
        raise UserError(f"The answers file accepts the question of {asker} but gives no content.")
    problems = content_problems(outcome.content, schema)
    if problems:
        raise UserError(f"The answers file's content for {asker} does not fit the form it asks: {problems}.")


def unused_answers(answerer: QuestionAnswerer) -> list[str]:
    """Answers-file keys no question used: a misspelt resolver name shows up here."""
    if answerer.sources.answers is None:
        return []
    return [key for key in answerer.sources.answers.root if key not in answerer.used_answers]
