"""Tools registered without being classified: those no record of the build holds, and those
of a companion checked only for the registrations a given file's come after (duplicate tool
names, MCPD110).

A build records some of the run's files (`incremental.check_files`: the files an edit reached;
the others keep their records) and follows their imports and servers into many more modules:
pre-commit on one tool module of a `helpers` tree rebuilt 2 files and classified 650 tools,
644 of them registered in modules no record holds (a record holds the tools its file
registers, `per_file.origin_of`). A tool is classified for its own record only: what a record
says depends on its file's closure alone, never on which other files a build reads
(`per_file`), so the tools of files not recorded are only named (their registrations are
found as before: the servers, arms and calls of the others depend on them).

`lint FILE` on a tool module also builds the files registering on the same servers before it
(`companions._registering_first`). Of their tools, MCPD110 needs only the registrations (name,
server, arms, order); classifying them (every parameter's annotation evaluated through
imports, the resolver modules those reach parsed) was a third of such a run. Such a companion
imports no given file (else it is one of the given files' importers, checked whole), so what
its tools find is located in no given file, as long as what they read is only what their own
module imports: a tool defined in the companion, registered there, whose annotations name
nothing a function around it binds (a caller's argument: `Resolve(dep)` where `dep` is a
parameter of `register(server, dep)`, `passed_resolvers.py`), and into which no decorator
writes annotations. Those are the tools `skipped` leaves unclassified; the others are
classified as in any build.

What the report still reads of such a companion's record is which shared resolvers its tools
run (`per_file.owners`: the first file whose tools run one reports its findings). Its record is
marked (`FileRecord.unclassified`), no other list takes it up (`adoption`), and a run whose
report those resolvers could change checks it again, classified (`per_file.needs_classified`,
`incremental.analyse`).
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
    (`skipped`)."""

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
