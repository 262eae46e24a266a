"""The language server: LSP messages in, the workspace models' verdicts out.

Every document event updates a `WorkspaceModel` at once (it only re-parses the file); the
checks run in one worker task. It starts `debounce` seconds after the last keystroke
(at once for an opened document), checks the stale open documents first — and the file
whose tools report on the resolvers an open document defines — publishes, then works
through the other stale files in batches (about 40 ms while the user types), yielding to the event loop between them
so that a new keystroke is never queued behind a whole-project check. Diagnostics are
published for open documents after each of their checks (with the document's version)
and for any other file whose diagnostics changed; a client that pulls diagnostics is sent
none, it is answered from the same results when it asks (`pull.py`).

Nothing but protocol goes to standard output (`command.py` hands the real stdout to pygls
and points `sys.stdout` at stderr); everything unexpected is logged to stderr and the
server goes on.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from ...lint_rules.api import CONFIG_NAMES
from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.discovery import unreadable_note
from ...resolver_core.lines import split_lines
from ...resolver_core.project import find_project_root
from ...resolver_core.workspaces import workspace_of
from .convert import Positions, path_of, to_lsp, uri_of
from .documents import LineWorkspace
from .pull import PullDiagnostics, register_pull
from .workspace import WorkspaceModel

log = logging.getLogger(__name__)

DEBOUNCE = 0.15
"""Seconds of quiet after a keystroke before checking (`initializationOptions.debounceMs`)."""
BATCH_SECONDS = 0.04
"""How long one background batch should take (batches grow and shrink to it)."""
IDLE_BATCH_SECONDS = 0.25
TYPING_SECONDS = 2.0
"""A keystroke this recent means the user is typing."""
MAX_BATCH = 256
PROGRESS_FROM = 64
"""Background passes over more stale files than this report `$/progress`."""
READ_PAUSE = 0.003
"""Seconds between background batches for the reader thread (see `_work`)."""
OPEN_WAIT = 0.1
"""Seconds from `initialized` to the first pass: a client opens the documents it shows right
after it, and the first pass checks them first. Started at once, its first background batch
ran before the `didOpen` was read, and on a project registering tools in `register(server)`
helpers that batch is one build of every file: the open document waited for all of it."""
PUBLISH_EVERY = 0.5
"""Seconds between publications while the background pass runs (open documents: at once)."""


class McpdepsServer(LanguageServer):
    """pygls' server plus the workspace models and the check scheduling."""

    def __init__(self, version: str) -> None:
        super().__init__("mcpdeps", version)
        self._said: set[str] = set()
        self.exit_code = 1
        """What `exit` ends the process with: 0 once `shutdown` was asked for (the protocol's rule)."""
        self.exiting = False
        """`exit` arrived (end of input without it is a client gone away: 0, as before)."""
        """Notes already logged (the folders that cannot be read), so a reset does not repeat them."""
        self.debounce = DEBOUNCE
        self.models: dict[Path, WorkspaceModel] = {}
        self.published: dict[str, list[Diagnostic]] = {}
        """Per file URI, what the client was last sent (to publish only what changed), or, to
        a client that pulls, what it is given when it asks."""
        self.pull: PullDiagnostics | None = None
        """Set when the client pulls diagnostics (`pull.register_pull`): then nothing is pushed."""
        self._fresh: set[str] = set()
        """Open documents to publish after the next check even if nothing changed."""
        self._timer: asyncio.TimerHandle | None = None
        self._quiet = asyncio.Event()
        self._worker: asyncio.Task[None] | None = None
        self._frozen = False
        self._batch = 4
        self._token: str | None = None
        self._begun = False
        self._last_publish = 0.0
        self._last_edit = 0.0
        self._total = 0

    def report_server_error(self, error: Exception, source: object) -> None:
        """A message that could not be read or handled: logged (stderr), never shown as a popup."""
        log.warning("could not handle a message (%s): %s", getattr(source, "__name__", source), error)

    # ------------------------------------------------------------------ models
    def add_folder(self, root: Path, targets: Sequence[str] = (".",)) -> WorkspaceModel:
        root = root.absolute()
        if root not in self.models:
            self.models[root] = WorkspaceModel(root, targets=targets)
            self._report_config(self.models[root])
        return self.models[root]

    def model_for(self, path: Path, create: bool = True) -> WorkspaceModel | None:
        """The model of the innermost workspace folder holding `path` (a new one for a stray file)."""
        inside = [r for r in self.models if path.is_relative_to(r)]
        if inside:
            model = self.models[max(inside, key=lambda r: len(r.parts))]
            if (
                create
                and model.targets != ["."]
                and path.parent == model.root
                and path.name not in model.targets
            ):
                model.targets.append(path.name)  # another stray file beside the first
                model = self.reset(model)
            return model
        if not create:
            return None
        project = find_project_root(path.parent)
        if project is not None:
            # A uv workspace's member is checked in its workspace, as `lint FILE` checks it there.
            workspace = workspace_of(project)
            return self.add_folder(workspace[0] if workspace is not None else project)
        # No project around it (a file in ~/Downloads): that file alone, never its whole folder.
        return self.add_folder(path.parent, targets=[path.name])

    def reset(self, model: WorkspaceModel) -> WorkspaceModel:
        """A new model for the same folder (files or settings changed), keeping what was known."""
        fresh = WorkspaceModel(model.root, dict(model.project.overrides), model.targets)
        fresh.adopt(model)
        self.models[model.root] = fresh
        self._report_config(fresh)
        return fresh

    def _report_config(self, model: WorkspaceModel) -> None:
        skipped = unreadable_note(model.files)
        if skipped is not None and skipped not in self._said:  # once per session, not per reset
            self._said.add(skipped)
            log.info("%s", skipped)
            self.window_log_message(
                types.LogMessageParams(type=types.MessageType.Info, message=f"mcpdeps: {skipped}")
            )
        if model.config_error:
            log.warning("%s", model.config_error)
            self.window_show_message(
                types.ShowMessageParams(
                    type=types.MessageType.Error,
                    message=f"mcpdeps: {model.config_error} Using the default settings.",
                )
            )

    def open_paths(self) -> list[Path]:
        return [p for uri in self.workspace.text_documents if (p := path_of(uri)) is not None]

    # ------------------------------------------------------------------ scheduling
    def schedule(self, delay: float) -> None:
        """Check after `delay` seconds of quiet (a newer call restarts the wait)."""
        loop = asyncio.get_running_loop()
        if self._timer is not None:
            self._timer.cancel()
        self._quiet.clear()
        self._timer = loop.call_later(delay, self._settled)

    def _settled(self) -> None:
        self._timer = None
        self._quiet.set()
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._work())

    async def _work(self) -> None:
        try:
            await self._steps()
        finally:
            if not self._frozen:  # cancelled (shutdown) before the first pass ended
                gc.enable()
        if not self._frozen and not any(m.stale for m in self.models.values()):
            # The parsed project lives as long as the server: keep the collector off it.
            gc.collect()
            gc.freeze()
            self._frozen = True

    async def _steps(self) -> None:
        while True:
            await self._quiet.wait()
            step = self._next_step()
            if step is None:
                break
            model, batch, background = step
            if not self._frozen:
                # Off until the first pass ends in `gc.freeze` (`_work`): once a build had made
                # its trees, the collector's first turn outside the checks (publishing) walked
                # them all, and the freeze walked them again.
                gc.disable()
            self._progress()  # before a first pass that may be one build of every file
            started = time.perf_counter()
            try:
                model.check(batch)
            except Exception:  # an analyzer bug costs this batch's update, never the server
                log.exception("checking %s failed", ", ".join(batch))
                model.stale -= set(batch)
            checked = time.perf_counter()
            if background:
                self._pace(checked - started)
            if not background or not model.stale or checked - self._last_publish > PUBLISH_EVERY:
                # Background results are sent in bursts: uniting every record costs more than
                # checking a small batch.
                self.publish(model)
                self._last_publish = time.perf_counter()
            log.debug(
                "checked %d files in %.1f ms, published in %.1f ms%s",
                len(batch),
                (checked - started) * 1000,
                (time.perf_counter() - checked) * 1000,
                " (background)" if background else "",
            )
            self._progress()
            # A message arrives in several steps (header, body), each needing a turn of the
            # loop: a short pause lets a waiting keystroke in whole before the next batch.
            await asyncio.sleep(READ_PAUSE if background else 0)
        self._progress(done=True)

    def _pace(self, seconds: float) -> None:
        """Size background batches so that one takes about `BATCH_SECONDS` while the user types
        (a keystroke arriving meanwhile waits for the batch to end, no longer), and about
        `IDLE_BATCH_SECONDS` when nobody has typed for a while (fewer, larger builds)."""
        typing = time.monotonic() - self._last_edit < TYPING_SECONDS
        budget = BATCH_SECONDS if typing else IDLE_BATCH_SECONDS
        if seconds < budget / 2:
            self._batch = min(self._batch * 2, MAX_BATCH)
        elif seconds > budget:
            self._batch = max(self._batch // 2, 1)

    def _next_step(self) -> tuple[WorkspaceModel, list[str], bool] | None:
        """The next files to check: stale open documents first, else a background batch."""
        opened = self.open_paths()
        for model in self.models.values():
            first = model.priority(opened)
            if first:
                return model, first, False
        for model in self.models.values():
            if model.stale:
                stale = [o for o in model.order if o in model.stale]
                return model, stale if model.first_batch_whole() else stale[: self._batch], True
        return None

    def _progress(self, done: bool = False) -> None:
        """`$/progress` for long passes (the first one, a new configuration), when the client shows it."""
        window = self.client_capabilities.window
        if window is None or not window.work_done_progress:
            return
        stale = sum(len(m.stale) for m in self.models.values())
        if self._token is None and not done and stale > PROGRESS_FROM:
            token = self._token = f"mcpdeps-check-{time.monotonic_ns()}"
            self._total = stale

            def begin(*_: object) -> None:  # the client accepted the token: now it may be used
                self.work_done_progress.begin(
                    token, types.WorkDoneProgressBegin(title="mcpdeps", message=f"checking {stale} files")
                )
                if self._token == token:
                    self._begun = True
                else:  # the pass ended first (one build of every file): its end is said at once
                    self.work_done_progress.end(token, types.WorkDoneProgressEnd(message="checked"))

            self.work_done_progress.create(token, begin)
        elif self._token is not None and (done or not stale):
            if self._begun:
                self.work_done_progress.end(self._token, types.WorkDoneProgressEnd(message="checked"))
            self._token, self._begun = None, False
        elif self._token is not None and self._begun:
            checked = max(self._total - stale, 0)
            self.work_done_progress.report(
                self._token,
                types.WorkDoneProgressReport(
                    message=f"{checked}/{self._total} files", percentage=100 * checked // max(self._total, 1)
                ),
            )

    # ------------------------------------------------------------------ publishing
    def publish(self, model: WorkspaceModel, only: Iterable[str] | None = None) -> None:
        """Send every file's diagnostics that changed, and the open documents' in any case."""
        by_uri: dict[str, list[Diagnostic]] = {}
        for d in model.report():
            by_uri.setdefault(uri_of(model.root / d.path), []).append(d)
        opened = {uri for uri in self.workspace.text_documents if uri in self._fresh}
        mine = {uri for uri in self.published if (p := path_of(uri)) and self.model_for(p, False) is model}
        for uri in sorted(set(by_uri) | mine | opened):
            if only is not None and uri not in only:
                continue
            new = by_uri.get(uri, [])
            if uri not in opened and self.published.get(uri, []) == new:
                continue
            path = path_of(uri)
            if path is None or (uri in opened and not model.verdict_ready(model.project.display(path))):
                continue  # an open document is published once its verdict is known
            self._send(model, uri, new)
            self._fresh.discard(uri)
        if self.pull is not None:
            self.pull.published(self, opened)

    def _send(self, model: WorkspaceModel, uri: str, diagnostics: list[Diagnostic]) -> None:
        before = self.published.get(uri)
        self.published[uri] = diagnostics
        if self.pull is not None:
            self.pull.stored(uri, before, diagnostics)
            return
        doc = self.workspace.text_documents.get(uri)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri,
                diagnostics=self.lsp_diagnostics(model, diagnostics),
                version=doc.version if doc is not None else None,
            )
        )

    def lsp_diagnostics(self, model: WorkspaceModel, diagnostics: list[Diagnostic]) -> list[types.Diagnostic]:
        """A file's diagnostics in the client's terms (its position units, the editor's text)."""
        positions = Positions(self.workspace.position_codec, lambda display: self._lines(model, display))
        return [to_lsp(d, positions, model.root) for d in diagnostics]

    def _lines(self, model: WorkspaceModel, display: str) -> list[str]:
        uri = uri_of(model.root / display)
        doc = self.workspace.text_documents.get(uri)
        if doc is not None:
            return list(doc.lines)
        text = model.text(display)
        return split_lines(text, keepends=True) if text is not None else []

    # ------------------------------------------------------------------ document events
    def text_changed(self, uri: str, text: str | None, delay: float) -> None:
        path = path_of(uri)
        if path is None or path.suffix not in (".py", ".pyi"):
            return
        model = self.model_for(path)
        assert model is not None
        if model.config_changed():
            model = self.reset(model)
        model = self._include(model, path, text)
        started = time.perf_counter()
        self._last_edit = time.monotonic()
        model.set_text(path, text)
        log.debug("%s read in %.1f ms", path.name, (time.perf_counter() - started) * 1000)
        if text is not None:
            self._fresh.add(uri)
        self._forget_finished()
        self.schedule(delay)

    def _forget_finished(self) -> None:
        """Drop the futures pygls keeps for notifications it has handled: it files each one
        under a fresh id that no response ever removes (about 4 MB per 1,000 edits). A request's
        future is removed by its response whether or not it is still here."""
        futures = self.protocol._request_futures
        for key in [key for key, future in futures.items() if future.done()]:
            futures.pop(key, None)

    def _include(self, model: WorkspaceModel, path: Path, text: str | None) -> WorkspaceModel:
        """The model, knowing `path` if it should: a file created during the session (no
        watcher may tell) is found by walking the folder again, and an unsaved new buffer,
        which no walk finds, is named as a target, as `lint` would be given it; once such a
        buffer is closed unsaved, it is forgotten."""
        rel = os.path.relpath(path, model.root)
        if text is None:
            if rel in model.targets and rel != "." and not path.exists() and model.targets != [rel]:
                model.targets.remove(rel)
                return self.reset(model)
            return model
        if model.knows(path) or not path.is_relative_to(model.root):
            return model
        if not path.exists() and rel not in model.targets:
            model.targets.append(rel)
        return self.reset(model)

    def files_changed(self, changes: Iterable[tuple[Path, types.FileChangeType]]) -> None:
        """Files changed on disk: configuration and file sets start new models; edits re-read."""
        resets: set[Path] = set()
        for path, kind in changes:
            model = self.model_for(path, create=False)
            if model is None:
                continue
            if path.name in CONFIG_NAMES or (kind != types.FileChangeType.Changed and path.suffix == ".py"):
                resets.add(model.root)
            elif path.suffix in (".py", ".pyi") and path not in model.project.overrides:
                model.set_text(path, None)
        for root in resets:
            self.reset(self.models[root])
        self.schedule(0)


def create_server(version: str) -> McpdepsServer:
    """The server with every feature registered (kept separate so tests can build one)."""
    server = McpdepsServer(version)

    @server.feature(types.INITIALIZE)
    def initialize(ls: McpdepsServer, params: types.InitializeParams) -> None:
        ls.protocol._workspace = LineWorkspace.like(ls.workspace)  # no document is open yet
        options = params.initialization_options
        if isinstance(options, dict) and isinstance(options.get("debounceMs"), int | float):
            ls.debounce = max(0.0, float(options["debounceMs"]) / 1000)
        register_pull(ls)  # before pygls computes the capabilities from the features

    @server.feature(types.INITIALIZED)
    def initialized(ls: McpdepsServer, params: types.InitializedParams) -> None:
        folders = [path_of(f.uri) for f in ls.workspace.folders.values()]
        root = ls.workspace.root_path
        for folder in [f for f in folders if f is not None] or ([Path(root)] if root else []):
            ls.add_folder(folder)
        _watch_files(ls)
        ls.schedule(OPEN_WAIT)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: McpdepsServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.text_changed(params.text_document.uri, params.text_document.text, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: McpdepsServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.text_changed(uri, ls.workspace.get_text_document(uri).source, ls.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: McpdepsServer, params: types.DidSaveTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is not None and path.name in CONFIG_NAMES:
            ls.files_changed([(path, types.FileChangeType.Changed)])

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: McpdepsServer, params: None) -> None:
        ls.exit_code = 0

    @server.feature(types.EXIT)
    def exit_(ls: McpdepsServer, params: None) -> None:
        # pygls computes the same code but raises it in a callback, where asyncio swallows it
        ls.exiting = True

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: McpdepsServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.text_changed(params.text_document.uri, None, 0)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: McpdepsServer, params: types.DidChangeWatchedFilesParams) -> None:
        ls.files_changed((p, c.type) for c in params.changes if (p := path_of(c.uri)) is not None)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def folders_changed(ls: McpdepsServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        for removed in params.event.removed:
            if (path := path_of(removed.uri)) is not None:
                ls.models.pop(path, None)
        for added in params.event.added:
            if (path := path_of(added.uri)) is not None:
                ls.add_folder(path)
        ls.schedule(0)

    from .features import register

    register(server)
    return server


def _watch_files(ls: McpdepsServer) -> None:
    """Ask the client to report file creations, deletions and changes (when it can)."""
    capabilities = ls.client_capabilities.workspace
    watched = capabilities.did_change_watched_files if capabilities is not None else None
    if watched is None or not watched.dynamic_registration:
        return
    globs = ["**/*.py", "**/*.pyi", *(f"**/{name}" for name in sorted(CONFIG_NAMES))]
    ls.client_register_capability(
        types.RegistrationParams(
            registrations=[
                types.Registration(
                    id="mcpdeps-watched-files",
                    method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=types.DidChangeWatchedFilesRegistrationOptions(
                        watchers=[types.FileSystemWatcher(glob_pattern=g) for g in globs]
                    ),
                )
            ]
        )
    )
