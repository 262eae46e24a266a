"""The folders an agent may make `mcpdeps mcp` read and write: the client's roots, else the cwd.

The roots come from the client through a resolver returning `ListRoots()` (the
SDK asks, on either protocol generation, and injects the `ListRootsResult`). A
client that does not declare the roots capability is not asked: the workspace
falls back to the folder the server was started in, and every result says so.

Every path a tool receives is checked here before anything under it is read:
`..` is refused outright, the path must exist, and once symlinks are followed
it must still lie inside one of the roots. Files found inside a folder are held
to the same rule (a symlink in the project that leads out of it is refused), and
a file named explicitly must be Python source of a size the analyzer accepts.
Imports are then followed the way `mcpdeps lint` follows them (within the project
root, which may lie above a client root); results only ever name such modules'
paths and lines, never their text.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import Annotated
from urllib.parse import unquote, urlparse
from urllib.request import url2pathname

from mcp.server.mcpserver import Context, ListRoots, Resolve
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ListRootsResult, Root

from ...resolver_core.cache import MAX_BYTES
from ...resolver_core.discovery import discover
from ...resolver_core.records import record
from ...resolver_core.suggest import did_you_mean_path
from .models import WorkspaceInfo

SNIFF_BYTES = 8192
"""How much of an explicitly named file is read to tell source from binary data."""


@record
class Workspace:
    """The allowed roots (resolved), the first one being where relative paths start."""

    roots: tuple[Path, ...]
    from_client: bool
    note: str | None = None
    listed: tuple[Path, ...] = ()
    """The roots as the client spelled them, before symlinks were followed (paths may use either)."""

    @classmethod
    def of(cls, folders: Sequence[Path], *, from_client: bool, note: str | None = None) -> Workspace:
        listed = tuple(dict.fromkeys(Path(os.path.abspath(f)) for f in folders))
        return cls(tuple(dict.fromkeys(f.resolve() for f in listed)), from_client, note, listed)

    @classmethod
    def fallback(cls, why: str) -> Workspace:
        cwd = Path.cwd()
        return cls.of(
            [cwd], from_client=False, note=f"{why}, so the workspace is the server's folder, {cwd}."
        )

    @property
    def base(self) -> Path:
        return self.roots[0]

    def info(self) -> WorkspaceInfo:
        return WorkspaceInfo(
            roots=[str(r) for r in self.roots], source="client" if self.from_client else "cwd", note=self.note
        )

    def contains(self, path: Path) -> bool:
        """Whether a real path (symlinks followed) lies in a root."""
        return any(path.is_relative_to(root) for root in self.roots)

    def may_contain(self, path: Path) -> bool:
        """Whether a path, as written, lies in a root: decided before the file system is touched."""
        return any(path.is_relative_to(root) for root in (*self.roots, *self.listed))

    def where(self) -> str:
        return ", ".join(str(r) for r in self.roots)


@record
class Targets:
    """Checked path arguments, as given (relative to `workspace.base`, which is the run's cwd)."""

    paths: list[str]
    workspace: Workspace

    @property
    def cwd(self) -> Path:
        return self.workspace.base


def client_roots(ctx: Context) -> ListRoots | None:
    """Ask the client for its roots, unless it declared it has none to give."""
    capabilities = ctx.client_capabilities
    return ListRoots() if capabilities is not None and capabilities.roots is not None else None


def current_workspace(listed: Annotated[ListRootsResult | None, Resolve(client_roots)]) -> Workspace:
    """The client's `file://` roots, resolved; the server's folder when there are none."""
    if listed is None:
        return Workspace.fallback("The client does not share its roots")
    folders = [folder for folder in map(_root_path, listed.roots) if folder is not None]
    if listed.roots and not folders:  # roots were given: never widened to the server's folder
        raise ToolError(
            f"The client's roots ({', '.join(str(r.uri) for r in listed.roots[:3])}) are not folders "
            "of this machine (file: URIs), and mcpdeps reads only inside the roots it is given; nothing was read."
        )
    if not folders:
        return Workspace.fallback("The client listed no roots")
    return Workspace.of(folders, from_client=True)


def _root_path(root: Root) -> Path | None:
    """A `file://` root as a folder; other schemes name nothing mcpdeps can read."""
    uri = urlparse(str(root.uri))
    if uri.scheme != "file" or uri.netloc not in ("", "localhost"):
        return None
    return Path(url2pathname(unquote(uri.path)))


def check_path(workspace: Workspace, given: str) -> Path:
    """The real path of one argument; a ToolError (nothing read) unless it is usable and inside."""
    if not given.strip():
        raise ToolError("An empty path was given; name a file or folder inside the workspace.")
    if "\0" in given:
        raise ToolError(f"{given!r} contains a NUL character, which no file name can hold; nothing was read.")
    if ".." in PurePath(given).parts:
        raise ToolError(f"{given!r} contains '..', which is refused; give the path from a workspace root.")
    candidate = Path(os.path.abspath(given if os.path.isabs(given) else workspace.base / given))
    if not workspace.may_contain(candidate):
        raise ToolError(
            f"{given} is outside the workspace ({workspace.where()}); nothing was read. "
            "Only files under the client's roots can be checked."
        )
    try:
        real = candidate.resolve(strict=True)
    except FileNotFoundError:
        close = did_you_mean_path(given, workspace.base)
        raise ToolError(f"{given} does not exist in the workspace ({workspace.base}){close}.") from None
    except (OSError, RuntimeError) as exc:  # a symlink loop, a permission error on a parent
        raise ToolError(f"{given} cannot be resolved: {getattr(exc, 'strerror', None) or exc}.") from None
    if not workspace.contains(real):
        raise ToolError(
            f"{given} is a symlink leading outside the workspace ({workspace.where()}); nothing was read."
        )
    return real


def check_source_file(given: str, real: Path) -> None:
    """A file named explicitly must be a regular file of source text the analyzer will read."""
    try:
        st = real.stat()
        if not stat.S_ISREG(st.st_mode):
            raise ToolError(f"{given} is not a regular file or folder (a pipe, socket or device).")
        if st.st_size > MAX_BYTES:
            raise ToolError(
                f"{given} is {st.st_size // (1024 * 1024)} MiB, larger than the {MAX_BYTES // (1024 * 1024)} MiB "
                "of source mcpdeps analyses."
            )
        with real.open("rb") as handle:
            head = handle.read(SNIFF_BYTES)
    except OSError as exc:
        raise ToolError(f"{given} cannot be read: {exc.strerror or exc}.") from None
    if b"\0" in head:
        raise ToolError(f"{given} is a binary file, not Python source.")


def check_targets(workspace: Workspace, paths: Sequence[str]) -> Targets:
    """Every argument checked, and every file inside a given folder too (symlinks leading out refused)."""
    if not paths:
        raise ToolError('No path was given; name at least one file or folder ("." for the workspace root).')
    folders = []
    for given in paths:
        real = check_path(workspace, given)
        if real.is_dir():
            folders.append(given)
        else:
            check_source_file(given, real)
    for found in discover(folders, (), workspace.base) if folders else ():
        if not workspace.contains(found.path.resolve()):
            raise ToolError(
                f"{found.display} is a symlink leading outside the workspace ({workspace.where()}); "
                "nothing was read. Name the files to check, or add the folder it leads to as a root."
            )
    return Targets(list(paths), workspace)


def lint_targets(paths: list[str], workspace: Annotated[Workspace, Resolve(current_workspace)]) -> Targets:
    """The `paths` argument of `lint` and `fix`, checked against the workspace."""
    return check_targets(workspace, paths)


def graph_target(file: str, workspace: Annotated[Workspace, Resolve(current_workspace)]) -> Targets:
    """The `file` argument of `graph`, checked against the workspace."""
    return check_targets(workspace, [file])
