"""`source.fixAll.mcpdeps` and the hover on a `# mcpdeps: ignore[...]` comment.

Fix all is what editors run on save (`"editor.codeActionsOnSave": {"source.fixAll.mcpdeps":
"explicit"}`, Neovim's `vim.lsp.buf.code_action({context = {only = {"source.fixAll"}}})`):
the document rewritten as `mcpdeps lint --fix` would write it, as one action, planned on the
editor's unsaved text (the engine's `fix_plan` with it as an override, every pass re-linted). The hover
on a suppression says what each code is and whether it silences anything there (MCPD114).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from .convert import Positions, uri_of

if TYPE_CHECKING:
    from ...resolver_core.diagnostics import Diagnostic
    from .server import McpdepsServer
    from .workspace import WorkspaceModel

log = logging.getLogger(__name__)

FIX_ALL = "source.fixAll.mcpdeps"


def wants_fix_all(only: Sequence[str] | None) -> bool:
    """Whether the client asked for this kind: `source`, `source.fixAll` and ours cover it; a
    request naming no kind lists it too (the editor's "Source Action..." menu)."""
    return only is None or any(kind == FIX_ALL or FIX_ALL.startswith(f"{kind}.") for kind in only)


def fix_all(model: WorkspaceModel, path: Path, display: str, positions: Positions) -> types.CodeAction | None:
    """Every safe fix of the document at once, or None when there is none."""
    from ...lint_rules import api
    from ...lint_rules.fixes.edits import edits_between

    text = model.text(display)
    if text is None:
        return None
    try:
        plan = api.fix_plan(api.LintRequest([display], model.root, texts={path: text}), model.settings)
    except api.RequestError as exc:  # the fixes would break the file: offer none, say why in the log
        log.warning("%s", exc)
        return None
    fixed = plan.texts.get(display)
    if fixed is None or fixed == text or not plan.fixed:
        return None
    edits = [positions.text_edit(e) for e in edits_between(display, text, fixed)]
    return types.CodeAction(
        title=f"mcpdeps: fix all ({plan.fixed} safe {'fix' if plan.fixed == 1 else 'fixes'})",
        kind=FIX_ALL,
        edit=types.WorkspaceEdit(changes={uri_of(path): edits}),
    )


def suppression_hover(
    ls: McpdepsServer,
    model: WorkspaceModel,
    display: str,
    position: types.Position,
    published: list[Diagnostic],
) -> types.Hover | None:
    """What `# mcpdeps: ignore[CODE, ...]` under the cursor silences, code by code."""
    from ...lint_rules.registry import UnknownRule, find_rule
    from ...lint_rules.suppressions import DIRECTIVE, UNUSED_CODE

    lines = ls._lines(model, display)
    if position.line >= len(lines):
        return None
    positions = Positions(ls.workspace.position_codec, lambda shown: ls._lines(model, shown))
    line, column = positions.from_client(display, position)
    text = lines[line - 1]
    found = next((m for m in DIRECTIVE.finditer(text) if m.start() < column <= m.end() + 1), None)
    if found is None:
        return None
    unused = " ".join(d.message for d in published if d.code == UNUSED_CODE and d.line == line)
    codes = [c.strip() for c in (found.group("codes") or "").split(",") if c.strip()]
    where = "in this file" if found.group("kind") == "ignore-file" else "on this line"
    if not codes:
        parts = [f"Silences every mcpdeps rule {where}."]
    else:
        parts = []
        for code in codes:
            try:
                rule = find_rule(code)
            except UnknownRule as exc:
                parts.append(f"- `{code}`: {exc}")
                continue
            idle = rule.code in unused or rule.name in unused
            state = f"silences nothing {where} ({UNUSED_CODE})" if idle else f"silenced {where}"
            parts.append(f"- **{rule.code}** `{rule.name}`: {rule.summary} *({state})*")
        parts.append("\n`mcpdeps rule CODE` explains a rule.")
    start = positions.position(display, line, found.start() + 1)
    end = positions.position(display, line, found.end() + 1)
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n".join(parts)),
        range=types.Range(start=start, end=end),
    )
