"""Questions into resolvers: `ctx.elicit(...)` at the start of a tool body becomes `Elicit(...)`.

A tool that asks the client something before doing anything (`ctx.elicit`,
`ctx.session.create_message`, `ctx.session.list_roots`) fails on 2026-07-28 connections,
which have no back-channel. The SDK's answer is a resolver that *returns* the question
(`Elicit`, `Sample`, `ListRoots`): it asks on both protocol generations. So the question
moves into a resolver defined just before the tool, taking the tool arguments it uses by
name, and its answer becomes a resolved parameter of the tool named after the variable
that held it:

- an elicitation whose answer the body reads only as `answer.data` becomes
  `Annotated[Model, Resolve(ask)]` (and `answer.data` becomes `answer`): a decline or
  cancel aborts the call, as reading `.data` of a declined answer did;
- one whose body looks at anything else (`answer.action`, `isinstance`) keeps every
  branch as written: the parameter is `Annotated[ElicitationResult[Model], Resolve(ask)]`,
  whose members have the same `action` and `data`;
- a sample is a `CreateMessageResult` (`...WithTools` with `tools=`), roots a `ListRootsResult`.

Only statements without effects may come before the question (a docstring, a log line, a
local constant or class: the constants the question uses are copied into the resolver,
classes it uses move to module level, where the annotation can see them). A resolver runs
before the body, so a question after a side effect, in a loop or a branch, or asked by a
helper, is left where it is and reported: moving it would change what the tool does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import field

import libcst as cst

from ...resolver_core.records import slotted
from . import Note
from .names import add_param, is_context_annotation, one_per_line
from .statements import (
    Question,
    argument,
    asked_in,
    assigned,
    contains,
    effect_free,
    free_names,
    place,
    question_kind,
    question_label,
    question_statement,
)

MARKERS = {"elicit": "Elicit", "sample": "Sample", "roots": "ListRoots"}
RESULTS = {"sample": "CreateMessageResult", "roots": "ListRootsResult"}
VERBS = {"elicit": "ask", "sample": "sample_for", "roots": "roots_for"}


@slotted
class ToolConversion:
    """A tool with its questions moved: the new tool, what goes before it, what it needs imported."""

    tool: cst.FunctionDef
    before: list[cst.BaseStatement]
    imports: set[tuple[str, str]] = field(default_factory=set)
    questions: int = 0
    moved: list[cst.Call] = field(default_factory=list)
    """The question calls moved (nodes of the input tree)."""


class Refusal(Exception):
    """A question this codemod must not move; the message says why."""


class _Converter:
    """One tool's conversion; raises `Refusal` for the first question it cannot move."""

    def __init__(self, function: cst.FunctionDef, taken: set[str], module_level: bool) -> None:
        self.function = function
        self.taken = taken
        self.module_level = module_level
        params = function.params
        self.params = [*params.posonly_params, *params.params, *params.kwonly_params]
        self.contexts = {p.name.value for p in self.params if is_context_annotation(p.annotation)}
        self.result = ToolConversion(function, [])
        self.unwrapped: set[str] = set()
        """Answers the tool receives as the model itself (`answer.data` becomes `answer`)."""

    def questions(self) -> tuple[list[Question], dict[str, cst.BaseStatement], cst.BaseStatement | None]:
        """The questions at the start of the body, the effect-free statements before them
        (by the names they bind), and the first statement with effects (None if none)."""
        body = self.function.body
        found: list[Question] = []
        quiet: dict[str, cst.BaseStatement] = {}
        if not isinstance(body, cst.IndentedBlock):
            return found, quiet, None
        for statement in body.body:
            question = question_statement(statement, self.contexts)
            if question is not None:
                found.append(question)
            elif effect_free(statement, self.contexts):
                quiet.update(dict.fromkeys(assigned(statement), statement))
            else:
                return found, quiet, statement
        return found, quiet, None

    def convert(self, questions: Sequence[Question], quiet: dict[str, cst.BaseStatement]) -> ToolConversion:
        tool = self.function
        answered: dict[str, cst.BaseExpression] = {}
        hoisted: list[cst.BaseStatement] = []
        for question in questions:
            resolver, annotation, hoist = self.resolver_for(question, quiet, answered)
            answered[question.target] = annotation
            hoisted.extend(h for h in hoist if h not in hoisted)
            self.result.before.append(resolver)
            tool = self._consume(tool, question, annotation)
            self.result.questions += 1
            self.result.moved.append(question.call)
        tool = self._drop_unused_context(tool)
        tool = one_per_line(self._drop_dead_copies(tool), 0 if self.module_level else 1)
        self.result.before = [
            one_per_line(r, 0 if self.module_level else 1) if isinstance(r, cst.FunctionDef) else r
            for r in self.result.before
        ]
        self.result.before[:0] = [
            h.with_changes(leading_lines=self._blank()) for h in hoisted if isinstance(h, cst.ClassDef)
        ]
        body = tool.body
        assert isinstance(body, cst.IndentedBlock)
        kept = [s for s in body.body if not any(s.deep_equals(h) for h in hoisted)]
        self.result.tool = tool.with_changes(
            body=body.with_changes(body=kept or [cst.SimpleStatementLine([cst.Pass()])])
        )
        return self.result

    def _blank(self) -> list[cst.EmptyLine]:
        return [cst.EmptyLine(indent=False)] * (2 if self.module_level else 1)

    def resolver_for(
        self, question: Question, quiet: dict[str, cst.BaseStatement], answered: dict[str, cst.BaseExpression]
    ) -> tuple[cst.FunctionDef, cst.BaseExpression, list[cst.BaseStatement]]:
        """The question's resolver, the annotation of the tool's new parameter, the classes to hoist.

        A question whose message uses an earlier answer takes it as that answer's own
        `Annotated[..., Resolve(...)]` parameter: the SDK runs each resolver once per call."""
        if question.target.startswith("_") or question.target in {p.name.value for p in self.params}:
            raise Refusal(f"its answer is kept as `{question.target}`, which cannot be a tool parameter")
        marker_args = [
            a for a in question.call.args if not (a.keyword and a.keyword.value == "related_request_id")
        ]
        if marker_args and len(marker_args) < len(question.call.args):
            marker_args[-1] = marker_args[-1].with_changes(comma=question.call.args[-1].comma)
        marker = cst.Call(
            func=cst.Name(MARKERS[question.kind]),
            args=marker_args,
            whitespace_before_args=question.call.whitespace_before_args,
        )
        copied, hoist, names = self._needs(marker, quiet, answered)
        for earlier in sorted(names & self.unwrapped):
            marker = marker.visit(_DataToValue(earlier))  # type: ignore[assignment]
            copied = [s.visit(_DataToValue(earlier)) for s in copied]  # type: ignore[misc]
        by_name = {p.name.value: p for p in self.params}
        params = [
            cst.Param(name=cst.Name(n), annotation=by_name[n].annotation)
            for n in (p.name.value for p in self.params)
            if n in names
        ]
        params += [
            cst.Param(name=cst.Name(n), annotation=cst.Annotation(a))
            for n, a in answered.items()
            if n in names
        ]
        returns, consumed = self._types(question)
        name = self._name(question)
        resolver = cst.FunctionDef(
            name=cst.Name(name),
            params=cst.Parameters(params=params),
            body=cst.IndentedBlock(body=[*copied, cst.SimpleStatementLine([cst.Return(value=marker)])]),
            asynchronous=cst.Asynchronous(),
            returns=cst.Annotation(returns),
            leading_lines=self._blank(),
        )
        annotation = cst.Subscript(
            value=cst.Name("Annotated"),
            slice=[
                cst.SubscriptElement(
                    cst.Index(consumed), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                ),
                cst.SubscriptElement(
                    cst.Index(cst.Call(func=cst.Name("Resolve"), args=[cst.Arg(cst.Name(name))]))
                ),
            ],
        )
        self.result.imports |= {("typing", "Annotated"), ("mcp.server.mcpserver", "Resolve")}
        self.result.imports.add(("mcp.server.mcpserver", MARKERS[question.kind]))
        return resolver, annotation, hoist

    def _needs(
        self, marker: cst.Call, quiet: dict[str, cst.BaseStatement], answered: dict[str, cst.BaseExpression]
    ) -> tuple[list[cst.BaseStatement], list[cst.BaseStatement], set[str]]:
        """The statements to copy into the resolver, the classes to hoist, and the tool
        parameters and earlier answers it takes, found by following the names the question reads."""
        copied: list[cst.BaseStatement] = []
        hoist: list[cst.BaseStatement] = []
        params: set[str] = set()
        pending = list(free_names(marker))
        seen: set[str] = set()
        while pending:
            name = pending.pop()
            if name in seen:
                continue
            seen.add(name)
            if name in answered or name in {p.name.value for p in self.params}:
                params.add(name)
            elif name in quiet:
                statement = quiet[name]
                target = hoist if isinstance(statement, cst.ClassDef) else copied
                if isinstance(statement, cst.FunctionDef):
                    raise Refusal(f"it uses `{name}`, a function defined in the tool body")
                if statement not in target:
                    target.append(statement)
                pending.extend(free_names(statement))
        order = list(quiet.values())
        copied.sort(key=order.index)
        return [s.with_changes(leading_lines=[]) for s in copied], hoist, params

    def _types(self, question: Question) -> tuple[cst.BaseExpression, cst.BaseExpression]:
        """The resolver's return annotation and the type the tool receives."""
        if question.kind != "elicit":
            result = RESULTS[question.kind]
            if question.kind == "sample" and argument(question.call, -1, "tools") is not None:
                result = "CreateMessageResultWithTools"
            self.result.imports.add(("mcp.types", result))
            return cst.Name(MARKERS[question.kind]), cst.Name(result)
        schema = argument(question.call, 1, "schema")
        if not isinstance(schema, cst.Name | cst.Attribute):
            raise Refusal("its schema is not a class named in the source (the annotation needs one)")
        returns = cst.Subscript(value=cst.Name("Elicit"), slice=[cst.SubscriptElement(cst.Index(schema))])
        if self._reads_only_data(question.target):
            self.unwrapped.add(question.target)
            return returns, schema
        self.result.imports.add(("mcp.server.mcpserver", "ElicitationResult"))
        return returns, cst.Subscript(
            value=cst.Name("ElicitationResult"), slice=[cst.SubscriptElement(cst.Index(schema))]
        )

    def _reads_only_data(self, target: str) -> bool:
        uses = _Uses(target)
        self.function.body.visit(uses)
        return uses.data > 0 and uses.other == 1  # the assignment itself is the one other use

    def _name(self, question: Question) -> str:
        base = f"{VERBS[question.kind]}_{self.function.name.value.lstrip('_')}"
        for candidate in (base, f"{base}_{question.target}", *(f"{base}_{n}" for n in range(2, 100))):
            if candidate not in self.taken:
                self.taken.add(candidate)
                return candidate
        raise Refusal("no free name for its resolver")

    def _consume(
        self, tool: cst.FunctionDef, question: Question, annotation: cst.BaseExpression
    ) -> cst.FunctionDef:
        """The tool without the question's statement, with its answer as a resolved parameter."""
        body = tool.body
        assert isinstance(body, cst.IndentedBlock)
        kept = [s for s in body.body if s is not question.statement]
        if question.target in self.unwrapped:
            kept = [s.visit(_DataToValue(question.target)) for s in kept]  # type: ignore[misc]
        tool = tool.with_changes(body=body.with_changes(body=kept))
        param = cst.Param(name=cst.Name(question.target), annotation=cst.Annotation(annotation))
        return add_param(tool, param)

    def _drop_dead_copies(self, tool: cst.FunctionDef) -> cst.FunctionDef:
        """Constants and imports the resolvers took that the body no longer reads."""
        body = tool.body
        assert isinstance(body, cst.IndentedBlock)
        kept = []
        for index, statement in enumerate(body.body):
            later = cst.IndentedBlock(body=body.body[index + 1 :])
            copy = isinstance(statement, cst.SimpleStatementLine) and self._was_copied(statement)
            if copy and not (assigned(statement) & free_names(later)):
                continue
            kept.append(statement)
        return tool.with_changes(body=body.with_changes(body=kept))

    def _was_copied(self, statement: cst.BaseStatement) -> bool:
        bare = statement.with_changes(leading_lines=[])
        return any(
            bare.deep_equals(s)
            for r in self.result.before
            if isinstance(r, cst.FunctionDef)
            for s in r.body.body
        )

    def _drop_unused_context(self, tool: cst.FunctionDef) -> cst.FunctionDef:
        """The Context parameter goes when nothing in the body uses it any more."""
        read = free_names(tool.body)
        params = tool.params
        kept = {
            kind: [
                p
                for p in getattr(params, kind)
                if not (p.name.value in self.contexts and p.name.value not in read)
            ]
            for kind in ("posonly_params", "params", "kwonly_params")
        }
        if all(len(kept[k]) == len(getattr(params, k)) for k in kept):
            return tool
        changes: dict[str, object] = dict(kept)
        if not kept["kwonly_params"] and isinstance(params.star_arg, cst.ParamStar):
            changes["star_arg"] = cst.MaybeSentinel.DEFAULT
        return tool.with_changes(params=params.with_changes(**changes))


class _Uses(cst.CSTVisitor):
    """How a body uses a variable: as `name.data`, or otherwise."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.data = 0
        self.other = 0

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if isinstance(node.value, cst.Name) and node.value.value == self.name and node.attr.value == "data":
            self.data += 1
            return False
        return True

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.other += 1


class _DataToValue(cst.CSTTransformer):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if (
            isinstance(updated.value, cst.Name)
            and updated.value.value == self.name
            and updated.attr.value == "data"
        ):
            return updated.value
        return updated


def convert_tool(
    function: cst.FunctionDef, taken: set[str], module_level: bool, line_of: Callable[[cst.CSTNode], int]
) -> tuple[ToolConversion | None, list[Note]]:
    """The tool with the questions at the start of its body moved into resolvers (None when
    there is nothing to move), and a note for each question it leaves where it is."""
    converter = _Converter(function, set(taken), module_level)
    if not converter.contexts:
        return None, []
    found, quiet, stop = converter.questions()
    notes = []
    movable: list[Question] = []
    refused: cst.Call | None = None
    answered: dict[str, cst.BaseExpression] = {}
    for question in found:
        try:
            _, annotation, _ = converter.resolver_for(question, quiet, answered)
        except Refusal as refusal:
            notes.append(
                Note(line_of(question.call), f"{question_label(question.kind)} not moved: {refusal}")
            )
            refused = question.call
            break
        answered[question.target] = annotation
        movable.append(question)
    converter.result = ToolConversion(function, [])
    converter.unwrapped.clear()
    converter.taken = set(taken)
    done = {q.call for q in movable} | {refused}
    for call in asked_in(function, converter.contexts):
        if call in done:
            continue
        if refused is not None:
            where = "after a question that stays in the body"
        elif stop is not None and not contains(stop, call):
            where = f"after line {line_of(stop)}, which has effects"
        else:
            where = "inside an expression, not as `answer = await ...` on its own line"
        reason = place(function, call) or where
        label = question_label(question_kind(call, converter.contexts) or "")
        notes.append(Note(line_of(call), f"{label} not moved: asked {reason}"))
    if not movable:
        return None, notes
    result = converter.convert(movable, quiet)
    taken |= converter.taken
    return result, notes
