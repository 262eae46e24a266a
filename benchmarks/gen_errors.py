"""Seeded errors for the generated trees: tools and resolvers the SDK refuses or the linter warns about.

A tree that reports nothing lets "the reports are identical" compare two empty lists, and a
verdict lost by one path (slices, workers, the cache, one file alone) goes unseen. So a share
of the modules carry one error each, of several codes, in the places published servers make
them: a tool's own signature (`TOOL_ERRORS`), and a resolver in a shared module that tools of
other modules run (`RESOLVER_ERRORS`: the diagnostic lands in the resolver's file, far from
the registration that makes it an error).

Every erroneous tool has exactly one problem, because the SDK reports only the first one per
tool: `tests/test_generated_sdk_agrees.py` holds the linter's registration errors (`MCPD0xx`)
to what the real SDK raises when the tree's entry point starts it. The draws come from a random
stream of their own, so a tree written with a rate of 0 is byte for byte what it was before
errors existed (the benchmarks' figures depend on those trees).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

TOOL_ERRORS: dict[str, str] = {
    "MCPD003": "a `Resolve` wrapped in `| None`",
    "MCPD006": "a parameter named with a leading underscore",
    "MCPD007": "`Resolve` of a constant, not a callable",
    "MCPD009": "`Resolve` of a name nothing binds (the hints cannot be evaluated)",
    "MCPD005": "resolved parameters and an `InputRequiredResult` return",
    "MCPD008": "`@server.tool` without parentheses",
    "MCPD110": "a tool name another module already registered on the same server",
}
"""Errors in a tool's own registration (code: what is wrong)."""

NEEDS_SERVER = frozenset({"MCPD008", "MCPD110"})
"""Errors written on the server's own decorator, which a decorator of another module hides."""

RESOLVER_ERRORS: dict[str, str] = {
    "MCPD002": "a resolver parameter naming no tool argument",
    "MCPD001": "two resolvers depending on each other",
    "MCPD004": "a resolver returning two question arms",
    "MCPD106": "a positional-only resolver parameter (every call crashes)",
}
"""Errors in a shared resolver (`bad_N` of a `deps` module), reported where tools run it."""


@dataclass(frozen=True)
class Snippet:
    """One seeded tool: `module` is module-level code it needs (placed before any registration),
    `tool` the decorated function, written with `deco` and indented by the caller."""

    code: str
    module: str
    tool: str


class Errors:
    """Which modules carry an error, and its code: a share `rate` of the tool modules get one
    erroneous tool, the same share of resolver modules one erroneous resolver, which every tool
    module importing that resolver module runs. The codes come round in a shuffled cycle, so a
    small tree has every one of them."""

    def __init__(self, rate: float, seed: str) -> None:
        self.rate = rate
        self.rng = random.Random(f"errors-{seed}")
        self.bad_resolvers: dict[int, str] = {}
        """Index of a `deps` module -> the code of its `bad_N` resolver."""
        self._resolver_codes = self._cycle(RESOLVER_ERRORS)
        self._tool_codes = self._cycle(TOOL_ERRORS)

    def _cycle(self, codes: dict[str, str]) -> Iterator[str]:
        order = sorted(codes)
        self.rng.shuffle(order)
        return itertools.cycle(order)

    def resolver(self, i: int) -> str:
        """Module-level code of `deps` module `i`'s erroneous resolver, or "" (none drawn)."""
        if not self.rate or self.rng.random() >= self.rate:
            return ""
        code = next(self._resolver_codes)
        self.bad_resolvers[i] = code
        return _BAD_RESOLVERS[code].format(i=i)

    def tools(self, i: int, deco: str, on: str | None, deps: Sequence[int]) -> list[Snippet]:
        """The erroneous tools of tool module `i`: maybe one of its own, and one running each bad
        resolver of the `deps` modules it imports (as `d<index>`). `deco` registers a tool, `on`
        is the server's expression (None when `deco` is another module's decorator)."""
        if not self.rate:
            return []
        found = [
            Snippet(self.bad_resolvers[j], "", _USES_BAD.format(deco=deco, i=i, j=j))
            for j in deps
            if j in self.bad_resolvers
        ]
        if self.rng.random() < self.rate:
            code = next(self._tool_codes)
            while on is None and code in NEEDS_SERVER:
                code = next(self._tool_codes)
            module, tool = _BAD_TOOLS[code]
            found.insert(0, Snippet(code, module.format(i=i), tool.format(deco=deco, on=on, i=i)))
        return found


_BAD_RESOLVERS = {
    "MCPD002": '''

def bad_{i}(account_id: str) -> str:
    """Reads an `account_id` no tool running it takes."""
    return account_id
''',
    "MCPD001": """

def bad_{i}(back: Annotated[int, Resolve(loop_{i})]) -> int:
    return back + 1


def loop_{i}(forth: Annotated[int, Resolve(bad_{i})]) -> int:
    return forth - 1
""",
    "MCPD004": """

async def bad_{i}(user_id: str) -> Elicit[Plan{i}] | Elicit[User{i}]:
    return Elicit(f"Approve {{user_id}}?", Plan{i})
""",
    "MCPD106": """

def bad_{i}(user_id: str, /) -> str:
    return user_id
""",
}

_USES_BAD = '''

{deco}
def runs_bad_{i}_{j}(query: str, user_id: str, value: Annotated[str, Resolve(d{j}.bad_{j})]) -> str:
    """Runs a shared resolver of another module."""
    return query
'''

_BAD_TOOLS: dict[str, tuple[str, str]] = {
    "MCPD003": (
        "\n\ndef who_{i}(user_id: str) -> str:\n    return user_id\n",
        "\n\n{deco}\ndef bad_{i}(query: str, who: Annotated[str, Resolve(who_{i})] | None = None) -> str:\n"
        "    return query\n",
    ),
    "MCPD006": ("", '\n\n{deco}\ndef bad_{i}(query: str, _token: str = "") -> str:\n    return query\n'),
    "MCPD007": (
        "\n\nPAGE_{i} = 25\n",
        "\n\n{deco}\ndef bad_{i}(query: str, page: Annotated[int, Resolve(PAGE_{i})]) -> str:\n    return query\n",
    ),
    "MCPD009": (
        "",
        "\n\n{deco}\ndef bad_{i}(query: str, row: Annotated[int, Resolve(lookup_row_{i})]) -> str:\n"
        "    return query\n",
    ),
    "MCPD005": (
        "\n\nfrom mcp_types import InputRequiredResult\n\n\ndef asker_{i}(query: str) -> str:\n    return query\n",
        "\n\n{deco}\ndef bad_{i}(query: str, who: Annotated[str, Resolve(asker_{i})]) -> str | InputRequiredResult:\n"
        "    return query\n",
    ),
    "MCPD008": ("", "\n\n@{on}.tool\ndef bad_{i}(query: str) -> str:\n    return query\n"),
    "MCPD110": ("", '\n\n@{on}.tool(name="search")\ndef bad_{i}(query: str) -> str:\n    return query\n'),
}
"""Per code: module-level code and the erroneous tool `bad_<module>`."""
