"""A real editor: Neovim (Debian's `neovim`, installed when missing), headless, with its
built-in LSP client on `mcpdeps lsp`, on the bookshop and on the broken example.

What Neovim received must equal `mcpdeps lint --format json` on the same files (codes,
messages, severities, ranges, related places), and a hover and a go-to-definition answer.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from graph_renderers import RendererUnavailable, debian_program
from lsp_helpers import lint_json

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SCRIPT = Path(__file__).resolve().parent / "neovim_lsp.lua"


@pytest.fixture(scope="module")
def nvim() -> str:
    try:
        return debian_program("nvim", "neovim")
    except (RendererUnavailable, subprocess.SubprocessError, OSError) as exc:
        pytest.skip(f"Neovim is not installed and cannot be installed here: {exc}")


def line_of(path: Path, needle: str) -> tuple[int, int]:
    for number, line in enumerate(path.read_text().splitlines()):
        if needle in line:
            return number, line.index(needle)
    raise AssertionError(needle)


def run_neovim(
    nvim: str, root: Path, hover: str, definition: str, expected: int, tmp: Path
) -> dict[str, Any]:
    out = tmp / "received.json"
    env = {
        **os.environ,
        "MCPDEPS_ROOT": str(root),
        "MCPDEPS_OUT": str(out),
        "MCPDEPS_PYTHON": sys.executable,
        "MCPDEPS_FILES": ",".join(sorted(p.name for p in root.glob("*.py"))),
        "MCPDEPS_EXPECTED": str(expected),
        "MCPDEPS_HOVER": hover,
        "MCPDEPS_DEFINITION": definition,
        "XDG_STATE_HOME": str(tmp / "state"),
        "XDG_DATA_HOME": str(tmp / "data"),
    }
    proc = subprocess.run(
        [nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", f"luafile {SCRIPT}"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        stdin=subprocess.DEVNULL,
    )
    assert out.is_file(), proc.stderr + proc.stdout
    return json.loads(out.read_text())


def as_lint(root: Path, d: dict[str, Any]) -> dict[str, Any]:
    """A diagnostic as Neovim holds it (`vim.diagnostic`, 0-based; the LSP object's code,
    related places and data in `user_data.lsp`) in lint JSON terms (ASCII: bytes = characters)."""
    lsp = d["lsp"]
    assert lsp["codeDescription"]["href"].endswith(f"#{lsp['code'].lower()}")
    return {
        "code": lsp["code"],
        "name": lsp["data"]["name"],
        "severity": {1: "error", 2: "warning", 3: "info"}[d["severity"]],
        "message": d["message"],
        "path": Path(d["file"]).relative_to(root).as_posix(),
        "line": d["lnum"] + 1,
        "column": d["col"] + 1,
        "end_line": d["end_lnum"] + 1,
        "end_column": d["end_col"] + 1,
        "tool": lsp["data"].get("tool"),
        "related": [
            {
                "path": Path(r["location"]["uri"].removeprefix("file://")).relative_to(root).as_posix(),
                "line": r["location"]["range"]["start"]["line"] + 1,
                "column": r["location"]["range"]["start"]["character"] + 1,
                "message": r["message"],
            }
            for r in lsp.get("relatedInformation") or []
        ],
    }


def order(ds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(
        ds, key=lambda d: (d["path"], d["line"], d["column"], d["code"], d["tool"] or "", d["message"])
    )


CASES = {
    # example: (hover place, definition place, the definition's file and `def` line needle)
    "bookshop": (
        ("server.py", "async def order_book", 10),
        ("server.py", "Resolve(estimate_delivery)", 9),
        ("server.py", "async def estimate_delivery"),
    ),
    "broken": (
        ("server.py", "def upload_cover", 5),
        ("deps.py", "Resolve(server.plan_of)", 16),
        ("server.py", "def plan_of"),
    ),
}


@pytest.mark.parametrize("example", sorted(CASES))
def test_neovim_receives_what_lint_reports(nvim: str, example: str, tmp_path: Path) -> None:
    root = tmp_path / example
    shutil.copytree(EXAMPLES / example, root)
    expected = lint_json(root)
    (hover_file, hover_needle, hover_shift), (def_file, def_needle, def_shift), (target_file, target) = CASES[
        example
    ]
    hover_line, hover_col = line_of(root / hover_file, hover_needle)
    def_line, def_col = line_of(root / def_file, def_needle)
    received = run_neovim(
        nvim,
        root,
        f"{hover_file}:{hover_line}:{hover_col + hover_shift}",
        f"{def_file}:{def_line}:{def_col + def_shift}",
        len(expected),
        tmp_path,
    )
    assert received.get("error") is None
    assert order([as_lint(root, d) for d in received["diagnostics"]]) == expected
    hover = received["hover"]["contents"]
    assert hover["kind"] == "markdown" and "the model sees" in hover["value"]
    [location] = (
        received["definition"] if isinstance(received["definition"], list) else [received["definition"]]
    )
    assert location["uri"] == (root / target_file).as_uri()
    assert location["range"]["start"]["line"] == line_of(root / target_file, target)[0]


WAIT_AND_WRITE = """
vim.wait(60000, function() return #vim.diagnostic.get() >= tonumber(vim.env.MCPDEPS_EXPECTED) end, 100)
local codes = {}
for _, d in ipairs(vim.diagnostic.get()) do table.insert(codes, d.user_data.lsp.code) end
table.sort(codes)
vim.fn.writefile({ table.concat(codes, ",") }, vim.env.MCPDEPS_OUT)
vim.cmd("qall!")
"""


def test_the_readme_snippet_for_neovim_0_7_works_as_published(nvim: str, tmp_path: Path) -> None:
    """The README's Lua, copied as it is into an `init.lua`, on the installed Neovim (Debian's
    0.7.2 here, where `vim.fs` and `vim.lsp.start` do not exist): a Python buffer gets the
    diagnostics `mcpdeps lint` reports, from the `mcpdeps` found on PATH."""
    readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    snippet = readme.split("<!-- neovim-0.7 -->\n```lua\n", 1)[1].split("```", 1)[0]
    (tmp_path / "init.lua").write_text(snippet, encoding="utf-8")
    root = tmp_path / "broken"
    shutil.copytree(EXAMPLES / "broken", root)
    expected = sorted(d["code"] for d in lint_json(root))  # the whole project, pushed
    (tmp_path / "wait.lua").write_text(WAIT_AND_WRITE, encoding="utf-8")
    out = tmp_path / "codes.txt"
    env = {
        **os.environ,
        "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
        "MCPDEPS_OUT": str(out),
        "MCPDEPS_EXPECTED": str(len(expected)),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    subprocess.run(
        [nvim, "--headless", "-n", "-i", "NONE", "-u", str(tmp_path / "init.lua"), "server.py",
         "-c", f"luafile {tmp_path / 'wait.lua'}"],
        cwd=root, env=env, timeout=120, capture_output=True,
    )  # fmt: skip
    assert out.read_text().strip().split(",") == expected
