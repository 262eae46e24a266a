"""The `Resolver` node each `Resolve(...)` target becomes, built once per distinct callable:
its parameters classified the way the SDK classifies a resolver's (Context, `Resolve`, a tool
argument by name, or nothing), the hints `typing.get_type_hints` would read or fail to read,
the questions it may ask (`Elicit`, `Sample`, `ListRoots`, from its return annotation or its
`return` statements).
"""

from __future__ import annotations

import ast

from .callables import Targets
from .eager_annotations import defined_late, early_reason
from .evaluator import Evaluator
from .model import Parameter, Question, Resolver, Span
from .signatures import (
    QUESTION_NAMES,
    Classes,
    FunctionNode,
    contains_yield,
    function_params,
    is_context_for_resolver,
    question_arms,
    returns_of,
    wants_union,
    written_parameter,
)
from .source import ParsedModule
from .symbols import (
    Names,
    Scope,
    sdk_name,
)
from .target import Target
from .typeexpr import TClass, TGeneric, TResolve, TypeExpr, display, first_error, resolve_marker, sdk_of


class ResolverFactory:
    """Builds (once each) the `Resolver` nodes reachable from `Resolve(...)` markers."""

    def __init__(self, names: Names, evaluator: Evaluator, classes: Classes) -> None:
        self.names = names
        self.evaluator = evaluator
        self.classes = classes
        self.targets = Targets(names, evaluator, classes)
        self.resolvers: dict[str, Resolver] = {}
        self._by_key: dict[tuple[object, ...], Resolver] = {}
        self._ids: dict[str, int] = {}

    def get(self, marker: TResolve) -> Resolver:
        """The resolver node for a marker (built once per distinct callable)."""
        target = self.targets.target(marker)
        existing = self._by_key.get(target.key)
        if existing is not None:
            return existing
        return self._build(target, marker.span)

    def _new_id(self, base: str) -> str:
        n = self._ids.get(base, 0)
        self._ids[base] = n + 1
        return base if n == 0 else f"{base}#{n}"

    def _build(self, target: Target, use_span: Span | None) -> Resolver:
        node = target.node
        name = (
            target.qualname.rpartition(".")[2]
            if target.kind not in ("lambda", "partial")
            else target.qualname
        )
        span = target.module.span(node) if node is not None else use_span
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            span = Span(
                target.module.display, node.lineno, node.col_offset + 1, node.lineno, node.col_offset + 1
            )
        resolver = Resolver(
            id=self._new_id(f"{target.modname}:{target.qualname}"),
            name=name,
            qualname=target.qualname,
            module=target.modname,
            kind=target.kind,
            span=span,
            is_async=target.is_async
            if target.is_async is not None
            else isinstance(node, ast.AsyncFunctionDef),
            problem=target.problem,
            problem_kind=target.problem_kind if target.problem else None,
            node=node,
            anchored=node is not None,
            decorators=target.decorators,
            wrapped_async=target.wrapped_async,
        )
        self._by_key[target.key] = resolver
        self.resolvers[resolver.id] = resolver
        if target.problem:
            return resolver
        early = defined_late(self.names, target.module, node, target.scope) if node is not None else None
        if early is not None:
            resolver.defined_late = early_reason(early, getattr(node, "lineno", 0), "its hints", "it")
        if target.fields is not None:
            resolver.parameters = [
                Parameter(n, "tool_argument", target.module.span(src))
                for n, src in target.fields[target.skip :]
            ]
        elif target.signature is not None:
            resolver.parameters = [Parameter(n, "tool_argument", use_span) for n in target.signature]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            self._classify(resolver, target, node)
        return resolver

    def _classify(self, resolver: Resolver, target: Target, node: FunctionNode) -> None:
        module = target.module
        params = function_params(node)[target.skip :]
        hints: dict[str, TypeExpr] = {}
        if not target.no_hints and not isinstance(node, ast.Lambda):
            with self.names.tracing() as needs:
                hints = self._hints(module, node, target.scope)
            resolver.needs = {str(path): where for path, where in needs.items()}
            for hname, t in hints.items():
                err = first_error(t)
                if err is not None:
                    where = "return annotation" if hname == "return" else f"annotation of {hname!r}"
                    resolver.hints_error = f"its {where} cannot be evaluated ({err.reason})"
                    hints = {}
                    break
        resolver.is_generator = contains_yield(node)
        for arg, variadic, posonly, default in params:
            hint = hints.get(arg.arg)
            p = written_parameter(module, arg, variadic, posonly, default, hint)
            if hint is not None and is_context_for_resolver(hint, self.classes):
                p.kind = "context"
            elif (marker := resolve_marker(hint)) is not None:
                p.kind = "resolved"
                p.resolver = self.get(marker).id
                p.wants_union = wants_union(hint)
            resolver.parameters.append(p)
        resolver.return_type = hints.get("return")
        resolver.questions = self._questions(resolver, module, node)

    def _hints(
        self, module: ParsedModule, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope | None
    ) -> dict[str, TypeExpr]:
        """Evaluated annotations by parameter name (plus `return`), as get_type_hints would see them."""
        hints: dict[str, TypeExpr] = {}
        for arg, *_ in function_params(node):
            t = self.evaluator.annotation(module, arg.annotation, scope)
            if t is not None:
                hints[arg.arg] = t
        ret = self.evaluator.annotation(module, node.returns, scope)
        if ret is not None:
            hints["return"] = ret
        return hints

    def _questions(self, resolver: Resolver, module: ParsedModule, node: FunctionNode) -> list[Question]:
        """Questions from the return annotation's arms, detailed by `return Elicit(...)` statements."""
        found: list[Question] = []
        for arm in question_arms(resolver.return_type):
            kind = QUESTION_NAMES[sdk_of(arm) or ""]
            model_t = arm.args[0] if isinstance(arm, TGeneric) and arm.args else None
            found.append(
                Question(
                    kind,
                    resolver.span,
                    model=display(model_t) if model_t else None,
                    model_type=model_t,
                    fields=self._fields(model_t),
                )
            )
        if isinstance(node, ast.Lambda):
            return found
        for ret in returns_of(node):
            call = ret.value
            if not isinstance(call, ast.Call):
                continue
            kind_name = sdk_name(self.names.canonical(module, call.func, None))
            if kind_name not in QUESTION_NAMES:
                continue
            kind = QUESTION_NAMES[kind_name]
            message = module.segment(call.args[0]) if call.args else None
            model_t = None
            if kind == "elicit":
                schema = (
                    call.args[1]
                    if len(call.args) > 1
                    else next((k.value for k in call.keywords if k.arg == "schema"), None)
                )
                if kind_name == "Elicit" and schema is not None:
                    model_t = self.evaluator.expr(module, schema, None)
                msg_kw = next((k.value for k in call.keywords if k.arg == "message"), None)
                message = message or (module.segment(msg_kw) if msg_kw is not None else None)
            q = next((q for q in found if q.kind == kind and q.node is None), None)
            if q is None:
                q = Question(kind, module.span(call))
                found.append(q)
            q.span, q.node, q.message = module.span(call), call, message if kind != "list_roots" else None
            if kind == "sample":
                from .sampling import fill_sample  # loaded by the servers that sample, only

                fill_sample(q, call, node)
            if model_t is not None:
                q.model, q.model_type, q.fields = display(model_t), model_t, self._fields(model_t)
        return found

    def _fields(self, t: TypeExpr | None) -> list[tuple[str, str]]:
        if not isinstance(t, TClass):
            return []
        return [
            (s.target.id, t.source.segment(s.annotation))  # as written, like every annotation
            for s in t.node.body
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
        ]
