"""Callers checked only for the helpers among a run's files: where their servers are followed.

`lint deps.py` on a module that registers nothing checks the importers whose tools may run
its resolvers, and the files calling their `register(server)` helpers, which make those
helpers' tools exist (`companions._registering`). Such a caller, an entry point calling
every feature's helper (`app/main.py`), passes its server to helpers of modules that cannot
reach the given file: were their tools found, they would be the caller's (`Tool.origin`),
and none of them can run a resolver of the given file (a module that could is one of the
run's files, and so is every module between it and the caller). So a caller's servers are
followed only into the run's files (`registrations.Scanner`), and its module-level calls of
functions imported from elsewhere are not resolved when looking for a helper's call sites
(`call_sites.CallSites`): those modules are neither parsed nor analysed. Nor is a factory
outside the limit whose server the caller binds and never reads (`svc = create_server()`,
`Confined.unread`): that server reaches no file of the limit.

What such a build asks of a limit is noted (`_within`, `Project.limited`), and a caller is
marked in the run's signature (`discovery.signature`). The run's state stays stored under
its own list; a run over another list takes up a caller's record from it only where that
run's limit answers the noted questions alike (`lint_rules.adoption`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from .records import record

if TYPE_CHECKING:
    from .bindings import Binding, Scope
    from .project import Project
    from .source import ParsedModule


@record
class Confined:
    """For each companion whose servers are followed only so far, the files (absolute paths)
    they are followed into: for a caller, the run's files; for a companion checked for the
    registrations a given file's come after, its `discovery.Reach`. And the given files no
    server is followed into (`withheld`)."""

    limits: Mapping[Path, frozenset[Path]]
    withheld: frozenset[Path] = frozenset()
    """The run's files outside a build of some of them (a slice): a build records only its
    own files, and each file's record comes from the slice holding it with every file that
    may hand it a server (`lint_rules.coupling`), so following a server into another slice's
    file would analyse its tools for nothing."""
    in_functions: bool = False
    """Calls written in functions are told outside too when they name a withheld file: in a
    piece of a coupling group (`lint_rules.coupling.pieces`), whose callers relay their
    server to every feature of the group (`def register_all(server): f7.register(server)`),
    mostly to files the group's other pieces hold, each parsed only to be left unfollowed.
    Not in other slices, whose relays' calls mostly lead to files of their own: telling each
    call's module first costs more there than the parses it spares (`benchmarks/README.md`,
    "Pieces of a coupling group")."""
    loosely: bool = False
    """The build leaves companions' tools unclassified where the report cannot read them
    (`unclassified.Classified.companions`): only then is a server nothing reads left unasked
    (`unread`). The build that classifies them all, when the report could read them after all
    (`lint_rules.unclassified_records`), asks for it as before."""

    def admits(self, project: Project, caller: ParsedModule, callee: ParsedModule) -> bool:
        """Whether a server `caller` passes to a function of `callee` is followed there."""
        if callee.path in self.withheld:
            project.withhold(caller.path, callee.path)
            return False
        limit = self.limits.get(caller.path)
        return limit is None or _within(project, caller.path, callee.path, limit)

    def outside(
        self,
        project: Project,
        caller: ParsedModule,
        func: ast.expr,
        table: dict[str, Binding],
        scope: Scope | None = None,
    ) -> bool:
        """Whether the function a caller calls is surely in no file of the run (or in a withheld
        one), told by the import its name comes from, before that module is parsed (`admits`
        decides the rest):
        `register_7(mcp)` imported `from pkg.feature_7 import register as register_7`,
        `f7.register(mcp)` with `f7` a module. A call written in a function (`scope`) is told
        so only for a limited caller, and when no enclosing scope binds the name: a helper
        relaying its server to features (`def setup(server): f7.register(server)`) names them
        as its module imports them, and each was parsed only to be left unfollowed."""
        limit = self.limits.get(caller.path)
        if limit is None and (not self.withheld or (scope is not None and not self.in_functions)):
            # In a slice, a function's calls are resolved: telling each one's module first
            # cost `dense` 1,000 more (+1%) than the parses of withheld files it spared
            # (in a piece of a group, less: `in_functions`).
            return False
        chain: list[str] = []
        while isinstance(func, ast.Attribute):
            chain.append(func.attr)
            func = func.value
        if not isinstance(func, ast.Name) or _bound_locally(func.id, scope):
            return False
        binding = table.get(func.id)
        # Every arm of `try: from tools import register` / `except ImportError: from
        # app.tools import register`: the handler's import runs where the first fails (a
        # package started as a script or as a module), so the call is outside only when
        # each arm's module is.
        arms: list[Binding] = []
        while binding is not None:
            if binding.kind != "import" or binding.target is None:
                return False
            arms.append(binding)
            binding = binding.fallback
        return bool(arms) and all(
            self._import_outside(project, caller, arm.target, chain, limit)
            for arm in arms
            if arm.target is not None
        )

    def _import_outside(
        self,
        project: Project,
        caller: ParsedModule,
        target: tuple[str, str | None],
        chain: list[str],
        limit: frozenset[Path] | None,
    ) -> bool:
        """`outside` for a function reached through the import of `target` (module, attribute)
        and the attributes of `chain` (innermost last)."""
        module, attribute = target
        names = [module]
        dotted = f"{module}.{attribute}" if attribute else module
        for part in [None, *reversed(chain)]:
            dotted = f"{dotted}.{part}" if part else dotted
            names.append(dotted)
        for name in dict.fromkeys(names):
            # A namespace package (no `__init__.py`, `spec.origin` None) holds no function:
            # its submodule, next in `names`, tells. A module that is no package has no
            # submodule: what follows in `names` are its attributes.
            spec = project.spec(name, caller)
            if spec is None or spec.origin is None:
                continue
            package = spec.origin.name == "__init__.py"
            if limit is None:  # only withheld files are out of reach; a package's may re-export
                if package:
                    continue
                if spec.origin.absolute() not in self.withheld:
                    return False
                # Not read, but an import the caller follows (`lint_rules.coupling.confirmed`
                # finds a caller of a coupled file the text did not show by its edges).
                project.edges.setdefault(caller.path, set()).add(spec.origin.absolute())
                project.withhold(caller.path, spec.origin.absolute())
                return True
            if _within(project, caller.path, spec.origin.absolute(), limit):
                return False
            if not package:
                return True
        return limit is not None

    def unread(
        self, project: Project, caller: ParsedModule, name: str, value: ast.AST, table: dict[str, Binding]
    ) -> bool:
        """Whether a limited caller's module-level `name = f(...)` is left unasked whether it
        holds a server (`registrations.Scanner.scan` asks every other value): `name` is spelt
        nowhere else in the caller's text, and `f` is surely in no file of its limit (`outside`).

        An entry point calling forty `create_server_16()` factories for their own servers
        (`svc_16 = create_server_16()`, never read) hands none of them to a file of its limit,
        so nothing registered on them (the factory's tools, `factory_results`, and those of
        the helpers it hands its server to) lands where a given file's tools do. Asked, each
        factory's module was parsed and scanned and every helper it hands its server to
        followed: a `helpers` tree's pre-commit run on a factory module parsed 175 modules
        for them, half of the run. What reads `name` after all asks `Servers.of` then.

        Those tools would be the caller's (`Tool.origin`), and a caller shown first that runs a
        resolver owns its findings (`per_file.owners`): so the caller's record is marked as one
        whose tools' findings are not known (`Graph.unclassified`), and when the report could
        read them (`lint_rules.unclassified_records`) the build classifying every tool asks for
        the server (`loosely`), which makes the report the one it was."""
        if not self.loosely or caller.path not in self.limits or not isinstance(value, ast.Call):
            return False
        spelt = re.compile(rf"\b{re.escape(name)}\b")
        text = caller.text or ""
        first = spelt.search(text)
        if first is None or spelt.search(text, first.end()) is not None:
            return False
        return self.outside(project, caller, value.func, table)


def _bound_locally(name: str, scope: Scope | None) -> bool:
    """Whether a function (or class body) enclosing a call binds `name` (a parameter, an
    assignment, an import written in it): then the module's imports do not tell what it is."""
    while scope is not None:
        if name in scope.bindings:
            return True
        scope = scope.parent
    return False


def _within(project: Project, caller: Path, path: Path, limit: frozenset[Path]) -> bool:
    """Whether `path` is in `caller`'s limit, noted in `Project.limited`: a build asks only
    these questions of the limits, so another run whose limits answer them alike would make
    the same records (`lint_rules.adoption` takes them up across runs whose limits differ)."""
    inside = path in limit
    project.limited.setdefault(caller, {})[path] = inside
    return inside
