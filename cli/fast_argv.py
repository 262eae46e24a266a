"""A declared command line read without typer, for the runs that need no help and no error.

Why: typer builds a pydantic `TypeAdapter` per parameter before it calls the command, and
importing typer itself pulls click and pydantic's type machinery. Together that is most of
a warm `mcpdeps lint` run as the user times it (`benchmarks/bench_fast_start.py`: the fast
start saves well over the quarter of the command's wall time that a second path must earn),
and what pre-commit pays on every commit. ruff starts in milliseconds; a linter that runs on
every save cannot spend its budget on its own argument parser.

So `read` takes the well-formed command lines itself, spelt every way click reads them
(`--jobs 1`, `--jobs=1`, `-j 1`, `-j1`, grouped short flags `-vj1`, paths after `--`), and
gives up (returns None) on anything else: `--help`, an unknown option, a bad value, a
missing one, a value that looks like an option. Then typer reads the line, and its help and
error messages are the only ones users ever see. A line the fast start refused costs typer's
start-up, so a common spelling it misses (`-j1` did) is a slow run, not a wrong one. It reads
by the same declarations typer's command is made of (`cli/option_spec.py`), so there is no
second list of options to keep equal; every line it accepts, typer reads into the very same
values (`tests/test_lint_argv.py`).
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
    options_ended = False  # after `--`, click reads every token as a path
    while rest:
        token = rest.pop(0)
        if token == "--" and not options_ended:
            options_ended = True
            continue
        if options_ended or not token.startswith("-"):
            if not token or arguments is None:
                return None
            values.setdefault(arguments.name, []).append(arguments.item(token))
            continue
        if token.startswith("--"):
            name, eq, inline = token.partition("=")
            param = by_name.get(name)
            attached = inline if eq else None
        else:
            param, attached = _short(token, by_name, values)
        if param is None:
            return None  # --help, -h, -, an unknown or misspelt option: typer's
        if param.kind == "flag":
            if attached is not None:
                return None  # `--fix=1`: typer's error
            values[param.name] = True
            continue
        if attached is None and rest and not rest[0].startswith("-"):
            attached = rest.pop(0)
        value = None if attached is None else _value(param, attached)
        if value is None:
            return None  # a missing value, one that looks like an option, a bad one: typer decides
        if param.kind == "list":
            values.setdefault(param.name, []).append(value)
        else:
            values[param.name] = value
    return declared(**values)


def _short(token: str, by_name: dict[str, Param], values: dict[str, Any]) -> tuple[Param | None, str | None]:
    """A token of short options read as click reads it: flags grouped (`-vj1` is `-v -j1`),
    each set in `values`, until an option that takes a value, which takes the rest of the
    token (`-j1`: "1", `-o=x`: "=x") or, when nothing is left, the next token.

    Returns that option and its attached text (None: none attached); a token of flags only
    returns its last flag; an unknown letter returns (None, None)."""
    for i in range(1, len(token)):
        param = by_name.get("-" + token[i])
        if param is None:
            return None, None
        if param.kind != "flag":
            return param, token[i + 1 :] or None
        if i < len(token) - 1:
            values[param.name] = True
        else:
            return param, None
    return None, None  # "-": a path to click, a rarity here


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
