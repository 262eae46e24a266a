"""What a `Sample(...)` question asks, in words: its prompt and `max_tokens`, not the call's source.

The call as written (`[SamplingMessage(role="user", content=TextContent(type="text", text=p…`)
says nothing at any width. Here the messages are read from the syntax tree: each message's
role and text (a literal, an f-string, or the expression that builds it; a local name is
followed to its one assignment in the resolver), the system prompt and the token limit.
Pure `ast`: both builders (static and live) fill `Question.prompt` with it, so the wire
between the runner and mcpdeps carries plain text, never syntax trees.
"""

from __future__ import annotations

import ast
from dataclasses import field
from typing import TYPE_CHECKING

from .records import record

if TYPE_CHECKING:
    from .model import Question


@record
class SampleSummary:
    """What a resolver's `Sample` asks the client's model, as far as the source spells it."""

    messages: list[tuple[str, str]] = field(default_factory=list)
    """(role, text or the expression of the text), in order."""
    system_prompt: str | None = None
    max_tokens: str | None = None


def fill_sample(question: Question, call: ast.Call, function: ast.AST | None) -> None:
    """Put the prompt of `call` (a `Sample(...)` in `function`) on the question."""
    summary = summarize_sample(call, function)
    question.prompt = summary.messages
    question.system_prompt = summary.system_prompt
    question.max_tokens = summary.max_tokens


def summarize_sample(call: ast.Call, function: ast.AST | None = None) -> SampleSummary:
    """The prompt of `Sample(messages, max_tokens=..., system_prompt=...)`."""
    assignments = _single_assignments(function)
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    messages = call.args[0] if call.args else keywords.get("messages")
    max_tokens = call.args[1] if len(call.args) > 1 else keywords.get("max_tokens")
    system = keywords.get("system_prompt")
    return SampleSummary(
        messages=_messages(_follow(messages, assignments), assignments) if messages is not None else [],
        system_prompt=_text(system, assignments) if system is not None else None,
        max_tokens=ast.unparse(max_tokens) if max_tokens is not None else None,
    )


def _single_assignments(function: ast.AST | None) -> dict[str, ast.expr]:
    """Local names assigned exactly once in the function (`text = f"..."`): what they hold."""
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return {}
    found: dict[str, list[ast.expr]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            found.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            found.setdefault(node.target.id, []).append(node.value)
    return {name: values[0] for name, values in found.items() if len(values) == 1}


def _follow(node: ast.expr, assignments: dict[str, ast.expr]) -> ast.expr:
    return assignments.get(node.id, node) if isinstance(node, ast.Name) else node


def _text(node: ast.expr, assignments: dict[str, ast.expr]) -> str:
    node = _follow(node, assignments)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return repr(node.value)
    return ast.unparse(node)


def _messages(node: ast.expr, assignments: dict[str, ast.expr]) -> list[tuple[str, str]]:
    if isinstance(node, ast.List | ast.Tuple):
        return [m for item in node.elts for m in _messages(_follow(item, assignments), assignments)]
    if isinstance(node, ast.Call) and _called(node) == "SamplingMessage":
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        role = keywords.get("role")
        content = keywords.get("content")
        shown_role = role.value if isinstance(role, ast.Constant) and isinstance(role.value, str) else "?"
        if content is None:
            return [(shown_role, "?")]
        content = _follow(content, assignments)
        if isinstance(content, ast.Call) and _called(content) == "TextContent":
            text = next((k.value for k in content.keywords if k.arg == "text"), None)
            return [(shown_role, _text(text, assignments) if text is not None else "?")]
        return [(shown_role, ast.unparse(content))]
    return [("user", _text(node, assignments))]  # a plain string or an expression building the list


def _called(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
