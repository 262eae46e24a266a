"""MCPD107 (a tool argument with `Field(alias=...)`) only where the SDK's calls crash.

The SDK builds its argument model from the signature and calls the function with each
field's alias as the keyword (`model_dump_one_level`): `fn(Title=...)` crashes. Published
servers write aliases that do not crash: the parameter's own name (`Field(alias="title")`),
two `Field`s of which the last names the parameter, or an argument named like a method of
`BaseModel` (`json`, `schema`), which the SDK renames and aliases to its own name after the
user's metadata. Each tool here is called under the SDK with its schema's property; lint
reports MCPD107 exactly on those whose call crashes.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import lint_diagnostics, write_files
from published_shapes import PROJECT, sdk

TOOLS = {
    "same": ('title: Annotated[str, Field(alias="title")]', "title"),
    "same_default": ('title: str = Field(alias="title")', "title"),
    "last_wins": ('title: Annotated[str, Field(alias="Title"), Field(alias="title")]', "title"),
    "shadowing": ('json: Annotated[str, Field(alias="Json")]', "json"),
    "validation_only": ('title: Annotated[str, Field(validation_alias="Title")]', "title"),
    "aliased": ('title: Annotated[str, Field(alias="Title")]', "title"),
    "aliased_default": ('title: str = Field(alias="bookTitle")', "title"),
    "shadowing_default": ('schema: str = Field(alias="Schema")', "schema"),
}
"""Each tool's parameter as written, and the name its body returns."""
CRASHING = {"aliased", "aliased_default", "shadowing_default"}

SERVER = (
    "from typing import Annotated\n\nfrom pydantic import Field\n\nfrom mcp.server import MCPServer\n\n"
    'mcp = MCPServer("x")\n'
    + "".join(
        f"\n\n@mcp.tool()\ndef {name}({param}) -> str:\n    return {body}\n"
        for name, (param, body) in TOOLS.items()
    )
)

CALLS = """
import asyncio, json
from app.server import mcp

async def main():
    out = {}
    for tool in await mcp.list_tools():
        (key,) = tool.input_schema["properties"]
        try:
            await mcp.call_tool(tool.name, {key: "v"})
            out[tool.name] = "ok"
        except Exception as e:
            out[tool.name] = type(e).__name__
    print(json.dumps(out))

asyncio.run(main())
"""
"""Each tool called under the SDK with its one schema property: "ok", or what was raised."""


def test_mcpd107_where_the_sdk_call_crashes(tmp_path: Path) -> None:
    write_files(tmp_path, {**PROJECT, "app/server.py": SERVER})
    ran = sdk(tmp_path, CALLS)
    assert ran.returncode == 0, ran.stderr
    called = json.loads(ran.stdout.splitlines()[-1])
    assert {name for name, outcome in called.items() if outcome != "ok"} == CRASHING, called
    found = lint_diagnostics(tmp_path, "--no-cache", ".")
    lines = {d["line"] for d in found if d["code"] == "MCPD107"}
    text = SERVER.splitlines()
    reported = {
        name for name in TOOLS if text.index(next(t for t in text if f"def {name}(" in t)) + 1 in lines
    }
    assert reported == CRASHING, found
    assert all(d["code"] == "MCPD107" for d in found), found
