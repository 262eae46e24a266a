"""A decorator factory's result applied by hand: `audited_tool(mcp, "create_job")(create_job)`.

Published servers wrap their tools for auditing or logging in a decorator that registers the
wrapper it makes (`audited_tool` in `AUDITED` below: a `functools.wraps` wrapper taking
`*args, **kwargs`), and apply it by a call rather than with `@`:
`audited_tool(mcp, "create_job")(create_job)`.

The SDK reads the wrapper's signature through `__wrapped__`: it publishes `create_job`'s
parameters. lint read only `@audited_tool(...)` written on a def, so here it reported the
wrapper's `*args` and `**kwargs` (MCPD109, twice: false alarms) and said `func` could not be
followed, and missed what `create_job` itself gets wrong. A call applying a decorator
factory's result to a def of the same module is now an application of it
(`CallSites._applied_by_call`), as the `@` form is.

Each case is imported under the real `mcp` (`oracle/sdk_verdicts.judge_case`); `lint .` and
`lint server.py` must report what it refuses or logs, and nothing else.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files
from mcpdeps.lint_rules import lint
from oracle.sdk_verdicts import judge_case

AUDITED = """import functools

from mcp.server.mcpserver import MCPServer

mcp = MCPServer("jobs")


def audited_tool(server, name):
    def decorator(func):
        @functools.wraps(func)
        async def wrapper(*args, **kwargs):
            return await func(*args, **kwargs)

        server.tool(name=name)(wrapper)
        return wrapper

    return decorator

"""

NAMED = """from mcp.server.mcpserver import MCPServer

mcp = MCPServer("jobs")


def named_tool(server, name):
    def decorator(fn):
        server.tool(name=name)(fn)
        return fn

    return decorator

"""

JOB = "\nasync def create_job(title: str{extra}) -> str:\n    return title\n\n\n"

CASES: dict[str, tuple[str, list[str], list[str]]] = {
    "a wraps wrapper registered by the decorator": (
        AUDITED + JOB.format(extra="") + 'audited_tool(mcp, "create_job")(create_job)\n',
        ["create_job"],
        [],
    ),
    "its result bound to a name": (
        AUDITED + JOB.format(extra="") + 'job = audited_tool(mcp, "create_job")(create_job)\n',
        ["create_job"],
        [],
    ),
    "applied in a function the module calls": (
        AUDITED
        + JOB.format(extra="")
        + 'def main():\n    audited_tool(mcp, "create_job")(create_job)\n\n\nmain()\n',
        ["create_job"],
        [],
    ),
    "the wrapped function's own error": (
        AUDITED + JOB.format(extra=", _limit: int") + 'audited_tool(mcp, "create_job")(create_job)\n',
        ["create_job"],
        ["MCPD006"],
    ),
    "the function itself registered under the factory's name": (
        NAMED + JOB.format(extra="") + 'named_tool(mcp, "jobs_create")(create_job)\n',
        ["jobs_create"],
        [],
    ),
    "two functions under one name": (
        NAMED
        + JOB.format(extra="")
        + "def create_task(title: str) -> str:\n    return title\n\n\n"
        + 'named_tool(mcp, "create")(create_job)\nnamed_tool(mcp, "create")(create_task)\n',
        ["create", "create"],
        ["MCPD110"],
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_lint_reads_the_application_as_the_sdk_does(case: str, tmp_path: Path) -> None:
    text, tools, expected = CASES[case]
    write_files(tmp_path, {"server.py": text})
    verdict = judge_case(tmp_path)
    assert verdict["import_error"] is None
    assert [t["tool"] for t in verdict["tools"]] == tools
    refused = {t["code"] for t in verdict["tools"] if t["verdict"] != "ok"}
    logged = {"MCPD110" for t in verdict["tools"] if t["duplicate"]}
    assert refused | logged == set(expected)
    for target in (tmp_path, tmp_path / "server.py"):
        result = lint([target], cwd=tmp_path)
        assert [d.code for d in result.diagnostics] == expected
        assert result.tools == len(set(tools))


def test_the_graph_shows_the_wrapped_parameters(tmp_path: Path) -> None:
    write_files(tmp_path, {"server.py": CASES["a wraps wrapper registered by the decorator"][0]})
    (server,) = lint([tmp_path], cwd=tmp_path).graph.servers
    (tool,) = server.tools
    assert (tool.name, [p.name for p in tool.parameters]) == ("create_job", ["title"])


def test_applied_to_a_bound_method_too_the_wrapper_is_still_said(tmp_path: Path) -> None:
    """`audited_tool(server, "list_jobs")(self.list_jobs)` is not read as an application (a
    bound method, or a function of another module): what the decorator registers for it is not
    known, so the wrapper as written stays a tool, said not followed (MCPD113), rather than
    the tools it registers going unseen."""
    text = (
        AUDITED
        + JOB.format(extra="")
        + "class Jobs:\n    def __init__(self, server):\n"
        + '        audited_tool(server, "list_jobs")(self.list_jobs)\n\n'
        + "    async def list_jobs(self, status: str) -> str:\n        return status\n\n\n"
        + 'audited_tool(mcp, "create_job")(create_job)\nJobs(mcp)\n'
    )
    write_files(tmp_path, {"server.py": text})
    verdict = judge_case(tmp_path)
    assert sorted(t["tool"] for t in verdict["tools"]) == ["create_job", "list_jobs"]
    for target in (tmp_path, tmp_path / "server.py"):
        found = [(d.code, d.tool) for d in lint([target], cwd=tmp_path).diagnostics if d.code == "MCPD113"]
        assert found == [("MCPD113", "wrapper")]
