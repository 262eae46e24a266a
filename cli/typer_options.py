"""Declared options made typer parameters (`cli/option_spec.py` says what a declaration is).

Two uses. `typer_option(SPEC)` is the default of one parameter in a signature written out
(`verbose: bool = typer_option(VERBOSE)`), for the options several commands share.
`@command_of(LintArgs)` makes a whole command of a declared dataclass: typer reads the
signature built here from its fields (`inspect.Signature`), and the command receives one
`LintArgs` instead of twenty keywords, so the fields are the only list of the options.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import inspect
import types
from collections.abc import Callable
from typing import Any, TypeVar, cast

import typer

from .option_spec import Argument, Option, Param, params

T = TypeVar("T")
A = TypeVar("A")


def typer_option(spec: Option[T]) -> T:
    """The typer default of a parameter declared by `spec` (typed as its value, as typer's own)."""
    return cast(
        T,
        typer.Option(
            spec.default,
            *spec.names,
            help=spec.help,
            rich_help_panel=spec.panel,
            metavar=spec.metavar,
            min=spec.minimum,
            max=spec.maximum,
            show_default=spec.show_default,
        ),
    )


def command_of(declared: type[A]) -> Callable[[Callable[[A], None]], Callable[..., None]]:
    """Make `run(args)` a typer command whose parameters are the fields of `declared`.

    The command keeps `run`'s name and docstring (its help); typer reads the signature built
    from the declarations and calls it with one keyword per field, made into `declared`."""
    fields = params(declared)

    def decorate(run: Callable[[A], None]) -> Callable[..., None]:
        def command(**values: Any) -> None:
            run(declared(**{p.name: _plain(p, values[p.name]) for p in fields}))

        command.__name__, command.__qualname__ = run.__name__, run.__qualname__
        command.__doc__, command.__module__ = run.__doc__, run.__module__
        command.__signature__ = inspect.Signature([_parameter(p) for p in fields])  # type: ignore[attr-defined]
        return command

    return decorate


def _parameter(param: Param) -> inspect.Parameter:
    """The signature's parameter for `param`: the annotation typer converts by, its typer default."""
    spec = param.spec
    annotation: Any = types.GenericAlias(list, (param.item,)) if param.kind == "list" else param.item
    default = spec.default
    if param.kind == "choice":
        annotation = _choices(param.name, param.choices)
        default = None if default is None else annotation(default)
    if isinstance(spec, Argument):
        info = typer.Argument(default, help=spec.help)
    else:
        info = typer_option(dataclasses.replace(spec, default=default))
    return inspect.Parameter(param.name, inspect.Parameter.KEYWORD_ONLY, default=info, annotation=annotation)


@functools.cache
def _choices(name: str, choices: tuple[str, ...]) -> type[enum.Enum]:
    """The enum typer checks a `Literal` option's value with (its error lists the choices)."""
    return enum.Enum(name, [(choice, choice) for choice in choices], type=str)  # type: ignore[return-value]


def _plain(param: Param, value: Any) -> Any:
    """typer's value as the declared field holds it: a choice as its word, no list as None."""
    if isinstance(value, enum.Enum):
        return value.value
    if param.kind == "list":
        return list(value or ()) or None
    return value
