"""Pull diagnostics (LSP 3.17): the client asks for a document's, or the whole workspace's.

A client that can pull (`textDocument.diagnostic` among its capabilities: VS Code, Neovim
0.10+, Helix) gets `diagnosticProvider` and is never pushed to; one that cannot (Neovim
0.7-0.9, older clients) is pushed to as before. Never both: a client given both shows every
problem twice (ruff's server decides the same way, on the same capability).

The answers come from what the scheduler in `server.py` already keeps per file
(`McpdepsServer.published`, filled after each check whether or not it is pushed):

- `textDocument/diagnostic` waits until the document's verdict is known (its own check is
  done: the checks an edit makes stale run first; `WorkspaceModel.verdict_ready`), then answers
  with its diagnostics;
- `workspace/diagnostic` waits until no file is stale, then reports every Python file of
  each workspace folder, closed ones included: a problem in a module nobody opened is
  listed (pyright's and ruff-vscode's "workspace" mode).

Each report carries a result id, a digest of what it holds, so a file unchanged since the
client's `previousResultId` is answered `unchanged`. `interFileDependencies` is declared:
an edit in one file changes other files' verdicts (a resolver's typo is reported where
the resolver is). When a check changes the verdict of a file other than the one just
edited, `workspace/diagnostic/refresh` asks the client to pull again.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from lsprotocol import types

from ...resolver_core.diagnostics import Diagnostic
from .convert import path_of, uri_of

if TYPE_CHECKING:
    from .server import McpdepsServer

IDENTIFIER = "mcpdeps"
WAIT_SECONDS = 30.0
"""The longest a pull waits for checks in progress before answering with what is known
(a later refresh brings the rest)."""

DocumentReport = types.RelatedFullDocumentDiagnosticReport | types.RelatedUnchangedDocumentDiagnosticReport
WorkspaceReport = (
    types.WorkspaceFullDocumentDiagnosticReport | types.WorkspaceUnchangedDocumentDiagnosticReport
)


def client_pulls(capabilities: types.ClientCapabilities) -> bool:
    """Whether the client can ask for diagnostics (then it is never pushed any)."""
    text = capabilities.text_document
    return text is not None and text.diagnostic is not None


def client_refreshes(capabilities: types.ClientCapabilities) -> bool:
    workspace = capabilities.workspace
    return (
        workspace is not None
        and workspace.diagnostics is not None
        and bool(workspace.diagnostics.refresh_support)
    )


class PullDiagnostics:
    """What pull mode adds to the server: waiting for checks, result ids, refreshes."""

    def __init__(self, refresh: bool) -> None:
        self.refresh_supported = refresh
        self.checked = asyncio.Event()
        """Set (and replaced) each time the server has published a check's results."""
        self._changed: set[str] = set()
        self._reports: dict[str, tuple[list[Diagnostic], int | None, list[types.Diagnostic], str]] = {}
        """Per URI, the LSP items and result id last made, and what they were made from (the
        kept list itself, the document's version): a workspace pull converts only what changed."""

    # ------------------------------------------------------------------ from the scheduler
    def stored(self, uri: str, before: list[Diagnostic] | None, after: list[Diagnostic]) -> None:
        """The server kept a file's new diagnostics instead of pushing them."""
        if before != after:
            self._changed.add(uri)

    def published(self, ls: McpdepsServer, edited: Iterable[str]) -> None:
        """A round of results is kept: wake the waiting pulls, and ask the client to pull
        again when a file other than those just edited changed verdict."""
        others = self._changed - set(edited)
        self._changed.clear()
        self.checked.set()
        self.checked = asyncio.Event()
        if others and self.refresh_supported:
            ls.workspace_diagnostic_refresh(None)

    def report(self, ls: McpdepsServer, uri: str) -> tuple[list[types.Diagnostic], str]:
        """A file's diagnostics in LSP terms (ranges in the client's units, from the editor's
        text when it is open), and their result id: a digest of exactly those."""
        kept = ls.published.get(uri, [])
        doc = ls.workspace.text_documents.get(uri)
        version = doc.version if doc is not None else None
        made = self._reports.get(uri)
        if made is not None and made[0] is kept and made[1] == version:
            return made[2], made[3]
        path = path_of(uri)
        model = ls.model_for(path, create=False) if path is not None and kept else None
        items = ls.lsp_diagnostics(model, kept) if model is not None else []
        digest = hashlib.blake2b(repr(items).encode(), digest_size=12).hexdigest()
        self._reports[uri] = (kept, version, items, digest)
        return items, digest

    async def until(self, ready: Callable[[], bool]) -> None:
        """Wait for the checks `ready` waits for (at most `WAIT_SECONDS`)."""
        deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
        while not ready():
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(self.checked.wait(), left)
            except asyncio.TimeoutError:
                return


async def document_diagnostic(ls: McpdepsServer, params: types.DocumentDiagnosticParams) -> DocumentReport:
    uri = params.text_document.uri
    path = path_of(uri)
    pull = ls.pull
    if pull is None:  # registered only with pull mode: never
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    if path is not None:

        def done() -> bool:
            model = ls.model_for(path, create=False)
            return model is None or (
                not model.priority([path]) and model.verdict_ready(model.project.display(path))
            )

        await pull.until(done)
    items, result_id = pull.report(ls, uri)
    if params.previous_result_id == result_id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
    return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=result_id)


async def workspace_diagnostic(
    ls: McpdepsServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    pull = ls.pull
    if pull is None:  # registered only with pull mode: never
        return types.WorkspaceDiagnosticReport(items=[])
    await pull.until(lambda: not any(m.stale for m in ls.models.values()))
    previous = {p.uri: p.value for p in params.previous_result_ids}
    uris = {uri_of(path): None for model in ls.models.values() for path in model.path_of.values()}
    uris.update(dict.fromkeys(ls.published))
    reports: list[WorkspaceReport] = []
    for uri in uris:
        items, result_id = pull.report(ls, uri)
        doc = ls.workspace.text_documents.get(uri)
        version = doc.version if doc is not None else None
        if previous.get(uri) == result_id:
            reports.append(
                types.WorkspaceUnchangedDocumentDiagnosticReport(
                    uri=uri, version=version, result_id=result_id
                )
            )
        else:
            reports.append(
                types.WorkspaceFullDocumentDiagnosticReport(
                    uri=uri, version=version, items=items, result_id=result_id
                )
            )
    for uri in previous.keys() - uris.keys():  # gone (deleted, excluded): nothing left to show
        reports.append(types.WorkspaceFullDocumentDiagnosticReport(uri=uri, version=None, items=[]))
    return types.WorkspaceDiagnosticReport(items=reports)


def register_pull(ls: McpdepsServer) -> None:
    """Pull mode, for a client that pulls (called while `initialize` is answered, before
    the capabilities are computed from the features registered)."""
    if not client_pulls(ls.client_capabilities) or ls.pull is not None:
        return
    ls.pull = PullDiagnostics(client_refreshes(ls.client_capabilities))
    ls.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier=IDENTIFIER, inter_file_dependencies=True, workspace_diagnostics=True
        ),
    )(document_diagnostic)
    ls.feature(types.WORKSPACE_DIAGNOSTIC)(workspace_diagnostic)
