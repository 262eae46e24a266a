"""The script the server's interpreter runs: `PYTHON .../mcpdeps/cli/runner/boot.py TASK ARGS`.

It loads this very `mcpdeps` package by path (the folder two levels up: the repository
root in an editable install, `site-packages/mcpdeps` in a wheel) and registers it as
`mcpdeps`, instead of adding mcpdeps' site-packages to `sys.path`: nothing else of
mcpdeps' environment (typer, rich, libcst, another pydantic) can reach the user's. The
modules it runs there (`child.py` and what it imports) need only the standard library
and the SDK with its dependencies.

Python puts this script's folder first on `sys.path`; it is removed before anything is
imported, so no file here can shadow a module of the user's. Module-level on purpose:
multiprocessing's spawn (uvicorn's `--workers`) re-runs this file as `__mp_main__` in
every worker, which must find `mcpdeps` the same way.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if sys.path and os.path.abspath(sys.path[0] or os.curdir) == _HERE:
    del sys.path[0]

import importlib.util  # noqa: E402 - only after the script's folder left sys.path


def _install_mcpdeps() -> None:
    """Register the package two folders up as `mcpdeps` (once per process)."""
    if "mcpdeps" in sys.modules:
        return
    root = os.path.dirname(os.path.dirname(_HERE))
    spec = importlib.util.spec_from_file_location(
        "mcpdeps", os.path.join(root, "__init__.py"), submodule_search_locations=[root]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mcpdeps"] = module
    spec.loader.exec_module(module)


_install_mcpdeps()

if __name__ == "__main__":
    # Run as a script, there is no package to be relative to: the child module is found under
    # the name `_install_mcpdeps` registered, whatever the checkout's folder is called.
    child = importlib.import_module("mcpdeps.cli.runner.child")
    raise SystemExit(child.main(sys.argv[1:]))
