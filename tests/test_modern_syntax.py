"""Syntax newer than the Python running mcpdeps (PEP 695, PEP 701 f-strings) is valid code.

Under Python 3.10/3.11, `resolver_core/modern_syntax.py` rewrites such a text to one the
running `ast` reads, keeping lines and columns. Three ways to hold it to the truth:

- positions: every name, call and definition of the rewritten tree sits where Python 3.12's
  own parser puts it (a 3.12 interpreter of this machine parses the same text);
- verdicts: the real SDK (mcp 2.3.0 in a Python 3.12 venv) registers the same cases, and
  `lint`'s codes and `graph`'s arguments must match it tool by tool;
- what cannot be rewritten stays MCPD000 and says which Python read the file.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import REPO, run_mcpdeps
from mcpdeps.resolver_core.modern_syntax import parse_newer

PY312 = Path("/root/.pyenv/versions/3.12.1/bin/python")
OLDER = sys.version_info < (3, 12)
needs_312 = pytest.mark.skipif(not PY312.is_file(), reason="no Python 3.12 on this machine")

SAMPLE = textwrap.dedent(
    """\
    type A = int
    type B[T, *Ts, **P] = dict[T, "x"]
    if True:
        type C = list[int]  # é
    x = f"{ {"a": 1}["a"] } and {x["é"]!r:>{w["k"]}} {'q'}"
    y = f\'\'\'{x['a']}\'\'\'
    class K[T](object):
        async def m[U](self, u: U) -> T: ...
    def é[T](a: T = f"{b["c"]}") -> None: pass
    z = type(x)
    type = 3
    """
)

POSITIONS = textwrap.dedent(
    """\
    import ast, json, sys

    def positions(tree):
        out = []
        for n in ast.walk(tree):
            if isinstance(n, (ast.Name, ast.Attribute, ast.Call, ast.FunctionDef,
                              ast.AsyncFunctionDef, ast.ClassDef, ast.arg, ast.Subscript)):
                label = getattr(n, "id", None) or getattr(n, "arg", None) or getattr(n, "name", None)
                out.append([type(n).__name__, label, n.lineno, n.col_offset, n.end_lineno, n.end_col_offset])
            if type(n).__name__ == "TypeAlias":
                params = [p.name for p in n.type_params]
                out.append(["TypeAlias", n.name.id, n.lineno, n.col_offset, n.name.col_offset, params])
            elif getattr(n, "type_params", None):
                out.append(["params", n.name, [p.name for p in n.type_params]])
        return sorted(map(str, out))

    if __name__ == "__main__":
        print(json.dumps(positions(ast.parse(sys.stdin.read()))))
    """
)
"""The same code lists a tree's positions here and under Python 3.12 (its own parser's tree)."""


@needs_312
@pytest.mark.skipif(not OLDER, reason="this Python parses PEP 695 itself")
def test_the_rewritten_tree_has_python_312s_positions() -> None:
    native = subprocess.run(
        [str(PY312), "-c", POSITIONS], input=SAMPLE, capture_output=True, text=True, timeout=60, check=True
    )
    parsed = parse_newer(SAMPLE, "sample.py")
    assert parsed is not None
    tree, names = parsed
    namespace: dict[str, object] = {"__name__": "positions"}
    exec(compile(POSITIONS, "<positions>", "exec"), namespace)
    assert namespace["positions"](tree) == json.loads(native.stdout)  # type: ignore[operator]
    assert names == {"T", "Ts", "P", "U"}


HEADER = "from __future__ import annotations\n\nfrom typing import Annotated\n\n"
SERVER = (
    "from mcp.server import MCPServer\nfrom mcp.server.mcpserver import Resolve\n\nmcp = MCPServer('s')\n\n"
)
CASES = {
    "generic_ok": SERVER
    + textwrap.dedent(
        """\
        from typing import Annotated

        type Title = str


        def current_user[T](title: str) -> str:
            return f"{ {"a": title}["a"] }"


        class Box[T]:
            def __init__(self, item: T) -> None:
                self.item = item


        @mcp.tool()
        async def show[T](title: Title, who: Annotated[str, Resolve(current_user)], n: T | None = None) -> str:
            return f"{who!r:>{len(title)}} {title["x"] if title else ''}"
        """
    ),
    "alias_hides_resolve": SERVER
    + textwrap.dedent(
        """\
        from typing import Annotated


        def current_user(title: str) -> str:
            return title


        type UserDep = Annotated[str, Resolve(current_user)]


        @mcp.tool()
        def show(title: str, who: UserDep) -> str:
            return f"{who} {title}"
        """
    ),
    "generic_errors": HEADER
    + SERVER
    + textwrap.dedent(
        """\
        def plan_of[T](quota: Annotated[int, Resolve(check_quota)]) -> str:
            return f"{ {"p": "free"}["p"] }"


        def check_quota[T](plan: Annotated[str, Resolve(plan_of)]) -> int:
            return 1


        def owner[T](user_id: T) -> str:
            return str(user_id)


        @mcp.tool()
        def quota(q: Annotated[int, Resolve(check_quota)]) -> str:
            return str(q)


        @mcp.tool()
        def who(title: str, o: Annotated[str, Resolve(owner)]) -> str:
            return o
        """
    ),
}


@pytest.fixture(scope="module")
def sdk_312() -> Path:
    """mcp 2.3.0 under Python 3.12 (built once per machine, `tests/venv_tools.py`)."""
    from venv_tools import python_of, venv

    return python_of(venv("sdk-py312", ["mcp==2.3.0"], python=PY312))


@needs_312
def test_verdicts_on_python_312_syntax_match_the_sdk_under_312(tmp_path: Path, sdk_312: Path) -> None:
    for name, text in CASES.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "server.py").write_text(text, encoding="utf-8")
    script = REPO / "tests" / "oracle" / "sdk_verdicts.py"
    sdk = subprocess.run(
        [str(sdk_312), str(script), *CASES], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert sdk.returncode == 0, sdk.stderr
    verdicts = json.loads(sdk.stdout)["cases"]
    lint = run_mcpdeps("lint", "--format", "json", "--no-cache", "--exit-zero", *CASES, cwd=tmp_path)
    found = json.loads(lint.stdout)["diagnostics"]
    assert not [d for d in found if d["code"] == "MCPD000"], found
    for case in CASES:
        assert verdicts[case]["import_error"] is None, verdicts[case]
        graph = run_mcpdeps("graph", "--format", "json", f"{case}/server.py", cwd=tmp_path)
        drawn = {t["name"]: t for s in json.loads(graph.stdout)["servers"] for t in s["tools"]}
        for tool in verdicts[case]["tools"]:
            codes = {
                d["code"]
                for d in found
                if d["tool"] == tool["tool"] and d["path"].startswith(case) and d["code"] < "MCPD1"
            }
            assert codes == ({tool["code"]} if tool["code"] else set()), (case, tool, found)
            if tool["code"] is None:
                assert drawn[tool["tool"]]["arguments"] == tool["arguments"], (case, tool)
    codes = sorted(d["code"] for d in found)
    assert codes == ["MCPD001", "MCPD002", "MCPD101"], found


@pytest.mark.skipif(not OLDER, reason="Python 3.12 reads every f-string of PEP 701")
def test_what_cannot_be_rewritten_says_which_python_read_it(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(
        "import mcp\n\nlines = ['a']\nprint(f\"{'\\n'.join(lines)}\")\n", encoding="utf-8"
    )
    found = json.loads(
        run_mcpdeps("lint", "--format", "json", "--no-cache", "--exit-zero", "server.py", cwd=tmp_path).stdout
    )["diagnostics"]
    assert [d["code"] for d in found] == ["MCPD000"]
    running = f"Python {sys.version_info[0]}.{sys.version_info[1]}"
    assert f"read by {running}" in found[0]["message"]
    assert "run mcpdeps under that Python" in found[0]["message"]


def test_a_true_syntax_error_gets_no_hint(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text("import mcp\n\ndef f(:\n    pass\nx = f'{1}'\n", encoding="utf-8")
    found = json.loads(
        run_mcpdeps("lint", "--format", "json", "--no-cache", "--exit-zero", "server.py", cwd=tmp_path).stdout
    )["diagnostics"]
    assert [d["code"] for d in found] == ["MCPD000"]
    assert "Python 3.12" not in found[0]["message"]


@pytest.mark.parametrize(
    "text",
    [
        "type(x)\n",
        "type = 3\nprint(type)\n",
        "x = f'{a}' f\"{b}\" rf'{c}\\d'\n",
        "class C(list[int]): ...\n",
        "s = '''f\"{x[\"a\"]}\"'''\n",
    ],
)
def test_text_the_running_python_reads_is_left_as_it_is(text: str) -> None:
    """The rewrite is only tried on what `ast` refused; on readable text it changes nothing."""
    parsed = parse_newer(text, "x.py")
    if parsed is not None:  # None: nothing in it looks newer (not tried)
        native = ast.dump(ast.parse(text), include_attributes=True)
        assert ast.dump(parsed[0], include_attributes=True) == native
        assert parsed[1] == frozenset()


def test_a_true_error_in_newer_syntax_is_reported_where_python_312_reports_it(tmp_path: Path) -> None:
    text = 'import mcp\n\n\ndef f[T](x: T) -> str:\n    return f"{x["a"]}"\n\n\nx = (\n'
    (tmp_path / "server.py").write_text(text, encoding="utf-8")
    found = json.loads(
        run_mcpdeps("lint", "--format", "json", "--no-cache", "--exit-zero", "server.py", cwd=tmp_path).stdout
    )["diagnostics"]
    assert [(d["code"], d["line"]) for d in found] == [("MCPD000", 8)]
    assert "never closed" in found[0]["message"] and "Python 3.12" not in found[0]["message"]


@needs_312
def test_mcpdeps_under_python_312_reads_the_same_verdicts(tmp_path: Path, sdk_312: Path) -> None:
    """Python 3.12's own parser (its `TypeAlias` and `type_params`) and the rewrite agree."""
    for name, text in CASES.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "server.py").write_text(text, encoding="utf-8")
    (tmp_path / "code").mkdir()
    (tmp_path / "code" / "mcpdeps").symlink_to(REPO)  # the package is the repository's root
    script = (
        "import json, sys\nfrom pathlib import Path\nfrom mcpdeps.lint_rules import lint\n"
        "found = lint(sys.argv[1:], cwd=Path.cwd()).diagnostics\n"
        "print(json.dumps(sorted([d.path, d.line, d.code, d.tool] for d in found)))\n"
    )
    native = subprocess.run(
        [str(sdk_312), "-c", script, *CASES],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path / "code"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert native.returncode == 0, native.stderr
    from mcpdeps.lint_rules import lint

    here = sorted([d.path, d.line, d.code, d.tool] for d in lint(list(CASES), cwd=tmp_path).diagnostics)
    assert json.loads(native.stdout) == here
    assert {code for _, _, code, _ in here} == {"MCPD001", "MCPD002", "MCPD101"}


SPLIT = {
    "pyproject.toml": "[project]\nname = 'split'\nversion = '0'\n",
    "deps312.py": """\
        from __future__ import annotations

        from typing import Annotated

        from mcp.server.mcpserver import Resolve


        def owner[T](user_id: T) -> str:
            return f"{ {"u": str(user_id)}["u"] }"


        def current[T](title: str) -> str:
            return title


        type Who = Annotated[str, Resolve(current)]


        def plan_of[T](quota: Annotated[int, Resolve(quota_of)]) -> str:
            return "p"


        def quota_of(plan: Annotated[str, Resolve(plan_of)]) -> int:
            return 1
        """,
    "server.py": """\
        from typing import Annotated

        from mcp.server import MCPServer
        from mcp.server.mcpserver import Resolve

        from deps312 import Who, owner, quota_of

        mcp = MCPServer("split")


        def owner_ok[T](title: str) -> str:
            return title


        @mcp.tool()
        def show[T](title: str, who: Who, o: Annotated[str, Resolve(owner)]) -> str:
            return f"{who + f'{o}'}"


        @mcp.tool()
        async def quota(q: Annotated[int, Resolve(quota_of)]) -> str:
            return str(q)


        @mcp.tool()
        def fine[T](title: str, w: Annotated[str, Resolve(owner_ok)]) -> str:
            return w
        """,
}


@needs_312
def test_a_resolver_module_in_312_syntax_linted_alone_matches_the_sdk_under_312(
    tmp_path: Path, sdk_312: Path
) -> None:
    """Generic resolvers and a `type` alias in their own module, used by generic tools in
    another: `lint deps312.py`, `lint server.py` and `lint .` agree on each file, and with
    the SDK's verdicts."""
    case = tmp_path / "split"
    for name, text in SPLIT.items():
        (case / name).parent.mkdir(parents=True, exist_ok=True)
        (case / name).write_text(textwrap.dedent(text), encoding="utf-8")
    script = REPO / "tests" / "oracle" / "sdk_verdicts.py"
    sdk = subprocess.run([str(sdk_312), str(script), "split"], cwd=tmp_path, capture_output=True, text=True)
    assert sdk.returncode == 0, sdk.stderr
    verdicts = json.loads(sdk.stdout)["cases"]["split"]
    assert verdicts["import_error"] is None, verdicts

    def lint(*args: str) -> list[dict]:
        proc = run_mcpdeps("lint", "--format", "json", "--exit-zero", "--no-cache", *args, cwd=case)
        return json.loads(proc.stdout)["diagnostics"]

    whole = lint(".")
    assert {t["tool"]: t["code"] for t in verdicts["tools"]} == {
        "show": "MCPD002",
        "quota": "MCPD001",
        "fine": None,
    }
    for tool in verdicts["tools"]:
        codes = {d["code"] for d in whole if d["tool"] == tool["tool"] and d["code"] < "MCPD1"}
        assert codes == ({tool["code"]} if tool["code"] else set()), (tool, whole)
    for name in ("deps312.py", "server.py"):
        assert [d for d in lint(name) if d["path"] == name] == [d for d in whole if d["path"] == name]
    assert {d["path"] for d in lint("deps312.py")} == {"deps312.py"}
