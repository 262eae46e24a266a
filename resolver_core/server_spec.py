"""A server spec (`file.py`, `file.py:obj`, `pkg.module:obj`, `[tool.mcpdeps] serve`, or the default
files), read without importing anything: which file, which module name, which source root, which object.

Split from `loading.py`, which imports what a spec names: everything here is static, so the choice of
"which server?" is made (and its errors said) before any user code runs.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from . import toml_text
from .bindings import assignment_targets
from .records import record

if TYPE_CHECKING:
    pass

DEFAULT_FILES = ("server.py", "main.py", "app.py")
"""Files tried, in order, when neither SPEC nor `[tool.mcpdeps] serve` says which."""

CONVENTIONAL_NAMES = ("mcp", "server", "app")
"""Names tried, in order, when the module holds several servers or none we can see statically."""

SpecSource = Literal["argument", "pyproject", "default"]


class LoadError(Exception):
    """The server cannot be found or imported; the message is meant for the user as is."""

    @property
    def refused_at_registration(self) -> bool:
        """The SDK itself rejected a tool (`InvalidSignature`): what lint's error rules predict."""
        from mcp.server.mcpserver.exceptions import InvalidSignature

        return isinstance(self.__cause__, InvalidSignature)


@record
class ServerSpec:
    """Where a server lives, known before anything is imported."""

    text: str
    """The spec as the user wrote it (or as read from pyproject.toml / the default file)."""
    path: Path
    """The module's file (absolute)."""
    module: str
    """The module's real dotted name."""
    root: Path
    """The source root that goes on `sys.path` so `module` (and its relative imports) resolve."""
    attribute: str | None
    """The object after `:`, or None to choose statically."""
    source: SpecSource = "argument"
    cwd: Path | None = None
    """The folder the spec was given in: messages name the file relative to it."""


@record
class Candidate:
    """A module-level name that statically looks like a server or a server factory."""

    name: str
    kind: Literal["instance", "factory"]
    line: int

    def describe(self) -> str:
        what = "MCPServer(...)" if self.kind == "instance" else "factory returning MCPServer"
        return f"{self.name} (line {self.line}, {what})"


# --------------------------------------------------------------------------- spec parsing


def parse_spec(spec: str | None, cwd: Path) -> ServerSpec:
    """Turn `file.py`, `file.py:obj`, `pkg.module:obj` (or nothing) into a `ServerSpec`.

    Without a spec: `[tool.mcpdeps] serve = "..."` from the nearest pyproject.toml,
    else the first of `server.py`, `main.py`, `app.py` in `cwd`.
    """
    cwd = cwd.resolve()
    if spec is None or not spec.strip():
        configured = _spec_from_pyproject(cwd)
        if configured is not None:
            text, base = configured
            return _parse_explicit(text, base, source="pyproject")
        for name in DEFAULT_FILES:
            if (cwd / name).is_file():
                return _parse_explicit(name, cwd, source="default")
        raise LoadError(
            f"No server given and none of {', '.join(DEFAULT_FILES)} exists in {cwd}. "
            "Name the server's file (e.g. server.py, or server.py:mcp for one object of it) or set "
            '`serve = "server.py:mcp"` under [tool.mcpdeps] in pyproject.toml.'
        )
    return _parse_explicit(spec.strip(), cwd, source="argument")


def _parse_explicit(text: str, cwd: Path, *, source: SpecSource) -> ServerSpec:
    if "\0" in text:  # `os.stat` would raise a bare "embedded null byte"
        where = " (`serve` under [tool.mcpdeps] in pyproject.toml)" if source == "pyproject" else ""
        raise LoadError(f"The server spec {text!r}{where} contains a NUL character; no file name can.")
    target, attribute = _split_attribute(text)
    if target.endswith(".py") or "/" in target or "\\" in target or (cwd / target).is_file():
        path = (cwd / target).resolve()
        if path.is_dir():
            raise LoadError(_folder_given(target, path))
        if not path.is_file():
            where = " (from [tool.mcpdeps] serve in pyproject.toml)" if source == "pyproject" else ""
            from .suggest import did_you_mean_path

            near = did_you_mean_path(target, cwd)
            raise LoadError(f"Server file {target}{where} does not exist{near} (looked in {cwd}).")
        module, root = module_name_for(path)
        return ServerSpec(text, path, module, root, attribute, source, cwd)
    if (cwd / target).is_dir() and not (cwd / target / "__init__.py").is_file():
        raise LoadError(_folder_given(target, cwd / target))  # a folder, not an importable package
    if not all(part.isidentifier() for part in target.split(".")):
        raise LoadError(
            f"{text!r} is neither a Python file nor a module name. "
            "Use file.py, file.py:object, or package.module:object."
        )
    path, root = _find_module_file(target, cwd)
    return ServerSpec(text, path, target, root, attribute, source, cwd)


def _folder_given(target: str, path: Path) -> str:
    """A folder where a file was expected: name the file in it that would be served by default."""
    found = next((name for name in DEFAULT_FILES if (path / name).is_file()), None)
    if found is not None:
        return f"{target} is a folder; name the server's file in it, e.g. {Path(target) / found}."
    files = sorted(p.name for p in path.glob("*.py"))[:5]
    listed = f" (its Python files: {', '.join(files)})" if files else " (it holds no Python file)"
    return f"{target} is a folder; name the server's file in it{listed}."


def _split_attribute(text: str) -> tuple[str, str | None]:
    """Split on the last colon, but only when what follows is a Python name (not `C:\\...`)."""
    head, sep, tail = text.rpartition(":")
    if sep and tail.isidentifier() and head:
        return head, tail
    if sep and head and not tail:
        raise LoadError(f"{text!r} ends with ':'; name the object after it, e.g. {head}:mcp.")
    if sep and head and not tail.isidentifier() and not ("/" in tail or "\\" in tail):
        raise LoadError(f"{tail!r} in {text!r} is not a Python name.")
    return text, None


def module_name_for(path: Path) -> tuple[str, Path]:
    """The real dotted module name of a file and the source root it is importable from."""
    path = path.resolve()
    parts = [] if path.name == "__init__.py" else [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        parts.insert(0, folder.name)
        folder = folder.parent
    if not parts:  # a top-level __init__.py with no package folder above it
        return path.parent.name, path.parent.parent
    return ".".join(parts), folder


def _find_module_file(module: str, cwd: Path) -> tuple[Path, Path]:
    """Locate `pkg.module` under cwd (or cwd/src) without importing anything, else via importlib."""
    rel = Path(*module.split("."))
    for root in (cwd, cwd / "src"):
        for candidate in (root / rel.with_suffix(".py"), root / rel / "__init__.py"):
            if candidate.is_file():
                return candidate.resolve(), root.resolve()
    import importlib.util

    sys.path.insert(0, str(cwd))
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        found = None
    finally:
        sys.path.remove(str(cwd))
    if found is None or not found.origin or not found.origin.endswith(".py"):
        raise LoadError(f"Module {module} was not found in {cwd}, {cwd / 'src'} or the installed packages.")
    origin = Path(found.origin).resolve()
    depth = module.count(".") + (1 if origin.name == "__init__.py" else 0)
    return origin, origin.parents[depth]


def _spec_from_pyproject(cwd: Path) -> tuple[str, Path] | None:
    """`[tool.mcpdeps] serve` from the nearest pyproject.toml, with the folder it is relative to."""
    for folder in (cwd, *cwd.parents):
        pyproject = folder / "pyproject.toml"
        if not pyproject.is_file():
            continue
        try:
            data = toml_text.loads(pyproject.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LoadError(f"{pyproject} cannot be read: {exc}.") from exc
        tool = data.get("tool", {})  # any TOML parses: `tool = 3`, `[tool] mcpdeps = "x"` too
        table = tool.get("mcpdeps", {}) if isinstance(tool, dict) else {}
        value = table.get("serve") if isinstance(table, dict) else None
        if value is None:
            return None
        if not isinstance(value, str):
            raise LoadError(f'[tool.mcpdeps] serve in {pyproject} must be a string like "server.py:mcp".')
        return value, folder
    return None


# --------------------------------------------------------------------------- static choice


def find_candidates(path: Path) -> list[Candidate]:
    """Module-level servers and server factories of one file, found without importing.

    Servers come from the static builder (`build_graph`), which follows import
    aliases the way lint does; only module-level bindings count, since a server
    built inside a function is reached through that function (a factory: any
    module-level function annotated `-> MCPServer`).
    """
    from .builder import build_graph

    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except SyntaxError:
        return []  # the import reports the syntax error with its location
    except (OSError, UnicodeDecodeError) as exc:
        raise LoadError(f"{path} cannot be read: {exc}.") from exc
    top_level = {name for node in tree.body for name in _bound_names(node)}
    # `mcp = build()`: the server that call makes is shown as the factory's (`Server.made_at`).
    calls = {
        (node.value.lineno, node.value.col_offset): name
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Call)
        for name in _bound_names(node)
    }
    found: dict[str, Candidate] = {}
    for server in build_graph([path]).servers:
        made = server.made_at
        if made is not None:
            name = calls.get((made.line, made.column - 1)) if Path(made.path).resolve() == path else None
            if name is not None:
                found.setdefault(name, Candidate(name, "instance", made.line))
        elif Path(server.path).resolve() == path and server.variable in top_level:
            line = server.span.line if server.span else 0
            found.setdefault(server.variable, Candidate(server.variable, "instance", line))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _returns_server(node.returns):
            found.setdefault(node.name, Candidate(node.name, "factory", node.lineno))
    return sorted(found.values(), key=lambda c: c.line)


def _bound_names(node: ast.stmt) -> Iterable[str]:
    """Names a module-level statement binds (assignments only: where a server instance can live)."""
    if isinstance(node, ast.AugAssign):
        return []
    return [t.id for t in assignment_targets(node) if isinstance(t, ast.Name)]


def _returns_server(expr: ast.expr | None) -> bool:
    """`-> MCPServer`, `-> mcp.server.MCPServer`, `-> "MCPServer"`, `-> MCPServer[Any]`."""
    if isinstance(expr, ast.Subscript):
        expr = expr.value
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value.split("[")[0].rsplit(".", 1)[-1] == "MCPServer"
    if isinstance(expr, ast.Attribute):
        return expr.attr == "MCPServer"
    return isinstance(expr, ast.Name) and expr.id == "MCPServer"


def choose_attribute(spec: ServerSpec) -> str | None:
    """The attribute to load when the spec names none, decided from source alone.

    One `MCPServer(...)` instance wins; else one factory; else the conventional
    names among several candidates (mcp, server, app); None means "decide after
    import by the conventional names" (a server built in a way we cannot see).
    """
    if spec.attribute is not None:
        return spec.attribute
    candidates = find_candidates(spec.path)
    instances = [c for c in candidates if c.kind == "instance"]
    pool = instances or [c for c in candidates if c.kind == "factory"]
    if len(pool) == 1:
        return pool[0].name
    conventional = [name for name in CONVENTIONAL_NAMES if any(c.name == name for c in pool)]
    if conventional:
        return conventional[0]
    if len(pool) > 1:
        listed = "; ".join(c.describe() for c in pool)
        raise LoadError(
            f"{_display(spec)} defines several servers: {listed}. "
            f"Say which one, e.g. `{_file_text(spec)}:{pool[0].name}`."
        )
    return None


# --------------------------------------------------------------------------- import


def _file_text(spec: ServerSpec) -> str:
    head, _ = _split_attribute(spec.text)
    return head


def _display(spec: ServerSpec) -> str:
    """How the server's file is named in messages: relative to cwd when possible."""
    try:
        return str(spec.path.relative_to((spec.cwd or Path.cwd()).resolve()))
    except ValueError:
        return str(spec.path)
