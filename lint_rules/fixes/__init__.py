"""Safe fixes: which codes have one, and how a diagnostic gets its `Fix` (edits).

Fixers are libcst rewrites (formatting and comments elsewhere stay byte for
byte); each lives in its own module and is imported only when a diagnostic of
its code needs a fix, so importing this package costs nothing and `lint`
without `--fix`/`--diff` never loads libcst for clean code. Rules that can
compute their edit cheaply (MCPD008, MCPD114) attach it themselves; those
edits are used as they are.

Most fixable diagnostics have a plain shape (`x: Annotated[T, Resolve(f)] | None = None`,
a parameter used only by name): for those, `spans.SPAN_FIXERS` computes the same fixed
text from `ast` positions, without importing libcst (~0.3 s) or building its tree; every
other shape, and every refusal, is libcst's to decide. Both paths end in the same
`edits_between`, so `--fix`, `--diff` and the json/sarif `fix` fields see one engine.

A fix depends only on its diagnostic and the text of its file, so the fixes a
run computes are kept in the lint cache under that pair (`attach_fixes`): a warm
`json` or `sarif` run does no libcst work at all.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...resolver_core.diagnostics import Diagnostic, Fix, from_plain, plain

if TYPE_CHECKING:
    from .. import LintResult
    from .ast_source import AstSource
    from .cst_source import CstSource

FIXERS: dict[str, str] = {
    "MCPD002": "mcpdeps.lint_rules.fixes.rename_resolver_parameter",
    "MCPD003": "mcpdeps.lint_rules.fixes.resolve_in_union",
    "MCPD006": "mcpdeps.lint_rules.fixes.rename_parameter",
    "MCPD101": "mcpdeps.lint_rules.fixes.hidden_resolve",
    "MCPD105": "mcpdeps.lint_rules.fixes.include_context",
    "MCPD111": "mcpdeps.lint_rules.fixes.ignored_default",
    "MCPD112": "mcpdeps.lint_rules.fixes.context_elicit",
    "MCPD201": "mcpdeps.lint_rules.fixes.model_supplied",
    "MCPD202": "mcpdeps.lint_rules.fixes.model_supplied",
    "MCPD203": "mcpdeps.lint_rules.fixes.model_supplied",
    "MCPD204": "mcpdeps.lint_rules.fixes.model_supplied",
}
"""Rule code → module with `fix(source, diagnostic) -> libcst.Module | None`."""

MESSAGES: dict[str, str] = {
    "MCPD002": "rename the resolver parameter (and its uses) to the tool argument it misspells",
    "MCPD003": "annotate the parameter as `Annotated[T, Resolve(...)]` and drop `| None` and the default",
    "MCPD006": "rename the parameter (and its uses) without the leading underscore",
    "MCPD101": "move `Resolve(...)` into the top-level `Annotated[...]` so the SDK sees it",
    "MCPD105": 'remove `include_context=` (the default, "none", is the supported behaviour)',
    "MCPD111": "remove the default: the resolver always provides the value",
    "MCPD112": "move the question into a resolver returning `Elicit(...)` and take the answer as a parameter",
    "MCPD201": "resolve it instead: a resolved parameter and a resolver stub beside the tool",
    "MCPD202": "resolve it instead: a resolved parameter and a resolver stub beside the tool",
    "MCPD203": "resolve it instead: a resolved parameter and a resolver stub beside the tool",
    "MCPD204": "ask the person: an `Elicit` resolver with a one-field model",
}
"""Rule code → the `Fix.message` of its fixer (whichever path computed the edits)."""


UNSAFE = frozenset({"MCPD112", "MCPD201", "MCPD202", "MCPD203", "MCPD204"})
"""Codes whose fix changes what the code does (MCPD112: the question is asked before the body
runs; MCPD201-MCPD204: a client can no longer send the value, the stub raises until it is
written, the person is asked): applied and shown only with `--unsafe-fixes`, never counted as
fixable, never listed in the json/sarif reports, as ruff keeps its unsafe fixes out of `--fix`."""

TIDIES_IMPORTS = frozenset({"MCPD003", "MCPD101"})
"""Codes whose fix may leave `Optional`/`Union` imported and unused (`typing_imports`)."""

RULE_FIXES = frozenset({"MCPD008", "MCPD114"})
"""Codes whose rule attaches its own edit to the diagnostic (no libcst needed)."""


ONLY_WHEN: dict[str, str] = {"MCPD002": "(did you mean '"}
"""Codes fixed only in one case, recognised by its message (MCPD002: the typo of a tool argument)."""


def is_fixable(code: str) -> bool:
    """Whether `--fix` can repair some diagnostics of this code (when the shape is a safe one)."""
    return (code in FIXERS and code not in UNSAFE) or code in RULE_FIXES


def may_fix(d: Diagnostic) -> bool:
    """Whether `--fix` may repair this diagnostic (what the summary line counts)."""
    if d.fix is not None:
        return True
    return is_fixable(d.code) and ONLY_WHEN.get(d.code, "") in d.message


class FixCache:
    """Parses each file once per pass, however many of its diagnostics need a fix."""

    def __init__(self, text_of: Callable[[str], str | None], unsafe: bool = False) -> None:
        self.text_of = text_of
        self.unsafe = unsafe
        """Whether the fixes of `UNSAFE` codes are computed too (`--unsafe-fixes`)."""
        self._sources: dict[str, CstSource | None] = {}
        self._asts: dict[str, AstSource | None] = {}

    def source(self, path: str) -> CstSource | None:
        if path not in self._sources:
            from .cst_source import CstSource

            text = self.text_of(path)
            if text is not None and self._too_deep_to_fix(path, text):
                self._sources[path] = None
                return None
            try:
                self._sources[path] = source = CstSource(text) if text is not None else None
                if source is not None and source.module.code != text:
                    # libcst drops some trailing lines (a comment, then a last line of spaces
                    # without a newline): a fix computed through it would delete them.
                    self._sources[path] = None
            except Exception:
                # ParserSyntaxError, or a tree thousands of levels deep: libcst's position
                # provider hits the recursion limit and re-raises it as a KeyError. The file
                # loses its fixes, never the report.
                self._sources[path] = None
        return self._sources[path]

    def _too_deep_to_fix(self, path: str, text: str) -> bool:
        """Whether the file nests deeper than `TOO_DEEP_TO_FIX` (by `ast`, whose tree is never
        deeper than libcst's); a file `ast` cannot parse is left to libcst."""
        import ast

        from .ast_source import deeper_than

        known = self._asts.get(path)
        try:
            tree = known.tree if known is not None else ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
        return deeper_than(tree, TOO_DEEP_TO_FIX)

    def ast_source(self, path: str, text: str) -> AstSource | None:
        """The file for the span fixers; None when only libcst may judge it."""
        if path not in self._asts:
            from .ast_source import AstSource, Unsure

            try:
                self._asts[path] = AstSource(text)
            except Unsure:
                self._asts[path] = None
        return self._asts[path]

    def fix_for(self, d: Diagnostic) -> Fix | None:
        """The diagnostic's own fix, else its fixer's rewrite as edits; None when not safely fixable."""
        if d.fix is not None or d.code not in FIXERS:
            return d.fix
        if d.code in UNSAFE and not self.unsafe:
            return None
        if ONLY_WHEN.get(d.code, "") not in d.message:
            return None  # the fixer refuses every other case, whatever the file holds
        text = self.text_of(d.path)
        if text is None:
            return None
        fixed = self.by_spans(d, text)
        if fixed is UNSURE:
            fixed = self.by_libcst(d)
        if not isinstance(fixed, str) or fixed == text:  # None: no fix
            return None
        from .edits import edits_between

        if d.code in TIDIES_IMPORTS:
            from .typing_imports import without_newly_unused

            fixed = without_newly_unused(text, fixed)

        return Fix(message=MESSAGES[d.code], edits=edits_between(d.path, text, fixed))

    def by_spans(self, d: Diagnostic, text: str) -> str | object | None:
        """The fixed text from `ast` spans, None for no fix, `UNSURE` when libcst must decide."""
        from .ast_source import Unsure
        from .spans import SPAN_FIXERS

        fixer = SPAN_FIXERS.get(d.code)
        src = self.ast_source(d.path, text) if fixer is not None else None
        if fixer is None or src is None:
            return UNSURE
        try:
            return fixer(src, d)
        except Unsure:
            return UNSURE
        except Exception:  # a span fixer bug costs its shortcut, never the fix
            return UNSURE

    def by_libcst(self, d: Diagnostic) -> str | None:
        source = self.source(d.path)
        if source is None:
            return None
        fixer = importlib.import_module(FIXERS[d.code])
        try:
            module = fixer.fix(source, d)
        except Exception:  # a fixer bug costs its fix, never the report or the other fixes
            return None
        return module.code if module is not None else None


TOO_DEEP_TO_FIX = 1_000
"""Files nested deeper than this many levels get no fixes, and libcst never sees them: its
parser takes time quadratic in the nesting (a 3,000-term chain: 3.4 s) and past about 4,500
levels its position provider exhausts the recursion anyway, after 11 s (the fix was lost then
too). No code a person writes nests a thousand levels; generated code that does is reported
as usual, without fixes, at the speed of the rest of the run."""


UNSURE = object()
"""A span fixer's answer when the shape is not one it decides: the libcst fixer does."""


FixMemo = dict[str, Any]
"""Fixes computed before: `memo_key(text, diagnostic)` → the `Fix` as JSON, or None (no safe fix)."""


def memo_key(text_hash: str, d: Diagnostic) -> str:
    """What a fixer's answer depends on: the file's content and the diagnostic's place and words."""
    return text_hash + json.dumps([d.code, d.line, d.column, d.end_line, d.end_column, d.message])


def attach_fixes(
    diagnostics: Sequence[Diagnostic], text_of: Callable[[str], str | None], memo: FixMemo
) -> tuple[list[Diagnostic], FixMemo, bool]:
    """`diagnostics` with `fix` filled wherever a fixer has one, taken from `memo` when it is there.

    Returns the diagnostics, the memo entries they use (what the cache keeps: entries of
    diagnostics gone or of files since edited drop out) and whether any fix was computed.
    """
    cache = FixCache(text_of)
    hashes: dict[str, str] = {}
    used: FixMemo = {}
    computed = False
    out = []
    for d in diagnostics:
        text = text_of(d.path) if d.fix is None and d.code in FIXERS and d.code not in UNSAFE else None
        if text is None:
            out.append(d)
            continue
        if d.path not in hashes:
            data = text.encode("utf-8", "surrogatepass")
            hashes[d.path] = hashlib.blake2b(data, digest_size=16).hexdigest()
        key = memo_key(hashes[d.path], d)
        if key in memo:
            fix = from_plain(Fix, memo[key]) if memo[key] is not None else None
        else:
            fix, computed = cache.fix_for(d), True
        used[key] = plain(fix) if fix is not None else None
        out.append(d.with_fix(fix) if fix is not None else d)
    return out, used, computed


def with_fixes(result: LintResult) -> LintResult:
    """The result with `fix` filled for every fixable diagnostic (for the json and sarif formats);
    as it is when `lint(fixes=True)` filled them already."""
    if result.fixes or not any(d.fix is None and is_fixable(d.code) for d in result.diagnostics):
        return result

    def text_of(path: str) -> str | None:
        info = result.graph.sources.get(path)
        return info.text if info is not None else None

    diagnostics, _, _ = attach_fixes(result.diagnostics, text_of, {})
    return replace(result, diagnostics=diagnostics, fixes=True)
