"""Find and import the `MCPServer` a user points at (shared by `serve`, `call` and `graph --live`).

Why not `mcp run`'s way: it loads the file as a module called `server_module`,
so relative imports fail and the module graph differs from the one lint saw.
Here the file is imported under its real dotted name, with its source root
(the first folder up without an `__init__.py`) on `sys.path`, and the object is
chosen *statically* before anything is imported, so lint can run first and the
error for "which server?" never depends on import side effects.

Pure library: no typer, no rich. Every failure is a `LoadError` whose message
is a sentence the CLI can print as is; the original exception is `__cause__`.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import sys
import threading
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .records import record
from .user_output import user_output_to_stderr

if TYPE_CHECKING:
    from mcp.server import MCPServer

from .server_spec import (
    CONVENTIONAL_NAMES,
    DEFAULT_FILES,
    Candidate,
    LoadError,
    ServerSpec,
    SpecSource,
    _display,
    choose_attribute,
    find_candidates,
    module_name_for,
    parse_spec,
)

__all__ = [
    "CONVENTIONAL_NAMES",
    "DEFAULT_FILES",
    "Candidate",
    "LoadError",
    "LoadedServer",
    "ServerSpec",
    "SpecSource",
    "choose_attribute",
    "find_candidates",
    "import_module",
    "load_server",
    "load_spec",
    "module_name_for",
    "parse_spec",
    "required_parameters",
    "user_frame",
]


@record
class LoadedServer:
    """An imported server and where it came from."""

    server: MCPServer
    module: str
    path: Path
    attribute: str
    """The attribute that held the server, or the factory that built it."""


def load_server(spec: str | None, *, cwd: Path | None = None) -> LoadedServer:
    """Import the module under its real name and return its server (factories called)."""
    parsed = parse_spec(spec, cwd or Path.cwd())
    return load_spec(parsed)


def load_spec(spec: ServerSpec) -> LoadedServer:
    """`load_server` for an already parsed spec (lint runs between parsing and importing);
    what the module prints while it is imported (and its factory called) goes to stderr."""
    with user_output_to_stderr():
        return _load_spec(spec)


def _load_spec(spec: ServerSpec) -> LoadedServer:
    from mcp.server import MCPServer

    attribute = choose_attribute(spec)
    module = import_module(spec)
    if attribute is None:
        attribute = _conventional_attribute(spec, module, MCPServer)
    if not hasattr(module, attribute):
        from .suggest import did_you_mean

        close = did_you_mean(attribute, (n for n in vars(module) if not n.startswith("__")))
        raise LoadError(
            f"{_display(spec)} has no attribute {attribute!r}{close}. {_found_summary(module, MCPServer)}"
        )
    value = getattr(module, attribute)
    server = value if isinstance(value, MCPServer) else _call_factory(spec, attribute, value)
    if not isinstance(server, MCPServer):
        kind = "factory " if callable(value) and not isinstance(value, MCPServer) else ""
        raise LoadError(
            f"{_display(spec)}:{attribute} is a {kind}{_describe(value)}"
            f"{f' returning {_describe(server)}' if kind else ''}, not an MCPServer "
            "(from mcp.server import MCPServer)."
        )
    return LoadedServer(server=server, module=spec.module, path=spec.path, attribute=attribute)


def import_module(spec: ServerSpec) -> Any:
    """Import `spec.module` with its source root first on `sys.path`; user errors become LoadError."""
    root = str(spec.root)
    if root in sys.path:
        sys.path.remove(root)
    sys.path.insert(0, root)
    existing = sys.modules.get(spec.module)
    if existing is not None:
        existing_file = getattr(existing, "__file__", None)
        if existing_file is None or Path(existing_file).resolve() != spec.path:
            raise LoadError(
                f"{_display(spec)} would be imported as module {spec.module!r}, but that name is already "
                f"taken by {existing_file or 'a built-in module'}. Rename the file."
            )
        return existing
    importlib.invalidate_caches()
    try:
        module = importlib.import_module(spec.module)
    except SyntaxError as exc:
        where = f"{exc.filename}, line {exc.lineno}" if exc.filename else f"line {exc.lineno}"
        code = f"\n    {exc.text.rstrip()}" if exc.text else ""
        raise LoadError(f"{where} has a syntax error: {exc.msg}.{code}") from exc
    except Exception as exc:
        raise LoadError(
            f"Importing {_display(spec)} failed with {type(exc).__name__}: {exc}{user_frame(exc, spec.root)}"
        ) from exc
    if Path(getattr(module, "__file__", "") or "").resolve() != spec.path:
        raise LoadError(
            f"Importing {spec.module!r} found {module.__file__}, not {spec.path}: "
            "another module of that name comes first on sys.path. Rename the file."
        )
    return module


def user_frame(exc: BaseException, root: Path) -> str:
    """The innermost traceback frame in the user's code (under `root`, outside site-packages)."""
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if _is_user_file(f.filename, root)]
    if not mine:
        return "."
    frame = mine[-1]
    line = f"\n    {frame.line}" if frame.line else ""
    return f"\n  File {frame.filename}, line {frame.lineno}, in {frame.name}{line}"


def _is_user_file(filename: str, root: Path) -> bool:
    if "site-packages" in filename or filename.startswith("<"):
        return False
    try:
        Path(filename).resolve().relative_to(root)
    except ValueError:
        return False
    return True


def _conventional_attribute(spec: ServerSpec, module: Any, server_type: type) -> str:
    for name in CONVENTIONAL_NAMES:
        if isinstance(getattr(module, name, None), server_type):
            return name
    raise LoadError(f"No MCPServer found in {_display(spec)}. {_found_summary(module, server_type)}")


def _found_summary(module: Any, server_type: type) -> str:
    """What the module does hold, so the user can point at the right name."""
    servers = [n for n, v in vars(module).items() if isinstance(v, server_type)]
    if servers:
        return f"It holds these servers: {', '.join(servers)}."
    own = [(n, v) for n, v in vars(module).items() if not n.startswith("_") and not inspect.ismodule(v)]
    names = [f"{n} ({_describe(v)})" for n, v in own if _defined_in(v, module.__name__)][:12]
    found = f"Module-level names: {', '.join(names)}." if names else "It defines no module-level names."
    return f'{found} Create one with `mcp = MCPServer("name")` or point at it with FILE:NAME.'


def _defined_in(value: Any, module: str) -> bool:
    """Functions and classes defined in `module` itself, and plain values (not imports)."""
    if inspect.isfunction(value) or inspect.isclass(value):
        return value.__module__ == module
    return True


def _call_factory(spec: ServerSpec, attribute: str, factory: Any) -> Any:
    """Call a server factory with no arguments; coroutines run to completion on a private loop.

    Only a factory whose parameters all have defaults is called, as uvicorn's `--factory` and
    FastMCP's CLI do: mcpdeps has nothing to pass, and a `TypeError` from inside a factory
    must not read as the user's mistake in the spec.
    """
    if not callable(factory):
        return factory
    needed = required_parameters(factory)
    if needed:
        listed = ", ".join(needed)
        them = "it a default" if len(needed) == 1 else "them defaults"
        raise LoadError(
            f"{_display(spec)}:{attribute} is a factory that needs {listed}: mcpdeps calls a factory "
            f"without arguments (as uvicorn --factory does), so give {them} or point at a function "
            "that builds the server on its own."
        )
    try:
        result = factory()
        if inspect.isawaitable(result):
            result = _run_coroutine(result)
    except Exception as exc:
        raise LoadError(
            f"Calling the factory {_display(spec)}:{attribute}() failed with "
            f"{type(exc).__name__}: {exc}{user_frame(exc, spec.root)}"
        ) from exc
    return result


def required_parameters(factory: Any) -> list[str]:
    """The parameters a call without arguments would leave unfilled (none when the signature
    cannot be read: the call itself then says what is wrong)."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return []
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [p.name for p in signature.parameters.values() if p.default is p.empty and p.kind not in variadic]


def _run_coroutine(awaitable: Any) -> Any:
    """Run an async factory even when the caller already runs an event loop (e.g. `call`)."""

    async def wrapper() -> Any:
        return await awaitable

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(wrapper())
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(wrapper())
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, name="mcpdeps-factory")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def _describe(value: Any) -> str:
    if inspect.isclass(value):
        return "class"
    if inspect.isfunction(value) or inspect.ismethod(value):
        return "function"
    return type(value).__name__
