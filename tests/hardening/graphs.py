"""Random resolver graphs written as real two-module servers, with the verdicts they must get.

A `GraphSpec` is a set of resolvers (each in `server.py` or `deps.py`) whose parameters
are dependencies on other resolvers (written directly or through an `Annotated` alias),
tool arguments by name, a Context, or names nothing can fill; and tools whose resolved
parameters point at resolvers. `from __future__ import annotations` in both modules makes
any cycle writable (the SDK evaluates the hints at registration, when every name exists).
`deps.py` resolvers only depend on `deps.py` resolvers, so the import graph is acyclic.

Resolvers may carry a random stack of project decorators (`decos.py`): `functools.wraps`
wrappers (sync or async), identity decorators, `functools.cache`, a wraps factory
(`@decos.retry(2)`), and plain wrappers without `wraps`, whose `(*args, **kwargs)` is then all
the SDK sees. Tools may be registered inside functions: an `install_tN()` on the module's
server, a factory `build_tN() -> MCPServer` on its own server, or a helper `register_tN(server)`
(annotated `MCPServer` or not) that module-level code calls with the module's server, or that
nothing in the project calls: then the case's `# start:` lines call it, as an entry point
would at start-up (the oracle runs them; mcpdeps counts every registration site anyway).

`expected_codes(spec, tool)` is the model's verdict: MCPD001 when a cycle is reachable
from the tool, MCPD002 when a reachable resolver has a parameter that is no Context, no
dependency and no argument of *this* tool. The SDK reports only the first of these (its
traversal order decides which); mcpdeps must report all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

ARGUMENT_NAMES = ("title", "qty", "city")
ARGUMENT_TYPES = {"title": "str", "qty": "int", "city": "str"}
PARAM_KINDS = (
    "dep",
    "alias",
    "argument",
    "context",
    "optional_context",
    "unknown",
    "unknown_with_default",
    "resolved_name",
    "context_name",
    "union_dep",
)
"""`union_dep` is `NAME: Annotated[int, Resolve(r)] | None`: inside a resolver the union hides the
marker, so it is no edge and the parameter is matched by name (NAME is an argument name)."""


@dataclass(frozen=True)
class ResolverParam:
    kind: str
    """One of PARAM_KINDS."""
    target: int = 0
    """For dep/alias: the resolver index; for argument: the ARGUMENT_NAMES index."""


DECORATORS = {
    "wraps": "@decos.traced",
    "async_wraps": "@decos.atraced",
    "identity": "@decos.registered",
    "cache": "@functools.cache",
    "factory": "@decos.retry(2)",
    "nowraps": "@decos.plain",
}
"""Decorator kinds -> how they are written; only `nowraps` changes what the SDK sees."""

DECOS = """import functools


def traced(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


def atraced(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


SEEN = []


def registered(fn):
    SEEN.append(fn)
    return fn


def retry(times):
    def decorate(fn):
        @functools.wraps(fn)
        def attempt(*args, **kwargs):
            return fn(*args, **kwargs)

        return attempt

    return decorate


def plain(fn):
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper
"""


@dataclass(frozen=True)
class ResolverSpec:
    module: str
    """`server` or `deps`."""
    params: tuple[ResolverParam, ...]
    is_async: bool = False
    shape: str = "function"
    decorators: tuple[str, ...] = ()
    """DECORATORS kinds, outermost first (functions only)."""
    """`function`; `method`: a bound method of a module-level instance (`r3 = _S3().r`);
    `class`: a class resolver, whose `__init__` parameters must all be tool arguments (the SDK
    recognises neither Context nor `Resolve` there); `lambda`: no annotations, so only
    parameters named after tool arguments can be filled."""


@dataclass(frozen=True)
class ToolSpec:
    arguments: tuple[str, ...]
    resolved: tuple[tuple[int, bool], ...]
    """(resolver index, through an alias) per resolved parameter `p0`, `p1`..."""
    context: bool = False
    installed: str | None = None
    """None: registered at module level; else `<where>_<called|uncalled>` (`INSTALLS`): inside
    a function that module-level code calls, or that only the case's start-up calls."""
    wrapped: bool = False
    """A `functools.wraps` decorator between `@mcp.tool()` and the def (no effect)."""


@dataclass(frozen=True)
class GraphSpec:
    resolvers: tuple[ResolverSpec, ...]
    tools: tuple[ToolSpec, ...]
    notes: list[str] = field(default_factory=list, compare=False, hash=False)
    postponed: bool = True
    """`from __future__ import annotations` (any cycle is writable); without it annotations are
    evaluated when each function is defined, so edges only go to resolvers defined earlier."""


def _name(p: ResolverParam, position: int) -> str:
    """The parameter's name in the rendered signature."""
    if p.kind in ("argument", "union_dep"):
        return ARGUMENT_NAMES[p.target]
    return {
        "dep": f"d{position}",
        "alias": f"d{position}",
        "context": f"ctx{position}",
        "optional_context": f"ctx{position}",
        "unknown": f"nobody{position}",
        "unknown_with_default": f"nobody{position}",
        "resolved_name": "p0",  # every tool has a resolved parameter p0: never an argument
        "context_name": "ctx",  # the tools' Context parameter is `ctx`: never an argument
    }[p.kind]


def effective_params(r: ResolverSpec) -> list[tuple[int, ResolverParam]]:
    """(position, parameter) as rendered: a repeated name is dropped (it would be a SyntaxError)."""
    seen: set[str] = set()
    kept = []
    for position, p in enumerate(r.params):
        name = _name(p, position)
        if name not in seen:
            seen.add(name)
            kept.append((position, p))
    return kept


def hidden_by_wrapper(r: ResolverSpec) -> bool:
    """A plain wrapper anywhere in the stack: `__wrapped__` stops there, at `(*args, **kwargs)`."""
    return "nowraps" in r.decorators


INSTALLS = tuple(
    f"{where}_{called}"
    for where in ("install", "factory", "helper", "untyped_helper")
    for called in ("called", "uncalled")
)
"""Where a tool may be registered besides module level: `install_tN()` on the module's server,
a factory `build_tN()` creating its own, a helper `register_tN(server: MCPServer)`, or one
without the annotation (an untyped helper nothing calls is not known to be given a server:
mcpdeps says it did not analyse its tools, so the start-up always calls it through a caller)."""


def _installed(t: int, tool: ToolSpec, source: str) -> tuple[str, str]:
    """(the code defining and maybe calling the function that registers tool `t`, its start-up line)."""
    where, _, called = (tool.installed or "").rpartition("_")
    body = "".join(f"    {line}\n" for line in source.splitlines())
    if where == "install":
        code, call = f"def install_t{t}() -> None:\n{body}", f"install_t{t}()"
    elif where == "factory":
        code = f"def build_t{t}() -> MCPServer:\n    srv = MCPServer('F{t}')\n{body}    return srv\n"
        call = f"f{t} = build_t{t}()"
    else:
        typed = ": MCPServer" if where == "helper" else ""
        code = f"def register_t{t}(srv{typed}) -> None:\n{body}"
        call = f"register_t{t}(mcp)"
        if where == "untyped_helper" and called == "uncalled":  # called from a function only
            code += f"\n\ndef setup_t{t}() -> None:\n    register_t{t}(mcp)\n"
            call = f"setup_t{t}()"
    if called == "called":
        return f"{code}\n\n{call}\n", ""
    return code, call


def _deps_of(spec: GraphSpec, index: int) -> list[int]:
    r = spec.resolvers[index]
    if r.shape in ("class", "lambda") or hidden_by_wrapper(r):
        return []
    return [p.target for _, p in effective_params(r) if p.kind in ("dep", "alias")]


def _fails(r: ResolverSpec, p: ResolverParam, tool: ToolSpec) -> bool:
    """Whether this resolver parameter cannot be classified for this tool."""
    by_name = p.kind in ("argument", "union_dep")
    if by_name:
        return ARGUMENT_NAMES[p.target] not in tool.arguments
    if r.shape in ("class", "lambda"):
        return True
    return p.kind not in ("dep", "alias", "context", "optional_context")


def reachable(spec: GraphSpec, tool: ToolSpec) -> set[int]:
    seen: set[int] = set()
    todo = [r for r, _ in tool.resolved]
    while todo:
        r = todo.pop()
        if r not in seen:
            seen.add(r)
            todo.extend(_deps_of(spec, r))
    return seen


def _has_cycle(spec: GraphSpec, nodes: set[int]) -> bool:
    """Iterative three-colour DFS over the reachable resolvers."""
    colour = dict.fromkeys(nodes, 0)
    for start in nodes:
        if colour[start]:
            continue
        stack = [(start, iter(_deps_of(spec, start)))]
        colour[start] = 1
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                colour[node] = 2
                stack.pop()
            elif colour[child] == 1:
                return True
            elif colour[child] == 0:
                colour[child] = 1
                stack.append((child, iter(_deps_of(spec, child))))
    return False


def expected_codes(spec: GraphSpec, tool_index: int) -> set[str]:
    """The registration errors a perfect analyzer reports for tool `t{tool_index}`."""
    tool = spec.tools[tool_index]
    nodes = reachable(spec, tool)
    codes: set[str] = set()
    if _has_cycle(spec, nodes):
        codes.add("MCPD001")
    for r in nodes:
        resolver = spec.resolvers[r]
        if hidden_by_wrapper(resolver) or any(
            _fails(resolver, p, tool) for _, p in effective_params(resolver)
        ):
            codes.add("MCPD002")
    return codes


def _param_source(spec: GraphSpec, owner: int, position: int, p: ResolverParam) -> str:
    target_module = spec.resolvers[p.target].module if p.kind in ("dep", "alias") else ""
    prefix = "deps." if spec.resolvers[owner].module == "server" and target_module == "deps" else ""
    name = _name(p, position)
    annotation = {
        "dep": f"Annotated[int, Resolve({prefix}r{p.target})]",
        "alias": f"{prefix}A{p.target}",
        "argument": ARGUMENT_TYPES.get(name, "int"),
        "context": "Context",
        "optional_context": "Context | None",
        "unknown": "int",
        "unknown_with_default": "int = 0",
        "resolved_name": "int",
        "context_name": "int",
        # Hidden by the union, never called; eager annotations cannot name the function being defined.
        "union_dep": f"Annotated[str, Resolve({f'r{owner}' if spec.postponed else 'str'})] | None",
    }[p.kind]
    return f"{name}: {annotation}"


def _resolver_source(spec: GraphSpec, index: int) -> str:
    r = spec.resolvers[index]
    params = [_param_source(spec, index, position, p) for position, p in effective_params(r)]
    # Defaults last: a parameter without one cannot follow one with one.
    params.sort(key=lambda text: " = " in text)
    if r.shape == "class":
        return f"class r{index}:\n    def __init__({', '.join(['self', *params])}) -> None:\n        pass\n"
    if r.shape == "method":
        return (
            f"class _S{index}:\n    def r(self, {', '.join(params)}) -> int:\n        return 1\n\n\n"
            f"r{index} = _S{index}().r\n"
        )
    if r.shape == "lambda":
        names = [text.partition(":")[0] + (" = 0" if " = " in text else "") for text in params]
        return f"r{index} = lambda {', '.join(names)}: 1\n"
    keyword = "async def" if r.is_async else "def"
    stack = "".join(f"{DECORATORS[d]}\n" for d in r.decorators)
    return f"{stack}{keyword} r{index}({', '.join(params)}) -> int:\n    return 1\n"


def _alias(i: int) -> str:
    return f"A{i} = Annotated[int, Resolve(r{i})]\n\n"


def render(spec: GraphSpec) -> dict[str, str]:
    """File name -> source for the case folder."""
    head = (
        ("from __future__ import annotations\n\n" if spec.postponed else "")
        + "from typing import Annotated\n\n"
        "from mcp.server import MCPServer\n"
        "from mcp.server.mcpserver import Context, Resolve\n"
        "import functools\n\nimport decos\n"
    )
    deps = [i for i, r in enumerate(spec.resolvers) if r.module == "deps"]
    local = [i for i, r in enumerate(spec.resolvers) if r.module == "server"]
    # Each alias right after its resolver: eager annotations need it defined before use.
    deps_src = head + "\n" + "".join(_resolver_source(spec, i) + _alias(i) for i in deps)
    server = head + "\nimport deps\n\nmcp = MCPServer('Fuzz')\n\n"
    server += "".join(_resolver_source(spec, i) + _alias(i) for i in local)
    starts: list[str] = []
    for t, tool in enumerate(spec.tools):
        params = [f"{a}: {ARGUMENT_TYPES[a]}" for a in tool.arguments]
        for k, (r, alias) in enumerate(tool.resolved):
            prefix = "deps." if spec.resolvers[r].module == "deps" else ""
            params.append(f"p{k}: {prefix}A{r}" if alias else f"p{k}: Annotated[int, Resolve({prefix}r{r})]")
        if tool.context:
            params.append("ctx: Context")
        server_name = "mcp" if tool.installed is None or tool.installed.startswith("install") else "srv"
        source = f"@{server_name}.tool()\n" + ("@decos.traced\n" if tool.wrapped else "")
        source += f"def t{t}({', '.join(params)}) -> int:\n    return 1\n"
        if tool.installed is None:
            server += f"\n\n{source}"
            continue
        code, start = _installed(t, tool, source)
        server += f"\n\n{code}"
        if start:
            starts.append(f"# start: {start}\n")
    return {"server.py": "".join(starts) + server, "deps.py": deps_src, "decos.py": DECOS}


@st.composite
def graph_specs(draw: st.DrawFn, max_resolvers: int = 7) -> GraphSpec:
    """A random graph: DAGs most of the time (edges to later resolvers), cycles sometimes."""
    n = draw(st.integers(1, max_resolvers))
    modules = [draw(st.sampled_from(("server", "deps"))) for _ in range(n)]
    postponed = draw(st.booleans()) or draw(st.booleans())
    cyclic = postponed and draw(st.booleans())
    resolvers = []
    for i in range(n):
        allowed = [
            j
            for j in range(n)
            if (modules[i] == "server" or modules[j] == "deps")
            and (cyclic or (j > i if postponed else (j < i or modules[i] != modules[j])))
        ]
        kinds = st.sampled_from(
            PARAM_KINDS if allowed else ("argument", "context", "unknown", "resolved_name")
        )
        weights = draw(st.lists(kinds, max_size=4))
        params = []
        for kind in weights:
            if kind in ("dep", "alias"):
                params.append(ResolverParam(kind, draw(st.sampled_from(allowed))))
            elif kind == "union_dep" or kind == "argument":
                params.append(ResolverParam(kind, draw(st.integers(0, len(ARGUMENT_NAMES) - 1))))
            else:
                params.append(ResolverParam(kind))
        # Most parameters are fine in real code: thin out the failing kinds so that many tools pass.
        if draw(st.integers(0, 2)):
            params = [
                p for p in params if p.kind in ("dep", "alias", "argument", "context", "optional_context")
            ]
        shape = draw(st.sampled_from(("function", "function", "function", "class", "method", "lambda")))
        decorators: tuple[str, ...] = ()
        if shape == "function" and draw(st.booleans()):
            decorators = tuple(draw(st.lists(st.sampled_from(sorted(DECORATORS)), min_size=1, max_size=3)))
        resolvers.append(ResolverSpec(modules[i], tuple(params), draw(st.booleans()), shape, decorators))
    tools = []
    for _ in range(draw(st.integers(1, 3))):
        arguments = tuple(draw(st.lists(st.sampled_from(ARGUMENT_NAMES), unique=True, max_size=3)))
        resolved = tuple(
            (draw(st.integers(0, n - 1)), draw(st.booleans())) for _ in range(draw(st.integers(1, 2)))
        )
        installed = draw(st.sampled_from((None, None, None, *INSTALLS)))
        tools.append(ToolSpec(arguments, resolved, draw(st.booleans()), installed, draw(st.booleans())))
    return GraphSpec(tuple(resolvers), tuple(tools), postponed=postponed)
