"""What the statements at the start of a tool body are: a question, something without effects, or neither.

The questions codemod (`questions.py`) moves a question only when nothing before it in the
body could change what it asks or whether it is asked; these are the judgements it relies
on, and the places (loop, branch, helper) that make a question unmovable.
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from ...resolver_core.records import slotted
from ..fixes.cst_source import dotted_name

LOGGERS = frozenset({"logger", "log", "logging", "LOGGER", "_logger", "_log", "LOG"})
LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
PURE_CALLS = frozenset(
    {"str", "int", "float", "bool", "len", "repr", "tuple", "list", "dict", "set", "sorted", "min", "max"}
)


def question_kind(call: cst.Call, contexts: Iterable[str]) -> str | None:
    """Which question a call asks through one of the `contexts` (Context variables), if any."""
    base, _, attr = dotted_name(call.func).rpartition(".")
    for ctx in contexts:
        if attr == "elicit" and base == ctx:
            return "elicit"
        if attr in ("create_message", "list_roots") and base in (
            f"{ctx}.session",
            f"{ctx}.request_context.session",
        ):
            return "sample" if attr == "create_message" else "roots"
    return None


@slotted
class Question:
    """`target = await <question>` as a whole statement of a tool body."""

    kind: str
    call: cst.Call
    target: str
    statement: cst.BaseStatement


def free_names(node: cst.CSTNode) -> set[str]:
    """Names an expression or statement reads (attributes' and keywords' names excluded)."""
    found: set[str] = set()

    class Reader(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)
            return False

        def visit_Arg(self, node: cst.Arg) -> bool:
            node.value.visit(self)
            return False

        def visit_Name(self, node: cst.Name) -> None:
            found.add(node.value)

    node.visit(Reader())
    return found


def _is_pure(node: cst.CSTNode) -> bool:
    """An expression without effects: literals, names, operators, f-strings, a few builtins."""
    if isinstance(node, cst.Await | cst.Yield | cst.Lambda | cst.NamedExpr):
        return False
    if isinstance(node, cst.Call) and dotted_name(node.func) not in PURE_CALLS:
        return False
    return all(_is_pure(child) for child in node.children)


def _is_log_line(small: cst.BaseSmallStatement, contexts: set[str]) -> bool:
    if not isinstance(small, cst.Expr):
        return False
    value = small.value.expression if isinstance(small.value, cst.Await) else small.value
    if not isinstance(value, cst.Call) or not isinstance(value.func, cst.Attribute):
        return False
    if dotted_name(value.func) == "print":
        return True
    receiver = dotted_name(value.func.value)
    method = value.func.attr.value
    logger = receiver in LOGGERS or receiver in contexts or receiver.startswith("logging.getLogger")
    return method in LOG_METHODS and logger


def effect_free(statement: cst.BaseStatement, contexts: set[str]) -> bool:
    """A statement that may run before the question without changing anything it asks."""
    if isinstance(statement, cst.ClassDef | cst.FunctionDef):
        return True
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        if isinstance(small, cst.Pass | cst.Import | cst.ImportFrom) or _is_log_line(small, contexts):
            continue
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString | cst.ConcatenatedString):
            continue
        if (
            isinstance(small, cst.Assign | cst.AnnAssign)
            and small.value is not None
            and _is_pure(small.value)
        ):
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            if all(isinstance(t, cst.Name) for t in targets):
                continue
        return False
    return True


def assigned(statement: cst.BaseStatement) -> set[str]:
    """The names a statement binds (assignments, definitions, imports)."""
    if isinstance(statement, cst.ClassDef | cst.FunctionDef):
        return {statement.name.value}
    names = set()
    if isinstance(statement, cst.SimpleStatementLine):
        for small in statement.body:
            if isinstance(small, cst.Import | cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                for alias in small.names:
                    bound = alias.asname.name if alias.asname is not None else alias.name
                    names.add(dotted_name(bound).partition(".")[0])
            elif isinstance(small, cst.Assign):
                names.update(dotted_name(t.target) for t in small.targets)
            elif isinstance(small, cst.AnnAssign):
                names.add(dotted_name(small.target))
    return names


def question_statement(statement: cst.BaseStatement, contexts: set[str]) -> Question | None:
    """`answer = await ctx.elicit(...)` (or annotated) as a whole statement."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    small = statement.body[0]
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target, value = small.targets[0].target, small.value
    elif isinstance(small, cst.AnnAssign) and small.value is not None:
        target, value = small.target, small.value
    else:
        return None
    if (
        not isinstance(target, cst.Name)
        or not isinstance(value, cst.Await)
        or not isinstance(value.expression, cst.Call)
    ):
        return None
    kind = question_kind(value.expression, contexts)
    return Question(kind, value.expression, target.value, statement) if kind else None


def argument(call: cst.Call, index: int, keyword: str) -> cst.BaseExpression | None:
    for position, arg in enumerate(call.args):
        if (arg.keyword is None and position == index and not arg.star) or (
            arg.keyword and arg.keyword.value == keyword
        ):
            return arg.value
    return None


def question_label(kind: str) -> str:
    return {"elicit": "`ctx.elicit(...)`", "sample": "`create_message(...)`", "roots": "`list_roots()`"}.get(
        kind, "question"
    )


def asked_in(function: cst.FunctionDef, contexts: set[str], nested: bool = True) -> list[cst.Call]:
    """The questions a function asks through `contexts` (and, with `nested`, its nested functions)."""
    calls: list[cst.Call] = []

    class Finder(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return nested or node is function

        def visit_Call(self, node: cst.Call) -> None:
            if question_kind(node, contexts):
                calls.append(node)

    function.visit(Finder())
    return calls


def contains(node: cst.CSTNode, target: cst.CSTNode) -> bool:
    """Whether `target` is `node` or one of its descendants (by identity; a loop, not recursion)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current is target:
            return True
        stack.extend(current.children)
    return False


def place(function: cst.FunctionDef, call: cst.Call) -> str | None:
    """Where a question sits that makes it unmovable: a loop, a branch, a nested function."""
    found: list[str] = []

    class Walker(cst.CSTVisitor):
        def __init__(self) -> None:
            self.stack: list[str] = []

        def on_visit(self, node: cst.CSTNode) -> bool:
            if node is call:
                found.extend(self.stack)
                return False
            label = _BLOCKS.get(type(node))
            if label and node is not function:
                self.stack.append(label)
            return True

        def on_leave(self, original_node: cst.CSTNode) -> None:
            if _BLOCKS.get(type(original_node)) and original_node is not function and self.stack:
                self.stack.pop()

    function.visit(Walker())
    return found[0] if found else None


_BLOCKS: dict[type, str] = {
    cst.For: "in a loop",
    cst.While: "in a loop",
    cst.ListComp: "in a loop",
    cst.GeneratorExp: "in a loop",
    cst.FunctionDef: "in a nested function",
    cst.Lambda: "in a nested function",
    cst.If: "in a branch",
    cst.Try: "in a `try` block",
    cst.With: "in a `with` block",
}
