"""One diagnostic per problem: the same words at the same place for several tools, united.

A resolver shared by two tools fails the same way for each (a misspelt parameter is
misspelt for both); the rules judge tool by tool, and per file (`per_file.split`), so the
findings arrive once per tool, possibly from the records of different files. They are
united here, in `per_file.combine`, the step every run's verdicts pass through last (cold,
cached, parallel, one file with its importers, the language server): uniting earlier, in a
rule, only sees the tools of one file's view, and the runs would disagree.

Findings are the same problem when everything the contract shows of them but the tool is
equal (path, range, code, message), for the rules in `UNITED`: they word their messages
without the tool's name and say which tool in `related` (`RUNS`, after MCPD001's edges), so
the united diagnostic still names every tool. A rule joins them once its findings do so.

The united diagnostic is the first in the contract's order (its tool, its `related`),
followed by the others' `related` entries it lacks, in the order of the places they point
at: the result depends on the set of findings only, never on the order a run met them in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..resolver_core.diagnostics import Diagnostic, Related

UNITED = frozenset({"MCPD001", "MCPD002"})
"""The rules whose findings for several tools at one place are united."""
RUNS = "tool {!r} runs this resolver"
"""The `related` message that names each tool of such a finding (and of a united one)."""


def _place(d: Diagnostic) -> tuple[object, ...]:
    return (d.path, d.line, d.column, d.end_line, d.end_column, d.code, d.message)


def _where(r: Related) -> tuple[str, int, int, str]:
    return (r.path, r.line, r.column, r.message)


def one_per_place(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics in the contract's order, those that differ only by tool united."""
    groups: dict[tuple[object, ...], list[Diagnostic]] = {}
    for d in sorted(diagnostics, key=Diagnostic.sort_key):
        groups.setdefault(_place(d) if d.code in UNITED else (id(d),), []).append(d)
    out = []
    for first, *others in groups.values():
        if others:
            extra = {_where(r): r for d in others for r in d.related}
            for r in first.related:
                extra.pop(_where(r), None)
            first = replace(first, related=[*first.related, *sorted(extra.values(), key=_where)])
        out.append(first)
    return out


def names_a_tool(r: Related) -> bool:
    """Whether a `related` entry is one naming a tool that runs the resolver (`RUNS`)."""
    head, _, tail = RUNS.partition("{!r}")
    return r.message.startswith(head) and r.message.endswith(tail)


def concerns(d: Diagnostic, tool: str) -> bool:
    """Whether a diagnostic is about `tool`: its own, or united with that tool's."""
    return d.tool == tool or any(r.message == RUNS.format(tool) for r in d.related)
