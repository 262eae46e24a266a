"""`lint FILE` leaves the tools of the companions checked only for the registrations FILE's
come after unclassified (`resolver_core/unclassified.py`), and reports exactly what it reports
with every tool classified: cold, cached, and after `lint .` ran on the same cache.

The project: `app/a_tools.py` and `app/b_tools.py` register on the server of `app/server.py`,
each running a resolver of `app/deps.py`; `app/main.py` imports both. `lint app/b_tools.py`
also builds `app/a_tools.py` (its registrations come first, for MCPD110), which imports no
given file. Which of the two reports a finding of a resolver both run is decided by the first
file whose tools run it (`per_file.owners`): `a_tools` when it runs it too.
"""

from __future__ import annotations

import dataclasses
import json
import textwrap
from pathlib import Path

from conftest import write_files
from mcpdeps.lint_rules import lint
from mcpdeps.resolver_core.companions import run_files
from mcpdeps.resolver_core.diagnostics import plain
from published_shapes import PROJECT, sdk, the_editor_reports_what_lint_dot_reports

GIVEN = "app/b_tools.py"

DEPS = """\
from typing import Annotated

from mcp.server.mcpserver import Resolve


def load_d(nope: str) -> str:
    return nope


def load_ok(x: int) -> str:
    return str(x)


def load_p(x: int, /) -> str:
    return str(x)
"""

SERVER = 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n'

TOOLS = """\
from typing import Annotated

from mcp.server.mcpserver import Resolve

from app.deps import {resolver}
from app.server import mcp


@mcp.tool(name="{name}")
def {name}(x: int, d: Annotated[str, Resolve({resolver})]) -> str:
    return d
"""

MAIN = "import app.a_tools\nimport app.b_tools\nfrom app.server import mcp\n"


def project(root: Path, a: str, b: str, a_name: str = "alpha", b_name: str = "beta") -> None:
    """The project, `a_tools` running resolver `a` as tool `a_name`, `b_tools` `b` as `b_name`."""
    write_files(
        root,
        {
            **PROJECT,
            "app/deps.py": DEPS,
            "app/server.py": SERVER,
            "app/a_tools.py": TOOLS.format(resolver=a, name=a_name),
            "app/b_tools.py": TOOLS.format(resolver=b, name=b_name),
            "app/main.py": MAIN,
        },
    )


def run(root: Path, paths: list[str], cache: Path | None = None) -> list[dict[str, object]]:
    return [plain(d) for d in lint(paths, cwd=root, cache_dir=cache).diagnostics]


def classified(root: Path, given: str) -> list[dict[str, object]]:
    """`lint given` with every companion's tools classified (what it ran before they could be
    left unclassified), cold."""
    files = [dataclasses.replace(f, unclassified=False) for f in run_files([given], (), root)]
    return [plain(d) for d in lint([given], cwd=root, files=files).diagnostics]


def unclassified_companions(root: Path, given: str) -> list[str]:
    return [f.display for f in run_files([given], (), root) if f.unclassified]


def unclassified_kept(cache: Path) -> dict[bool, set[str]]:
    """The files each state under `cache` keeps unclassified, by whether its list had
    companions (`lint FILE`'s) or not (`lint .`'s)."""
    out: dict[bool, set[str]] = {True: set(), False: set()}
    for path in (cache / "lint").glob("mcpdeps-lint-*.json"):
        data = json.loads(path.read_text())
        companions = any(len(entry) > 3 for entry in data["files"])
        out[companions] |= {d for d, r in data["records"].items() if r["unclassified"]}
    return out


def test_the_companion_is_built_unclassified(tmp_path: Path) -> None:
    """`app/a_tools.py` is a companion of `lint app/b_tools.py` importing no given file: its
    tools may be left unclassified, as the server's module's (`app/main.py`, which imports the
    given file, is checked whole)."""
    project(tmp_path, "load_ok", "load_ok")
    assert unclassified_companions(tmp_path, GIVEN) == ["app/a_tools.py", "app/server.py"]


def test_an_earlier_companion_owns_the_shared_resolver_finding(tmp_path: Path) -> None:
    """Both tools run `load_p(x, /)` (the SDK registers them; every call would fail: MCPD106, a
    finding about the resolver): `a_tools`, shown first, reports it, so `lint app/b_tools.py`
    reports nothing of it, as with every tool classified."""
    project(tmp_path, "load_p", "load_p")
    assert sdk(tmp_path, "import app.main").returncode == 0
    whole = run(tmp_path, ["."])
    assert [(d["code"], d["path"], d["tool"]) for d in whole] == [("MCPD106", "app/deps.py", "alpha")]
    assert run(tmp_path, [GIVEN]) == classified(tmp_path, GIVEN) == []


def test_a_resolver_the_given_file_owns_is_reported(tmp_path: Path) -> None:
    """Only `b_tools` runs `load_p`: `lint app/b_tools.py` reports it (in `app/deps.py`, which it
    imports), as `lint .` does and as with every tool classified."""
    project(tmp_path, "load_ok", "load_p")
    assert sdk(tmp_path, "import app.main").returncode == 0
    alone = run(tmp_path, [GIVEN])
    assert [(d["code"], d["path"], d["tool"]) for d in alone] == [("MCPD106", "app/deps.py", "beta")]
    assert alone == run(tmp_path, ["."]) == classified(tmp_path, GIVEN)


def test_a_tool_finding_in_a_shared_resolver_is_each_tools(tmp_path: Path) -> None:
    """Both tools run `load_d(nope)`, which the SDK refuses at the first registration: the
    finding names each tool's arguments (MCPD002, about the tool), so `lint app/b_tools.py`
    reports it for `beta`, as with every tool classified."""
    project(tmp_path, "load_d", "load_d")
    refused = sdk(tmp_path, "import app.main")
    assert "InvalidSignature: Resolver 'load_d' parameter 'nope'" in refused.stderr, refused.stderr
    alone = run(tmp_path, [GIVEN])
    assert [(d["code"], d["path"], d["tool"]) for d in alone] == [("MCPD002", "app/deps.py", "beta")]
    assert alone == classified(tmp_path, GIVEN)


def test_a_duplicate_name_with_an_unclassified_companion(tmp_path: Path) -> None:
    """Both files register the name `same`: MCPD110 in `app/b_tools.py`, the second, as with
    every tool classified (the SDK keeps the first and warns)."""
    project(tmp_path, "load_ok", "load_ok", "same", "same")
    ran = sdk(tmp_path, "import logging; logging.basicConfig(); import app.main")
    assert "already exists" in ran.stderr, ran.stderr
    alone = run(tmp_path, [GIVEN])
    assert [(d["code"], d["path"]) for d in alone] == [("MCPD110", GIVEN)]
    assert alone == classified(tmp_path, GIVEN)


def test_cached_runs_after_lint_dot_equal_cold_runs(tmp_path: Path) -> None:
    """`lint FILE`, then `lint .`, then `lint FILE` again, then FILE edited, on one cache, each
    reports what a cold run reports; `lint .` takes up no record left unclassified."""
    for a, b in (("load_ok", "load_ok"), ("load_p", "load_p"), ("load_ok", "load_p"), ("load_d", "load_d")):
        root = tmp_path / f"{a}-{b}"
        project(root, a, b)
        cache = root / ".cache"
        cold_file, cold_dot = classified(root, GIVEN), run(root, ["."])
        assert run(root, [GIVEN], cache) == cold_file, (a, b)
        assert run(root, ["."], cache) == cold_dot, (a, b)
        assert run(root, [GIVEN], cache) == cold_file, (a, b)
        assert unclassified_kept(cache)[False] == set(), (a, b)
        path = root / GIVEN
        path.write_text(path.read_text().replace("return d", "return d + '!'"))
        assert run(root, [GIVEN], cache) == classified(root, GIVEN) == run(root, [GIVEN]), (a, b)


def test_the_given_file_newly_reporting_classifies_a_kept_companion(tmp_path: Path) -> None:
    """A cached `lint app/b_tools.py` kept `a_tools` unclassified (nothing to decide); `b_tools`
    then runs `load_p`, which `a_tools` runs too: the companion's kept record is checked again,
    classified, and the report is the cold one (nothing: `a_tools` reports it); and back."""
    project(tmp_path, "load_p", "load_ok")
    cache = tmp_path / ".cache"
    assert run(tmp_path, [GIVEN], cache) == classified(tmp_path, GIVEN) == []
    assert unclassified_kept(cache)[True] == {"app/a_tools.py"}
    path = tmp_path / GIVEN
    path.write_text(path.read_text().replace("load_ok", "load_p"))
    assert run(tmp_path, [GIVEN], cache) == classified(tmp_path, GIVEN) == run(tmp_path, [GIVEN]) == []
    assert unclassified_kept(cache)[True] == set()
    path.write_text(path.read_text().replace("load_p", "load_ok"))
    assert run(tmp_path, [GIVEN], cache) == classified(tmp_path, GIVEN) == []


def test_a_helper_given_its_resolver_by_a_caller_is_classified(tmp_path: Path) -> None:
    """`app/a_tools.py` registers in `register(mcp, dep)` a tool running `Resolve(dep)`, which
    `app/main.py` passes from the given file: what the tool reads is a caller's argument, so it
    is classified, and `lint app/b_tools.py` reports the refused resolver written there as
    `lint .` does."""
    write_files(
        tmp_path,
        {
            **PROJECT,
            "app/server.py": SERVER,
            "app/a_tools.py": textwrap.dedent(
                """\
                from typing import Annotated

                from mcp.server.mcpserver import Resolve


                def register(mcp, dep):
                    @mcp.tool()
                    def alpha(x: int, d: Annotated[str, Resolve(dep)]) -> str:
                        return d
                """
            ),
            "app/b_tools.py": DEPS
            + "\n\nfrom app.server import mcp\n\n\n@mcp.tool()\ndef beta(x: int) -> int:\n    return x\n",
            "app/main.py": "import app.a_tools\nimport app.b_tools\nfrom app.server import mcp\n\n"
            "app.a_tools.register(mcp, app.b_tools.load_d)\n",
        },
    )
    refused = sdk(tmp_path, "import app.main")
    assert "InvalidSignature: Resolver 'load_d' parameter 'nope'" in refused.stderr, refused.stderr
    whole = run(tmp_path, ["."])
    assert [(d["code"], d["path"]) for d in whole] == [("MCPD002", GIVEN)]
    assert run(tmp_path, [GIVEN]) == classified(tmp_path, GIVEN) == whole


FEATURE = """\
from typing import Annotated

from mcp.server.mcpserver import Resolve

from app.deps import load_p


def register(mcp):
    @mcp.tool()
    def gamma(x: int, d: Annotated[str, Resolve(load_p)]) -> str:
        return d
"""


def test_a_companion_handing_a_server_is_classified_for_a_later_finding(tmp_path: Path) -> None:
    """`app/a_entry.py` imports the given file and hands its server to
    `app/features/gamma.py`, which the run does not check: what `gamma`'s tool runs is known
    only classified (its module imports no given file, so the first pass leaves it so), and
    `b_tools`' finding about `load_p` comes after `app/a_entry.py`: the companions left
    unclassified are classified again, and `lint app/b_tools.py` reports what it reports with
    every tool classified (`beta`'s finding), cold, cached, and after an edit."""
    project(tmp_path, "load_ok", "load_p")
    write_files(
        tmp_path,
        {
            "app/features/__init__.py": "",
            "app/features/gamma.py": FEATURE,
            "app/a_entry.py": "import app.b_tools\nimport app.features.gamma\nfrom app.server import mcp\n\n"
            "app.features.gamma.register(mcp)\n",
        },
    )
    assert sdk(tmp_path, "import app.a_entry").returncode == 0
    files = run_files([GIVEN], (), tmp_path)
    assert [f.display for f in files if f.companion and not f.unclassified] == [
        "app/a_entry.py",
        "app/main.py",
    ]
    cache = tmp_path / ".cache"
    alone = run(tmp_path, [GIVEN])
    assert [(d["code"], d["path"], d["tool"]) for d in alone] == [("MCPD106", "app/deps.py", "beta")]
    assert alone == classified(tmp_path, GIVEN) == run(tmp_path, [GIVEN], cache)
    assert unclassified_kept(cache)[True] == set()  # classified again: the finding follows them
    path = tmp_path / GIVEN
    path.write_text(path.read_text().replace("return d", "return d + '!'"))
    assert run(tmp_path, [GIVEN], cache) == classified(tmp_path, GIVEN) == alone


def test_the_editor_reports_what_lint_dot_reports(tmp_path: Path) -> None:
    """The editor's model (which classifies every tool) reports what `lint .` reports on the
    projects above, after `lint FILE` left its unclassified records in a cache of the folder."""
    for a, b in (("load_p", "load_p"), ("load_ok", "load_p")):
        root = tmp_path / f"{a}-{b}"
        project(root, a, b)
        run(root, [GIVEN], root / ".mcpdeps_cache")
        the_editor_reports_what_lint_dot_reports(root)
