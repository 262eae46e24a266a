"""A code lens on each tool's `def`: `graph` (its dependency tree) and `call` (how to call it).

The lens commands run in the server (`workspace/executeCommand`): `mcpdeps.graph` answers
the tool's tree as `mcpdeps graph --tool NAME` prints it, and shows it in the editor
(`window/showMessage`); `mcpdeps.call` shows the `mcpdeps call` command line for the tool,
ready for a terminal (a language server cannot run one; the call asks questions there).
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from .convert import path_of

if TYPE_CHECKING:
    from .server import McpdepsServer

GRAPH, CALL = "mcpdeps.graph", "mcpdeps.call"


def code_lenses(ls: McpdepsServer, params: types.CodeLensParams) -> list[types.CodeLens] | None:
    from .features import _context, _positions

    found = _context(ls, params.text_document.uri)
    if found is None:
        return None
    model, path, display = found
    graph = model.graph_around(path)
    positions = _positions(ls, model)
    lenses = []
    for _, tool in graph.tools():
        if tool.span is None or tool.span.path != display:
            continue
        start = positions.position(display, tool.span.line, tool.span.column)
        where = types.Range(start=start, end=start)
        arguments: list[Any] = [params.text_document.uri, tool.name]
        lenses += [
            types.CodeLens(
                range=where, command=types.Command(title="graph", command=GRAPH, arguments=arguments)
            ),
            types.CodeLens(
                range=where, command=types.Command(title="call", command=CALL, arguments=arguments)
            ),
        ]
    return lenses


# pygls reads these handlers' hints at run time to convert the arguments: `ls` is not hinted
# with the class (imported for type checking only, it would not resolve there).


def graph_command(ls: Any, uri: str, tool: str) -> str | None:
    """`mcpdeps.graph`: the tool's tree, as `mcpdeps graph FILE --tool NAME` prints it."""
    return _answer(ls, GRAPH, uri, tool)


def call_command(ls: Any, uri: str, tool: str) -> str | None:
    """`mcpdeps.call`: the command line that calls the tool in a terminal."""
    return _answer(ls, CALL, uri, tool)


def _answer(ls: McpdepsServer, command: str, uri: str, tool: str) -> str | None:
    """The lens's answer, also shown to the user (`window/showMessage`)."""
    path = path_of(uri)
    model = ls.model_for(path, create=False) if path is not None else None
    if model is None or path is None:
        return None
    display = model.project.display(path)
    if command == CALL:
        text = f"mcpdeps call {shlex.quote(display)} {shlex.quote(tool)}  (in a terminal, in {model.root})"
    else:
        from ...lint_rules.api import choose
        from ..graph.render import print_graph

        text = print_graph(choose(model.graph_around(path), (), (tool,)), capture=True, source="static") or ""
    ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Info, message=text))
    return text
