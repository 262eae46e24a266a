"""The lint rules, one per module, and `lint()` which runs them over a graph.

Each rule is a small class (see `base.Rule`) carrying its own valid and invalid
examples; the test suite lints every example. `lint()` (`checking.py`) is the API the
CLI, `serve` and `new` call.

The names below load on first use (PEP 562): importing a submodule (the config's file
lookup, say) must not import the diagnostics' pydantic models and the graph model with
it, which is most of what a warm run that replays its report would otherwise cost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .checking import LintResult, lint, report, run_rules

__all__ = ["LintResult", "lint", "report", "run_rules"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import checking

        return getattr(checking, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
