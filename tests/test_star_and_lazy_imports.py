"""Resolvers reached through a package's re-exports: star imports of star imports, and a PEP 562
module `__getattr__` importing them lazily. Checked against the SDK itself.

Python binds `from m import *` from `m`'s namespace (or its `__all__`), which already holds
what `m` star-imported, and asks `m.__getattr__` for a name `m` does not bind: the SDK then
reads the resolver those hand out. Each refused project (`load_d(nope)`) must be reported
MCPD002 in the resolver's file by `lint .` and by `lint FILE` alone, and its clean twin
accepted (`published_shapes.check_both_ways`); every file alone reports what `lint .` does.
A `__getattr__` this reading does not follow is opaque (MCPD113), never "no attribute".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import lint_diagnostics, write_files
from published_shapes import (
    CLEAN,
    PROJECT,
    check_both_ways,
    each_file_alone_reports_what_lint_dot_reports,
    sdk,
)

BAD = CLEAN[0] + "\n"
HEAD = "from typing import Annotated\n\nfrom mcp.server import MCPServer\nfrom mcp.server.mcpserver import Resolve\n"


def tool_module(imports: str, resolver: str = "load_d") -> str:
    """A module importing `imports`, binding `mcp` and registering `t(x, d)` resolved by `resolver`."""
    return (
        f'{HEAD}\n{imports}\n\nmcp = MCPServer("x")\n\n\n@mcp.tool()\n'
        f"def t(x: int, d: Annotated[str, Resolve({resolver})]) -> str:\n    return d\n"
    )


def codes(root: Path, *args: str) -> list[tuple[str, str, int]]:
    return sorted((d["code"], d["path"], d["line"]) for d in lint_diagnostics(root, "--no-cache", *args))


STAR = "from .users import *  # noqa: F403\n"
STARRED_USERS = {
    "no __all__": BAD,
    "__all__ list": '__all__ = ["load_d"]\n\n\n' + BAD,
    "__all__ extended": '__all__ = ["other"]\n__all__ += ["load_d"]\n__all__.append("more")\n\nother = more = None\n\n\n'
    + BAD,
}


@pytest.mark.parametrize("users", sorted(STARRED_USERS))
def test_a_star_import_of_a_package_star_importing_the_resolver(tmp_path: Path, users: str) -> None:
    """`from app.deps import *` where `app/deps/__init__.py` does `from .users import *`: the
    package's namespace holds `load_d`, so the tool's star import binds it."""
    files = {
        "app/deps/__init__.py": STAR,
        "app/deps/users.py": STARRED_USERS[users],
        "app/main.py": tool_module("from app.deps import *  # noqa: F403"),
    }
    check_both_ways(tmp_path / "p", files, "import app.main", "app/deps/users.py")
    each_file_alone_reports_what_lint_dot_reports(tmp_path / "p", tmp_path)


def test_three_levels_of_star_imports(tmp_path: Path) -> None:
    """Each level copies the names the one below it copied (a cycle of star imports among them
    brings nothing more and ends)."""
    files = {
        "app/api/__init__.py": "from .deps import *  # noqa: F403\nfrom app.api import *  # noqa: F403\n",
        "app/api/deps/__init__.py": STAR,
        "app/api/deps/users.py": BAD,
        "app/main.py": tool_module("from app.api import *  # noqa: F403"),
    }
    check_both_ways(tmp_path / "p", files, "import app.main", "app/api/deps/users.py")
    each_file_alone_reports_what_lint_dot_reports(tmp_path / "p", tmp_path)


@pytest.mark.parametrize(
    "init",
    ['__all__ = ["other"]\nother = None\n', "_load_d = None\n"],
    ids=["__all__ leaves it out", "private names are not copied"],
)
def test_a_star_import_copies_only_what_python_copies(tmp_path: Path, init: str) -> None:
    """`__all__` of the middle package leaves `load_d` out (and without one a `_name` is not
    copied): the SDK's server fails on an undefined name, which lint says in the tool module."""
    users = "_load_d = None\n" if init.startswith("_") else ""
    files = {
        **PROJECT,
        "app/deps/__init__.py": STAR + init,
        "app/deps/users.py": users + CLEAN[1] + "\n",
        "app/main.py": tool_module("from app.deps import *  # noqa: F403", "_load_d" if users else "load_d"),
    }
    write_files(tmp_path, files)
    assert "NameError" in sdk(tmp_path, "import app.main").stderr
    found = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert [(d["code"], d["path"]) for d in found] == [("MCPD007", "app/main.py")]
    assert "is not defined" in found[0]["message"]


LAZY = {
    "an import in the body": "def __getattr__(name: str):\n    if name == 'load_d':\n"
    "        from .users import load_d\n\n        return load_d\n    raise AttributeError(name)\n",
    "import_module of a literal": "import importlib\n\n\ndef __getattr__(name):\n"
    "    if name in ('load_d', 'other'):\n        module = importlib.import_module('.users', __name__)\n"
    "        return getattr(module, name)\n    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')\n",
    "a dict of submodules": "from importlib import import_module\n\n"
    "_LAZY = {'load_d': '.users', 'other': '.items'}\n\n\ndef __getattr__(name: str):\n"
    '    """Import on first use."""\n    if name not in _LAZY:\n        raise AttributeError(name)\n'
    "    value = getattr(import_module(_LAZY[name], __package__), name)\n"
    "    globals()[name] = value\n    return value\n",
    "a dict of (module, attribute)": "import importlib\n\n"
    "_LAZY = {'load_d': ('app.deps.users', 'load_d')}\n\n\ndef __getattr__(name):\n"
    "    target = _LAZY.get(name)\n    if target is None:\n        raise AttributeError(name)\n"
    "    module_name, attr = target\n    return getattr(importlib.import_module(module_name), attr)\n",
}


@pytest.mark.parametrize("how", sorted(LAZY))
@pytest.mark.parametrize(
    "imports",
    ["from app.deps import load_d", "import app.deps as deps", "from app.deps import *  # noqa: F403"],
    ids=["from-import", "attribute", "star import with __all__"],
)
def test_a_resolver_re_exported_by_a_package_getattr(tmp_path: Path, how: str, imports: str) -> None:
    """PEP 562: the package binds no `load_d`; Python asks its `__getattr__`, which imports it.
    A star import asks it for each name of `__all__`."""
    init = ('__all__ = ["load_d"]\n' if "*" in imports else "") + LAZY[how]
    files = {
        "app/deps/__init__.py": init,
        "app/deps/users.py": BAD,
        "app/deps/items.py": "",
        "app/main.py": tool_module(imports, "deps.load_d" if " as deps" in imports else "load_d"),
    }
    check_both_ways(tmp_path / "p", files, "import app.main", "app/deps/users.py")
    each_file_alone_reports_what_lint_dot_reports(tmp_path / "p", tmp_path)


def test_a_getattr_raising_for_the_name_leaves_it_missing(tmp_path: Path) -> None:
    """The body raises `AttributeError` for `load_d` (and no submodule bears the name): the
    import fails when the server starts, and lint says so where the tool names it."""
    files = {
        **PROJECT,
        "app/deps/__init__.py": LAZY["an import in the body"].replace("'load_d'", "'get_user'"),
        "app/deps/users.py": CLEAN[1] + "\n",
        "app/main.py": tool_module("from app.deps import load_d"),
    }
    write_files(tmp_path, files)
    assert "ImportError: cannot import name 'load_d'" in sdk(tmp_path, "import app.main").stderr
    found = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert [(d["code"], d["path"]) for d in found] == [("MCPD007", "app/main.py")]
    assert "has no attribute 'load_d'" in found[0]["message"]


UNFOLLOWED = {
    "a registry filled at run time": "from app.deps.registry import registered\n\n\n"
    "def __getattr__(name):\n    return registered()[name]\n",
    "a dict a loop fills": "import importlib\n\n_SUBMODULES = {'.users': ['load_d']}\n_LAZY = {}\n"
    "for _module, _names in _SUBMODULES.items():\n    for _name in _names:\n        _LAZY[_name] = _module\n\n\n"
    "def __getattr__(name):\n    if name not in _LAZY:\n        raise AttributeError(name)\n"
    "    return getattr(importlib.import_module(_LAZY[name], __name__), name)\n",
}


@pytest.mark.parametrize("how", sorted(UNFOLLOWED))
def test_a_getattr_this_reading_cannot_follow_is_opaque(tmp_path: Path, how: str) -> None:
    """The SDK accepts the clean resolver; lint cannot see what the `__getattr__` hands out, and
    says so (MCPD113, info) rather than that the module has no such attribute. A dict the
    literal does not hold whole (a loop fills it) is not read as that literal."""
    files = {
        **PROJECT,
        "app/deps/__init__.py": UNFOLLOWED[how],
        "app/deps/registry.py": "def registered():\n    from app.deps.users import load_d\n\n"
        "    return {'load_d': load_d}\n",
        "app/deps/users.py": CLEAN[1] + "\n",
        "app/main.py": tool_module("from app.deps import load_d"),
    }
    write_files(tmp_path, files)
    assert sdk(tmp_path, "import app.main").returncode == 0
    assert codes(tmp_path, ".") == [("MCPD113", "app/main.py", 12)]
    assert codes(tmp_path, "app/main.py") == codes(tmp_path, ".")


@pytest.mark.parametrize(
    "init",
    ['__all__ = ["users"]\n', "__all__ = ['other']\n__all__ += ['users']\nother = None\n"],
    ids=["listed", "added"],
)
def test_a_star_import_of_a_package_whose_all_lists_a_submodule(tmp_path: Path, init: str) -> None:
    """`__all__ = ["users"]`: `from app.deps import *` imports the submodule and binds it, and
    the tool reads `users.load_d`. `lint app/deps/users.py` alone finds the tool module, which
    imports nothing naming `users` (the import index reads the star import as reaching every
    module of the package)."""
    files = {
        "app/deps/__init__.py": init,
        "app/deps/users.py": BAD,
        "app/main.py": tool_module("from app.deps import *  # noqa: F403", "users.load_d"),
    }
    check_both_ways(tmp_path / "p", files, "import app.main", "app/deps/users.py")
    each_file_alone_reports_what_lint_dot_reports(tmp_path / "p", tmp_path)


ORDERED = {
    "the later star import": (
        "from app.a import *  # noqa: F403\nfrom app.b import *  # noqa: F403",
        "app/b.py",
    ),
    "a star import after an own definition": (BAD + "\nfrom app.b import *  # noqa: F403", "app/b.py"),
    "an own definition after a star import": ("from app.b import *  # noqa: F403\n\n\n" + BAD, "app/main.py"),
    "an external star import first": (
        "from os.path import *  # noqa: F403\nfrom app.b import *  # noqa: F403",
        "app/b.py",
    ),
}


@pytest.mark.parametrize("how", sorted(ORDERED))
def test_the_binding_in_force_is_the_last_in_statement_order(tmp_path: Path, how: str) -> None:
    """Python binds names in statement order, the later binding winning: of two star imports
    both binding `load_d`, or a star import and the module's own `def`, the last one is the
    resolver. Every `load_d` is refused; only the one in force is reported, and with it made
    clean the server starts. A star import of a module outside the project (`os.path`) binds
    no project name: the project's star import after it stands."""
    imports, bad = ORDERED[how]
    files = {"app/a.py": BAD, "app/b.py": BAD, "app/main.py": tool_module(imports)}
    check_both_ways(tmp_path / "p", files, "import app.main", bad)
    each_file_alone_reports_what_lint_dot_reports(tmp_path / "p", tmp_path)


def test_a_star_import_after_the_registration_binds_nothing_it_reads(tmp_path: Path) -> None:
    """The tool is registered (its hints evaluated) before the second star import runs: it
    reads the first star import's `load_d`."""
    files = {
        "app/a.py": BAD,
        "app/b.py": BAD,
        "app/main.py": tool_module("from app.a import *  # noqa: F403")
        + "\n\nfrom app.b import *  # noqa: F403, E402\n",
    }
    check_both_ways(tmp_path / "p", files, "import app.main", "app/a.py")


def test_a_star_import_coming_back_to_the_module_rebinds_what_it_holds(tmp_path: Path) -> None:
    """`app/deps/__init__.py` defines `load_d`, then star-imports `.more`, which imports
    `load_d` back from the half-imported package: the star import binds the package's own
    function again (read as the later binding, it must not loop back into itself)."""
    files = {
        "app/deps/__init__.py": BAD + "\n\nfrom .more import *  # noqa: F403, E402\n",
        "app/deps/more.py": "from app.deps import load_d\n\n__all__ = ['load_d']\n",
        "app/main.py": tool_module("from app.deps import load_d"),
    }
    check_both_ways(tmp_path / "p", files, "import app.main", "app/deps/__init__.py")
    each_file_alone_reports_what_lint_dot_reports(tmp_path / "p", tmp_path)


TYPED_LAZY = (
    "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from .users import load_d\n\n\n"
    + LAZY["an import in the body"]
)


@pytest.mark.parametrize(
    "imports",
    ["from app.deps import load_d", "import app.deps as deps"],
    ids=["from-import", "attribute"],
)
def test_a_getattr_behind_an_import_for_type_checkers(tmp_path: Path, imports: str) -> None:
    """The usual lazy package: `if TYPE_CHECKING: from .users import load_d` for type checkers,
    a `__getattr__` importing it at run time. The name is unbound when the server runs, so
    Python asks `__getattr__`: the resolver is users.py's, not "imported only under
    TYPE_CHECKING"."""
    files = {
        "app/deps/__init__.py": TYPED_LAZY,
        "app/deps/users.py": BAD,
        "app/main.py": tool_module(imports, "deps.load_d" if " as deps" in imports else "load_d"),
    }
    check_both_ways(tmp_path / "p", files, "import app.main", "app/deps/users.py")
    each_file_alone_reports_what_lint_dot_reports(tmp_path / "p", tmp_path)


COMPUTED_ALL = (
    "from importlib import import_module\n\n_LAZY = {'load_d': '.users'}\n__all__ = list(_LAZY)\n\n\n"
    "def __getattr__(name):\n    if name in _LAZY:\n        return getattr(import_module(_LAZY[name], __name__), name)\n"
    "    raise AttributeError(name)\n\n\ndef __dir__():\n    return sorted(_LAZY)\n"
)


@pytest.mark.parametrize(
    "imports",
    ["from app.deps import *  # noqa: F403", "from app.deps import load_d"],
    ids=["star import", "from-import"],
)
def test_a_lazy_package_whose_all_is_computed(tmp_path: Path, imports: str) -> None:
    """`__all__ = list(_LAZY)` and a `__getattr__` over `_LAZY`: a star import reads `__all__`
    (which this reading cannot list) and asks `__getattr__` for each name, so a name it hands
    out is bound. `list(_LAZY)` and `sorted(_LAZY)` only read the dict, which stays the literal."""
    files = {
        "app/deps/__init__.py": COMPUTED_ALL,
        "app/deps/users.py": BAD,
        "app/main.py": tool_module(imports),
    }
    check_both_ways(tmp_path / "p", files, "import app.main", "app/deps/users.py")
    each_file_alone_reports_what_lint_dot_reports(tmp_path / "p", tmp_path)


def test_a_name_bound_for_type_checkers_is_no_star_export(tmp_path: Path) -> None:
    """Without `__all__`, a star import copies the namespace and asks no `__getattr__`: a name
    imported only under `TYPE_CHECKING` is not bound, and the server fails on it."""
    files = {**PROJECT, "app/deps/__init__.py": TYPED_LAZY, "app/deps/users.py": CLEAN[1] + "\n"}
    files["app/main.py"] = tool_module("from app.deps import *  # noqa: F403")
    write_files(tmp_path, files)
    assert "NameError" in sdk(tmp_path, "import app.main").stderr
    found = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert [(d["code"], d["path"]) for d in found] == [("MCPD007", "app/main.py")]
    assert "is not defined" in found[0]["message"]


def test_a_large_lazy_package_is_read_once_for_all_its_names(tmp_path: Path) -> None:
    """A package whose `__getattr__` looks names up in a literal dict of 2,000 entries: whether
    the module only reads that dict is read in one walk of it, not in one per name a tool
    module imports (30 names took seconds). Counted as nodes visited: about as many for 20
    names as for 10."""
    import ast

    from mcpdeps.resolver_core import build_graph

    entries = "".join(f'    "name_{i}": "app.deps.users",\n' for i in range(2000))
    init = (
        f"import importlib\n\n_LAZY = {{\n{entries}}}\n\n\ndef __getattr__(name):\n"
        "    if name in _LAZY:\n        return getattr(importlib.import_module(_LAZY[name]), name)\n"
        "    raise AttributeError(name)\n"
    )
    users = "".join(f"def name_{i}(x: int) -> str:\n    return str(x)\n\n\n" for i in range(20))

    def visited(names: int) -> int:
        root = tmp_path / str(names)
        imports = "from app.deps import " + ", ".join(f"name_{i}" for i in range(names))
        tools = "".join(
            f"\n\n@mcp.tool()\ndef t{i}(x: int, d: Annotated[str, Resolve(name_{i})]) -> str:\n    return d\n"
            for i in range(names)
        )
        main = f'{HEAD}\n{imports}\n\nmcp = MCPServer("x")\n{tools}'
        write_files(
            root, {**PROJECT, "app/deps/__init__.py": init, "app/deps/users.py": users, "app/main.py": main}
        )
        count = 0
        children = ast.iter_child_nodes

        def counted(node: ast.AST) -> object:
            nonlocal count
            count += 1
            return children(node)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(ast, "iter_child_nodes", counted)
            graph = build_graph([root / "app/main.py"])
        assert len(graph.tools()) == names
        return count

    assert visited(20) < 1.3 * visited(10)
