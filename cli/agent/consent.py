"""`fix`: the safe fixes of `mcpdeps lint --fix`, written only after the user said yes.

Three resolvers do the asking, so the tool body only ever sees a decision:
`fix_plan` runs the fix engine in memory (exactly `lint --fix`'s plan, nothing
written), `client_can_ask` reads whether the client can put a form to its user,
and `confirm_fix` returns `Elicit(...)` with every file and edit. The tool takes
the outcome typed `ElicitationResult[Consent]`, so a decline or a cancel reaches
it as a value to branch on (nothing is written) instead of aborting the call.

On 2026-07-28 connections the SDK asks through `InputRequiredResult` and runs the
resolvers again on the answering round: the plan is recomputed from the files as
they are then, and a changed plan is a changed question, which the SDK asks anew
rather than accept an answer given to another one.
"""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import (
    AcceptedElicitation,
    CancelledElicitation,
    Context,
    Elicit,
    ElicitationResult,
    Resolve,
)
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult

from ...lint_rules import api
from ...lint_rules.fixes.engine import FixPlan, unified_diff
from ...lint_rules.settings import Settings
from ...resolver_core.records import record
from .models import Consent, FileFix, FixReport, FixStatus
from .reports import diagnostics_text, lint_document, lint_request, result, with_note
from .serial import alone
from .workspace import Targets, lint_targets

MAX_QUESTION_CHARS = 12_000
"""The longest diff put to the user. A longer plan is not asked about at all: a question cut
short would let the part not shown be written without consent (and on 2026-07-28
connections, where the plan is recomputed when the answer comes, change unseen)."""


@record
class FixProposal:
    """What `lint --fix` would write for these paths, computed in memory."""

    targets: Targets
    plan: FixPlan
    settings: Settings
    unsafe: bool = False
    """Whether the fixes that change behaviour are in the plan (the rules' unsafe fixes, `unsafe_fixes`)."""

    def changed(self) -> list[str]:
        return self.plan.changed()

    def files(self) -> list[FileFix]:
        from ...lint_rules.fixes.edits import edits_between

        return [
            FileFix(
                path=path,
                edits=edits_between(path, self.plan.originals[path], self.plan.texts[path]),
                diff=unified_diff(
                    FixPlan(originals={path: self.plan.originals[path]}, texts={path: self.plan.texts[path]})
                ),
            )
            for path in self.changed()
        ]

    def too_long(self) -> bool:
        """Whether the edits are more than one question can show whole."""
        return len(unified_diff(self.plan)) > MAX_QUESTION_CHARS

    def question(self) -> str:
        """The consent question: how many fixes, which files, and every edit as a diff (the
        written text is exactly the read text with this diff applied: `write_plan` refuses a
        file that is no longer what was read)."""
        changed = self.changed()
        diff = unified_diff(self.plan)
        return (
            f"mcpdeps fix: apply {self._fixes()} to "
            f"{_plural(len(changed), 'file')} in {self.targets.cwd}?\n\n"
            + "\n".join(f"  {path}" for path in changed)
            + f"\n\n{diff}"
        )

    def _fixes(self) -> str:
        if self.unsafe:
            return f"{_plural(self.plan.fixed, 'fix', 'fixes')} (some change what the code does)"
        return _plural(self.plan.fixed, "safe fix", "safe fixes")


def _plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else words or word + 's'}"


def fix_plan(
    targets: Annotated[Targets, Resolve(lint_targets)], codes: list[str] | None, unsafe_fixes: bool
) -> FixProposal:
    """`lint --fix`'s plan (`--select` = `codes`, `--unsafe-fixes` = `unsafe_fixes`), refused if it
    would leave a file unparsable. The user sees every edit before anything is written either way."""
    request = lint_request(targets, codes or [], select_is="codes")
    with alone("plan the fixes", targets.workspace):
        settings = api.settings_for(request)
        plan = api.fix_plan(request, settings, unsafe=unsafe_fixes)
    outside = [p for p in plan.changed() if not targets.workspace.contains((targets.cwd / p).resolve())]
    if outside:
        raise ToolError(
            f"{', '.join(outside)} would be written but lies outside the workspace; nothing was written."
        )
    return FixProposal(targets, plan, settings, unsafe_fixes)


def client_can_ask(ctx: Context) -> bool:
    """Whether the client declared form elicitation (a bare `elicitation: {}` counts, as in the SDK)."""
    capabilities = ctx.client_capabilities
    elicitation = capabilities.elicitation if capabilities is not None else None
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def confirm_fix(
    proposal: Annotated[FixProposal, Resolve(fix_plan)], can_ask: Annotated[bool, Resolve(client_can_ask)]
) -> Elicit[Consent] | None:
    """Ask the user before anything is written; nothing to ask when there is nothing to fix."""
    if not proposal.changed() or not can_ask or proposal.too_long():
        return None
    return Elicit(proposal.question(), Consent)


def decision(proposal: FixProposal, can_ask: bool, consent: ElicitationResult[Consent]) -> FixStatus:
    if not proposal.changed():
        return "nothing_to_fix"
    if not can_ask or proposal.too_long():
        return "not_asked"
    if isinstance(consent, AcceptedElicitation):
        return "applied" if consent.data is not None and consent.data.apply else "declined"
    return "cancelled" if isinstance(consent, CancelledElicitation) else "declined"


SAID = {
    "nothing_to_fix": "Nothing to fix: no safe fix applies to these files.",
    "declined": "The user declined: nothing was written.",
    "cancelled": "The user cancelled: nothing was written.",
    "not_asked": "Nothing was written: this client cannot ask its user for consent (no form elicitation). "
    "Run `mcpdeps lint --fix` in a terminal, or apply the edits listed here yourself.",
}


def fix_report(proposal: FixProposal, can_ask: bool, consent: ElicitationResult[Consent]) -> CallToolResult:
    """Write the plan if the user accepted it; report what was (or would have been) done."""
    with alone("write the fixes", proposal.targets.workspace):
        return _fix_report(proposal, can_ask, consent)


def _fix_report(proposal: FixProposal, can_ask: bool, consent: ElicitationResult[Consent]) -> CallToolResult:
    status = decision(proposal, can_ask, consent)
    plan = proposal.plan
    not_written = api.write_fixes(plan, proposal.targets.cwd) if status == "applied" else []
    assert plan.result is not None
    now = plan.result
    fixed = plan.fixed
    if not_written:  # what is on disk is not what was planned: say what was done, lint what is there
        targets = proposal.targets
        now = api.lint(lint_request(targets, ()), proposal.settings)
        fixed = sum(n for path, n in plan.fixed_in.items() if path not in plan.refused)
    remaining = lint_document(now)["diagnostics"]
    report = FixReport(
        status=status,
        fixed=fixed if status == "applied" else 0,
        proposed=plan.fixed,
        files=proposal.files(),
        unsafe=[f"{d.path}:{d.line}:{d.column}: {d.code}" for d in plan.unsafe],
        refused=not_written,
        remaining=remaining,
        workspace=proposal.targets.workspace.info(),
    )
    if status == "applied":
        written = len(proposal.changed()) - len(not_written)
        lines = [f"Fixed {_plural(fixed, 'problem')} in {_plural(written, 'file')}."] if written else []
        lines += [f"Not written: {message}." for message in not_written]
    elif status == "not_asked" and can_ask:
        lines = [
            f"Nothing was written: the edits ({len(unified_diff(plan)):,} characters of diff) are more than "
            "one consent question can show whole. Fix fewer at a time (fewer `paths`, or `codes`), "
            "or run `mcpdeps lint --fix` in a terminal."
        ]
    else:
        lines = [SAID[status]]
    lines += [
        f"{u} was not fixed: the fix would make a new error appear (fix it by hand)." for u in report.unsafe
    ]
    if status == "applied":
        lines += ["", "What lint reports now:", diagnostics_text(now)]
    elif status != "nothing_to_fix":
        lines += ["", "The edits proposed:", unified_diff(plan).rstrip("\n")]
    return result(with_note("\n".join(lines), proposal.targets), report.model_dump(mode="json"))
