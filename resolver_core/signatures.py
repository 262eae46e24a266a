"""Signatures and types as the SDK reads them: parameters in signature order, the Context
and `Resolve` tests on evaluated annotations, the question arms of a return annotation.

Shared by the static builder (tools and resolvers), the live builder and the lint rules.
"""

from __future__ import annotations

import ast

from .evaluator import Evaluator
from .model import Parameter, QuestionKind
from .source import ParsedModule
from .symbols import (
    Defined,
    Names,
    Scope,
)
from .typeexpr import TAnnotated, TClass, TGeneric, TMeta, TRef, TUnion, TypeExpr, sdk_of

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
QUESTION_NAMES: dict[str, QuestionKind] = {"Elicit": "elicit", "Sample": "sample", "ListRoots": "list_roots"}


def function_params(node: FunctionNode) -> list[tuple[ast.arg, str | None, bool, ast.expr | None]]:
    """(arg, variadic marker, positional_only, default) for every parameter, in signature order."""
    a = node.args
    positional = [*a.posonlyargs, *a.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    out: list[tuple[ast.arg, str | None, bool, ast.expr | None]] = [
        (arg, None, i < len(a.posonlyargs), defaults[i]) for i, arg in enumerate(positional)
    ]
    if a.vararg:
        out.append((a.vararg, "*", False, None))
    out.extend((arg, None, False, d) for arg, d in zip(a.kwonlyargs, a.kw_defaults, strict=False))
    if a.kwarg:
        out.append((a.kwarg, "**", False, None))
    return out


def class_scope(owner: Defined | None) -> Scope | None:
    """The class body a method's eager annotations are evaluated in (nested classes, aliases)."""
    if owner is None or not isinstance(owner.node, ast.ClassDef):
        return None
    return Scope(owner.module, owner.node, owner.qualname)


def written_parameter(
    module: ParsedModule,
    arg: ast.arg,
    variadic: str | None,
    positional_only: bool,
    default: ast.expr | None,
    type_: TypeExpr | None,
) -> Parameter:
    """A parameter as written (annotation and default as source text), not yet classified."""
    return Parameter(
        arg.arg,
        "tool_argument",
        module.span(arg),
        annotation=module.segment(arg.annotation) if arg.annotation is not None else None,
        type=type_,
        default=module.segment(default) if default is not None else None,
        positional_only=positional_only,
        variadic=variadic,  # type: ignore[arg-type]
    )


def own_nodes(node: FunctionNode) -> list[ast.AST]:
    """Every node of a function body that is its own: nested functions, lambdas and classes
    are in it, their insides are not. Walked once per function and kept on its node (the
    builder asks for its yields, its returns and their calls; rules read the returns again)."""
    nodes: list[ast.AST] | None = getattr(node, "_mcpdeps_own_nodes", None)
    if nodes is None:
        nodes = []
        stack: list[ast.AST] = list(node.body) if not isinstance(node, ast.Lambda) else [node.body]
        while stack:
            cur = stack.pop()
            nodes.append(cur)
            if not isinstance(cur, _NESTED):
                stack.extend(ast.iter_child_nodes(cur))
        node._mcpdeps_own_nodes = nodes  # type: ignore[union-attr]
    return nodes


_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_YIELDS = (ast.Yield, ast.YieldFrom)


def contains_yield(node: FunctionNode) -> bool:
    """Whether a function body yields (nested functions and lambdas excluded)."""
    return any(isinstance(cur, _YIELDS) for cur in own_nodes(node))


def returns_of(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Return]:
    """`return` statements of a function body, not of nested functions."""
    out = [cur for cur in own_nodes(node) if isinstance(cur, ast.Return)]
    return sorted(out, key=lambda r: (r.lineno, r.col_offset))


class Classes:
    """Subclass checks on project classes (Context subclasses, BaseModel, InputRequiredResult)."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator

    def bases(self, cls: TClass) -> list[TypeExpr]:
        """The class's bases, evaluated once per class (every parameter typed with it asks)."""
        return list(self.evaluator.remembered(("bases", id(cls.node)), self._bases, cls))

    def _bases(self, cls: TClass) -> tuple[TypeExpr, ...]:
        return tuple(self.evaluator.expr(cls.source, b, None) for b in cls.node.bases)

    def is_sub(self, t: TypeExpr | None, names: frozenset[str], depth: int = 0) -> bool:
        """Is `t` one of the SDK/pydantic classes `names`, or a project subclass of one?"""
        if depth > 30 or t is None:
            return False
        if isinstance(t, TRef):
            home, _, name = t.qualname.rpartition(".")
            return name in names and _known_root(t.qualname) and _at_home(home, name)
        if isinstance(t, TGeneric):
            # pydantic generics (`Context[Any, Any]`) are real subclasses at run time.
            return self.is_sub(t.origin, names, depth + 1)
        if isinstance(t, TClass):
            return any(self.is_sub(b, names, depth + 1) for b in self.bases(t))
        return False


def _known_root(qualname: str) -> bool:
    return qualname.partition(".")[0] in ("mcp", "mcp_types", "pydantic")


_HOMES = {"Context": ("mcp.server.mcpserver", "mcp.server.apps", "mcp.server.fastmcp")}
"""Where the SDK's class of a name shared by other SDK classes lives: `mcp.server.context.Context`
(the low-level server's request context, an editor's auto-import away) is no `Context` a tool
or resolver is handed, and neither is `mcp.shared._otel.Context` (OpenTelemetry's). The SDK
checks `issubclass(..., mcpserver.Context)`; `mcp.server.fastmcp` is 1.x's home of the same."""


def _at_home(module: str, name: str) -> bool:
    homes = _HOMES.get(name)
    return homes is None or any(module == home or module.startswith(f"{home}.") for home in homes)


CONTEXT = frozenset({"Context"})


def is_context_for_tool(t: TypeExpr | None, classes: Classes) -> bool:
    """`find_context_parameter`: Annotated stripped; the class itself, or one generic level down."""
    from .typeexpr import strip_annotated

    t = strip_annotated(t)
    if t is None:
        return False
    if classes.is_sub(t, CONTEXT) and not (isinstance(t, TGeneric) and not classes.is_sub(t.origin, CONTEXT)):
        return True
    if isinstance(t, TUnion):
        return any(classes.is_sub(a, CONTEXT) for a in t.args)
    if isinstance(t, TGeneric):
        return any(classes.is_sub(a, CONTEXT) for a in t.args)
    return False


def is_context_for_resolver(t: TypeExpr | None, classes: Classes) -> bool:
    """`_is_context_annotation`: one outer Annotated removed; the type or its arguments."""
    if isinstance(t, TAnnotated):
        t = t.inner
    if t is None:
        return False
    if isinstance(t, TUnion):
        return any(classes.is_sub(a, CONTEXT) for a in t.args)
    if isinstance(t, TGeneric) and not classes.is_sub(t.origin, CONTEXT):
        return any(classes.is_sub(a, CONTEXT) for a in t.args)
    return classes.is_sub(t, CONTEXT)


def wants_union(t: TypeExpr | None) -> bool:
    """The consumer asked for the full `ElicitationResult` (or one of its members)."""
    if isinstance(t, TAnnotated):
        t = t.inner
    members = t.args if isinstance(t, TUnion) else (t,)
    names = {"ElicitationResult", "AcceptedElicitation", "DeclinedElicitation", "CancelledElicitation"}
    return any(sdk_of(m) in names for m in members)


def question_arms(t: TypeExpr | None, *, through_annotated: bool = True) -> list[TypeExpr]:
    """The `Elicit[...]`/`Sample`/`ListRoots` arms of a return annotation (typing-deduplicated).

    The SDK's own check (`_check_elicit_return`) does not look through `Annotated`;
    pass `through_annotated=False` to see exactly what it sees.
    """
    if isinstance(t, TAnnotated) and through_annotated:
        t = t.inner
    arms = t.args if isinstance(t, TUnion) else ((t,) if t is not None else ())
    return [a for a in arms if sdk_of(a) in QUESTION_NAMES]


_BASE_MODEL_METHODS = frozenset(
    [
        "construct",
        "copy",
        "dict",
        "from_orm",
        "json",
        "model_construct",
        "model_copy",
        "model_dump",
        "model_dump_json",
        "model_json_schema",
        "model_parametrized_name",
        "model_post_init",
        "model_rebuild",
        "model_validate",
        "model_validate_json",
        "model_validate_strings",
        "parse_file",
        "parse_obj",
        "parse_raw",
        "schema",
        "schema_json",
        "update_forward_refs",
        "validate",
    ]
)
"""The callable attributes of pydantic's `BaseModel` (pydantic 2): a tool argument of such a name
is renamed in the SDK's argument model (`field_json`) and given its own name as alias."""


def field_alias(
    t: object, default: ast.expr | None, names: Names, module: ParsedModule, scope: Scope | None, name: str
) -> str | None:
    """The alias the SDK's argument model gives a tool argument named `name`, when it is not
    `name`: a `Field(alias=...)` in `Annotated` metadata (the last one: pydantic merges them in
    order) or as the default (which wins over the metadata, as pydantic merges it last).

    The SDK adds `Field(alias=name)` after the metadata of an argument named like a method of
    `BaseModel` (`json`, `schema`), so only a default's alias counts there; an alias equal to
    the name is the name (`fn(title=...)` is the call either way)."""
    alias: str | None = None
    if isinstance(t, TAnnotated) and name not in _BASE_MODEL_METHODS:
        for m in t.metadata:
            if isinstance(m, TMeta) and m.callee == "Field" and "alias" in dict(m.keywords):
                alias = _unquote(dict(m.keywords)["alias"])
    callee = names.canonical(module, default.func, scope) if isinstance(default, ast.Call) else None
    if isinstance(default, ast.Call) and callee in ("pydantic.Field", "pydantic.fields.Field"):
        kw = next((k.value for k in default.keywords if k.arg == "alias"), None)
        if isinstance(kw, ast.Constant) and isinstance(kw.value, str):
            alias = kw.value
    return alias if alias != name else None


def _unquote(text: str) -> str | None:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None
