"""One workspace folder's project model, kept in memory and updated per changed document.

It is `mcpdeps lint .` run in the folder, split the way the incremental cache splits it
(`lint_rules.per_file` records, `lint_rules.incremental.check_files`): each given file keeps
its record and the files its analysis read (its closure). An edit to a file marks *stale*
only the given files whose closure contains it; `check` re-checks the stale files it is
asked for and keeps every other record, and `report` unites the records exactly as `lint`
does (suppressions, `per-file-ignores`: `lint_rules.api.report_records`, with the settings
`lint` would read, `api.settings_for`). Parsed modules live in one `Project` for the whole
session: an edit re-parses that one file (`Project.set_text`), never the project.

A file with tools registered on a `register(server)` parameter (a coupled record) is
judged with its callers, which can be anywhere: an edit reaches them the way it does in
`lint` (`lint_rules.invalidation`: `widened` when the edit marks files stale, and
`check_reached`'s rounds when a check finds a caller the records did not know of), never
the whole project. Every build names all the workspace files, as `lint`'s name all the
given files, so no check of a part of them says what a check of them all would not.

Two departures from a plain re-run, both for typing in an editor:
- a file that stops parsing (mid-typing) gets its MCPD000 but keeps the rest of its last
  good record (what it said about other files), and the files that import it are not
  re-checked against a module with no tree: they keep their last results until it parses
  again;
- a file created, deleted or renamed, or a changed configuration, starts a new model
  (module names and import targets may move), as the incremental cache does.

Nothing here imports or runs user code, and nothing imports `mcp`.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable, Sequence
from dataclasses import field, replace
from pathlib import Path

from ...lint_rules import api, invalidation
from ...lint_rules.incremental import Checked, check_files
from ...lint_rules.lint_state import State
from ...lint_rules.per_file import FileRecord
from ...lint_rules.settings import Settings
from ...resolver_core.builder import build_graph
from ...resolver_core.companions import run_files
from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.discovery import GivenFiles, SourceFile
from ...resolver_core.file_states import Hashes
from ...resolver_core.model import Graph, SourceInfo
from ...resolver_core.project import Project
from ...resolver_core.records import slotted
from ...resolver_core.search_roots import default_roots
from ...resolver_core.source import without_cyclic_gc
from ...resolver_core.unclassified import EVERY_TOOL, Classified

log = logging.getLogger(__name__)


@slotted
class Change:
    """What a text change did to the model: the given files to check again, or a reset."""

    stale: set[str] = field(default_factory=set)
    reset: bool = False


class WorkspaceModel:
    """The lint model of one folder: records per given file, one parsed project, unsaved texts."""

    def __init__(
        self, root: Path, overlay: dict[Path, str] | None = None, targets: Sequence[str] = (".",)
    ) -> None:
        self.root = root.absolute()
        self.targets = list(targets)
        """What `lint` would be given in `root`: the folder, or a stray file's name alone."""
        self.config_error: str | None = None
        self.settings = self._settings()
        self.rules = api.rules_for(self.settings)
        # The folder's files and, when the folder is part of a larger project (an editor opened
        # on `src/pkg`), the project files that import them: what `lint .` checks there.
        self.files: list[SourceFile] = run_files(self.targets, self.settings.exclude, self.root)
        self.order = [f.display for f in self.files]
        self.path_of = {f.display: f.path.absolute() for f in self.files}
        self.display_of = {p: d for d, p in self.path_of.items()}
        self._display_by_key = {str(p): d for p, d in self.display_of.items()}
        """The given files' displays by the keys closures hold (`State.deps`: absolute paths)."""
        self.given = GivenFiles(self.files)
        """Every build names all of them, as `lint`'s builds name every given file (`_build`)."""
        self.project = Project(
            default_roots(self.files, self.targets, self.root, self.settings.src), overlay, self.root
        )
        for f in self.files:
            self.project.set_display(f.path, f.display)
        self.hashes = Hashes(self.project.overrides)
        self._users: dict[str, dict[str, set[str]]] = {}
        """Resolver file -> resolver key -> the given files whose tools run it."""
        self.position = {d: i for i, d in enumerate(self.order)}
        self._dependents: dict[str, set[str]] = {}
        """File (absolute) -> the given files whose closure holds it."""
        self.stamp = self._config_stamp()
        self._reported: list[Diagnostic] | None = None
        self._with_diagnostics: dict[str, set[str]] = {}
        """Per given file, the files its record has diagnostics in (for `sources`)."""
        self.state = State()
        self.stale: set[str] = set(self.order)
        """Given files whose record is missing or older than the texts it depends on."""
        self.edited: set[str] = set()
        """Stale given files whose own text changed since their record was made."""
        self.unchecked: set[str] = set(self.order)
        """Given files not checked yet by this model (a record adopted from an older one may be)."""
        self.waiting: dict[Path, set[str]] = {}
        """Per file that does not parse now: the importers kept on their last results until it does."""
        self.generation = 0
        """Counts text changes (what a cached `graph_around` was built on)."""
        self._around: tuple[tuple[int, frozenset[str]], Graph] | None = None
        self.graph = Graph()
        """The graph of the last check (its resolvers and tools; sources of every module read)."""
        self._may_couple: bool | None = None
        """`first_batch_whole`'s reading of the texts, made once."""

    def adopt(self, old: WorkspaceModel) -> None:
        """Start from an older model's results (shown until checked again); all stay stale."""
        for origin in self.order:
            if origin in old.state.records and origin in old.state.deps:
                self.state.records[origin] = old.state.records[origin]
                self._index(origin, None, old.state.records[origin])
                self._with_diagnostics[origin] = old._with_diagnostics.get(origin, set())
                self._depend(origin, old.state.deps[origin])
        self.state.directives = [o for o in old.state.directives if o in self.path_of]

    # ------------------------------------------------------------------ settings
    def _settings(self) -> Settings:
        """`[tool.mcpdeps]` found from the folder, as `lint` finds it; a bad file: defaults, and why."""
        try:
            return api.settings_for(api.LintRequest(self.targets, self.root))
        except api.RequestError as exc:
            self.config_error = str(exc)
            return api.default_settings()

    @property
    def config_files(self) -> list[Path]:
        """Files whose change means new settings (the one in use, and every candidate above)."""
        return api.config_files(self.root)

    def _config_stamp(self) -> tuple[tuple[str, int, int], ...]:
        stamp = []
        for path in self.config_files:
            try:
                st = path.stat()
            except OSError:
                continue
            stamp.append((str(path), st.st_mtime_ns, st.st_size))
        return tuple(stamp)

    def config_changed(self) -> bool:
        """Whether a configuration file appeared, changed or went away since the model was made
        (looked at on every edit: not every client reports file changes)."""
        return self._config_stamp() != self.stamp

    # ------------------------------------------------------------------ edits
    def knows(self, path: Path) -> bool:
        return path.absolute() in self.display_of

    def set_text(self, path: Path, text: str | None) -> Change:
        """An editor's text for `path` (None: the file on disk, after a save, close or change)."""
        path = path.absolute()
        if text is not None and text == self.project.overrides.get(path):
            return Change()
        before = self.project.module_at(path)
        judged = text is not None and before is not None and before.text == text and path in self.display_of
        self.project.set_text(path, text)
        self.generation += 1
        self.hashes.pop(str(path), None)
        own = {self.display_of[path]} if path in self.display_of else set()
        if judged:
            # A document opened with the text its records were made from: the files that read
            # it keep theirs; it is checked again only to be published.
            self.stale |= own
            return Change(own)
        dependents = set(self._dependents.get(str(path), ()))
        if not own:
            self._reported = None  # its suppression comments may silence what others report
        module = self.project.module_at(path)
        if module is not None and module.tree is None:
            # Mid-typing: the file reports its syntax error, its importers keep their results.
            self.waiting.setdefault(path, set()).update(dependents - own)
            dependents = set()
        else:
            dependents |= self.waiting.pop(path, set())
        stale = invalidation.widened(
            dependents | own, self.state.records, self.state.deps, self._display_by_key
        )
        self.stale |= stale
        self.edited |= own
        return Change(stale)

    # ------------------------------------------------------------------ checks
    def check(self, origins: Iterable[str]) -> set[str]:
        """Re-check these stale given files, and what they reach, as `lint` does
        (`invalidation.widened`, then `check_reached`); the others keep their records.
        Returns the files checked."""
        asked = invalidation.widened(
            (o for o in origins if o in self.stale), self.state.records, self.state.deps, self._display_by_key
        )
        if not asked:
            return set()
        # Off for the rules and records too, not only the builds (`build_graph`): with the
        # collector on, the young collections of the records' objects walked the trees.
        with without_cyclic_gc():
            checked, _ = invalidation.check_reached(
                asked, self._check, self.state.records, self.state.deps, self._display_by_key, self.edited
            )
        todo = [o for o in self.order if o in checked.records]
        for origin in todo:
            new = checked.records[origin]
            old = self.state.records.get(origin)
            self.state.records[origin] = _keep_good_parts(new, old, origin)
            if (
                self.state.records[origin] != old
                or origin in self.state.directives
                or origin in checked.directives
            ):
                self._reported = None  # what `report` returns can have changed
            self._index(origin, old, self.state.records[origin])
            self._with_diagnostics[origin] = {d["path"] for d, _ in self.state.records[origin].diagnostics}
            self._depend(origin, checked.deps[origin])
        directives = set(self.state.directives) - set(todo) | checked.directives
        self.state.directives = [o for o in self.order if o in directives]
        if checked.graph is not None:
            self.graph = checked.graph
        self.stale -= set(todo)
        self.edited -= set(todo)
        self.unchecked -= set(todo)
        return set(todo)

    def _check(self, files: set[str], last: Checked | None) -> Checked:
        """One round of `check`: a build of `files` (`check_reached` adds what they reach).

        A `register(server)` function lands its tools on the servers its callers pass, and a
        caller's closure shows the function only once a build has followed the calls from
        both ends: while the first pass goes on, a round that finds such a function checks
        every file in one build, as `lint`'s first run does (round after round, the builds
        grew towards every file, and what they left was checked in small batches, each
        following the coupled files again). Later edits reach what they change
        (`invalidation.widened`)."""
        todo = [o for o in self.order if o in files]
        checked = check_files(todo, self.path_of, self._build, self.rules, self.hashes)
        if self.unchecked - files and any(r.coupled for r in checked.records.values()):
            checked = check_files(self.order, self.path_of, self._build, self.rules, self.hashes)
        return checked

    def _build(
        self,
        only: Collection[Path] | None,
        _progress: bool,
        withheld: frozenset[Path],
        _classified: Classified = EVERY_TOOL,
        _piece: bool = False,
    ) -> Graph:
        """The graph of the given files in `only` (all: None), from the parsed project.

        Every given file is named to the builder, as `lint`'s builds name them (`only` says
        which are read): a file's verdicts then do not depend on which others are checked
        with it. A build naming only the files it checks takes a `register(server)` module
        left out for one the checked caller passes its server to (`Tool.origin`), and that
        caller's record reports the module's tools as its own too (a duplicate MCPD110).
        Every tool is classified: the model's graphs also answer what the editor asks of any
        tool (`graph_around`), and its records hold for every later edit.
        """
        return build_graph(
            self.targets,
            src=self.settings.src,
            exclude=self.settings.exclude,
            cwd=self.root,
            files=self.given,
            only=only,
            project=self.project,
            withheld=withheld,
        )

    def first_batch_whole(self) -> bool:
        """Whether the first pass's background should check every stale file in one batch: a
        file may register on a server its callers pass (`coupling.coupled_files`, read from
        the files' texts, once), so the first batch finding it would check every file anyway
        (`_check`), after rounds that built towards them for nothing."""
        if self._may_couple is None:
            from ...lint_rules.coupling import coupled_files

            found = coupled_files(self.order, self.path_of)
            self._may_couple = found is None or bool(found)
        return bool(self.unchecked) and self._may_couple

    def priority(self, open_paths: Iterable[Path]) -> list[str]:
        """The stale files to check first: the open ones, and the first tool file of each
        resolver an open file defines (its diagnostics are reported with that file's tools)."""
        wanted = {self.display_of[p.absolute()] for p in open_paths if p.absolute() in self.display_of}
        shown = {self.project.display(p) for p in open_paths}
        wanted |= {users[0] for display in shown for users in self.users(display)}
        return [o for o in self.order if o in self.stale and o in wanted]

    def graph_around(self, path: Path, every_consumer: bool = False) -> Graph:
        """A graph holding what the editor asks about in `path`: its own tools, and the tools
        that run the resolvers it defines (the first of each; `every_consumer`: all of them).

        Built from the parsed project (nothing is re-read), and kept until the next edit.
        """
        display = self.project.display(path)
        files = {display} if display in self.path_of else set()
        for users in self.users(display):
            files.update(users if every_consumer else users[:1])
        key = (self.generation, frozenset(files))
        if self._around is None or self._around[0] != key:
            only = {self.path_of[f] for f in files}
            graph = self._build(only, False, frozenset()) if only else Graph()
            self._around = (key, graph)
        return self._around[1]

    def _depend(self, origin: str, deps: list[str]) -> None:
        """Record a given file's closure, and the reverse index `set_text` reads."""
        for path in self.state.deps.get(origin, ()):
            self._dependents.get(path, set()).discard(origin)
        self.state.deps[origin] = deps
        for path in deps:
            self._dependents.setdefault(path, set()).add(origin)

    def _index(self, origin: str, old: FileRecord | None, new: FileRecord) -> None:
        """Keep `_users` in step with one file's new record."""
        for key in old.consumed if old is not None else ():
            self._users.get(_key_path(key), {}).get(key, set()).discard(origin)
        for key in new.consumed:
            self._users.setdefault(_key_path(key), {}).setdefault(key, set()).add(origin)

    def verdict_ready(self, display: str) -> bool:
        """Whether what the model knows of `display` is its verdict: its own check is done and,
        while the first pass goes on, it registers a tool, does not parse, or a tool checked
        already runs a resolver it defines. A resolver module's findings are found by its tools'
        files: shown after its own check alone, it was clean for a moment, then had its error."""
        if display in self.stale:
            return False
        record = self.state.records.get(display)
        if not self.unchecked or record is None:
            return True
        return bool(record.registrations) or record.unparsed or bool(self.users(display))

    def users(self, display: str) -> list[list[str]]:
        """For each resolver defined in `display`, the given files whose tools run it, in order."""
        return [
            sorted(users, key=self.position.__getitem__)
            for users in self._users.get(display, {}).values()
            if users
        ]

    # ------------------------------------------------------------------ results
    def report(self) -> list[Diagnostic]:
        """Every record united, suppressions and `per-file-ignores` applied: `lint --format json`'s list.

        Kept until a check changes a record or a file with a suppression comment: typing
        inside a line mostly changes neither, and uniting thousands of records is the one
        cost of a keystroke that grows with the project.
        """
        if self._reported is None:
            self._reported = self._report()
        return self._reported

    def _report(self) -> list[Diagnostic]:
        graph = replace(self.graph, sources=self.sources())
        records = self.state.records
        done = (
            self.files if len(records) == len(self.files) else [f for f in self.files if f.display in records]
        )
        return api.report_records(self.state, done, self.settings, graph, self.root)

    def sources(self) -> dict[str, SourceInfo]:
        """The texts suppressions are read from: files with a diagnostic or a directive, and the
        open ones (their unsaved text). Any other file a diagnostic names is read from disk."""
        wanted = set().union(*self._with_diagnostics.values())
        wanted.update(self.state.directives)
        wanted.update(self.project.display(p) for p in self.project.overrides)
        out = {}
        for display in wanted:
            module = self.project.module_at(self.root / display)
            if module is not None:
                out[display] = SourceInfo(module.name, display, module.tree is not None, module.text)
        return out

    def text(self, display: str) -> str | None:
        """A file's current text (the editor's when it is open)."""
        path = (self.root / display).absolute()
        if path in self.project.overrides:
            return self.project.overrides[path]
        module = self.project.module_at(path)
        if module is not None and module.text is not None:
            return module.text
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None


def _keep_good_parts(new: FileRecord, old: FileRecord | None, origin: str) -> FileRecord:
    """A file that no longer parses reports MCPD000 and keeps what it last said about others."""
    if not new.unparsed or old is None or old.unparsed:
        return new
    kept = [(d, key) for d, key in old.diagnostics if d["path"] != origin]
    return replace(
        new, diagnostics=[*new.diagnostics, *kept], consumed=old.consumed, registrations=old.registrations
    )


def _key_path(key: str) -> str:
    """The file of a resolver key (`kind:qualname@path:line:col`); '' for one without source."""
    _, at, where = key.rpartition("@")
    return where.rsplit(":", 2)[0] if at else ""
