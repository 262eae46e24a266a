"""The lines of a module that may name a server, read from its text before any walk.

`reach.Reach.follow_passed_servers` looks only at calls on lines mentioning a variable that
may hold a server: finding those variables by a pattern over the text spares walking every
call of every module.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_SERVER_WORD = re.compile(r"Server\b")
_ASSIGNED = re.compile(r"^\s*(?:\w+\.)?(\w+)\s*(?::[^=\n]*)?=[^=]")
_ANNOTATED = re.compile(r"(\w+)\s*:\s*[\"']?[\w.]*Server\b")
_MADE = re.compile(r"[(,=]\s*(\w*Server)\s*\(")
"""A server made in a call's argument (`register(MCPServer("x"))`): its class names the line."""


def server_variables(text: str) -> set[str]:
    """Names that may hold a server, by their lines: `mcp = MCPServer(...)`, `shop: ShopServer =
    ...`, `def register(server: MCPServer)`; and the class of a server made in an argument
    (`register(MCPServer("x"))`), whose lines are read as a variable's. A guess that may say
    yes too often, never no for a server created or annotated as one (a server from a
    factory call is not guessed)."""
    names: set[str] = set()
    for line in _server_lines(text):
        assigned = _ASSIGNED.match(line)
        if assigned is not None:
            names.add(assigned.group(1))
        names.update(_ANNOTATED.findall(line))
        names.update(_MADE.findall(line))
    return names


def _server_lines(text: str) -> Iterator[str]:
    """The lines (ended by "\n") holding the word-ending `Server`, found from its occurrences
    rather than by a pattern tried from the start of every line of every module."""
    at = text.find("Server")
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        line = text[start:end]
        if _SERVER_WORD.search(line, at - start):
            yield line
        at = text.find("Server", end)
