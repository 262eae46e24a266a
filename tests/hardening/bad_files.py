"""A folder of every kind of file `lint` and `graph` must survive, written for real on disk.

Each file starts with an import of `mcp` so that the builder's byte prefilter (files that
cannot declare a server are not parsed) lets it through: these files must reach the reader
and the parser, which is where they can hurt. `BAD` lists the files that must come back as
an MCPD000 diagnostic; the others must parse and produce no MCPD000.
"""

from __future__ import annotations

import os
from pathlib import Path

HEAD = "from mcp.server import MCPServer\n"
SERVER = HEAD + 'mcp = MCPServer("Ok")\n\n\n@mcp.tool()\ndef ping(text: str) -> str:\n    return text\n'

TEXT_FILES: dict[str, str] = {
    "syntax_error.py": HEAD + "def f(:\n    pass\n",
    "unterminated_string.py": HEAD + 'x = "abc\n',
    "unterminated_triple.py": HEAD + 'x = """abc\n',
    "mixed_tabs.py": HEAD + "if True:\n\tx = 1\n        y = 2\n",
    "deep_parentheses.py": HEAD + "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n",
    "deep_brackets.py": HEAD + "x = " + "[" * 5000 + "]" * 5000 + "\n",
    "deep_if.py": HEAD + "".join(" " * i + "if x:\n" for i in range(5000)) + " " * 5000 + "pass\n",
    "deep_def.py": HEAD + "".join(" " * i + f"def f{i}():\n" for i in range(5000)) + " " * 5000 + "pass\n",
    "deep_attribute.py": HEAD + "x = a" + ".b" * 100_000 + "\n",
    "deep_call.py": HEAD + "x = f" + "()" * 100_000 + "\n",
    "deep_unary.py": HEAD + "x = " + "-" * 100_000 + "1\n",
    "deep_not.py": HEAD + "x = " + "not " * 100_000 + "1\n",
}
"""Text that Python refuses to parse (each one is in BAD)."""

BYTE_FILES: dict[str, bytes] = {
    "null_byte.py": HEAD.encode() + b"x = 1\x00\n",
    "latin1_without_cookie.py": (HEAD + 'x = "caf\xe9"\n').encode("latin-1"),
    "bad_cookie.py": b"# -*- coding: klingon -*-\n" + HEAD.encode() + b"x = 1\n",
    "bom_with_latin1_cookie.py": b"\xef\xbb\xbf# coding: latin-1\n" + HEAD.encode(),
    "invalid_utf8.py": HEAD.encode() + b"x = 1\n\xff\xfe\n",
    "surrogate_bytes.py": HEAD.encode() + b'x = "\xed\xa0\x80"\n',
    "control_character.py": HEAD.encode() + b"x = 1\x1b\n",
    # Its NULs hide every marker from the prefilter, and Python cannot import it (issue 34).
    "utf16_no_mcp_bytes.py": (HEAD + "x = 1\n").encode("utf-16"),
}
"""Bytes that cannot be decoded or tokenized (each one is in BAD)."""

GOOD_FILES: dict[str, bytes] = {
    "latin1_cookie.py": ("# -*- coding: latin-1 -*-\n" + HEAD + 'x = "caf\xe9"\n').encode("latin-1"),
    "bom.py": b"\xef\xbb\xbf" + SERVER.encode(),
    "crlf.py": SERVER.replace("\n", "\r\n").encode(),
    "cr_only.py": SERVER.replace("\n", "\r").encode(),
    "no_final_newline.py": SERVER.rstrip("\n").encode(),
    "form_feed.py": HEAD.encode() + b"\x0cx = 1\n",
    "empty.py": b"",
    "big.py": (SERVER + "".join(f'DOC{i} = """{"x" * 60_000}"""\n' for i in range(50))).encode(),
}
"""Files that parse (or that the prefilter rightly skips): no MCPD000 for them."""

EITHER_FILES: dict[str, bytes] = {
    "deep_binop.py": (HEAD + "x = " + " + ".join(["1"] * 100_000) + "\n").encode(),
}
"""Files Python may or may not parse depending on the stack left (a 100,000-deep `1 + 1 + ...`):
either answer is fine, a crash is not."""

LINK_FILES = {"dangling_link.py", "link_loop_a.py", "link_loop_b.py"}


def write_bad_tree(root: Path) -> set[str]:
    """Write the whole zoo under `root`; return the names (relative to root) that must be MCPD000."""
    root.mkdir(parents=True, exist_ok=True)
    for name, text in TEXT_FILES.items():
        (root / name).write_text(text, encoding="utf-8")
    for name, data in {**BYTE_FILES, **GOOD_FILES, **EITHER_FILES}.items():
        (root / name).write_bytes(data)
    # A folder named like a module, holding a real module: walked, never read as a file.
    (root / "folder.py").mkdir()
    (root / "folder.py" / "inside.py").write_text(SERVER, encoding="utf-8")
    # A directory symlink back to its parent (a walk must not loop) and file links that never end.
    (root / "loop").mkdir()
    os.symlink("..", root / "loop" / "parent")
    os.symlink("nowhere.py", root / "dangling_link.py")
    os.symlink("link_loop_b.py", root / "link_loop_a.py")
    os.symlink("link_loop_a.py", root / "link_loop_b.py")
    # A FIFO named like a module: opening it for reading would block forever.
    os.mkfifo(root / "fifo.py")
    # Larger than the analyzer's limit, sparse so it costs no disk.
    with open(root / "too_large.py", "wb") as handle:
        handle.write(HEAD.encode())
        handle.truncate(21 * 1024 * 1024)
    bad = set(TEXT_FILES) | set(BYTE_FILES) | LINK_FILES | {"too_large.py"}
    if unreadable_link(root / "unreadable.py"):
        bad.add("unreadable.py")
    return bad


def unreadable_link(path: Path) -> bool:
    """A file whose read fails even for root: a link to /proc/self/mem (reading offset 0 is EIO).

    chmod 000 does not stop root, and the tests run as root in CI. False when the
    platform has no such file (the case is then not exercised).
    """
    mem = Path("/proc/self/mem")
    if not mem.exists():
        return False
    os.symlink(mem, path)
    return True
