"""Which modules may import typer and rich, checked on the source (AST only, nothing is imported).

The command line is one front end; the editor (LSP) and MCP (`cli/agent/`) front ends call the
same engines. So typer stays in the command modules, rich in the modules named for rendering or
prompting, and everything else in `cli/` (the engines: code generation and insertion for `new`,
the session and answer handling for `call`, the runner for `serve`, the fixes for `lint`)
reaches neither, not even through another mcpdeps module. The other front ends may render
through the commands' renderers, but reach typer only from their own `command.py`.
`resolver_core/` and `lint_rules/` are libraries: they reach no `cli` module at all.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest
from conftest import REPO

PACKAGE = "mcpdeps"
SCANNED = ("cli", "resolver_core", "lint_rules")
UI_LIBRARIES = frozenset({"typer", "click", "rich"})
"""Third-party packages only a front end may import (typer is built on click)."""

TYPER_MODULES = re.compile(r"^mcpdeps\.cli\.(app|typer_options|[a-z_]+\.command)$")
"""The typer app, the thin command modules, and where declared options become typer parameters."""
FRONT_END_MODULES = re.compile(
    r"^mcpdeps\.(__main__|cli\.(main|app|fast_start|typer_options|lint\.run)"
    r"|cli\.([a-z_]+\.)?(command|render\w*|prompts\w*|terminal\w*)|cli\.render(\.\w+)?)$"
)
"""The entry point, the typer app (and `typer_options`, which makes its parameters), the fast start of `lint`,
the lint command's run (what both call), and the modules named for what they do with a terminal: render*,
prompts*, terminal*, the shared cli/render/."""
FRONT_END_PACKAGES = re.compile(r"^mcpdeps\.cli\.(agent|lsp)(\.\w+)?$")
"""The front ends that are not the command line: `mcpdeps mcp` (cli/agent/) and the coming editor server."""

PENDING: dict[str, str] = {}
"""Engines that may still print through rich while a change moves their output out, each with why it
waits; empty since `serve`'s runner and `call`'s target report through `serve/output.py`.

A pending module is opaque to the chain search: what reaches rich only through it waits with it,
so the list names the causes, not every importer.
"""


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


@cache
def _modules() -> dict[str, Path]:
    """Every module of the installed package, by its `mcpdeps.` name."""
    found = {_module_name(REPO / name): REPO / name for name in ("__init__.py", "__main__.py")}
    for folder in SCANNED:
        found.update({_module_name(p): p for p in sorted((REPO / folder).rglob("*.py"))})
    return found


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The absolute name of a `from ... import` (relative imports resolved against `module`)."""
    if not node.level:
        return node.module or ""
    is_package = _modules()[module].name == "__init__.py"
    base = module.split(".")[: len(module.split(".")) - node.level + is_package]
    return ".".join([*base, *([node.module] if node.module else [])])


@cache
def _imports(module: str) -> frozenset[str]:
    """Everything `module` imports anywhere in its body (lazy imports inside functions count too)."""
    tree = ast.parse(_modules()[module].read_bytes(), filename=str(_modules()[module]))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, node)
            names.add(source)
            names.update(f"{source}.{alias.name}" for alias in node.names)
    return frozenset(names)


def _ui_imports(module: str) -> set[str]:
    return {name.split(".")[0] for name in _imports(module)} & UI_LIBRARIES


def _own_imports(module: str) -> set[str]:
    return {name for name in _imports(module) if name in _modules()}


def _chain_to_ui(
    module: str, libraries: frozenset[str] = UI_LIBRARIES, *, through_front_ends: bool = False
) -> list[str] | None:
    """The shortest import chain from `module` to one of `libraries` (or to a front-end module, unless
    `through_front_ends`: then only the libraries count, wherever the chain passes), if any."""
    seen = {module}
    queue: list[list[str]] = [[module]]
    while queue:
        chain = queue.pop(0)
        here = chain[-1]
        if here != module and not through_front_ends and FRONT_END_MODULES.match(here):
            return chain
        if here != module and here in PENDING:
            continue
        ui = _ui_imports(here) & libraries
        if ui:
            return [*chain, sorted(ui)[0]]
        for name in sorted(_own_imports(here) - seen):
            seen.add(name)
            queue.append([*chain, name])
    return None


def _engines() -> list[str]:
    return [
        m
        for m in _modules()
        if m.startswith(f"{PACKAGE}.cli.")
        and not FRONT_END_MODULES.match(m)
        and not FRONT_END_PACKAGES.match(m)
        and m not in PENDING
    ]


def test_the_scan_sees_the_package() -> None:
    """A broken scan (wrong root, nothing parsed) must not pass every rule vacuously."""
    modules = _modules()
    assert {"mcpdeps.cli.main", "mcpdeps.cli.new.codegen", "mcpdeps.resolver_core.builder"} <= set(modules)
    assert "typer" in _ui_imports("mcpdeps.cli.app")
    assert "mcpdeps.cli.lint.command" in _own_imports("mcpdeps.cli.app")
    assert len(_engines()) > 30


def test_pending_exceptions_name_real_modules() -> None:
    """A misspelt exception would exempt nothing and hide nothing; each must exist and be an engine."""
    for module in PENDING:
        assert module in _modules(), module
        assert not FRONT_END_MODULES.match(module), module


def test_typer_only_in_command_modules() -> None:
    """typer (and click under it) builds the command line: `cli/app.py`, `cli/<cmd>/command.py` and
    `cli/typer_options.py` (declared options made typer parameters) only."""
    offenders = sorted(
        m for m in _modules() if _ui_imports(m) & {"typer", "click"} and not TYPER_MODULES.match(m)
    )
    assert offenders == []


def test_rich_only_in_modules_named_for_the_terminal() -> None:
    """rich is imported by command, render*, prompts* and terminal* modules (and the pending ones)."""
    offenders = sorted(
        m
        for m in _modules()
        if "rich" in _ui_imports(m) and not FRONT_END_MODULES.match(m) and m not in PENDING
    )
    assert offenders == []


@pytest.mark.parametrize("library", ["resolver_core", "lint_rules"])
def test_libraries_reach_no_front_end(library: str) -> None:
    """The libraries every front end shares import no `cli` module, no typer and no rich, at any depth."""
    for module in (m for m in _modules() if m.startswith(f"{PACKAGE}.{library}")):
        assert not any(name.startswith(f"{PACKAGE}.cli") for name in _own_imports(module)), module
        assert _chain_to_ui(module) is None, module


def test_engines_never_reach_typer_or_rich() -> None:
    """No engine imports typer, rich or a rendering module, directly or through other modules."""
    chains = {m: chain for m in _engines() if (chain := _chain_to_ui(m)) is not None}
    assert chains == {}, "\n".join(" -> ".join(chain) for chain in chains.values())


def test_other_front_ends_reach_typer_only_from_their_command() -> None:
    """`mcpdeps mcp` (and the editor server) run without the command line: no chain to typer or click."""
    front_ends = [m for m in _modules() if FRONT_END_PACKAGES.match(m) and not TYPER_MODULES.match(m)]
    assert "mcpdeps.cli.agent.server" in front_ends
    chains = {
        m: chain
        for m in front_ends
        if (chain := _chain_to_ui(m, frozenset({"typer", "click"}), through_front_ends=True)) is not None
    }
    assert chains == {}, "\n".join(" -> ".join(chain) for chain in chains.values())


def test_the_fast_start_of_lint_never_reaches_typer() -> None:
    """A well-formed `mcpdeps lint` runs without typer (`cli/fast_start.py`): nothing on its way imports it."""
    assert (
        _chain_to_ui("mcpdeps.cli.fast_start", frozenset({"typer", "click"}), through_front_ends=True) is None
    )
