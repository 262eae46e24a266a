"""The server's copies of open documents, with lines as the client counts them.

pygls splits a document with `str.splitlines`, which also ends a line at a form feed,
"\\x85", U+2028 and the like; LSP clients end lines at "\\r\\n", "\\r" and "\\n" only, as
Python's tokenizer does. An incremental edit after such a character then landed on the
wrong line of the server's copy (and a valid file showed MCPD000). These classes give
pygls the one line model mcpdeps uses everywhere, `resolver_core.lines`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pygls.workspace import TextDocument, Workspace

from ...resolver_core.lines import split_lines


class LineDocument(TextDocument):
    """A text document whose lines end where the client's do."""

    @property
    def lines(self) -> Sequence[str]:
        return tuple(split_lines(self.source, keepends=True))


class LineWorkspace(Workspace):
    """pygls' workspace, keeping `LineDocument`s."""

    def _create_text_document(
        self,
        doc_uri: str,
        source: str | None = None,
        version: int | None = None,
        language_id: str | None = None,
    ) -> TextDocument:
        return LineDocument(
            doc_uri,
            source=source,
            version=version,
            language_id=language_id,
            sync_kind=self._sync_kind,
            position_codec=self.position_codec,
        )

    @classmethod
    def like(cls, workspace: Workspace) -> LineWorkspace:
        """A `LineWorkspace` with the settings and folders of the one pygls made at `initialize`
        (pygls has no hook for the class; its sync kind has no public accessor)."""
        return cls(
            workspace.root_uri,
            workspace._sync_kind,
            list(workspace.folders.values()),
            workspace.position_encoding,
        )
