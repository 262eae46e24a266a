"""How much syntax a file may hold before it is parsed: memory bounded by what a file can declare.

`ast.parse` keeps every node of a module as a Python object, about half a kilobyte per
token: a 10 MB one-line list literal took 5 GB and a minute, 2 million lines of `pass`
2 GB, while the byte limit (`cache.MAX_BYTES`) let both through. No MCP server module (nor
a module one imports for its resolvers) comes near a million tokens (typing_extensions, a
large module, has about 19,000), so a file with more is reported as too large, like a file
over the byte limit, before anything is parsed.

Counting is cheap and itself bounded: a text shorter than the budget cannot exceed it (each
token takes at least one character), and a longer one is counted only until the budget is
passed. A string literal counts once whatever its length (generated modules embed long
data strings), an f-string by its parts (each `{...}` is syntax).
"""

from __future__ import annotations

import itertools
import re

from .patterns import compiled_when_used

MAX_TOKENS = 1_000_000
"""Tokens a parsed file may hold: about 500 MB of syntax tree at the most."""

_TOKEN = compiled_when_used(
    r"[ \t\f]*+"  # indentation and spaces go with the token after them (fewer failed searches)
    r"(?:(?<!\w)(?i:[rbu]|br|rb)?"  # a plain or bytes string literal, as one token (not `f'...'`)
    r"(?:'''(?:[^'\\]|\\.|'(?!''))*+'''"
    r'|"""(?:[^"\\]|\\.|"(?!""))*+"""'
    r"|'(?:[^'\\\n]|\\.)*+'"
    r'|"(?:[^"\\\n]|\\.)*+")'
    r"|\#[^\n]*+"  # a comment
    r"|\w++"  # a name, keyword or number
    r"|\n(?:[ \t\f\r]*+\n)*+"  # a line's end (`pass` lines), blank lines after it with it
    r"|[^\w\s])",  # an operator or delimiter
    re.S,
)


def over_budget(text: str, limit: int = MAX_TOKENS) -> bool:
    """Whether `text` holds more than `limit` tokens (a slight overcount: it is an estimate).
    Skipping to the match past the limit runs in C (`islice` over `finditer`)."""
    if len(text) <= limit:
        return False
    return next(itertools.islice(_TOKEN().finditer(text), limit, None), None) is not None


def tokens(text: str) -> int:
    """The estimated number of tokens in `text` (what `over_budget` compares with its limit)."""
    return sum(1 for _ in _TOKEN().finditer(text))
