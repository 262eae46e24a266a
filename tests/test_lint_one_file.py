"""`mcpdeps lint FILE` on a module of resolvers says about FILE what `lint .` says about it.

The SDK refuses a resolver when a tool that runs it is registered, in another file: the run
also checks the project's files that import FILE (directly, through a package's `__init__`,
or through another module), found with the import index kept under the lint cache
(`resolver_core/companions.py`), and reports what they find located in FILE. Checked
here for every file of a project with errors spread over several modules, cold and warm,
with and without the cache, and while the project changes under the index: a new file that
imports FILE, an edit that adds such an import, a package marker that renames a module.
"""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest
from conftest import lint_diagnostics, located, run_mcpdeps, write_files
from coupled_projects import CALLERS, HEADER, project
from hypothesis import given, settings
from hypothesis import strategies as st
from mcpdeps.resolver_core.import_scan import imported_modules, scan_imports

FILES = {
    "pyproject.toml": "[project]\nname = 'shop'\nversion = '0'\n",
    "app.py": """\
        from typing import Annotated

        from mcp.server import MCPServer
        from mcp.server.mcpserver import Resolve

        from shop import check_quota, owner

        mcp = MCPServer("shop")


        @mcp.tool()
        def quota(user: str, q: Annotated[int, Resolve(check_quota)]) -> str:
            return str(q)


        @mcp.tool()
        def show(title: str, who: Annotated[str, Resolve(owner)]) -> str:
            return who


        @mcp.tool()
        def rename(_name: str) -> str:
            return _name
        """,
    "shop/__init__.py": "from .deps import check_quota as check_quota, owner as owner\n",
    "shop/deps.py": """\
        from __future__ import annotations

        from typing import Annotated

        from mcp.server.mcpserver import Resolve

        from . import plans


        def check_quota(user: str, plan: Annotated[str, Resolve(plans.plan_of)]) -> int:
            return 1


        def owner(user_id: str) -> str:
            return user_id


        def unused(x: Annotated[int, Resolve(nowhere)]) -> int:
            return x
        """,
    "shop/plans.py": """\
        from __future__ import annotations

        from typing import Annotated

        from mcp.server.mcpserver import Resolve

        import shop.deps


        def plan_of(user: str, quota: Annotated[int, Resolve(shop.deps.check_quota)]) -> str:
            return "pro"
        """,
    "shop/notes.py": "'''Notes: nothing about servers here.'''\n",
}


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    write_files(tmp_path, FILES)
    return tmp_path


def test_each_file_alone_equals_lint_dot_restricted_to_it(shop: Path) -> None:
    whole = lint_diagnostics(shop, "--no-cache", ".")
    assert {d["path"] for d in whole} == {"app.py", "shop/deps.py", "shop/plans.py"}, whole
    for path in ("shop/deps.py", "shop/plans.py", "shop/__init__.py", "shop/notes.py"):
        cold = lint_diagnostics(shop, path)
        warm = lint_diagnostics(shop, path)  # the index and the states kept
        uncached = lint_diagnostics(shop, "--no-cache", path)
        assert cold == warm == uncached == located(whole, path), path
    assert [d["code"] for d in located(whole, "shop/deps.py")] == ["MCPD001", "MCPD002"]
    # A tool file: its own lines alike (its tools' findings in the modules it imports come too).
    assert located(lint_diagnostics(shop, "app.py"), "app.py") == located(whole, "app.py") != []


def test_a_cycle_is_reported_in_every_file_holding_an_edge_at_its_own_edge(shop: Path) -> None:
    cycles = [d for d in lint_diagnostics(shop, "--no-cache", ".") if d["code"] == "MCPD001"]
    assert [(d["path"], d["line"]) for d in cycles] == [("shop/deps.py", 10), ("shop/plans.py", 10)]
    assert cycles[0]["message"] == cycles[1]["message"]
    assert cycles[0]["related"] == cycles[1]["related"]
    edges, tools = cycles[0]["related"][:2], cycles[0]["related"][2:]
    assert {r["path"] for r in edges} == {"shop/deps.py", "shop/plans.py"}
    assert [r["message"] for r in tools] and all(r["message"].endswith("runs this resolver") for r in tools)
    both = lint_diagnostics(shop, "shop/plans.py", "shop/deps.py")
    assert [(d["path"], d["line"]) for d in both if d["code"] == "MCPD001"] == [
        ("shop/deps.py", 10),
        ("shop/plans.py", 10),
    ]


def test_a_tool_file_still_reports_what_its_tools_find_elsewhere(shop: Path) -> None:
    """pre-commit passing only an edited tool file must still fail on the resolver it uses."""
    found = lint_diagnostics(shop, "app.py")
    assert {d["path"] for d in found} == {"app.py", "shop/deps.py", "shop/plans.py"}


def test_the_index_follows_the_project_as_it_changes(shop: Path) -> None:
    (shop / "shop" / "deps.py").write_text(
        "def owner(user_id: str) -> str:\n    return user_id\n\n\ndef check_quota(user: str) -> int:\n    return 1\n",
        encoding="utf-8",
    )
    assert lint_diagnostics(shop, "shop/deps.py") == [
        d for d in lint_diagnostics(shop, "--no-cache", ".") if d["path"] == "shop/deps.py"
    ]
    assert [d["code"] for d in lint_diagnostics(shop, "shop/deps.py")] == [
        "MCPD002"
    ]  # owner's user_id, for `show`
    # A new tool file that runs `check_quota` without `user`: deps.py is wrong for it too.
    write_files(
        shop,
        {
            "admin/tools.py": """\
                from typing import Annotated

                from mcp.server import MCPServer
                from mcp.server.mcpserver import Resolve

                from shop.deps import check_quota

                admin = MCPServer("admin")


                @admin.tool()
                def limits(account: str, q: Annotated[int, Resolve(check_quota)]) -> str:
                    return str(q)
                """
        },
    )
    found = lint_diagnostics(shop, "shop/deps.py")
    assert sorted(d["tool"] for d in found) == ["limits", "show"]
    assert found == located(lint_diagnostics(shop, "--no-cache", "."), "shop/deps.py")
    # An edit that makes a file the index already read import the module.
    limits = (shop / "admin" / "tools.py").read_text(encoding="utf-8")
    (shop / "admin" / "tools.py").write_text("x = 1\n", encoding="utf-8")
    assert [d["tool"] for d in lint_diagnostics(shop, "shop/deps.py")] == ["show"]
    (shop / "shop" / "notes.py").write_text(limits, encoding="utf-8")
    found = lint_diagnostics(shop, "shop/deps.py")
    assert sorted(d["tool"] for d in found) == ["limits", "show"]
    assert found == located(lint_diagnostics(shop, "--no-cache", "."), "shop/deps.py")


def test_a_file_outside_any_project_is_checked_alone(tmp_path: Path) -> None:
    folder = tmp_path / "loose"
    write_files(folder, {k: v for k, v in FILES.items() if k != "pyproject.toml"})
    assert not any(
        (p / "pyproject.toml").exists() or (p / ".git").exists() for p in [folder, *folder.parents]
    )
    # Run in the folder holding it (an archive of a repository, no marker): that folder is the
    # project, and its importers are checked as `lint .` there checks them.
    found = lint_diagnostics(folder, "--no-cache", "shop/deps.py")
    assert found == located(lint_diagnostics(folder, "--no-cache", "."), "shop/deps.py") != []
    # Run elsewhere, nothing marks where its project ends: it is checked alone.
    (tmp_path / "elsewhere").mkdir()
    assert lint_diagnostics(tmp_path / "elsewhere", "--no-cache", str(folder / "shop" / "deps.py")) == []


def test_the_import_scan_lists_every_import_ast_finds() -> None:
    """The pattern may list more than `ast` (imports in strings), never less: every import
    statement of this repository's own modules, with relative ones resolved alike."""
    import ast

    repo = Path(__file__).resolve().parent.parent
    checked = 0
    for path in sorted(repo.glob("*/**/*.py")):
        if ".venv" in path.parts or ".mcpdeps_cache" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        expected: set[str] = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                expected.update(imported_modules([(0, a.name, []) for a in node.names], "pkg.sub.mod", False))
            elif isinstance(node, ast.ImportFrom):
                names = [a.name for a in node.names]
                expected.update(
                    imported_modules([(node.level, node.module or "", names)], "pkg.sub.mod", False)
                )
        found = imported_modules(scan_imports(text), "pkg.sub.mod", False)
        assert expected <= found, (path, expected - found)
        checked += 1
    assert checked > 100


def test_an_import_index_is_kept_and_only_changed_files_are_read_again(
    shop: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcpdeps.resolver_core import import_index
    from mcpdeps.resolver_core.discovery import discover
    from mcpdeps.resolver_core.import_index import ImportIndex

    cache = shop / ".mcpdeps_cache"
    files = [f.path for f in discover([shop], [], shop)]
    monkeypatch.setattr(import_index, "RACY_NS", 10**18)  # every file changed "just now"
    fresh = ImportIndex.open(shop, [], cache)
    fresh.refresh(files)
    fresh.store()
    racy = ImportIndex.open(shop, [], cache)
    assert racy.entries == {}, "files changed within RACY_NS are not vouched for by their stat"
    monkeypatch.setattr(import_index, "RACY_NS", 0)  # as if the files were older
    fresh.refresh(files)
    fresh.changed = True
    fresh.store()
    index = ImportIndex.open(shop, [], cache)
    assert {Path(p).name for p in index.entries} >= {"app.py", "deps.py", "plans.py", "__init__.py"}
    index.refresh(files)
    assert not index.changed  # every stat still vouches for its entry
    app = shop / "app.py"
    os.utime(app, ns=(app.stat().st_atime_ns, app.stat().st_mtime_ns + 10**9))
    index.refresh(files)
    assert index.changed


def test_a_src_layout_a_subfolder_and_stdin_find_the_same_importers(tmp_path: Path) -> None:
    write_files(tmp_path, {k if k == "pyproject.toml" else f"src/{k}": v for k, v in FILES.items()})
    whole = lint_diagnostics(tmp_path, "--no-cache", ".")
    deps = "src/shop/deps.py"
    assert [d["code"] for d in located(whole, deps)] == ["MCPD001", "MCPD002"]
    assert lint_diagnostics(tmp_path, deps) == located(whole, deps)
    folder = lint_diagnostics(tmp_path, "src/shop")  # app.py is outside the folder given
    assert folder == [d for d in whole if d["path"].startswith("src/shop/")]
    text = (tmp_path / deps).read_text(encoding="utf-8")
    proc = run_mcpdeps(
        "lint", "--format", "json", "--exit-zero", "--stdin-filename", deps, input=text, cwd=tmp_path
    )
    assert json.loads(proc.stdout)["diagnostics"] == located(whole, deps)


def test_files_of_a_generated_tree_alone_equal_lint_dot(tmp_path: Path) -> None:
    """The benchmark's tree (`benchmarks/gen_corpus.py`): chained resolvers across packages,
    cycles, and every error kind, checked file by file against one `lint .`."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from gen_corpus import generate

    tree = tmp_path / "tree"
    generate(tree, 120)
    whole = lint_diagnostics(tree, "--no-cache", ".")
    assert len({d["path"] for d in whole}) >= 2
    picked = [*sorted({d["path"] for d in whole}), "pkg0/deps_0.py", "pkg1/deps_41.py", "app/server.py"]
    for path in picked:
        assert located(lint_diagnostics(tree, path), path) == located(whole, path), path


def test_a_module_of_a_namespace_package_finds_importers_under_its_dotted_name(tmp_path: Path) -> None:
    """`ns/sub/` has no `__init__.py`: `deps.py` is `deps` seen from its folder, and
    `ns.sub.deps` to the tool file that imports it from the project root."""
    write_files(
        tmp_path,
        {
            "pyproject.toml": FILES["pyproject.toml"],
            "ns/sub/deps.py": "def owner(user_id: str) -> str:\n    return user_id\n",
            "ns/tools/app.py": """\
                from typing import Annotated

                from mcp.server import MCPServer
                from mcp.server.mcpserver import Resolve

                from ns.sub.deps import owner

                mcp = MCPServer("ns")


                @mcp.tool()
                def show(title: str, who: Annotated[str, Resolve(owner)]) -> str:
                    return who
                """,
        },
    )
    deps = "ns/sub/deps.py"
    whole = located(lint_diagnostics(tmp_path, "--no-cache", "."), deps)
    assert [d["code"] for d in whole] == ["MCPD002"]
    assert lint_diagnostics(tmp_path, deps) == lint_diagnostics(tmp_path, "--no-cache", deps) == whole


_SAME = "\n\n@mcp.tool()\ndef same(x: int) -> int:\n    return x\n"
_HELPER = "def register(s):\n    @s.tool()\n    def same(x: int) -> int:\n        return x\n"


@pytest.mark.parametrize(
    "files",
    [
        pytest.param(
            {
                "server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('s')\n",
                "t1.py": "from server import mcp" + _SAME,
                "t2.py": "from server import mcp" + _SAME,
                "main.py": "import t1\nimport t2\nfrom server import mcp\n\nmcp.run()\n",
            },
            id="modules-importing-the-server",
        ),
        pytest.param(
            {
                "t1.py": _HELPER,
                "t2.py": _HELPER,
                "main.py": (
                    "from mcp.server import MCPServer\n\nimport t1\nimport t2\n\n\n"
                    "def build() -> MCPServer:\n    s = MCPServer('s')\n    t1.register(s)\n"
                    "    t2.register(s)\n    return s\n"
                ),
            },
            id="helpers-called-by-a-factory",
        ),
    ],
)
def test_a_duplicate_tool_name_across_files_is_seen_from_either_file(
    tmp_path: Path, files: dict[str, str]
) -> None:
    """MCPD110 is a property of the server: `lint t2.py` must see the tool `t1.py` registers
    first on it (t1 neither imports t2 nor is imported by it), and `lint t1.py` must not call
    its own registration the second."""
    write_files(tmp_path, {"pyproject.toml": FILES["pyproject.toml"], **files})
    whole = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert [(d["path"], d["code"]) for d in whole] == [("t2.py", "MCPD110")]
    for path in files:
        assert located(lint_diagnostics(tmp_path, path), path) == located(whole, path), path
        assert located(lint_diagnostics(tmp_path, "--no-cache", path), path) == located(whole, path), path


_PIECES = [
    "import",
    "from",
    " ",
    "\t",
    "\n",
    ";",
    ":",
    ".",
    ",",
    "(",
    ")",
    "#",
    "\\\n",
    "a",
    "b.c",
    " as ",
    "*",
    "'",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
def test_trying_only_the_lines_with_import_finds_what_a_whole_text_search_finds(text: str) -> None:
    """`_import_matches` skips the lines without `import` (most of a typed module, whose `:`
    each start a try of the whole-text search): the same matches, in the same order."""
    from mcpdeps.resolver_core.import_scan import _IMPORT, _import_matches

    assert [m.span() for m in _import_matches(text)] == [m.span() for m in _IMPORT().finditer(text)]


SERVED = {
    "pyproject.toml": "[project]\nname = 'served'\nversion = '0'\n",
    "app/__init__.py": "",
    "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('s')\n",
    "app/deps.py": """\
        from mcp.server import MCPServer

        def owner(user_id: str) -> str:
            return user_id
        """,
    "app/tools_a.py": """\
        from typing import Annotated

        from mcp.server.mcpserver import Resolve

        from app.deps import owner
        from app.server import mcp


        @mcp.tool()
        def search(q: str, who: Annotated[str, Resolve(owner)]) -> str:
            return who
        """,
    "app/tools_b.py": """\
        from app.server import mcp


        @mcp.tool()
        def search(q: str) -> str:
            return q
        """,
    "app/feature.py": """\
        from mcp.server import MCPServer


        def register(server: MCPServer) -> None:
            @server.tool()
            def search(q: str) -> str:
                return q
        """,
    "app/main.py": "from app.feature import register\nfrom app.server import mcp\n\nregister(mcp)\n",
}


def test_a_module_that_registers_nothing_is_checked_with_its_importers_only(tmp_path: Path) -> None:
    """`deps.py` registers no tool and hands no server on: no duplicate name can be located in
    it, so the files sharing the server (`tools_b`, the factory's caller) are not
    checked with it; a tool module still is checked with every file registering on its server."""
    from mcpdeps.resolver_core.companions import run_files

    write_files(tmp_path, SERVED)
    whole = lint_diagnostics(tmp_path, "--no-cache", ".")
    companions = {f.display for f in run_files(["app/deps.py"], [], tmp_path) if f.companion}
    assert companions == {"app/tools_a.py"}
    assert lint_diagnostics(tmp_path, "--no-cache", "app/deps.py") == located(whole, "app/deps.py")
    companions = {f.display for f in run_files(["app/tools_b.py"], [], tmp_path) if f.companion}
    assert {"app/tools_a.py", "app/main.py"} <= companions
    for path in ("app/tools_a.py", "app/tools_b.py", "app/feature.py"):
        assert located(lint_diagnostics(tmp_path, "--no-cache", path), path) == located(whole, path), path
    assert {d["code"] for d in whole} >= {"MCPD110"}


@pytest.mark.parametrize(
    ("text", "serves"),
    [
        ("from mcp.server import MCPServer\n\ndef owner(u: str) -> str:\n    return u\n", False),
        ("import json\nfrom mcp.server import (\n    MCPServer,\n)\n", True),  # too often: never wrong
        ("from mcp.server import MCPServer\n\nmcp = MCPServer('s')\n", True),
        ("def install(server: MCPServer) -> None:\n    pass\n", True),
        ("from mcp.server import MCPServer; shop: ShopServer = make()\n", True),
        ("mcp.add_tool(fn)\n", True),
        ("expose = app.prompt\n", True),
    ],
)
def test_may_serve_never_says_no_to_a_registration_or_a_server_variable(text: str, serves: bool) -> None:
    from mcpdeps.resolver_core.import_index import may_serve

    assert may_serve(text.encode()) is serves


_LATE = {
    "pyproject.toml": FILES["pyproject.toml"],
    "a_main.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('s')\n",
    "b_extra.py": "from a_main import mcp\nimport y_late\n\ny_late.register(mcp)\n",
    "m_tools.py": "from a_main import mcp" + _SAME,
    "n_tools.py": "from a_main import mcp" + _SAME,
    "y_late.py": "import a_main\n\n\n" + _HELPER,
    "z_tools.py": "from a_main import mcp" + _SAME,
}


def test_files_registering_after_the_given_one_are_not_checked_for_duplicate_names(tmp_path: Path) -> None:
    """A duplicate name is reported at the second registration, in the order of the run's files:
    `lint m_tools.py` needs the files before it on the server (`n_tools.py` and `z_tools.py`
    come after, and can only be the second), but keeps `y_late.py`, which `b_extra.py` (kept)
    imports: not one of the run's files, its tools would be `b_extra`'s, registered first.
    `a_main.py`, the server's module, is checked too: its own registrations come first."""
    from mcpdeps.resolver_core.companions import run_files

    write_files(tmp_path, _LATE)
    whole = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert [(d["path"], d["code"]) for d in whole] == [
        ("n_tools.py", "MCPD110"),
        ("y_late.py", "MCPD110"),
        ("z_tools.py", "MCPD110"),
    ]
    companions = {f.display for f in run_files(["m_tools.py"], [], tmp_path) if f.companion}
    assert companions == {"a_main.py", "b_extra.py", "y_late.py"}
    assert {"b_extra.py", "m_tools.py", "n_tools.py", "y_late.py"} <= {
        f.display for f in run_files(["z_tools.py"], [], tmp_path)
    }
    for path in _LATE:
        if path.endswith(".py"):
            assert located(lint_diagnostics(tmp_path, "--no-cache", path), path) == located(whole, path), path
            assert located(lint_diagnostics(tmp_path, path), path) == located(whole, path), path


USES_DEPS = (
    "from features.deps import load_d\n\n\ndef register(server) -> None:\n"
    "    @server.tool()\n    def uses_d(record: Annotated[str, Resolve(load_d)]) -> str:\n        return record\n\n"
)


@pytest.mark.parametrize(
    "through", [False, True], ids=["imported by the helper", "through a resolver module"]
)
@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_a_resolver_module_used_by_a_helpers_tools_alone(tmp_path: Path, caller: str, through: bool) -> None:
    """A resolver module whose resolver only the tools of a `register(server)` helper run
    (the helper imports it, or a resolver module between them does): its MCPD002 exists
    only while something calls the helper, and that caller (`app/main.py`, a helper passing
    the server on) registers nothing itself. Checked alone, the module must be built with it
    all the same, or the SDK's refusal at registration is lost."""
    main, extra = CALLERS[caller]
    project(tmp_path, main, extra)
    alpha = tmp_path / "features/alpha.py"
    alpha.write_text(alpha.read_text().replace("\ndef register(server) -> None:\n", USES_DEPS, 1))
    (tmp_path / "features/deps.py").write_text(
        HEADER + "\n\ndef load_d(nope: str) -> str:\n    return nope\n"
    )
    if through:
        (tmp_path / "features/mid.py").write_text(
            HEADER + "\nfrom features.deps import load_d\n\n\n"
            "def load_m(r: Annotated[str, Resolve(load_d)]) -> str:\n    return r\n"
        )
        alpha.write_text(
            alpha.read_text().replace(
                "from features.deps import load_d", "from features.mid import load_m as load_d"
            )
        )
    whole = located(lint_diagnostics(tmp_path, "--no-cache", "."), "features/deps.py")
    assert [d["code"] for d in whole] == ["MCPD002"]
    assert located(lint_diagnostics(tmp_path, "--no-cache", "features/deps.py"), "features/deps.py") == whole
    assert located(lint_diagnostics(tmp_path, "features/deps.py"), "features/deps.py") == whole


_THROUGH = {
    "pyproject.toml": FILES["pyproject.toml"],
    "app/__init__.py": "",
    "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('s')\n",
    "app/deps.py": """\
        from typing import Annotated

        from mcp.server.mcpserver import Resolve


        def who(usr_id: str) -> str:
            return usr_id


        WhoDep = Annotated[str, Resolve(who)]
        """,
    "app/more.py": """\
        from typing import Annotated

        from mcp.server.mcpserver import Resolve

        from app.deps import WhoDep, who


        def upper(w: WhoDep) -> str:
            return w.upper()


        UpperDep = Annotated[str, Resolve(upper)]
        """,
    "feature/__init__.py": "from feature.impl import register\n",
    "feature/impl.py": """\
        from app.more import UpperDep


        def register(server) -> None:
            @server.tool()
            def shout(user_id: str, u: UpperDep) -> str:
                return u
        """,
    "app/tools.py": """\
        from app import more
        from app.server import mcp


        @mcp.tool()
        def ask(user_id: str, w: more.WhoDep) -> str:
            return w
        """,
    "app/main.py": "import feature\nfrom app.server import mcp\n\nfeature.register(mcp)\n",
}


def test_a_resolver_module_is_checked_with_what_registers_the_tools_that_may_run_it(tmp_path: Path) -> None:
    """`deps.py` registers nothing: what is located in it comes from the tools that run its
    resolvers. Of its importers, `app/more.py` (a resolver module) imports nothing that may
    register, so no tool of its own or of anything it calls can run `deps.py`'s resolvers:
    it is only read. The helper `feature/impl.py` registers on the server `app/main.py`
    passes, and `main.py` (which registers nothing itself) and the package `__init__`
    re-exporting the helper are kept: without the call the helper's tools are never
    registered. Alone, cold, cached, after other lists of files and after edits, `deps.py`
    gets what `lint .` gives it."""
    from mcpdeps.resolver_core.companions import run_files

    write_files(tmp_path, _THROUGH)
    whole = lint_diagnostics(tmp_path, "--no-cache", ".")
    companions = {f.display for f in run_files(["app/deps.py"], [], tmp_path) if f.companion}
    assert companions == {"app/main.py", "app/tools.py", "feature/__init__.py", "feature/impl.py"}
    expected = located(whole, "app/deps.py")
    assert [d["code"] for d in expected] == ["MCPD002"]
    assert {r["message"] for r in expected[0]["related"]} >= {
        "tool 'ask' runs this resolver",
        "tool 'shout' runs this resolver",
    }
    assert lint_diagnostics(tmp_path, "--no-cache", "app/deps.py") == expected
    lint_diagnostics(tmp_path, "app/tools.py")  # an earlier commit's list of files, then deps.py edited
    lint_diagnostics(tmp_path, "app/main.py", "app/more.py")
    (tmp_path / "app/deps.py").write_text(textwrap.dedent(_THROUGH["app/deps.py"]) + "# edited\n")
    assert lint_diagnostics(tmp_path, "app/deps.py") == expected
    (tmp_path / "app/deps.py").write_text(textwrap.dedent(_THROUGH["app/deps.py"]) + "# again\n")
    assert lint_diagnostics(tmp_path, "app/deps.py") == expected


_DECORATED_TOOL = "def t(record: Annotated[str, Resolve(load_d)]) -> str:\n    return record\n"
_IMPORTS_TOOLS = "from app import tools  # noqa: F401\nfrom app.server import mcp\n"
REGISTERED_ELSEWHERE = {
    "decorator of another module": {
        "app/h.py": "from app.server import mcp\n\n\ndef deco(fn):\n    return mcp.tool()(fn)\n",
        "app/tools.py": HEADER
        + "\nfrom app import h\nfrom app.deps import load_d\n\n\n@h.deco\n"
        + _DECORATED_TOOL,
    },
    "decorator re-exported by a package": {
        "lib/__init__.py": "from lib.h import deco as deco\n",
        "lib/h.py": "from app.server import mcp\n\n\ndef deco(fn):\n    return mcp.tool()(fn)\n",
        "app/tools.py": HEADER
        + "\nfrom app.deps import load_d\nfrom lib import deco\n\n\n@deco\n"
        + _DECORATED_TOOL,
    },
    "helper registering what it is passed": {
        "app/h.py": "from app.server import mcp\n\n\ndef register(fn):\n    mcp.add_tool(fn)\n",
        "app/tools.py": HEADER
        + "\nfrom app import h\nfrom app.deps import load_d\n\n\n"
        + _DECORATED_TOOL
        + "\n\nh.register(t)\n",
    },
    "decorator factory": {
        "app/h.py": "from app.server import mcp\n\n\ndef tool():\n    return mcp.tool()\n",
        "app/tools.py": HEADER
        + "\nfrom app import h\nfrom app.deps import load_d\n\n\n@h.tool()\n"
        + _DECORATED_TOOL,
    },
    "method registering on its server": {
        "app/h.py": "class Registry:\n    def __init__(self, server) -> None:\n        self.server = server\n\n"
        "    def add(self, fn):\n        self.server.tool()(fn)\n        return fn\n",
        "app/reg.py": "from app.h import Registry\nfrom app.server import mcp\n\nreg = Registry(mcp)\n",
        "app/tools.py": HEADER
        + "\nfrom app.deps import load_d\nfrom app.reg import reg\n\n\n@reg.add\n"
        + _DECORATED_TOOL,
    },
}
"""A tool whose function is written in `app/tools.py` but registered by code of another
module, which imports neither `tools.py` nor `deps.py`. `import app.main` fails in the SDK
(`InvalidSignature` for `load_d`) for each."""


def _registered_elsewhere(root: Path, shape: str) -> None:
    write_files(
        root,
        {
            "pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n",
            "app/__init__.py": "",
            "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('a')\n",
            "app/deps.py": "def load_d(nope: str) -> str:\n    return nope\n",
            "app/main.py": _IMPORTS_TOOLS,
            **REGISTERED_ELSEWHERE[shape],
        },
    )


@pytest.mark.parametrize("shape", sorted(REGISTERED_ELSEWHERE))
def test_a_resolver_run_by_a_tool_registered_elsewhere_alone(tmp_path: Path, shape: str) -> None:
    """`deps.py` alone is built with what registers its importers' tools: `tools.py` imports
    the decorator's or helper's module (directly or through a package `__init__`), which
    registers the functions `tools.py` hands it. Alone, cold and cached, and with the tool
    file, it gets what `lint .` gives it."""
    _registered_elsewhere(tmp_path, shape)
    whole = lint_diagnostics(tmp_path, "--no-cache", ".")
    for path in ("app/deps.py", "app/tools.py"):
        expected = located(whole, path)
        assert located(lint_diagnostics(tmp_path, "--no-cache", path), path) == expected, path
        assert located(lint_diagnostics(tmp_path, path), path) == expected, path
    assert [d["code"] for d in located(whole, "app/deps.py")] == ["MCPD002"]


@pytest.mark.parametrize("shape", sorted(REGISTERED_ELSEWHERE))
def test_lint_dot_agrees_with_the_sdk_on_a_tool_registered_elsewhere(tmp_path: Path, shape: str) -> None:
    """The SDK refuses `load_d` when `app.main` is imported (the oracle, run as the user
    would); `lint .` reports it in `app/deps.py`."""
    import subprocess
    import sys

    _registered_elsewhere(tmp_path, shape)
    sdk = subprocess.run(
        [sys.executable, "-c", "import app.main"], cwd=tmp_path, capture_output=True, text=True
    )
    assert "InvalidSignature: Resolver 'load_d' parameter 'nope'" in sdk.stderr, sdk.stderr
    whole = located(lint_diagnostics(tmp_path, "--no-cache", "."), "app/deps.py")
    assert [d["code"] for d in whole] == ["MCPD002"]


@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_a_helper_alone_reports_the_duplicate_names_lint_dot_reports(tmp_path: Path, caller: str) -> None:
    main, extra = CALLERS[caller]
    project(tmp_path, main, extra)
    whole = located(lint_diagnostics(tmp_path, "--no-cache", "."), "features/alpha.py")
    assert (
        located(lint_diagnostics(tmp_path, "--no-cache", "features/alpha.py"), "features/alpha.py") == whole
    )


@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_a_tool_module_alone_meets_the_helpers_tools_where_lint_dot_does(tmp_path: Path, caller: str) -> None:
    """`app/main.py` hands `app.server`'s `mcp` to the helpers and is checked with
    `app/tools.py` (it imports the server): the helpers' `shared`, read through it, is
    registered after `tools.py`'s as `lint .` orders them (by the file writing each
    registration), so `tools.py` alone reports no duplicate, as `lint .` does not."""
    main, extra = CALLERS[caller]
    project(tmp_path, main, extra)
    whole = located(lint_diagnostics(tmp_path, "--no-cache", "."), "app/tools.py")
    assert "MCPD110" not in {d["code"] for d in whole}
    assert located(lint_diagnostics(tmp_path, "--no-cache", "app/tools.py"), "app/tools.py") == whole
