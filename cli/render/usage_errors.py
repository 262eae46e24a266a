"""Usage errors said as a person would say them.

typer checks values with pydantic and passes its message on: `--format xml` answered
`Value error, 'xml' is not one of 'full', 'concise', 'json', 'sarif', 'github'.` Each
option's check is wrapped here so that the message reads `must be one of full, concise,
json, sarif or github, not 'xml'`, with a did-you-mean when the value is a near miss
(`cli/app.py` wraps each option's check with it: typer stays in the command modules).
"""

from __future__ import annotations

import re

from ...resolver_core.suggest import closest

_NOT_ONE_OF = re.compile(r"^(?:Value error, )?('(?:[^'\\]|\\.)*') is not one of (.+)\.$")


def plainly(message: str) -> str:
    """The message without pydantic's wording: choices listed as words, the value last."""
    found = _NOT_ONE_OF.match(message)
    if found is None:
        return message.removeprefix("Value error, ")
    value, listed = found.groups()
    choices = [c.strip().strip("'") for c in listed.split(",")]
    words = ", ".join(choices[:-1]) + f" or {choices[-1]}" if len(choices) > 1 else choices[0]
    close = closest(value.strip("'"), choices)
    hint = f" (did you mean {close!r}?)" if close is not None else ""
    return f"must be one of {words}, not {value}{hint}"
