"""The codemods in order, on one module: names, the constructor, then the questions.

Each pass reads positions from its own input, so its notes name lines of that text; they are
carried back to the lines of the file as the user has it (`_line_map`, through the diff of
the two texts) before anyone reads them.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ..fixes.cst_source import dotted_name
from . import Migrated, Note
from .constructor import ConstructorTransformer
from .imports import with_imports
from .names import (
    CAMEL_FIELDS,
    NAME_RENAMES,
    REMOVED_APIS,
    REMOVED_FOR_STR,
    NamesTransformer,
    is_context_annotation,
    tool_decorator,
)
from .questions import ToolConversion, convert_tool
from .statements import asked_in, question_kind, question_label


def _line_map(before: str, after: str) -> Callable[[int], int]:
    """Line of `after` → the line of `before` it came from: the same line of an unchanged or
    rewritten block (clipped to the block), the line where an inserted block goes."""
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    blocks = matcher.get_opcodes()

    def to_before(line: int) -> int:
        index = line - 1
        for _tag, a0, a1, b0, b1 in blocks:
            if b0 <= index < b1:
                return a0 + min(index - b0, max(a1 - a0 - 1, 0)) + 1
        return line

    return to_before


CONTEXT_IMPORTS = (("mcp.server.mcpserver", "Context"), ("mcp.server.fastmcp", "Context"))
"""Where a tool's `Context` comes from: the import may go with the last parameter that used it."""


def _bound_names(module: cst.Module) -> set[str]:
    """Every name the module spells anywhere: a new resolver's name must be none of them."""
    names: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            names.add(node.value)

    module.visit(Names())
    return names


def _postponed(module: cst.Module) -> bool:
    """Whether the module has `from __future__ import annotations`."""
    for statement in module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                module_name = dotted_name(small.module) if small.module is not None else ""
                if module_name == "__future__" and any(
                    dotted_name(a.name) == "annotations" for a in small.names
                ):
                    return True
    return False


class QuestionsPass:
    """Moves the questions of the tools in a module (or of one tool: `only`) into resolvers."""

    def __init__(self, module: cst.Module, only: cst.FunctionDef | None = None) -> None:
        self.wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        self.positions = self.wrapper.resolve(PositionProvider)
        self.module = module
        self.only = only
        self.taken = _bound_names(module)
        self.postponed = _postponed(module)
        self.notes: list[Note] = []
        self.imports: set[tuple[str, str]] = set()
        self.questions = 0
        self.moved: list[cst.Call] = []
        """The question calls moved into resolvers (nodes of the input module)."""

    def line_of(self, node: cst.CSTNode) -> int:
        return self.positions[node].start.line

    def run(self) -> cst.Module:
        migrated = self.module.with_changes(body=self._block(self.module.body, module_level=True))
        self._helpers()
        return migrated

    def _helpers(self) -> None:
        """A note for each question asked in a function that is not a tool (a helper)."""
        for node in self.positions:
            if not isinstance(node, cst.FunctionDef) or tool_decorator(node) is not None:
                continue
            params = node.params
            contexts = {
                p.name.value
                for p in (*params.posonly_params, *params.params, *params.kwonly_params)
                if is_context_annotation(p.annotation) or p.name.value in ("ctx", "context")
            }
            for call in asked_in(node, contexts, nested=False):
                self.notes.append(
                    Note(
                        self.line_of(call),
                        f"{question_label(question_kind(call, contexts) or '')} not moved: asked from "
                        f"`{node.name.value}`, a helper, not at the start of a tool body",
                    )
                )

    def _block(self, statements: Sequence[cst.BaseStatement], module_level: bool) -> list[cst.BaseStatement]:
        out: list[cst.BaseStatement] = []
        for statement in statements:
            if isinstance(statement, cst.FunctionDef) and tool_decorator(statement) is not None:
                conversion = self._tool(statement, module_level)
                if conversion is not None:
                    out.extend(conversion.before)
                    out.append(conversion.tool)
                    continue
            elif isinstance(statement, cst.FunctionDef | cst.If) and isinstance(
                statement.body, cst.IndentedBlock
            ):
                inner = self._block(statement.body.body, module_level=False)
                statement = statement.with_changes(body=statement.body.with_changes(body=inner))
            out.append(statement)
        return out

    def _tool(self, function: cst.FunctionDef, module_level: bool) -> ToolConversion | None:
        if self.only is not None and function is not self.only:
            return None
        conversion, notes = convert_tool(function, self.taken, module_level, self.line_of)
        self.notes.extend(notes)
        if conversion is not None and not module_level and self.postponed:
            self.notes.append(
                Note(
                    self.line_of(function),
                    "questions not moved: with `from __future__ import annotations` a resolver defined "
                    "inside a function is not found when the SDK reads the tool's annotations",
                )
            )
            return None
        if conversion is not None:
            self.imports |= conversion.imports
            self.questions += conversion.questions
            self.moved.extend(conversion.moved)
        return conversion


ANY_MCP = re.compile(
    r"\.(elicit|create_message|list_roots)\(|FastMCP|MCPServer\(|fastmcp|get_context|shared\.version|_mcp_server"
)
"""What makes a module worth parsing whatever it imports: the SDK's old names, a server, a question."""
IMPORTS_MCP = re.compile(r"^\s*(from\s+mcp[\w.]*\s+import|import\s+mcp\b)", re.M)
RENAMED = re.compile(
    r"\b(" + "|".join([*NAME_RENAMES, *REMOVED_FOR_STR, *REMOVED_APIS, *CAMEL_FIELDS]) + r")\b"
)


def worth_parsing(text: str) -> bool:
    """Whether any codemod can have something to do in `text` (most files of a project: none)."""
    return ANY_MCP.search(text) is not None or (
        IMPORTS_MCP.search(text) is not None and RENAMED.search(text) is not None
    )


def located(module: cst.Module, pending: list[tuple[cst.CSTNode, str]]) -> list[Note]:
    """Notes at nodes of `module`, with their lines (positions are computed only when there are some)."""
    if not pending:
        return []
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    return [Note(positions[node].start.line, reason) for node, reason in pending]


SERVER_BUILT = re.compile(r"\b(FastMCP|MCPServer)\s*\(")
QUESTION_ASKED = re.compile(r"\.(elicit|create_message|list_roots)\s*\(")


def migrate_module(text: str) -> Migrated:
    """The passes in order; each runs only when the text spells what it looks for (a pass
    over a 1,000-line module costs most of a second in libcst)."""
    if not worth_parsing(text):
        return Migrated(text, (), 0)  # nothing any codemod matches: not even parsed
    module = cst.parse_module(text)
    names = NamesTransformer()
    current = module.visit(names)
    if names.context_added:
        current = with_imports(current, {("mcp.server.mcpserver", "Context")})
    notes = located(module, names.notes)

    if SERVER_BUILT.search(text):
        before = current
        constructor = ConstructorTransformer(before)
        current = before.visit(constructor)
        to_text = _line_map(text, before.code)
        notes.extend(Note(to_text(n.line), n.reason) for n in located(before, constructor.notes))

    moved = 0
    if QUESTION_ASKED.search(text):
        code_before = current.code
        questions = QuestionsPass(current)
        current = questions.run()
        if questions.moved:
            current = with_imports(current, questions.imports, CONTEXT_IMPORTS)
        to_text = _line_map(text, code_before)
        notes.extend(Note(to_text(n.line), n.reason) for n in questions.notes)
        moved = questions.questions
    notes.sort(key=lambda n: n.line)
    return Migrated(current.code, tuple(dict.fromkeys(notes)), moved)
