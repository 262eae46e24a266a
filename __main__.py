"""`python -m mcpdeps`: the same entry point as the console script; every child mcpdeps starts uses it.

`python -m` puts the current folder first on `sys.path`, and mcpdeps is run inside the
projects it reads (the README has MCP clients launch `python -m mcpdeps mcp` there): a
`rich.py`, `typer.py` or `mcp.py` of the project would be imported in place of the real one,
and run. Static means static whatever the entry point, so that folder is taken off the path
before anything else is imported (what `python -P` does; `sys.flags.safe_path` is 3.11's). Commands that do run the user's
server put its source root on the path themselves (`resolver_core.loading`).
"""

import os
import sys

if not getattr(sys.flags, "safe_path", False) and sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from .cli.main import main  # only now: the path is safe

main()
