"""The three `mcpdeps new` flows on a terminal, called by `command.py` once its options are parsed.

Each flow: settle missing values (prompting only on a terminal), read the module, plan the
change (all refusals happen in the engine modules: `plans`, `codegen`, `insertion`,
`project`), then show / re-lint / confirm / write. A change is written only if the linter
finds no `error` in the result (the SDK would refuse such a server); `--dry-run` shows the
diff and the verdict and writes nothing. The editor and MCP front ends call the engines
directly and decide for themselves how to show and confirm.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ..errors import UserError
from .codegen import Question
from .files import SourceFile, read_source, write_or_explain
from .module_info import read_module
from .name_checks import tool_arguments_needed
from .plans import (
    CONTEXT_PARAM,
    ResolverRequest,
    ToolRequest,
    choose_server,
    plan_resolver,
    plan_tool,
)
from .project import SERVER_MODULE, check_target, move_into_place, render_project, stage
from .prompts import ask, choose, confirm, is_interactive
from .relint import Relint, relint
from .render import note, show_diagnostics, show_diff, show_tree
from .specs import ArgSpec, check_project_name, parse_arg, parse_depend


def refuse_if_errors(result: Relint, subject: str) -> None:
    """Exit 1 with the diagnostics when `subject` (the would-be result) would not pass `mcpdeps lint`."""
    if not result.available:
        note(
            "[dim]note: the linter (lint_rules.lint) is not available here; the result was not re-linted.[/]"
        )
        return
    if result.new_warnings:
        note(f"[yellow]{len(result.new_warnings)} lint warning(s) in the result (not blocking):[/]")
        show_diagnostics(result.new_warnings)
    if not result.errors:
        return
    show_diagnostics(result.errors)
    already = (
        f" ({result.preexisting} of them already there before this change)" if result.preexisting else ""
    )
    raise UserError(
        f"{subject} would not pass `mcpdeps lint`: {len(result.errors)} error(s){already}, "
        "so the SDK would refuse to register the server. Nothing was written.",
        exit_code=1,
    )


def apply_edit(
    source: SourceFile, display: str, new_text: str, *, what: str, dry_run: bool, interactive: bool
) -> None:
    """Show the diff when useful, refuse a result that would not lint, then write atomically."""
    if dry_run or interactive:
        show_diff(display, source.text, new_text)
    refuse_if_errors(relint([Path(display)], {source.path: new_text}), f"{display} with {what} added")
    if dry_run:
        note("Dry run: nothing was written.")
        return
    if interactive and not confirm(f"Write {display}?"):
        note("Nothing was written.")
        raise SystemExit(1)
    if read_source(source.path) != source:
        raise UserError(f"{display} changed while mcpdeps was working on it; run the command again.")
    write_or_explain(source, new_text)
    note(f"Added {what} to {display}.")


def _default_module(interactive: bool) -> str | None:
    """On a terminal, offer the server module of the project in the current folder."""
    if not interactive:
        return None
    found = [Path("server.py"), *sorted(Path("src").glob(f"*/{SERVER_MODULE}"))]
    return next((str(p.as_posix()) for p in found if p.is_file()), None)


def new_server(name: str | None, parent: Path, *, force: bool, dry_run: bool, yes: bool) -> None:
    """Create NAME/ from the server templates, after linting it in a staging folder."""
    interactive = is_interactive(yes)
    name = check_project_name(ask(name, "Project name", "NAME", interactive))
    project = render_project(name, parent)
    check_target(project.root, force)
    staging = stage(project, beside_target=not dry_run)
    try:
        refuse_if_errors(
            relint([staging / project.server], before=False), f"the generated {project.root}/{project.server}"
        )
        if dry_run:
            show_tree(project.root, project.files)
            note("Dry run: nothing was written.")
            return
        if interactive:
            show_tree(project.root, project.files)
            if not confirm(f"Create {project.root}?"):
                note("Nothing was written.")
                raise SystemExit(1)
        move_into_place(staging, project.root)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    note(f"Created {project.root}/ ({len(project.files)} files). Next:")
    note(f"  cd {project.root}")
    note(f"  mcpdeps new resolver NAME --in {project.server} --arg name")
    note(f"  mcpdeps new tool NAME --in {project.server} --arg name:str --resolve PARAM=RESOLVER")
    note("  mcpdeps serve")


def _question(elicit: str | None, sample: bool, list_roots: bool, returns: str | None) -> Question | None:
    chosen = [
        flag for flag, on in (("--elicit", elicit), ("--sample", sample), ("--list-roots", list_roots)) if on
    ]
    if len(chosen) > 1:
        raise UserError(f"{' and '.join(chosen)} cannot be combined: a resolver asks one question.")
    if chosen and returns:
        raise UserError(
            f"--returns cannot be combined with {chosen[0]}: the question decides the return type."
        )
    if elicit:
        return Question("elicit", elicit)
    if sample:
        return Question("sample")
    return Question("list_roots") if list_roots else None


def new_resolver(
    name: str | None,
    module: str | None,
    *,
    args: list[str],
    context: bool,
    depends: list[str],
    returns: str | None,
    elicit: str | None,
    sample: bool,
    list_roots: bool,
    sync: bool,
    dry_run: bool,
    yes: bool,
) -> None:
    """Insert a resolver into an existing module."""
    interactive = is_interactive(yes)
    request = ResolverRequest(
        name=ask(name, "Resolver name", "NAME", interactive),
        args=[parse_arg(a) for a in args],
        context=context,
        depends=[parse_depend(d, "--depends") for d in depends],
        returns=returns,
        question=_question(elicit, sample, list_roots, returns),
        sync=sync,
    )
    display = ask(module, "Module to add it to", "--in FILE", interactive, _default_module(interactive))
    source = read_source(Path(display))
    new_text = plan_resolver(read_module(source.text, display), display, request)
    apply_edit(
        source, display, new_text, what=f"resolver {request.name!r}", dry_run=dry_run, interactive=interactive
    )


def _missing_arguments(
    info_args: dict[str, tuple[str, str | None]], given: list[ArgSpec], injected: set[str], interactive: bool
) -> list[ArgSpec]:
    """On a terminal, offer to add the tool arguments the chosen resolvers read by name."""
    added: list[ArgSpec] = []
    names = {a.name for a in given} | injected
    for arg, (reader, annotation) in info_args.items():
        if arg in names or not interactive:
            continue
        if confirm(f"Resolver {reader!r} reads the tool argument {arg!r}. Add it to the tool?"):
            added.append(parse_arg(f"{arg}:{ask(None, f'Type of {arg!r}', '', True, annotation or 'str')}"))
    return added


def new_tool(
    name: str | None,
    module: str | None,
    *,
    server: str | None,
    args: list[str],
    resolves: list[str],
    context: bool,
    sync: bool,
    dry_run: bool,
    yes: bool,
) -> None:
    """Insert a tool registered on the module's server."""
    interactive = is_interactive(yes)
    tool_name = ask(name, "Tool name", "NAME", interactive)
    display = ask(module, "Module to add it to", "--in FILE", interactive, _default_module(interactive))
    source = read_source(Path(display))
    info = read_module(source.text, display)
    variable = choose_server(info, server, display) or choose(
        "Register the tool on which server", list(info.servers), "--server VAR", interactive
    )
    arg_specs = [parse_arg(a) for a in args]
    resolve_specs = [parse_depend(r, "--resolve") for r in resolves]
    needed: dict[str, tuple[str, str | None]] = {}
    for spec in resolve_specs:
        for arg, why in tool_arguments_needed(info, spec.resolver).items():
            needed.setdefault(arg, why)
    injected = {s.param for s in resolve_specs} | ({CONTEXT_PARAM} if context else set())
    arg_specs += _missing_arguments(needed, arg_specs, injected, interactive)
    request = ToolRequest(tool_name, variable, arg_specs, resolve_specs, context, sync)
    new_text = plan_tool(info, display, request)
    apply_edit(
        source, display, new_text, what=f"tool {tool_name!r}", dry_run=dry_run, interactive=interactive
    )
