"""MCPD201-MCPD204 fixes (unsafe): take the value out of the model's hands.

"Resolve it instead" (MCPD201, MCPD202, MCPD203): the argument becomes
`Annotated[T, Resolve(resolve_<name>)]` and a stub with the right signature
(`Context` in, the argument's type out) is written above the tool, raising until
the author says where the value comes from. "Ask the person" (MCPD204): the
confirmation becomes a one-field model asked through `Elicit`, and a second
small resolver hands the tool the same bool it read before, so the body is
untouched. Both change what the tool does (a client can no longer send the value;
the stub raises until it is written), so they are offered only as unsafe fixes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import libcst as cst

from ...resolver_core.diagnostics import Diagnostic
from .cst_source import CstSource, without_default

RESOLVE_INSTEAD = frozenset({"MCPD201", "MCPD202", "MCPD203"})
ASK_THE_PERSON = frozenset({"MCPD204"})


_SDK = "mcp.server.mcpserver"


def fix(source: CstSource, d: Diagnostic) -> cst.Module | None:
    param = source.param_at(d)
    function = source.function_of(param) if param is not None else None
    if param is None or function is None or param.annotation is None or function not in source.module.body:
        return None  # a tool nested in a factory or a class: the stub would have nowhere to go
    if d.code in RESOLVE_INSTEAD:
        return _resolve_instead(source, function, param, _record_key(source, function, d))
    if d.code in ASK_THE_PERSON:
        return _ask_the_person(source, function, param)
    return None


def _record_key(source: CstSource, function: cst.FunctionDef, d: Diagnostic) -> str | None:
    """MCPD202's stub takes the argument that picks the record (`title: str`), by name as the SDK
    matches it, since that is what the value is looked up by."""
    found = re.search(r"the record '(\w+)' picks", d.message)
    key = next((p for p in function.params.params if found and p.name.value == found.group(1)), None)
    if key is None:
        return None
    annotation = source.module.code_for_node(key.annotation.annotation) if key.annotation else "str"
    return f"{key.name.value}: {annotation}"


def _resolve_instead(
    source: CstSource, function: cst.FunctionDef, param: cst.Param, inputs: str | None
) -> cst.Module | None:
    name = param.name.value
    resolver = f"resolve_{name}"
    assert param.annotation is not None
    type_text = source.module.code_for_node(param.annotation.annotation)
    if resolver in _bound(source.module):
        return None
    stub = (
        f"def {resolver}({inputs or 'ctx: Context'}) -> {type_text}:\n"
        f'    """Where `{name}` comes from instead of the model: the session, the lifespan state, your records."""\n'
        f'    raise NotImplementedError("resolve {name} on the server")\n'
    )
    imports = {"typing": ["Annotated"], _SDK: ["Resolve"] if inputs else ["Context", "Resolve"]}
    return _rewrite(source, function, param, f"Annotated[{type_text}, Resolve({resolver})]", stub, imports)


def _ask_the_person(source: CstSource, function: cst.FunctionDef, param: cst.Param) -> cst.Module | None:
    name, tool = param.name.value, function.name.value
    model = "".join(part.capitalize() for part in tool.split("_") if part) + "Answer"
    ask, answer = f"ask_{name}_{tool}", f"{name}_{tool}"
    if {model, ask, answer} & _bound(source.module):
        return None
    question = f"Go ahead with {tool.replace('_', ' ')}?"
    stub = (
        f"class {model}(BaseModel):\n"
        f"    {name}: bool = Field(description={question!r})\n\n\n"
        f"def {ask}() -> Elicit[{model}]:\n"
        f"    return Elicit({question!r}, {model})\n\n\n"
        f"def {answer}(answer: Annotated[{model}, Resolve({ask})]) -> bool:\n"
        f"    return answer.{name}\n"
    )
    imports = {"typing": ["Annotated"], "pydantic": ["BaseModel", "Field"], _SDK: ["Elicit", "Resolve"]}
    return _rewrite(source, function, param, f"Annotated[bool, Resolve({answer})]", stub, imports)


def _rewrite(
    source: CstSource,
    function: cst.FunctionDef,
    param: cst.Param,
    annotation: str,
    stub: str,
    imports: dict[str, list[str]],
) -> cst.Module | None:
    """The tool's parameter resolved (its default dropped), the stub above the tool, the imports added."""
    changed = without_default(function, param)
    if changed is None or param.annotation is None:
        return None
    changed = changed.with_changes(
        annotation=param.annotation.with_changes(annotation=cst.parse_expression(annotation))
    )
    new_function = function.deep_replace(param, changed)
    assert isinstance(new_function, cst.FunctionDef)
    body = list(source.module.body)
    at = body.index(function)
    stub_statements = list(cst.parse_module(stub).body)
    stub_statements[0] = stub_statements[0].with_changes(leading_lines=function.leading_lines)
    new_function = new_function.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])
    body[at : at + 1] = [*stub_statements, new_function]
    return _with_imports(source.module.with_changes(body=body), imports)


def _bound(module: cst.Module) -> set[str]:
    """Names the module binds at its top level (imports, defs, classes, assignments)."""
    names: set[str] = set()
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef | cst.ClassDef):
            names.add(statement.name.value)
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.ImportFrom | cst.Import) and not isinstance(
                    small.names, cst.ImportStar
                ):
                    names.update(_alias(a) for a in small.names)
                elif isinstance(small, cst.Assign):
                    names.update(t.target.value for t in small.targets if isinstance(t.target, cst.Name))
                elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    names.add(small.target.value)
    return names


def _alias(alias: cst.ImportAlias) -> str:
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    return cst.Module([]).code_for_node(alias.name).split(".")[0]


def _docstring_end(body: Sequence[cst.BaseStatement]) -> int:
    """-1, or 0 when the module opens with its docstring (imports go after it)."""
    first = body[0] if body else None
    if isinstance(first, cst.SimpleStatementLine) and isinstance(first.body[0], cst.Expr):
        return 0 if isinstance(first.body[0].value, cst.SimpleString | cst.ConcatenatedString) else -1
    return -1


def _with_imports(module: cst.Module, wanted: dict[str, list[str]]) -> cst.Module:
    """Each wanted name the module does not bind yet: added to its `from M import ...` when it
    has one, else in a new `from M import N` after its last top-level import (a name bound
    under another meaning is left for the linter to report)."""
    bound = _bound(module)
    body = list(module.body)
    lines = []
    for source, names in wanted.items():
        missing = [n for n in names if n not in bound]
        at = _import_from(body, source) if missing else None
        if at is not None:
            body[at] = _extended(body[at], missing)
        elif missing:
            lines.append(f"from {source} import {', '.join(missing)}\n")
    if lines:
        last = max(
            (
                i
                for i, s in enumerate(body)
                if isinstance(s, cst.SimpleStatementLine)
                and any(isinstance(x, cst.Import | cst.ImportFrom) for x in s.body)
            ),
            default=_docstring_end(body),
        )
        body[last + 1 : last + 1] = list(cst.parse_module("".join(lines)).body)
    return module.with_changes(body=body)


def _import_from(body: Sequence[cst.BaseStatement], source: str) -> int | None:
    """The index of a top-level `from <source> import a, b` (no star, one statement on its line)."""
    for i, statement in enumerate(body):
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            node = statement.body[0]
            if (
                isinstance(node, cst.ImportFrom)
                and node.module is not None
                and not node.relative
                and not isinstance(node.names, cst.ImportStar)
                and cst.Module([]).code_for_node(node.module) == source
            ):
                return i
    return None


def _extended(statement: cst.BaseStatement, names: list[str]) -> cst.SimpleStatementLine:
    assert isinstance(statement, cst.SimpleStatementLine)
    node = statement.body[0]
    assert isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar)
    aliases = list(node.names)
    aliases[-1] = aliases[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    aliases += [cst.ImportAlias(name=cst.Name(n)) for n in names]
    return statement.with_changes(body=[node.with_changes(names=aliases)])
