"""A command-line option declared once: the facts every reader of a command line derives from.

`mcpdeps lint`'s options are read three ways: typer builds the command, its help and its
errors from them; the fast start reads the common lines without typer (`cli/fast_argv.py`);
the run receives them as `LintArgs`. Each used to be written for each, and a test compared
the copies. Now a command's parameters are a dataclass whose fields carry their declaration
as metadata (`field: T = option(SPEC)`): the field's name is the parameter, its annotation
the type (a `Literal` lists the choices), the declaration holds the spellings, default,
help, help section and placeholder. `cli/typer_options.py` makes the typer command of such
a dataclass, `cli/fast_argv.py` reads lines into it, so an option is added in one place.
Options that several commands take are declared once in `cli/shared_options.py`.

No typer here, nor anything heavy: the fast start of `lint` imports this module.
"""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from ..resolver_core.records import record

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # pydantic's dependency
    from typing_extensions import dataclass_transform

T = TypeVar("T")

Kind = Literal["flag", "value", "choice", "int", "path", "list"]
"""What an option takes, read from its annotation: nothing (`bool`), a word (`str`), one of
a `Literal`'s words, a whole number (`int`), a path (`Path`), or one more item each time it
is given (`list[str]`, `list[Path]`)."""

_METADATA_KEY = "mcpdeps.option"


@record
class Option(Generic[T]):
    """One option: how it is spelt, what it defaults to and how its help presents it.

    `panel` is the help section it is listed under (`Rule selection`; None: `Options`),
    `metavar` its placeholder in the help (`--select <RULES>`; None: its own long name, as
    clap and ruff do), `minimum`/`maximum` bound a number. A command that words or files a
    shared option its own way takes `dataclasses.replace(SHARED, help=..., panel=...)`: the
    same spellings and type."""

    names: tuple[str, ...]
    default: T
    help: str
    panel: str | None = None
    metavar: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    show_default: bool = True


@record
class Argument(Generic[T]):
    """The positional arguments of a command (one list of them: `mcpdeps lint [PATHS]...`)."""

    default: T
    help: str


def option(spec: Option[T] | Argument[T]) -> T:
    """A dataclass field declared by `spec`: its default is the declaration's.

    Typed as the value it defaults to, so `verbose: bool = option(VERBOSE)` reads (and
    type-checks) as the plain field it is."""
    return dataclasses.field(default=spec.default, metadata={_METADATA_KEY: spec})


@dataclass_transform(field_specifiers=(option,))
def declared(cls: type[T]) -> type[T]:
    """A command's parameters: a dataclass whose every field is declared by `option(...)`.

    (`dataclass_transform` tells linters and type checkers that `option` makes a field, as
    `dataclasses.field` does, rather than a default computed once and shared.)"""
    return dataclasses.dataclass(slots=True)(cls)


@record
class Param:
    """One declared field of a command's parameters, with what its annotation says it takes."""

    name: str
    spec: Option[Any] | Argument[Any]
    kind: Kind
    item: type
    """The type of one value: `str`, `int`, `Path` (of each item, for a list); `bool` for a flag."""
    choices: tuple[str, ...] = ()


_PARAMS: dict[type, tuple[Param, ...]] = {}


def params(declared: type) -> tuple[Param, ...]:
    """The declared fields of the dataclass `declared`, in their order (read once per class).

    Every field must be declared (`option(...)`): a plain field would be a parameter no
    command line can set, which typer could not show either."""
    if declared not in _PARAMS:
        _PARAMS[declared] = _read_params(declared)
    return _PARAMS[declared]


def _read_params(declared: type) -> tuple[Param, ...]:
    hints = typing.get_type_hints(declared)
    found = []
    for field in dataclasses.fields(declared):
        spec = field.metadata.get(_METADATA_KEY)
        if not isinstance(spec, (Option, Argument)):
            raise TypeError(f"{declared.__name__}.{field.name} is not declared with option(...)")
        kind, item, choices = _reading(hints[field.name])
        if isinstance(spec, Argument) and kind != "list":
            raise TypeError(f"{declared.__name__}.{field.name}: the arguments are a list")
        found.append(Param(field.name, spec, kind, item, choices))
    if sum(isinstance(p.spec, Argument) for p in found) > 1:
        raise TypeError(f"{declared.__name__} declares more than one list of arguments")
    return tuple(found)


def _reading(annotation: Any) -> tuple[Kind, type, tuple[str, ...]]:
    """What a field of this annotation takes on the command line (`T | None` as `T`)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        others = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(others) != 1:
            raise TypeError(f"{annotation} is not one type or None")
        annotation = others[0]
    origin = typing.get_origin(annotation)
    if origin is Literal:
        choices = typing.get_args(annotation)
        if not all(isinstance(c, str) for c in choices):
            raise TypeError(f"{annotation}: choices are words")
        return "choice", str, choices
    if origin is list:
        (item,) = typing.get_args(annotation)
        if item not in (str, Path):
            raise TypeError(f"{annotation}: a list holds words or paths")
        return "list", item, ()
    simple: dict[Any, Kind] = {bool: "flag", int: "int", Path: "path", str: "value"}
    if annotation not in simple:
        raise TypeError(f"{annotation} is not a type an option takes")
    return simple[annotation], annotation, ()
