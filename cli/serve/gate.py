"""Lint before import: a server the SDK would refuse (or mis-serve) never starts.

Importing user code runs registration, and the SDK stops at the first bad tool
with a traceback; linting first shows every problem at once, with locations,
in the same format as `mcpdeps lint`, and exits 1 before a port is bound.
This module gives the verdict only; `render_gate.py` prints it on a terminal, so
the editor and MCP front ends can ask for the verdict without rich.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ...resolver_core.records import record

if TYPE_CHECKING:
    from ...lint_rules import LintResult
    from ...resolver_core.diagnostics import Diagnostic

BLOCKING = frozenset({"error"})
"""Severities that stop `serve`: what the SDK refuses at registration, and hidden `Resolve`s."""


@record
class GateVerdict:
    """The lint of the server's module graph, and which of its diagnostics stop it from starting."""

    result: LintResult
    blocking: tuple[Diagnostic, ...]

    @property
    def passes(self) -> bool:
        """Nothing blocks: the server may be imported (its warnings are still worth showing)."""
        return not self.blocking

    @property
    def codes(self) -> list[str]:
        """The blocking rule codes, sorted and each once."""
        return sorted({d.code for d in self.blocking})


def lint_verdict(path: Path) -> GateVerdict:
    """Lint the server's module graph (statically, nothing imported), paths shown as `lint` shows them."""
    from ...lint_rules import lint

    result = lint([shown_path(path)], importers=False)  # the server this file builds, no other
    return GateVerdict(result, tuple(d for d in result.diagnostics if d.severity in BLOCKING))


def shown_path(path: Path) -> Path:
    """The file as the user would write it: relative to the current folder (`../shop/server.py`)."""
    try:
        return Path(os.path.relpath(path))
    except ValueError:  # another drive on Windows
        return path
