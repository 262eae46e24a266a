"""`resolver_core.loading`: specs, the static choice of the server object, and importing under real names.

In-process on purpose (these are fast): each test gets unique module names in
its own folder, and `sys.modules` / `sys.path` are restored afterwards.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcpdeps.resolver_core.loading import LoadError, find_candidates, load_server, parse_spec

SERVER = "from mcp.server import MCPServer\n"


@pytest.fixture(autouse=True)
def isolated_imports(tmp_path: Path) -> Iterator[None]:
    """Forget the test's own modules (not the SDK's: re-importing those breaks class identity)."""
    path = list(sys.path)
    yield
    root = str(tmp_path.resolve())
    for name, module in list(sys.modules.items()):
        if (getattr(module, "__file__", None) or "").startswith(root):
            del sys.modules[name]
    sys.path[:] = path


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_file_spec_with_and_without_object(tmp_path: Path) -> None:
    write(tmp_path, "shop_a.py", SERVER + "mcp = MCPServer('A')\nother = 1\n")
    spec = parse_spec("shop_a.py", tmp_path)
    assert (spec.module, spec.root, spec.attribute) == ("shop_a", tmp_path.resolve(), None)
    assert parse_spec("shop_a.py:mcp", tmp_path).attribute == "mcp"
    loaded = load_server("shop_a.py", cwd=tmp_path)
    assert (loaded.server.name, loaded.module, loaded.attribute) == ("A", "shop_a", "mcp")


def test_package_module_spec_keeps_relative_imports_and_skips_main(tmp_path: Path) -> None:
    write(tmp_path, "src/shop_b/__init__.py", "")
    write(tmp_path, "src/shop_b/stock.py", "COPIES = 7\n")
    marker = tmp_path / "main-ran"
    write(
        tmp_path,
        "src/shop_b/app.py",
        SERVER + "from .stock import COPIES\nserver = MCPServer(f'B{COPIES}')\n"
        f"if __name__ == '__main__':\n    open({str(marker)!r}, 'w').close()\n",
    )
    by_module = load_server("shop_b.app:server", cwd=tmp_path)
    assert (by_module.server.name, by_module.module) == ("B7", "shop_b.app")
    by_file = parse_spec("src/shop_b/app.py", tmp_path)
    assert (by_file.module, by_file.root) == ("shop_b.app", (tmp_path / "src").resolve())
    assert not marker.exists()


def test_default_spec_from_pyproject_then_conventional_files(tmp_path: Path) -> None:
    write(tmp_path, "main.py", SERVER + "mcp = MCPServer('Main')\n")
    assert parse_spec(None, tmp_path).path.name == "main.py"
    write(tmp_path, "server.py", SERVER + "mcp = MCPServer('Server')\n")
    assert parse_spec(None, tmp_path).path.name == "server.py"
    write(tmp_path, "pyproject.toml", '[tool.mcpdeps]\nserve = "svc/entry.py:api"\n')
    write(tmp_path, "svc/entry.py", SERVER + "api = MCPServer('Api')\n")
    spec = parse_spec(None, tmp_path / "svc")  # found from a subfolder, relative to pyproject's folder
    assert (spec.path, spec.attribute, spec.source) == (
        (tmp_path / "svc/entry.py").resolve(),
        "api",
        "pyproject",
    )


def test_no_spec_and_no_default_file(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match=r"none of server\.py, main\.py, app\.py exists"):
        parse_spec(None, tmp_path)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("missing.py", "Server file missing.py does not exist"),
        ("no such", "is neither a Python file nor a module name"),
        ("shop.py:", "ends with ':'"),
        ("not_a_module_anywhere:mcp", "Module not_a_module_anywhere was not found"),
    ],
)
def test_bad_specs(tmp_path: Path, spec: str, message: str) -> None:
    with pytest.raises(LoadError, match=message):
        parse_spec(spec, tmp_path)


def test_factories_sync_and_async_even_inside_a_running_loop(tmp_path: Path) -> None:
    write(tmp_path, "shop_c.py", SERVER + "def make() -> MCPServer:\n    return MCPServer('Sync')\n")
    write(tmp_path, "shop_d.py", SERVER + "async def build() -> MCPServer:\n    return MCPServer('Async')\n")
    assert load_server("shop_c.py", cwd=tmp_path).server.name == "Sync"

    async def inside_loop() -> str:
        return load_server("shop_d.py:build", cwd=tmp_path).server.name

    assert asyncio.run(inside_loop()) == "Async"


def test_static_choice(tmp_path: Path) -> None:
    aliased = write(tmp_path, "shop_e.py", "from mcp.server import MCPServer as S\nshop = S('E')\n")
    assert [(c.name, c.kind) for c in find_candidates(aliased)] == [("shop", "instance")]
    write(tmp_path, "shop_f.py", SERVER + "admin = MCPServer('Admin')\nmcp = MCPServer('Main')\n")
    assert load_server("shop_f.py", cwd=tmp_path).attribute == "mcp"
    write(tmp_path, "shop_g.py", SERVER + "public = MCPServer('P')\nadmin = MCPServer('A')\n")
    with pytest.raises(LoadError, match=r"several servers: public \(line 2.*admin \(line 3"):
        load_server("shop_g.py", cwd=tmp_path)


def test_server_built_out_of_sight_is_found_by_conventional_name(tmp_path: Path) -> None:
    write(tmp_path, "shop_h_impl.py", SERVER + "def build():\n    return MCPServer('Hidden')\n")
    write(tmp_path, "shop_h.py", "from shop_h_impl import build\nserver = build()\n")
    assert load_server("shop_h.py", cwd=tmp_path).attribute == "server"


def test_wrong_objects(tmp_path: Path) -> None:
    write(tmp_path, "shop_i.py", SERVER + "def make() -> MCPServer:\n    return 42\nLIMIT = 3\n")
    with pytest.raises(
        LoadError, match=r"shop_i\.py:make is a factory function returning int, not an MCPServer"
    ):
        load_server("shop_i.py", cwd=tmp_path)
    with pytest.raises(LoadError, match="has no attribute 'nope'"):
        load_server("shop_i.py:nope", cwd=tmp_path)


def test_module_name_already_taken(tmp_path: Path) -> None:
    write(tmp_path, "json.py", SERVER + "mcp = MCPServer('J')\n")
    with pytest.raises(LoadError, match="already taken by"):
        load_server("json.py", cwd=tmp_path)


def test_error_in_factory_shows_the_users_frame(tmp_path: Path) -> None:
    write(tmp_path, "shop_j.py", SERVER + "def make() -> MCPServer:\n    raise RuntimeError('no database')\n")
    with pytest.raises(LoadError) as caught:
        load_server("shop_j.py", cwd=tmp_path)
    message = str(caught.value)
    assert "Calling the factory shop_j.py:make() failed with RuntimeError: no database" in message
    assert "line 3, in make\n    raise RuntimeError('no database')" in message
    assert isinstance(caught.value.__cause__, RuntimeError)
