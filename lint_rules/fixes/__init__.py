"""Fixes: how a diagnostic gets its `Fix` (edits), as its rule's `FIX` (`base.RuleFix`) says.

Each rule declares its fix on its class: the message, the safety, when it is offered and
the fixer, a libcst rewrite (formatting and comments elsewhere stay byte for byte) in its
own module here, imported only when a diagnostic of its rule needs a fix, so importing this
package costs nothing and `lint` without `--fix`/`--diff` never loads libcst for clean
code. Rules that compute their edit cheaply (MCPD008, MCPD114) attach it themselves; those
edits are used as they are. The fixers stay together here rather than beside their rules:
they share the libcst helpers (`cst_source`, `annotations`, `renames`), and one package is
the one place libcst is imported on the lint side.

Most fixable diagnostics have a plain shape (`x: Annotated[T, Resolve(f)] | None = None`,
a parameter used only by name): for those, the rule's `splice` (`spans.py`) computes the
same fixed text from `ast` positions, without importing libcst or building its tree (that
import is most of a cold `--format json` run or a one-fix `--fix`: benchmarks/README.md);
every other shape, and every refusal, is libcst's to decide. Both paths end in the same
`edits_between`, so `--fix`, `--diff` and the json/sarif `fix` fields see one engine.

A fixer that cannot rewrite a shape answers None (a splice raises `Unsure`); any other
exception is a bug and surfaces as `FixerBug`, naming the rule and the file, instead of
quietly costing the user their fix.

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
    from ..base import RuleFix
    from .ast_source import AstSource
    from .cst_source import CstSource


def fix_of(code: str) -> RuleFix | None:
    """The fix a rule declares (None: the rule has none, or no rule has this code)."""
    from ..registry import rule_of

    rule = rule_of(code)
    return rule.FIX if rule is not None else None


def is_fixable(code: str) -> bool:
    """Whether `--fix` can repair some diagnostics of this code (when the shape is a safe one)."""
    fix = fix_of(code)
    return fix is not None and fix.safe


def is_unsafe(code: str) -> bool:
    """Whether this code's fix changes behaviour (offered only with `--unsafe-fixes`)."""
    fix = fix_of(code)
    return fix is not None and not fix.safe


def may_fix(d: Diagnostic) -> bool:
    """Whether `--fix` may repair this diagnostic (what the summary line counts)."""
    if d.fix is not None:
        return True
    fix = fix_of(d.code)
    return fix is not None and fix.safe and fix.offered_for(d)


class FixerBug(Exception):
    """A fixer raised instead of answering: a bug in mcpdeps (an internal error, exit 2, or an
    error in the editor's log), named by the rule and the file it was fixing."""

    def __init__(self, d: Diagnostic, error: BaseException) -> None:
        super().__init__(f"the fix of {d.code} failed on {d.path}:{d.line}: {type(error).__name__}: {error}")


def _load(spec: str) -> Callable[..., Any]:
    """`package.module:function`, or a module whose `fix` is the function."""
    module, _, name = spec.partition(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module), name or "fix")
    return found


class FixCache:
    """Parses each file once per pass, however many of its diagnostics need a fix."""

    def __init__(self, text_of: Callable[[str], str | None], unsafe: bool = False) -> None:
        self.text_of = text_of
        self.unsafe = unsafe
        """Whether the unsafe fixes are computed too (`--unsafe-fixes`)."""
        self._sources: dict[str, CstSource | None] = {}
        self._asts: dict[str, AstSource | None] = {}

    def source(self, path: str) -> CstSource | None:
        if path not in self._sources:
            from libcst import ParserSyntaxError

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
            except (ParserSyntaxError, RecursionError, KeyError):
                # A text libcst cannot parse, or a tree thousands of levels deep: libcst's
                # position provider hits the recursion limit and re-raises it as a KeyError.
                # The file loses its fixes, never the report.
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
        spec = fix_of(d.code) if d.fix is None else None
        if spec is None or spec.fixer is None:
            return d.fix
        if not spec.safe and not self.unsafe:
            return None
        if not spec.offered_for(d):
            return None  # the fixer refuses every other case, whatever the file holds
        text = self.text_of(d.path)
        if text is None:
            return None
        fixed = self.by_spans(d, text, spec)
        if fixed is UNSURE:
            fixed = self.by_libcst(d, spec.fixer)
        if not isinstance(fixed, str) or fixed == text:  # None: no fix
            return None
        from .edits import edits_between

        if spec.tidies_imports:
            from .typing_imports import without_newly_unused

            fixed = without_newly_unused(text, fixed)

        return Fix(message=spec.message, edits=edits_between(d.path, text, fixed))

    def by_spans(self, d: Diagnostic, text: str, spec: RuleFix) -> str | object | None:
        """The fixed text from `ast` spans, None for no fix, `UNSURE` when libcst must decide."""
        if spec.splice is None:
            return UNSURE
        src = self.ast_source(d.path, text)
        if src is None:
            return UNSURE
        from .ast_source import Unsure

        try:
            fixed: str | None = _load(spec.splice)(src, d)
        except Unsure:
            return UNSURE
        except Exception as exc:
            raise FixerBug(d, exc) from exc
        return fixed

    def by_libcst(self, d: Diagnostic, fixer: str) -> str | None:
        source = self.source(d.path)
        if source is None:
            return None
        try:
            module = _load(fixer)(source, d)
        except Exception as exc:
            raise FixerBug(d, exc) from exc
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
        spec = fix_of(d.code) if d.fix is None else None
        text = text_of(d.path) if spec is not None and spec.fixer is not None and spec.safe else None
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
