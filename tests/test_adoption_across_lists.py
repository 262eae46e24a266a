"""Records taken up across lists of files by what their builds asked, not by the list
(`lint_rules.adoption`): a caller's record (`confined`: its servers followed only into its
run's files) where this run's files answer its questions alike (`FileRecord.limited`), and
`lint .`'s records where their closure is within the limit; never a companion's record left
unclassified (`FileRecord.unclassified`).

Each project is checked under the SDK first (importing the entry point registers every tool).
Each cached run reports what a cold run on the same list reports; the attacks edit a file
the taken record read (or would have read) that is not in the given list.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import write_files
from mcpdeps.lint_rules import LintResult, lint
from mcpdeps.resolver_core.diagnostics import plain
from published_shapes import PROJECT, REFUSED, sdk
from test_adoption import counting_builds

DEPS = """\
def load_ok(x: int) -> str:
    return str(x)


def load_d(nope: str) -> str:
    return nope
"""

SERVER = 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n'

FEATURE = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
{imports}

def register(server: MCPServer) -> None:
    @server.tool()
    def {name}(x: int, d: Annotated[str, Resolve({resolver})]) -> str:
        return d
"""

LOCAL = "\n\ndef load_local(x: int) -> str:\n    return str(x)\n"

MAIN = """\
from app.server import mcp
from features import alpha, beta

alpha.register(mcp)
beta.register(mcp)
"""


def caller_project(root: Path, resolver: str = "load_ok") -> None:
    """`app/main.py` calls two features' `register(server)`: `alpha`'s tool runs `resolver` of
    `app/deps.py`, `beta`'s its own; `app/other.py` is unrelated. `lint app/deps.py` checks
    `main.py` only as a caller of `alpha`'s helper (`beta` is no file of its run)."""
    write_files(
        root,
        {
            **PROJECT,
            "app/deps.py": DEPS,
            "app/server.py": SERVER,
            "app/other.py": "VALUE = 1\n",
            "features/__init__.py": "",
            "features/alpha.py": FEATURE.format(
                imports=f"\nfrom app.deps import {resolver}\n", name="alpha", resolver=resolver
            ),
            "features/beta.py": FEATURE.format(imports="", name="beta", resolver="load_local") + LOCAL,
            "app/main.py": MAIN,
        },
    )


def _dump(result: LintResult) -> list[dict[str, object]]:
    return [plain(d) for d in result.diagnostics]


def _as_cold(root: Path, paths: list[str], cache: Path) -> LintResult:
    cached = lint(paths, cwd=root, cache_dir=cache)
    assert _dump(cached) == _dump(lint(paths, cwd=root)), paths
    return cached


def _found(result: LintResult) -> set[tuple[str, str, str | None]]:
    return {(d.code, d.path, d.tool) for d in result.diagnostics}


@pytest.mark.parametrize("resolver", ["load_ok", "load_d"])
def test_a_callers_record_is_taken_up_by_a_list_its_limit_answers_alike(
    tmp_path: Path, resolver: str
) -> None:
    """After `lint app/deps.py app/other.py`, `lint app/deps.py` takes up every record, the
    caller `main.py`'s too: its build asked whether `alpha`, `beta` and `features/__init__.py`
    are files of the run, and both lists answer alike (before, a state holding a caller gave
    none of its records to another list, and all three files were built again)."""
    caller_project(tmp_path, resolver)
    ran = sdk(tmp_path, "import app.main")
    assert (ran.returncode == 0) == (resolver == "load_ok"), ran.stderr
    cache = tmp_path / ".cache"
    first = _as_cold(tmp_path, ["app/deps.py", "app/other.py"], cache)
    assert first.analysed == 4, "deps, other, alpha (importer), main (caller)"
    assert (("MCPD002", "app/deps.py", "alpha") in _found(first)) == (resolver == "load_d")
    second = _as_cold(tmp_path, ["app/deps.py"], cache)
    assert second.analysed == 0


def test_a_file_the_taken_callers_record_read_outside_the_list_is_followed(tmp_path: Path) -> None:
    """The attack: after `lint app/deps.py app/other.py`, `app/server.py`, which `main.py`'s
    record read and which is no file of either list, is edited (its server renamed, and a
    tool `beta` registered on it first, which the SDK keeps: `beta.register` then warns of a
    duplicate). `lint app/deps.py` takes up the records with their dependency states, sees the
    edit in `main.py`'s, and builds it again with `alpha` (coupled: in its closure), as a cold
    run reports: the refusal of `alpha`'s resolver still stands."""
    caller_project(tmp_path, "load_d")
    cache = tmp_path / ".cache"
    _as_cold(tmp_path, ["app/deps.py", "app/other.py"], cache)
    (tmp_path / "app" / "server.py").write_text(
        'from mcp.server import MCPServer\n\nmcp = MCPServer("y")\n\n\n'
        "@mcp.tool()\ndef beta(x: int) -> str:\n    return str(x)\n"
    )
    assert REFUSED in sdk(tmp_path, "import app.main").stderr
    taken = _as_cold(tmp_path, ["app/deps.py"], cache)
    assert ("MCPD002", "app/deps.py", "alpha") in _found(taken)
    assert taken.analysed >= 2


def test_a_limit_answering_otherwise_rebuilds_the_callers_record(tmp_path: Path) -> None:
    """After `lint app/deps.py features/beta.py`, whose `main.py` followed its server into
    `beta`, `lint app/deps.py` would not: `main.py`'s record is built again (with `alpha`, which
    it calls), and the report is a cold run's."""
    caller_project(tmp_path, "load_d")
    cache = tmp_path / ".cache"
    _as_cold(tmp_path, ["app/deps.py", "features/beta.py"], cache)
    taken = _as_cold(tmp_path, ["app/deps.py"], cache)
    assert taken.analysed >= 2


TOOLS = """\
from typing import Annotated

from mcp.server.mcpserver import Resolve

from app.deps import {resolver}
from app.server import mcp


@mcp.tool(name="{name}")
def {name}(x: int, d: Annotated[str, Resolve({resolver})]) -> str:
    return d
"""


def tools_project(root: Path, a: str, b: str, c: str) -> None:
    """`app/a_tools.py`, `app/b_tools.py` and `app/c_tools.py` register on the server of
    `app/server.py` a tool running a resolver of `app/deps.py` each; `app/main.py` imports the
    three. `lint app/b_tools.py` and `lint app/c_tools.py` leave `a_tools`' tool unclassified
    (a companion importing no given file, built for the registrations the given file's come after)."""
    write_files(
        root,
        {
            **PROJECT,
            "app/deps.py": DEPS + "\n\ndef load_p(x: int, /) -> str:\n    return str(x)\n",
            "app/server.py": SERVER,
            "app/a_tools.py": TOOLS.format(resolver=a, name="alpha"),
            "app/b_tools.py": TOOLS.format(resolver=b, name="beta"),
            "app/c_tools.py": TOOLS.format(resolver=c, name="gamma"),
            "app/main.py": "import app.a_tools\nimport app.b_tools\nimport app.c_tools\n",
        },
    )


def _unclassified(cache: Path, given: str) -> set[str]:
    """The records left unclassified in the state of the run given `given` alone."""
    for path in (cache / "lint").glob("mcpdeps-lint-*.json"):
        state = json.loads(path.read_text())
        if [entry[0] for entry in state["files"] if len(entry) == 3] == [given]:
            return {d for d, r in state["records"].items() if r["unclassified"]}
    raise AssertionError(f"no state for {given}")


@pytest.mark.parametrize(
    ("a", "b", "c"),
    [("load_ok", "load_ok", "load_ok"), ("load_p", "load_ok", "load_p"), ("load_d", "load_ok", "load_d")],
)
def test_an_unclassified_companion_is_not_taken_up_by_another_tool_module(
    tmp_path: Path, a: str, b: str, c: str
) -> None:
    """After `lint app/b_tools.py` left `a_tools`' tool unclassified, `lint app/c_tools.py`
    builds `a_tools` again rather than take that record up, and reports what a cold run
    reports (MCPD106 of `load_p(x, /)`, reported by the first file running it, included)."""
    tools_project(tmp_path, a, b, c)
    ran = sdk(tmp_path, "import app.main")
    assert (ran.returncode == 0) == (a != "load_d"), ran.stderr
    cache = tmp_path / ".cache"
    _as_cold(tmp_path, ["app/b_tools.py"], cache)
    assert "app/a_tools.py" in _unclassified(cache, "app/b_tools.py")
    path = tmp_path / "app" / "c_tools.py"
    path.write_text(path.read_text() + "\n# edited\n")
    taken = _as_cold(tmp_path, ["app/c_tools.py"], cache)
    assert taken.analysed == lint(["app/c_tools.py"], cwd=tmp_path).analysed


def test_a_companion_newly_importing_the_given_file_is_classified(tmp_path: Path) -> None:
    """The attack: after `lint app/b_tools.py` left `a_tools` unclassified, `a_tools` is edited
    to import `app/c_tools.py` and run its resolver, which the SDK refuses. `lint
    app/c_tools.py` checks `a_tools` as an importer of the given file, whose tools are all
    classified: its record is not taken up, and the refusal is reported (MCPD002 on `alpha`,
    located in the given file) as a cold run reports it."""
    tools_project(tmp_path, "load_ok", "load_ok", "load_ok")
    cache = tmp_path / ".cache"
    _as_cold(tmp_path, ["app/b_tools.py"], cache)
    c_tools = tmp_path / "app" / "c_tools.py"
    c_tools.write_text(c_tools.read_text() + DEPS.replace("load_", "own_"))
    a_tools = tmp_path / "app" / "a_tools.py"
    a_tools.write_text(
        TOOLS.format(resolver="load_ok", name="alpha").replace(
            "from app.deps import load_ok", "from app.c_tools import own_d as load_ok"
        )
    )
    assert "InvalidSignature: Resolver 'own_d' parameter 'nope'" in sdk(tmp_path, "import app.main").stderr
    taken = _as_cold(tmp_path, ["app/c_tools.py"], cache)
    assert ("MCPD002", "app/c_tools.py", "alpha") in _found(taken)


def test_pre_commit_after_lint_dot_builds_each_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pre-commit on the resolver module most modules of `gen_shapes.py`'s `helpers` tree import,
    after `lint .`: the records `lint .` left whose closure is within the run take the place of
    a build, and the files left to check, half of the run or more, some with no record taken,
    are checked in one build (a first round of 135 of the 172, then a second of all, parsed
    the run's modules twice: more than a cold run). The report is a cold run's."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from bench_one_file import _given
    from gen_shapes import generate

    root = tmp_path / "tree"
    generate(root, 300, "helpers", 1)  # 150 modules: 16 files checked, in one round before too
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    given = _given(root, "helpers")["resolver"]
    cache = tmp_path / "cache"
    lint(["."], cwd=root, cache_dir=cache)
    with (root / given).open("a") as handle:
        handle.write("\n# edited\n")
    builds = counting_builds(monkeypatch)
    result = lint([given], cwd=root, cache_dir=cache)
    assert len(builds) == 1, [None if b is None else len(b) for b in builds]  # type: ignore[arg-type]
    assert _dump(result) == _dump(lint([given], cwd=root))


_EXPOSED = """\
from typing import Annotated

from mcp.server.mcpserver import Resolve
from app.expose import expose
from app.deps import load_ok


@expose
def {name}(x: int, d: Annotated[str, Resolve(load_ok)]) -> str:
    return d
"""
_HELPER = """\
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve
from app.deps import load_ok


def register(server: MCPServer) -> None:
    @server.tool()
    def {name}(x: int, d: Annotated[str, Resolve(load_ok)]) -> str:
        return d
"""


def test_a_helper_whose_caller_moved_its_tools_is_checked_again(tmp_path: Path) -> None:
    """Found by an attack on taking unclassified records up: `features/gamma.py` registers
    `dup` on the server its caller hands it, `features/delta.py` applies `@expose` (which adds
    to `app.server`'s `mcp`) to another `dup`. `app/main.py` first hands `gamma` a server of
    its own, then `mcp`: the duplicate appears only with the second caller. `lint
    features/gamma.py` after runs on other lists (the first before the edit, the second
    after) reports it as a cold run does: the records left unclassified by the second run
    are not taken up in place of the builds that find it."""
    write_files(
        tmp_path,
        {
            **PROJECT,
            "app/__init__.py": "",
            "features/__init__.py": "",
            "app/server.py": SERVER,
            "app/deps.py": "def load_ok(x: int) -> str:\n    return str(x)\n",
            "app/expose.py": "from app.server import mcp\n\n\ndef expose(fn):\n    mcp.add_tool(fn)\n    return fn\n",
            "features/gamma.py": _HELPER.format(name="dup"),
            "features/beta.py": _HELPER.format(name="beta"),
            "features/alpha.py": _EXPOSED.format(name="alpha"),
            "features/delta.py": _EXPOSED.format(name="dup"),
            "app/relay.py": "from mcp.server import MCPServer\nfrom features import alpha, gamma\n\n\n"
            "def install(server: MCPServer) -> None:\n    gamma.register(server)\n",
            "app/main.py": "from mcp.server import MCPServer\nfrom features import alpha, gamma\n\n\n"
            "def make() -> MCPServer:\n    s = MCPServer('y')\n    gamma.register(s)\n    return s\n",
        },
    )
    cache = tmp_path / ".cache"
    _as_cold(tmp_path, ["features/alpha.py", "features/gamma.py"], cache)
    (tmp_path / "app" / "main.py").write_text(
        "from app.server import mcp\nfrom features import alpha, gamma\n\ngamma.register(mcp)\n"
    )
    _as_cold(tmp_path, ["features/beta.py", "features/alpha.py"], cache)
    assert ("MCPD110", "features/gamma.py", "dup") in _found(_as_cold(tmp_path, ["features/gamma.py"], cache))


_PLAIN = """\
from mcp.server import MCPServer


def register(server: MCPServer) -> None:
    @server.tool()
    def {name}(x: int) -> str:
        return str(x)
"""


def test_helpers_whose_edited_caller_no_longer_calls_them_are_checked_again(tmp_path: Path) -> None:
    """Found by an attack (older than cross-list adoption): `app/main.py` hands `mcp` to
    `delta`, `gamma` and `alpha`, the last two registering `gamma` (MCPD110; the SDK logs the
    duplicate). After `lint features/gamma.py`, `main.py` is edited to call `delta` alone;
    `lint features/alpha.py features/gamma.py app/main.py` took up the helpers' records
    without `main.py`'s (edited), so nothing told the run to check them again with the new
    caller, and the duplicate stayed reported. A helper's record is now taken only with its
    callers' (`adoption._drop_uncalled`)."""
    main = """\
from mcp.server import MCPServer

from app.server import mcp
from features import {imports}


def install_all(server: MCPServer) -> None:
{calls}

install_all(mcp)
"""
    write_files(
        tmp_path,
        {
            **PROJECT,
            "app/__init__.py": "",
            "features/__init__.py": "",
            "app/server.py": SERVER,
            "features/alpha.py": _PLAIN.format(name="gamma"),
            "features/gamma.py": _PLAIN.format(name="gamma"),
            "features/delta.py": _PLAIN.format(name="beta"),
            "app/main.py": main.format(
                imports="alpha, delta, gamma",
                calls="    delta.register(server)\n    gamma.register(server)\n    alpha.register(server)\n",
            ),
        },
    )
    assert "gamma" in sdk(tmp_path, "import app.main").stderr  # the SDK's duplicate warning
    cache = tmp_path / ".cache"
    _as_cold(tmp_path, ["features/gamma.py"], cache)
    (tmp_path / "app" / "main.py").write_text(
        main.format(imports="delta", calls="    delta.register(server)\n")
    )
    assert sdk(tmp_path, "import app.main").returncode == 0
    given = ["features/alpha.py", "features/gamma.py", "app/main.py"]
    assert not _found(_as_cold(tmp_path, given, cache))


def test_a_caller_turned_factory_after_lint_dot_moves_the_helpers_tools(tmp_path: Path) -> None:
    """Found by an attack (older than cross-list adoption): `features/gamma.py` registers
    `beta` on the server it is handed, `features/beta.py` applies `@expose` (adding to
    `app.server`'s `mcp`) to its own `beta`. `app/main.py` hands `mcp` to `gamma` (a duplicate
    on `mcp`), then is edited to hand it a server of its own; `lint app/deps.py` then builds
    `main.py` anew. `lint features/delta.py features/gamma.py` took `main.py`'s record from that
    run and `gamma`'s (coupled) from `lint .`'s, before the edit: nothing re-checked `gamma`,
    and the duplicate stayed reported. A coupled record is taken only with its callers' from
    the same state (`adoption._drop_uncalled`)."""
    write_files(
        tmp_path,
        {
            **PROJECT,
            "app/__init__.py": "",
            "features/__init__.py": "",
            "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("y")\n',
            "app/deps.py": "def load_ok(x: int) -> str:\n    return str(x)\n\n\n"
            "def load_d(nope: str) -> str:\n    return nope\n",
            "app/expose.py": "from app.server import mcp\n\n\ndef expose(fn):\n    mcp.add_tool(fn)\n    return fn\n",
            "features/gamma.py": _HELPER.format(name="beta"),
            "features/delta.py": _HELPER.format(name="delta"),
            "features/beta.py": _EXPOSED.format(name="beta")
            .replace("from app.deps import load_ok", "from app import deps")
            .replace("Resolve(load_ok)", "Resolve(deps.load_d)"),
            "app/main.py": "from app.server import mcp\nfrom features import gamma\nfrom features import beta\n"
            "from features import delta\n\ngamma.register(mcp)\ndelta.register(mcp)\n",
        },
    )
    cache = tmp_path / ".cache"
    _as_cold(tmp_path, ["."], cache)
    (tmp_path / "app" / "main.py").write_text(
        "from mcp.server import MCPServer\nfrom features import gamma\nfrom features import beta\n"
        "from features import delta\n\n\ndef make() -> MCPServer:\n    s = MCPServer('y')\n"
        "    gamma.register(s)\n    delta.register(s)\n    return s\n"
    )
    _as_cold(tmp_path, ["app/deps.py"], cache)
    _as_cold(tmp_path, ["features/delta.py", "features/gamma.py"], cache)
