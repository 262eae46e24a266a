"""Filters in a loop over a package's modules (`resolver_core/loop_filters.py`), checked
against the SDK itself, both ways.

Each case's loop imports the modules of `app/tools` and calls each one's `register(mcp)`, but
its body skips some of them (`if info.name.startswith("_"): continue`, `if not ispkg:`, `if
name in SKIP: continue`, ...). `weather` (its resolver `load_d(nope)` refused) is not skipped;
the skipped module holds a resolver the SDK would refuse too (`load_e(gone)`) and is listed
before `weather`, so the SDK failing on `load_d` shows it was skipped. Lint must report
`weather` (`lint .`, the file alone, the entry point alone) and nothing of the skipped module;
with `weather` fixed the SDK starts and lint finds no error. Then the control: the skipped
module moved (renamed, or the filter's constant edited) where the loop takes it: the SDK
refuses its resolver and lint reports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import lint_diagnostics, located, write_files
from published_shapes import CLEAN, PROJECT, resolver_module, sdk

HELPER = resolver_module(
    "def register(mcp) -> None:\n    @mcp.tool()\n"
    "    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n"
)
SKIPPED = HELPER.replace("load_d", "load_e").replace("nope", "gone").replace("def t(", "def u(")
"""A module the loop skips: its resolver `load_e(gone)` is refused by the SDK when registered."""
ENTRY = "app/main.py"
MAIN = 'from mcp.server import MCPServer\n\nfrom app.tools import register_all\n\nmcp = MCPServer("x")\nregister_all(mcp)\n'
REFUSED_D = "InvalidSignature: Resolver 'load_d' parameter 'nope'"
REFUSED_E = "InvalidSignature: Resolver 'load_e' parameter 'gone'"
BIND = 'module = importlib.import_module(f"{__name__}.{name}")'
DISCOVER = "for info in pkgutil.iter_modules(__path__):\n        name = info.name\n"


def _tools(body: str, header: str = "") -> str:
    """`app/tools/__init__.py` defining `register_all(mcp)` as `body` (indented once)."""
    return f"import importlib\nimport pkgutil\n{header}\n\ndef register_all(mcp) -> None:\n    " + body + "\n"


@dataclass(frozen=True)
class Case:
    loop: str
    """`app/tools/__init__.py`."""
    skipped: str
    """The path of the module the loop skips."""
    control: tuple[str, str, str]
    """("rename", skipped, new path) or (path, old, new): where the loop takes the module."""
    extra: tuple[tuple[str, str], ...] = ()
    """Other files of the project."""
    caller: str = ENTRY
    """The file calling `register` (the entry point, or the package registering at import)."""


def _plain(filter_: str, header: str = "") -> str:
    """A loop over `info`s with `name = info.name`, `filter_` (indented twice) before the call."""
    return _tools(f"{DISCOVER}        {filter_}\n        {BIND}\n        module.register(mcp)", header)


CASES: dict[str, Case] = {
    "a private module (info.name.startswith)": Case(
        _tools(
            "for info in pkgutil.iter_modules(__path__):\n"
            '        if info.name.startswith("_"):\n            continue\n'
            '        module = importlib.import_module(f"{__name__}.{info.name}")\n'
            "        module.register(mcp)"
        ),
        "app/tools/_legacy.py",
        ("rename", "app/tools/_legacy.py", "app/tools/legacy.py"),
    ),
    "a subpackage (if info.ispkg: continue)": Case(
        _tools(
            "for info in pkgutil.iter_modules(__path__):\n        if info.ispkg:\n            continue\n"
            '        importlib.import_module(f"{__name__}.{info.name}").register(mcp)'
        ),
        "app/tools/alerts/__init__.py",
        ("rename", "app/tools/alerts/__init__.py", "app/tools/alerts.py"),
    ),
    "a subpackage (unpacked, the call under if not ispkg)": Case(
        _tools(
            "for _, name, ispkg in pkgutil.iter_modules(__path__):\n        if not ispkg:\n"
            f"            {BIND}\n            module.register(mcp)"
        ),
        "app/tools/alerts/__init__.py",
        ("rename", "app/tools/alerts/__init__.py", "app/tools/alerts.py"),
    ),
    "a name in a set of the module (name in SKIP)": Case(
        _plain("if name in SKIP:\n            continue", 'SKIP = {"admin", "base"}\n'),
        "app/tools/admin.py",
        ("rename", "app/tools/admin.py", "app/tools/accounts.py"),
    ),
    "a name not in another module's tuple (name not in ENABLED)": Case(
        _plain("if name not in ENABLED:\n            continue", "\nfrom app.settings import ENABLED\n"),
        "app/tools/admin.py",
        ("rename", "app/tools/admin.py", "app/tools/news.py"),
        (("app/settings.py", 'ENABLED = ("news", "weather")\n'),),
    ),
    "a name in a frozenset (the call under if name not in ...)": Case(
        _tools(
            f"{DISCOVER}        if name not in SKIP:\n            {BIND}\n            module.register(mcp)",
            'SKIP = frozenset({"admin"})\n',
        ),
        "app/tools/admin.py",
        ("rename", "app/tools/admin.py", "app/tools/accounts.py"),
    ),
    'one name (name == "base")': Case(
        _plain('if name == "base":\n            continue'),
        "app/tools/base.py",
        ("rename", "app/tools/base.py", "app/tools/basics.py"),
    ),
    'test modules (startswith("test"), either of two tests)': Case(
        _plain('if info.ispkg or name.startswith(("test", "_")):\n            continue'),
        "app/tools/test_weather.py",
        ("rename", "app/tools/test_weather.py", "app/tools/checks.py"),
    ),
    "at import in the package, the call under if not (a private module or a subpackage)": Case(
        "import importlib\nimport pkgutil\n\nfrom app.server import mcp\n\n"
        "for _, name, ispkg in pkgutil.iter_modules(__path__):\n"
        '    if not (ispkg or name.startswith("_")):\n'
        '        importlib.import_module(f"{__name__}.{name}").register(mcp)\n',
        "app/tools/_legacy.py",
        ("rename", "app/tools/_legacy.py", "app/tools/legacy.py"),
        (
            ("app/server.py", 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n'),
            (ENTRY, "import app.tools\n"),
        ),
        "app/tools/__init__.py",
    ),
    "a name written out, left out by ==": Case(
        _tools(
            'for name in ("admin", "weather"):\n        if name == "admin":\n            continue\n'
            '        importlib.import_module(f"app.tools.{name}").register(mcp)'
        ),
        "app/tools/admin.py",
        ("app/tools/__init__.py", 'if name == "admin"', 'if name == "base"'),
    ),
}


def _codes(found: list[dict], path: str) -> list[str]:
    return [d["code"] for d in located(found, path)]


def _errors(found: list[dict], path: str) -> list[str]:
    """The codes of `path` but the note that a `register` nothing calls is not analysed
    (MCPD113, info: what a skipped module's tools are, as any helper no start-up calls)."""
    return [code for code in _codes(found, path) if code != "MCPD113"]


def _control(root: Path, control: tuple[str, str, str]) -> str:
    """Apply the control; the path of the module the loop now takes."""
    first, second, third = control
    if first == "rename":
        (root / third).parent.mkdir(parents=True, exist_ok=True)
        (root / second).rename(root / third)
        if not any((root / second).parent.iterdir()):  # a package made a module: no folder left
            (root / second).parent.rmdir()
        return third
    (root / first).write_text((root / first).read_text().replace(second, third))
    return ""


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_module_the_loop_skips_is_skipped_by_lint_too(tmp_path: Path, case: str) -> None:
    spec = CASES[case]
    weather = "app/tools/weather.py"
    files = {
        **PROJECT,
        ENTRY: MAIN,
        **dict(spec.extra),
        "app/tools/__init__.py": spec.loop,
        weather: HELPER,
        spec.skipped: SKIPPED,
    }
    write_files(tmp_path, files)
    ran = sdk(tmp_path, "import app.main")
    assert REFUSED_D in ran.stderr and "gone" not in ran.stderr, ran.stderr
    whole = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert _codes(whole, weather) == ["MCPD002"] and _errors(whole, spec.skipped) == [], whole
    for alone in (weather, spec.skipped, ENTRY, "app/tools/__init__.py"):
        found = lint_diagnostics(tmp_path, "--no-cache", alone)
        assert _codes(found, alone) == _codes(whole, alone), (alone, found)
        assert _errors(found, spec.skipped) == [], (alone, found)
    assert _codes(lint_diagnostics(tmp_path, "--no-cache", spec.caller), weather) == ["MCPD002"]

    (tmp_path / weather).write_text(HELPER.replace(*CLEAN))
    accepted = sdk(tmp_path, "import app.main")
    assert accepted.returncode == 0, accepted.stderr
    whole = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert [d for d in whole if d["code"] != "MCPD113"] == [], whole
    assert _errors(lint_diagnostics(tmp_path, "--no-cache", spec.skipped), spec.skipped) == []

    taken = _control(tmp_path, spec.control) or spec.skipped
    refused = sdk(tmp_path, "import app.main")
    assert REFUSED_E in refused.stderr, refused.stderr
    for args in ((".",), (taken,), (spec.caller,)):
        found = lint_diagnostics(tmp_path, "--no-cache", *args)
        assert [(d["code"], d["path"]) for d in found] == [("MCPD002", taken)], (args, found)


def test_a_filter_edited_is_read_by_a_cached_run(tmp_path: Path) -> None:
    """The filter is the loop's module's text: a warm run after it changes (or after the
    skipped module is renamed into the loop's reach) reports what the SDK now registers."""
    spec = CASES["a private module (info.name.startswith)"]
    write_files(
        tmp_path,
        {**PROJECT, "app/tools/__init__.py": spec.loop, spec.skipped: SKIPPED, ENTRY: MAIN},
    )
    runs = ((".",), (ENTRY,), (spec.skipped,))
    for args in runs:
        assert _errors(lint_diagnostics(tmp_path, *args), spec.skipped) == [], args
    loop = tmp_path / "app/tools/__init__.py"
    loop.write_text(spec.loop.replace('startswith("_")', 'startswith("test")'))
    assert REFUSED_E in sdk(tmp_path, "import app.main").stderr
    for args in runs:
        assert _codes(lint_diagnostics(tmp_path, *args), spec.skipped) == ["MCPD002"], args
    loop.write_text(spec.loop)
    for args in runs:
        assert _errors(lint_diagnostics(tmp_path, *args), spec.skipped) == [], args
    _control(tmp_path, spec.control)
    for args in ((".",), (ENTRY,), ("app/tools/legacy.py",)):
        assert _codes(lint_diagnostics(tmp_path, *args), "app/tools/legacy.py") == ["MCPD002"], args


UNDECIDED = {
    "a setting read at run time": _plain(
        'if name in os.environ.get("SKIP", ""):\n            continue', "import os\n"
    ),
    "a flag of the module beside the name": _plain(
        'if SKIP_ADMIN and name == "admin":\n            continue', "\nSKIP_ADMIN = False\n"
    ),
    "a test of the module imported": _tools(
        f"{DISCOVER}        {BIND}\n"
        '        if hasattr(module, "DISABLED"):\n            continue\n        module.register(mcp)'
    ),
}
"""Tests lint does not decide: a flag may be set before the loop runs (`tools.SKIP_ADMIN =
True` in the entry point), and what a module defines is the SDK's to find."""


@pytest.mark.parametrize("case", sorted(UNDECIDED))
def test_an_undecided_test_keeps_every_module(tmp_path: Path, case: str) -> None:
    """A test lint cannot read keeps the module, as before filters were read: the SDK, with
    the setting unset, registers it and refuses it."""
    files = {**PROJECT, "app/tools/__init__.py": UNDECIDED[case], "app/tools/admin.py": SKIPPED, ENTRY: MAIN}
    write_files(tmp_path, files)
    assert REFUSED_E in sdk(tmp_path, "import app.main").stderr
    found = lint_diagnostics(tmp_path, "--no-cache", ".")
    assert [(d["code"], d["path"]) for d in found] == [("MCPD002", "app/tools/admin.py")]
