"""The lint rules, one per module, and `lint()` which runs them over a graph.

Each rule is a small class (see `base.Rule`) carrying its own valid and invalid
examples; the test suite lints every example. `lint()` is the API the CLI,
`serve` and `new` call.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from resolver_core.builder import build_graph
from resolver_core.diagnostics import Diagnostic
from resolver_core.model import Graph
from resolver_core.source import without_cyclic_gc

if TYPE_CHECKING:
    from lint_rules.base import Rule
    from resolver_core.discovery import SourceFile


@dataclass(slots=True)
class LintResult:
    diagnostics: list[Diagnostic]
    files: int
    parsed: int
    graph: Graph = field(repr=False)

    def count(self, severity: str) -> int:
        return sum(1 for d in self.diagnostics if d.severity == severity)


def run_rules(graph: Graph, rules: Iterable[type] | None = None) -> list[Diagnostic]:
    """Run rules over a graph; identical diagnostics are reported once, in contract order."""
    from lint_rules.registry import ALL_RULES

    unique: dict[tuple[object, ...], Diagnostic] = {}
    for rule_cls in rules if rules is not None else ALL_RULES:
        for d in rule_cls().check(graph):
            unique.setdefault(d.sort_key(), d)
    return sorted(unique.values(), key=Diagnostic.sort_key)


def lint(
    paths: Sequence[str | os.PathLike[str]],
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] = (),
    extend_select: Iterable[str] = (),
    source_overrides: Mapping[Path, str] | None = None,
    src: Sequence[str | os.PathLike[str]] = (),
    exclude: Sequence[str] = (),
    cwd: Path | None = None,
    cache_dir: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> LintResult:
    """Statically check `paths` (files or folders); nothing is imported or run.

    With `cache_dir`, a run whose inputs (files read, options, version) are unchanged
    returns the stored result without parsing anything (see `resolver_core.cache`).
    """
    from lint_rules.registry import select_rules

    rules = select_rules(select, ignore, extend_select)
    with without_cyclic_gc():
        if cache_dir is None or source_overrides:
            return _lint(
                paths,
                rules,
                source_overrides=source_overrides,
                src=src,
                exclude=exclude,
                cwd=cwd,
                progress=progress,
            )
        return _cached_lint(
            paths,
            rules,
            src=src,
            exclude=exclude,
            cwd=cwd or Path.cwd(),
            cache_dir=cache_dir,
            progress=progress,
        )


def _cached_lint(
    paths: Sequence[str | os.PathLike[str]],
    rules: list[type[Rule]],
    *,
    src: Sequence[str | os.PathLike[str]],
    exclude: Sequence[str],
    cwd: Path,
    cache_dir: Path,
    progress: Callable[[int, int], None] | None,
) -> LintResult:
    from resolver_core.cache import ResultCache, make_key
    from resolver_core.discovery import discover

    files = discover(paths, exclude, cwd)
    options = [str(cwd), *map(str, paths), "|", *(r.code for r in rules), "|", *map(str, src), "|", *exclude]
    key = make_key([f.path.absolute() for f in files], options)
    cache = ResultCache(cache_dir)
    entry = cache.load(key)
    if entry is not None:
        diagnostics = [Diagnostic.model_validate(d) for d in entry["diagnostics"]]
        return LintResult(diagnostics, entry["files"], entry["parsed"], _sources_graph(diagnostics, cwd))
    result = _lint(
        paths, rules, source_overrides=None, src=src, exclude=exclude, cwd=cwd, progress=progress, files=files
    )
    payload = {
        "diagnostics": [d.model_dump(mode="json") for d in result.diagnostics],
        "files": result.files,
        "parsed": result.parsed,
    }
    cache.store(key, payload, result.graph.inputs)
    return result


def _sources_graph(diagnostics: list[Diagnostic], cwd: Path) -> Graph:
    """A graph holding only the texts renderers need to draw code frames for a cached result."""
    from resolver_core.model import SourceInfo
    from resolver_core.source import decode

    graph = Graph()
    for path in {d.path for d in diagnostics}:
        try:
            # `is_file()` first: a FIFO named in a diagnostic would block the read forever.
            text = decode((cwd / path).read_bytes()) if (cwd / path).is_file() else None
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
            text = None
        graph.sources[path] = SourceInfo("", path, text is not None, text)
    return graph


def _lint(
    paths: Sequence[str | os.PathLike[str]],
    rules: list[type[Rule]],
    *,
    source_overrides: Mapping[Path, str] | None,
    src: Sequence[str | os.PathLike[str]],
    exclude: Sequence[str],
    cwd: Path | None,
    progress: Callable[[int, int], None] | None = None,
    files: Sequence[SourceFile] | None = None,
) -> LintResult:
    graph = build_graph(
        paths,
        src=src,
        exclude=exclude,
        source_overrides=source_overrides,
        cwd=cwd,
        progress=progress,
        files=files,
    )
    diagnostics = run_rules(graph, rules)
    if any("mcpdeps:" in (info.text or "") for info in graph.sources.values()):
        from lint_rules.suppressions import apply_suppressions

        diagnostics = apply_suppressions(diagnostics, graph, [r.code for r in rules], graph.checked)
    unparsed = {f.span.path for f in graph.findings if f.code == "MCPD000"}
    return LintResult(diagnostics, graph.files, graph.files - len(unparsed), graph)


__all__ = ["LintResult", "lint", "run_rules"]
