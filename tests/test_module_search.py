"""Which file an import means is what Python's import system says.

A property test: random trees over several roots (modules and packages of the same name
side by side, namespace packages spread over roots, `src/` layouts, plain modules asked
for submodules) and every dotted name in them, resolved by mcpdeps (`Project.spec`) and by
`importlib.util.find_spec` in a fresh interpreter with `sys.path` set to the same roots in
the same order (the importing file's root first, as `python file.py` puts it first), then, for
what none holds, the folders a script may run from and the importing file's packages.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcpdeps.resolver_core.project import Project, module_name_for

NAMES = ("ma", "mb", "mc")
KINDS = ("module", "package", "namespace", "both", "bytecode")

FIND_SPECS = r"""
import importlib.util, json, sys
roots, names = json.loads(sys.argv[1])
sys.path[:] = roots
out = {}
for name in names:
    try:
        spec = importlib.util.find_spec(name)
    except ImportError:  # `ma.mb` where `ma` is a plain module
        spec = None
    if spec is None:
        out[name] = None
    else:
        out[name] = [spec.origin, sorted(spec.submodule_search_locations or [])]
print(json.dumps(out))
"""

ENTRIES = st.dictionaries(
    st.tuples(
        st.integers(0, 2),  # which root
        st.lists(st.sampled_from(NAMES), min_size=1, max_size=3).map(tuple),
    ),
    st.sampled_from(KINDS),
    max_size=14,
)


def _materialise(base: Path, entries: dict[tuple[int, tuple[str, ...]], str]) -> list[Path]:
    roots = [base / "r0", base / "r0" / "src", base / "r2"]  # a root and its src/, and another
    for root in roots:
        root.mkdir(parents=True, exist_ok=True)
    for (r, parts), kind in sorted(entries.items()):
        folder = roots[r].joinpath(*parts[:-1])
        folder.mkdir(parents=True, exist_ok=True)
        leaf = parts[-1]
        if kind in ("module", "both"):
            (folder / f"{leaf}.py").write_text("")
        if kind == "bytecode":  # compiled only: Python imports it, there is no source to read
            (folder / f"{leaf}.pyc").write_bytes(b"")
        if kind in ("package", "namespace", "both"):
            (folder / leaf).mkdir(exist_ok=True)
        if kind in ("package", "both"):
            (folder / leaf / "__init__.py").write_text("")
    return roots


def _python(roots: list[Path], names: list[str]) -> dict[str, list | None]:
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", FIND_SPECS, json.dumps([[str(r) for r in roots], names])],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _script_folders(root: Path, roots: list[Path], cwd: Path) -> list[Path]:
    """The folders above a module's root up to the first root (or `cwd`), nearest first: where
    `Project.spec` looks for a name no root holds (a script run there may see it)."""
    found = []
    while root.name.isidentifier() and root.parent not in (*roots, cwd) and root.parent.is_relative_to(cwd):
        root = root.parent
        found.append(root)
    return found


def _packages(path: Path, root: Path) -> list[Path]:
    """The package folders a module is in, up to its root, nearest first: where `Project.spec`
    looks last for a name nothing else holds (the package's folder a script's, `python
    app/server.py`)."""
    found = []
    while path.parent != root:
        path = path.parent
        found.append(path)
    return found


def _mcpdeps(project: Project, names: list[str], near) -> dict[str, list | None]:  # type: ignore[no-untyped-def]
    out: dict[str, list | None] = {}
    for name in names:
        spec = project.spec(name, near)
        out[name] = (
            None
            if spec is None
            else [
                str(spec.origin) if spec.origin is not None else None,
                sorted(str(p) for p in spec.locations),
            ]
        )
    return out


ALL_NAMES = [".".join(p) for n in (1, 2, 3) for p in itertools.product(NAMES, repeat=n)]
TRIED = {"trees": 0, "lookups": 0}


@settings(
    max_examples=int(os.environ.get("EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(entries=ENTRIES, near_pick=st.integers(0, 50))
def test_module_choice_follows_the_import_system(entries, near_pick: int) -> None:  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp).resolve()
        roots = _materialise(base, entries)
        project = Project(roots, cwd=base)
        sources = sorted(base.rglob("*.py"))
        near = project.load_path(sources[near_pick % len(sources)]) if sources and near_pick % 3 else None
        search = roots if near is None else [near.root, *(r for r in roots if r != near.root)]
        if near is not None:
            assert near.root == module_name_for(near.path)[1]
        expected = _python(search, ALL_NAMES)
        if near is not None:  # what none of them holds, in the folders a script may run from
            for folders in (_script_folders(near.root, roots, base), _packages(near.path, near.root)):
                if folders:
                    later = _python(folders, ALL_NAMES)
                    expected = {n: later[n] if found is None else found for n, found in expected.items()}
        got = _mcpdeps(project, ALL_NAMES, near)
        TRIED["trees"] += 1
        TRIED["lookups"] += len(ALL_NAMES)
        for name in ALL_NAMES:
            python = expected[name]
            if python is not None and python[0] is not None and python[0].endswith(".pyc"):
                assert got[name] is not None and got[name][0] == python[0], name  # found, opaque
                continue
            assert got[name] == python, (
                f"{name}: mcpdeps {got[name]}, Python {python}; tree {sorted(entries.items())}"
            )


def test_package_beats_module_of_the_same_name(tmp_path: Path) -> None:
    """`deps.py` and `deps/__init__.py` side by side: the package wins, as in Python."""
    (tmp_path / "deps.py").write_text("")
    (tmp_path / "deps").mkdir()
    (tmp_path / "deps" / "__init__.py").write_text("")
    found = Project([tmp_path], cwd=tmp_path).find("deps")
    assert found is not None and found.path == tmp_path / "deps" / "__init__.py"
