"""Ask the real SDK what it thinks of a generated tree's tools, started as its entry point starts it.

Usage: `python tests/oracle/tree_verdicts.py ROOT` prints one JSON document:

    {"import_error": null | "NameError: ...",
     "tools": [{"tool": "bad_7", "verdict": "ok" | "InvalidSignature: ...", "code": null | "MCPD00X"}]}

The tree (`benchmarks/gen_shapes.py`) starts the way published servers do: `app/main.py` calls
the `register(server)` helpers, builds the classes and calls the server factories, and imports
the modules whose tools another module's decorator registers. Modules that register at module
level but that nothing imports (the benchmarks' `tools` modules) are imported after it, in
path order, as a server importing its features would. Registration is judged by
`sdk_verdicts.patched_registration` (the SDK's own `Tool.from_function`, one verdict per tool,
none raising), so every erroneous tool is seen, not only the first.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import sys
from pathlib import Path
from typing import Any

from sdk_verdicts import Recorder, patched_registration


def judge_tree(root: Path) -> dict[str, Any]:
    """Start the tree's entry point, then import its other modules, under the recording SDK."""
    recorder = Recorder()
    import_error: str | None = None
    sys.path.insert(0, str(root))
    others = (
        p.relative_to(root).with_suffix("").parts for p in root.glob("*/*.py") if p.name != "__init__.py"
    )
    modules = ["app.main", *sorted(".".join(parts) for parts in others)]
    try:
        with patched_registration(recorder), contextlib.redirect_stdout(sys.stderr):
            for name in modules:
                importlib.import_module(name)
    except Exception as exc:
        import_error = f"{type(exc).__name__}: {exc}"
    tools = [
        {"tool": entry["tool"], "verdict": entry["verdict"], "code": entry["code"]}
        for _, entry in recorder.entries
    ]
    return {"import_error": import_error, "tools": tools}


def main(argv: list[str]) -> int:
    sys.dont_write_bytecode = True
    logging.disable(logging.WARNING)  # the SDK logs duplicate tool names; stdout must stay pure JSON
    json.dump(judge_tree(Path(argv[0]).resolve()), sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
