"""`prefilter.passed_lines` and `calls_on_lines`: the builder walks only the statements that
can pass a server to another module's function (`tools.register(mcp)`), and must find every
call a walk of the whole tree finds, in the same order, behind the same plain-text gate.

Checked against `ast.walk` and the gate the builder used before (a regular expression of the
module's names) on every module of the corpus, the examples and a slice of the interpreter's
own library, and on the forms that are easy to miss.
"""

from __future__ import annotations

import ast
import re
import sysconfig
import time
from pathlib import Path

import pytest
from conftest import REPO
from mcpdeps.resolver_core.literal_loops import calls_on_lines
from mcpdeps.resolver_core.prefilter import passed_lines
from mcpdeps.resolver_core.source import ParsedModule, decode
from mcpdeps.resolver_core.symbols import collect_bindings

FORMS = {
    "plain": "from app import mcp\nimport tools\n\ntools.register(mcp)\n",
    "keyword": "from app import mcp\nimport tools\n\ntools.register(server=mcp)\n",
    "second": "from app import mcp\nimport tools\n\ntools.register(1, mcp)\ntools.other(2)\n",
    "comment_between": (
        "from app import mcp\nimport tools\n\ntools.register(mcp)\ntools.register(\n    # the server\n    mcp,\n)\n"
    ),
    "comment_after": "from app import mcp\nimport tools\n\ntools.register(mcp)\ntools.go(mcp  # why\n)\n",
    "continuation": "from app import mcp\nimport tools\n\ntools.register(mcp)\nx = tools.go(\\\n mcp)\n",
    "double_star": "from app import mcp\nimport tools\n\ntools.register(mcp)\ntools.go(**mcp)\n",
    "decorator": "from app import mcp\nimport tools\n\n\n@tools.deco(mcp)\ndef f(a: int) -> int:\n    return a\n",
    "decorator_far": (
        "from app import mcp\nimport tools\n\n\n@tools.deco(mcp)\n@other\n\n\ndef f(a: int) -> int:\n    return a\n"
    ),
    "nested": (
        "from app import mcp\nimport tools\n\n\nclass H:\n    def m(self):\n        if True:\n"
        "            for _ in range(1):\n                tools.register(mcp)\n        return 1\n"
    ),
    "fstring": 'from app import mcp\nimport tools\n\n\ndef f():\n    return f"{tools.register(mcp)}"\n',
    "crlf": "from app import mcp\r\nimport tools\r\n\r\ntools.register(mcp)\r\nx = (mcp,\r\n)\r\n",
    "parenthesised": "from app import mcp\nimport tools\n\ntools.register((mcp))\n",
    "attribute_is_no_name": "from app import mcp\nimport tools\n\ntools.register(app.mcp)\n",
    "longer_name": "from app import mcp\nimport tools\n\ntools.register(mcp_x)\n",
    "unicode_normalised": '"""café — ok."""\nfrom app import mcp\nimport tools\n\ntools.register(mcp)\n',
}


def _names(module: ParsedModule, text: str) -> list[str]:
    assert module.tree is not None
    table = collect_bindings(module, module.tree.body)
    return [n for n, b in table.items() if b.kind in ("value", "import") and n in text]


def _passing(calls: object, names: list[str]) -> list[int]:
    """The calls (by identity) with a plain name among `names` as a whole argument."""
    return [
        id(c)
        for c in calls  # type: ignore[attr-defined]
        if isinstance(c, ast.Call)
        and any(isinstance(a, ast.Name) and a.id in names for a in [*c.args, *(k.value for k in c.keywords)])
    ]


def _check(path: Path, text: str) -> None:
    module = ParsedModule("m", path, str(path), path.parent, False)
    module.tree = ast.parse(text)
    names = _names(module, text)
    if not names:
        return
    gate = re.compile(r"[(,=]\s*(" + "|".join(map(re.escape, names)) + r")\s*[,)]").search(text) is not None
    lines = passed_lines(text, names)
    if lines is None:
        return  # the builder walks the whole tree behind the gate, as before
    assert bool(lines) == gate, path
    if gate:
        assert _passing((c for c, _ in calls_on_lines(module.tree, lines)), names) == _passing(
            ast.walk(module.tree), names
        )


@pytest.mark.parametrize("form", sorted(FORMS))
def test_every_form_of_passing_a_name_is_found(form: str, tmp_path: Path) -> None:
    text = FORMS[form]
    _check(tmp_path / "m.py", text)
    if form not in ("attribute_is_no_name", "longer_name"):
        module = ParsedModule("m", tmp_path / "m.py", "m.py", tmp_path, False)
        module.tree = ast.parse(text)
        lines = passed_lines(text, _names(module, text))
        assert lines and _passing((c for c, _ in calls_on_lines(module.tree, lines)), ["mcp"])


def test_texts_the_lines_cannot_be_told_from_walk_everything() -> None:
    assert passed_lines("from app import mcp\rimport t\rt.register(mcp)\r", ["mcp"]) is None
    assert passed_lines("from app import mcp as \uff4dcp2\nf(\uff4dcp2)\n", ["mcp2"]) is None
    assert passed_lines("from app import mcp\nprint('x')\n", ["mcp"]) == []


def test_only_lines_that_can_pass_a_name_are_walked() -> None:
    """An annotation (`ctx: Context)`), a subscript or an import list holds no argument."""
    text = "from app import mcp, Context\nf(mcp)\ndef g(ctx: Context) -> list[Context]: ...\n"
    assert passed_lines(text, ["mcp", "Context"]) == [2]
    assert passed_lines("f(a,\n  mcp)\nf(  # why\n  mcp)\n", ["mcp"]) == [2, 4]


def _modules() -> list[Path]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    found = sorted((REPO / "tests" / "corpus").rglob("*.py")) + sorted((REPO / "examples").rglob("*.py"))
    return found + sorted(stdlib.glob("*.py"))[:250]


def test_the_pruned_walk_finds_what_the_whole_walk_finds_in_real_modules() -> None:
    checked = 0
    for path in _modules():
        try:
            text = decode(path.read_bytes())
            ast.parse(text)
        except (SyntaxError, ValueError, UnicodeDecodeError):
            continue
        _check(path, text)
        checked += 1
    assert checked > 500


def test_comment_banners_cost_one_pass() -> None:
    """A name before a line of `#####` (and no `,`/`)` after it): one way to match the comment,
    not one per way of splitting it (40 hashes took minutes)."""
    started = time.process_time()
    for text in ("f(mcp  " + "#" * 5000 + "\n", "f(mcp " + "# a " * 3000 + "\n", "f(mcp" + " \\\n" * 3000):
        assert passed_lines(text, ["mcp"]) == []
    assert time.process_time() - started < 5


CALLED = {
    "inline": "tools.register(MCPServer('x'))\n",
    "keyword": "tools.register(1, server=MCPServer('x'))\n",
    "across_lines": "tools.register(\n    MCPServer('x'),\n)\n",
    "comment_between": "tools.register(  # why\n    MCPServer('x'))\n",
    "blank_before_parenthesis": "tools.register(MCPServer ('x'))\n",
    "continuation": "x = tools.go(\\\n MCPServer())\n",
    "getter": "tools.register(get_mcp())\n",
    "in_a_function": "def main():\n    if True:\n        tools.register(get_mcp())\n",
}
"""A server made (or handed out by a getter) in the argument of a call: the lines hold it."""


def _handing(calls: object, called: set[str]) -> list[int]:
    """The calls (by identity) with a call of one of `called` as a whole argument."""
    return [
        id(c)
        for c in calls  # type: ignore[attr-defined]
        if isinstance(c, ast.Call)
        and any(
            isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and a.func.id in called
            for a in [*c.args, *(k.value for k in c.keywords)]
        )
    ]


@pytest.mark.parametrize("form", sorted(CALLED))
def test_every_form_of_passing_a_call_is_found(form: str) -> None:
    text = "from mcp.server import MCPServer\nfrom app.server import get_mcp\nimport tools\n\n" + CALLED[form]
    tree = ast.parse(text)
    lines = passed_lines(text, ["tools"], {"MCPServer", "get_mcp"})
    assert lines, form
    found = _handing((c for c, _ in calls_on_lines(tree, lines)), {"MCPServer", "get_mcp"})
    assert found and found == _handing(ast.walk(tree), {"MCPServer", "get_mcp"}), form


def test_statements_and_assignments_calling_a_name_are_not_walked() -> None:
    """Most calls of a name are no argument: walking each statement holding one was a tenth
    of a cold run."""
    text = "mcp = MCPServer('x')\nx: int = get_mcp()\nmain()\nif x == get_mcp():\n    pass\n"
    assert passed_lines(text, [], {"MCPServer", "get_mcp", "main"}) == []


def test_the_pruned_walk_finds_every_call_passed_in_real_modules() -> None:
    checked = 0
    for path in _modules():
        try:
            text = decode(path.read_bytes())
            tree = ast.parse(text)
        except (SyntaxError, ValueError, UnicodeDecodeError):
            continue
        module = ParsedModule("m", path, str(path), path.parent, False)
        module.tree = tree
        table = collect_bindings(module, tree.body)
        called = {n for n, b in table.items() if b.kind in ("def", "import") and n in text}
        lines = passed_lines(text, [], called)
        if lines is None:
            continue
        whole = _handing(ast.walk(tree), called)
        assert _handing((c for c, _ in calls_on_lines(tree, lines)), called) == whole, path
        checked += 1
    assert checked > 500
