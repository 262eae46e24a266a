"""Tool parameter shapes read in published servers, each checked both ways against the SDK.

The cases are in `published_params/` (where each shape was seen, in its comment).
For every case the real SDK is the oracle, run once for all of them:

- the static graph (what `mcpdeps graph --format json server.py` prints, nothing imported)
  lists, for every tool the SDK registers, its input-schema properties, its Context parameter
  and its resolvers as the SDK has them; when the SDK registers every tool, the whole static
  document and tree equal the live ones (`graph --live`, `tests/graph_static_live.py`);
- `lint .` reports exactly the registration errors the SDK raises (`tests/oracle/sdk_verdicts.py`:
  one per refused tool, its code), and `lint FILE` alone (pre-commit) reports what `lint .`
  reports in that file; the run-time findings the SDK cannot raise are listed in `FINDINGS`,
  each with the fact of the SDK it stands on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import write_files
from mcpdeps.resolver_core.graph_json import graph_document
from mcpdeps.resolver_core.import_closure import static_graph
from published_params import CASES, HEAD
from published_shapes import (
    PROJECT,
    cases_of,
    found,
    the_editor_reports_what_lint_dot_reports,
    with_known_gaps,
)
from sdk_tools import call_tool

NAMES = list(CASES)
FOLDERS = {name: f"case{n:02d}" for n, name in enumerate(NAMES)}

FINDINGS: dict[str, tuple[list[str], str, dict[str, Any], str]] = {
    # the schema holds `args` and `kwargs` (the graphs say so): the model must send both
    "dispatch tool with *args and **kwargs": (
        ["MCPD109", "MCPD109"],
        "dispatch",
        {"action": "a"},
        "kwargs\n  Field required",
    ),
    "a wrapper without functools.wraps under the tool decorator": (
        ["MCPD109", "MCPD109"],
        "search",
        {"resource": "r"},
        "args\n  Field required",
    ),
    # the second Context is a required property
    "two Context parameters on one tool": (["MCPD109"], "twice", {"path": "p"}, "other\n  Field required"),
    # the SDK passes `itemId=` to the function, which has no such parameter
    "Field(alias=...) on a tool argument": (
        ["MCPD107"],
        "fetch",
        {"itemId": "1"},
        "Error executing tool fetch",
    ),
    # everything is passed by keyword
    "keyword-only Context after *, positional-only argument": (
        ["MCPD106"],
        "marks",
        {"path": "p"},
        "Error executing tool marks",
    ),
    # the SDK runs the sync wrapper and injects the coroutine it returns, never awaited
    "lru_cache over an async resolver: a sync wrapper": (
        ["MCPD108"],
        "owner",
        {"table": "t"},
        "<coroutine object",
    ),
    # the resolver's value, never the default
    "a resolved parameter with a default": (["MCPD111"], "whoami", {"prefix": "a-"}, "a-u"),
}
"""Case -> the findings lint reports beyond registration errors (their codes, sorted), and the
call of a tool under the SDK that shows each is true (the text its result holds)."""

NO_CODE = (
    "the SDK refuses the tool with an error no contract code names ({}); reporting it needs a "
    "new rule code, and contracts.md is fixed for this work"
)
KNOWN_GAPS: dict[tuple[str, str], str] = {
    ("lint", "planets_nu: a TypedDict argument"): NO_CODE.format(
        "pydantic: use typing_extensions.TypedDict on Python < 3.12"
    ),
    ("lint", "functools.partial with a positional argument bound, name="): NO_CODE.format(
        "AttributeError: its arguments model is named from fn.__name__, whatever name= says"
    ),
    ("lint", "a callable object registered as a tool, __call__ taking ctx: Context"): NO_CODE.format(
        "AttributeError: the instance has no __name__"
    ),
}
"""(check, case) -> why mcpdeps disagrees with the SDK today: a strict xfail (XPASS once fixed)."""


def cases(check: str) -> list[Any]:
    """The case names for `check`, its known gaps as strict xfails."""
    return with_known_gaps(check, NAMES, KNOWN_GAPS)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every case written as a project of its own, `caseNN/` under one folder."""
    top = tmp_path_factory.mktemp("params")
    for name, files in CASES.items():
        write_files(top / FOLDERS[name], {**PROJECT, **files})
    return top


@pytest.fixture(scope="module")
def sdk(root: Path) -> dict[str, Any]:
    """The SDK's verdict on every tool of every case (`sdk_verdicts.py`, one process)."""
    return cases_of("oracle/sdk_verdicts.py", root, list(FOLDERS.values()))


@pytest.fixture(scope="module")
def graphs(root: Path, sdk: dict[str, Any]) -> dict[str, Any]:
    """Static and live graph documents of the cases whose every tool the SDK registers."""
    accepted = [f for f in FOLDERS.values() if all(t["verdict"] == "ok" for t in sdk[f]["tools"])]
    return cases_of("graph_static_live.py", root, accepted)


def _verdict(sdk: dict[str, Any], name: str) -> dict[str, Any]:
    verdict: dict[str, Any] = sdk[FOLDERS[name]]
    assert verdict["import_error"] is None, verdict["import_error"]
    assert verdict["tools"], "the case registers no tool"
    return verdict


@pytest.mark.parametrize("name", cases("graph"))
def test_the_static_graph_is_what_the_sdk_registers(name: str, root: Path, sdk: dict[str, Any]) -> None:
    verdict = _verdict(sdk, name)
    document = graph_document(static_graph(["server.py"], root / FOLDERS[name]))
    static = {t["name"]: t for server in document["servers"] for t in server["tools"]}
    for tool in verdict["tools"]:
        if tool["verdict"] != "ok":
            continue
        mine = static.get(tool["tool"])
        assert mine is not None, (tool["tool"], sorted(static))
        assert (mine["arguments"], mine["context"], mine["resolved"]) == (
            tool["arguments"],
            tool["context"],
            tool["resolved"],
        ), tool


@pytest.mark.parametrize("name", cases("live"))
def test_the_static_graph_equals_graph_live(name: str, sdk: dict[str, Any], graphs: dict[str, Any]) -> None:
    """Where the SDK registers every tool, the whole documents and trees agree."""
    if any(t["verdict"] != "ok" for t in _verdict(sdk, name)["tools"]):
        pytest.skip("the SDK refuses a tool: no live graph")
    result = graphs[FOLDERS[name]]
    assert result["error"] is None, result["error"]
    assert result["static"] == result["live"]
    assert result["static_tree"] == result["live_tree"]


@pytest.mark.parametrize("name", cases("lint"))
def test_lint_reports_what_the_sdk_raises(name: str, root: Path, sdk: dict[str, Any], tmp_path: Path) -> None:
    """`lint .` and `lint FILE` for each file: the SDK's registration errors, the findings listed;
    the same from a cache (kept, then replayed) and with workers."""
    folder = root / FOLDERS[name]
    refused = sorted((t["tool"], t["code"]) for t in _verdict(sdk, name)["tools"] if t["verdict"] != "ok")
    whole = found(folder, ["."])
    errors = sorted((d["tool"], d["code"]) for d in whole if d["code"].startswith("MCPD0"))
    assert errors == refused, whole
    findings = sorted(d["code"] for d in whole if not d["code"].startswith("MCPD0"))
    assert findings == (FINDINGS[name][0] if name in FINDINGS else []), whole
    for path in sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.py")):
        alone = [d for d in found(folder, [path]) if d["path"] == path]
        assert alone == [d for d in whole if d["path"] == path], path
    cache = tmp_path / "cache"
    assert [found(folder, ["."], cache), found(folder, ["."], cache), found(folder, ["."], jobs=2)] == [
        whole
    ] * 3


@pytest.mark.parametrize("name", NAMES)
def test_the_editor_reports_what_lint_dot_reports(name: str, root: Path) -> None:
    the_editor_reports_what_lint_dot_reports(root / FOLDERS[name])


@pytest.mark.parametrize("name", list(FINDINGS))
def test_each_finding_is_what_the_sdk_does(name: str, root: Path) -> None:
    """The run-time findings are the SDK's behaviour: the call shows it."""
    _, tool, arguments, shown = FINDINGS[name]
    _, text = call_tool(root / FOLDERS[name], tool, arguments)
    assert shown in text, text


def _static_tools(tmp_path: Path, body: str) -> dict[str, dict[str, Any]]:
    """The static graph's tools of a one-file project (`server.py` = HEAD + body), by name."""
    write_files(tmp_path, {**PROJECT, "server.py": HEAD + "\n\n" + body})
    document = graph_document(static_graph(["server.py"], tmp_path))
    return {t["name"]: t for server in document["servers"] for t in server["tools"]}


def test_a_classmethod_read_on_its_class_binds_cls(tmp_path: Path) -> None:
    """`mcp.tool()(Factory.make)`: Python binds `cls` when the attribute is read, so the SDK's
    schema has `kind` only (the decorating-methods case); mcpdeps listed `cls` as an argument."""
    tools = _static_tools(
        tmp_path,
        "class Factory:\n    @classmethod\n    def make(cls, kind: str) -> str:\n        return kind\n\n\n"
        "mcp.tool()(Factory.make)\nmcp.add_tool(Factory().make, name='made')\n",
    )
    assert {name: t["arguments"] for name, t in tools.items()} == {"make": ["kind"], "made": ["kind"]}


def test_a_method_decorated_in_its_class_body_has_its_qualname(tmp_path: Path) -> None:
    """`@mcp.tool()` on a method in a class body registers the plain function, `self` included;
    its `__qualname__` (the graph's `function`, as `--live` says) is `Calculator.add`."""
    tools = _static_tools(
        tmp_path,
        "class Calculator:\n    @mcp.tool()\n    def add(self, x: int) -> int:\n        return x\n\n"
        "    class Inner:\n        @mcp.tool(name='sub')\n        def sub(self, y: int) -> int:\n            return y\n",
    )
    assert {n: (t["function"], t["arguments"]) for n, t in tools.items()} == {
        "add": ("Calculator.add", ["self", "x"]),
        "sub": ("Calculator.Inner.sub", ["self", "y"]),
    }
