"""What the lint cache is keyed by: file contents and the code that judged them.

The cache itself (per-file records, what invalidates them) is `lint_rules.incremental`;
this module holds what any cache of verdicts needs: where it lives by default, a content
hash that never blocks on odd files, and a version that changes with the analyzer code.
"""

from __future__ import annotations

import functools
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .module_search import ModuleSearch

CACHE_DIR_NAME = ".mcpdeps_cache"
MAX_BYTES = 20 * 1024 * 1024
"""Larger files are reported, not parsed (`source.py`) nor hashed: no MCP server module is this big."""


def bytes_hash(data: bytes) -> str:
    """The content hash of bytes as read, and then parsed: a file is never re-read to hash it,
    so the hash the lint cache keeps is always of the text that was judged."""
    import hashlib  # not at module level: it loads OpenSSL, which a run that hashes nothing (`--no-cache`) never needs

    return hashlib.blake2b(data, digest_size=16).hexdigest()


@functools.cache
def version() -> str:
    """A fingerprint of the code that judges: every analyzer and rule module, and the Python
    that parses (its `ast` differs between versions). Computed once per process.

    The modules themselves, not the release number: a development checkout, an upgrade or a
    downgrade never serves results computed by other code, and reading the package's
    metadata (`importlib.metadata`, the email parser behind it) would cost a warm run more
    than looking at its modules.
    """
    return sources_fingerprint([Path(__file__).parent, Path(__file__).parent.parent / "lint_rules"])


def sources_fingerprint(packages: Sequence[Path]) -> str:
    """A hash of the Python version and of every module's path, size and modification time
    under `packages`.

    The interpreter itself decides whether a module's bytecode is stale by its source's size
    and modification time, so the code that runs changes only when one of these does: reading
    the modules' bytes (a megabyte) says no more, and cost a warm run more than the rest of
    its check. Every warm run computes it before anything else, so the tree is walked with
    `os.walk` and plain strings.
    """
    import hashlib  # OpenSSL's: loaded by the runs that hash (`cache.bytes_hash`)

    h = hashlib.blake2b(sys.version.encode(), digest_size=8)
    for package in packages:
        top = str(package)
        modules: list[str] = []
        for folder, folders, names in os.walk(top):
            folders[:] = [f for f in folders if f != "__pycache__"]  # compiled files, many: never listed
            prefix = os.path.join(os.path.relpath(folder, top), "") if folder != top else ""
            modules.extend(prefix + name for name in names if name.endswith(".py"))
        for module in sorted(modules):
            st = os.stat(os.path.join(top, module))
            h.update(f"{package.name}/{module}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()


PROBE = "?"
"""Prefix of the dependency key of an import probe (a `folder/name` looked up), not a file."""


def probe_key(base: Path) -> str:
    return PROBE + str(base)


def oversized(size: int) -> str:
    """The state of a regular file too large to read (`MAX_BYTES`): its size, which its
    report names, so a file that grows is reported again."""
    return f"too large: {size}"


def file_hash(path: Path) -> str | None:
    """The content hash of a regular file (`oversized` for a huge one); None when it is
    missing or not a regular file."""
    try:
        st = path.stat()
        # A FIFO named `x.py` would block the read forever; a huge file is not parsed either.
        if not stat.S_ISREG(st.st_mode):
            return None
        if st.st_size > MAX_BYTES:
            return oversized(st.st_size)
        return bytes_hash(path.read_bytes())
    except OSError:
        return None


def text_hash(text: str) -> str:
    """The hash `file_hash` gives the file holding `text` as UTF-8 (an editor's unsaved buffer)."""
    import hashlib  # OpenSSL's: loaded by the runs that hash (`cache.bytes_hash`)

    return hashlib.blake2b(text.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


def dependency_state(key: str, search: ModuleSearch | None = None) -> str | None:
    """The current state of a dependency key: a file's hash, or a probe's `ModuleSearch.state`."""
    if key.startswith(PROBE):
        from .module_search import ModuleSearch

        return (search or ModuleSearch()).state(key[len(PROBE) :])
    return file_hash(Path(key))


def default_cache_dir(anchor: Path) -> Path:
    """`.mcpdeps_cache/` at the project root (pyproject.toml or .git), else beside the input."""
    from .search_roots import find_project_root

    return (find_project_root(anchor) or anchor) / CACHE_DIR_NAME
