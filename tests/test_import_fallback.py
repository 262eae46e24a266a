"""`try: from app.fast import register / except ImportError: from app.slow import register`,
then `register(mcp)`: only one module's helper runs, the fast one when its import succeeds.

The SDK, with both modules importable, runs `app.fast.register` and refuses its bad resolver:
lint reports MCPD002 in `app/fast.py` (`lint .` and the file alone); with the resolver fixed
both accept. The fallback runs only where `app.fast` cannot be imported: lint judges it as
that arm of the choice (`arms.py`), so a tool named in both is no duplicate.
"""

from __future__ import annotations

from pathlib import Path

from conftest import lint_diagnostics, write_files
from published_shapes import CLEAN, PROJECT, resolver_module, sdk

HELPER = """\
def register(mcp) -> None:
    @mcp.tool()
    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:
        return d
"""
FILES = {
    "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n',
    "app/fast.py": resolver_module(HELPER),
    "app/slow.py": resolver_module(HELPER).replace(*CLEAN),
    "app/main.py": "from app.server import mcp\n\ntry:\n    from app.fast import register\n"
    "except ImportError:\n    from app.slow import register\n\nregister(mcp)\n",
}


def _found(root: Path, *args: str) -> list[tuple[str, str]]:
    return [(d["code"], d["path"]) for d in lint_diagnostics(root, "--no-cache", *args)]


def test_the_module_whose_import_succeeds_is_reported(tmp_path: Path) -> None:
    write_files(tmp_path, {**PROJECT, **FILES})
    refused = sdk(tmp_path, "import app.main")
    assert "InvalidSignature: Resolver 'load_d' parameter 'nope'" in refused.stderr, refused.stderr
    assert ("MCPD002", "app/fast.py") in _found(tmp_path, ".")
    assert _found(tmp_path, "app/fast.py") == [("MCPD002", "app/fast.py")]
    assert _found(tmp_path, "app/main.py") == [("MCPD002", "app/fast.py")]

    path = tmp_path / "app/fast.py"
    path.write_text(path.read_text().replace(*CLEAN))
    assert sdk(tmp_path, "import app.main").returncode == 0
    assert ("MCPD002", "app/fast.py") not in _found(tmp_path, ".")


def test_the_fallback_is_not_called_unreachable(tmp_path: Path) -> None:
    write_files(tmp_path, {**PROJECT, **FILES, "app/fast.py": FILES["app/slow.py"]})
    assert sdk(tmp_path, "import app.main").returncode == 0  # the fast one runs; its resolver is clean
    assert not _found(tmp_path, ".")  # nor MCPD110: `t` of fast and of slow never register together
    assert not _found(tmp_path, "app/slow.py")

    both = "from app.server import mcp\nfrom app.fast import register\nfrom app.slow import register as r\n"
    (tmp_path / "app/main.py").write_text(both + "\nregister(mcp)\nr(mcp)\n")  # no choice: both run
    assert "Tool already exists: t" in sdk(tmp_path, "import app.main").stderr
    assert ("MCPD110", "app/slow.py") in _found(tmp_path, ".")


def test_the_fallback_is_judged_as_the_one_called(tmp_path: Path) -> None:
    """Where `app.fast` is missing the SDK runs slow's `register` and refuses its resolver:
    lint judges the fallback as that arm of the choice, wherever `app.fast` exists."""
    write_files(
        tmp_path,
        {**PROJECT, **FILES, "app/fast.py": FILES["app/slow.py"], "app/slow.py": FILES["app/fast.py"]},
    )
    assert sdk(tmp_path, "import app.main").returncode == 0
    (tmp_path / "app/fast.py").rename(tmp_path / "fast.py.bak")
    refused = sdk(tmp_path, "import app.main")
    assert "InvalidSignature: Resolver 'load_d' parameter 'nope'" in refused.stderr, refused.stderr
    (tmp_path / "fast.py.bak").rename(tmp_path / "app/fast.py")
    assert _found(tmp_path, ".") == [("MCPD002", "app/slow.py")]
    assert _found(tmp_path, "app/slow.py") == [("MCPD002", "app/slow.py")]
    assert not _found(tmp_path, "app/fast.py")
