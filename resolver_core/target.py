"""What a `Resolve(...)` target is described as (`Target`), and the targets that are no
function of the project: expressions computed at run time, modules, builtins, instances
without `__call__`.

`callables.Targets` follows names to one of these; they are apart from it because they
need no name resolution at all, only the words the SDK's own refusal would say
(`inspect.signature` on a builtin, `callable()` on an instance).
"""

from __future__ import annotations

import ast
import builtins
import inspect

from .model import ProblemKind, ResolverKind
from .records import slotted
from .signatures import FunctionNode
from .source import ParsedModule
from .symbols import Scope


@slotted
class Target:
    """A resolved `Resolve(...)` target, before its parameters are classified."""

    kind: ResolverKind
    key: tuple[object, ...]
    module: ParsedModule
    qualname: str
    modname: str
    node: FunctionNode | ast.ClassDef | None = None
    skip: int = 0
    no_hints: bool = False
    scope: Scope | None = None
    problem: str | None = None
    problem_kind: ProblemKind = "invalid"
    fields: list[tuple[str, ast.AST]] | None = None
    signature: list[str] | None = None
    is_async: bool | None = None
    """The object's own async-ness when decorators decide it (else: is `node` an async def)."""
    wrapped_async: str | None = None
    """The `async def` a sync decorator wrapper calls (its coroutine is injected, never awaited)."""
    decorators: tuple[str, ...] = ()
    """The decorator chain written on the def, for display."""


def opaque_target(module: ParsedModule, key: str, text: str) -> Target:
    """An expression whose callable only exists at run time: reported as unseen, never guessed."""
    return Target(
        "opaque",
        ("opaque", key),
        module,
        text,
        module.name,
        problem_kind="opaque",
        problem=f"`{text}` is computed at run time; mcpdeps cannot see which callable it is",
    )


def installed_target(module: ParsedModule, key: str, text: str, origin: str) -> Target:
    """A function imported from an installed module or the standard library (`os.getcwd`,
    `mcp...get_access_token`): a definite callable, not a run-time value, but mcpdeps never
    imports or reads installed code, so its parameters are unknown. `modname` is the module the
    source names (`origin`), which is what the finding has to name. Kept even for the SDK's own
    functions: most of them are no resolvers (`Resolve(func_metadata)` is refused)."""
    return Target(
        "opaque",
        ("opaque", key),
        module,
        text,
        origin,
        problem_kind="installed",
        problem=f"`{text}` comes from module `{origin}`, outside the project",
    )


def module_target(module: ParsedModule, key: str, text: str) -> Target:
    """`Resolve(some_module)`: a module is never callable."""
    return Target(
        "opaque", ("mod", key), module, text, module.name, problem=f"module {text!r} is not callable"
    )


def not_callable_target(module: ParsedModule, key: object, text: str, cls: str) -> Target:
    """An instance of a project class without `__call__` (the SDK's T10)."""
    problem = f"an instance of {cls} is not callable (no __call__)"
    return Target("opaque", ("inst", key), module, text, module.name, problem=problem)


def builtin_target(module: ParsedModule, name: str) -> Target:
    """A builtin, with the signature `inspect.signature` gives it (or its refusal); no hints."""
    obj = getattr(builtins, name)
    if not callable(obj):
        return Target(
            "builtin", ("b", name), module, name, "builtins", problem=f"{obj!r} is not a callable object"
        )
    try:
        sig = list(inspect.signature(obj).parameters)
    except (ValueError, TypeError) as exc:
        return Target("builtin", ("b", name), module, name, "builtins", problem=str(exc))
    return Target("builtin", ("b", name), module, name, "builtins", no_hints=True, signature=sig)
