"""The one engine behind every front end: lint, graph, explain and fix plans, settings included.

`mcpdeps lint`, `graph` and `rule`, the language server and `mcpdeps mcp` are front ends:
each reads its input (a command line, an LSP message, a tool call), asks this module, and
renders what it gets back. Whatever decides a verdict is here, once: which configuration
file a run reads (`CONFIG_NAMES`, found upward from the first path), how rule flags lay
over it, `per-file-ignores`, the fix plan every front end applies, the one message for an
unknown rule, the graph a document is drawn from. Two front ends asking the same question
get the same answer because they ask the same function.

Requests and results are plain dataclasses; nothing here prints, imports typer or rich, or
knows how a front end shows a refusal: a request the engine cannot serve raises
`RequestError`, whose message is one sentence for the user (the command line prints it and
exits 2, the agent returns it as a tool error, the editor shows it in a window; it lives in
`lint_rules/request_error.py`, which every start-up imports). Modules load inside the
functions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from ...resolver_core.records import record
from ..config_files import CONFIG_NAMES
from ..request_error import RequestError

if TYPE_CHECKING:
    from ...resolver_core.diagnostics import Diagnostic, Fix
    from ...resolver_core.discovery import SourceFile
    from ...resolver_core.model import Graph
    from .. import LintResult
    from ..base import Rule
    from ..config import FailOn
    from ..fixes.engine import FixPlan
    from ..lint_state import State
    from ..settings import Settings
    from .graphs import GraphResult

__all__ = [
    "CONFIG_NAMES",
    "GraphRequest",
    "LintRequest",
    "RequestError",
    "RulePage",
    "choose",
    "concerns",
    "config_files",
    "default_settings",
    "explain",
    "fix_plan",
    "graph",
    "is_unsafe_fix",
    "lint",
    "quick_fixes",
    "report_records",
    "rule_pages",
    "rules_for",
    "settings_for",
    "with_fixes",
    "write_fixes",
]

COMMAND_LINE_FLAGS: Mapping[str, str] = {
    "select": "--select",
    "ignore": "--ignore",
    "extend_select": "--extend-select",
}
"""How `mcpdeps lint` names the rule flags in its messages (`--select: unknown rule ...`)."""


@record
class LintRequest:
    """What to lint and with which flags; the configuration file is found from `paths`.

    `paths` are as the user gave them, relative to `cwd` (they name the files in every
    diagnostic). `texts`: unsaved texts by absolute path (the editor's buffers, the source of
    `--stdin-filename`), read instead of the files on disk.
    """

    paths: Sequence[str]
    cwd: Path
    config_file: Path | None = None
    select: Sequence[str] = ()
    ignore: Sequence[str] = ()
    extend_select: Sequence[str] = ()
    exclude: Sequence[str] | None = None
    """Replaces the configuration's `exclude` (None: keep it)."""
    extend_exclude: Sequence[str] = ()
    fail_on: FailOn | None = None
    texts: Mapping[Path, str] | None = None
    flags: Mapping[str, str] = field(default_factory=lambda: COMMAND_LINE_FLAGS)
    """How the front end names `select`, `ignore` and `extend_select` to its user, for messages."""


def settings_for(request: LintRequest) -> Settings:
    """The run's settings: the configuration file found for its paths, the rule flags checked and laid on top.

    A flag naming no rule is refused (not a silently empty selection), as is a configuration
    file that cannot be used.
    """
    from ..config import config_for
    from ..config_files import ConfigError
    from ..registry import UnknownRule, matching
    from ..settings import merge

    for name in ("select", "ignore", "extend_select"):
        for selector in getattr(request, name):
            try:
                matching(selector)
            except UnknownRule as exc:
                raise RequestError(f"{request.flags.get(name, name)}: {exc}.") from exc
    try:
        config = config_for(list(request.paths), request.config_file, request.cwd)
    except ConfigError as exc:
        raise RequestError(str(exc)) from exc
    return merge(
        config,
        select=list(request.select) or None,
        ignore=list(request.ignore),
        extend_select=list(request.extend_select),
        exclude=list(request.exclude) if request.exclude is not None else None,
        extend_exclude=list(request.extend_exclude),
        fail_on=request.fail_on,
    )


def config_files(folder: Path) -> list[Path]:
    """Every file whose appearance, change or removal gives `folder` new settings (the one in use
    and each candidate above it), for a front end that watches them."""
    from ..config_files import candidates

    return candidates(folder)


def default_settings() -> Settings:
    """The built-in settings (no configuration file, no flags): what an editor falls back to
    while the project's file cannot be used."""
    from ..config import default_config
    from ..settings import merge

    return merge(default_config())


def rules_for(settings: Settings) -> list[type[Rule]]:
    """The rules a run with these settings checks."""
    from ..registry import select_rules

    return select_rules(settings.select, settings.ignore, settings.extend_select)


def lint(
    request: LintRequest,
    settings: Settings | None = None,
    *,
    cache_dir: Path | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    fixes: bool = False,
    files: Sequence[SourceFile] | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> LintResult:
    """Lint the request's paths (with its unsaved texts), `per-file-ignores` applied.

    `settings`: the request's `settings_for`, when the front end already read them (a report
    memo keyed by them); `fixes`: fill each diagnostic's fix (the json and sarif documents
    list them); `files`: the discovered files, when a front end already walked the tree;
    `meanwhile`: what the front end needs once the run is done (its renderer's modules),
    loaded while workers check the last slices and a core is free.
    """
    from ..settings import run

    return run(
        request.paths,
        settings or settings_for(request),
        source_overrides=request.texts,
        cwd=request.cwd,
        cache_dir=cache_dir,
        progress=progress,
        jobs=jobs,
        fixes=fixes,
        files=files,
        meanwhile=meanwhile,
    )


def report_records(
    state: State, files: Sequence[SourceFile], settings: Settings, graph_: Graph, cwd: Path
) -> list[Diagnostic]:
    """The diagnostics of per-file records kept in memory (the language server's model), united
    as `lint` unites them: suppressions, then `per-file-ignores`."""
    from .. import report
    from ..settings import without_ignored

    return without_ignored(
        report(state, files, rules_for(settings), graph_, cwd, settings.exclude), settings, cwd
    )


# ---------------------------------------------------------------------------- fixes


def fix_plan(
    request: LintRequest,
    settings: Settings | None = None,
    *,
    unsafe: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> FixPlan:
    """What `--fix` writes, `--diff` shows, the agent's `fix` proposes and the editor's "fix all"
    applies: every fix (`unsafe`: those that change behaviour too), in memory.

    Refused (nothing to write) if it would leave a file unparsable.
    """
    from ..fixes.engine import broken_by_fixes, plan_fixes

    plan = plan_fixes(
        request.paths,
        settings or settings_for(request),
        overrides=request.texts,
        cwd=request.cwd,
        progress=progress,
        unsafe=unsafe,
    )
    broken = broken_by_fixes(plan)
    if broken:
        raise RequestError(
            f"Fixing would have left {', '.join(sorted(broken))} unparsable, so nothing was written. "
            "This is a bug in mcpdeps; please report it with the file."
        )
    return plan


def with_fixes(result: LintResult) -> LintResult:
    """The result with each fixable diagnostic's fix filled in (what the json and sarif documents
    and the agent's `lint` list); as it is when `lint(fixes=True)` filled them already."""
    from ..fixes import with_fixes as filled

    return filled(result)


def write_fixes(plan: FixPlan, cwd: Path) -> list[str]:
    """Write a plan's files; one sentence per file left alone because it changed meanwhile."""
    from ..fixes.engine import write_plan

    return write_plan(plan, cwd)


def quick_fixes(
    text_of: Callable[[str], str | None], *, unsafe: bool = True
) -> Callable[[Diagnostic], Fix | None]:
    """The fix of one diagnostic at a time, on the texts `text_of` gives (the editor's quick fixes)."""
    from ..fixes import FixCache

    return FixCache(text_of, unsafe=unsafe).fix_for


def concerns(d: Diagnostic, tool: str) -> bool:
    """Whether a diagnostic is about `tool`: its own, or one united with that tool's (`same_place`)."""
    from ..same_place import concerns as about

    return about(d, tool)


def is_unsafe_fix(code: str) -> bool:
    """Whether this rule's fix changes behaviour (applied only when asked: `--unsafe-fixes`)."""
    from ..fixes import is_unsafe

    return is_unsafe(code)


# ---------------------------------------------------------------------------- explain


@record
class RulePage:
    """One rule's documentation: its facts, and the page `docs/rules.md` holds."""

    rule: type[Rule]
    fixable: bool
    markdown: str


def explain(selector: str) -> RulePage:
    """The page of the rule a code or kebab name names; an unknown one is refused with its
    did-you-mean and the codes there are."""
    from ..registry import ALL_RULES, UnknownRule, find_rule

    try:
        rule = find_rule(selector.strip())
    except UnknownRule as exc:
        known = _code_runs([r.code for r in ALL_RULES])
        raise RequestError(
            f"{exc}; the rules are {known} (`mcpdeps rule --all` explains them all)."
        ) from None
    return _page(rule)


def _code_runs(codes: list[str]) -> str:
    """`MCPD000-MCPD010, MCPD101-MCPD114`: sorted codes, consecutive numbers as one run."""
    runs: list[list[str]] = []
    for code in codes:
        if runs and int(code[4:]) == int(runs[-1][-1][4:]) + 1:
            runs[-1].append(code)
        else:
            runs.append([code])
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


def rule_pages() -> list[RulePage]:
    """Every rule's page, in code order."""
    from ..registry import ALL_RULES

    return [_page(rule) for rule in ALL_RULES]


def _page(rule: type[Rule]) -> RulePage:
    from ..docs import rule_markdown
    from ..fixes import is_fixable

    return RulePage(rule, is_fixable(rule.code), rule_markdown(rule))


# ---------------------------------------------------------------------------- graph


@record
class GraphRequest:
    """What to draw: files or folders (`FILE.py:NAME` draws the server NAME is or builds),
    relative to `cwd`, and the servers (by variable) and tools (by name) to keep."""

    paths: Sequence[str]
    cwd: Path
    servers: Sequence[str] = ()
    tools: Sequence[str] = ()

    def files(self) -> list[str]:
        """The files and folders the paths name (`app.py:build_server` names `app.py`)."""
        from .graph_specs import split_specs

        return [s.path for s in split_specs(self.paths, self.cwd)]


def graph(request: GraphRequest, progress: Callable[[int, int], None] | None = None) -> GraphResult:
    """The static graph of the request's files and the local modules they import, narrowed to its
    specs, servers and tools; `problems` on it when a front end draws them. Nothing is imported
    or run. Refused when nothing parsed, or a name matches nothing (with what exists)."""
    from .graphs import draw

    return draw(request, progress)


def choose(graph_: Graph, servers: Sequence[str] = (), tools: Sequence[str] = ()) -> Graph:
    """A graph narrowed to these servers and tools (a live graph, or one kept in an editor)."""
    from .graph_selection import select

    return select(graph_, servers, tools)
