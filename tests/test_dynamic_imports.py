"""Feature modules found or named at run time (`pkgutil.iter_modules`, `importlib.import_module`
of a name a loop builds) and registrars kept in a dict, checked against the SDK itself.

Each case registers `t` through `weather.register(mcp)` reached only that way; `weather`'s
resolver `load_d(nope)` is refused by the SDK (`published_shapes.check_both_ways`: `lint .`,
`lint app/tools/weather.py` alone and the clean twin). `lint` of the file making the call
alone (the entry point) must say the same of `weather.py` (what pre-commit checks when only it
changed).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import lint_diagnostics, located, write_files
from published_shapes import PROJECT, check_both_ways, resolver_module, sdk

HELPER = resolver_module(
    "def register(mcp) -> None:\n    @mcp.tool()\n"
    "    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n"
)
OTHER = "def helper() -> int:\n    return 1\n"
"""A module of the package that defines no `register`."""
MAIN = 'from mcp.server import MCPServer\n\n{imports}\n\nmcp = MCPServer("x")\n{body}\n'
ENTRY = "app/main.py"


def _main(imports: str, body: str) -> str:
    return MAIN.format(imports=imports, body=body)


def _registering_all(loop: str, bind: str, call: str = "module.register(mcp)") -> str:
    """`app/tools/__init__.py` defining `register_all(mcp)`: `loop` over its modules, each
    bound by `bind`, then `call` (guarded by `hasattr` when it says so)."""
    return (
        "import importlib\nimport pkgutil\n\n\ndef register_all(mcp) -> None:\n"
        f"    {loop}\n        {bind}\n        {call}\n"
    )


CALL_ALL = _main("from app.tools import register_all", "register_all(mcp)")

CASES: dict[str, dict[str, str]] = {
    "pkgutil over __path__, guarded by hasattr, a module without register beside": {
        "app/tools/__init__.py": _registering_all(
            "for info in pkgutil.iter_modules(__path__):",
            'module = importlib.import_module(f"{__name__}.{info.name}")',
            'if hasattr(module, "register"):\n            module.register(mcp)',
        ),
        "app/tools/alerts.py": OTHER,
        "app/tools/weather.py": HELPER,
        ENTRY: CALL_ALL,
    },
    "pkgutil over __path__, a module without register left out by continue before the call": {
        "app/tools/__init__.py": _registering_all(
            "for info in pkgutil.iter_modules(__path__):",
            'module = importlib.import_module(f"{__name__}.{info.name}")',
            'if not hasattr(module, "register"):\n            continue\n        module.register(mcp)',
        ),
        "app/tools/alerts.py": OTHER,
        "app/tools/weather.py": HELPER,
        ENTRY: CALL_ALL,
    },
    "pkgutil over a package's __path__ in the entry point, unpacked, its __name__ prefixed": {
        "app/tools/__init__.py": "",
        "app/tools/weather.py": HELPER,
        ENTRY: _main(
            "import importlib\nimport pkgutil\n\nfrom app import tools",
            "for _, name, _ in pkgutil.iter_modules(tools.__path__):\n"
            '    importlib.import_module(f"{tools.__name__}.{name}").register(mcp)',
        ),
    },
    "walk_packages with a prefix, the module in a subpackage": {
        "app/tools/__init__.py": _registering_all(
            'for info in pkgutil.walk_packages(__path__, prefix=__name__ + "."):',
            "module = importlib.import_module(info.name)",
            'if hasattr(module, "register"):\n            module.register(mcp)',
        ),
        "app/tools/extra/__init__.py": "",
        "app/tools/extra/weather.py": HELPER,
        ENTRY: CALL_ALL,
    },
    "pkgutil over the folder of the module's own file, a sibling importing by package": {
        "app/tools/__init__.py": "",
        "app/tools/loader.py": (
            "import importlib\nimport pkgutil\nfrom pathlib import Path\n\n\ndef register_all(mcp) -> None:\n"
            "    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):\n"
            '        module = importlib.import_module(f".{info.name}", package=__package__)\n'
            '        if hasattr(module, "register"):\n            module.register(mcp)\n'
        ),
        "app/tools/weather.py": HELPER,
        ENTRY: _main("from app.tools.loader import register_all", "register_all(mcp)"),
    },
    "names in a list, the module named by concatenation": {
        "app/tools/__init__.py": "",
        "app/tools/weather.py": HELPER,
        ENTRY: _main(
            "import importlib",
            'FEATURES = ["weather"]\nfor name in FEATURES:\n'
            '    module = importlib.import_module("app.tools." + name)\n    module.register(mcp)',
        ),
    },
    "relative names imported against __package__, in a package's function": {
        "app/tools/__init__.py": (
            "from importlib import import_module\n\n\ndef register_all(mcp) -> None:\n"
            '    for name in ("weather",):\n        import_module(f".{name}", __package__).register(mcp)\n'
        ),
        "app/tools/weather.py": HELPER,
        ENTRY: CALL_ALL,
    },
    "relative names imported against package=__name__": {
        "app/tools/__init__.py": (
            'import importlib\n\n\ndef register_all(mcp) -> None:\n    for name in ("weather",):\n'
            '        importlib.import_module("." + name, package=__name__).register(mcp)\n'
        ),
        "app/tools/weather.py": HELPER,
        ENTRY: CALL_ALL,
    },
    "pkgutil in a package's __init__ at import, unpacked, subpackages left out": {
        "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n',
        "app/tools/__init__.py": (
            "import importlib\nimport pkgutil\n\nfrom app.server import mcp\n\n"
            "for _, name, ispkg in pkgutil.iter_modules(__path__):\n    if not ispkg:\n"
            '        importlib.import_module(f"{__name__}.{name}").register(mcp)\n'
        ),
        "app/tools/weather.py": HELPER,
        ENTRY: "import app.tools\n",
    },
    "registrars in another module's dict, by feature, at import": {
        "app/tools/__init__.py": "",
        "app/tools/weather.py": HELPER,
        "app/features.py": 'from app.tools import weather\n\nREGISTRARS = {"weather": weather.register}\n',
        ENTRY: _main(
            "from app.features import REGISTRARS",
            "for feature, registrar in REGISTRARS.items():\n    registrar(mcp)",
        ),
    },
    "registrars in another module's dict, looked up by each key": {
        "app/tools/__init__.py": "",
        "app/tools/weather.py": HELPER,
        "app/features.py": 'from app.tools import weather\n\nREGISTRARS = {"weather": weather.register}\n',
        ENTRY: _main(
            "from app.features import REGISTRARS", "for name in REGISTRARS:\n    REGISTRARS[name](mcp)"
        ),
    },
    "registrars in a dict of the module, looked up by each key in a function": {
        "app/tools/__init__.py": "",
        "app/tools/weather.py": HELPER,
        ENTRY: _main(
            "from app.tools import weather",
            'REGISTRARS = {"weather": weather.register}\n\n\ndef install(server) -> None:\n'
            "    for name in REGISTRARS:\n        REGISTRARS[name](server)\n\n\ninstall(mcp)",
        ),
    },
    "registrars in a dict, its values called": {
        "app/tools/__init__.py": "",
        "app/tools/weather.py": HELPER,
        ENTRY: _main(
            "from app.tools import weather",
            'REGISTRARS = {"weather": weather.register}\nfor registrar in REGISTRARS.values():\n    registrar(mcp)',
        ),
    },
    "registrars in another module's dict, by feature, in a function": {
        "app/tools/__init__.py": "",
        "app/tools/weather.py": HELPER,
        "app/features.py": 'from app.tools import weather\n\nREGISTRARS = {"weather": weather.register}\n',
        ENTRY: _main(
            "from app.features import REGISTRARS",
            "\ndef install(server) -> None:\n    for feature, registrar in REGISTRARS.items():\n"
            '        if feature != "off":\n            registrar(server)\n\n\ninstall(mcp)',
        ),
    },
}


CALLER = {
    "pkgutil in a package's __init__ at import, unpacked, subpackages left out": "app/tools/__init__.py"
}
"""The file calling `register` where it is not the entry point (which only imports it: a file
importing a registering module is not checked for that module's tools)."""


@pytest.mark.parametrize("case", sorted(CASES))
def test_lint_reports_what_the_sdk_refuses_and_accepts_what_it_accepts(tmp_path: Path, case: str) -> None:
    files = CASES[case]
    bad = next(path for path, text in files.items() if text is HELPER)
    check_both_ways(tmp_path, files, "import app.main", bad)
    (tmp_path / bad).write_text(HELPER)
    alone = lint_diagnostics(tmp_path, "--no-cache", CALLER.get(case, ENTRY))
    assert [d["code"] for d in located(alone, bad)] == ["MCPD002"], alone


def test_a_module_without_register_ends_the_start_up_before_the_next(tmp_path: Path) -> None:
    """Unguarded, `module.register(mcp)` raises AttributeError at the first module without
    one (`alerts`, listed before `weather`): `weather` registers nothing, and lint, reading
    the registrations that ran, reports no resolver of it. Named `zz_alerts`, after `weather`,
    it ends the start-up too late: `weather`'s resolver is refused."""
    loop = _registering_all(
        "for info in pkgutil.iter_modules(__path__):",
        'module = importlib.import_module(f"{__name__}.{info.name}")',
    )
    files = {**PROJECT, "app/tools/__init__.py": loop, "app/tools/weather.py": HELPER, ENTRY: CALL_ALL}
    write_files(tmp_path, {**files, "app/tools/alerts.py": OTHER})
    ran = sdk(tmp_path, "import app.main")
    assert "AttributeError" in ran.stderr and "InvalidSignature" not in ran.stderr, ran.stderr
    # `t` is registered by nothing that runs: not analysed, as a helper nothing calls.
    assert [d["code"] for d in lint_diagnostics(tmp_path, "--no-cache", ".")] == ["MCPD113"]
    (tmp_path / "app/tools/alerts.py").rename(tmp_path / "app/tools/zz_alerts.py")
    ran = sdk(tmp_path, "import app.main")
    assert "InvalidSignature: Resolver 'load_d' parameter 'nope'" in ran.stderr, ran.stderr
    found = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert [(d["code"], d["path"]) for d in found] == [("MCPD002", "app/tools/weather.py")]


def test_a_module_added_to_the_package_is_checked_by_a_cached_run(tmp_path: Path) -> None:
    """The cache keeps a verdict of the package's modules: a module added to the folder
    (found by `pkgutil`, imported by no statement) is what a warm run checks too."""
    loop = _registering_all(
        "for info in pkgutil.iter_modules(__path__):",
        'module = importlib.import_module(f"{__name__}.{info.name}")',
    )
    write_files(tmp_path, {**PROJECT, "app/tools/__init__.py": loop, ENTRY: CALL_ALL})
    assert lint_diagnostics(tmp_path, ".") == []
    assert lint_diagnostics(tmp_path, ENTRY) == []
    write_files(tmp_path, {"app/tools/weather.py": HELPER})
    for args in ((ENTRY,), (".",), ("app/tools/weather.py",)):
        found = lint_diagnostics(tmp_path, *args)
        assert [(d["code"], d["path"]) for d in found] == [("MCPD002", "app/tools/weather.py")], args
