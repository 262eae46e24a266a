"""`lint()`, which runs the rules over the graph of the given files, and what it returns.

`lint()` is the API the CLI, `serve`, `new`, the language server and the agent call (as
`mcpdeps.lint_rules.lint`). It lives here, not in the package's `__init__`, so that the
package can be imported without the diagnostics' pydantic models: a warm `lint` that
replays its report (`cli/lint/report_memo.py`) never loads them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from ..resolver_core.diagnostics import Diagnostic, NotPlain, from_plain, plain
from ..resolver_core.file_states import Seen
from ..resolver_core.model import Graph
from ..resolver_core.records import slotted
from ..resolver_core.source import without_cyclic_gc

if TYPE_CHECKING:
    from ..resolver_core.discovery import SourceFile
    from ..resolver_core.unclassified import Classified
    from .base import Rule
    from .lint_state import State, StateStore


@slotted
class LintResult:
    """What `lint()` found, and what the reports count (files, servers, tools)."""

    diagnostics: list[Diagnostic]
    files: int
    parsed: int
    graph: Graph = field(repr=False)
    analysed: int = 0
    """Given files checked in this run; the others kept their cached verdicts."""
    fixes: bool = False
    """`fix` is filled on every diagnostic that has a safe one (`lint(fixes=True)`)."""
    fixed: bool = False
    """What is left after `--fix` ran: no diagnostic here may be fixed by running it again."""
    skipped: str | None = None
    """The sentence naming the folders skipped because they cannot be read (`discovery.unreadable_note`)."""
    seen: Seen | None = None
    """What these verdicts were computed from (runs with a cache): the report memo
    (`cli/lint/report_memo.py`) replays a report only while all of it holds."""
    servers: int = 0
    """Servers the given files create or register tools on (`per_file.analysed`)."""
    tools: int = 0
    """Tools those servers keep."""

    def count(self, severity: str) -> int:
        return sum(1 for d in self.diagnostics if d.severity == severity)


def run_rules(graph: Graph, rules: Iterable[type] | None = None) -> list[Diagnostic]:
    """Run rules over a graph; identical diagnostics are reported once, in contract order."""
    from .registry import ALL_RULES

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
    jobs: int = 1,
    fixes: bool = False,
    files: Sequence[SourceFile] | None = None,
    importers: bool = True,
    meanwhile: Callable[[], object] | None = None,
) -> LintResult:
    """Statically check `paths` (files or folders); nothing is imported or run.

    Verdicts are computed per given file and united (`lint_rules.per_file`). With
    `cache_dir`, each file's verdicts are kept between runs and only the files an edit can
    have changed are checked again (`lint_rules.incremental`). With `jobs` > 1, large runs
    are split over that many worker processes (`lint_rules.parallel`); verdicts are the same.
    With `fixes`, every fixable diagnostic gets its `fix` (the json and sarif formats list
    them); the cache keeps them, so only new diagnostics or edited files cost a fixer run.
    Files that import a given file (directly or through others) are checked too, and what
    they find is reported where it is located in a given file (`resolver_core.companions`):
    `lint deps.py` says about `deps.py` what `lint .` says about it.
    `files`: what `companions.run_files(paths, exclude, cwd, cache_dir)` gives, when the
    caller has it. `importers=False`: the given files alone (`serve`'s gate judges the server
    its file builds, not what other files register). `meanwhile`: what the caller will need
    once the run is done (its report's modules), loaded while workers check the last slices
    and a core is free (`parallel.Workers.map`).
    """
    from ..resolver_core.companions import run_files
    from ..resolver_core.discovery import Discovered, GivenFiles, discover, unreadable_note
    from .incremental import analyse
    from .lint_state import StateStore
    from .per_file import analysed
    from .registry import select_rules

    rules = select_rules(select, ignore, extend_select)
    cwd = cwd or Path.cwd()
    with without_cyclic_gc():
        if files is None:
            files = run_files(paths, exclude, cwd, cache_dir) if importers else discover(paths, exclude, cwd)
        skipped = unreadable_note(files)  # said before `files` becomes a plain list
        parses = files.parses if isinstance(files, Discovered) else None
        files = list(files)
        store = None
        if cache_dir is not None and not source_overrides:
            from ..resolver_core.search_roots import default_roots, root_names

            # The roots too: a project root or `src/` that appears moves imports, not files.
            roots = root_names(default_roots(files, paths, cwd, src))  # the given files' project
            options = [str(cwd), "|", *(r.code for r in rules), "|", *map(str, src)]
            # Each root once: `lint .` (the root given, and found) and `lint FILE` share records.
            key = [*options, "|", *exclude, "|", *dict.fromkeys(roots)]
            store = StateStore(cache_dir, key, list(map(str, paths)))
        given = GivenFiles(files, parses)  # indexed once for every slice's build

        def build(
            only: set[Path] | None,
            report: bool,
            withheld: frozenset[Path],
            classified: Classified,
            piece: bool = False,
        ) -> Graph:
            from ..resolver_core.builder import build_graph  # only when something needs analysing

            return build_graph(
                paths,
                src=src,
                exclude=exclude,
                source_overrides=source_overrides,
                cwd=cwd,
                progress=progress if report else None,
                files=given,
                only=only,
                hashing=store is not None,
                withheld=withheld,
                classified=classified,
                piece=piece,
            )

        outcome = analyse(
            files,
            rules,
            build,
            _previous(store, files, cwd) if store is not None else None,
            jobs=jobs,
            progress=progress,
            remember=store is not None,
            read=given.read_ahead,
            meanwhile=meanwhile,
        )
        state, graph = outcome.state, outcome.graph
        changed = False
        stored = _stored(state.result) if outcome.checked == 0 else None
        if stored is not None:
            # Nothing to re-check: the last run's report stands (suppressions included: every
            # file a diagnostic or a directive is in was hashed).
            diagnostics = stored
            _read_sources(graph, {d.path for d in diagnostics}, cwd)
        else:
            diagnostics = report(state, files, rules, graph, cwd, exclude, cache_dir)
            state.result = [plain(d) for d in diagnostics]
            changed = True
        if fixes:
            from .fixes import attach_fixes

            def text_of(path: str) -> str | None:
                info = graph.sources.get(path)
                return info.text if info is not None else None

            diagnostics, state.fixes, computed = attach_fixes(diagnostics, text_of, state.fixes)
            changed = changed or computed
        seen = None
        if store is not None:
            state.stats = outcome.hashes.stats(state.hashes)
            if changed or outcome.hashes.outdated():
                store.store(state)
            seen = Seen(state.files, state.hashes, state.stats, roots)
        named = [f.display for f in files if not f.companion]  # not the importers checked for them
        unparsed = sum(1 for o in named if o in state.records and state.records[o].unparsed)
        servers, tools = analysed(named, state.records)
        return LintResult(
            diagnostics,
            len(named),
            len(named) - unparsed,
            graph,
            outcome.checked,
            fixes,
            skipped=skipped,
            seen=seen,
            servers=servers,
            tools=tools,
        )


def _previous(store: StateStore, files: Sequence[SourceFile], cwd: Path) -> State | None:
    """The state of this list of paths, or else what other lists' states hold for its files."""
    from ..resolver_core.discovery import signature

    state = store.load()
    if state is not None and state.files == signature(files):
        return state
    from .adoption import adopted

    return adopted(files, store.siblings(), cwd) or state


def _stored(result: list[dict[str, object]] | None) -> list[Diagnostic] | None:
    """The last run's report, as the state kept it; None when there is none (or it is damaged)."""
    if result is None:
        return None
    try:
        return [from_plain(Diagnostic, d) for d in result]
    except NotPlain:
        return None


def report(
    state: State,
    files: Sequence[SourceFile],
    rules: Sequence[type[Rule]],
    graph: Graph,
    cwd: Path,
    exclude: Sequence[str] = (),
    cache_dir: Path | None = None,
) -> list[Diagnostic]:
    """Every file's record united, then the suppressions applied (and judged).

    `graph` supplies the texts of the files read (the language server's holds unsaved ones).
    Two files registering one tool name are met in the order the project's programs import
    them (`import_order.DisplayRanks`, reading the import index under `cache_dir`). A refusal
    a test expects (`with pytest.raises(InvalidSignature):`) is not reported (`expected_refusals`).
    """
    from ..resolver_core.import_order import DisplayRanks
    from .expected_refusals import without_expected
    from .per_file import combine

    checked = {f.display for f in files if not f.companion}
    only = checked if len(checked) < len(files) else None
    ranks = DisplayRanks(cwd, exclude, cache_dir)
    diagnostics = combine([f.display for f in files], state.records, rules, only, ranks)
    _read_sources(graph, [*{d.path for d in diagnostics}, *state.directives], cwd)
    diagnostics = without_expected(diagnostics, lambda path: graph.sources[path].text)
    if state.directives or any("mcpdeps:" in (graph.sources[d.path].text or "") for d in diagnostics):
        from .suppressions import apply_suppressions

        diagnostics = apply_suppressions(diagnostics, graph, [r.code for r in rules], checked)
    return diagnostics


def _read_sources(graph: Graph, paths: Iterable[str], cwd: Path) -> None:
    """Add the texts renderers and suppressions need for files this run did not read."""
    from ..resolver_core.model import SourceInfo
    from ..resolver_core.source import decode

    for path in paths:
        if path in graph.sources:
            continue
        try:
            # `is_file()` first: a FIFO named in a diagnostic would block the read forever.
            text = decode((cwd / path).read_bytes()) if (cwd / path).is_file() else None
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
            text = None
        graph.sources[path] = SourceInfo("", path, text is not None, text)


__all__ = ["LintResult", "lint", "report", "run_rules"]
