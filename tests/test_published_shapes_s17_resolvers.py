"""Resolver modules linted alone, round 4 (s17): the import shapes that reach a resolver module
from the tools running it, as MCP 2.x servers and FastAPI projects write them, each a small
project of our own in the 2.3 API started as its author starts it.

pre-commit passes only the files a commit changed: an edit to `deps.py` (the resolvers) that
breaks an unchanged tool module must be reported by `lint deps.py` alone, which finds the tool
modules importing it (`resolver_core/companions.py`). Each case: the SDK refuses the project at
registration, `lint .` and `lint <resolver file>` both report MCPD002 there and accept the clean
twin (`published_shapes.check_both_ways`); every file alone, cold and cached, reports what
`lint .` reports there; and the editor too, with the resolver file's edits unsaved.
pre-commit's other lists (several files at once, cached runs after edits, syntax errors) are
checked on these projects in `test_published_shapes_s17_alone.py`. The shapes of rounds 1-3
(`test_published_shapes_s14_resolvers.py`, `..._s15_resolvers.py`) are not repeated.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files
from published_shapes import (
    CLEAN,
    PROJECT,
    REFUSED,
    found,
    sdk,
    survey_tests,
)
from test_published_shapes_s14_resolvers import BAD
from test_published_shapes_s15_resolvers import HEAD, SERVER, served, uses

Case = tuple[dict[str, str], str, str, str, tuple[str, str]]

CASES: dict[str, Case] = {}

# 1. `from app.deps import *` in the tools module (scripts and small servers importing all
#    their helpers at once).
CASES["star import of the resolver module in the tools module"] = served(
    {
        "app/deps.py": BAD,
        "app/tools.py": uses("from app.deps import *  # noqa: F403\n", "load_d"),
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 2. A `deps/` package whose `__init__` star-imports each submodule, each limiting its export
#    with `__all__`; the tools name the package.
CASES["package __init__ star-importing submodules that list __all__"] = served(
    {
        "app/deps/__init__.py": "from .auth import *  # noqa: F403\nfrom .db import *  # noqa: F403\n",
        "app/deps/auth.py": "__all__ = ['load_d']\n\n\n"
        + BAD
        + "\n\ndef _private() -> str:\n    return 'p'\n",
        "app/deps/db.py": "__all__ = ['get_db']\n\n\ndef get_db() -> str:\n    return 'db'\n",
        "app/tools.py": uses("from app.deps import load_d\n", "load_d"),
    },
    "app/deps/auth.py",
    REFUSED,
    CLEAN,
)

# 3. The same package re-exporting with `__all__` summed from its submodules' lists
#    (`__all__ = auth.__all__ + db.__all__`), the tools star-importing the package.
CASES["package __all__ summed from its submodules', star-imported by the tools"] = served(
    {
        "app/deps/__init__.py": "from . import auth, db\nfrom .auth import *  # noqa: F403\n"
        "from .db import *  # noqa: F403\n\n__all__ = auth.__all__ + db.__all__\n",
        "app/deps/auth.py": "__all__ = ['load_d']\n\n\n" + BAD,
        "app/deps/db.py": "__all__ = ['get_db']\n\n\ndef get_db() -> str:\n    return 'db'\n",
        "app/tools.py": uses("from app.deps import *  # noqa: F403\n", "load_d"),
    },
    "app/deps/auth.py",
    REFUSED,
    CLEAN,
)

# 4. `from . import deps` then `deps.load_d` in a sibling module of the same package.
CASES["`from . import deps` in the same package, deps.load_d"] = served(
    {
        "app/deps.py": BAD,
        "app/tools.py": uses("from . import deps\n", "deps.load_d"),
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 5. FastAPI's `CurrentUser = Annotated[User, Depends(get_current_user)]` in a `types.py` (a
#    module named like the standard library's, inside the package), the resolver in deps.py.
CASES["alias in app/types.py (named like the stdlib module), resolver in deps.py"] = served(
    {
        "app/deps.py": BAD,
        "app/types.py": HEAD
        + "\nfrom app.deps import load_d\n\nCurrentUser = Annotated[str, Resolve(load_d)]\n",
        "app/tools.py": "from app.server import mcp\n\nfrom .types import CurrentUser\n\n\n@mcp.tool()\n"
        "def t(x: int, user: CurrentUser) -> str:\n    return user\n",
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 6. A resolver module imported only by another resolver module, relatively, in an `auth/`
#    package (tokens <- users <- tools: three files, the first imported by no tool module).
CASES["resolver module imported only by another resolver module, relatively"] = served(
    {
        "app/auth/__init__.py": "",
        "app/auth/tokens.py": BAD,
        "app/auth/users.py": HEAD + "\nfrom .tokens import load_d\n\n\n"
        "def get_user(tok: Annotated[str, Resolve(load_d)]) -> str:\n    return tok\n",
        "app/tools.py": uses("from app.auth.users import get_user\n", "get_user"),
    },
    "app/auth/tokens.py",
    REFUSED,
    CLEAN,
)

# 7. A feature package's `register(mcp)` importing the resolver in its body, relatively two
#    levels up (`from ...auth.deps import load_d`), the entry point calling it.
CASES["register helper importing the resolver in its body, two levels up"] = (
    {
        "app/auth/__init__.py": "",
        "app/auth/deps.py": BAD,
        "app/features/__init__.py": "",
        "app/features/billing/__init__.py": "",
        "app/features/billing/tools.py": HEAD + "\n\ndef register(mcp) -> None:\n"
        "    from ...auth.deps import load_d\n\n    @mcp.tool()\n"
        "    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n",
        "app/main.py": "from mcp.server import MCPServer\n\nfrom app.features.billing.tools import register\n\n"
        'mcp = MCPServer("x")\nregister(mcp)\n',
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 8. A src layout (`uv init --package`), the tools importing `from ..auth.deps` two levels up.
CASES["src layout, tools importing the resolver two levels up"] = (
    {
        "pyproject.toml": "[project]\nname = 'svc'\nversion = '0'\n\n[build-system]\n"
        "requires = ['hatchling']\nbuild-backend = 'hatchling.build'\n",
        "src/svc/__init__.py": "",
        "src/svc/server.py": SERVER + "\nfrom svc.tools import users  # noqa: E402, F401\n",
        "src/svc/auth/__init__.py": "",
        "src/svc/auth/deps.py": BAD,
        "src/svc/tools/__init__.py": "",
        "src/svc/tools/users.py": HEAD + "\nfrom ..auth.deps import load_d\nfrom ..server import mcp\n\n\n"
        "@mcp.tool()\ndef t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n",
    },
    "import sys; sys.path.insert(0, 'src'); import svc.server",
    "src/svc/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 9. A uv workspace: the resolver in one member, its alias in a second, the server in a third.
WORKSPACE = "[project]\nname = 'w'\nversion = '0'\n\n[tool.uv.workspace]\nmembers = ['packages/*']\n"
MEMBER = "[project]\nname = 'm'\nversion = '0'\n"
CASES["uv workspace, resolver, alias and server in three members"] = (
    {
        "pyproject.toml": WORKSPACE,
        "packages/auth/pyproject.toml": MEMBER,
        "packages/auth/src/auth/__init__.py": "",
        "packages/auth/src/auth/deps.py": BAD,
        "packages/shared/pyproject.toml": MEMBER,
        "packages/shared/src/shared/__init__.py": "from .types import CurrentUser\n\n__all__ = ['CurrentUser']\n",
        "packages/shared/src/shared/types.py": HEAD
        + "\nfrom auth.deps import load_d\n\nCurrentUser = Annotated[str, Resolve(load_d)]\n",
        "packages/api/pyproject.toml": MEMBER,
        "packages/api/src/api/__init__.py": "",
        "packages/api/src/api/server.py": SERVER.replace("\nmcp", "\nfrom shared import CurrentUser\n\nmcp")
        + "\n\n@mcp.tool()\ndef t(x: int, user: CurrentUser) -> str:\n    return user\n",
    },
    "import sys\nsys.path[:0] = ['packages/api/src', 'packages/shared/src', 'packages/auth/src']\nimport api.server",
    "packages/auth/src/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 10. Tool functions defined without registration in a feature package, registered by a
#     server factory of another package (`mcp.add_tool(t)`), the entry point calling it.
CASES["plain tool functions registered by a factory of another package"] = (
    {
        "app/auth/__init__.py": "",
        "app/auth/deps.py": BAD,
        "app/features/__init__.py": "",
        "app/features/users.py": HEAD + "\nfrom app.auth.deps import load_d\n\n\n"
        "def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n",
        "app/server/__init__.py": "",
        "app/server/factory.py": "from mcp.server import MCPServer\n\nfrom app.features.users import t\n\n\n"
        "def build() -> MCPServer:\n    mcp = MCPServer('x')\n    mcp.add_tool(t)\n    return mcp\n",
        "app/main.py": "from app.server.factory import build\n\nmcp = build()\n",
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 11. A feature module listing its tools (`TOOLS = [t]`), the factory adding them in a loop.
CASES["tools listed by a feature module, added in a loop by a factory of another package"] = (
    {
        "app/auth/__init__.py": "",
        "app/auth/deps.py": BAD,
        "app/features/__init__.py": "",
        "app/features/users.py": HEAD + "\nfrom app.auth.deps import load_d\n\n\n"
        "def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n\n\nTOOLS = [t]\n",
        "app/server/__init__.py": "",
        "app/server/factory.py": "from mcp.server import MCPServer\n\nfrom app.features import users\n\n\n"
        "def build() -> MCPServer:\n    mcp = MCPServer('x')\n    for fn in users.TOOLS:\n"
        "        mcp.add_tool(fn)\n    return mcp\n",
        "app/main.py": "from app.server.factory import build\n\nmcp = build()\n",
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)

COLLECTED = {
    "app/auth/__init__.py": "",
    "app/auth/deps.py": BAD,
    "app/registry/__init__.py": "from typing import Any, Callable\n\nREGISTERED: list[Callable[..., Any]] = []\n\n\n"
    "def tool(fn: Callable[..., Any]) -> Callable[..., Any]:\n    REGISTERED.append(fn)\n    return fn\n",
    "app/tools.py": HEAD + "\nfrom app.auth.deps import load_d\nfrom app.registry import tool\n\n\n"
    "@tool\ndef t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n",
}
"""A registry decorator appending to a module-level list, applied in app/tools.py (cases 12, 12a)."""

# 12. A decorator of a registry package (`@tool` appending to a list), the server module adding
#     the registry's tools in a loop: the tools module imports the resolvers and the decorator.
CASES["tools collected by a registry decorator of another package, added by the server"] = (
    {
        **COLLECTED,
        "app/main.py": "from mcp.server import MCPServer\n\nimport app.tools  # noqa: F401\n"
        "from app.registry import REGISTERED\n\nmcp = MCPServer('x')\nfor fn in REGISTERED:\n    mcp.add_tool(fn)\n",
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 12a. The same registry, the loop in a server factory of another package, the tools imported by
#      the package `__init__` for their side effect.
CASES["tools collected by a registry decorator, added in a factory, imported by the package __init__"] = (
    {
        "app/__init__.py": "from app import tools  # noqa: F401\n",
        **COLLECTED,
        "app/server/__init__.py": "",
        "app/server/factory.py": "from mcp.server import MCPServer\n\nfrom app.registry import REGISTERED\n\n\n"
        "def build() -> MCPServer:\n    mcp = MCPServer('x')\n    for fn in REGISTERED:\n        mcp.add_tool(fn)\n"
        "    return mcp\n",
        "app/main.py": "from app.server.factory import build\n\nmcp = build()\n",
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 12b. The same registry as an object (`registry.tool` appending to `registry.tools`).
CASES["tools collected by a registry object's method, added by the server"] = (
    {
        "app/auth/__init__.py": "",
        "app/auth/deps.py": BAD,
        "app/registry.py": "from typing import Any, Callable\n\n\nclass Registry:\n    def __init__(self) -> None:\n"
        "        self.tools: list[Callable[..., Any]] = []\n\n    def tool(self, fn: Callable[..., Any]) -> Callable[..., Any]:\n"
        "        self.tools.append(fn)\n        return fn\n\n\nregistry = Registry()\n",
        "app/tools.py": HEAD + "\nfrom app.auth.deps import load_d\nfrom app.registry import registry\n\n\n"
        "@registry.tool\ndef t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n",
        "app/main.py": "from mcp.server import MCPServer\n\nimport app.tools  # noqa: F401\n"
        "from app.registry import registry\n\nmcp = MCPServer('x')\nfor fn in registry.tools:\n    mcp.add_tool(fn)\n",
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 12c. A registry dict keyed by name (`TOOLS[fn.__name__] = fn`), the server adding its values.
CASES["tools collected in a registry dict by name, added by the server from its values"] = (
    {
        "app/auth/__init__.py": "",
        "app/auth/deps.py": BAD,
        "app/registry.py": "from typing import Any, Callable\n\nTOOLS: dict[str, Callable[..., Any]] = {}\n\n\n"
        "def tool(fn: Callable[..., Any]) -> Callable[..., Any]:\n    TOOLS[fn.__name__] = fn\n    return fn\n",
        "app/tools.py": HEAD + "\nfrom app.auth.deps import load_d\nfrom app.registry import tool\n\n\n"
        "@tool\ndef t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n",
        "app/main.py": "from mcp.server import MCPServer\n\nimport app.tools  # noqa: F401\n"
        "from app.registry import TOOLS\n\nmcp = MCPServer('x')\nfor fn in TOOLS.values():\n    mcp.add_tool(fn)\n",
    },
    "import app.main",
    "app/auth/deps.py",
    REFUSED,
    CLEAN,
)

# 13. The resolver module imported by a test and a script that register nothing, beside the
#     tools module that does.
CASES["resolver module also imported by a test and a script registering nothing"] = served(
    {
        "app/deps.py": BAD,
        "app/tools.py": uses("from app.deps import load_d\n", "load_d"),
        "tests/test_deps.py": "from app.deps import load_d\n\n\ndef test_load_d() -> None:\n"
        "    assert load_d('a') == 'a'\n",
        "scripts/seed.py": "from app.deps import load_d\n\nprint(load_d('seed'))\n",
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 14. A test module building its own server at import (pytest's collection registers the tool).
CASES["test module registering a tool on its own server at import"] = (
    {
        "app/__init__.py": "",
        "app/deps.py": BAD,
        "tests/test_tools.py": HEAD + "from mcp.server import MCPServer\n\nfrom app.deps import load_d\n\n"
        "mcp = MCPServer('test')\n\n\n@mcp.tool()\ndef t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n"
        "    return d\n\n\ndef test_t() -> None:\n    assert t(1, 'a') == 'a'\n",
    },
    "import runpy; runpy.run_path('tests/test_tools.py')",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 15. A `conftest.py` fixture building the server from the project's factory: the resolver
#     module's importers are the tools module and (through it) the factory.
CASES["resolver in a tools package, the factory importing every tools module"] = (
    {
        "app/deps.py": BAD,
        "app/tools/__init__.py": "from . import users\n\n__all__ = ['users']\n",
        "app/tools/users.py": HEAD + "\nfrom ..deps import load_d\n\n\ndef register(mcp) -> None:\n"
        "    @mcp.tool()\n    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n",
        "app/factory.py": "from mcp.server import MCPServer\n\nfrom app import tools\n\n\n"
        "def create() -> MCPServer:\n    mcp = MCPServer('x')\n    tools.users.register(mcp)\n    return mcp\n",
        "app/main.py": "from app.factory import create\n\nmcp = create()\n",
        "tests/conftest.py": "import pytest\n\nfrom app.factory import create\n\n\n@pytest.fixture\n"
        "def server():\n    return create()\n",
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)


# 16. The explicit re-export idiom mypy's `--no-implicit-reexport` asks for, in the package
#     `__init__` (`from .auth import load_d as load_d`).
CASES["package __init__ re-exporting with the `import x as x` idiom"] = served(
    {
        "app/deps/__init__.py": "from .auth import load_d as load_d\n",
        "app/deps/auth.py": BAD,
        "app/tools.py": uses("from app.deps import load_d\n", "load_d"),
    },
    "app/deps/auth.py",
    REFUSED,
    CLEAN,
)

# 17. An optional import (`try: from app.deps import load_d / except ImportError: load_d = None`).
CASES["resolver imported in a try with an ImportError fallback to None"] = served(
    {
        "app/deps.py": BAD,
        "app/tools.py": uses(
            "\ntry:\n    from app.deps import load_d\nexcept ImportError:  # pragma: no cover\n"
            "    load_d = None  # type: ignore[assignment]\n",
            "load_d",
        ),
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 18. A class grouping a feature's tools, its `register(self, mcp)` method importing the
#     resolver relatively in its body; the entry point calling it on an instance.
CASES["register method of a tools class importing the resolver in its body"] = (
    {
        "app/deps.py": BAD,
        "app/tools.py": HEAD + "\n\nclass UserTools:\n    def register(self, mcp) -> None:\n"
        "        from .deps import load_d\n\n        @mcp.tool()\n"
        "        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n            return d\n",
        "app/main.py": "from mcp.server import MCPServer\n\nfrom app.tools import UserTools\n\n"
        "mcp = MCPServer('x')\nUserTools().register(mcp)\n",
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 19. A project decorator adding the resolved parameter's tool, importing the resolver in its
#     body (`def with_user(mcp)` returning a decorator that registers).
CASES["decorator factory of a helpers package importing the resolver in its body"] = (
    {
        "app/deps.py": BAD,
        "app/helpers/__init__.py": "",
        "app/helpers/expose.py": HEAD + "\n\ndef expose(mcp):\n    from app.deps import load_d\n\n"
        "    def deco(fn):\n        @mcp.tool(name=fn.__name__)\n"
        "        def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n            return fn(x, d)\n\n"
        "        return t\n\n    return deco\n",
        "app/main.py": "from mcp.server import MCPServer\n\nfrom app.helpers.expose import expose\n\n"
        "mcp = MCPServer('x')\n\n\n@expose(mcp)\ndef greet(x: int, d: str) -> str:\n    return d\n",
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 20. A chain whose first module is reached only through a package `__init__` star-importing the
#     second (tokens <- users <- `deps/__init__` star <- tools).
CASES["resolver chain behind a package __init__ star import"] = served(
    {
        "app/deps/__init__.py": "from .users import *  # noqa: F403\n",
        "app/deps/tokens.py": BAD,
        "app/deps/users.py": HEAD + "\nfrom .tokens import load_d\n\n__all__ = ['get_user']\n\n\n"
        "def get_user(tok: Annotated[str, Resolve(load_d)]) -> str:\n    return tok\n",
        "app/tools.py": uses("from app.deps import get_user\n", "get_user"),
    },
    "app/deps/tokens.py",
    REFUSED,
    CLEAN,
)

# Dynamic shapes: a constant name is read as the import or attribute it spells (getattr, vars,
# __import__, import_module); what only the run knows (sys.modules) stays said, never misplaced.
# 21. `getattr(deps, "load_d")` with a constant name.
CASES["resolver read with getattr and a constant name"] = served(
    {
        "app/deps.py": BAD,
        "app/tools.py": uses("from app import deps\n", 'getattr(deps, "load_d")'),
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 22. `__import__("app.deps", fromlist=["load_d"])` bound at module level.
CASES["resolver module bound by __import__ with a fromlist"] = served(
    {
        "app/deps.py": BAD,
        "app/tools.py": uses('\ndeps = __import__("app.deps", fromlist=["load_d"])\n', "deps.load_d"),
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 22b. `importlib.import_module("app.deps")` with a constant name, bound at module level.
CASES["resolver module bound by import_module with a constant name"] = served(
    {
        "app/deps.py": BAD,
        "app/tools.py": uses(
            'import importlib\n\ndeps = importlib.import_module("app.deps")\n', "deps.load_d"
        ),
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 23. `sys.modules["app.deps"]` after importing it.
CASES["resolver module read out of sys.modules"] = served(
    {
        "app/deps.py": BAD,
        "app/tools.py": uses(
            "import sys\n\nimport app.deps  # noqa: F401\n", 'sys.modules["app.deps"].load_d'
        ),
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 24. `vars(deps)["load_d"]`.
CASES["resolver read out of vars() of its module"] = served(
    {
        "app/deps.py": BAD,
        "app/tools.py": uses("from app import deps\n", 'vars(deps)["load_d"]'),
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)


# 25. Two feature packages, each with its tools and resolvers on one server: pre-commit passes
#     one feature's resolver file with the other feature's tools.
CASES["two features on one server, one feature's resolvers refused"] = served(
    {
        "app/users/__init__.py": "",
        "app/users/deps.py": BAD,
        "app/users/tools.py": uses("from .deps import load_d\n", "load_d", "users_t"),
        "app/orders/__init__.py": "",
        "app/orders/deps.py": CLEAN[1] + "\n",
        "app/orders/tools.py": uses("from .deps import load_d\n", "load_d", "orders_t"),
        "app/tools.py": "from app.orders import tools as orders  # noqa: F401\n"
        "from app.users import tools as users  # noqa: F401\n",
    },
    "app/users/deps.py",
    REFUSED,
    CLEAN,
)


# 26. A container class of a third module holding the resolver as a staticmethod attribute
#     (`class Deps: user = staticmethod(load_d)`), the tools naming `Deps.user`.
CASES["container class of a third module holding the resolver as a staticmethod attribute"] = served(
    {
        "app/deps.py": BAD,
        "app/container.py": "from app.deps import load_d\n\n\nclass Deps:\n    user = staticmethod(load_d)\n",
        "app/tools.py": uses("from app.container import Deps\n", "Deps.user"),
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 27. The resolver wrapped by a caching decorator of a third module (`functools.wraps`), the
#     wrapped name bound there (`load_user = cached(load_d)`).
CASES["resolver wrapped by a functools.wraps decorator in a third module"] = served(
    {
        "app/deps.py": BAD,
        "app/caching.py": "import functools\n\n\ndef cached(fn):\n    @functools.wraps(fn)\n"
        "    def wrapper(*args, **kwargs):\n        return fn(*args, **kwargs)\n\n    return wrapper\n",
        "app/wired.py": "from app.caching import cached\nfrom app.deps import load_d\n\nload_user = cached(load_d)\n",
        "app/tools.py": uses("from app.wired import load_user\n", "load_user"),
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 28. The package `__init__` re-binding the resolver by assignment from its submodule
#     (`from . import auth` then `get_user = auth.load_d`), not by an import.
CASES["package __init__ re-binding the resolver by assignment from its submodule"] = served(
    {
        "app/deps/__init__.py": "from . import auth\n\nget_user = auth.load_d\n",
        "app/deps/auth.py": BAD,
        "app/tools.py": uses("from app.deps import get_user\n", "get_user"),
    },
    "app/deps/auth.py",
    REFUSED,
    CLEAN,
)

# 29. An explicit `TypeAlias` in a third module (`CurrentUser: TypeAlias = Annotated[...]`).
CASES["TypeAlias-annotated alias in a third module"] = served(
    {
        "app/deps.py": BAD,
        "app/aliases.py": HEAD.replace("Annotated", "Annotated, TypeAlias")
        + "\nfrom app.deps import load_d\n\nCurrentUser: TypeAlias = Annotated[str, Resolve(load_d)]\n",
        "app/tools.py": "from app.aliases import CurrentUser\nfrom app.server import mcp\n\n\n@mcp.tool()\n"
        "def t(x: int, user: CurrentUser) -> str:\n    return user\n",
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)


_OPAQUE = (
    "the SDK refuses `load_d(nope)`; lint reads the marker's argument {} as computed at run time "
    "(MCPD113 info in app/tools.py, the tool's file) and reports nothing in app/deps.py, alone or in "
    "`lint .`: said, never guessed"
)
NOT_FOLLOWED: dict[str, str] = {
    "resolver module read out of sys.modules": _OPAQUE.format("`sys.modules['app.deps'].load_d`"),
}


(
    test_sdk_refuses_and_lint_reports_alike,
    test_each_file_alone_reports_what_lint_dot_reports,
    test_the_editor_reports_what_lint_dot_reports,
) = survey_tests(CASES, NOT_FOLLOWED)


@pytest.mark.parametrize(
    "target",
    [
        'getattr(deps, "load_d", None)',
        "getattr(deps, NAME)",
        'vars(deps).get("load_d")',
        'getattr(deps, "load_d")',
    ],
    ids=["a default", "a computed name", "vars().get", "getattr shadowed"],
)
def test_a_getattr_only_the_run_knows_is_said_not_guessed(tmp_path: Path, target: str) -> None:
    """`getattr(deps, "load_d")` and `vars(deps)["load_d"]` are read as `deps.load_d` (cases
    21, 24), but not with a default (a missing attribute is the default: `vars(deps).get`), a
    name that is not a constant, or a module-level `getattr` of the project's own: the SDK still refuses `load_d(nope)` in each, and lint says
    the resolver is computed at run time (MCPD113 in the tools file), reporting nothing in
    app/deps.py."""
    imports = 'from app import deps\n\nNAME = "load" + "_d"\n'
    if target.endswith('"load_d")'):
        imports += "\n\ndef getattr(obj: object, name: str) -> object:\n    return vars(obj)[name]\n"
    files, entry, *_ = served({"app/deps.py": BAD, "app/tools.py": uses(imports, target)}, "", "", CLEAN)
    write_files(tmp_path, {**PROJECT, **files})
    assert REFUSED in sdk(tmp_path, entry).stderr
    assert [(d["code"], d["path"]) for d in found(tmp_path, ["."])] == [("MCPD113", "app/tools.py")]
    assert found(tmp_path, ["app/deps.py"]) == []
