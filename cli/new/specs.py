"""Parse and validate the small specs `new` takes on its command line.

`--arg NAME[:TYPE]`, `--resolve PARAM=RESOLVER[:TYPE]` and `--depends PARAM=RESOLVER` are
parsed here, once, so that a malformed value is refused with a sentence before any file is read.
"""

from __future__ import annotations

import ast
import keyword
import re
import sys

from ...resolver_core.records import record
from ..errors import UserError
from .name_checks import MAX_NAME, check_identifier

_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_PROJECT_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$")


@record(slots=False)
class ArgSpec:
    """A tool argument (`--arg NAME:TYPE` on a tool) or a by-name resolver parameter."""

    name: str
    type: str


@record(slots=False)
class DependSpec:
    """A parameter filled by another resolver: `PARAM=RESOLVER[:TYPE]`; `type` None means "infer"."""

    param: str
    resolver: str
    type: str | None


SHADOWED = frozenset({"mcp", "mcp_types", "mcpdeps"})
"""Import names a new server's package must not take: the SDK it imports, and mcpdeps itself."""


def package_name(project: str) -> str:
    """The import name of project `project`'s package: lower case, `-` and `.` as `_` (as uv does)."""
    return re.sub(r"[-.]+", "_", project).lower()


def check_project_name(value: str) -> str:
    """A project name becomes a folder, a distribution name and the name of its import package.

    The package is what lets several scaffolded servers live in one environment, so the name
    must make an importable package that hides nothing the server (or Python) needs.
    """
    if len(value) > MAX_NAME:
        raise UserError(f"the project name is {len(value)} characters long; the limit is {MAX_NAME}.")
    if not _PROJECT_NAME.match(value):
        raise UserError(
            f"the project name {value!r} must start and end with a letter or digit and contain only "
            "letters, digits, '.', '_' and '-'."
        )
    package = package_name(value)
    if not package.isidentifier() or keyword.iskeyword(package):
        raise UserError(
            f"the project name {value!r} would make the package {package!r}, which Python cannot "
            "import; start it with a letter and avoid Python keywords."
        )
    if package in SHADOWED or package in sys.stdlib_module_names:
        hidden = "the standard library's" if package in sys.stdlib_module_names else "the installed"
        raise UserError(
            f"the project name {value!r} would make the package {package!r}, which would hide "
            f"{hidden} {package!r} from the server; choose another name (like {package}_server)."
        )
    return value


def check_type(value: str, where: str) -> str:
    """A TYPE must be one Python expression (`int`, `list[str]`, `Literal["a", "b"]`); names are checked by lint."""
    try:
        ast.parse(value, mode="eval")
    except SyntaxError:
        raise UserError(
            f"{where}: {value!r} is not a type expression (for example int, str | None, list[str])."
        ) from None
    return value


def parse_arg(value: str, default_type: str = "str") -> ArgSpec:
    """Parse `NAME` or `NAME:TYPE`."""
    name, sep, type_ = value.partition(":")
    check_identifier(name.strip(), "the argument name")
    type_ = type_.strip()
    if sep and not type_:
        raise UserError(f"--arg {value!r} has an empty type after ':'; write NAME or NAME:TYPE.")
    return ArgSpec(name.strip(), check_type(type_, f"--arg {value!r}") if type_ else default_type)


def parse_depend(value: str, option: str) -> DependSpec:
    """Parse `PARAM=RESOLVER` or `PARAM=RESOLVER:TYPE` (the resolver may be dotted, e.g. `svc.lookup`)."""
    param, sep, rest = value.partition("=")
    if not sep:
        raise UserError(f"{option} {value!r} must look like PARAM=RESOLVER (for example user=current_user).")
    resolver, _, type_ = rest.partition(":")
    resolver = resolver.strip()
    check_identifier(param.strip(), f"the parameter name in {option}")
    if not _DOTTED.match(resolver):
        raise UserError(f"{option} {value!r}: {resolver!r} is not a resolver name.")
    type_ = type_.strip()
    return DependSpec(param.strip(), resolver, check_type(type_, f"{option} {value!r}") if type_ else None)


def check_unique(names: list[str], where: str) -> None:
    """Two parameters with one name would be a SyntaxError; say which name instead."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise UserError(f"the parameter {name!r} is given twice for {where}.")
        seen.add(name)
