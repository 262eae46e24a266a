"""Source in, dependency graph out: the model every mcpdeps command reads.

Pure library code: no typer, no rich, and no `mcp` import on the static path
(`resolver_core.live` is the only module that imports the SDK).
"""

from mcpdeps.resolver_core.builder import build_graph
from mcpdeps.resolver_core.model import Graph, Parameter, Question, Resolver, Server, Span, Tool

__all__ = ["Graph", "Parameter", "Question", "Resolver", "Server", "Span", "Tool", "build_graph"]
