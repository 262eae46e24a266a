"""MCPD113: what static analysis cannot see: a `Resolve(x)` target computed at run time or
defined in installed code, a decorator on a tool it cannot follow, a registration whose tools
it cannot list."""

from __future__ import annotations

from collections.abc import Iterable

from ...resolver_core.diagnostics import Diagnostic
from ...resolver_core.model import Graph, Resolver
from ..base import Invalid, Rule
from ._walk import resolver_problems


class OpaqueResolver(Rule):
    code = "MCPD113"
    name = "opaque-resolver"
    severity = "info"
    summary = "A resolver is produced by a call mcpdeps cannot follow; its parameters are not checked."
    explanation = (
        "mcpdeps never runs your code, so a resolver built by an arbitrary call (a factory from "
        "another package, a decorator returning a wrapper) cannot be analysed. It is reported "
        "instead of guessed. The same goes for registrations mcpdeps cannot follow: a loop over "
        "values the source does not list (`for fn in TOOLS: mcp.add_tool(fn)`), annotations "
        "assigned at run time (`fn.__annotations__[...] = ...`), a helper parameter no call "
        "passes a server to and no `MCPServer` annotation marks as one: the info names the tools "
        "left unchecked. So does a tool registered on mcp 1.x's `FastMCP` (`from "
        "mcp.server.fastmcp import FastMCP`), which mcp 2 removed: under mcp 2 the server fails "
        "to import, and `mcpdeps migrate` moves it to `MCPServer`, whose tools are checked. A resolver imported from an installed package or the standard "
        "library (`Resolve(get_access_token)` from `mcp.server.auth`, `Resolve(os.getcwd)`) is "
        "a plain function, but mcpdeps does not read installed code: the info names the module "
        "it comes from. Use `mcpdeps graph --live` to see what the SDK sees."
    )
    known_problems = (
        "Modules imported by a name built at run time are followed when the source spells "
        "what the name can be: `importlib.import_module` of a text, of an f-string or a `+` "
        'over a loop variable taking texts written out (`for name in ("weather", "news"):`), '
        "relative to `__package__` or `__name__`, or over what `pkgutil.iter_modules` / "
        "`walk_packages` list in a package's folder (`__path__`, `pkg.__path__`: every module "
        "the folder holds, ignored by git or not, in `pkgutil`'s order). Without a `hasattr` "
        "guard, the first module defining no `register` ends the start-up, as the "
        "AttributeError does: the modules after it are not followed. A module bound to a "
        'name by a constant import (`deps = importlib.import_module("app.deps")`, '
        '`__import__("app.deps", fromlist=[...])`) is that module, and `getattr(deps, "load_d")` '
        'or `vars(deps)["load_d"]` its attribute; with a default (`getattr(deps, "x", None)`) '
        "or through `sys.modules` the value is the run's. A name read from a "
        "setting, a file or the environment (`import_module(os.environ[...])`), or from a loop "
        "variable taking two parts at once, is not followed: the helpers it would reach "
        "take no server from it, and their tools are reported as not analysed. A resolver "
        "from installed code is reported even when it comes from the SDK itself (`mcp.*`): "
        "most of the SDK's functions are no resolvers, and the SDK refuses those "
        "(`Resolve(func_metadata)`: its `func` is no tool argument), so which module defines a "
        "function says nothing about its parameters. Silence the info with "
        "`# mcpdeps: ignore[MCPD113]` where the function is meant as a resolver."
    )
    INVALID = [
        Invalid(
            "from typing import Annotated\n"
            "import functools\n"
            "from mcp.server import MCPServer\n"
            "from mcp.server.mcpserver import Resolve\n\n"
            "mcp = MCPServer('s')\n"
            "lookup = functools.lru_cache(maxsize=None)(str.upper)\n\n"
            "@mcp.tool()\n"
            "def t(title: str, u: Annotated[str, Resolve(lookup)]) -> str:\n    return u\n",
            at=(10, 19, 10, 53),
        ),
        Invalid(
            "from mcp.server.fastmcp import FastMCP\n\n"
            "mcp = FastMCP('s')\n\n"
            "@mcp.tool()\n"
            "def t(title: str) -> str:\n    return title\n",
            at=(5, 2, 5, 12),
        ),
    ]
    VALID = [
        "from typing import Annotated\n"
        "from mcp.server import MCPServer\n"
        "from mcp.server.mcpserver import Resolve\n\n"
        "mcp = MCPServer('s')\n\n"
        "def lookup(title: str) -> str:\n    return title.upper()\n\n"
        "@mcp.tool()\n"
        "def t(title: str, u: Annotated[str, Resolve(lookup)]) -> str:\n    return u\n"
    ]

    def check(self, graph: Graph) -> Iterable[Diagnostic]:
        for tool, resolver, span in resolver_problems(graph, "opaque"):
            yield self.diagnostic(span, str(resolver.problem), tool=tool.name)
        for tool, resolver, span in resolver_problems(graph, "installed"):
            yield self.diagnostic(span, _installed(resolver), tool=tool.name)
        for finding in graph.findings:  # a tool or registration mcpdeps cannot follow
            if finding.kind == "unfollowed":
                yield self.diagnostic(finding.span, finding.message, tool=finding.tool)


def _installed(resolver: Resolver) -> str:
    """Not "computed at run time": the function is a plain, definite one; what is missing is
    only its source, which static analysis never reads (nor imports) outside the project."""
    return (
        f"resolver `{resolver.qualname}` comes from module `{resolver.module}`, outside the "
        "project: mcpdeps does not read installed code, so its parameters are not checked"
    )
