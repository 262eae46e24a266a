"""What `serve`'s engines tell the person who started it, as calls on a protocol, not as text.

`run.py` (the runner) and `reload.py` (the supervisor) decide *when* something is said and
*what* it contains; how it looks is the front end's business: `terminal.TerminalOutput`
prints it with rich on the command line (and for `mcpdeps mcp`), another front end may log
it or say nothing. Keeping rich out of the engines keeps it out of the editor and MCP
front ends that run them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ...resolver_core.records import record

if TYPE_CHECKING:
    from ...resolver_core.model import Graph
    from .http import HttpOptions
    from .served import Served


@record
class BannerFacts:
    """How the server is exposed (the graph says what it contains)."""

    transport: str
    """`stdio` or `http`."""
    url: str | None
    workers: int = 1
    sessions: str | None = None
    """The HTTP session limits (`--max-sessions`, `--session-idle-timeout`), as shown."""
    reload: bool = False
    inspector_url: str | None = None
    notes: tuple[str, ...] = ()
    interpreter: str | None = None
    """Which Python runs the server, and why (`Interpreter.describe()`)."""


class ServeOutput(Protocol):
    """What `run()` reports while it serves (on stderr at a terminal: stdout may be the protocol)."""

    def banner(self, graph: Graph, served: Served, facts: BannerFacts) -> None:
        """The server is up (or, with the Inspector on stdio, ready to be started): what it offers, where."""

    def exposure_warning(self, options: HttpOptions) -> None:
        """The socket is bound beyond loopback: every tool is reachable from the network."""

    def stopped(self) -> None:
        """The user stopped the server (Ctrl+C or SIGTERM); not said by a child of `--reload`."""


class ReloadOutput(Protocol):
    """What the `--reload` supervisor reports; its children report through their own `ServeOutput`."""

    def watching(self, folders: Sequence[Path], skipped: Sequence[str]) -> None:
        """Supervision starts: the folders whose changes restart the server, and the names of the
        folders right below them that are not watched (caches, virtualenvs, excluded)."""

    def reloading(self, names: Sequence[str]) -> None:
        """These files (names, sorted) changed: the child is being restarted."""

    def stopped(self) -> None:
        """The user stopped the supervisor, and its child with it."""
