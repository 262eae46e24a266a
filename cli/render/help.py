"""`--help` as `ruff check --help` reads: plain text, options in groups, nothing cut.

typer's own help showed Python types as placeholders (`<list[Path]>`, `<int range>`, `<bool>`
after every flag in its rich panels), cut the command summaries at 80 columns, read help
texts as rich markup (`[tool.mcpdeps]` vanished) and shrank option names below 100 columns.
Here each command of the click tree typer builds gets its help written by `render`, the same
at every width: the summary, the usage line with readable arguments (`[PATHS]...`), then
sections of `-s, --long <PLACEHOLDER>  help [default: x] [possible values: a, b]`, wrapped
to the terminal. `-h` is `--help` everywhere. The section and the placeholder are each
option's own (`rich_help_panel`, `metavar`: where it is declared, `cli/option_spec.py`).
"""

from __future__ import annotations

import re
import shutil
import textwrap
from collections.abc import Iterator, Sequence
from types import MethodType
from typing import Any

HELP_FLAGS = ("--help", "-h")

MAX_WIDTH = 120
"""Wider lines are harder to read than wrapped ones (ruff and clap stop at about this too)."""


def wants_help(argv: Sequence[str]) -> bool:
    """Help is printed for `--help`, and for a group called without a command (`mcpdeps`, `mcpdeps new`)."""
    return any(a in HELP_FLAGS for a in argv) or len(argv) == 0 or list(argv) == ["new"]


def prepare_help(command: Any) -> None:
    """Give every command of the tree this module's help, and `-h` as well as `--help`."""
    for cmd in _walk(command):
        cmd.rich_markup_mode = None
        cmd.context_settings = {**(cmd.context_settings or {}), "help_option_names": list(HELP_FLAGS)}
        cmd.format_help = MethodType(_format_help, cmd)


def _walk(command: Any) -> Iterator[Any]:
    """Each command of the tree (typer's groups keep their commands in `commands`, as click's do)."""
    yield command
    for sub in (getattr(command, "commands", None) or {}).values():
        yield from _walk(sub)


def _format_help(self: Any, ctx: Any, formatter: Any) -> None:
    formatter.write(render(self, ctx))


def width() -> int:
    return max(40, min(shutil.get_terminal_size().columns, MAX_WIDTH))


def render(cmd: Any, ctx: Any) -> str:
    """The whole help of one command, ready to print.

    Options are listed under their declared section (typer's `rich_help_panel`, which
    `cli/option_spec.Option.panel` sets), sections in the order their first option comes,
    after `Options` (the undeclared), as ruff lists the usual options and then the groups;
    `-h, --help` closes the last section."""
    wide = width()
    out: list[str] = []
    if cmd.help:
        out += [line for paragraph in _paragraphs(cmd.help) for line in (_wrap(paragraph, wide, ""), "")]
    out += [f"Usage: {ctx.command_path} {' '.join(_usage(cmd, ctx))}".rstrip(), ""]
    grouped: dict[str, list[tuple[str, str]]] = {"Arguments": [], "Options": []}
    for p in cmd.params:
        if p.param_type_name == "argument":
            grouped["Arguments"].append((_argument_metavar(p), _help_text(p, ctx)))
    for p in cmd.params:
        if p.param_type_name == "option" and not getattr(p, "hidden", False):
            section = getattr(p, "rich_help_panel", None) or "Options"
            grouped.setdefault(section, []).append(_option_row(p, ctx))
    help_option = cmd.get_help_option(ctx)
    if help_option is not None:
        sections = [title for title, rows in grouped.items() if rows and title != "Arguments"]
        grouped[sections[-1] if sections else "Options"].append(_option_row(help_option, ctx))
    commands = getattr(cmd, "commands", None) or {}
    grouped["Commands"] = [(sub, _summary(c)) for sub, c in commands.items() if not c.hidden]
    column = min(max(len(n) for rows in grouped.values() for n, _ in rows), 30, wide // 3) + 4
    for title, rows in grouped.items():
        if rows:
            out += [f"{title}:", *_table(rows, wide, column), ""]
    return "\n".join(out)


def _paragraphs(text: str) -> list[str]:
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", textwrap.dedent(text).strip()) if p.strip()]


def _summary(cmd: Any) -> str:
    """A command's first paragraph, whole (click cut it to fit one line: `Check MCP servers...`)."""
    text = cmd.short_help or cmd.help or ""
    return _paragraphs(text)[0] if text.strip() else ""


def _usage(cmd: Any, ctx: Any) -> list[str]:
    pieces = ["[OPTIONS]"]
    pieces += [_argument_metavar(p) for p in cmd.params if p.param_type_name == "argument"]
    if getattr(cmd, "commands", None):
        pieces.append("COMMAND [ARGS]...")
    return pieces


def _argument_metavar(p: Any) -> str:
    name = (p.metavar if p.metavar and not p.metavar.startswith(("<", "{")) else p.name).upper()
    shown = name if p.required else f"[{name}]"
    return f"{shown}..." if p.nargs == -1 else shown


def _option_row(p: Any, ctx: Any) -> tuple[str, str]:
    long = next((o for o in [*p.opts, *p.secondary_opts] if o.startswith("--")), p.opts[0])
    return _option_names(p, long), _help_text(p, ctx)


def _option_names(p: Any, long: str) -> str:
    short = [o for o in p.opts if not o.startswith("--")]
    longs = [o for o in p.opts if o.startswith("--")]
    names = ", ".join([*short, *longs]) if short else "    " + ", ".join(longs)
    if getattr(p, "is_flag", False) or getattr(p, "count", False):
        return names
    return f"{names} <{_placeholder(p, long)}>"


def _placeholder(p: Any, long: str) -> str:
    """The option's declared placeholder (`--select <RULES>`), else its name (`--port <PORT>`)."""
    metavar: str | None = p.metavar
    if metavar and not metavar.startswith(("<", "{")):
        return metavar
    return long.lstrip("-").upper().replace("-", "_")


def _choices(p: Any, ctx: Any) -> list[str]:
    shown = str(p.display_type(ctx)) if hasattr(p, "display_type") else ""
    found = re.fullmatch(r"<([\w.-]+(?:\|[\w.-]+)+)>", shown)
    return found.group(1).split("|") if found else []


def _help_text(p: Any, ctx: Any) -> str:
    text = " ".join((getattr(p, "help", None) or "").split())
    extras = []
    default = _default(p)
    if default is not None:
        extras.append(f"[default: {default}]")
    choices = _choices(p, ctx)
    if choices:
        extras.append(f"[possible values: {', '.join(choices)}]")
    return " ".join([text, *extras]).strip()


def _default(p: Any) -> str | None:
    if p.param_type_name != "option" or getattr(p, "is_flag", False) or not getattr(p, "show_default", True):
        return None
    value = p.default
    if value is None or value == () or value == [] or callable(value):
        return None
    value = getattr(value, "value", value)  # an Enum's value is what the user types
    return str(value)


def _table(rows: list[tuple[str, str]], wide: int, column: int) -> list[str]:
    """`  names  help`, the help wrapped in its column (one for every section, so they line
    up); a name too long for the column puts its help on the next line (as clap does)."""
    lines: list[str] = []
    for names, text in rows:
        indent = " " * column
        if not text:
            lines.append(f"  {names}")
        elif len(names) + 4 <= column:
            lines.append(_wrap(text, wide, indent, first=f"  {names}".ljust(column)))
        else:
            lines += [f"  {names}", _wrap(text, wide, indent)]
    return lines


def _wrap(text: str, wide: int, indent: str, first: str | None = None) -> str:
    return textwrap.fill(
        text,
        width=wide,
        initial_indent=indent if first is None else first,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
