"""Where new top-level code goes, and splicing it in with libcst so every other byte stays.

Placement rules (the issue's): a resolver goes before its first user — for a new resolver,
before the module's first tool — but never above anything its signature names (annotations are
evaluated when the `def` runs). A tool goes after the last tool of its server and before a
trailing `if __name__ == "__main__":` block, and after the server and resolvers it names.
New statements are emitted with the module's own newline (CRLF stays CRLF) and indentation.
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from .imports import add_imports
from .module_info import ModuleInfo

_Statement = cst.SimpleStatementLine | cst.BaseCompoundStatement  # what a module's body holds
_TWO_BLANK = (cst.EmptyLine(), cst.EmptyLine())


def _floor(info: ModuleInfo, names: Iterable[str]) -> int:
    """The first body index after every module-level binding of `names` (dotted names: their head)."""
    indexes = [
        info.binding_index[n.split(".", 1)[0]] for n in names if n.split(".", 1)[0] in info.binding_index
    ]
    return max(indexes, default=-1) + 1


def resolver_index(info: ModuleInfo, references: Iterable[str]) -> int:
    """Before the first tool (else before the trailing main block, else at the end), below its references."""
    tools = info.all_tool_indexes
    anchor = (
        tools[0] if tools else (info.main_index if info.main_index is not None else len(info.module.body))
    )
    return max(anchor, _floor(info, references))


def tool_index(info: ModuleInfo, server: str, references: Iterable[str]) -> int:
    """After the server's last tool (or any last tool, or the server itself), before a trailing main block."""
    own = info.tool_indexes.get(server, [])
    server_at = info.servers[server].index if server in info.servers else info.binding_index[server]
    later_tools = [i for i in info.all_tool_indexes if i > server_at]
    after = own[-1] if own else (later_tools[-1] if later_tools else server_at)
    index = max(after + 1, _floor(info, [server, *references]))
    if info.main_index is not None:
        index = min(index, info.main_index)
    return index


def _separated(stmt: _Statement) -> _Statement:
    """The statement after new code keeps its leading lines, topped up to two blank lines (PEP 8)."""
    blank = 0
    for line in stmt.leading_lines:
        if line.comment is not None:
            break
        blank += 1
    if blank >= len(_TWO_BLANK):
        return stmt
    return stmt.with_changes(leading_lines=[*_TWO_BLANK[blank:], *stmt.leading_lines])


def insert_statements(module: cst.Module, index: int, sources: list[str]) -> cst.Module:
    """Splice `sources` (top-level statements, `\\n` newlines) into `module.body` at `index`."""
    new = [cst.parse_statement(src).with_changes(leading_lines=_TWO_BLANK) for src in sources]
    body = list(module.body)
    if index == 0 and body:
        new[0] = new[0].with_changes(leading_lines=())
    if index < len(body):
        body[index] = _separated(body[index])
    body[index:index] = new
    return module.with_changes(body=body)


def edit_module(info: ModuleInfo, index: int, sources: list[str], needs: dict[str, set[str]]) -> str:
    """The module's new text: statements inserted at `index`, then the imports they need merged in."""
    module = insert_statements(info.module, index, sources)
    module = add_imports(module, needs, set(info.bindings))
    if module.body and not module.has_trailing_newline:
        # libcst keeps "no final newline", which then belongs to the new code at the end.
        module = module.with_changes(has_trailing_newline=True)
    return module.code
