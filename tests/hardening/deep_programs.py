"""Server modules with one construct nested thousands of levels deep, each in a place the analyzer reads.

Python's own parser caps parentheses at 200 and indentation at 100 levels, but a chain of
binary operators (`int | int | ...`, `"a" + "b" + ...`) or attribute accesses parses into a
tree as deep as it is long. Every recursive walk in mcpdeps (ours, `ast.unparse`, libcst)
meets such a tree when it sits in an annotation, a default, a decorator or a question. Each
case must end as diagnostics or a clean graph, never as Python's recursion limit.
"""

from __future__ import annotations

HEADER = """from __future__ import annotations
from typing import Annotated
from mcp.server import MCPServer
from mcp.server.mcpserver import Context, Elicit, Resolve, Sample
mcp = MCPServer("Deep")
def r0(a: int) -> int:
    return a
"""


ELICIT = "await ctx.elicit('x', int)"


def chain(term: str, op: str, n: int) -> str:
    """`term op term op ...`, n terms: a left-leaning tree n levels deep."""
    return f" {op} ".join([term] * n)


def deep_programs(n: int = 20_000) -> dict[str, str]:
    """File name -> source; `n` is the length of each chain."""
    tool = "@mcp.tool()\ndef t(a: int, {params}) -> {ret}:\n    return 1\n"
    union = chain("int", "|", n)
    plus = chain('"x"', "+", n)
    return {
        "union_tool_arg.py": HEADER + tool.format(params=f"b: {union}", ret="int"),
        "union_string_annotation.py": HEADER + tool.format(params=f'b: "{union}"', ret="int"),
        "union_in_annotated.py": HEADER
        + tool.format(params=f"b: Annotated[{union}, Resolve(r0)]", ret="int"),
        "union_return.py": HEADER + tool.format(params="b: Annotated[int, Resolve(r0)]", ret=union),
        "union_in_resolver.py": HEADER
        + f"def r1(a: {union}) -> int:\n    return 1\n"
        + tool.format(params="b: Annotated[int, Resolve(r1)]", ret="int"),
        "union_resolver_return.py": HEADER
        + f"def r1(a: int) -> {union}:\n    return 1\n"
        + tool.format(params="b: Annotated[int, Resolve(r1)]", ret="int"),
        "default_chain.py": HEADER
        + tool.format(params=f"b: Annotated[int, Resolve(r0)] = {plus}", ret="int"),
        "resolver_default_chain.py": HEADER
        + f"def r1(a: int, z: str = {plus}) -> int:\n    return 1\n"
        + tool.format(params="b: Annotated[int, Resolve(r1)]", ret="int"),
        "tool_name_chain.py": HEADER + f"@mcp.tool(name={plus})\ndef t(a: int) -> int:\n    return 1\n",
        "server_name_chain.py": f"from mcp.server import MCPServer\nmcp = MCPServer({plus})\n"
        "@mcp.tool()\ndef t(a: int) -> int:\n    return 1\n",
        "resolve_target_chain.py": HEADER
        + tool.format(params=f"b: Annotated[int, Resolve(r0 or {chain('r0', 'or', n)})]", ret="int"),
        "resolve_target_attr.py": HEADER
        + tool.format(params=f"b: Annotated[int, Resolve(r0{'.x' * 2000})]", ret="int"),
        "decorator_attr.py": HEADER + f"@mcp{'.x' * 2000}.tool()\ndef t(a: int) -> int:\n    return 1\n",
        "elicit_message_chain.py": HEADER
        + f"import time\ndef r1(a: int) -> Elicit[int]:\n    return Elicit({chain('str(time.time())', '+', n)}, int)\n"
        + tool.format(params="b: Annotated[int, Resolve(r1)]", ret="int"),
        "sample_include_context_chain.py": HEADER
        + f"def r1(a: int) -> Sample:\n    return Sample([], max_tokens=1, include_context={plus})\n"
        + tool.format(params="b: Annotated[str, Resolve(r1)]", ret="int"),
        "ctx_elicit_chain.py": HEADER
        + f"@mcp.tool()\nasync def t(a: int, ctx: Context) -> int:\n    return {chain(ELICIT, '+', n)}\n",
        "sync_wrapper_chain.py": HEADER
        + f"async def r2(a: int) -> int:\n    return a\ndef r1(a: int) -> int:\n    return r2(a) + {chain('1', '+', n)}\n"
        + tool.format(params="b: Annotated[int, Resolve(r1)]", ret="int"),
        "alias_chain.py": HEADER
        + "A0 = Annotated[int, Resolve(r0)]\n"
        + "".join(f"A{i} = A{i - 1}\n" for i in range(1, 3000))
        + tool.format(params="b: A2999", ret="int"),
        "resolver_chain.py": HEADER
        + "".join(
            f"def q{i}(x: Annotated[int, Resolve({'q' + str(i - 1) if i else 'r0'})]) -> int:\n    return x\n"
            for i in range(3000)
        )
        + tool.format(params="b: Annotated[int, Resolve(q2999)]", ret="int"),
        "resolver_chain_cycle.py": HEADER
        + "".join(
            f"def q{i}(x: Annotated[int, Resolve(q{(i - 1) % 3000})]) -> int:\n    return x\n"
            for i in range(3000)
        )
        + tool.format(params="b: Annotated[int, Resolve(q2999)]", ret="int"),
        "class_chain.py": HEADER
        + "class C0:\n    pass\n"
        + "".join(f"class C{i}(C{i - 1}):\n    pass\n" for i in range(1, 3000))
        + tool.format(params="b: Annotated[C2999, Resolve(C2999)]", ret="int"),
        "class_cycle.py": HEADER
        + "class A(B):\n    pass\nclass B(A):\n    pass\nm2 = A('y')\n"
        + tool.format(params="b: Annotated[A, Resolve(B)]", ret="int"),
        "self_alias.py": HEADER
        + "X = X\nY = Z\nZ = Y\n"
        + tool.format(params="b: Annotated[X, Resolve(Y)]", ret="int"),
        "many_tools_one_loop.py": HEADER
        + f"for f in ({', '.join(['r0'] * n)}):\n    mcp.add_tool(f, name='x')\n",
    }
