"""Small projects whose `register(server)` helpers are called in every way the builder follows.

The helpers register tools on whatever server their callers pass (unannotated parameters:
with no caller the tools are not analysed at all, so a missed caller changes the verdict).
The ways a caller reaches a helper (`CALLERS`): a direct import, a package `__init__`
re-exporting it, a helper passing the server on, a loop over imported modules (written in
place, in a list the module binds, or in one another module binds: a package `__init__`
listing its modules, or their `register` functions), a class whose `__init__` takes the server. Used by the cached runs (`test_coupled_edits.py`) and the
language server's model (`test_lsp_coupled_edits.py`).
"""

from __future__ import annotations

from pathlib import Path

HEADER = """from typing import Annotated

from mcp.server.mcpserver import Resolve
"""

FEATURE = (
    HEADER
    + """

def load_{n}(title: str) -> str:
    return title


def register(server) -> None:
    @server.tool()
    def shared(record: Annotated[str, Resolve(load_{n})]) -> str:
        return record

    @server.tool()
    def broken_{n}(record: Annotated[str, Resolve(load_{n})]) -> str:
        return record
"""
)

TOOLS = (
    HEADER
    + """
from app.server import mcp


def fetch(title: str) -> str:
    return title


@mcp.tool()
def shared(record: Annotated[str, Resolve(fetch)]) -> str:
    return record
"""
)

UNRELATED = (
    HEADER
    + """
from app.server import other


def look(title: str) -> str:
    return title


@other.tool()
def lonely(record: Annotated[str, Resolve(look)]) -> str:
    return record
"""
)


TITLED_FEATURE = """\
from typing import Annotated

from mcp.server.mcpserver import Resolve


def load_{n}(title: str) -> str:
    return "{n}:" + title


def register(server) -> None:
    @server.tool()
    def shared(title: str, record: Annotated[str, Resolve(load_{n})]) -> str:
        return record

    @server.tool()
    def only_{n}(title: str, record: Annotated[str, Resolve(load_{n})]) -> str:
        return record
"""
"""A helper registering `shared` and `only_{n}`, both with the tool argument `title` its resolver
reads: which helper's `shared` the SDK keeps shows in what it returns."""


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def project(root: Path, main: str, extra: dict[str, str] | None = None) -> None:
    write(
        root,
        {
            "pyproject.toml": "[project]\nname = 'p'\nversion = '0'\n",
            "app/__init__.py": "",
            "app/server.py": "from mcp.server import MCPServer\n\nmcp = MCPServer('a')\nother = MCPServer('b')\n",
            "app/main.py": main,
            "features/__init__.py": "",
            "features/alpha.py": FEATURE.format(n=1),
            "features/beta.py": FEATURE.format(n=2),
            "app/tools.py": TOOLS,
            "app/unrelated.py": UNRELATED,
            **(extra or {}),
        },
    )


DIRECT = "from app.server import mcp\nfrom features import alpha, beta\n\nalpha.register(mcp)\nbeta.register(mcp)\n"
REEXPORTED = (
    "from app.server import mcp\nfrom features import register_alpha, register_beta\n\n"
    "register_alpha(mcp)\nregister_beta(mcp)\n"
)
REEXPORTS = {
    "features/__init__.py": (
        "from features.alpha import register as register_alpha\n"
        "from features.beta import register as register_beta\n"
    )
}
PASSED_ON = "from app.server import mcp\nfrom features import wiring\n\nwiring.install(mcp)\n"
WIRING = {
    "features/wiring.py": (
        "from features import alpha, beta\n\n\ndef install(server) -> None:\n"
        "    alpha.register(server)\n    beta.register(server)\n"
    )
}
LOOP = "from app.server import mcp\nfrom features import alpha, beta\n\nfor feature in (alpha, beta):\n    feature.register(mcp)\n"
LISTED = (
    "from app.server import mcp\nfrom features import alpha, beta\n\nFEATURES = [alpha, beta]\n"
    "for feature in FEATURES:\n    feature.register(mcp)\n"
)
LISTS = {
    "features/__init__.py": (
        "from features import alpha, beta\n\nFEATURES = (alpha, beta)\nREGISTRARS = [alpha.register, beta.register]\n"
    )
}
LISTED_ELSEWHERE = "from app.server import mcp\nfrom features import FEATURES\n\nfor feature in FEATURES:\n    feature.register(mcp)\n"
REGISTRARS_ELSEWHERE = (
    "from app.server import mcp\nimport features\n\nfor install in features.REGISTRARS:\n    install(mcp)\n"
)
METHOD = DIRECT + "from features.kit import Kit\n\nKit(mcp)\n"
KIT = {
    "features/kit.py": (
        HEADER + "\n\ndef load_k(title: str) -> str:\n    return title\n\n\nclass Kit:\n"
        "    def __init__(self, server) -> None:\n        @server.tool()\n"
        "        def shared(record: Annotated[str, Resolve(load_k)]) -> str:\n            return record\n"
    )
}
CALLERS = {
    "direct import": (DIRECT, {}),
    "package re-export": (REEXPORTED, REEXPORTS),
    "helper passing the server on": (PASSED_ON, WIRING),
    "loop over modules": (LOOP, {}),
    "loop over a list of modules": (LISTED, {}),
    "loop over modules another module lists": (LISTED_ELSEWHERE, LISTS),
    "loop over functions another module lists": (REGISTRARS_ELSEWHERE, LISTS),
    "class taking the server": (METHOD, KIT),
}


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
