"""A file of the run the prefilter let go unparsed, which an import then made the build parse,
finding a syntax error.

`lint deps.py` names the file, so parses it and reports its syntax error there (as ruff does
a file it is given). `lint .` walks to it and, seeing neither a server nor
`Resolve` in it (a plain module of resolvers), does not parse it, yet the tool module
importing it does, and reports that its resolver cannot be analysed. The file's
own verdict must not depend on which list named it: the server does not start because of
that syntax error, so it is reported there too whenever a build parses it as an import.

Its record then depends on its importers (a build of it alone does not parse it), and theirs
on it: both are coupled (`Graph.coupled`), so each is checked again with the
other (`lint_rules.invalidation`) whenever one of them is, and a cached run, after an edit
that makes an importer drop or take up the import, reports what a cold run does.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

from .model import Graph
from .project import Project
from .source import ParsedModule


def unparsed_imports(
    project: Project, graph: Graph, given: Sequence[ParsedModule], only: Collection[Path] | None
) -> None:
    """Report the syntax error of each run file (`graph.checked`) parsed only as an import (not
    one of the files the build was `given` to parse: their errors are reported already) that a
    module still imports (`Project.edges`), when its record is made here (`only`), and couple
    it with the files importing it."""
    parsed = {id(m) for m in given}
    for module in project.modules:
        error = module.error
        if (
            error is None
            or id(module) in parsed
            or not error.message.startswith("syntax error")
            or module.display not in graph.checked
        ):
            continue
        importers = {near for near, targets in project.edges.items() if module.path in targets}
        if not importers:  # parsed by an earlier build (the editor's), imported by nothing now
            continue
        if only is None or module.path in only:
            graph.findings.append(error)
        graph.coupled.update({module.display, *(m.display for m in project.modules if m.path in importers)})
