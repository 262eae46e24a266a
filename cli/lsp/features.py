"""The requests beyond diagnostics: hover, go to definition, find references, code actions
and inlay hints. Each answers from the workspace model's graph of the document
(`WorkspaceModel.graph_around`) and its last published diagnostics; a request about a
document the server does not know, or a place with nothing of mcpdeps', answers null.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from ...lint_rules.api import concerns
from ...resolver_core.diagnostics import Diagnostic, Edit
from ...resolver_core.model import Graph, Span
from .code_lens import CALL, GRAPH, call_command, code_lenses, graph_command
from .convert import Positions, path_of, uri_of
from .hover import hover_markdown
from .lookup import Target, target_at, tools_running
from .source_actions import FIX_ALL, fix_all, suppression_hover, wants_fix_all

if TYPE_CHECKING:
    from .server import McpdepsServer
    from .workspace import WorkspaceModel


def _positions(ls: McpdepsServer, model: WorkspaceModel) -> Positions:
    return Positions(ls.workspace.position_codec, lambda display: ls._lines(model, display))


def _context(ls: McpdepsServer, uri: str) -> tuple[WorkspaceModel, Path, str] | None:
    path = path_of(uri)
    if path is None or path.suffix not in (".py", ".pyi"):
        return None
    model = ls.model_for(path, create=False)
    if model is None:
        return None
    return model, path, model.project.display(path)


def _target(
    ls: McpdepsServer, uri: str, position: types.Position, every_consumer: bool = False
) -> tuple[WorkspaceModel, Graph, Target] | None:
    found = _context(ls, uri)
    if found is None:
        return None
    model, path, display = found
    graph = model.graph_around(path, every_consumer)
    line, column = _positions(ls, model).from_client(display, position)
    target = target_at(graph, display, line, column)
    return (model, graph, target) if target is not None else None


def _location(ls: McpdepsServer, model: WorkspaceModel, span: Span) -> types.Location:
    return types.Location(uri=uri_of(model.root / span.path), range=_positions(ls, model).span(span))


def _about(target: Target, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics a hover shows: the tool's, or those on the lines of the node hovered."""
    if target.kind == "tool" and target.tool is not None:
        return [d for d in diagnostics if concerns(d, target.tool.name)]
    spans = [s for s in (target.span, target.resolver.span if target.resolver else None) if s is not None]
    return [d for d in diagnostics if any(d.path == s.path and s.line <= d.line <= s.end_line for s in spans)]


def hover(ls: McpdepsServer, params: types.HoverParams) -> types.Hover | None:
    context = _context(ls, params.text_document.uri)
    if context is None:
        return None
    published = ls.published.get(params.text_document.uri, [])
    on_comment = suppression_hover(ls, context[0], context[2], params.position, published)
    if on_comment is not None:  # the comment's line is often a tool's `def`: the comment wins
        return on_comment
    found = _target(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    model, graph, target = found
    every = [d for ds in ls.published.values() for d in ds]
    text = hover_markdown(graph, target, _about(target, every))
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
        range=_positions(ls, model).span(target.span),
    )


def definition(ls: McpdepsServer, params: types.DefinitionParams) -> list[types.Location] | None:
    """From `Resolve(fn)`, a resolved parameter or an alias holding one, to the resolver's `def`."""
    found = _target(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    model, _, target = found
    resolver = target.resolver
    if target.kind not in ("resolve", "parameter") or resolver is None or not resolver.anchored:
        return None
    return [_location(ls, model, resolver.span)] if resolver.span is not None else None


def references(ls: McpdepsServer, params: types.ReferenceParams) -> list[types.Location] | None:
    """From a resolver (its `def` or a `Resolve` of it), every tool that runs it."""
    found = _target(ls, params.text_document.uri, params.position, every_consumer=True)
    if found is None or found[2].resolver is None:
        return None
    model, graph, target = found
    assert target.resolver is not None
    tools = tools_running(graph, target.resolver)
    places = [_location(ls, model, t.span) for _, t in tools if t.span is not None]
    if params.context.include_declaration and target.resolver.span is not None and target.resolver.anchored:
        places.insert(0, _location(ls, model, target.resolver.span))
    return places


def code_actions(ls: McpdepsServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    """Each `lint --fix` fix as a quick fix on its diagnostic, "suppress on this line", and
    `source.fixAll.mcpdeps` (every fix of the document at once).

    The fixes that change behaviour (unsafe fixes: MCPD112's question moved into a resolver,
    MCPD201-MCPD204's values resolved or asked) are offered too, never as the preferred action,
    and say so: choosing one is the user's consent."""
    found = _context(ls, params.text_document.uri)
    if found is None:
        return None
    model, path, display = found
    only = params.context.only
    if only is not None and not any(
        k == types.CodeActionKind.QuickFix or "quickfix".startswith(k) for k in only
    ):
        every = fix_all(model, path, display, _positions(ls, model)) if wants_fix_all(only) else None
        return [every] if every is not None else []
    from ...lint_rules import api
    from ...lint_rules.suppressions import suppression_edit

    positions = _positions(ls, model)
    first, last = params.range.start.line + 1, params.range.end.line + 1
    diagnostics = [
        d for d in ls.published.get(params.text_document.uri, []) if d.line <= last and d.end_line >= first
    ]
    fix_for = api.quick_fixes(model.text, unsafe=True)
    actions: list[types.CodeAction] = []
    for d in diagnostics:
        lsp = _matching(params.context.diagnostics, d, positions)
        fix = fix_for(d)
        if fix is not None and fix.edits:
            unsafe = api.is_unsafe_fix(d.code)
            title = f"mcpdeps: {fix.message} ({d.code}{', unsafe: it changes behaviour' if unsafe else ''})"
            actions.append(_action(ls, model, title, fix.edits, lsp, not unsafe))
        text = model.text(display)
        if text is not None and d.code != "MCPD000":
            edit = suppression_edit(d.path, text, d.line, d.code)
            actions.append(_action(ls, model, f"mcpdeps: suppress {d.code} on this line", [edit], lsp, False))
    if only is None and diagnostics:
        every = fix_all(model, path, display, positions)
        actions += [every] if every is not None else []
    return actions


def _matching(
    sent: Sequence[types.Diagnostic], d: Diagnostic, positions: Positions
) -> list[types.Diagnostic]:
    where = positions.range(d.path, d.line, d.column, d.end_line, d.end_column)
    return [x for x in sent if x.code == d.code and x.range == where]


def _action(
    ls: McpdepsServer,
    model: WorkspaceModel,
    title: str,
    edits: list[Edit],
    diagnostics: list[types.Diagnostic],
    preferred: bool,
) -> types.CodeAction:
    positions = _positions(ls, model)
    changes: dict[str, list[types.TextEdit]] = {}
    for edit in edits:
        changes.setdefault(uri_of(model.root / edit.path), []).append(positions.text_edit(edit))
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=diagnostics or None,
        is_preferred=preferred or None,
        edit=types.WorkspaceEdit(changes=changes),
    )


def inlay_hints(ls: McpdepsServer, params: types.InlayHintParams) -> list[types.InlayHint] | None:
    """At the end of each tool's `def` line: what the model sees, and what it never sees."""
    found = _context(ls, params.text_document.uri)
    if found is None:
        return None
    model, path, display = found
    graph = model.graph_around(path)
    lines = ls._lines(model, display)
    positions = _positions(ls, model)
    hints = []
    for _, tool in graph.tools():
        if (
            tool.span is None
            or tool.span.path != display
            or not params.range.start.line < tool.span.line <= params.range.end.line + 1
        ):
            continue
        text = lines[tool.span.line - 1].rstrip("\r\n") if tool.span.line <= len(lines) else ""
        hidden = [p.name for p in tool.parameters if p.kind != "tool_argument"]
        label = f"model sees: {', '.join(tool.arguments) or 'nothing'}"
        if hidden:
            label += f" · never sees: {', '.join(hidden)}"
        hints.append(
            types.InlayHint(
                position=positions.position(display, tool.span.line, len(text) + 1),
                label=label,
                padding_left=True,
            )
        )
    return hints


def register(server: McpdepsServer) -> None:
    """Register every request handler on the server."""
    server.feature(types.TEXT_DOCUMENT_HOVER)(hover)
    server.feature(types.TEXT_DOCUMENT_DEFINITION)(definition)
    server.feature(types.TEXT_DOCUMENT_REFERENCES)(references)
    server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]),
    )(code_actions)
    server.feature(types.TEXT_DOCUMENT_INLAY_HINT)(inlay_hints)
    server.feature(types.TEXT_DOCUMENT_CODE_LENS)(code_lenses)
    server.command(GRAPH)(graph_command)
    server.command(CALL)(call_command)
