"""A recorded answer as the result the SDK's client callback returns: one conversion for
`mcpdeps call` (`cli/call/questions.py`) and `mcpdeps.testing` (`testing/answering.py`).

Both answer the same three questions (a form, a sampling request, the roots) from the
answers format of `answers.py`; what differs between them is only where an answer comes
from and how a refusal is worded, so the turning of an answer into the SDK's types lives
here once. It imports the SDK's types (lazily, as `live.py` does): only the two runners,
which run the SDK anyway, import this module; the static front ends never do.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .answers import SampleAnswer

if TYPE_CHECKING:
    from mcp_types import (
        CreateMessageRequestParams,
        CreateMessageResult,
        CreateMessageResultWithTools,
        ElicitRequestParams,
        ElicitResult,
        ErrorData,
        ListRootsResult,
    )


class SamplingMismatch(ValueError):
    """A sampling answer that is not the result the request expects; the runners word the sentence."""

    def __init__(self, expected: str, problems: str) -> None:
        super().__init__(f"not a {expected} ({problems})")
        self.expected = expected
        self.problems = problems


def form_schema(params: ElicitRequestParams) -> dict[str, Any] | None:
    """The form a form-mode elicitation asks (its `requestedSchema`); None in URL mode, which no
    recorded answer or terminal form can answer."""
    from mcp_types import ElicitRequestFormParams

    return dict(params.requested_schema) if isinstance(params, ElicitRequestFormParams) else None


def elicit_result(action: str, content: dict[str, Any] | None) -> ElicitResult:
    """The form's answer; content goes with an accept only, as the SDK's result allows."""
    from mcp_types import ElicitResult

    return ElicitResult.model_validate({"action": action, "content": content if action == "accept" else None})


def sampling_result(
    answer: SampleAnswer, params: CreateMessageRequestParams
) -> CreateMessageResult | CreateMessageResultWithTools:
    """The answer as the result the request expects: `...WithTools` when the request offers
    tools, as the SDK's own check (`wants_sampling_tools`) decides; `SamplingMismatch` if it
    does not validate."""
    from mcp.server.validation import wants_sampling_tools
    from mcp_types import CreateMessageResult, CreateMessageResultWithTools
    from pydantic import ValidationError

    expected = (
        CreateMessageResultWithTools
        if wants_sampling_tools(params.tools, params.tool_choice)
        else CreateMessageResult
    )
    try:
        return expected.model_validate(answer.wire())
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise SamplingMismatch(expected.__name__, problems) from exc


def roots_result(uris: Sequence[str]) -> ListRootsResult:
    """The roots, each named by its last path segment (what a client shows for a folder)."""
    from mcp_types import ListRootsResult, Root
    from pydantic import FileUrl

    return ListRootsResult(roots=[Root(uri=FileUrl(uri), name=Path(uri).name or None) for uri in uris])


def refusal(message: str) -> ErrorData:
    """The error a callback returns to refuse a question; the SDK raises it in the server's call."""
    from mcp_types import INVALID_REQUEST, ErrorData

    return ErrorData(code=INVALID_REQUEST, message=message)
