"""A tool whose file is not the one that registers it, and whose file does not import that one.

A decorator of a registry package appending to a list (`@tool` doing `REGISTERED.append(fn)`)
and an entry point adding what the list holds (`for fn in REGISTERED: mcp.add_tool(fn)`): the
tool is the file applying the decorator's (`Tool.origin`, as for any helper registering what it
is handed), but only a build holding the entry point finds it, and the entry point's own
imports (`import app.tools` for its side effect) are not followed. Without more, an
incremental run re-checking the tools file after an edit of its resolvers (pre-commit's
`lint deps.py`, the editor) built it without the entry point and lost the tool, and with it
every verdict about those resolvers.

So the registering file's analysis is recorded as having read the tools file (an edge of
`Project.edges`: an edit of the tools file or of what it imports re-checks the registering
file), and the tools file's record is coupled (`Graph.param_registrations`): it is checked
again with every file whose closure holds it, the registering file among them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .project import Project
    from .registration_site import Registration


def read_by_its_site(project: Project, reg: Registration) -> bool:
    """Whether `reg`, read in its function's module, lands through a file (`reg.span`) that
    module's imports do not reach; then that file's analysis is recorded as reading it."""
    site = project.by_display(reg.span.path)
    if site is None or site is reg.module:
        return False
    seen = {reg.module.path}
    todo = [reg.module.path]
    while todo:
        for nxt in project.edges.get(todo.pop(), ()):
            if nxt == site.path:
                return False
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    project.followed(site, reg.module)
    return True
