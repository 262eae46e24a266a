"""`# mcpdeps: ignore[...]` comments: silence a diagnostic on its line, or a whole file.

- `# mcpdeps: ignore[MCPD104]` (codes, prefixes or kebab names, comma-separated)
  or a bare `# mcpdeps: ignore` on the line a diagnostic is reported on;
- `# mcpdeps: ignore-file[...]` (or bare) before the first statement of a file
  (only the module docstring may come before it), so a reader sees at once
  that a whole file is exempt.

Comments are found with `tokenize`, so the same text inside a string is never
taken for a directive. A directive that silences nothing is reported as
MCPD114 (`unused-suppression`) with a fix that removes it: stale suppressions
would otherwise hide the next real problem on that line.
"""

from __future__ import annotations

import io
import os
import re
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import field
from pathlib import Path

from ..resolver_core.diagnostics import Diagnostic, Edit, Fix
from ..resolver_core.lines import split_lines
from ..resolver_core.model import Graph, Span
from ..resolver_core.records import slotted

DIRECTIVE = re.compile(r"#\s*mcpdeps:\s*(?P<kind>ignore-file|ignore)\b(?:\[(?P<codes>[^\]]*)\])?")
UNUSED_CODE = "MCPD114"


@slotted
class Suppression:
    """One directive, where it is, and which of its selectors silenced something."""

    path: str
    line: int
    start: int
    """0-based column of the directive's `#` in its line."""
    end: int
    file_level: bool
    selectors: tuple[str, ...]
    """Empty for a bare directive (everything)."""
    comment_only_line: bool
    line_text: str
    placed: bool = True
    """False for an `ignore-file` below the first statement (it then has no effect)."""
    used: set[str] = field(default_factory=set)
    """Selectors that silenced at least one diagnostic (`*` for a bare directive)."""

    def codes(self, selector: str) -> set[str] | None:
        """Rule codes a selector names; None when it names no rule."""
        from .registry import UnknownRule, matching

        try:
            return {rule.code for rule in matching(selector)}
        except UnknownRule:
            return None

    def silences(self, code: str) -> str | None:
        """The selector that silences `code` here (`*` for a bare directive), or None."""
        if not self.selectors:
            return "*"
        for sel in self.selectors:
            if code in (self.codes(sel) or ()):
                return sel
        return None


def _comments(text: str) -> list[tuple[int, int, str]]:
    """(line, column, comment) for each comment; a file that does not tokenize is scanned by line."""
    try:
        return [
            (tok.start[0], tok.start[1], tok.string)
            for tok in tokenize.generate_tokens(io.StringIO(text).readline)
            if tok.type == tokenize.COMMENT
        ]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return [
            (number, line.index("#"), line[line.index("#") :])
            for number, line in enumerate(split_lines(text), 1)
            if "#" in line
        ]


def _first_statement_line(text: str) -> int:
    """The line of the first token that is code, not counting a leading docstring."""
    try:
        tokens = [
            t
            for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.ENCODING)
        ]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        lines = split_lines(text)
        code = (n for n, line in enumerate(lines, 1) if line.strip() and not line.lstrip().startswith("#"))
        return next(code, len(lines) + 1)
    start = 0
    if len(tokens) > 1 and tokens[0].type == tokenize.STRING and tokens[1].type == tokenize.NEWLINE:
        start = 2
    for tok in tokens[start:]:
        if tok.type not in (tokenize.NEWLINE, tokenize.ENDMARKER):
            return tok.start[0]
    return len(split_lines(text)) + 1


def parse_suppressions(path: str, text: str) -> list[Suppression]:
    """Every mcpdeps directive in one file's text."""
    if "mcpdeps:" not in text:
        return []
    lines = split_lines(text)
    found: list[Suppression] = []
    for line, column, comment in _comments(text):
        for match in DIRECTIVE.finditer(comment):
            if _is_directive(comment, match.start()):
                found.append(_suppression(path, text, lines, line, column, match))
    return found


def _is_directive(comment: str, start: int) -> bool:
    """A directive starts the comment or follows another one (`# noqa # mcpdeps: ignore`); one
    quoted inside a comment (`# write "# mcpdeps: ignore[X]" to...`) is prose, not a directive
    (reporting it unused, and letting `--fix` delete it, would edit the user's words)."""
    if start == 0:
        return True
    before = comment[:start]
    return before[-1].isspace() and all(before.count(q) % 2 == 0 for q in ('"', "'", "`"))


def _suppression(
    path: str, text: str, lines: list[str], line: int, column: int, match: re.Match[str]
) -> Suppression:
    file_level = match["kind"] == "ignore-file"
    codes = match["codes"]
    selectors = tuple(s.strip() for s in codes.split(",") if s.strip()) if codes else ()
    line_text = lines[line - 1] if line <= len(lines) else ""
    placed = not file_level or line < _first_statement_line(text)
    return Suppression(
        path=path,
        line=line,
        start=column + match.start(),
        end=column + match.end(),
        file_level=file_level,
        selectors=selectors,
        comment_only_line=not line_text[: column + match.start()].strip(),
        line_text=line_text,
        placed=placed,
    )


def _silencer(d: Diagnostic, suppressions: Sequence[Suppression]) -> tuple[Suppression, str] | None:
    for s in suppressions:
        if not s.placed or (not s.file_level and s.line != d.line):
            continue
        selector = s.silences(d.code)
        if selector is not None:
            return s, selector
    return None


def _removal(s: Suppression) -> Edit:
    """An edit deleting a whole directive: its line when it is alone there, else the comment."""
    if s.comment_only_line and s.line_text[s.end :].strip() == "":
        return Edit(path=s.path, line=s.line, column=1, end_line=s.line + 1, end_column=1, content="")
    after = s.line_text[s.end :]
    if after.strip() and not after.lstrip().startswith("#"):
        # `# mcpdeps: ignore  because ...`: keep the explanation a comment.
        end = s.end + len(after) - len(after.lstrip())
        return Edit(
            path=s.path, line=s.line, column=s.start + 1, end_line=s.line, end_column=end + 1, content="# "
        )
    before = s.line_text[: s.start].rstrip()
    return Edit(
        path=s.path, line=s.line, column=len(before) + 1, end_line=s.line, end_column=s.end + 1, content=""
    )


def _unused(s: Suppression, selected: set[str]) -> Diagnostic | None:
    """MCPD114 for a directive (or the part of it) that silenced nothing."""
    from .rules.unused_suppression import UnusedSuppression

    rule = UnusedSuppression()
    span = Span(s.path, s.line, s.start + 1, s.line, s.end + 1)
    directive = "ignore-file" if s.file_level else "ignore"
    if not s.placed:
        return rule.diagnostic(
            span,
            "`# mcpdeps: ignore-file` has no effect below the first statement; move it to the top of the file",
        )
    if not s.selectors:
        if s.used:
            return None
        return rule.diagnostic(
            span,
            f"unused suppression: nothing on {'this file' if s.file_level else 'this line'} is reported",
            fix=Fix(message="remove the unused suppression", edits=[_removal(s)]),
        )
    unknown = [sel for sel in s.selectors if s.codes(sel) is None]
    unused = [
        sel
        for sel in s.selectors
        if sel not in s.used and (s.codes(sel) or set()) <= selected and sel not in unknown
    ]
    if not unknown and not unused:
        return None
    keep = [sel for sel in s.selectors if sel not in unused and sel not in unknown]
    parts = []
    if unknown:
        parts.append(f"names no rule: {', '.join(unknown)}")
    if unused:
        parts.append(
            f"silences nothing {'in this file' if s.file_level else 'on this line'}: {', '.join(unused)}"
        )
    if keep:
        content = f"# mcpdeps: {directive}[{', '.join(keep)}]"
        edit = Edit(
            path=s.path,
            line=s.line,
            column=s.start + 1,
            end_line=s.line,
            end_column=s.end + 1,
            content=content,
        )
    else:
        edit = _removal(s)
    return rule.diagnostic(
        span,
        f"suppression {'; it '.join(parts)}",
        fix=Fix(message="remove what silences nothing", edits=[edit]),
    )


def checked_files(
    paths: Sequence[str | os.PathLike[str]], exclude: Sequence[str] = (), cwd: Path | None = None
) -> set[str]:
    """Display paths of the files the user asked to check (the only ones judged by MCPD114)."""
    from ..resolver_core.discovery import discover

    return {f.display for f in discover(paths, exclude, cwd)}


def apply_suppressions(
    diagnostics: Sequence[Diagnostic],
    graph: Graph,
    selected: Iterable[str],
    checked: Iterable[str] | None = None,
) -> list[Diagnostic]:
    """Drop silenced diagnostics; add MCPD114 for directives in `checked` files that silence nothing.

    `selected` are the codes that ran: a directive naming a rule that did not run
    cannot be judged unused. `checked` are the files the user asked for; files
    only followed through imports are not judged either (their diagnostics depend
    on which tools were linted). None means every file read.
    """
    selected = set(selected)
    by_path: dict[str, list[Suppression]] = {
        path: parse_suppressions(path, info.text)
        for path, info in graph.sources.items()
        if info.text is not None and "mcpdeps:" in info.text
    }
    kept: list[Diagnostic] = []
    for d in diagnostics:
        hit = _silencer(d, by_path.get(d.path, ()))
        if hit is None:
            kept.append(d)
        else:
            hit[0].used.add(hit[1])
    if UNUSED_CODE in selected:
        judged = set(checked) if checked is not None else set(by_path)
        for path, suppressions in by_path.items():
            if path in judged:
                kept.extend(u for s in suppressions if (u := _unused(s, selected)) is not None)
    return sorted(kept, key=Diagnostic.sort_key)


def suppression_edit(path: str, text: str, line: int, code: str) -> Edit:
    """The edit that silences `code` on `line`: the code added to the line's `ignore[...]`
    directive, or a new `# mcpdeps: ignore[CODE]` at the end of the line (the editor's
    "suppress on this line" action)."""
    lines = split_lines(text)
    line_text = lines[line - 1] if 0 < line <= len(lines) else ""
    for s in parse_suppressions(path, text):
        if s.line == line and not s.file_level and s.selectors:
            content = f"# mcpdeps: ignore[{', '.join([*s.selectors, code])}]"
            return Edit(
                path=path, line=line, column=s.start + 1, end_line=line, end_column=s.end + 1, content=content
            )
    end = len(line_text.rstrip()) + 1
    return Edit(
        path=path,
        line=line,
        column=end,
        end_line=line,
        end_column=len(line_text) + 1,
        content=f"  # mcpdeps: ignore[{code}]",
    )
