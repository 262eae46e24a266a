"""The graph model shared by every front end.

Both builders fill it: `builder.build_graph` from source (static) and
`live.build_live_graph` from an imported server. Lint rules, `graph`, `serve`'s
banner and `call` read it. Plain dataclasses: the model is built for every run
of `lint`, so it must be cheap to create.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .records import record, slotted

if TYPE_CHECKING:
    import ast

    from .evaluator import Evaluator
    from .plan import ResolverPlan
    from .typeexpr import TResolve, TypeExpr

ParamKind = Literal["tool_argument", "context", "resolved", "unclassified"]
"""How the SDK fills a parameter. `unclassified` only ever appears on resolvers."""

QuestionKind = Literal["elicit", "sample", "list_roots"]

RegistrationForm = Literal["decorator", "uncalled_decorator", "add_tool", "applied", "listed"]
"""How the source registers a tool: `@server.tool(...)` on a def, the decorator itself used
without being called (`@server.tool`, or `server.tool(fn)` giving the function where the name
goes), `server.add_tool(fn, ...)`, the called decorator applied by hand
(`server.tool(name=...)(fn)`, also a project function registering what it is given), or
`Tool.from_function(fn)` listed in `MCPServer(tools=[...])` (of a name listed twice, the
constructor keeps the last)."""

Arm = tuple[str, int, int]
"""One arm of an exclusive statement (`if`, `match`, an `ImportError` fallback): the file
and line of the statement, and which of its arms (`arms.py`)."""

CallChain = tuple[tuple[str, int, int, str], ...]
"""The calls one way to a registration goes through, outermost first: each call's file, line,
column, and the key of the body it is a plain statement of ("" when it is none:
`call_order.py`)."""

FindingKind = Literal["unreadable", "too_deep", "unfollowed"]
"""What a build could not do: read or parse a file; analyse an expression nested too deeply;
follow something that is computed at run time (a decorator on a tool, the values of a loop
that registers tools, annotations assigned at run time): its tools are then not analysed."""

ProblemKind = Literal["invalid", "opaque", "installed"]
"""Why a `Resolve(x)` target is not a usable resolver: not one the SDK accepts (not callable,
no signature, undefined), computed at run time beyond static analysis, or a plain function of
an installed module or the standard library (`Resolve(os.getcwd)`): the SDK takes it like any
other, but static analysis never reads installed code, so its parameters go unchecked."""

ResolverKind = Literal[
    "function",
    "bound_method",
    "unbound_method",
    "staticmethod",
    "classmethod",
    "callable_instance",
    "class",
    "lambda",
    "partial",
    "builtin",
    "opaque",
]


@record
class Span:
    """A source range; lines and columns are 1-based, end column exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def of(cls, path: str, node: ast.AST) -> Span:
        """The span of an ast node (ast columns are 0-based UTF-8 offsets; close enough for display)."""
        line = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0)
        end_line = getattr(node, "end_lineno", None) or line
        end_col = getattr(node, "end_col_offset", None)
        return cls(path, line, col + 1, end_line, (end_col if end_col is not None else col) + 1)


@slotted
class Parameter:
    """One parameter of a tool or a resolver, classified the way the SDK classifies it."""

    name: str
    kind: ParamKind
    span: Span | None
    annotation: str | None = None
    """The annotation as written (source text), or its repr for live graphs."""
    type: TypeExpr | None = None
    """The statically evaluated annotation (None in live graphs, or when absent)."""
    default: str | None = None
    """Source text of the default value, or None when there is none."""
    resolver: str | None = None
    """Resolver id for `resolved` parameters."""
    wants_union: bool = False
    """The consumer takes the full `ElicitationResult` instead of the unwrapped value."""
    positional_only: bool = False
    variadic: Literal["*", "**"] | None = None
    alias: str | None = None
    """The pydantic alias of a tool argument (`Field(alias=...)`): the schema property's name."""
    default_marker: TResolve | None = field(default=None, repr=False, compare=False)
    """`Resolve(f)` written as the default value (`user: str = Resolve(current_user)`, FastAPI's
    `= Depends(f)`): the SDK looks for markers in the annotation only, so the model fills it."""


@slotted
class Question:
    """A question a resolver may ask (from its return annotation or a `return` statement)."""

    kind: QuestionKind
    span: Span | None
    message: str | None = None
    """The message expression as written (`Elicit`), if known."""
    model: str | None = None
    """The elicitation model's name (`Elicit`), if known."""
    fields: list[tuple[str, str]] = field(default_factory=list)
    """The elicitation model's fields as (name, annotation text)."""
    model_type: TypeExpr | None = field(default=None, repr=False, compare=False)
    """The elicitation model as a type (static graphs), for schema checks."""
    node: ast.AST | None = field(default=None, repr=False, compare=False)
    """The `Elicit(...)`/`Sample(...)` call, when the question comes from a `return` statement."""
    prompt: list[tuple[str, str]] = field(default_factory=list)
    """`Sample`: (role, text or the expression that builds it) per message, in order."""
    system_prompt: str | None = None
    """`Sample`: its `system_prompt`, as written."""
    max_tokens: str | None = None
    """`Sample`: its `max_tokens`, as written."""


@slotted
class Resolver:
    """A function (or other callable) named in `Resolve(...)`."""

    id: str
    """`module:qualname`, the SDK's wire-key base."""
    name: str
    qualname: str
    module: str
    kind: ResolverKind
    span: Span | None
    is_async: bool = False
    parameters: list[Parameter] = field(default_factory=list)
    """Parameters after binding (no `self`/`cls`, no partial-bound ones). A `tool_argument`
    kind here means "matched by name"; whether the name exists is per tool."""
    questions: list[Question] = field(default_factory=list)
    return_type: TypeExpr | None = None
    hints_error: str | None = None
    """Why `typing.get_type_hints` would fail on this resolver (then the SDK sees no hints)."""
    defined_late: str | None = None
    """Why importing its module fails before the SDK sees it: its annotations, evaluated where
    Python defines it, name what the module binds further down (`eager_annotations`)."""
    is_generator: bool = False
    needs: dict[str, tuple[int, str]] = field(default_factory=dict)
    """Per module path, the latest module-level binding (line, name) its hints look up: a tool
    registered before that line in that module gets no hints for this resolver."""
    problem: str | None = None
    """Why the target is not a usable resolver (not callable, undefined, opaque), if it is not."""
    problem_kind: ProblemKind | None = None
    """Set with `problem`: invalid for the SDK, opaque to static analysis, or installed code
    (then `module` is the module the source imports it from)."""
    node: ast.AST | None = field(default=None, repr=False, compare=False)
    """The defining ast node (static graphs only)."""
    decorators: tuple[str, ...] = ()
    """The decorators written on its def (`@retry(times=3)`), outermost first, for display."""
    wrapped_async: str | None = None
    """The `async def` a sync decorator wrapper around it calls: the SDK injects a coroutine."""
    anchored: bool = True
    """Its spans are its own source. False for a callable without source (`len`, a library
    function, an opaque expression): they are where the run first saw it used."""

    @property
    def asks(self) -> QuestionKind | None:
        return self.questions[0].kind if self.questions else None

    @property
    def key(self) -> str:
        """An identity that is the same in every run over the same source (ids are numbered
        per graph: `f#1` in one run can be another closure in a run over fewer files).

        A resolver without source (`Resolve(len)`, a library function) has the span of its
        first use, which depends on what else the run read: it is keyed by name alone.
        """
        if not self.anchored or self.span is None:
            return f"{self.kind}:{self.module}:{self.qualname}"
        return f"{self.kind}:{self.qualname}@{self.span.path}:{self.span.line}:{self.span.column}"


@slotted
class Tool:
    """A function registered as a tool on a server."""

    name: str
    """The registered name (`name=` or the function's `__name__`)."""
    function: str
    module: str
    span: Span | None
    """The function definition (its `def` line)."""
    registration: Span | None
    """The decorator or `add_tool(...)` call that registers it."""
    parameters: list[Parameter] = field(default_factory=list)
    is_async: bool = False
    return_type: TypeExpr | None = None
    hints_error: str | None = None
    """Why the tool's annotations cannot be evaluated (T3), if they cannot."""
    form: RegistrationForm = "decorator"
    named: bool = False
    """A name is given at registration (`name=`, or the decorator's first argument)."""
    computed_name: bool = field(default=False, compare=False)
    """The name given is not written out (`name=f"{prefix}_search"`): `name` is the function's,
    which the SDK does not use: no duplicate name can be judged from it."""
    context: str | None = None
    """The parameter that receives the Context (the SDK's `context_kwarg`)."""
    late_resolvers: dict[str, str] = field(default_factory=dict)
    """Resolver id -> why its hints cannot be read yet when this tool is registered."""
    node: ast.AST | None = field(default=None, repr=False, compare=False)
    decorators: tuple[str, ...] = ()
    """The decorators between the registration and the def (`@retry(times=3)`), for display."""
    arms: tuple[Arm, ...] = ()
    """The arms of exclusive statements its registration is written in, and the calls of the
    helpers that reach it (`arms.py`): two tools in different arms of one statement are never
    registered in the same run."""
    again: tuple[tuple[Arm, ...], ...] = ()
    """The arms of each further way the registration runs on the server (`arms.Way`: a helper
    called twice on it registers its tools twice, `install(mcp)` / `install(mcp)`)."""
    calls: tuple[CallChain, ...] = ()
    """The calls each way goes through (`arms`, then each of `again`), outermost first: which
    of two helpers' registrations runs first (`call_order.py`)."""
    origin: str | None = None
    """The given file its verdicts belong to when the module registering it was not given: the
    file that passed it the server (`tools.register(mcp)`). None: the registering file."""

    @property
    def is_lambda(self) -> bool:
        return self.function.rpartition(".")[2] == "<lambda>"

    @property
    def arguments(self) -> list[str]:
        """Exactly the input-schema properties the SDK publishes, in signature order."""
        return [p.alias or p.name for p in self.parameters if p.kind == "tool_argument"]

    @property
    def resolved(self) -> dict[str, str]:
        return {p.name: p.resolver for p in self.parameters if p.kind == "resolved" and p.resolver}


@slotted
class Handler:
    """A prompt or resource function: `Resolve` there is silently ignored by the SDK."""

    kind: Literal["prompt", "resource"]
    function: str
    module: str
    span: Span | None
    parameters: list[Parameter] = field(default_factory=list)


@slotted
class Server:
    """An `MCPServer(...)` instance (or a parameter annotated `MCPServer`)."""

    id: str
    """`module:variable`."""
    name: str | None
    """The server's name when given as a literal (`MCPServer("Bookshop")`)."""
    variable: str
    module: str
    path: str
    span: Span | None
    tools: list[Tool] = field(default_factory=list)
    handlers: list[Handler] = field(default_factory=list)
    parameter: bool = False
    """A `register(server: MCPServer)` parameter no call site names a server for."""
    local: bool = field(default=False, compare=False)
    """Made in a function or for an instance (`self.mcp = MCPServer(...)`, a subclass's
    `self`): each run of that code makes its own, so the calls of a function registering on
    it are not counted as registering twice on one server (`reach.Reach.ways`)."""
    removes: bool = field(default=False, compare=False)
    """Some code removes tools from it (`server.remove_tool(...)`): a name registered again may
    follow the removal of the first, which the SDK then accepts: its names are not judged for
    duplicates."""
    made_at: Span | None = None
    """Made by this call of a factory returning its own local server (`mcp = build()`, where
    `build` binds `server = MCPServer(...)`, registers on it and returns it): each call makes
    one, with the tools the factory registers on it. Shown as the factory's local server (its
    variable and `MCPServer(...)`, as the live builder finds it) and told apart by the call
    (`per_file.server_key`)."""
    bound_as: str | None = field(default=None, compare=False)
    """The name the call making it binds it to (`mcp` of `mcp = build()`): what the code
    registering on it after the call writes (`@mcp.tool()`), so what messages call it."""
    scope: str = ""
    """The `__qualname__` of the function binding it, for a function's local server: the
    `mcp` of `build_a` and the `mcp` of `build_b` are two servers (`per_file.server_key`)."""


@slotted
class Finding:
    """A problem found while building the graph, before any rule runs.

    Rules turn findings of their kind into diagnostics; this is how unreadable files and
    what static analysis cannot follow reach the user.
    """

    kind: FindingKind
    message: str
    span: Span
    tool: str | None = None


@slotted
class SourceInfo:
    """A module that was read: its display path and whether it parsed."""

    module: str
    path: str
    parsed: bool
    text: str | None = field(default=None, repr=False)


@slotted
class Graph:
    """Everything one run knows: servers with their tools, and every resolver by id."""

    servers: list[Server] = field(default_factory=list)
    resolvers: dict[str, Resolver] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    sources: dict[str, SourceInfo] = field(default_factory=dict)
    """Files read, keyed by display path (what the user gave, relative stays relative)."""
    files: int = 0
    """Files the user asked to check (after discovery)."""
    checked: set[str] = field(default_factory=set)
    """Display paths of the files the user asked to check (after discovery)."""
    coupled: set[str] = field(default_factory=set)
    """Files whose records depend on files outside their imports' closure: a function
    registering on a server its callers hand it (`register(server: MCPServer)`), a registry
    loop and the files filling the registry, a registration landing in another file's tools,
    a file whose imports could not be parsed. Each is checked in one slice with every file
    that may call it (`lint_rules.coupling`) and again with its callers by a cached run
    (`FileRecord.coupled`)."""
    imports: dict[Path, set[Path]] = field(default_factory=dict)
    """Module -> modules the run followed an import of it into (`Project.edges`)."""
    probes: dict[Path, set[Path]] = field(default_factory=dict)
    """Module -> the `folder/name` its import lookups probed (`Project.probes`)."""
    digests: dict[str, str | None] = field(default_factory=dict)
    """What the verdicts were computed from (`Project.digests`): file hashes and probe states."""
    unclassified: set[str] = field(default_factory=set)
    """Files (displays) some of whose tools were registered without being classified
    (`unclassified.py`): what their tools find is not known, only their registrations."""
    _plans: dict[int, ResolverPlan] = field(default_factory=dict, repr=False)
    """Memo for `plan` (a graph is not changed once built; every reader asks)."""
    _consumers: dict[str, Tool] | None = field(default=None, repr=False, compare=False)
    """Memo for `lint_rules._source.first_consumers` (five rules ask, per file's view)."""
    _found: dict[tuple[str, str], Any] = field(default_factory=dict, repr=False, compare=False)
    """Memo for `lint_rules._source.found_in`: what a rule read of one resolver's definition,
    keyed by rule and `Resolver.id`; the views of one build share it (`per_file.split`)."""
    evaluator: Evaluator | None = field(default=None, repr=False, compare=False)
    """The static builder's annotation evaluator (and through `.names`, its name resolution and
    parsed project), for rules that must evaluate annotations or names the builder did not
    keep (elicitation model fields, calls in resolver bodies). None in live graphs."""

    def tools(self) -> list[tuple[Server, Tool]]:
        return [(s, t) for s in self.servers for t in s.tools]

    def plan(self, tool: Tool) -> ResolverPlan:
        """The tool's resolver plan (`resolver_core.plan`), walked on first use, then kept."""
        plan = self._plans.get(id(tool))
        if plan is None:
            from .plan import plan_tool

            plan = self._plans[id(tool)] = plan_tool(self.resolvers, tool)
        return plan

    def reachable(self, tool: Tool) -> list[Resolver]:
        """Resolvers a tool's call runs, depth-first in the SDK's analysis order, each once."""
        return self.plan(tool).reached

    def located(self, tool: Tool, resolver: Resolver, span: Span | None) -> Span | None:
        """Where to report `span` (the resolver's or one of its parameters') for this tool.

        A resolver without source of its own (`Resolve(len)`) has the spans of its first use
        in the run; for a tool, the place that matters is where its own graph names it.
        """
        if resolver.anchored:
            return span
        return self.plan(tool).named_at.get(resolver.id) or span
