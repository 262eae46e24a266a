"""Both fix paths on one file: the `ast` span fixer and the libcst fixer, side by side.

`FixCache.fix_for` takes the span fixer's text when it is sure and libcst's otherwise;
here both are asked for every fixable diagnostic, so a test can demand that wherever
the span fixer answers, its answer is libcst's, byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mcpdeps.lint_rules import lint
from mcpdeps.lint_rules.fixes import UNSURE, FixCache, fix_of
from mcpdeps.resolver_core.diagnostics import Diagnostic


@dataclass(frozen=True)
class Outcome:
    diagnostic: Diagnostic
    text: str
    spans: str | object | None
    """The span fixer's fixed text, None (no fix) or UNSURE."""
    libcst: str | None

    @property
    def decided(self) -> bool:
        return self.spans is not UNSURE


def outcomes_of(paths: list[Path], texts: dict[str, str] | None = None) -> list[Outcome]:
    """Every diagnostic with a fixer in `paths`, with both fixers' answers."""
    result = lint(paths, cwd=paths[0].parent if paths[0].is_file() else paths[0])
    sources = {p: i.text for p, i in result.graph.sources.items() if i.text is not None}
    cache = FixCache(sources.get)
    found = []
    for d in result.diagnostics:
        spec = fix_of(d.code)
        if spec is None or spec.fixer is None or d.fix is not None or d.path not in sources:
            continue
        text = sources[d.path]
        found.append(Outcome(d, text, cache.by_spans(d, text, spec), cache.by_libcst(d, spec.fixer)))
    return found


def outcomes_of_source(tmp_path: Path, source: str) -> list[Outcome]:
    path = tmp_path / "server.py"
    path.write_text(source, encoding="utf-8")
    return outcomes_of([path])


def mismatches(outcomes: list[Outcome]) -> list[str]:
    """Where the span fixer answered differently from libcst (None vs the unchanged text is the same: no fix)."""
    bad = []
    for o in outcomes:
        if not o.decided:
            continue
        spans = None if o.spans == o.text else o.spans
        libcst = None if o.libcst == o.text else o.libcst
        if spans != libcst:
            bad.append(
                f"{o.diagnostic.code} at {o.diagnostic.line}:{o.diagnostic.column}\n"
                f"--- libcst:\n{libcst}\n--- spans:\n{spans}"
            )
    return bad
