"""Tools registered without being classified: those no record of the build holds, and those
of `lint FILE`'s companions that can find nothing located in a given file.

A tool is classified (every parameter's annotation evaluated through imports, the resolver
modules those reach parsed) for its own file's record only (`per_file.origin_of`): what a
record says depends on its file's closure alone, never on which other files a build reads
(`per_file`), so the tools of files a build does not record (`incremental.check_files`: the
files an edit reached, not the others built beside them) are only named. Their registrations
are found as before: the servers, arms and calls of the others depend on them.

A companion of `lint FILE` (`companions.importers`) is reported only where what it finds is
located in a given file (`per_file.combine`). Its tools written in a module that imports no
given file (a companion checked for the registrations a given file's come after, for duplicate names,
`SourceFile.unclassified`; or a module the run does not check, whose tools are the record of
the companion handing it a server, `Tool.origin`: `app/main.py` calling 140 features'
`register(mcp)`) find nothing located there, as long as what they read is only what that
module imports: a tool defined and registered there, whose annotations and defaults name
nothing a function or class around it binds (a caller's argument: `Resolve(dep)` where `dep` is
a parameter of `register(server, dep)`, `passed_resolvers.py`), and into which no decorator
writes annotations. Those are the tools `skipped` leaves unclassified (pre-commit on a tool
module of a `helpers` tree of 1,000 modules: 644 of 650); the others are classified as in any
build. That the modules importing a given file are all checked is what `lint FILE` already
relies on to report what `lint .` reports about it (`companions.py`).

What the report still reads of such a companion's record is which shared resolvers its tools
run (`per_file.owners`: the first file whose tools run one reports its findings) and its
registrations. Its record is marked (`FileRecord.unclassified`), no other list takes it up
(`adoption`), and a run whose report they could change checks it again, classified
(`lint_rules.unclassified_records`, `incremental.analyse`).
"""

from __future__ import annotations

import ast
import contextlib
from typing import TYPE_CHECKING

from .records import record

if TYPE_CHECKING:  # the lint path imports `Classified` before anything is built
    from .bindings import Scope
    from .registration_site import Registration
    from .tool_function import ToolFunction


@record
class Classified:
    """Which tools a build classifies (files by display): those registered for the files it
    records (`recorded`; None: any file), but for a companion (`companions`) the tools written
    in a module that imports no given file (`loose`: the companions checked for the
    registrations a given file's come after; or a module the run does not check, read through
    a companion handing it a server) when what they read is only what that module imports
    (`skipped`). A module the run does not check counts only beside such companions: a run
    on resolver modules, whose files are the importers that may register
    (`companions._registering`), reads the tool modules importing them without checking them
    (`app/tools.py` listing the tools `app/main.py` registers in a loop)."""

    recorded: frozenset[str] | None = None
    companions: frozenset[str] = frozenset()
    loose: frozenset[str] = frozenset()

    def records(self, display: str) -> bool:
        """Whether a record of the build holds the tools registered for `display`."""
        return self.recorded is None or display in self.recorded


EVERY_TOOL = Classified()


def skipped(reg: Registration, target: ToolFunction, written: str) -> bool:
    """Whether a tool registered in `written` (a companion's display) reads only what its own
    module imports: defined and registered there, annotations as written, naming nothing an
    enclosing function or class binds."""
    fn = target.node
    if target.annotations or target.module.display != written or reg.module.display != written:
        return False
    bound: set[str] = set()
    scope: Scope | None = target.scope
    while scope is not None:
        bound.update(scope.bindings)
        scope = scope.parent
    if not bound:
        return True
    a = fn.args
    # The defaults too: the classification reads them (`Field(alias=...)`).
    hints = [arg.annotation for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg) if arg]
    hints += [*a.defaults, *a.kw_defaults]
    if not isinstance(fn, ast.Lambda):
        hints.append(fn.returns)
    try:
        return not any(bound.intersection(_names(hint)) for hint in hints if hint is not None)
    except (RecursionError, MemoryError):  # a string too deep to read: classified, as any other
        return False


def _names(node: ast.AST) -> set[str]:
    """Every name an annotation may read, those in strings included (`"Annotated[...]"`)."""
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            out.add(sub.id)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            with contextlib.suppress(SyntaxError, ValueError):  # not code: it names nothing
                out |= _names(ast.parse(sub.value.strip(), mode="eval"))
    return out
