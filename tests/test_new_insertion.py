"""`new resolver` / `new tool` on awkward modules, through the real CLI on real files.

Each case checks the exact result (placement, merged imports, blank lines) and that every byte
of the original is still there; the interesting results are then imported under the real SDK.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from conftest import run_mcpdeps
from new_helpers import assert_only_additions, graph_json, lint_json, sdk_probe

AWKWARD = '''\
#!/usr/bin/env python
"""Comments, blank lines, decorators, parenthesized imports and a trailing main block."""
from __future__ import annotations

import os
from typing import (
    Any,
    Optional,
)

from mcp.server import MCPServer
from mcp.server.mcpserver import (
    Context,
)

mcp = MCPServer("awkward")

# ---- resolvers ----


def current_user(ctx: Context) -> str:  # who is calling
    return os.environ.get("USER", "nobody")

# ---- tools ----

# the first tool
@mcp.tool(name="whoami")
def whoami(ctx: Context) -> str:
    """Say who."""
    return "me"


@mcp.tool()
def echo(text: str) -> str:
    return text
    # trailing comment inside the body


# run it
if __name__ == "__main__":
    mcp.run()
# end
'''

AWKWARD_AFTER = '''\
#!/usr/bin/env python
"""Comments, blank lines, decorators, parenthesized imports and a trailing main block."""
from __future__ import annotations

import os
from typing import (
    Annotated,
    Any,
    Optional,
)

from mcp.server import MCPServer
from mcp.server.mcpserver import (
    Context,
    Resolve,
)

mcp = MCPServer("awkward")

# ---- resolvers ----


def current_user(ctx: Context) -> str:  # who is calling
    return os.environ.get("USER", "nobody")


async def account(
    user_id: int,
    user: Annotated[str, Resolve(current_user)],
    ctx: Context,
) -> str:
    """Provide the value that tools using `Resolve(account)` receive."""
    return f"account(user_id={user_id!r}, user={user!r})"


# ---- tools ----

# the first tool
@mcp.tool(name="whoami")
def whoami(ctx: Context) -> str:
    """Say who."""
    return "me"


@mcp.tool()
def echo(text: str) -> str:
    return text
    # trailing comment inside the body


@mcp.tool()
def balance(user_id: int, acct: Annotated[str, Resolve(account)]) -> str:
    """Describe what balance does: this docstring is the description the model reads."""
    return f"balance(user_id={user_id!r}, acct={acct!r})"


# run it
if __name__ == "__main__":
    mcp.run()
# end
'''

ADD_RESOLVER = (
    "new",
    "resolver",
    "account",
    "--arg",
    "user_id:int",
    "--depends",
    "user=current_user",
    "--context",
)
ADD_TOOL = ("new", "tool", "balance", "--arg", "user_id:int", "--resolve", "acct=account", "--sync")


def _new(path: Path, *args: str) -> str:
    """Run `mcpdeps ARGS --in path` and return the file's new text (exact bytes, as str)."""
    proc = run_mcpdeps(*args, "--in", path.name, cwd=path.parent)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return path.read_bytes().decode()


def test_awkward_module_exact_result_and_sdk(tmp_path: Path) -> None:
    path = tmp_path / "awkward.py"
    path.write_text(AWKWARD)
    _new(path, *ADD_RESOLVER)
    assert _new(path, *ADD_TOOL) == AWKWARD_AFTER
    assert_only_additions(AWKWARD, AWKWARD_AFTER)
    probe = sdk_probe(path, tool="balance", arguments={"user_id": 7})
    assert list(probe["tools"]["balance"]["properties"]) == ["user_id"]
    assert probe["call"]["is_error"] is False


def test_crlf_stays_crlf(tmp_path: Path) -> None:
    path = tmp_path / "crlf.py"
    original = AWKWARD.replace("\n", "\r\n").encode()
    path.write_bytes(original)
    _new(path, *ADD_RESOLVER)
    result = _new(path, *ADD_TOOL).encode()
    assert result == AWKWARD_AFTER.replace("\n", "\r\n").encode()
    assert b"\n" not in result.replace(b"\r\n", b"")


def test_no_trailing_newline_bom_and_tabs(tmp_path: Path) -> None:
    source = '\ufefffrom mcp.server import MCPServer\n\nmcp = MCPServer("t")\n\n\n@mcp.tool()\ndef a() -> int:\n\treturn 1'
    path = tmp_path / "tabs.py"
    path.write_text(source, encoding="utf-8")
    result = _new(path, "new", "tool", "b", "--arg", "x:int", "--sync")
    assert result == (
        "\ufefffrom mcp.server import MCPServer\n\n"
        'mcp = MCPServer("t")\n\n\n'
        "@mcp.tool()\ndef a() -> int:\n\treturn 1\n\n\n"
        "@mcp.tool()\ndef b(x: int) -> str:\n"
        '\t"""Describe what b does: this docstring is the description the model reads."""\n'
        '\treturn f"b(x={x!r})"\n'  # a file without a final newline gets one
    )
    assert sdk_probe(path)["tools"]["b"]["required"] == ["x"]


TWO_SERVERS = """\
from mcp.server import MCPServer

public = MCPServer("public")
admin = MCPServer("admin")


@public.tool()
def ping() -> str:
    return "pong"


@admin.tool()
def reset() -> str:
    return "done"


@public.tool()
def version() -> str:
    return "1"
"""


def test_two_servers_need_server_and_insert_after_that_servers_last_tool(tmp_path: Path) -> None:
    path = tmp_path / "two.py"
    path.write_text(TWO_SERVERS)
    refused = run_mcpdeps("new", "tool", "purge", "--in", "two.py", cwd=tmp_path)
    assert refused.returncode == 2
    assert "--server VAR is required here; choose one of: public, admin." in refused.stderr
    assert path.read_text() == TWO_SERVERS
    result = _new(path, "new", "tool", "purge", "--server", "admin", "--sync")
    assert (
        result.index("def reset(") < result.index("@admin.tool()\ndef purge(") < result.index("def version(")
    )
    assert_only_additions(TWO_SERVERS, result)
    servers = sdk_probe(path, "admin,public")["servers"]
    assert list(servers["admin"]) == ["reset", "purge"]
    assert list(servers["public"]) == ["ping", "version"]


def test_resolver_in_a_module_without_tools_goes_before_the_main_block(tmp_path: Path) -> None:
    source = '"""Doc."""\n\nfrom mcp.server import MCPServer\n\nmcp = MCPServer("x")\n\nif __name__ == "__main__":\n    mcp.run()\n'
    path = tmp_path / "bare.py"
    path.write_text(source)
    assert _new(path, "new", "resolver", "who", "--context", "--returns", "int") == (
        '"""Doc."""\n\nfrom mcp.server import MCPServer\nfrom mcp.server.mcpserver import Context\n\n'
        'mcp = MCPServer("x")\n\n\n'
        "async def who(ctx: Context) -> int:\n"
        '    """Provide the value that tools using `Resolve(who)` receive."""\n'
        '    raise NotImplementedError("who: return a value of type int")\n\n\n'
        'if __name__ == "__main__":\n    mcp.run()\n'
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("new", "resolver", "current_user"), "already defines a function named 'current_user' (line 23)"),
        (("new", "tool", "mcp"), "already defines the name 'mcp'"),
        (("new", "tool", "whoami_tool"), "'mcp' already has a tool named 'whoami_tool' (line 33)"),
        (("new", "tool", "t", "--resolve", "x=nowhere"), "unknown resolver 'nowhere'"),
        (("new", "resolver", "r", "--depends", "x=missing"), "unknown resolver 'missing'"),
        (
            ("new", "tool", "t", "--resolve", "acct=account_for"),
            "reads the tool argument 'user_id' by name, but 't' has no argument 'user_id'",
        ),
        (
            (
                "new",
                "tool",
                "t",
                "--arg",
                "x:int",
                "--resolve",
                "user_id=current_user",
                "--resolve",
                "a=account_for",
            ),
            "'user_id' is a resolved or Context parameter of 't', not a tool argument",
        ),
        (("new", "tool", "t", "--arg", "_x:int"), "starts with '_'"),
        (("new", "tool", "t", "--arg", "x", "--arg", "x:int"), "the parameter 'x' is given twice"),
        (("new", "tool", "t", "--resolve", "x"), "must look like PARAM=RESOLVER"),
        (("new", "tool", "class"), "'class' is a Python keyword"),
        (("new", "tool", "t", "--arg", "x:int)"), "'int)' is not a type expression"),
        (("new", "resolver", "r", "--returns", "list["), "--returns: 'list[' is not a type expression"),
        (("new", "resolver", "r", "--sample", "--list-roots"), "cannot be combined"),
        (("new", "tool", "t", "--server", "nope"), "has no server named 'nope'"),
    ],
)
def test_refusals_leave_the_file_byte_identical(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    source = (
        AWKWARD.replace('@mcp.tool(name="whoami")', '@mcp.tool(name="whoami_tool")')
        .replace(
            "# ---- tools ----",
            "def account_for(user_id: int, user: Annotated[str, Resolve(current_user)]) -> str:\n"
            "    return user\n\n# ---- tools ----",
        )
        .replace("from typing import (", "from typing import (\n    Annotated,")
        .replace("    Context,\n", "    Context,\n    Resolve,\n")
    )
    path = tmp_path / "mod.py"
    path.write_bytes(source.encode())
    proc = run_mcpdeps(*args, "--in", "mod.py", cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert message in " ".join(proc.stderr.split())
    assert "Traceback" not in proc.stderr
    assert path.read_bytes() == source.encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mod.py"]  # no temp file left behind


def test_cycle_is_refused(tmp_path: Path) -> None:
    # Only writable with postponed annotations: `first` names `second` before it exists.
    source = (
        "from __future__ import annotations\n\nfrom typing import Annotated\n\n"
        "from mcp.server.mcpserver import Resolve\n\n\n"
        "def first(value: Annotated[int, Resolve(second)]) -> int:\n    return value\n"
    )
    path = tmp_path / "cycle.py"
    path.write_text(source)
    proc = run_mcpdeps("new", "resolver", "second", "--in", "cycle.py", "--depends", "x=first", cwd=tmp_path)
    assert proc.returncode == 2
    assert "resolver cycle: second -> first -> second" in proc.stderr
    self_loop = run_mcpdeps(
        "new", "resolver", "third", "--in", "cycle.py", "--depends", "x=third", cwd=tmp_path
    )
    assert self_loop.returncode == 2 and "unknown resolver 'third'" in self_loop.stderr
    assert path.read_text() == source


def test_syntax_error_and_missing_file_are_sentences(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("def (:\n")
    proc = run_mcpdeps("new", "tool", "t", "--in", "broken.py", cwd=tmp_path)
    assert proc.returncode == 2 and "broken.py does not parse" in proc.stderr
    (tmp_path / "latin1.py").write_bytes(b"# caf\xe9\n")
    proc = run_mcpdeps("new", "tool", "t", "--in", "latin1.py", cwd=tmp_path)
    assert proc.returncode == 2 and "latin1.py is not UTF-8 text" in proc.stderr
    proc = run_mcpdeps("new", "tool", "t", "--in", "absent.py", cwd=tmp_path)
    assert proc.returncode == 2 and "absent.py does not exist" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_dry_run_prints_the_diff_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "awkward.py"
    path.write_text(AWKWARD)
    proc = run_mcpdeps(*ADD_RESOLVER, "--in", "awkward.py", "--dry-run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "+++ b/awkward.py" in proc.stdout
    assert "+async def account(" in proc.stdout
    assert "+    Resolve," in proc.stdout
    assert "Dry run: nothing was written." in proc.stdout
    assert path.read_text() == AWKWARD


def test_mode_and_symlink_are_kept(tmp_path: Path) -> None:
    real = tmp_path / "real.py"
    real.write_text(AWKWARD)
    real.chmod(0o640)
    link = tmp_path / "link.py"
    link.symlink_to(real)
    _new(link, *ADD_RESOLVER)
    assert link.is_symlink()
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640
    assert "async def account(" in real.read_text()


def test_questions_elicit_sample_list_roots(tmp_path: Path) -> None:
    path = tmp_path / "server.py"
    path.write_text('from mcp.server import MCPServer\n\nmcp = MCPServer("q")\n')
    _new(path, "new", "resolver", "confirm_order", "--elicit", "OrderConfirmation", "--arg", "title")
    _new(path, "new", "resolver", "summary", "--sample", "--arg", "title")
    _new(path, "new", "resolver", "roots", "--list-roots", "--sync")
    result = _new(
        path, "new", "tool", "order", "--arg", "title:str",
        "--resolve", "ok=confirm_order", "--resolve", "text=summary", "--resolve", "where=roots",
    )  # fmt: skip
    assert "class OrderConfirmation(BaseModel):" in result
    assert "from pydantic import BaseModel\n" in result
    assert "from mcp.server.mcpserver import Elicit, ListRoots, Resolve, Sample\n" in result
    assert (
        "from mcp.types import CreateMessageResult, ListRootsResult, SamplingMessage, TextContent\n" in result
    )
    assert "ok: Annotated[OrderConfirmation, Resolve(confirm_order)]" in result
    assert "text: Annotated[CreateMessageResult, Resolve(summary)]" in result
    assert "where: Annotated[ListRootsResult, Resolve(roots)]" in result
    assert result.index("class OrderConfirmation") < result.index("async def confirm_order(")
    assert list(sdk_probe(path)["tools"]["order"]["properties"]) == ["title"]
    assert lint_json(path, cwd=tmp_path)["diagnostics"] == []  # no warning either
    resolvers = graph_json(path, cwd=tmp_path)["resolvers"]
    asks = {r["name"]: r["asks"] for r in resolvers.values()}
    assert asks == {"confirm_order": "elicit", "summary": "sample", "roots": "list_roots"}


def test_tool_on_an_imported_server_needs_server_and_goes_after_its_last_tool(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text('from mcp.server import MCPServer\n\nmcp = MCPServer("s")\n')
    source = 'from app import mcp\n\n\n@mcp.tool()\ndef a() -> str:\n    return "a"\n\n\ndef helper() -> int:\n    return 1\n'
    path = tmp_path / "tools.py"
    path.write_text(source)
    refused = run_mcpdeps("new", "tool", "b", "--in", "tools.py", cwd=tmp_path)
    assert refused.returncode == 2 and "Pass --server VAR if the module imports its server" in refused.stderr
    result = _new(path, "new", "tool", "b", "--server", "mcp", "--sync")
    assert result.index("def a(") < result.index("@mcp.tool()\ndef b(") < result.index("def helper(")
    assert_only_additions(source, result)


def test_new_code_goes_below_the_classes_its_annotations_name(tmp_path: Path) -> None:
    source = (
        "from dataclasses import dataclass\n\nfrom mcp.server import MCPServer\n\n"
        'mcp = MCPServer("s")\n\n\n@mcp.tool()\ndef first() -> str:\n    return "1"\n\n\n'
        "@dataclass\nclass Book:\n    title: str\n"
    )
    path = tmp_path / "server.py"
    path.write_text(source)
    result = _new(path, "new", "resolver", "find_book", "--arg", "title", "--returns", "Book")
    assert result.index("class Book:") < result.index("async def find_book(title: str) -> Book:")
    result = _new(path, "new", "tool", "shelve", "--arg", "book:Book")
    assert result.index("class Book:") < result.index("async def shelve(book: Book)")
    assert list(sdk_probe(path)["tools"]) == ["first", "shelve"]
