"""The static builder: source files in, `Graph` out — nothing imported, nothing run.

Registration sites are found by `registrations.py` (servers by `servers.py`) and land on the
servers their call sites pass (`reach.py`); this module turns each into the tool the SDK
would build, classifying every tool parameter in the order `Tool.from_function` does:
Context first, then `Resolve` markers, the rest are the published arguments.
"""

from __future__ import annotations

import ast
import functools
import os
import weakref
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path

from .annotation_writes import Written, by_parameter
from .arms import landed
from .assigned_names import tool_name
from .call_sites import CallSites
from .confined import Confined
from .discovery import GivenFiles, SourceFile, discover
from .eager_annotations import defined_late, early_reason
from .evaluator import Evaluator
from .factory_results import hands_out, settle
from .handed_on import handed_on
from .import_calls import called_at
from .imported_registrars import ImportedRegistrars
from .landed_elsewhere import read_by_its_site, scan_applying
from .late_bindings import RunsAt, late_reason, mark_late_resolvers, registered_at
from .loop_collectors import kept_last
from .model import Finding, Graph, Handler, Parameter, Server, SourceInfo, Span, Tool
from .passed_resolvers import PassedResolvers
from .prefilter import might_contribute
from .project import Project
from .reach import Reach, hands_back
from .registered_names import named_by_callers
from .registration_site import Registration
from .registrations import Scanner
from .resolvers import ResolverFactory
from .search_roots import default_roots, given_folders
from .servers import ParamServer, Servers
from .signatures import (
    Classes,
    field_alias,
    function_params,
    is_context_for_tool,
    wants_union,
    written_parameter,
)
from .skipped_callers import load_skipped
from .slot_fillers import Filling
from .source import ParsedModule, deep_recursion_guard, regular_bytes, without_cyclic_gc
from .symbols import Names, Scope
from .tool_function import ToolFunction, landed_twice, tool_function
from .typeexpr import TypeExpr, first_error, resolve_marker
from .unanalysed_tools import note_rewritten, note_unnamed
from .unclassified import EVERY_TOOL, Classified, skipped
from .unparsed_imports import unparsed_imports

TOO_DEEP = (
    "cannot analyse this registration: it is nested too deeply "
    "(an expression or a chain of resolvers thousands of levels deep)"
)


EXPLICIT_DATA_LIMIT = 1 << 20
"""Bytes past which a file named on the command line that cannot declare a server, a tool or a
resolver (`might_contribute`) is not parsed for its syntax alone: pre-commit names data files
too, and Python's parser takes about 100 bytes of memory and 1 us per byte of a literal (a 13 MB
list: over 1 GB and several seconds, for nothing mcpdeps checks; ruff reports its syntax)."""


class StaticBuilder:
    """Builds one `Graph` from a set of files; see `build_graph`."""

    def __init__(self, project: Project, classified: Classified = EVERY_TOOL) -> None:
        self.project = project
        self.classified = classified
        """Which tools are classified (by display: `unclassified.Classified`)."""
        self.names = Names(project)
        self.evaluator = Evaluator(self.names)
        self.classes = Classes(self.evaluator)
        self.factory = ResolverFactory(self.names, self.evaluator, self.classes)
        self.graph = Graph()
        self.servers = Servers(self.names, self.classes, self.graph)
        self.scanner = Scanner(self.names, self.servers)
        self.call_sites = CallSites(
            self.names,
            self.factory.targets.decorators,
            self.factory.targets.method,
            self.scanner.scanned,
            functools.partial(load_skipped, project, self.scanner),
        )
        self.reach = Reach(self.names, self.servers, self.scanner, self.call_sites)
        self.factory.targets.passed = PassedResolvers(weakref.ref(self.call_sites), self.servers)

    def scan(self, module: ParsedModule) -> None:
        """Find servers, registration sites and call sites in one module (all scopes)."""
        self.scanner.scan(module)

    # ------------------------------------------------------------------ tools
    def build_tools(
        self,
        importers: Sequence[ParsedModule] = (),
        scanned: Collection[Path] = (),
        limited: tuple[Sequence[ParsedModule], Collection[Path]] = ((), ()),
    ) -> None:
        """Every registration site, as if its function ran: on each server that reaches it.

        `importers`: modules whose imported helpers registering what they are handed are
        scanned too (`imported_registrars`), after the modules handed a server (those are
        known as handed: `Tool.origin`); but for the files the build scans itself (`scanned`).
        `limited`: modules followed only so far (`confined`), whose imported helpers are
        scanned only among the run's files (a build of every file scans those as its own)."""
        self.reach.follow_passed_servers()
        registrars = ImportedRegistrars(self.names, scanned)
        for helper in [*registrars.registrars(importers), *registrars.registrars(*limited)]:
            self.scan(helper)
        scan_applying(self.project, self.scanner)  # where a registry's decorator is applied
        found = self.scanner.found
        # Registrations in functions take servers or functions from call sites: one walk for all.
        self.call_sites.want({reg.scope.function.name for reg in found if reg.scope is not None})  # type: ignore[union-attr]
        self.reach.want_callers(found)
        expanded: list[Registration] = []
        stood_for: set[int] = set()
        """Sites that register what their function returns for each def it decorates: those
        defs are the tools (`expanded`), not the wrapper as written."""
        for reg in found:
            through = self.reach.through_parameter(reg)
            if (through and hands_back(reg) and not self.reach.applied_unread(reg)) or reg.passed is not None:
                stood_for.add(id(reg))
            # `def add(mcp, fn): _really_add(mcp, fn)`: on what `add`'s callers pass (`handed_on`).
            through += handed_on(self.reach, through, stood_for)
            if reg.passed is not None or isinstance(reg.server, ParamServer) or (reg.returns and reg.scope):
                # Which servers (or, handed a collection, which functions) it stands for
                # depends on every caller, wherever it is: an incremental run re-checks these
                # files with all of their callers. So do the defs a decorator registering what
                # it makes of them is applied to (`return self.server.tool()(guarded)`).
                self.graph.coupled.update(
                    {reg.module.display, *(p for r in through for p in (r.module.display, r.span.path))}
                )
            if reg.collector is not None:
                # A loop over a registry: what it registers is filled in by the files applying
                # the registry's decorator (`@tool`) or calling its function (`register_tool("x",
                # t)`), which it need not import; so its file is checked again with its closure,
                # and each such file (when it does not import the loop's) with the loop's.
                self.graph.coupled.add(reg.span.path)
                self.graph.coupled.update(
                    r.module.display for r in through if read_by_its_site(self.project, r, reg.span.path)
                )
            expanded += through
        # A function a helper registers for its callers (`@expose` over a def, `tool(fn)`) is
        # the caller's tool: it is found wherever the caller's file is built (the helper is one
        # of its imports), so the caller's record holds it, not the helper's, which would
        # depend on every caller.
        expanded = kept_last(expanded)  # a key a dict registry stores twice: the last def
        applied = {id(reg) for reg in expanded}
        twice = landed_twice(found, expanded, self.factory.targets)
        for reg in [*found, *expanded]:
            if reg.returned or reg.bound is not None or id(reg) in stood_for or id(reg) in twice:
                continue  # `return server.tool()`, `tool = server.tool()`: their expansions are the tools
            target = tool_function(reg, self.names, self.factory.targets, self.scanner)
            if target is None:
                note_unnamed(self.names, self.scanner, reg, expanded=id(reg) in applied)
                continue
            if note_rewritten(self.scanner, reg, target):
                continue
            # What a call passes is read where it is written; the call's file registers it.
            written = reg.span.path if reg.landed_at is not None else reg.module.display
            origin = self._passed_from(written)
            if origin is None or written in self.graph.checked:
                origin = written if id(reg) in applied and written in self.graph.checked else None
            in_function = reg.scope is not None and isinstance(
                reg.scope.function, ast.FunctionDef | ast.AsyncFunctionDef
            )
            given = reg.name
            for server, ways in self.reach.servers_of(reg):
                # `name=f"{prefix}x"` in a helper: read with what the calls (now all known)
                # handing it this server pass (which reads the site's own, not the name the
                # previous server's calls gave)
                reg.name = given
                reg.name = given or named_by_callers(
                    self.names, reg, self.reach.passed_for, functools.partial(self._elsewhere, server)
                )
                # Its arms (or a factory's server: which servers) depend on its callers, wherever
                # they are: a function registering on a module-level server runs as its callers
                # call it, even while no build of its file has seen one (a caller written later).
                if (
                    (in_function and not server.local)
                    or any(way[1] for way in ways)
                    or hands_out(self.servers, server)
                ):
                    self.graph.coupled.add(reg.module.display)
                try:
                    if reg.kind == "tool":
                        calls = tuple(self.reach.order.chain(way) for way in ways)
                        runs = registered_at(reg) or called_at(reg, calls)
                        tool = self._tool(reg, target, written, origin or reg.span.path, runs)
                        # The callers' arms, then its own, as each call of its function takes them.
                        tool.arms, *again = (landed(way, reg.arms) for way in ways)
                        tool.calls = calls
                        tool.again = tuple(again)
                        tool.origin = origin
                        if origin == written and id(reg) in applied and read_by_its_site(self.project, reg):
                            self.graph.coupled.add(written)
                        server.tools.append(tool)
                    else:
                        server.handlers.append(self._handler(reg, target))
                except RecursionError:
                    # An expression thousands of levels deep (`int | int | ...`, `a + a + ...`):
                    # report this registration and go on with the others.
                    self.graph.findings.append(
                        Finding("too_deep", TOO_DEEP, reg.span, reg.name if reg.kind == "tool" else None)
                    )
            reg.name = given  # the site's own fact again (a later build reads it afresh)
        for note in self.scanner.unfollowed:
            self.graph.findings.append(Finding("unfollowed", note.message, note.span, note.tool))
        settle(self.servers, self.graph)

    def _elsewhere(self, server: Server, filling: Filling) -> bool:
        """Whether a call of a helper hands it a server other than `server`."""
        module, _, scope, arg = filling
        found = self.servers.of(module, arg, scope)
        return isinstance(found, Server) and found is not server

    def _passed_from(self, display: str) -> str | None:
        """The checked file whose server reached this module's functions, through the helpers
        passing it on (`main.py` -> `wiring.install(server)` -> `notes.register(server)`): the
        file its tools are reported for (`Tool.origin`) when it is not checked itself. The
        first file that passed it when no checked one did."""
        first = origin = self.scanner.handing.passed_by.get(display)
        seen = {display}
        while origin is not None and origin not in self.graph.checked and origin not in seen:
            seen.add(origin)
            origin = self.scanner.handing.passed_by.get(origin)
        return origin if origin is not None and origin in self.graph.checked else first

    def _params(
        self,
        module: ParsedModule,
        fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
        scope: Scope | None,
        skip: int = 0,
        written: tuple[Written, ...] = (),
    ) -> tuple[list[Parameter], str | None]:
        """Parameters with their evaluated annotations (or the one a decorator `written` into the
        function), and the first hint that cannot be evaluated."""
        params: list[Parameter] = []
        error: str | None = None
        assigned = by_parameter(written)
        for arg, variadic, posonly, default in function_params(fn)[skip:]:
            held = assigned.get(arg.arg)
            t = (
                self.evaluator.expr(*held)
                if held
                else self.evaluator.annotation(module, arg.annotation, scope)
            )
            err = first_error(t)
            if err is not None and error is None:
                error = f"the annotation of {arg.arg!r} cannot be evaluated ({err.reason})"
            param = written_parameter(module, arg, variadic, posonly, default, t)
            param.alias = field_alias(t, default, self.names, module, scope, arg.arg)
            param.default_marker = self.evaluator.default_marker(module, default, scope)
            params.append(param)
        return params, error

    def _tool(
        self, reg: Registration, target: ToolFunction, written: str, owner: str, runs: RunsAt | None
    ) -> Tool:
        """Classify a tool as its registration sees the module: names bound by then (`runs`:
        the line at which it runs during the module's import, if it does), not later.
        One whose file's record (`owner`: `per_file.origin_of`) this build does not make is only
        named, and so is a companion's when what it reads cannot be a given file's
        (`unclassified.py`)."""
        if not self.classified.records(owner):
            return self._shell(reg, target, None, None)
        how = self.classified
        # A module the run does not check imports no given file only where every importer is
        # checked: the runs with companions checked for their registrations (`companions.py`).
        loose = written in how.loose or (bool(how.loose) and written not in self.graph.checked)
        if owner in how.companions and loose and skipped(reg, target, written):
            self.graph.unclassified.add(owner)
            return self._shell(reg, target, None, None)
        outer, self.names.cutoff = (
            self.names.cutoff,
            (reg.module, runs[0]) if runs is not None else None,
        )
        try:
            return self._classify_tool(reg, target, runs)
        finally:
            self.names.cutoff = outer

    def _classify_tool(self, reg: Registration, target: ToolFunction, runs: RunsAt | None) -> Tool:
        module, fn, scope = target.module, target.node, target.scope
        with self.names.tracing() as needs:
            params, hints_error = self._params(module, fn, scope, target.skip, target.annotations)
            written = by_parameter(target.annotations).get("return")  # a decorator's `["return"] = T`
            returns = (
                self.evaluator.expr(*written)
                if written is not None
                else None
                if isinstance(fn, ast.Lambda)
                else self.evaluator.annotation(module, fn.returns, scope)
            )
        if hints_error is None and (err := first_error(returns)) is not None:
            hints_error = f"the return annotation cannot be evaluated ({err.reason})"
        late = needs.get(reg.module.path) if runs is not None else None
        if hints_error is None and late is not None and runs is not None and late[0] >= runs[0]:
            hints_error = late_reason(late, runs, "the tool")
        # A def in the function a module-level call runs is defined at that call's line.
        called = runs if runs is not None and runs[1] is not None and scope is not None else None
        run_at = called[0] if called is not None else None
        if hints_error is None and (early := defined_late(self.names, module, fn, scope, run_at)) is not None:
            hints_error = (
                late_reason(early, called, "the tool")
                if called is not None
                else early_reason(early, fn.lineno, "the hints of the tool", "the tool")
            )
        tool = self._shell(reg, target, returns, hints_error)
        if hints_error is None:
            tool.context = next((p.name for p in params if is_context_for_tool(p.type, self.classes)), None)
            for p in params:
                marker = resolve_marker(p.type)
                if marker is not None:
                    p.kind = "resolved"
                    p.resolver = self.factory.get(marker).id
                    p.wants_union = wants_union(p.type)
                elif p.name == tool.context:
                    p.kind = "context"
        tool.parameters = params
        if runs is not None:
            mark_late_resolvers(tool, self.factory.resolvers, str(reg.module.path), runs)
        return tool

    def _shell(
        self, reg: Registration, target: ToolFunction, returns: TypeExpr | None, hints_error: str | None
    ) -> Tool:
        """The tool a registration makes, before its parameters are classified: what the duplicate-name check
        reads of it (`per_file.ToolRegistration`), and nothing evaluated."""
        module, fn, qual = target.module, target.node, target.qualname
        name, computed = tool_name(self.names, reg, target)
        span = Span(module.display, fn.lineno, fn.col_offset + 1, fn.lineno, fn.col_offset + 1)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            span = module.span(fn)
            span = Span(span.path, fn.lineno, fn.col_offset + 1, fn.lineno, fn.col_offset + 1)
        tool = Tool(
            name=name,
            function=qual,
            module=module.name,
            span=span,
            registration=reg.span,
            is_async=target.is_async if target.is_async is not None else isinstance(fn, ast.AsyncFunctionDef),
            return_type=returns,
            hints_error=hints_error,
            form=reg.form,
            arms=reg.arms,
            named=reg.name is not None or reg.name_node is not None,
            computed_name=computed,
            node=fn,
            decorators=target.decorators,
        )
        if target.opaque is not None:
            self.graph.findings.append(
                Finding(
                    "unfollowed",
                    f"tool {name!r}: {target.opaque}; its parameters are read from the function as written",
                    reg.span,
                    name,
                )
            )
        return tool

    def _handler(self, reg: Registration, target: ToolFunction) -> Handler:
        params, _ = self._params(target.module, target.node, target.scope, target.skip)
        return Handler(reg.kind, target.qualname, target.module.name, reg.span, params)  # type: ignore[arg-type]


def new_project(
    files: Sequence[SourceFile],
    paths: Sequence[str | os.PathLike[str]],
    cwd: Path,
    src: Sequence[str | os.PathLike[str]] = (),
    overrides: Mapping[Path, str] | None = None,
    hashing: bool = True,
) -> Project:
    """The project of a run: `default_roots`, where a given folder that is not also a project
    root (`lint case_a case_b`: two projects) is searched only by the files inside it, as
    `python case_a/server.py` never sees `case_b` on `sys.path`."""
    shared = {r.absolute() for r in default_roots(files, (), cwd, src)}
    scoped = [g for g in given_folders(paths, cwd) if g.absolute() not in shared]
    return Project(default_roots(files, paths, cwd, src), overrides, cwd, scoped=scoped, hashing=hashing)


@without_cyclic_gc()
def build_graph(
    paths: Sequence[str | os.PathLike[str]],
    *,
    src: Sequence[str | os.PathLike[str]] = (),
    exclude: Sequence[str] = (),
    source_overrides: Mapping[Path, str] | None = None,
    cwd: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    files: Sequence[SourceFile] | GivenFiles | None = None,
    only: Collection[Path] | None = None,
    project: Project | None = None,
    hashing: bool = True,
    withheld: frozenset[Path] = frozenset(),
    classified: Classified = EVERY_TOOL,
    piece: bool = False,
) -> Graph:
    """Build the static graph of every server, tool and resolver reachable from `paths`.

    `progress(done, total)` is called as files are read (for a progress bar); `files` is
    `discover(paths, exclude, cwd)` when the caller already ran it (no second walk). With
    `only` (absolute paths), just those given files are read and scanned: the others still
    count as given (for display and for what an incremental run keeps from the last one).
    `project`: modules a caller already parsed from the same roots (not parsed again).
    `files` as `GivenFiles`: a caller building slice after slice of the same files indexes
    them once. `hashing=False`: no content hash is taken (`Graph.digests` holds none), for a
    run that keeps no state to compare them with next time (`lint --no-cache`). `withheld`:
    given files no server is followed into (`confined.Confined.withheld`). `classified`: the
    tools to classify (`unclassified.Classified`): every one by default. `piece`: the build is
    one piece of a coupling group (`confined.Confined.in_functions`).
    """
    deep_recursion_guard()
    cwd = cwd or Path.cwd()
    if not isinstance(files, GivenFiles):
        files = GivenFiles(list(files) if files is not None else discover(paths, exclude, cwd))
    if project is None:
        project = new_project(files.files, paths, cwd, src, source_overrides, hashing=hashing)
        project.search = files.search
        project.lent = files.lent  # a caller's own project keeps its parses itself
    project.set_displays(files.displays)
    builder = StaticBuilder(project, classified)
    run = frozenset(files.paths)
    limits: dict[Path, frozenset[Path]] = {}
    for f, p in zip(files.files, files.paths, strict=True):
        if f.caller:
            limits[p] = run
        elif f.reach is not None:
            limits[p] = f.reach.paths  # the run's files among them
    if limits or withheld:
        confined = Confined(limits, withheld, piece, loosely=bool(classified.companions))
        builder.scanner.confined = builder.call_sites.confined = confined
    graph = builder.graph
    graph.files = len(files)
    graph.checked = set(files.checked)
    modules: list[ParsedModule] = []
    reported = 0
    for at in files.picked(only):
        if progress is not None and (at + 1) // 64 > reported:
            reported = (at + 1) // 64
            progress(reported * 64, len(files))
        f, path = files.files[at], files.paths[at]
        data: bytes | None = None
        if not project.overrides or path not in project.overrides:
            data = files.ahead.pop(path) if path in files.ahead else regular_bytes(path)
            # Files named explicitly are parsed (a syntax error there is reported, as ruff does)
            # unless they are data: too large to be read for a syntax error alone. Files found by
            # walking a folder are parsed only if they can contribute.
            skip = not f.explicit or len(data or b"") > EXPLICIT_DATA_LIMIT
            if data is not None and skip and not might_contribute(data):
                project.note_read(path, data)
                builder.call_sites.skipped.add(path, data)
                continue
        module = project.load_path(path, data)
        modules.append(module)
        if module.error is not None:
            graph.findings.append(module.error)
    for module in modules:
        builder.scan(module)
    # Not for a caller checked for the given files' helpers: it follows only the run's files.
    # The helpers these files import are scanned but for the files this build scans itself
    # (`scan` is once a module): a helper the build does not hold (another slice's, one an
    # edit left alone) is scanned as an import.
    builder.build_tools(
        [m for m in modules if m.path not in limits],
        run if only is None else frozenset(only),
        ([m for m in modules if m.path in limits], run),
    )
    graph.resolvers = builder.factory.resolvers
    graph.evaluator = builder.evaluator
    graph.imports = project.edges
    graph.probes = project.probes
    graph.digests = project.digests
    for module in project.modules:
        graph.sources[module.display] = SourceInfo(
            module.name, module.display, module.tree is not None, module.text
        )
    unparsed_imports(project, graph, modules, only)
    graph.findings.sort(key=lambda f: (f.span.path, f.span.line, f.span.column))
    return graph


__all__ = ["Finding", "build_graph"]
