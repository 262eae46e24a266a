"""Property: after any history of edits and runs on changing lists of files, a run with the
cache reports what the same run without it reports.

pre-commit passes each commit's files: a new list almost every time, so a run takes up the
records other lists' runs kept (`lint_rules.adoption`), checks again what an edit reached
(`invalidation`), and keeps the rest. A record kept or taken up wrongly shows only after a
particular history: a helper's record from before its caller was edited beside the caller's
from after it. So each case here is a history: a small project (`app/server.py`'s server,
`features/*.py` registering one tool each through `register(server)` or an `@expose`
registrar, resolvers in `app/deps.py`, an entry point calling the helpers in one of four
styles), random edits of it (tool renames that make or remove duplicate names, a caller
changing style or which helpers it calls, resolvers removed or shadowed by a package,
helpers added and deleted), and after each, `lint` on a list of one to three files, or `.`,
compared with a cold run. A failure prints the history (`Step`s) to replay it.

The standard is agreement, cached against cold; what the SDK does with these projects is
the other tests' subject (the cold verdicts are the ones they check).
"""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from mcpdeps.lint_rules import LintResult, lint
from mcpdeps.resolver_core.diagnostics import plain

FEATURES = ("alpha", "beta", "gamma", "delta")
TOOL_NAMES = ("alpha", "beta", "dup", "dup")
"""Tool names a feature's tool takes: `dup` twice as often, so renames make duplicates."""
RESOLVERS = ("load_ok", "load_bad", "load_new")
"""`load_bad` takes a parameter no tool argument names (MCPD002); `load_new` exists only once
an edit adds it to `app/deps.py` (MCPD007 before)."""
STYLES = ("module", "factory", "installer", "relay")
EDITS = (
    *("tool", "tool", "resolver", "spelling", "exposed", "more", "calls", "style", "style"),
    *("server", "resolvers", "add", "remove", "shadow", "factory", "other"),
)
"""The kinds of edit (`edit`), renames and the callers' style twice as often."""


@dataclass(frozen=True)
class Feature:
    """`features/<name>.py`: one tool, registered by `register(server)` or `@expose`."""

    tool: str
    resolver: str = "load_ok"
    spelling: str = "from"
    """How it names its resolver: `from app.deps import r`, `deps.r` (`module`), or a
    function of its own (`local`)."""
    exposed: bool = False
    more: bool = False
    """A second helper, `register_more(server)`, no one calls."""


@dataclass(frozen=True)
class Project:
    """What a history edits: the fields its files are rendered from (`render`), so that a
    failing history prints as a few lines rather than as files."""

    features: dict[str, Feature]
    calls: tuple[str, ...]
    """The features whose `register` `app/main.py` (and `app/relay.py`'s `install`) call."""
    style: str = "module"
    server: str = "x"
    resolvers: tuple[str, ...] = ("load_ok", "load_bad")
    shadow: bool = False
    """`app/deps/__init__.py` beside `app/deps.py`: the package is the module imported."""
    factory: tuple[str, ...] | None = None
    """The features `app/main2.py`'s factory registers on a server of its own."""
    other: bool = False
    """`app/other.py`, which nothing imports (added or deleted: the project's files change)."""


@dataclass(frozen=True)
class Step:
    """One step of a history: an edit (`kind` and the fields it sets) or a run on `paths`."""

    kind: str
    paths: tuple[str, ...] = ()
    feature: str = ""
    value: object = None


@dataclass
class History:
    """A project and what happens to it, edits and runs in order (`replay`)."""

    start: Project
    steps: list[Step] = field(default_factory=list)

    def __str__(self) -> str:
        """The history as code: `replay(<this>, tmp_path)` in a test replays it."""
        steps = "".join(f"        {step!r},\n" for step in self.steps)
        return f"History(\n    start={self.start!r},\n    steps=[\n{steps}    ],\n)"


def _feature_text(name: str, f: Feature) -> str:
    server = "" if f.exposed else "from mcp.server import MCPServer\n"
    imports = f"from typing import Annotated\n\n{server}from mcp.server.mcpserver import Resolve\n"
    resolver = {"from": f.resolver, "module": f"deps.{f.resolver}", "local": "load_local"}[f.spelling]
    imports += {
        "from": f"from app.deps import {f.resolver}\n",
        "module": "from app import deps\n",
        "local": "",
    }[f.spelling]
    signature = f"def {f.tool}(x: int, d: Annotated[str, Resolve({resolver})]) -> str:\n"
    if f.exposed:
        text = f"{imports}from app.expose import expose\n\n\n@expose\n{signature}    return d\n"
    else:
        text = f"{imports}\n\ndef register(server: MCPServer) -> None:\n    @server.tool()\n    {signature}        return d\n"
    if f.more:
        text += f"\n\ndef register_more(server: MCPServer) -> None:\n    @server.tool()\n    def {f.tool}_more(x: int) -> str:\n        return str(x)\n"
    if f.spelling == "local":
        text += "\n\ndef load_local(x: int) -> str:\n    return str(x)\n"
    return text


def _caller_text(calls: tuple[str, ...], style: str) -> str:
    imports = "".join(f"from features import {c}\n" for c in calls)
    if style == "module":
        return f"from app.server import mcp\n{imports}\n" + "".join(f"{c}.register(mcp)\n" for c in calls)
    if style == "relay":
        tool = "@mcp.tool()\ndef main_tool(x: int) -> str:\n    return str(x)\n"
        return f"from app.server import mcp\nfrom app import relay\n\nrelay.install(mcp)\n{tool}"
    body = "".join(f"    {c}.register(s)\n" for c in calls) or "    pass\n"
    if style == "relayed":  # app/relay.py: hands on the server it is given
        return f"from mcp.server import MCPServer\n{imports}\n\ndef install(s: MCPServer) -> None:\n{body}"
    if style == "factory":
        return f"from mcp.server import MCPServer\n{imports}\n\ndef make() -> MCPServer:\n    s = MCPServer('y')\n{body}    return s\n"
    return f"from app.server import mcp\nfrom mcp.server import MCPServer\n{imports}\n\ndef install_all(s: MCPServer) -> None:\n{body}\n\ninstall_all(mcp)\n"


def render(p: Project) -> dict[str, str]:
    """The project's files by path."""
    deps = "".join(
        f"def {r}(nope: str) -> str:\n    return nope\n\n\n"
        if r == "load_bad"
        else f"def {r}(x: int) -> str:\n    return str(x)\n\n\n"
        for r in p.resolvers
    )
    files = {
        "pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n",
        "app/__init__.py": "",
        "features/__init__.py": "",
        "app/server.py": f"from mcp.server import MCPServer\n\nmcp = MCPServer({p.server!r})\n",
        "app/deps.py": deps or "VALUE = 1\n",
        "app/expose.py": "from app.server import mcp\n\n\ndef expose(fn):\n    mcp.add_tool(fn)\n    return fn\n",
        "app/main.py": _caller_text(p.calls, p.style),
        "app/relay.py": _caller_text(p.calls, "relayed"),
    }
    if p.shadow:
        files["app/deps/__init__.py"] = "def load_ok(nope: str) -> str:\n    return nope\n"
    if p.other:
        files["app/other.py"] = "VALUE = 1\n"
    if p.factory is not None:
        files["app/main2.py"] = _caller_text(p.factory, "factory")
    files.update({f"features/{n}.py": _feature_text(n, f) for n, f in p.features.items()})
    return files


def write(root: Path, p: Project) -> None:
    """Make `root` hold the project's files, and no other: unchanged files are not touched."""
    wanted = render(p)
    for path in [*root.rglob("*.py")]:
        if path.relative_to(root).as_posix() not in wanted and ".cache" not in path.parts:
            path.unlink()
    for rel, text in wanted.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    package = root / "app" / "deps"
    if package.is_dir() and not (package / "__init__.py").exists():
        shutil.rmtree(package)


def start(rng: random.Random) -> Project:
    names = rng.sample(FEATURES, rng.randint(2, 4))
    features = {
        n: Feature(
            rng.choice((*TOOL_NAMES[:3], n, n)),
            rng.choice(("load_ok", "load_ok", "load_bad")),
            rng.choice(("from", "from", "module", "local")),
            exposed=rng.random() < 0.2,
            more=rng.random() < 0.2,
        )
        for n in names
    }
    calls = tuple(rng.sample(sorted(features), rng.randint(1, len(features))))
    factory = (rng.choice(sorted(features)),) if rng.random() < 0.3 else None
    return Project(features, calls, rng.choice(STYLES), factory=factory, other=rng.random() < 0.5)


def edit(rng: random.Random, p: Project) -> Step:
    """A random edit of `p`, as a `Step` (`apply` makes it)."""
    name = rng.choice(sorted(p.features))
    kind = rng.choice(EDITS)
    if kind == "tool":
        return Step(kind, feature=name, value=rng.choice((*TOOL_NAMES, name)))
    if kind == "resolver":
        return Step(kind, feature=name, value=rng.choice(RESOLVERS))
    if kind == "spelling":
        return Step(kind, feature=name, value=rng.choice(("from", "module", "local")))
    if kind in ("exposed", "more"):
        return Step(kind, feature=name)
    if kind == "calls":
        return Step(kind, value=tuple(rng.sample(sorted(p.features), rng.randint(0, len(p.features)))))
    if kind == "style":
        return Step(kind, value=rng.choice(STYLES))
    if kind == "server":
        return Step(kind, value=rng.choice("xyz"))
    if kind == "resolvers":
        return Step(kind, value=rng.choice(RESOLVERS))
    if kind == "add":
        free = [n for n in FEATURES if n not in p.features]
        if not free:
            return Step("remove", feature=name)
        return Step(kind, feature=rng.choice(free), value=(rng.choice(TOOL_NAMES), rng.random() < 0.5))
    if kind == "factory":
        return Step(kind, value=None if p.factory is not None else (name,))
    return Step(kind, feature=name)


def apply(p: Project, step: Step) -> Project:
    """`p` after the edit `step` (a feature that is gone leaves it as it is)."""
    features = dict(p.features)
    f = features.get(step.feature)
    if step.kind in ("tool", "resolver", "spelling") and f is not None:
        features[step.feature] = replace(f, **{step.kind: step.value})
        return replace(p, features=features)
    if step.kind in ("exposed", "more") and f is not None:
        features[step.feature] = replace(f, **{step.kind: not getattr(f, step.kind)})
        return replace(p, features=features)
    if step.kind == "calls":
        assert isinstance(step.value, tuple)
        return replace(p, calls=tuple(c for c in step.value if c in features))
    if step.kind in ("style", "server", "factory"):
        return replace(p, **{step.kind: step.value})
    if step.kind == "resolvers":
        return replace(p, resolvers=tuple(sorted(set(p.resolvers) ^ {str(step.value)})))
    if step.kind in ("shadow", "other"):
        return replace(p, **{step.kind: not getattr(p, step.kind)})
    if step.kind == "add" and f is None:
        assert isinstance(step.value, tuple)
        tool, called = step.value
        features[step.feature] = Feature(tool)
        return replace(p, features=features, calls=p.calls + (step.feature,) * called)
    if step.kind == "remove" and f is not None and len(features) > 1:
        del features[step.feature]
        factory = p.factory and tuple(c for c in p.factory if c != step.feature)
        return replace(
            p, features=features, calls=tuple(c for c in p.calls if c != step.feature), factory=factory
        )
    return p


def choose(rng: random.Random, p: Project) -> tuple[str, ...]:
    """What a run is given: `.` now and then, else one to three feature modules (with the
    entry point and the resolver module among them a fifth of the time), as a commit's
    files."""
    roll = rng.random()
    if roll < 0.1:
        return (".",)
    pool = [f"features/{n}.py" for n in sorted(p.features)] + ["app/main.py", "app/deps.py"] * (roll < 0.3)
    return tuple(rng.sample(pool, min(len(pool), rng.choice((1, 1, 2, 2, 3)))))


def random_history(seed: int, length: int = 14) -> History:
    """A seed's history: `length` runs, most after one or two edits."""
    rng = random.Random(seed)
    history = History(start(rng))
    project = history.start
    for i in range(length):
        if i and rng.random() < 0.6:
            for _ in range(rng.randint(1, 2)):
                step = edit(rng, project)
                project = apply(project, step)
                history.steps.append(step)
        history.steps.append(Step("lint", choose(rng, project)))
    return history


def replay(history: History, root: Path) -> list[LintResult]:
    """Make the history's edits and runs, asserting after each run that the cached run
    reports what a cold one does; the cached runs' results."""
    project = history.start
    write(root, project)
    results = []
    for i, step in enumerate(history.steps):
        if step.kind != "lint":
            project = apply(project, step)
            write(root, project)
            continue
        results.append(lint(list(step.paths), cwd=root, cache_dir=root / ".cache"))
        cached = [plain(d) for d in results[-1].diagnostics]
        cold = [plain(d) for d in lint(list(step.paths), cwd=root).diagnostics]
        if cached != cold:
            missed = [(d["code"], d["path"], d["tool"]) for d in cold if d not in cached]
            extra = [(d["code"], d["path"], d["tool"]) for d in cached if d not in cold]
            history.steps[i + 1 :] = []
            pytest.fail(f"cached run missed {missed}, added {extra} at the end of\n{history}", pytrace=False)
    return results


def _run(*paths: str) -> Step:
    return Step("lint", paths)


def test_a_helper_called_after_lint_dot_is_not_taken_from_it(tmp_path: Path) -> None:
    """An attack's history (fuzz3 seed 5140), shortened: `lint .` keeps `alpha.py`'s record registering `dup` on its
    `server` parameter (nothing calls it); `main.py` is edited to call it after `gamma.py`'s
    `dup`; `lint features/beta.py` keeps `main.py`'s new record (a caller: its closure holds
    `alpha.py`). `lint features/alpha.py` took `main.py`'s record from that run and
    `alpha.py`'s from `lint .`, whose `main.py` did not call it: the cold run's MCPD110 at
    `alpha.py` (`dup` first registered by `gamma.py`) was missed."""
    start = Project({"alpha": Feature("dup"), "beta": Feature("beta"), "gamma": Feature("dup")}, ("beta",))
    steps = [_run("."), Step("calls", value=("gamma", "alpha", "beta")), _run("features/beta.py")]
    replay(History(start, [*steps, _run("features/alpha.py")]), tmp_path)


def test_a_helper_taken_up_beside_an_edited_caller_keeps_its_duplicate(tmp_path: Path) -> None:
    """An attack's history (fuzz3 seed 5809), shortened: a run on three features keeps `beta.py`'s record while
    `main.py` calls only `alpha`; `main.py` is edited to call `beta` too, and
    `lint features/delta.py` (whose `@expose dup` lands on `mcp`) keeps `main.py`'s new
    record. `lint alpha.py delta.py beta.py` took `beta.py`'s record from the first run
    (`dup` on its parameter): the cold run's MCPD110 at `beta.py` (`dup` first registered by
    `delta.py`'s `@expose`) was missed."""
    features = {"alpha": Feature("alpha"), "beta": Feature("dup"), "gamma": Feature("gamma", exposed=True)}
    start = Project({**features, "delta": Feature("dup", exposed=True)}, ("alpha",))
    steps = [
        _run("features/gamma.py", "features/alpha.py", "features/beta.py"),
        Step("calls", value=("gamma", "beta", "alpha")),
        _run("features/delta.py"),
        _run("features/alpha.py", "features/delta.py", "features/beta.py"),
    ]
    replay(History(start, steps), tmp_path)


def test_helpers_are_taken_up_beside_their_unchanged_callers_records_from_another_run(tmp_path: Path) -> None:
    """A helper's record is taken up beside a caller's record from another list's run when the
    caller stood alike in both: `lint app/deps.py` keeps the records of `beta.py` and
    `delta.py` (companions importing it) and of `main.py` (their caller, a factory); `lint
    features/beta.py features/delta.py` keeps `main.py`'s again. `lint app/deps.py
    features/delta.py` takes the helpers' records from the first run and `main.py`'s from the
    second, and checks nothing again (5 files, when a helper's callers had to come from its
    own run), with the cold run's report."""
    start = Project(
        {"delta": Feature("dup"), "beta": Feature("dup", "load_bad")}, ("beta", "delta"), "factory"
    )
    runs = [("app/deps.py",), ("features/beta.py", "features/delta.py"), ("app/deps.py", "features/delta.py")]
    assert replay(History(start, [_run(*paths) for paths in runs]), tmp_path)[-1].analysed == 0


SEEDS = (19, 1470, 81, 250, 328, 161, 191, 51, 74, 116, 118, 147, 214, 218, 240, 244, 262, 271, 278, 290)
"""Histories that exercise what failed before. 19 and 1470 failed before adoption checked a
coupled record's callers against those its state knew (of 1,500 seeds, the only two; 5140 and
5809 above are the same fault). Of the first 400 seeds, the others drop the most coupled
records for their callers (81, 250, 328, 161, 191), or take up the most beside a caller from
another state that stood there alike (the rest); together they hold every kind of edit, and
lists of one, two and three files and `.`."""


@pytest.mark.parametrize("seed", SEEDS)
def test_a_cached_run_reports_what_a_cold_run_does_after_a_random_history(tmp_path: Path, seed: int) -> None:
    """Each run of a seed's history, with the cache the earlier runs left, reports what the
    same run without a cache does."""
    replay(random_history(seed), tmp_path)
