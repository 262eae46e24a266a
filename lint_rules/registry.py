"""Every rule, and selection by code, code prefix (`MCPD1`) or kebab-case name."""

from __future__ import annotations

from collections.abc import Iterable

from .base import Rule
from .rules.aliased_tool_argument import AliasedToolArgument
from .rules.bare_tool_decorator import BareToolDecorator
from .rules.context_elicit_in_tool import ContextElicitInTool
from .rules.deprecated_include_context import DeprecatedIncludeContext
from .rules.duplicate_tool_name import DuplicateToolName
from .rules.extra_schema_parameter import ExtraSchemaParameter
from .rules.hidden_resolve import HiddenResolve
from .rules.ignored_default import IgnoredDefault
from .rules.invalid_elicitation_schema import InvalidElicitationSchema
from .rules.invalid_resolver import InvalidResolver
from .rules.lambda_without_name import LambdaWithoutName
from .rules.model_chosen_identity import HeaderIdentity, LaunderedIdentity, UnconfirmedIrreversible
from .rules.model_supplied_arguments import (
    ForgeableConfirmation,
    IdentityArgument,
    SecretArgument,
    ServerOwnedFact,
)
from .rules.multiple_questions import MultipleQuestions
from .rules.opaque_resolver import OpaqueResolver
from .rules.positional_only_parameter import PositionalOnlyParameter
from .rules.resolve_in_union import ResolveInUnion
from .rules.resolve_outside_tool import ResolveOutsideTool
from .rules.resolve_with_input_required import ResolveWithInputRequired
from .rules.resolver_cycle import ResolverCycle
from .rules.syntax_error import SyntaxErrorRule
from .rules.unawaitable_resolver import UnawaitableResolver
from .rules.unclassifiable_parameter import UnclassifiableParameter
from .rules.underscore_parameter import UnderscoreParameter
from .rules.unevaluable_annotation import UnevaluableAnnotation
from .rules.unstable_question import UnstableQuestion
from .rules.unused_suppression import UnusedSuppression

ALL_RULES: list[type[Rule]] = sorted(
    [
        SyntaxErrorRule,
        ResolverCycle,
        UnclassifiableParameter,
        ResolveInUnion,
        MultipleQuestions,
        ResolveWithInputRequired,
        UnderscoreParameter,
        InvalidResolver,
        BareToolDecorator,
        UnevaluableAnnotation,
        LambdaWithoutName,
        OpaqueResolver,
        HiddenResolve,
        ResolveOutsideTool,
        InvalidElicitationSchema,
        UnstableQuestion,
        DeprecatedIncludeContext,
        PositionalOnlyParameter,
        AliasedToolArgument,
        UnawaitableResolver,
        ExtraSchemaParameter,
        DuplicateToolName,
        IgnoredDefault,
        ContextElicitInTool,
        UnusedSuppression,
        IdentityArgument,
        ServerOwnedFact,
        SecretArgument,
        ForgeableConfirmation,
        LaunderedIdentity,
        HeaderIdentity,
        UnconfirmedIrreversible,
    ],
    key=lambda r: r.code,
)


_BY_CODE = {rule.code: rule for rule in ALL_RULES}


def rule_of(code: str) -> type[Rule] | None:
    """The rule of a diagnostic's code (None for a code no rule has, as a stale cache may hold)."""
    return _BY_CODE.get(code)


class UnknownRule(ValueError):
    """A selector that names no rule (reported as a usage error)."""


def find_rule(selector: str) -> type[Rule]:
    """One rule by exact code or name."""
    sel = selector.strip()
    for rule in ALL_RULES:
        if sel.upper() == rule.code or sel.lower() == rule.name:
            return rule
    raise UnknownRule(f"unknown rule {selector!r}{_near(sel)}")


def matching(selector: str) -> list[type[Rule]]:
    """Rules a selector picks: `ALL`, a code, a code prefix like `MCPD1`, or a name."""
    sel = selector.strip()
    if sel.upper() == "ALL":
        return list(ALL_RULES)
    by_prefix = [r for r in ALL_RULES if sel.upper().startswith("MCPD") and r.code.startswith(sel.upper())]
    if by_prefix:
        return by_prefix
    by_name = [r for r in ALL_RULES if r.name == sel.lower()]
    if by_name:
        return by_name
    raise UnknownRule(f"unknown rule code or name {selector!r}{_near(sel)} (see `mcpdeps rule --all`)")


def _near(selector: str) -> str:
    """` (did you mean 'resolver-cycle'?)`: codes are compared with codes, names with names."""
    from ..resolver_core.suggest import did_you_mean

    if selector.upper().startswith("MCPD"):
        return did_you_mean(selector.upper(), (r.code for r in ALL_RULES), cutoff=1.0)  # one slip only
    return did_you_mean(selector.lower(), (r.name for r in ALL_RULES))


def select_rules(
    select: Iterable[str] | None = None,
    ignore: Iterable[str] = (),
    extend_select: Iterable[str] = (),
) -> list[type[Rule]]:
    """Resolve ruff-style `select`/`extend-select`/`ignore` into the rules to run.

    Without `select`, the rules enabled by default; an opt-in rule runs when some selector
    picks it (its code, a prefix such as `MCPD2`, its name, or `ALL`).
    """
    chosen: dict[str, type[Rule]] = {}
    if select is None:
        chosen.update((r.code, r) for r in ALL_RULES if r.enabled_by_default)
    for sel in select or ():
        chosen.update((r.code, r) for r in matching(sel))
    for sel in extend_select:
        chosen.update((r.code, r) for r in matching(sel))
    for sel in ignore:
        for r in matching(sel):
            chosen.pop(r.code, None)
    return sorted(chosen.values(), key=lambda r: r.code)
