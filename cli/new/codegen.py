"""Render the source of a new resolver, tool or elicitation model, and the imports it needs.

The generated code is plain text with `\\n` newlines; the insertion step re-emits it with the
edited file's own newline and indentation. Bodies are small but real: a resolver or tool that
returns `str` returns its inputs, so a freshly scaffolded tool can be called at once; any other
return type raises `NotImplementedError` rather than returning a made-up value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ...resolver_core.records import record
from .specs import ArgSpec

SDK = "mcp.server.mcpserver"
LINE_LENGTH = 88  # ruff format's and black's default
Needs = dict[str, set[str]]  # module -> names to import from it


@record(slots=False)
class Injected:
    """A parameter filled by a resolver: `param: Annotated[type, Resolve(resolver)]`."""

    param: str
    resolver: str
    type: str


@record(slots=False)
class Question:
    """What a resolver asks the client instead of computing its value."""

    kind: Literal["elicit", "sample", "list_roots"]
    model: str | None = None  # for "elicit"


@dataclass
class Rendered:
    """New top-level statements (source text each) and the imports they need."""

    statements: list[str] = field(default_factory=list)
    needs: Needs = field(default_factory=dict)

    def need(self, module: str, *names: str) -> None:
        """Record names that must be importable from `module`."""
        self.needs.setdefault(module, set()).update(names)


def _signature(
    rendered: Rendered, args: list[ArgSpec], injected: list[Injected], context: bool
) -> tuple[list[str], list[str]]:
    """Parameters (source text each) and the names a body may echo (everything but the Context)."""
    parts = [f"{a.name}: {a.type}" for a in args]
    for dep in injected:
        parts.append(f"{dep.param}: Annotated[{dep.type}, Resolve({dep.resolver})]")
        rendered.need("typing", "Annotated")
        rendered.need(SDK, "Resolve")
    if context:
        parts.append("ctx: Context")
        rendered.need(SDK, "Context")
    return parts, [a.name for a in args] + [d.param for d in injected]


def _echo(label: str, names: list[str]) -> str:
    """`f"label(a={a!r}, b={b!r})"`: a body that shows what was injected, useful on a first call."""
    if not names:
        return f'"{label}"'
    inner = ", ".join(f"{n}={{{n}!r}}" for n in names)
    return f'f"{label}({inner})"'


def _def(name: str, sync: bool, params: list[str], returns: str) -> str:
    """The `def` line; one parameter per line (magic trailing comma) when it would pass 88 columns,
    which is how `ruff format` / black lay it out."""
    head = f"def {name}" if sync else f"async def {name}"
    line = f"{head}({', '.join(params)}) -> {returns}:"
    if len(line) <= LINE_LENGTH:
        return line
    return f"{head}(\n" + "".join(f"    {p},\n" for p in params) + f") -> {returns}:"


def render_model(rendered: Rendered, model: str, resolver: str) -> None:
    """A pydantic model for `Elicit(..., Model)` with one field the elicitation schema can express."""
    rendered.need("pydantic", "BaseModel")
    rendered.statements.append(
        f"class {model}(BaseModel):\n"
        f'    """What the user is asked when `{resolver}` runs (elicitation fields: str, int, float,\n'
        f'    bool, Literal[...] of strings, date, datetime; no nested models)."""\n'
        "\n"
        "    confirm: bool\n"
    )


def render_resolver(
    name: str,
    *,
    args: list[ArgSpec],
    injected: list[Injected],
    context: bool,
    returns: str,
    question: Question | None,
    sync: bool,
    new_model: bool,
) -> Rendered:
    """A resolver function (and its elicitation model when `new_model`)."""
    rendered = Rendered()
    params, echoed = _signature(rendered, args, injected, context)
    if question is None:
        annotation = returns
        body = (
            f"return {_echo(name, echoed)}"
            if returns == "str"
            else (f'raise NotImplementedError("{name}: return a value of type {returns}")')
        )
        doc = f"Provide the value that tools using `Resolve({name})` receive."
    elif question.kind == "elicit":
        assert question.model is not None
        if new_model:
            render_model(rendered, question.model, name)
        rendered.need(SDK, "Elicit")
        annotation = f"Elicit[{question.model}]"
        body = f'return Elicit("Please answer for {name}.", {question.model})'
        doc = f"Ask the user to fill in `{question.model}`; the consumer receives the accepted answer."
    elif question.kind == "sample":
        rendered.need(SDK, "Sample")
        rendered.need("mcp.types", "SamplingMessage", "TextContent")
        annotation = "Sample"
        body = (
            f"prompt = {_echo(f'Answer for {name}', echoed)}\n"
            "    return Sample(\n"
            '        [SamplingMessage(role="user", content=TextContent(type="text", text=prompt))],\n'
            "        max_tokens=256,\n"
            "    )"
        )
        doc = "Ask the client's LLM; the consumer receives the `CreateMessageResult`."
    else:
        rendered.need(SDK, "ListRoots")
        annotation = "ListRoots"
        body = "return ListRoots()"
        doc = "Ask the client for its roots; the consumer receives the `ListRootsResult`."
    rendered.statements.append(f'{_def(name, sync, params, annotation)}\n    """{doc}"""\n    {body}\n')
    return rendered


def render_tool(
    name: str,
    *,
    server: str,
    args: list[ArgSpec],
    injected: list[Injected],
    context: bool,
    sync: bool,
) -> Rendered:
    """A tool registered with `@server.tool()`; its docstring is the description the model reads."""
    rendered = Rendered()
    params, echoed = _signature(rendered, args, injected, context)
    rendered.statements.append(
        f"@{server}.tool()\n"
        f"{_def(name, sync, params, 'str')}\n"
        f'    """Describe what {name} does: this docstring is the description the model reads."""\n'
        f"    return {_echo(name, echoed)}\n"
    )
    return rendered


def consumer_type(returns: str | None) -> tuple[str, tuple[str, str] | None]:
    """The type a consumer of a resolver receives, from the resolver's return annotation.

    `Elicit[M]` injects `M`, `Sample` a `CreateMessageResult`, `ListRoots` a `ListRootsResult`.
    Returns the type text and an import it needs, if any.
    """
    if returns is None:
        return "Any", ("typing", "Any")
    text = returns.strip()
    if text[:1] in "\"'" and text[-1:] == text[:1]:
        text = text[1:-1]
    if text.startswith("Elicit[") and text.endswith("]"):
        return text[len("Elicit[") : -1].strip(), None
    if text == "Sample":
        return "CreateMessageResult", ("mcp.types", "CreateMessageResult")
    if text == "ListRoots":
        return "ListRootsResult", ("mcp.types", "ListRootsResult")
    return text, None
