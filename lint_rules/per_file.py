"""Lint results per given file, so that a run can re-check only the files an edit touches.

Every diagnostic belongs to one given file, its *origin*: the file that registers the
tool it concerns (wherever the resolver is defined), the file a registration-time
finding is in, or the file itself for what is found by reading it (syntax errors,
`Sample` calls). A file's verdicts then depend only on the files its analysis reads
(its closure over followed imports, see `lint_rules.incremental`), never on which other files are
linted with it — with three exceptions, handled here and in `combine`:

- a resolver run by tools of several files is reported once, with the first tool that
  runs it: every file's record keeps what it found about each resolver its tools run
  (tagged with `Resolver.key`), and the union keeps only the first such file's;
- duplicate tool names (MCPD110) are a property of a server across files: each record
  keeps its registrations and MCPD110 runs on all of them together;
- unused suppressions (MCPD114) are judged after the union.

The union of the records of all files is exactly what one run over the whole graph
reports; the property test in `tests/test_incremental.py` checks it against cold runs.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import field, replace
from typing import TYPE_CHECKING, Any

from ..resolver_core.diagnostics import Diagnostic, from_plain, plain
from ..resolver_core.factory_results import made_first
from ..resolver_core.model import Arm, CallChain, Graph, Server, Span, Tool
from ..resolver_core.records import slotted

if TYPE_CHECKING:
    from .base import Rule

GLOBAL_RULES = frozenset({"MCPD110"})
"""Rules computed over every file's registrations rather than per file."""


@slotted
class ToolRegistration:
    """What MCPD110 needs of one registered tool (kept in the cache, so plain data)."""

    server: str
    """The server's identity: its file, variable and id."""
    server_variable: str
    name: str
    function: str
    span: Span | None
    registration: Span | None
    root: str | None
    """The source root of the tool's module (two projects linted together share no server)."""
    bare_decorator: bool
    lambda_without_name: bool
    arms: tuple[Arm, ...] = ()
    """`Tool.arms`: registrations in different arms of one `if` never meet (MCPD110)."""
    unjudged: bool = False
    """MCPD110 does not judge it: its server removes tools (`Server.removes`), or its name is
    computed (`Tool.computed_name`)."""
    calls: CallChain = ()
    """`Tool.calls` of this way: which of two helpers' registrations runs first (MCPD110)."""
    made_first: bool = False
    """Registered by the factory whose call made its server (`factory_results.made_first`):
    before anything registered on the server the call returns, wherever that is written."""
    listed: bool = False
    """Listed in `MCPServer(tools=[...])`: of a name listed twice, the constructor keeps the
    later entry (where `add_tool` keeps the first)."""

    def to_json(self) -> list[Any]:
        # Positional, not keyed: a state keeps every registration of every file, and the keys
        # spelt out were a third of its bytes (and of the time to load and store it).
        return [
            self.server,
            self.server_variable,
            self.name,
            self.function,
            _span_json(self.span),
            _span_json(self.registration),
            self.root,
            self.bare_decorator,
            self.lambda_without_name,
            [list(arm) for arm in self.arms],
            self.unjudged,
            [list(call) for call in self.calls],
            self.made_first,
            self.listed,
        ]

    @classmethod
    def from_json(cls, data: list[Any]) -> ToolRegistration:
        (
            server,
            variable,
            name,
            function,
            span,
            registration,
            root,
            bare,
            lambda_,
            arms,
            unjudged,
            calls,
            first,
            listed,
        ) = data
        return cls(
            server,
            variable,
            name,
            function,
            _span_of(span),
            _span_of(registration),
            root,
            bare,
            lambda_,
            tuple((path, line, arm) for path, line, arm in arms),
            unjudged,
            tuple((path, line, column, body) for path, line, column, body in calls),
            first,
            listed,
        )


@slotted
class FileRecord:
    """One given file's share of a lint run."""

    diagnostics: list[tuple[dict[str, Any], str | None]] = field(default_factory=list)
    """Diagnostics it is the origin of, as JSON (validated only when reported), each with the
    key of the resolver it is about (None when it is about a tool or the file)."""
    registrations: list[ToolRegistration] = field(default_factory=list)
    consumed: list[str] = field(default_factory=list)
    """`Resolver.key` of every resolver its tools run, in graph order."""
    unparsed: bool = False
    """It could not be parsed (a MCPD000 finding in it)."""
    coupled: bool = False
    """Its verdicts depend on files outside its import closure (`register(server)` functions, and
    functions registering on a module-level server: their callers decide their arms)."""
    servers: list[str] = field(default_factory=list)
    """`server_key` of each server it creates, with tools or not (the summary counts them)."""
    unclassified: bool = False
    """Some of its tools were registered without being classified (a companion's, which could
    find nothing located in a given file: `resolver_core/unclassified.py`): its registrations
    are its file's, its `consumed` and diagnostics only what its other tools find. Never taken
    up by another list's run (`adoption`); a run whose report could read them checks it again
    (`unclassified_records.needs_classified`)."""
    limited: dict[str, bool] = field(default_factory=dict, compare=False)
    """What its build asked of its file's limit when the file's servers were followed only so
    far (`Project.limited`): each file asked about (absolute path), and whether it was in the
    limit. A run whose limit answers alike makes the same record (`adoption`); not a verdict,
    so records are compared without it."""

    def to_json(self) -> dict[str, Any]:
        return {
            "diagnostics": self.diagnostics,
            "registrations": [r.to_json() for r in self.registrations],
            "consumed": self.consumed,
            "unparsed": self.unparsed,
            "coupled": self.coupled,
            "servers": self.servers,
            "limited": self.limited,
            "unclassified": self.unclassified,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FileRecord:
        return cls(
            diagnostics=[(d, key) for d, key in data["diagnostics"]],
            registrations=[ToolRegistration.from_json(r) for r in data["registrations"]],
            consumed=list(data["consumed"]),
            unparsed=bool(data["unparsed"]),
            coupled=bool(data["coupled"]),
            servers=list(data["servers"]),
            limited={str(p): bool(inside) for p, inside in data["limited"].items()},
            unclassified=bool(data["unclassified"]),
        )


def _span_json(span: Span | None) -> list[object] | None:
    return [span.path, span.line, span.column, span.end_line, span.end_column] if span else None


def _span_of(data: list[Any] | None) -> Span | None:
    return Span(*data) if data else None


def origin_of(tool: Tool) -> str | None:
    """The file that registers a tool (the decorator or `add_tool` call), else its `def`; or the
    given file that passed the server to a module that was not given (`Tool.origin`)."""
    if tool.origin is not None:
        return tool.origin
    span = tool.registration or tool.span
    return span.path if span is not None else None


def split(graph: Graph, origins: Iterable[str]) -> dict[str, Graph]:
    """The view of each origin that registers a tool or a handler or holds a finding: the
    servers with only the tools and handlers it registers. Another origin's view (`_view`)
    holds none of these: most files of a large tree are not read as modules at all.

    Views share the resolvers, the evaluator and the sources with `graph`, and what the rules
    read of each resolver's definition (`_source.found_in`); nothing is copied but the
    server shells.
    """
    wanted = set(origins)
    views: dict[str, Graph] = {}
    shells: dict[tuple[str, int], Server] = {}

    def view(origin: str) -> Graph:
        if origin not in views:
            views[origin] = _view(graph, origin)
        return views[origin]

    def shell(origin: str, server: Server) -> Server:
        """The view's copy of `server`, holding only what `origin` registers on it."""
        key = (origin, id(server))
        if key not in shells:
            shells[key] = replace(server, tools=[], handlers=[])
            view(origin).servers.append(shells[key])
        return shells[key]

    for server in graph.servers:
        for tool in server.tools:
            origin = origin_of(tool)
            if origin in wanted:
                shell(origin, server).tools.append(tool)
        for handler in server.handlers:
            if handler.span is not None and handler.span.path in wanted:
                shell(handler.span.path, server).handlers.append(handler)
    for finding in graph.findings:
        if finding.span.path in wanted:
            view(finding.span.path).findings.append(finding)
    return views


def _view(graph: Graph, origin: str) -> Graph:
    return Graph(
        resolvers=graph.resolvers,
        sources=graph.sources,
        files=1,
        checked={origin},
        evaluator=graph.evaluator,
        coupled=graph.coupled & {origin},
        unclassified=graph.unclassified & {origin},
        _found=graph._found,
    )


def consumed(view: Graph) -> list[str]:
    """The keys of the resolvers a view's tools run, each once, in graph order."""
    seen: dict[str, None] = {}
    for _, tool in view.tools():
        for resolver in view.reachable(tool):
            seen.setdefault(resolver.key, None)
    return list(seen)


def owners(order: Sequence[str], records: dict[str, FileRecord]) -> dict[str, str]:
    """For each resolver key, the first file (in `order`) whose tools run it."""
    out: dict[str, str] = {}
    for origin in order:
        for key in records[origin].consumed if origin in records else ():
            out.setdefault(key, origin)
    return out


def record(view: Graph, origin: str, rules: Sequence[type[Rule]], servers: Sequence[str] = ()) -> FileRecord:
    """Run the per-file rules on one view (`servers`: the keys of those `origin` creates)."""
    from . import run_rules

    local = [r for r in rules if r.code not in GLOBAL_RULES]
    return FileRecord(
        diagnostics=[(plain(d), d._resolver) for d in run_rules(view, local)],
        registrations=registrations(view),
        consumed=consumed(view),
        unparsed=any(f.kind == "unreadable" and f.span.path == origin for f in view.findings),
        coupled=origin in view.coupled,
        servers=list(servers),
        unclassified=origin in view.unclassified,
    )


def records(graph: Graph, origins: Iterable[str], rules: Sequence[type[Rule]]) -> dict[str, FileRecord]:
    """`record` of every origin's view.

    Most files of a large tree were not even read as modules (the prefilter skipped them,
    no import reached them): their views hold no server, no finding and no text, so they
    differ only in the name of the file checked, which no rule can read anything under.
    The rules run once for the first such view; when that finds nothing, the others get
    the same empty record without running them again (on a copy of the stdlib, 1,790 runs
    of every rule were a tenth of the analysis).
    """
    out: dict[str, FileRecord] = {}
    created: dict[str, list[str]] = {}
    for server in graph.servers:
        if not server.parameter:
            created.setdefault(server.path, []).append(server_key(server))
    blank: bool | None = None
    origins = list(origins)
    views = split(graph, origins)
    for origin in origins:
        view = views.get(origin)
        if view is not None or origin in graph.coupled or origin in graph.sources:
            out[origin] = record(view or _view(graph, origin), origin, rules, created.get(origin, ()))
        elif blank:
            out[origin] = FileRecord()
        else:
            out[origin] = record(_view(graph, origin), origin, rules)
            blank = blank is None and out[origin] == FileRecord()
    return out


def server_key(server: Server) -> str:
    """A server's identity in every run: its file, the function binding it, and its variable
    (as the builder keys it).

    Not `Server.id`: a module's dotted name can depend on how it was first reached (a
    namespace package takes the name it is imported under). A server a factory's call makes
    is shown as the factory's own: the call tells each apart (`Server.made_at`).
    """
    made = server.made_at
    return (
        f"{server.path}:{server.scope}{'.<locals>.' if server.scope else ''}{server.variable}"
        + (f":{server.id}" if server.parameter else "")
        + (f"@{made.path}:{made.line}:{made.column}" if made is not None else "")
    )


def registrations(view: Graph) -> list[ToolRegistration]:
    """The tools a view registers, server by server, in registration order."""
    from ._source import module_at

    out = []
    for server in view.servers:
        for tool in server.tools:
            module = module_at(view, tool.span)
            out += [
                ToolRegistration(
                    server=server_key(server),
                    server_variable=server.bound_as or server.variable,  # `mcp` of `mcp = build()`
                    name=tool.name,
                    function=tool.function,
                    span=tool.span,
                    registration=tool.registration,
                    root=str(module.root) if module is not None else None,
                    bare_decorator=tool.form == "uncalled_decorator",
                    lambda_without_name=tool.is_lambda and not tool.named,
                    arms=arms,
                    unjudged=server.removes or tool.computed_name,
                    calls=tool.calls[way] if way < len(tool.calls) else (),
                    made_first=made_first(server, tool.calls[way] if way < len(tool.calls) else ()),
                    listed=tool.form == "listed",
                )
                # each time it runs: a second one is a duplicate
                for way, arms in enumerate((tool.arms, *tool.again))
            ]
    return out


def analysed(order: Sequence[str], records: dict[str, FileRecord]) -> tuple[int, int]:
    """How many servers and tools the given files hold, for the summary: the servers they
    create or register on, and the tools those servers keep (a name registered twice on one
    server is one tool, as the SDK drops the second)."""
    servers: set[str] = set()
    tools: set[tuple[str, str]] = set()
    for origin in order:
        rec = records.get(origin)
        if rec is None:
            continue
        servers.update(rec.servers)
        for reg in rec.registrations:
            servers.add(reg.server)
            tools.add((reg.server, reg.name))
    return len(servers), len(tools)


def combine(
    order: Sequence[str],
    records: dict[str, FileRecord],
    rules: Sequence[type[Rule]],
    given: Collection[str] | None = None,
    ranks: Ranks | None = None,
) -> list[Diagnostic]:
    """The union of the records (in `order`) plus the cross-file rules, deduplicated, the same
    problem found for several tools united (`same_place`), sorted.

    `given`: the files the user named, when `order` also holds files checked only for what
    they find in them (`companions.importers`): the records of those others count only
    where a diagnostic is located in a given file. `ranks`: the order the program runs the
    files registering one tool name in (`by_import_order`). A given file's record counts whole (its
    tools' findings in a module it imports are its own: pre-commit passing only the edited
    tool file must still fail on the unchanged resolver it now uses).
    """
    from .rules.duplicate_tool_name import duplicates
    from .same_place import one_per_place

    owner = owners(order, records)
    unique: dict[tuple[object, ...], Diagnostic] = {}
    for origin in order:
        rec = records.get(origin)
        whole = given is None or origin in given
        for data, key in rec.diagnostics if rec is not None else ():
            if (key is None or owner.get(key) == origin) and (
                whole or (given is not None and data["path"] in given)
            ):
                d = from_plain(Diagnostic, data)
                unique.setdefault(d.sort_key(), d)
    if any(r.code in GLOBAL_RULES for r in rules):
        regs = in_file_order(order, records)
        for d in duplicates(by_import_order(regs, ranks) if ranks is not None else regs):
            if given is None or d.path in given:
                unique.setdefault(d.sort_key(), d)
    return one_per_place(unique.values())


def in_file_order(order: Sequence[str], records: dict[str, FileRecord]) -> list[ToolRegistration]:
    """Every record's registrations in the order `lint .` meets them: by the file that writes
    each registration (displays sort as the run's files do), in record order within a file.

    A module that is not one of the run's files has its tools in the record of the file that
    handed it a server (`Tool.origin`): `lint features/alpha.py` reads `features/beta.py`
    through `app/main.py`, which calls both `register(mcp)` helpers. Met at `app/main.py`,
    `beta`'s tools would come before `alpha`'s and move MCPD110 (reported at the second of
    two registrations) to the given file; `lint .`, where `beta.py` is one of the files,
    meets them at `features/beta.py`."""
    regs = [(origin, reg) for origin in order if origin in records for reg in records[origin].registrations]
    # A factory's registrations run inside the call making the server, before any on its result.
    return [reg for _, reg in sorted(regs, key=lambda item: (not item[1].made_first, _written_in(item)))]


Ranks = Callable[[set[str]], "dict[str, int] | None"]
"""The place of each of a few files (by display) in the order the program runs them, or None
when that cannot be told (`import_order.DisplayRanks`)."""


def by_import_order(regs: list[ToolRegistration], ranks: Ranks) -> list[ToolRegistration]:
    """`regs` (in file order), the registrations of each tool name on each server that several
    files register met in the order the program runs those files, when `ranks` tells it
    (`import app.b` before `import app.a`): MCPD110 is reported at the second. Asked only of
    such names (the project's imports are read then); names are judged apart (`duplicates`),
    so each is reordered on its own.

    Only registrations written at a module's top level (not indented) run as the module is
    imported: one in a function runs when it is called (`Tools(mcp)`, `register(mcp)` in the
    entry point's body), in the order of its calls, not of its imports (`call_order.by_calls`:
    `b.register(mcp)` then `a.register(mcp)`, plain statements of one body), in an `if` or
    `try` maybe never; a name registered so keeps the display order where the calls do not
    tell it."""
    groups: dict[tuple[str, str | None, str], list[ToolRegistration]] = {}
    for reg in regs:
        groups.setdefault((reg.server, reg.root, reg.name), []).append(reg)
    out: list[ToolRegistration] = []
    for group in groups.values():
        files = {_written_in(("", reg)) for reg in group}
        ranked = ranks(files) if len(files) > 1 and all(map(_top_level, group)) else None
        if ranked is not None:
            group = sorted(group, key=lambda reg: ranked[_written_in(("", reg))])
        elif len(files) > 1 and all(reg.calls for reg in group):
            from ..resolver_core.call_order import by_calls

            called = by_calls([reg.calls for reg in group])
            group = [group[i] for i in called] if called is not None else group
        out += group
    return out


def _top_level(reg: ToolRegistration) -> bool:
    """Whether a registration is written unindented: `@mcp.tool()` (its span starts after the
    `@`) or `mcp.add_tool(fn)` at a line's start."""
    span = reg.registration or reg.span
    return span is not None and span.column <= 2


def _written_in(item: tuple[str, ToolRegistration]) -> str:
    origin, reg = item
    span = reg.registration or reg.span
    return span.path if span is not None else origin
