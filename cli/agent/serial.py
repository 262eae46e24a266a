"""One analysis at a time in the agent server, inside the roots, and a sentence for every failure.

The SDK runs synchronous tools and resolvers in worker threads, so concurrent calls (six
clients of `mcpdeps mcp -t http`) analysed in concurrent threads of one interpreter.
`ast.parse` is not safe for that on CPython 3.11 (a `SystemError` of the AST constructor,
2 calls in 144), and the analysis keeps per-run state of its own (no cyclic GC during a run,
the lint cache). A call's analysis therefore holds one process-wide lock: the calls queue,
which costs nothing an agent notices (a lint of a project takes milliseconds to a second).

The same block reads nothing outside the client's roots: imports are followed as `lint`
follows them, within the project root (which may lie above a narrower client root) and
through links, and a module found that way used to be read and quoted (an `Elicit` message
in `graph`) although naming it was refused. `source.reading_only` holds every module the
analysis parses to the rule named paths are held to (`Workspace.contains`, links followed).

A failure that is not already a `ToolError` would reach the client as a bare "Error
executing tool": it becomes one sentence naming what failed, as the CLI's "internal error"
line does.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator

from mcp.server.mcpserver.exceptions import ToolError

from ...lint_rules.api import RequestError
from ...resolver_core.source import reading_only
from .workspace import Workspace

log = logging.getLogger(__name__)

_ANALYSIS = threading.Lock()


@contextlib.contextmanager
def alone(what: str, workspace: Workspace | None = None) -> Iterator[None]:
    """Run the block while no other call analyses, reading no module outside `workspace`'s
    roots (`source.reading_only`, the rule `workspace.check_path` applies to named paths);
    the engine's refusal (`RequestError`) becomes a ToolError with its sentence, and an
    unexpected exception one saying that `what` ("lint these files") failed, and why."""
    inside = reading_only(workspace.contains) if workspace is not None else contextlib.nullcontext()
    with _ANALYSIS, inside:
        try:
            yield
        except ToolError:
            raise
        except RequestError as exc:  # the engine refused the request: its sentence, as is
            raise ToolError(str(exc)) from None
        except Exception as exc:
            log.exception("could not %s", what)
            raise ToolError(
                f"mcpdeps could not {what}: {type(exc).__name__}: {exc}. This is a bug in mcpdeps; "
                "the same command in a terminal with -v shows the traceback."
            ) from exc
