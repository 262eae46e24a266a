"""The engine's refusal of a request, apart from the engine (`lint_rules.api`).

Every command line imports it at start-up (`cli/errors.py`: a `UserError` is one), while a
replayed `lint` report needs nothing else of the engine; here it costs no import of the
engine's requests and their dataclasses.
"""

from __future__ import annotations


class RequestError(ValueError):
    """A request the engine cannot serve; the message is one sentence for the user, as is."""
