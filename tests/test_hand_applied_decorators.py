"""A decorator factory's result applied by hand: `audited_tool(mcp, "create_job")(create_job)`.

Published servers wrap their tools for auditing or logging in a decorator that registers the
wrapper it makes (`audited_tool` in `AUDITED` below: a `functools.wraps` wrapper taking
`*args, **kwargs`), and apply it by a call rather than with `@`:
`audited_tool(mcp, "create_job")(create_job)`.

The SDK reads the wrapper's signature through `__wrapped__`: it publishes `create_job`'s
parameters. lint read only `@audited_tool(...)` written on a def, so here it reported the
wrapper's `*args` and `**kwargs` (MCPD109, twice: false alarms) and said `func` could not be
followed, and missed what `create_job` itself gets wrong. A call applying a decorator
factory's result to a function it names (`create_job`, `self.create_job`, an imported one) now
registers that function under the factory's name where the decorator registers it or a
`functools.wraps` wrapper of it (`hand_applied.py`); any other wrapper stays as written.

Each case is imported under the real `mcp` (`oracle/sdk_verdicts.judge_case`); `lint .` and
`lint server.py` must report what it refuses or logs, and nothing else.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files
from mcpdeps.lint_rules import lint
from published_shapes import lint_and_the_sdk_agree, the_editor_reports_what_lint_dot_reports

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
    "one function under two names, options forwarded": (
        AUDITED.replace(
            "def audited_tool(server, name):", "def audited_tool(server, name, **extra):"
        ).replace("server.tool(name=name)(wrapper)", "server.tool(name=name, **extra)(wrapper)")
        + JOB.format(extra="")
        + 'audited_tool(mcp, "a", title="A")(create_job)\naudited_tool(mcp, "b")(create_job)\n',
        ["a", "b"],
        [],
    ),
    "a wrapper without wraps: its own *args and **kwargs": (
        AUDITED.replace("        @functools.wraps(func)\n", "")
        + JOB.format(extra=", _limit: int = 0")
        + 'audited_tool(mcp, "create_job")(create_job)\n',
        ["create_job"],
        ["MCPD109", "MCPD109"],
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
    lint_and_the_sdk_agree(tmp_path, tools, expected)


def test_the_graph_shows_the_wrapped_parameters(tmp_path: Path) -> None:
    write_files(tmp_path, {"server.py": CASES["a wraps wrapper registered by the decorator"][0]})
    (server,) = lint([tmp_path], cwd=tmp_path).graph.servers
    (tool,) = server.tools
    assert (tool.name, [p.name for p in tool.parameters]) == ("create_job", ["title"])


JOBS = (
    "class Jobs:\n    def __init__(self, server):\n"
    '        audited_tool(server, "list_jobs")(self.list_jobs)\n\n'
    "    async def list_jobs(self, status: str{extra}) -> str:\n        return status\n\n\n"
)

PLAIN = AUDITED.replace("        @functools.wraps(func)\n", "")
"""`audited_tool` without `functools.wraps`: the SDK reads the wrapper's own `*args, **kwargs`."""

BY_HAND: dict[str, tuple[dict[str, str], list[str], list[str]]] = {
    "bound methods in a class's __init__": (
        {"server.py": AUDITED + JOBS.format(extra="") + "Jobs(mcp)\n"},
        ["list_jobs"],
        [],
    ),
    "a bound method's own error": (
        {"server.py": AUDITED + JOBS.format(extra=", _page: int") + "Jobs(mcp)\n"},
        ["list_jobs"],
        ["MCPD006"],
    ),
    "a function of another module": (
        {
            "server.py": AUDITED
            + 'from jobs import create_job  # noqa: E402\n\naudited_tool(mcp, "create_job")(create_job)\n',
            "jobs.py": JOB.format(extra=", *rest: str").lstrip(),
        },
        ["create_job"],
        ["MCPD109"],
    ),
    "a wrapper without wraps: its own *args and **kwargs": (
        {"server.py": PLAIN + JOBS.format(extra="") + "Jobs(mcp)\n"},
        ["list_jobs"],
        ["MCPD109", "MCPD109"],
    ),
}


@pytest.mark.parametrize("case", BY_HAND)
def test_a_function_named_in_the_call_is_registered(case: str, tmp_path: Path) -> None:
    files, tools, expected = BY_HAND[case]
    write_files(tmp_path, files)
    lint_and_the_sdk_agree(tmp_path, tools, expected, tuple(files))  # (each file alone, as pre-commit)


def test_the_editor_reports_what_lint_reports(tmp_path: Path) -> None:
    """`mcpdeps lsp`'s model, the bound method's refused parameter renamed in unsaved text and back."""
    write_files(tmp_path, BY_HAND["a bound method's own error"][0])
    the_editor_reports_what_lint_dot_reports(tmp_path, "server.py", ("_page", "page"))
