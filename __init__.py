"""mcpdeps: see and check the Resolve(...) dependency graphs of MCP servers, statically.

Installed, everything lives in this one import package: `mcpdeps.cli` (the front ends),
`mcpdeps.resolver_core` (source -> graph model), `mcpdeps.lint_rules` (one rule per module)
and `mcpdeps.templates` (what `mcpdeps new` writes). In the repository those are top-level
folders; `pyproject.toml` maps this folder to the package (`package-dir`), so nothing but
`mcpdeps` lands in site-packages and a user's own `cli` or `templates` never collides.
"""

__version__ = "0.1.0"
"""This distribution's version (pyproject.toml reads it from here)."""
