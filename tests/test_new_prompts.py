"""On a real terminal (a pty via pexpect), `new` asks for what is missing and confirms before writing."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

SERVER = 'from mcp.server import MCPServer\n\nmcp = MCPServer("a")\nadmin = MCPServer("b")\n'


def _spawn(cwd: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    env.pop("FORCE_COLOR", None)
    return pexpect.spawn(
        sys.executable, ["-m", "mcpdeps", *args], cwd=cwd, env=env, encoding="utf-8", timeout=30
    )


def test_new_server_asks_for_the_name_and_confirms(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "new", "server")
    child.expect("Project name")
    child.sendline("shop")
    child.expect("server.py")
    child.expect(r"Create .*shop\?")
    child.sendline("y")
    child.expect("Created")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert (tmp_path / "shop" / "src" / "shop" / "server.py").is_file()


def test_new_tool_asks_for_the_server_and_offers_missing_arguments(tmp_path: Path) -> None:
    path = tmp_path / "server.py"
    path.write_text(SERVER + "\n\ndef lookup(isbn: str) -> str:\n    return isbn\n")
    child = _spawn(tmp_path, "new", "tool", "find", "--resolve", "book=lookup")
    child.expect("Module to add it to")
    child.sendline("")  # default: server.py
    child.expect("Register the tool on which server")
    child.sendline("admin")
    child.expect("reads the tool argument 'isbn'. Add it to the tool\\?")
    child.sendline("y")
    child.expect("Type of 'isbn'")
    child.sendline("")  # default: the resolver's annotation, str
    child.expect(r"\+async def find\(isbn: str, book: Annotated\[str, Resolve\(lookup\)\]\) -> str:")
    child.expect(r"Write server.py\?")
    child.sendline("y")
    child.expect("Added tool 'find' to server.py.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert (
        "@admin.tool()\nasync def find(isbn: str, book: Annotated[str, Resolve(lookup)]) -> str:"
        in path.read_text()
    )


def test_declining_the_confirmation_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "server.py"
    path.write_text(SERVER)
    child = _spawn(tmp_path, "new", "resolver", "who", "--in", "server.py", "--context")
    child.expect(r"Write server.py\?")
    child.sendline("n")
    child.expect("Nothing was written.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert path.read_text() == SERVER


def test_a_file_edited_during_the_confirmation_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "server.py"
    path.write_text(SERVER)
    child = _spawn(tmp_path, "new", "resolver", "who", "--in", "server.py", "--context")
    child.expect(r"Write server.py\?")
    path.write_text(SERVER + "# edited meanwhile\n")
    child.sendline("y")
    child.expect("server.py changed while mcpdeps was working on it")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert path.read_text() == SERVER + "# edited meanwhile\n"
