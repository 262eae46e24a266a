"""From a request (`new resolver ...` / `new tool ...`) and the module as read, to the module's new text.

Every refusal happens here, before anything is rendered: the new name is free, each resolver
named is known, parameter names are unique and legal, no cycle appears, and every resolver a new
tool uses can have its parameters classified by the SDK.
"""

from __future__ import annotations

import ast

from ...resolver_core.records import record
from ..errors import UserError
from .codegen import Injected, Question, consumer_type, render_resolver, render_tool
from .insertion import edit_module, resolver_index, tool_index
from .module_info import ModuleInfo
from .name_checks import (
    check_classifiable,
    check_identifier,
    check_name_free,
    check_no_cycle,
    check_resolver_known,
    local_resolver,
)
from .specs import ArgSpec, DependSpec, check_type, check_unique

CONTEXT_PARAM = "ctx"


@record(slots=False)
class ResolverRequest:
    """What `mcpdeps new resolver` was asked for."""

    name: str
    args: list[ArgSpec]
    context: bool
    depends: list[DependSpec]
    returns: str | None
    question: Question | None
    sync: bool


@record(slots=False)
class ToolRequest:
    """What `mcpdeps new tool` was asked for (`server` already chosen)."""

    name: str
    server: str
    args: list[ArgSpec]
    resolves: list[DependSpec]
    context: bool
    sync: bool


def _injected(info: ModuleInfo, depends: list[DependSpec], needs: dict[str, set[str]]) -> list[Injected]:
    """`Annotated[T, Resolve(r)]` parameters; T is given, or read from the resolver's return annotation."""
    injected: list[Injected] = []
    for dep in depends:
        type_ = dep.type
        if type_ is None:
            function = local_resolver(info, dep.resolver)
            type_, extra = consumer_type(function.returns if function else None)
            if extra:
                needs.setdefault(extra[0], set()).add(extra[1])
        injected.append(Injected(dep.param, dep.resolver, type_))
    return injected


def _names_in_types(*types: str | None) -> list[str]:
    """Names a signature's annotations use (`list[Book]` -> list, Book): evaluated when the `def` runs,
    so the new code must come after their module-level definitions."""
    names: list[str] = []
    for text in types:
        if text:
            names += [n.id for n in ast.walk(ast.parse(text, mode="eval")) if isinstance(n, ast.Name)]
    return names


def _param_names(args: list[ArgSpec], depends: list[DependSpec], context: bool, where: str) -> list[str]:
    names = [a.name for a in args] + [d.param for d in depends] + ([CONTEXT_PARAM] if context else [])
    check_unique(names, where)
    return names


def plan_resolver(info: ModuleInfo, path: str, request: ResolverRequest) -> str:
    """The module's text with the new resolver (and its elicitation model, if new) inserted."""
    check_identifier(request.name, "the resolver name")
    check_name_free(info, request.name, path)
    _param_names(request.args, request.depends, request.context, f"resolver {request.name!r}")
    for dep in request.depends:
        check_resolver_known(info, dep.resolver, path)
    check_no_cycle(info, request.name, [d.resolver for d in request.depends])
    if request.returns is not None:
        check_type(request.returns, "--returns")
    references = [d.resolver for d in request.depends] + _names_in_types(
        request.returns, *(a.type for a in request.args), *(d.type for d in request.depends)
    )
    question = request.question
    new_model = False
    if question is not None and question.kind == "elicit":
        assert question.model is not None
        check_identifier(question.model, "the elicitation model name")
        new_model = question.model not in info.bindings
        if new_model and question.model == request.name:
            raise UserError(f"the model and the resolver cannot both be named {request.name!r}.")
        references.append(question.model)
    extra: dict[str, set[str]] = {}
    rendered = render_resolver(
        request.name,
        args=request.args,
        injected=_injected(info, request.depends, extra),
        context=request.context,
        returns=request.returns or "str",
        question=question,
        sync=request.sync,
        new_model=new_model,
    )
    for module, names in extra.items():
        rendered.need(module, *names)
    return edit_module(info, resolver_index(info, references), rendered.statements, rendered.needs)


def choose_server(info: ModuleInfo, requested: str | None, path: str) -> str | None:
    """The server variable to register on; None when the module has several and none was named.

    `--server VAR` may also name a server the module imports (`from app import mcp`).
    """
    if requested is not None:
        if requested not in info.servers and requested not in info.bindings:
            known = f"its servers are: {', '.join(info.servers)}" if info.servers else "it defines no server"
            raise UserError(f"{path} has no server named {requested!r}; {known}.")
        return requested
    if not info.servers:
        raise UserError(
            f"{path} has no module-level `VAR = MCPServer(...)`; a tool needs a server to register on. "
            "Pass --server VAR if the module imports its server, create one with `mcpdeps new server NAME`, "
            "or pass the module that defines it."
        )
    return next(iter(info.servers)) if len(info.servers) == 1 else None


def plan_tool(info: ModuleInfo, path: str, request: ToolRequest) -> str:
    """The module's text with the new tool inserted after its server's last tool."""
    check_identifier(request.name, "the tool name")
    check_name_free(info, request.name, path)
    names = _param_names(request.args, request.resolves, request.context, f"tool {request.name!r}")
    underscored = [n for n in names if n.startswith("_")]
    if underscored:
        raise UserError(
            f"tool parameter {underscored[0]!r} starts with '_', which the SDK refuses at registration; "
            "rename it. Nothing was written."
        )
    taken = info.tool_names.get((request.server, request.name))
    if taken is not None:
        raise UserError(
            f"{request.server!r} already has a tool named {request.name!r} (line {taken}); the SDK would "
            "silently drop a second one. Choose another name. Nothing was written."
        )
    for dep in request.resolves:
        check_resolver_known(info, dep.resolver, path)
    injected_names = [d.param for d in request.resolves] + ([CONTEXT_PARAM] if request.context else [])
    check_classifiable(
        info,
        [d.resolver for d in request.resolves],
        request.name,
        [a.name for a in request.args],
        injected_names,
    )
    extra: dict[str, set[str]] = {}
    rendered = render_tool(
        request.name,
        server=request.server,
        args=request.args,
        injected=_injected(info, request.resolves, extra),
        context=request.context,
        sync=request.sync,
    )
    for module, names_ in extra.items():
        rendered.need(module, *names_)
    references = [d.resolver for d in request.resolves] + _names_in_types(
        *(a.type for a in request.args), *(d.type for d in request.resolves)
    )
    index = tool_index(info, request.server, references)
    return edit_module(info, index, rendered.statements, rendered.needs)
