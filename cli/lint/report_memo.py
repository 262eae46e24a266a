"""A `lint` run with nothing changed prints the report the last such run printed, as it was.

Why: with every verdict cached, what was left of a warm run was loading the diagnostics'
models (pydantic), the rules, the analyzer modules they import and the renderers (rich),
only to print the same bytes again: most of its time, in every format. A report is a
function of its inputs, so when none of them changed the stored text is the report.

What a report depends on makes the memo's key (`open_memo`), computed without loading any
of that:

- the code: the analyzer's, the rules' and the front ends' sources and the Python
  (`cache.sources_fingerprint`), the release (`mcpdeps.__version__`, which SARIF names:
  a bump alone changes the report), and the installed rich, which styles the human formats;
- the command line as read (`LintArgs`) and the working folder;
- the configuration file the settings come from, by its bytes (the same bytes validate to
  the same settings, so they are not validated here);
- the environment, every variable but the shell's own bookkeeping (rich alone reads
  `NO_COLOR`, `FORCE_COLOR`, `COLUMNS`, `TERM` and more), and where the output goes: which
  standard streams are terminals, their size and their encodings.

What the text was computed from is kept beside it (`file_states.Seen`): the given files, the
state of every dependency of every verdict, and the folders imports were looked in
(`search_roots`: `git init` or a new `src/` moves an import without changing a file). The
memo holds while all of that does, checked exactly as the lint cache checks its records (a
file whose stat is unchanged is not read; one changed within the racy window always is).

Runs that edit files or read stdin (`--fix`, `--diff`, `--stdin-filename`) and `--no-cache`
runs neither use nor keep a memo. An engine: no typer, no rich, no pydantic.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import os
import re
import sys
from importlib.machinery import PathFinder
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...lint_rules.config_files import candidates as config_candidates
from ...lint_rules.config_files import search_start
from ...resolver_core import bounded_read, file_guard
from ...resolver_core.cache import sources_fingerprint, version
from ...resolver_core.file_states import Seen
from ...resolver_core.records import record

if TYPE_CHECKING:
    from ...resolver_core.discovery import SourceFile
    from .argv import LintArgs

_FORMAT = 2
MEMO_NAME = re.compile(r"mcpdeps-report-[0-9a-f]{32}\.json")
"""How mcpdeps names its report memos (pruned like the states: only files named so)."""
KEEP_MEMOS = 16
"""Memos kept per cache folder (one per command line, configuration and terminal)."""
MAX_MEMO_BYTES = 256 * 1024 * 1024

BOOKKEEPING = frozenset({"_", "OLDPWD", "PWD", "SHLVL"})
"""Variables a shell changes between commands that no run reads (the folder is keyed apart)."""


@record
class Memo:
    """Where the report of one keyed run is kept."""

    key: str
    path: Path
    cache_dir: Path


def open_memo(args: LintArgs, targets: list[str], cwd: Path, cache_dir: Path) -> Memo | None:
    """The memo of this run, or None when the run may not use one."""
    if args.fix or args.diff or args.stdin_filename is not None or args.no_cache:
        return None
    config = _config_identity(targets, args.config_file, cwd)
    if config is None:
        return None
    parts = {
        "format": _FORMAT,
        "code": _code(),
        "args": {k: _plain(v) for k, v in dataclasses.asdict(args).items()},
        "targets": targets,
        "cwd": str(cwd),
        "config": config,
        "env": sorted((k, v) for k, v in os.environ.items() if k not in BOOKKEEPING),
        "streams": _streams(),
    }
    # ASCII JSON: a name that is not valid UTF-8 (a surrogate escape) is hashed as its escape.
    key = hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()
    return Memo(key, cache_dir / "lint" / f"mcpdeps-report-{key[:32]}.json", cache_dir)


@functools.cache
def _code() -> list[str]:
    """What of the key is the code: read once per process (a run that keeps its report keys
    itself twice, and the modules it runs do not change under it). The release is read from
    the package when the key is made, not bound at import."""
    from ... import __version__

    return [
        version(),
        sources_fingerprint([Path(__file__).parents[1]]),
        __version__,
        _installed("rich"),
    ]


@record
class Lookup:
    """What looking for a stored report found."""

    report: tuple[str, int] | None = None
    """The stored text and exit code, when nothing they were computed from has changed."""
    files: list[SourceFile] | None = None
    """The run's files, when they were discovered to find out (the run then reuses them)."""


def replay(memo: Memo, targets: list[str], cwd: Path) -> Lookup:
    """The stored report, if nothing it was computed from has changed."""
    from ...resolver_core.companions import run_files
    from ...resolver_core.discovery import signature, unreadable_note
    from ...resolver_core.search_roots import default_roots, root_names

    try:
        data = json.loads(bounded_read.read_text(memo.path, "the report memo", MAX_MEMO_BYTES))
        if data.get("format") != _FORMAT or data.get("key") != memo.key:
            return Lookup()
        seen = Seen(data["files"], data["hashes"], data["stats"], data["roots"])
        text, code, exclude, src = data["text"], data["code"], data["exclude"], data["src"]
        if not (isinstance(text, str) and isinstance(code, int) and isinstance(exclude, list)):
            return Lookup()
        # The same key means the same settings, so these are the files the run would check
        # (the importers of the given files too: a file that starts importing one is checked).
        files = run_files(targets, exclude, cwd, memo.cache_dir)
        if unreadable_note(files) is not None:  # said on every run: the run computes its report
            return Lookup(files=files)
        given = [f for f in files if not f.companion]
        if not seen.holds(signature(files), root_names(default_roots(given, targets, cwd, src))):
            return Lookup(files=files)
    except (bounded_read.Unreadable, ValueError, RecursionError, KeyError, TypeError, AttributeError):
        return Lookup()  # no memo, or a damaged or foreign one: the run computes its report
    return Lookup(report=(text, code))


def keep(memo: Memo, text: str, code: int, seen: Seen, exclude: list[str], src: list[str]) -> None:
    """Store a report with what it was computed from (never fails the run)."""
    seen = seen.recent_first()
    data = {
        "format": _FORMAT,
        "key": memo.key,
        "exclude": exclude,
        "src": src,
        "roots": seen.roots,
        "files": seen.files,
        "hashes": seen.hashes,
        "stats": seen.stats,
        "text": text,
        "code": code,
    }
    with contextlib.suppress(OSError, ValueError):
        dumped = json.dumps(data, separators=(",", ":"))  # ASCII: surrogates are escaped
        file_guard.store_pruned(memo.path, dumped, memo.cache_dir, MEMO_NAME, KEEP_MEMOS)


def _config_identity(targets: list[str], explicit: Path | None, cwd: Path) -> list[list[str]] | None:
    """Every file the settings can come from, with a hash of its bytes: `--config FILE`, else
    each configuration file name present in the folders from the first path up (`[]` for
    none). More than the one `config_files.locate_config` picks, so nothing is parsed to
    know which (a table added to a `pyproject.toml` changes its bytes too). None when one
    cannot be read: the run then says why, as it would without a memo."""
    candidates = [cwd / explicit] if explicit is not None else config_candidates(search_start(targets, cwd))
    found = []
    for path in candidates:
        if explicit is None and not path.is_file():
            continue
        try:
            data = bounded_read.read_bytes(path, "the configuration file")
        except (bounded_read.Unreadable, OSError):
            return None
        found.append([str(path.absolute()), hashlib.sha256(data).hexdigest()])
    return found


def _installed(package: str) -> str:
    """Which copy and release of `package` the import system finds (its distribution's name)."""
    spec = PathFinder.find_spec(package, sys.path)
    if spec is None or not spec.submodule_search_locations:
        return ""
    home = Path(next(iter(spec.submodule_search_locations))).parent
    try:
        names = sorted(n for n in os.listdir(home) if n.startswith(f"{package}-") and n.endswith("-info"))
    except OSError:
        names = []
    return f"{home}:{','.join(names)}"


def _streams() -> list[Any]:
    """What styles and sizes output: which standard streams are terminals, how large, their codecs."""
    out: list[Any] = []
    for fd in (0, 1, 2):
        try:
            out.append(list(os.get_terminal_size(fd)) if os.isatty(fd) else None)
        except OSError:
            out.append(None)
    for stream in (sys.stdout, sys.stderr):
        out.append([getattr(stream, "encoding", None), getattr(stream, "errors", None)])
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
