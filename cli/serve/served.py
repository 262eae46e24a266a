"""The server being served: loading it for `serve` (errors as exit codes) and what the banner names.

Shared by the in-process path and the runner (`cli/runner/child.py`), which loads the
server under another interpreter and sends `Served` back: stdlib and SDK only here.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...resolver_core.records import record
from ..errors import UserError

if TYPE_CHECKING:
    from ...resolver_core.loading import LoadedServer, ServerSpec
    from ...resolver_core.model import Graph


@record
class Served:
    """Which server runs, from where: what the banner's head shows."""

    name: str
    module: str
    path: Path
    attribute: str

    @classmethod
    def of(cls, loaded: LoadedServer) -> Served:
        return cls(loaded.server.name, loaded.module, loaded.path, loaded.attribute)

    def to_data(self) -> dict[str, Any]:
        return {**asdict(self), "path": str(self.path)}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Served:
        return cls(data["name"], data["module"], Path(data["path"]), data["attribute"])


def load_for_serving(parsed: ServerSpec) -> LoadedServer:
    """Import the server; exit 1 when the SDK refused a tool (as lint would have), else 2."""
    from ...resolver_core.loading import LoadError, load_spec

    try:
        return load_spec(parsed)
    except LoadError as exc:
        raise UserError(str(exc), exit_code=1 if exc.refused_at_registration else 2) from exc


def served_graph(loaded: LoadedServer) -> Graph:
    """The graph of the imported server, built by the live builder from the SDK's registered tools."""
    from ...resolver_core.live import build_live_graph

    return build_live_graph(loaded, display=shown_path(loaded.path))


def shown_path(path: Path) -> str:
    """The server's file relative to the current folder when inside it (as the user typed it)."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
