"""A result cache for lint runs, keyed by everything a verdict depends on.

The key covers the mcpdeps version, the rule selection and options, and the
content hash of every file discovered; an entry also records the content hash
of every other module the run read (imports followed out of the given paths),
so editing an imported module invalidates it too. Entries are JSON files
written atomically (temp file + rename), so concurrent runs never see half an
entry; a corrupt or foreign entry is simply a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CACHE_DIR_NAME = ".mcpdeps_cache"
_FORMAT = 1


def version() -> str:
    """The mcpdeps version plus a fingerprint of its rule and analyzer code.

    The fingerprint (size and mtime of each module) makes a development checkout or an
    upgraded install never serve results computed by other code with the same version.
    """
    try:
        from importlib.metadata import version as dist_version

        release = dist_version("mcpdeps")
    except Exception:  # pragma: no cover - running from a source tree without metadata
        release = "0+unknown"
    h = hashlib.blake2b(digest_size=8)
    for package in (Path(__file__).parent, Path(__file__).parent.parent / "lint_rules"):
        for module in sorted(package.rglob("*.py")):
            st = module.stat()
            h.update(f"{module.name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return f"{release}+{h.hexdigest()}"


def file_hash(path: Path) -> str | None:
    try:
        if not path.is_file():  # a FIFO named `x.py` would block the read forever
            return None
        return hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
    except OSError:
        return None


def default_cache_dir(anchor: Path) -> Path:
    """`.mcpdeps_cache/` at the project root (pyproject.toml or .git), else beside the input."""
    from resolver_core.project import find_project_root

    return (find_project_root(anchor) or anchor) / CACHE_DIR_NAME


@dataclass(slots=True)
class CacheKey:
    digest: str
    inputs: dict[str, str | None]


def make_key(files: Iterable[Path], options: Sequence[str]) -> CacheKey:
    """Hash the version, the options and every given file's content."""
    inputs = {str(p): file_hash(p) for p in sorted(files)}
    h = hashlib.sha256()
    h.update(f"{_FORMAT}|{version()}|".encode())
    # surrogateescape: a file or folder name that is not valid UTF-8 is hashed as its bytes.
    h.update("\0".join(options).encode("utf-8", "surrogateescape"))
    for path, digest in inputs.items():
        h.update(f"\0{path}={digest}".encode("utf-8", "surrogateescape"))
    return CacheKey(h.hexdigest(), inputs)


class ResultCache:
    """Load and store one JSON entry per key under a cache folder."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _entry(self, key: CacheKey) -> Path:
        return self.directory / key.digest[:2] / f"{key.digest}.json"

    def load(self, key: CacheKey) -> dict[str, Any] | None:
        try:
            entry = json.loads(self._entry(key).read_text())
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("format") != _FORMAT:
            return None
        deps = entry.get("deps", {})
        if any(file_hash(Path(p)) != digest for p, digest in deps.items()):
            return None
        return entry

    def store(self, key: CacheKey, payload: dict[str, Any], deps: Iterable[Path]) -> None:
        entry = {
            "format": _FORMAT,
            "deps": {str(p): file_hash(p) for p in deps if str(p) not in key.inputs},
            **payload,
        }
        target = self._entry(key)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            gitignore = self.directory / ".gitignore"
            if not gitignore.exists():
                gitignore.write_text("# Created by mcpdeps: the lint cache is never committed.\n*\n")
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w") as out:
                json.dump(entry, out)
            os.replace(tmp, target)
        except OSError:
            return  # a read-only or full disk never fails a lint run
