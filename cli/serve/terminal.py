"""`serve`'s messages on a terminal: the rich side of `output.ServeOutput` and `output.ReloadOutput`.

The engines (`run.py`, `reload.py`) say what happened; this module is how the command line
(`mcpdeps serve`, and `mcpdeps mcp`, which runs the same loop) shows it, on stderr.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.panel import Panel

from ...resolver_core.model import Graph
from .http import HttpOptions
from .output import BannerFacts
from .render_banner import render_banner
from .served import Served

STOPPED = "[dim]mcpdeps serve: stopped[/dim]"
SKIPPED_SHOWN = 3
"""Folders not watched named in the `--reload` line; the rest are counted (the line stays one line)."""


class TerminalOutput:
    """Prints what `run()` and `run_with_reload()` report on `console` (stderr: stdout may be the protocol)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def banner(self, graph: Graph, served: Served, facts: BannerFacts) -> None:
        render_banner(graph, served, facts, self.console)

    def exposure_warning(self, options: HttpOptions) -> None:
        exposure_warning(options, self.console)

    def stopped(self) -> None:
        self.console.print(STOPPED)

    def watching(self, folders: Sequence[Path], skipped: Sequence[str]) -> None:
        shown = ", ".join(_short(p) for p in folders)
        if skipped:
            more = f" +{len(skipped) - SKIPPED_SHOWN} more" if len(skipped) > SKIPPED_SHOWN else ""
            shown += f" (not {', '.join(skipped[:SKIPPED_SHOWN])}{more})"
        # Never wrapped by rich (the terminal wraps a long path): scripts and tests wait for "press
        # Ctrl+C to stop", which rich's wrapping cut in two. It has a line of its own, so a narrow
        # terminal never starts a line with its "; ".
        self.console.print(f"[cyan]mcpdeps serve --reload[/]: watching {shown}", soft_wrap=True)
        self.console.print("press Ctrl+C to stop", soft_wrap=True)

    def reloading(self, names: Sequence[str]) -> None:
        self.console.print(f"[cyan]reloading[/]: {', '.join(names)} changed", soft_wrap=True)


def _short(folder: Path) -> str:
    """A folder as the user would type it: relative to the current folder when under it."""
    try:
        return folder.relative_to(Path.cwd()).as_posix() or "."
    except ValueError:
        return str(folder)


def exposure_warning(options: HttpOptions, console: Console) -> None:
    """Binding beyond loopback exposes every tool to the network: say so, loudly."""
    everyone = options.host in ("0.0.0.0", "::", "")
    who = "every network interface" if everyone else f"{options.host}"
    console.print(
        Panel(
            f"Listening on {who}, port {options.port}: anyone who can reach this machine can list and "
            "call these tools, with no authentication. DNS-rebinding protection stays on: requests "
            "whose Host header is not this machine's name or a loopback name get HTTP 421 "
            "(add names with --allow-host). Use --host 127.0.0.1 unless you mean it.",
            title="WARNING: server exposed beyond this machine",
            border_style="bold red",
            style="red",
        )
    )
