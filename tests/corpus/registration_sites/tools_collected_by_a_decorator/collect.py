"""The list of tool functions, filled as the tool modules are imported."""
from collections.abc import Callable
from typing import Any

TOOLS: list[Callable[..., Any]] = []


def journal_tool(fn: Callable[..., Any]) -> Callable[..., Any]:
    TOOLS.append(fn)
    return fn
