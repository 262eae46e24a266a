"""A declared command line read without typer, for the runs that need no help and no error.

Why: typer builds a pydantic `TypeAdapter` per parameter before it calls the command, and
importing typer itself pulls click and pydantic's type machinery. Together that is most of
a warm `mcpdeps lint` run as the user times it (`benchmarks/bench_fast_start.py`: the fast
start saves well over the quarter of the command's wall time that a second path must earn),
and what pre-commit pays on every commit. ruff starts in milliseconds; a linter that runs on
every save cannot spend its budget on its own argument parser.

So `read` takes the common, well-formed command lines itself and gives up (returns None) on
anything else: `--help`, an unknown option, a bad value, a missing one, `--`, combined short
flags. Then typer reads the line, and its help and error messages are the only ones users
ever see. It reads by the same declarations typer's command is made of
(`cli/option_spec.py`), so there is no second list of options to keep equal; every line it
accepts, typer reads into the very same values (`tests/test_lint_argv.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from .option_spec import Argument, Option, Param, params

A = TypeVar("A")


def read(argv: Sequence[str], declared: type[A]) -> A | None:
    """`argv` as the fields of `declared`, or None when typer must read it (help, errors, rarities)."""
    fields = params(declared)
    by_name = {name: p for p in fields if isinstance(p.spec, Option) for name in p.spec.names}
    arguments = next((p for p in fields if isinstance(p.spec, Argument)), None)
    values: dict[str, Any] = {}
    rest = list(argv)
    while rest:
        token = rest.pop(0)
        if not token.startswith("-"):
            if not token or arguments is None:
                return None
            values.setdefault(arguments.name, []).append(arguments.item(token))
            continue
        name, eq, inline = token.partition("=")
        param = by_name.get(name if name.startswith("--") else token)
        if param is None:
            return None  # --help, -h, --, -, -j4, -vo, an unknown or misspelt option: typer's
        if param.kind == "flag":
            if eq:
                return None
            values[param.name] = True
            continue
        if eq:
            text = inline
        elif rest and not rest[0].startswith("-"):
            text = rest.pop(0)
        else:
            return None  # a missing value, or one that looks like an option: typer decides
        value = _value(param, text)
        if value is None:
            return None
        if param.kind == "list":
            values.setdefault(param.name, []).append(value)
        else:
            values[param.name] = value
    return declared(**values)


def _value(param: Param, text: str) -> object | None:
    """The typed value of `text` for `param`; None when typer would refuse it (or might)."""
    if param.kind == "choice":
        return text if text in param.choices else None
    if param.kind == "int":
        if not (text.isascii() and text.isdigit()):
            return None
        number, spec = int(text), param.spec
        assert isinstance(spec, Option)  # an Argument is a list
        too_low = spec.minimum is not None and number < spec.minimum
        too_high = spec.maximum is not None and number > spec.maximum
        return None if too_low or too_high else number
    if param.item is Path:
        return Path(text) if text else None
    return text
