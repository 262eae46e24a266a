"""`prefilter.lines_in`: the lines of a module holding one of some names (the registration
scan's tokens, the functions whose call sites are looked for); `prefilter.holding`: the
statements of a body holding such lines, found by bisection, as `holds` tells them one by one.

Its pattern writes the names' common prefixes once (`setup_(?:1|2)`); it must find exactly
the lines that one alternative per name, longest first, finds: on random names and texts
drawn from a few characters (so that names share prefixes, contain one another and overlap
in the text), and on names that nest deeper than `re` can parse groups.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from mcpdeps.resolver_core.prefilter import holding, holds, lines_in
from mcpdeps.resolver_core.source import ParsedModule

_CHARACTERS = "ab_(.\n"
"""Few enough that names share prefixes and meet in the text; `(` and `.` need escaping, and
`\n` makes a name span lines."""


def _module(text: str) -> ParsedModule:
    return ParsedModule("m", Path("m.py"), "m.py", Path(), False, text=text)


def _plain_lines(text: str, tokens: list[str]) -> list[int]:
    """The lines where one alternative per name, longest first, matches."""
    pattern = re.compile("|".join(map(re.escape, sorted(tokens, key=len, reverse=True))))
    found: list[int] = []
    for match in pattern.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        if not found or found[-1] != line:
            found.append(line)
    return found


@settings(max_examples=400, deadline=None)
@given(
    tokens=st.lists(st.text(_CHARACTERS, max_size=6), max_size=12),
    text=st.text(_CHARACTERS, max_size=200),
)
def test_the_prefix_tree_finds_the_lines_a_plain_alternation_finds(tokens: list[str], text: str) -> None:
    assert lines_in(_module(text), tokens) == _plain_lines(text, tokens)


def test_names_sharing_a_prefix_are_found_on_their_own_lines() -> None:
    names = [f"setup_{n}" for n in range(150)] + ["register", "register_tools", "expose"]
    text = "".join(f"x = {name}(mcp)\nsetup_\n" for name in reversed(names))
    module = _module(text)
    assert lines_in(module, names) == _plain_lines(text, names) == list(range(1, 2 * len(names), 2))


def test_names_nested_deeper_than_re_parses_groups_are_still_found() -> None:
    """`a`, `aa`, `aaa`...: one group a level; past a few hundred, `re` would run out of stack."""
    names = ["a" * size + "b" for size in range(1, 600)] + ["x" * 5000]
    text = "".join(f"{name}\nc\n" for name in names[::7]) + "a" * 700 + "b\n" + "x" * 5001
    assert lines_in(_module(text), names) == _plain_lines(text, names)


_BODY = """\
import os
a = 1; b = f(a)


@deco
@other(
    1,
)
def g(x):
    if x:
        return h(x)

    # a comment
    return 2
class K:
    y = 1; z = 2
    def m(self): return f(self)
c = [
    1,
]
"""


@given(st.lists(st.integers(min_value=0, max_value=_BODY.count("\n") + 2), unique=True))
@settings(max_examples=300, deadline=None)
def test_holding_finds_the_statements_holds_finds(lines: list[int]) -> None:
    tree = ast.parse(_BODY)
    bodies = [n.body for n in ast.walk(tree) if isinstance(getattr(n, "body", None), list)]
    wanted = sorted(lines)
    for body in bodies:
        assert list(holding(body, wanted)) == [stmt for stmt in body if holds(stmt, wanted)]
