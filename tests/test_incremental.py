"""The incremental cache never changes a verdict.

A property test: a multi-package project (two servers, resolvers shared by tools of
several files, questions, duplicate names across files, suppressions) goes through
random edits — comments, broken and renamed resolvers, tools switched to another
module's resolvers, syntax errors, suppressions, `Sample(include_context=...)`, files
added and removed, a `register(server)` function — and after each edit the cached run
must report exactly what a cold run reports (every field, fixes included), while
re-checking fewer files when the edit allows it.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import pytest
from mcpdeps.lint_rules import LintResult, lint
from mcpdeps.lint_rules.lint_state import State
from mcpdeps.lint_rules.slice_plan import MIN_FILES_PER_JOB
from mcpdeps.resolver_core.diagnostics import plain
from mcpdeps.resolver_core.file_states import RACY_NS

# One xdist worker runs this module (`--dist loadfile`): the coverage test reuses what the
# 40 seeds' property tests saw instead of running 30 of them again (~16 s).

HEADER = """from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel

from mcp.server.mcpserver import Context, Elicit, Resolve, Sample
from mcp.types import SamplingMessage, TextContent
"""

DEPS = """

class Confirm{i}(BaseModel):
    ok: bool


async def load_{i}(title: str) -> str:
    return title


def score_{i}(record: Annotated[str, Resolve(load_{i})], ctx: Context) -> int:
    return len(record)


async def confirm_{i}(title: str, record: Annotated[str, Resolve(load_{i})]) -> Elicit[Confirm{i}]:
    return Elicit(f"{{title}}?", Confirm{i})


def suggest_{i}(title: str) -> Sample:
    message = SamplingMessage(role="user", content=TextContent(type="text", text=title))
    return Sample([message], max_tokens=10)


ScoreDep{i} = Annotated[int, Resolve(score_{i})]
"""

TOOLS = """

@{server}.tool()
async def tool_{i}_{k}(
    title: str,
    record: Annotated[str, Resolve(deps.load_{d})],
    score: deps.ScoreDep{d},
    ok: Annotated[deps.Confirm{d}, Resolve(deps.confirm_{d})],
) -> str:
    return title
"""

REGISTER = """from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve

from pkg0.deps_0 import load_0


def register(server: MCPServer) -> None:
    @server.tool()
    def registered(title: str, record: Annotated[str, Resolve(load_0)]) -> str:
        return record
"""


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def make_project(root: Path, rng: random.Random, modules: int = 6) -> None:
    _write(root / "pyproject.toml", "[project]\nname = 'p'\nversion = '0'\n")
    _write(
        root / "app" / "server.py",
        "from mcp.server import MCPServer\n\nmcp = MCPServer('a')\nother = MCPServer('b')\n",
    )
    if rng.random() < 0.5:  # else `app` is a namespace package: module names come from imports
        _write(root / "app" / "__init__.py", "")
    for i in range(modules):
        pkg = root / f"pkg{i % 2}"
        _write(pkg / "__init__.py", "")
        _write(pkg / f"deps_{i}.py", HEADER + DEPS.format(i=i))
        d = rng.randrange(modules)  # tools of several files share one module's resolvers
        tools = [
            HEADER,
            "\nfrom app.server import mcp, other\n",
            f"from pkg{d % 2} import deps_{d} as deps\n",
        ]
        for k in range(2):
            tools.append(TOOLS.format(i=i, k=k, d=d, server="mcp" if (i + k) % 3 else "other"))
        _write(pkg / f"tools_{i}.py", "".join(tools))


def _files(root: Path, prefix: str) -> list[Path]:
    return sorted(p for p in root.rglob(f"{prefix}*.py"))


def _edit(root: Path, rng: random.Random) -> str:
    """One random edit; returns what it did (for the failure message)."""
    deps, tools = _files(root, "deps_"), _files(root, "tools_")
    kind = rng.choice(
        [
            "comment",
            "break_resolver",
            "fix_resolver",
            "switch_deps",
            "duplicate_name",
            "syntax_error",
            "fix_syntax",
            "suppress",
            "include_context",
            "add_file",
            "remove_file",
            "register",
            "unregister",
            "drop_resolver",
            "shadow",
            "unshadow",
            "bad_schema",
            "positional_only",
            "add_tool_elsewhere",
            "prompt",
            "builtin_resolver",
            "cross_module_resolver",
            "file_suppress",
            "method_resolver",
            "subclass_server",
            "missing_import",
            "create_missing",
            "delete_module",
            "package_beside",
        ]
    )
    on_deps = (
        "break_resolver",
        "fix_resolver",
        "include_context",
        "drop_resolver",
        "bad_schema",
        "positional_only",
        "cross_module_resolver",
        "file_suppress",
    )
    target = rng.choice(deps if kind in on_deps else tools or deps)
    text = target.read_text()
    if kind == "comment":
        text += f"\n# edit {rng.random()}\n"
    elif kind == "break_resolver":
        text = text.replace("async def load_", "async def load_x_", 0).replace(
            "(title: str) -> str:", "(user_id: str) -> str:", 1
        )
    elif kind == "fix_resolver":
        text = text.replace("(user_id: str) -> str:", "(title: str) -> str:")
    elif kind == "switch_deps":
        n = rng.randrange(len(deps))
        lines = [
            f"from {deps[n].parent.name} import {deps[n].stem} as deps" if line.endswith(" as deps") else line
            for line in text.splitlines()
        ]
        text = "\n".join(lines) + "\n"
        stem = deps[n].stem.split("_")[1]
        text = _renumber(text, stem)
    elif kind == "duplicate_name":
        server = "@mcp.tool()" if "@mcp.tool()" in text else "@other.tool()"
        text = text.replace(server, server.replace("()", '(name="popular")'), rng.choice([1, -1]))
    elif kind == "syntax_error":
        text += "\ndef broken(:\n"
    elif kind == "fix_syntax":
        text = text.replace("\ndef broken(:\n", "\n")
    elif kind == "suppress":
        lines = text.splitlines()
        at = rng.randrange(len(lines))
        code = rng.choice(["MCPD002", "MCPD110", "MCPD105", "MCPD003"])
        lines[at] += f"  # mcpdeps: ignore[{code}]"
        text = "\n".join(lines) + "\n"
    elif kind == "include_context":
        text = text.replace("max_tokens=10)", "max_tokens=10, include_context='thisServer')")
    elif kind == "add_file":
        n = len(tools) + 100
        _write(
            root / "pkg1" / f"tools_{n}.py",
            HEADER
            + "\nfrom app.server import mcp, other\nfrom pkg0 import deps_0 as deps\n"
            + TOOLS.format(i=n, k=0, d=0, server="mcp"),
        )
        return f"add tools_{n}.py"
    elif kind == "remove_file":
        if len(tools) > 1:
            target.unlink()
        return f"remove {target.name}"
    elif kind == "register":
        _write(root / "app" / "extra.py", REGISTER)
        _write(
            root / "app" / "wire.py",
            "from app.extra import register\nfrom app.server import mcp\n\nregister(mcp)\n",
        )
        return "register(server) pattern"
    elif kind == "unregister":
        for name in ("extra.py", "wire.py"):
            (root / "app" / name).unlink(missing_ok=True)
        return "no register(server) pattern"
    elif kind == "add_tool_elsewhere":  # a function of another module registered here
        n = rng.randrange(10**6)
        text += f"\n\nmcp.add_tool(deps.score_{_used_deps(text)}, name='score_{n}')\n"
    elif kind == "prompt":  # Resolve on a prompt parameter (MCPD102), registered here
        n = rng.randrange(10**6)
        d = _used_deps(text)
        text += (
            f"\n\n@mcp.prompt()\ndef prompt_{n}(title: Annotated[str, Resolve(deps.load_{d})] = 'a') -> str:\n"
            "    return title\n"
        )
    elif kind == "cross_module_resolver":  # a resolver depending on another module's
        peer = rng.choice(deps)
        text = _depend_on(text, peer)
        if rng.random() < 0.5 and peer != target:  # and back: a cycle across modules
            peer.write_text(_depend_on(peer.read_text(), target))
    elif kind == "method_resolver":  # a bound method of an instance made in another module
        d = _used_deps(text)
        dep = (
            next(p for p in deps if p.stem == f"deps_{d}")
            if any(p.stem == f"deps_{d}" for p in deps)
            else None
        )
        if dep is not None and f"class Svc{d}" not in dep.read_text():
            dep.write_text(
                dep.read_text() + f"\n\nclass Svc{d}:\n    def get(self, title: str) -> str:\n"
                f"        return title\n\n\nsvc_{d} = Svc{d}()\n"
            )
        n = rng.randrange(10**6)
        text += f"\n\n@other.tool()\ndef method_{n}(title: str, v: Annotated[str, Resolve(deps.svc_{d}.get)]) -> str:\n    return v\n"
    elif kind == "subclass_server":  # a server class defined in another module
        _write(
            root / "app" / "base.py",
            "from mcp.server import MCPServer\n\n\nclass Big(MCPServer):\n    pass\n",
        )
        server = root / "app" / "server.py"
        server.write_text(
            server.read_text().replace(
                "other = MCPServer('b')", "from app.base import Big\n\nother = Big('b')"
            )
        )
        return "subclass server"
    elif kind == "file_suppress":
        text = f"# mcpdeps: ignore-file[{rng.choice(['MCPD001', 'MCPD002', 'MCPD103', 'MCPD1'])}]\n" + text
    elif kind == "builtin_resolver":  # no source to point at: the same callable in many files
        n = rng.randrange(10**6)
        fn = rng.choice(["len", "max", "dict", "print"])
        text += f"\n\n@mcp.tool()\ndef builtin_{n}(title: str, v: Annotated[int, Resolve({fn})]) -> str:\n    return title\n"
    elif kind == "bad_schema":  # a shared resolver's question the SDK cannot render (MCPD103)
        text = text.replace("    ok: bool", "    ok: list[dict[str, int]]", 1)
    elif kind == "positional_only":  # a shared resolver's parameter the SDK cannot fill (MCPD106)
        text = text.replace("(title: str) -> str:", "(title: str, /) -> str:", 1)
    elif kind in ("shadow", "unshadow"):
        # A package's __init__ binding a name that is also a submodule wins over the submodule.
        pkg = rng.choice([d.parent for d in deps])
        mine = sorted(d.stem for d in deps if d.parent == pkg)
        text = f"from . import {rng.choice(mine)} as {rng.choice(mine)}\n" if kind == "shadow" else ""
        (pkg / "__init__.py").write_text(text)
        return f"{kind} {pkg.name}"
    elif kind == "drop_resolver":
        text = text.replace("async def confirm_", "async def gone_confirm_", 1)
    elif kind == "missing_import":  # a module that does not exist (yet): MCPD113 until it does
        n = rng.randrange(10)
        text = text.replace(
            "\nfrom app.server", f"\nimport pkg{n % 2}.later_{n} as later_{n}\nfrom app.server", 1
        )
        text += (
            f"\n\n@mcp.tool()\ndef later_tool_{rng.randrange(10**6)}(title: str, "
            f"v: Annotated[str, Resolve(later_{n}.load)]) -> str:\n    return v\n"
        )
    elif kind == "create_missing":  # the missing module appears, right or wrong
        wanted = sorted({m for f in tools for m in _later_modules(f.read_text())})
        if not wanted:
            return "create_missing: nothing missing"
        pkg, name = rng.choice(wanted)
        arg = rng.choice(["title", "user_id"])
        _write(root / pkg / f"{name}.py", f"def load({arg}: str) -> str:\n    return {arg}\n")
        return f"create {pkg}/{name}.py"
    elif kind == "delete_module":  # an imported module disappears (a deps module or a late one)
        late = sorted(root.rglob("later_*.py"))
        victim = rng.choice(late + deps)
        victim.unlink()
        return f"delete {victim.relative_to(root)}"
    elif kind == "package_beside":  # `deps_N/__init__.py` beside `deps_N.py`: Python takes the package
        dep = rng.choice(deps)
        broken = dep.read_text().replace("(title: str) -> str:", "(user_id: str) -> str:", 1)
        _write(dep.parent / dep.stem / "__init__.py", broken if rng.random() < 0.7 else dep.read_text())
        return f"package beside {dep.relative_to(root)}"
    target.write_text(text)
    return f"{kind} {target.relative_to(root)}"


def _later_modules(text: str) -> list[tuple[str, str]]:
    """The (package, module) of each `import pkgK.later_N as later_N` in a tools module."""
    import re

    return re.findall(r"import (pkg\d)\.(later_\d+) as", text)


def _depend_on(text: str, peer: Path) -> str:
    """Make the first resolver of a module depend on `peer`'s `load_N`."""
    j = peer.stem.split("_")[1]
    text = text.replace(
        "from mcp.types import",
        f"from {peer.parent.name} import {peer.stem} as peer_{j}\nfrom mcp.types import",
        1,
    )
    return text.replace(
        "(title: str) -> str:", f"(title: str, other: Annotated[str, Resolve(peer_{j}.load_{j})]) -> str:", 1
    )


def _used_deps(text: str) -> str:
    """The number of the resolver module a tools module imports as `deps`."""
    import re

    found = re.search(r"import deps_(\d+) as deps", text)
    return found[1] if found else "0"


def _renumber(text: str, stem: str) -> str:
    """Point the tools at the resolvers of the module they now import."""
    import re

    return re.sub(
        r"deps\.(load|ScoreDep|Confirm|confirm)_?(\d+)",
        lambda m: f"deps.{m[1]}{'' if m[1] in ('ScoreDep', 'Confirm') else '_'}{stem}",
        text,
    )


def _dump(result: LintResult) -> list[dict]:
    return [plain(d) for d in result.diagnostics]


SEEN: dict[int, set[str]] = {}
"""The codes each seed's cold runs reported, kept by the test below for the one after it (this
module runs on one xdist worker, in order): a seed it did not run is run again."""


@pytest.mark.parametrize("seed", range(int(__import__("os").environ.get("SEEDS", "40"))))
def test_incremental_runs_report_exactly_what_cold_runs_report(tmp_path: Path, seed: int) -> None:
    SEEN[seed] = _random_edits(tmp_path, seed)


def test_the_random_edits_reach_every_cross_file_case(tmp_path: Path) -> None:
    """The edits above are worth something only if they produce what couples files."""
    seen: set[str] = set()
    for seed in range(30):
        seen |= SEEN[seed] if seed in SEEN else _random_edits(tmp_path / str(seed), seed)
    assert {
        "MCPD000",
        "MCPD001",
        "MCPD002",
        "MCPD102",
        "MCPD103",
        "MCPD105",
        "MCPD106",
        "MCPD110",
        "MCPD114",
    } <= seen


def _random_edits(tmp_path: Path, seed: int, named: bool = False) -> set[str]:
    """Ten random edits, cached vs cold after each; `named`: lint a few files by name, as
    pre-commit does (the rest is only reached through imports)."""
    rng = random.Random(seed)
    root = tmp_path / "proj"
    make_project(root, rng)
    paths = ["."]
    if named:
        paths = sorted(str(p.relative_to(root)) for p in rng.sample(sorted(root.rglob("tools_*.py")), 3))
    cache = tmp_path / "cache"
    lint(paths, cwd=root, cache_dir=cache)  # fill the cache
    history: list[str] = []
    seen: set[str] = set()
    for _ in range(10):
        history.append(_edit(root, rng))
        if rng.random() < 0.25:  # an edit lands while a cached run is parsing (an editor saving)
            history.append(_edit_during_run(root, rng, paths, cache))
        cold = lint(paths, cwd=root)
        warm = lint(paths, cwd=root, cache_dir=cache)
        assert _dump(warm) == _dump(cold), f"after: {history}"
        assert (warm.files, warm.parsed) == (cold.files, cold.parsed), f"after: {history}"
        seen.update(d.code for d in cold.diagnostics)
    return seen


def _same_size_edit(root: Path, rng: random.Random) -> str:
    """An edit only the inode's ctime shows: same length, and the mtime put back as it was."""
    path = rng.choice(sorted(root.rglob("*.py")))
    text = path.read_text()
    swapped = text.replace("(title: str) -> str:", "(tapir: str) -> str:", 1)
    if swapped == text:
        swapped = text.replace("(tapir: str) -> str:", "(title: str) -> str:", 1)
    if swapped == text:
        swapped = text.replace("import", "imp0rt", 1)  # a syntax error of the same length
    before = path.stat()
    path.write_text(swapped)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size and path.stat().st_mtime_ns == before.st_mtime_ns
    return f"same-size {path.relative_to(root)}"


def _stats(cache: Path) -> dict[str, list[int]]:
    """The stats the cache's one state keeps (see `State.stats`)."""
    (state,) = cache.rglob("mcpdeps-lint-*.json")
    loaded = State.from_json(json.loads(state.read_text()))
    assert loaded is not None
    return loaded.stats


@pytest.mark.parametrize("seed", range(int(__import__("os").environ.get("SEEDS", "40")) // 8))
def test_runs_that_trust_stats_report_exactly_what_cold_runs_report(tmp_path: Path, seed: int) -> None:
    """With every file older than the racy window, a warm run reads only what its stat says
    changed; random edits (half of them visible only in the ctime) must still be seen."""
    rng = random.Random(seed)
    root, cache = tmp_path / "proj", tmp_path / "cache"
    make_project(root, rng)
    time.sleep(RACY_NS / 1e9 + 0.2)
    lint(["."], cwd=root, cache_dir=cache)
    assert set(_stats(cache)) == {str(p.absolute()) for p in root.rglob("*.py")}
    history: list[str] = []
    for _ in range(8):
        history.append(_same_size_edit(root, rng) if rng.random() < 0.5 else _edit(root, rng))
        cold = lint(["."], cwd=root)
        warm = lint(["."], cwd=root, cache_dir=cache)
        assert _dump(warm) == _dump(cold), f"after: {history}"
        assert (warm.files, warm.parsed) == (cold.files, cold.parsed), f"after: {history}"


def test_a_file_changed_within_the_racy_window_is_read_again(tmp_path: Path) -> None:
    """Written just before a run, a file's stat vouches for nothing: a same-size edit with the
    mtime put back (all the stat could miss) is seen by the next run."""
    rng = random.Random(3)
    root, cache = tmp_path / "proj", tmp_path / "cache"
    make_project(root, rng)
    first = lint(["."], cwd=root, cache_dir=cache)
    assert _stats(cache) == {}
    history = [_same_size_edit(root, rng) for _ in range(3)]
    assert _dump(lint(["."], cwd=root, cache_dir=cache)) == _dump(lint(["."], cwd=root)), history
    assert first.analysed == first.files


def _edit_during_run(root: Path, rng: random.Random, paths: list[str], cache: Path) -> str:
    """A cached run during which one random edit is made, right after the run parsed the file
    it edits (or after the n-th file it parsed): that run judged the old text; the next cached
    run must not keep its verdict."""
    from mcpdeps.resolver_core.project import Project

    load_path = Project.load_path
    after = rng.randrange(1, 8)
    done: list[str] = []

    def load_then_edit(self: Project, path: Path, data: bytes | None = None, **how: bool):  # type: ignore[no-untyped-def]
        module = load_path(self, path, data, **how)
        if not done and len(self.modules) >= after:
            parsed = [m.path for m in self.modules if m.path.stem.startswith("deps_")]
            if parsed and rng.random() < 0.7:  # one the run has already judged: verdicts change
                victim = rng.choice(parsed)
                text = victim.read_text()
                swapped = text.replace("(title: str) -> str:", "(user_id: str) -> str:", 1)
                victim.write_text(
                    swapped if swapped != text else text.replace("(user_id: str)", "(title: str)")
                )
                done.append(f"toggle {victim.relative_to(root)}")
            else:
                done.append(_edit(root, rng))
        return module

    Project.load_path = load_then_edit  # type: ignore[method-assign]
    try:
        lint(paths, cwd=root, cache_dir=cache)
    finally:
        Project.load_path = load_path  # type: ignore[method-assign]
    return f"during-run {done[0] if done else 'nothing'}"


@pytest.mark.parametrize("seed", range(int(__import__("os").environ.get("SEEDS", "40")) // 2))
def test_incremental_runs_on_named_files_report_exactly_what_cold_runs_report(
    tmp_path: Path, seed: int
) -> None:
    _random_edits(tmp_path, seed, named=True)


def test_an_edit_rechecks_the_file_and_its_importers_only(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    make_project(root, random.Random(0), modules=8)
    cache = tmp_path / "cache"
    first = lint(["."], cwd=root, cache_dir=cache)
    assert first.analysed == first.files
    assert lint(["."], cwd=root, cache_dir=cache).analysed == 0
    tools = root / "pkg0" / "tools_0.py"
    tools.write_text(tools.read_text() + "\n# a comment\n")
    assert lint(["."], cwd=root, cache_dir=cache).analysed == 1
    server = root / "app" / "server.py"
    server.write_text(server.read_text() + "\n")
    # Every tools file imports the server: all of them (and only those, plus the server) again.
    again = lint(["."], cwd=root, cache_dir=cache)
    assert again.analysed == len(_files(root, "tools_")) + 1


def test_a_run_with_nothing_to_recheck_builds_no_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every record stands: the analyzer is not asked, not even for a graph of no file (a
    warm run whose report memo missed then stays clear of importing it)."""
    root = tmp_path / "proj"
    make_project(root, random.Random(0), modules=8)
    cache = tmp_path / "cache"
    first = lint(["."], cwd=root, cache_dir=cache)
    from mcpdeps.resolver_core import builder

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a graph was built with nothing to re-check")

    monkeypatch.setattr(builder, "build_graph", refuse)
    again = lint(["."], cwd=root, cache_dir=cache)
    assert again.analysed == 0
    assert _dump(again) == _dump(first)


def test_workers_report_exactly_what_one_process_reports(tmp_path: Path) -> None:
    """`--jobs N` splits a large run over forked workers; the verdicts must not move."""
    root = tmp_path / "proj"
    make_project(root, random.Random(7), modules=MIN_FILES_PER_JOB)  # tools and deps: twice as many files
    for i in (3, 17, 41):  # something to report in several workers' slices
        deps = root / f"pkg{i % 2}" / f"deps_{i}.py"
        deps.write_text(deps.read_text().replace("(title: str) -> str:", "(user_id: str) -> str:", 1))
    tools = root / "pkg1" / "tools_59.py"
    tools.write_text(tools.read_text().replace("@mcp.tool()", '@mcp.tool(name="tool_0_1")', 1))
    one = lint(["."], cwd=root, jobs=1)
    many = lint(["."], cwd=root, jobs=2)
    assert one.files >= 2 * MIN_FILES_PER_JOB, "large enough for the workers to be used"
    assert one.graph.servers and not many.graph.servers, "the graphs stayed in the workers"
    assert {d.code for d in one.diagnostics} >= {"MCPD002", "MCPD110"}
    assert _dump(many) == _dump(one)
    assert (many.files, many.parsed, many.analysed) == (one.files, one.parsed, one.analysed)
    cache = tmp_path / "cache"
    lint(["."], cwd=root, cache_dir=cache, jobs=2)
    assert _dump(lint(["."], cwd=root, cache_dir=cache, jobs=1)) == _dump(one)


def test_edited_files_no_build_parsed_read_the_module_names_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A branch checked out edits hundreds of files the prefilter turns away: each one's imports
    stand for its closure (`invalidation.reached`), matched against the files' module names
    taken once, not once per file (that was the run's files times the edited ones)."""
    from mcpdeps.lint_rules import coupling, invalidation
    from mcpdeps.lint_rules.per_file import FileRecord

    display_of: dict[str, str] = {}
    for n in range(40):
        path = tmp_path / f"m{n}.py"
        path.write_text(f"import m{(n + 1) % 40}\n")
        display_of[str(path)] = path.name
    taken = []
    real = coupling._module_names
    monkeypatch.setattr(coupling, "_module_names", lambda *a: taken.append(1) or real(*a))
    checked = {display: FileRecord() for display in display_of.values()}
    deps = {display: [key] for key, display in display_of.items()}
    invalidation.reached(checked, deps, {}, {}, display_of, edited=set(checked))
    assert len(taken) == 1
