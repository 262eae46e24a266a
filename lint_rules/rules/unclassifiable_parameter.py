"""MCPD002: a resolver parameter the SDK cannot fill (`InvalidSignature` at registration)."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Parameter, Resolver, Tool
from ...resolver_core.suggest import closest, did_you_mean
from ..base import Invalid, Rule, RuleFix, related
from ..same_place import RUNS
from ._walk import tool_argument_names, tools_with_resolvers

_EXPECTED = "expected a Context, an Annotated[_, Resolve(...)], or a tool argument by name"


class UnclassifiableParameter(Rule):
    code = "MCPD002"
    name = "unclassifiable-parameter"
    FIX = RuleFix(
        "rename the resolver parameter (and its uses) to the tool argument it misspells",
        fixer="mcpdeps.lint_rules.fixes.rename_resolver_parameter",
        splice="mcpdeps.lint_rules.fixes.spans_rename:rename_resolver_parameter",
        only_when="(did you mean '",
        case="the case the help names (a misspelt tool argument)",
        safety_note="The SDK refuses the server as it is, so no running behaviour changes; the fix "
        "engine re-lints and drops the rename if another tool using this resolver lacks the new name.",
    )
    known_problems = (
        "The fix renames only a parameter whose name is one slip away from a tool argument (the "
        'help\'s "did you mean"); it leaves the resolver alone when the function is also called '
        "with the old name as a keyword in its own file, since that call would break."
    )
    summary = "A resolver parameter is neither a Context, a Resolve(...), nor a tool argument by name."
    explanation = (
        "Each resolver parameter is filled by the SDK in this order: a `Context` annotation, an "
        "`Annotated[T, Resolve(f)]` dependency, or the tool argument with the same name (types are "
        "never compared). Anything else makes registration fail. Resolved and Context parameters of "
        "the tool are not arguments; an unbound method's `self`, a class's `__init__` parameters and "
        "the parameters of a resolver whose annotations cannot be evaluated only match by name. A "
        "module-level resolver whose annotations name what the module binds further down, without "
        "`from __future__ import annotations`, stops the import itself (Python up to 3.13 evaluates "
        "them where the resolver is defined)."
    )
    INVALID = [
        Invalid(
            "from typing import Annotated\n"
            "from mcp.server import MCPServer\n"
            "from mcp.server.mcpserver import Resolve\n\n"
            "mcp = MCPServer('s')\n\n"
            "def owner(user_id: str) -> str:\n    return user_id\n\n"
            "@mcp.tool()\n"
            "def t(title: str, o: Annotated[str, Resolve(owner)]) -> str:\n    return o\n",
            at=(7, 11, 7, 23),
        ),
        Invalid(
            "from typing import Annotated\n"
            "from mcp.server import MCPServer\n"
            "from mcp.server.mcpserver import Resolve\n\n"
            "mcp = MCPServer('s')\n\n"
            "def shown(titel: str) -> str:\n    return titel.title()\n\n"
            "@mcp.tool()\n"
            "def t(title: str, s: Annotated[str, Resolve(shown)]) -> str:\n    return s\n",
            at=(7, 11, 7, 21),
            fixed="from typing import Annotated\n"
            "from mcp.server import MCPServer\n"
            "from mcp.server.mcpserver import Resolve\n\n"
            "mcp = MCPServer('s')\n\n"
            "def shown(title: str) -> str:\n    return title.title()\n\n"
            "@mcp.tool()\n"
            "def t(title: str, s: Annotated[str, Resolve(shown)]) -> str:\n    return s\n",
        ),
        Invalid(
            "from typing import Annotated\n"
            "from mcp.server import MCPServer\n"
            "from mcp.server.mcpserver import Resolve\n\n"
            "mcp = MCPServer('s')\n\n"
            "def who(user: Annotated[str, Resolve(login)]) -> str:\n    return user\n\n"
            "def login() -> str:\n    return 'me'\n\n"
            "@mcp.tool()\n"
            "def t(name: Annotated[str, Resolve(who)]) -> str:\n    return name\n",
            at=(7, 1, 7, 1),
        ),
    ]
    VALID = [
        "from typing import Annotated\n"
        "from mcp.server import MCPServer\n"
        "from mcp.server.mcpserver import Context, Resolve\n\n"
        "mcp = MCPServer('s')\n\n"
        "def owner(title: str, ctx: Context) -> str:\n    return title\n\n"
        "@mcp.tool()\n"
        "def t(title: str, o: Annotated[str, Resolve(owner)]) -> str:\n    return o\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for _, tool, resolvers in tools_with_resolvers(graph):
            arguments = tool_argument_names(tool)
            for resolver in resolvers:
                if resolver.problem:
                    continue
                if resolver.defined_late:  # its module's import stops there: nothing else counts
                    span = graph.located(tool, resolver, resolver.span)
                    if span is not None:
                        yield self.diagnostic(
                            span,
                            f"resolver {resolver.name!r} cannot be used: {resolver.defined_late}",
                            tool=tool.name,
                            related=related(tool.registration or tool.span, RUNS.format(tool.name)),
                            help="define what its annotations name above it",
                        )
                    continue
                late = tool.late_resolvers.get(resolver.id)
                for p in resolver.parameters:
                    by_name = p.kind == "tool_argument" or late is not None
                    span = graph.located(tool, resolver, p.span)
                    if by_name and p.name not in arguments and span is not None:
                        # Words that do not name the tool: tools sharing the resolver fail it
                        # alike, and the run reports that once, naming each in `related`
                        # (`lint_rules.same_place`).
                        yield self.diagnostic(
                            span,
                            f"resolver {resolver.name!r} parameter {p.name!r} cannot be resolved: "
                            f"{late or self._why(tool, resolver, p)}",
                            tool=tool.name,
                            related=related(tool.registration or tool.span, RUNS.format(tool.name)),
                            help=self._help(tool, resolver, p),
                        )

    def _why(self, tool: Tool, resolver: Resolver, p: Parameter) -> str:
        own = next((tp for tp in tool.parameters if tp.name == p.name), None)
        if resolver.hints_error:
            return f"the SDK reads no type hints for {resolver.name!r} because {resolver.hints_error}"
        if resolver.kind == "unbound_method" and resolver.parameters and p is resolver.parameters[0]:
            return f"Resolve({resolver.qualname}) is an unbound method, so {p.name!r} has nothing to fill it"
        if resolver.kind == "class":
            return "a class resolver's __init__ parameters can only be tool arguments by name"
        if resolver.kind in ("lambda", "partial", "builtin"):
            return f"the SDK reads no type hints through a {resolver.kind}, so its parameters can only be tool arguments"
        if own is not None and own.kind == "resolved":
            return f"{p.name!r} is a resolved parameter of the tool, and resolved parameters are not tool arguments"
        if own is not None and own.kind == "context":
            return f"{p.name!r} is the tool's Context parameter, which is not a tool argument"
        arguments = sorted(tool_argument_names(tool))
        return f"{_EXPECTED}; the tool arguments are {arguments or 'none'}{did_you_mean(p.name, arguments)}"

    def _help(self, tool: Tool, resolver: Resolver, p: Parameter) -> str:
        if resolver.hints_error:
            return (
                "make every annotation of the resolver importable at run time (not only under TYPE_CHECKING)"
            )
        if resolver.kind == "unbound_method":
            return "resolve through an instance (`Resolve(service.method)`) or make it a staticmethod"
        close = closest(p.name, tool_argument_names(tool))
        if close is not None and p.kind == "tool_argument":
            return (
                f"rename it `{close}`, the tool argument it looks like a typo of "
                f"(or annotate it `{p.name}: Context` or `{p.name}: Annotated[T, Resolve(fn)]`)"
            )
        return (
            f"annotate it `{p.name}: Context`, `{p.name}: Annotated[T, Resolve(fn)]`, "
            f"or add a `{p.name}` argument to the tools that run it"
        )
