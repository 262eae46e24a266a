"""Coupled files (registrations on a server parameter) are checked in one slice with their callers.

`lint_rules.coupling` puts each file that registers on a parameter in one slice with every
file that may import it, in one process as in workers (the same groups); the verdicts must be
those of one build of every file, on
the layouts that pass a server around: a helper reached through a package's `__init__`,
helpers passing the server on, a factory's local server, a loop over modules, a class
taking the server in `__init__`, and a `def tool(fn): mcp.add_tool(fn)` decorator.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import slices_checked_in_workers, worker_tasks
from mcpdeps.lint_rules import LintResult, coupling, incremental, lint, slice_plan
from mcpdeps.resolver_core.diagnostics import plain
from mcpdeps.resolver_core.discovery import discover
from test_incremental import make_project

LAYOUT = {
    # `tool_0_1` is also a tool of `pkg0/tools_0.py` on `mcp`: MCPD110 needs the callers.
    "reg/notes.py": (
        "from typing import Annotated\n\nfrom mcp.server import MCPServer\n"
        "from mcp.server.mcpserver import Resolve\n\n\n"
        "def who(user_id: str) -> str:\n    return user_id\n\n\n"
        "def register(server: MCPServer) -> None:\n"
        "    @server.tool()\n"
        "    def tool_0_1(query: str, who: Annotated[str, Resolve(who)] | None = None) -> str:\n"
        "        return query\n"
    ),
    "reg/__init__.py": "from .notes import register\n",
    "wiring/install.py": "import reg\n\n\ndef install(server):\n    reg.register(server)\n",
    "wiring/__init__.py": "",
    "zzz_main.py": "from app.server import mcp\nfrom wiring.install import install\n\ninstall(mcp)\n",
    "factory/build.py": (
        "from mcp.server import MCPServer\nfrom wiring.install import install\n\n\n"
        "def build() -> MCPServer:\n    server = MCPServer('f')\n    install(server)\n    return server\n"
    ),
    "loops/a.py": (
        "from mcp.server import MCPServer\n\n\ndef register(server: MCPServer) -> None:\n"
        "    @server.tool()\n    def tool_1_0(x: int) -> int:\n        return x\n"
    ),
    "loops/b.py": (
        "from mcp.server import MCPServer\n\n\ndef register(server: MCPServer) -> None:\n"
        "    @server.tool(name='tool_1_0')\n    def other(x: int) -> int:\n        return x\n"
    ),
    "zzz_loop.py": "from app.server import other\nfrom loops import a, b\n\nfor m in (a, b):\n    m.register(other)\n",
    "klass/tools.py": (
        "from mcp.server import MCPServer\n\n\nclass Tools:\n"
        "    def __init__(self, mcp: MCPServer) -> None:\n"
        "        @mcp.tool()\n        def tool_2_0(x: int) -> int:\n            return x\n"
    ),
    "zzz_class.py": "from app.server import mcp\nfrom klass.tools import Tools\n\nTools(mcp)\n",
    "deco/tool.py": "from app.server import mcp\n\n\ndef tool(fn):\n    mcp.add_tool(fn)\n    return fn\n",
    "zzz_deco.py": "from deco.tool import tool\n\n\n@tool\ndef tool_3_0(x: int) -> int:\n    return x\n",
}


def _project(root: Path, seed: int) -> Path:
    make_project(root, random.Random(seed), modules=24)
    for name, text in LAYOUT.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _dump(result: LintResult) -> list[dict[str, Any]]:
    return [plain(d) for d in result.diagnostics]


def _whole_builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many files each build of every given file checked (`check_files(whole=True)`)."""
    seen: list[int] = []
    real: Callable[..., Any] = incremental.check_files

    def check_files(origins: list[str], *args: Any, **how: Any) -> Any:
        if how.get("whole"):
            seen.append(len(origins))
        return real(origins, *args, **how)

    monkeypatch.setattr(incremental, "check_files", check_files)
    return seen


def _workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(slice_plan, "MIN_FILES_PER_JOB", 2)
    monkeypatch.setattr(slice_plan, "MAX_FILES_PER_SLICE", 8)


def test_each_coupled_file_is_grouped_with_every_file_that_may_call_it(tmp_path: Path) -> None:
    root = _project(tmp_path / "proj", 0)
    files = discover(["."], (), root)
    path_of = {f.display: f.path.absolute() for f in files}
    origins = [f.display for f in files]
    coupled = coupling.coupled_files(origins, path_of)
    assert coupled is not None
    plan = coupling.coupling_groups(origins, path_of, coupled, coupling.registering_helpers(origins, path_of))
    group_of = {o: i for i, group in enumerate(plan.groups) for o in group}
    same = [
        # the helper, the `__init__` re-exporting it, the helper passing the server on, and the
        # two callers of that helper (module-level code and a factory)
        ["reg/notes.py", "reg/__init__.py", "wiring/install.py", "zzz_main.py", "factory/build.py"],
        ["loops/a.py", "loops/b.py", "zzz_loop.py"],
        ["klass/tools.py", "zzz_class.py"],
    ]
    for names in same:
        assert len({group_of[n] for n in names}) == 1, names
    # A decorator registering what it is handed on its module's server: its callers' tools are
    # theirs, found in any slice holding the caller, which builds the decorator beside it.
    assert {"deco/tool.py", "zzz_deco.py"} <= set(plan.free)
    assert plan.helpers["deco/tool.py"] == {"zzz_deco.py"}
    assert "pkg0/tools_0.py" in plan.free, "registers at module level: checked anywhere"
    assert sorted([*group_of, *plan.free]) == sorted(path_of)


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("seed", range(3))
def test_slices_report_what_one_build_of_every_file_reports(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, seed: int, jobs: int
) -> None:
    root = _project(tmp_path / "proj", seed)
    whole = lint(["."], cwd=root)
    assert {"MCPD110", "MCPD003"} <= {d.code for d in whole.diagnostics}
    _workers(monkeypatch)
    builds = _whole_builds(monkeypatch)
    sliced = lint(["."], cwd=root, jobs=jobs)
    assert _dump(sliced) == _dump(whole)
    assert builds == [], "the groups were confirmed: no build of every file"
    if jobs == 1:
        texts = {path: info.text for path, info in sliced.graph.sources.items()}
        assert texts == {path: info.text for path, info in whole.graph.sources.items()}
    assert _dump(lint(["."], cwd=root, jobs=jobs, cache_dir=tmp_path / "cache")) == _dump(whole)


def test_one_process_and_workers_check_the_same_slices(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """One plan (`slice_plan.plan`): each coupling group is one slice in this process, in
    pieces for workers (`coupling.pieces`), and the other files are cut in the same order,
    for workers into a multiple of their number (`slice_plan.free_slices`)."""
    root = _project(tmp_path / "proj", 0)
    _workers(monkeypatch)
    checked: list[list[str]] = []
    real: Callable[..., Any] = incremental.check_files

    def check_files(origins: list[str], *args: Any, **how: Any) -> Any:
        checked.append(list(origins))
        return real(origins, *args, **how)

    monkeypatch.setattr(incremental, "check_files", check_files)
    one = lint(["."], cwd=root, jobs=1)
    in_process = list(checked)
    checked.clear()
    sent = worker_tasks(monkeypatch)
    assert _dump(lint(["."], cwd=root, jobs=2)) == _dump(one)
    handed = slices_checked_in_workers(sent)
    assert len(in_process) > 2, "sliced, and no build of every file"
    assert checked == [], "every slice checked by the workers"
    assert [o for s in handed for o in s] == [o for s in in_process for o in s]
    files = discover(["."], (), root)
    path_of = {f.display: f.path.absolute() for f in files}
    alone, shared = (slice_plan.plan([f.display for f in files], path_of, jobs) for jobs in (1, 2))
    assert alone is not None and alone[0] and shared is not None, "coupling groups"
    assert all(group.origins in in_process and not group.extras for group in alone[0])
    assert all(piece.origins in handed for piece in shared[0]), "workers share a group in pieces"
    assert len(handed) % 2 == 0, "as many slices for each worker"


def test_a_caller_the_text_did_not_show_costs_one_build_of_every_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`coupling.confirmed` checks the groups against the imports the builds followed: a
    caller left out of its group sends the coupled records to one build of every file."""
    root = _project(tmp_path / "proj", 1)
    whole = lint(["."], cwd=root)
    real = coupling.coupling_groups

    def missing_a_caller(origins: list[str], path_of: dict[str, Path], *rest: Any) -> coupling.Groups:
        plan = real(origins, path_of, *rest)
        plan.groups = [[o for o in g if o != "zzz_main.py"] for g in plan.groups]
        plan.free.append("zzz_main.py")
        return plan

    _workers(monkeypatch)
    monkeypatch.setattr(slice_plan, "coupling_groups", missing_a_caller)
    for jobs in (1, 2):
        builds = _whole_builds(monkeypatch)
        assert _dump(lint(["."], cwd=root, jobs=jobs)) == _dump(whole)
        assert len(builds) == 1, "the coupled records, checked again"


def test_a_group_of_too_many_files_is_one_build_in_this_process(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A group is one worker's build: when it holds more than `MAX_GROUP_SHARE` of the files,
    the other workers would save little, and the run is one build in this process, same
    verdicts (the workers, forked before the plan, only scanned the imports for it)."""
    root = _project(tmp_path / "proj", 2)
    whole = lint(["."], cwd=root)
    _workers(monkeypatch)
    monkeypatch.setattr(slice_plan, "MAX_GROUP_SHARE", 0.05)
    sent = worker_tasks(monkeypatch)
    builds = _whole_builds(monkeypatch)
    assert _dump(lint(["."], cwd=root, jobs=2)) == _dump(whole)
    assert [task for task, _ in sent] == ["scan"] and len(builds) == 1


COLLECTED = {
    "collect.py": (
        "from collections.abc import Callable\nfrom typing import Any\n\n"
        "TOOLS: list[Callable[..., Any]] = []\n\n\n"
        "def journal_tool(fn: Callable[..., Any]) -> Callable[..., Any]:\n    TOOLS.append(fn)\n    return fn\n"
    ),
    "journal_tools.py": (
        "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\nfrom collect import journal_tool\n\n\n"
        "def tags_of(entry: str) -> list[str]:\n    return [entry]\n\n\n"
        "@journal_tool\ndef tag(entry: str, tags: Annotated[list[str], Resolve(tags_of)] | None = None) -> str:\n"
        "    return entry\n"
    ),
    "zzz_server.py": (
        "from app.server import mcp\n\nimport journal_tools  # noqa: F401\nfrom collect import TOOLS\n\n\n"
        "def build() -> None:\n    for fn in TOOLS:\n        mcp.add_tool(fn)\n"
    ),
}


def test_tools_a_loop_registers_are_found_by_one_build_of_every_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`for fn in TOOLS: mcp.add_tool(fn)` registers what a decorator collected, in a file that
    neither imports the registering one nor is imported by it: no group can hold them, and
    the run is one build of every file (`coupling.coupled_files` says None)."""
    root = _project(tmp_path / "proj", 0)
    for name, text in COLLECTED.items():
        (root / name).write_text(text)
    files = discover(["."], (), root)
    path_of = {f.display: f.path.absolute() for f in files}
    assert coupling.coupled_files(list(path_of), path_of) is None
    whole = lint(["."], cwd=root)
    assert any(d.path == "journal_tools.py" for d in whole.diagnostics)
    _workers(monkeypatch)
    assert _dump(lint(["."], cwd=root, jobs=2)) == _dump(whole)


def _written(tmp_path: Path, files: dict[str, str]) -> Path:
    """A project of `make_project` with `files` added."""
    root = _project(tmp_path / "proj", 1)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _coupled(root: Path) -> set[str]:
    """The files the plan takes for coupled (`coupling.coupled_files`)."""
    path_of = {f.display: f.path.absolute() for f in discover(["."], (), root)}
    return set(coupling.coupled_files(list(path_of), path_of) or ())


def _in_slices_of_one_file_alike(
    monkeypatch: pytest.MonkeyPatch, root: Path, whole: LintResult, jobs: int
) -> None:
    """A run in slices of one file each reports what one build of every file does, without
    checking any file again over one build of every file."""
    _workers(monkeypatch)
    monkeypatch.setattr(slice_plan, "MAX_FILES_PER_SLICE", 1)
    builds = _whole_builds(monkeypatch)
    sliced = lint(["."], cwd=root, jobs=jobs)
    assert _dump(sliced) == _dump(whole) and (sliced.servers, sliced.tools) == (whole.servers, whole.tools)
    assert builds == []


KIT = {
    # The SDK's decorator bound at a module's top level, and a decorator registering what it
    # is handed on its module's server: the defs they are applied to are their importers' tools.
    "kit/bound.py": "from app.server import mcp\n\ntool = mcp.tool()\n",
    "kit/expose.py": "from app.server import mcp\n\n\ndef expose(fn):\n    mcp.add_tool(fn)\n    return fn\n",
    # Neither spells an MCP marker: the prefilter turns both away, and a build reads them only
    # because the helper it scans asks for `tool` and `expose` (`skipped_callers`).
    "uses/a_bound.py": (
        "from typing import Annotated\n\nfrom kit.bound import tool\nfrom uses.needs import Needs, ask\n\n\n"
        "@tool\ndef bound_tool(x: int, d: Annotated[Needs, ask]) -> int:\n    return x\n"
    ),
    "uses/b_exposed.py": (
        "from typing import Annotated\n\nfrom kit.expose import expose\nfrom uses.needs import Needs, ask_too\n\n\n"
        "@expose\ndef exposed_tool(x: int, d: Annotated[Needs, ask_too]) -> int:\n    return x\n"
    ),
    "uses/needs.py": (
        "from mcp.server.mcpserver import Resolve\n\n\nclass Needs:\n    pass\n\n\n"
        "def load(nope: str) -> Needs:\n    return Needs()\n\n\nask = Resolve(load)\n\n\n"
        "def load_too(nope: str) -> Needs:\n    return Needs()\n\n\nask_too = Resolve(load_too)\n"
    ),
}


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_helper_registering_what_it_is_handed_is_built_with_every_slice_using_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, jobs: int
) -> None:
    """Slices of one file each: the tools `@tool` and `@expose` register are found in the slice
    of the file applying them, which builds the helper beside it (`coupling.extras`), and
    the helpers are grouped with no file (their records depend on no caller)."""
    root = _written(tmp_path, KIT)
    whole = lint(["."], cwd=root)
    refused = {(d.code, d.tool) for d in whole.diagnostics if d.path == "uses/needs.py"}
    assert refused == {("MCPD002", "bound_tool"), ("MCPD002", "exposed_tool")}
    assert not {"kit/bound.py", "kit/expose.py"} & _coupled(root)
    _in_slices_of_one_file_alike(monkeypatch, root, whole, jobs)
    alone = lint(["uses/b_exposed.py"], cwd=root)
    assert {(d.code, d.tool) for d in alone.diagnostics} == {("MCPD002", "exposed_tool")}
    assert alone.tools == 1, "the tool counts as the file's own"


def test_a_group_in_pieces_holds_every_caller_of_each_coupled_file() -> None:
    """`coupling.pieces`: each coupled file's piece holds all of its callers; every file is
    recorded by exactly one piece; one part (one process) is the group whole."""
    group = ["a.py", "b.py", "c.py", "d.py", "main.py", "relay.py"]
    callers = {
        "a.py": {"main.py"},
        "b.py": {"relay.py", "main.py"},
        "c.py": {"main.py"},
        "d.py": {"c.py", "main.py"},
    }
    assert coupling.pieces(group, callers, 1) == [coupling.Piece(group, [])]
    pieces = coupling.pieces(group, callers, 2)
    assert [p.origins for p in pieces] == [["a.py", "b.py", "main.py", "relay.py"], ["c.py", "d.py"]]
    assert [p.extras for p in pieces] == [[], ["main.py"]]
    for name, around in callers.items():
        (piece,) = [p for p in pieces if name in p.origins]
        assert around <= {*piece.origins, *piece.extras}
    assert sorted(o for p in pieces for o in p.origins) == sorted(group)


def test_a_group_is_cut_in_pieces_only_where_its_pieces_end_sooner() -> None:
    """`coupling.piece_count`: each piece builds the group's callers again, so two workers cut
    a group only when it outweighs the other files' work; more workers cut it sooner, never
    into more pieces than asked; one worker never. A file the prefilter turns away weighs a
    32nd of its bytes."""
    text = {f"g{i}.py": b"import mcp\n" + b"#" * 989 for i in range(10)}
    text |= {f"f{i}.py": b"import mcp\n" + b"#" * 989 for i in range(40)}
    text |= {f"plain{i}.py": b"#" * 1000 for i in range(64)}
    group = [f"g{i}.py" for i in range(10)]

    def pieces(free: int, workers: int, most: int = 10, plain: int = 0) -> int:
        rest = coupling.work(
            [*(f"f{i}.py" for i in range(free)), *(f"plain{i}.py" for i in range(plain))], text.get
        )
        return coupling.piece_count(group, rest, text.get, workers, most)

    assert coupling.work(["g0.py", "plain0.py"], text.get) == 1000 + 1000 / 32
    assert pieces(free=4, workers=2) == 2, "the group is most of the work"
    assert pieces(free=12, workers=2) == 1, "the other worker has as much to do"
    assert pieces(free=9, workers=2) == 2
    assert pieces(free=9, workers=2, plain=64) == 1, "64 files turned away weigh two"
    assert pieces(free=12, workers=8) > 2
    assert pieces(free=12, workers=8, most=2) == 2
    assert pieces(free=0, workers=1) == 1


RETURNED = {
    # A decorator returning the registration (`return mcp.tool()(fn)`, as the `helpers` shape's
    # `decos_*` modules write it): the builder couples its file and the files applying it.
    "kit/returned.py": "from app.server import mcp\n\n\ndef expose(fn):\n    return mcp.tool()(fn)\n",
    "uses/c_returned.py": (
        "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
        "from kit.returned import expose\n\n\n"
        "def load(nope: str) -> str:\n    return nope\n\n\n"
        "@expose\ndef returned_tool(x: int, d: Annotated[str, Resolve(load)]) -> int:\n    return x\n"
    ),
}


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_decorator_returning_its_registration_is_grouped_with_the_files_applying_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, jobs: int
) -> None:
    """The plan foresees the coupled records of a decorator returning its registration and of
    its users (`prefilter.may_register_for_callers`), so slices of one file each report what
    one build does without a second build of every file (on `helpers` 1,000 modules that
    second build was half of a cold run)."""
    root = _written(tmp_path, RETURNED)
    whole = lint(["."], cwd=root)
    assert ("MCPD002", "returned_tool") in {(d.code, d.tool) for d in whole.diagnostics}
    assert "kit/returned.py" in _coupled(root)
    _in_slices_of_one_file_alike(monkeypatch, root, whole, jobs)


RELAYED = {
    "app/__init__.py": "",
    "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('relayed')\n",
    "feats/__init__.py": "",
    "feats/a.py": (
        "from mcp.server import MCPServer\n\n\n"
        "def register(server: MCPServer) -> None:\n"
        "    @server.tool()\n    def a_tool(x: int) -> int:\n        return x\n"
    ),
    "feats/b.py": (
        "from mcp.server import MCPServer\n\n\n"
        "def register(server: MCPServer) -> None:\n"
        "    @server.tool()\n    def b_tool(x: int) -> int:\n        return x\n"
    ),
    "wiring.py": (
        "from mcp.server import MCPServer\n\nfrom feats import a, b\n\n\n"
        "def install_all(server: MCPServer) -> None:\n    a.register(server)\n    b.register(server)\n"
    ),
    "main.py": "from app.server import mcp\nfrom wiring import install_all\n\ninstall_all(mcp)\n",
}


@pytest.mark.parametrize("piece", [True, False])
def test_a_piece_of_a_group_leaves_unparsed_the_features_another_piece_holds(
    tmp_path: Path, piece: bool
) -> None:
    """`Confined.in_functions`: a relay calling each feature's `register(server)` in its body
    (`wiring.install_all`) names features another piece of the group holds; a piece's build
    (`piece=True`) tells those calls from the import before parsing the feature, which it
    would not follow the server into anyway, and finds the same tools of its own files. Other
    slices resolve such calls (cheaper there): the withheld feature is parsed."""
    from mcpdeps.resolver_core.builder import build_graph

    root = tmp_path / "proj"
    for name, text in RELAYED.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    path = {name: (root / name).absolute() for name in RELAYED}
    only = {path[n] for n in ("feats/b.py", "wiring.py", "main.py", "app/server.py")}
    graph = build_graph(["."], cwd=root, only=only, withheld=frozenset({path["feats/a.py"]}), piece=piece)
    assert graph.evaluator is not None
    project = graph.evaluator.names.project
    assert (project.module_at(path["feats/a.py"]) is None) is piece
    assert path["feats/a.py"] in project.withheld[path["wiring.py"]], "noted withheld either way"
    assert {t.name for _, t in graph.tools()} == {"b_tool"}
