"""Resolver modules and their imports, as published MCP 2.x servers and FastAPI
projects write them (the s14 round), rebuilt in the 2.3 API and checked against the SDK itself.

Each case: a project whose tool runs a resolver the SDK refuses at registration; `lint .` and
`lint <resolver file>` must both report MCPD002 there; the clean twin is accepted by both
(`published_shapes.check_both_ways`). Then every file alone must report what `lint .` reports
there (`each_file_alone_reports_what_lint_dot_reports`).
"""

from __future__ import annotations

from published_shapes import (
    CLEAN,
    REFUSED,
    survey_tests,
)
from test_server_parameter_annotations import PROTOCOL_TOOLS

Case = tuple[dict[str, str], str, str, str, tuple[str, str]]

BAD = CLEAN[0] + "\n"
NESTED = (
    "def load_d(nope: str) -> str:\n        return nope",
    "def load_d(x: int) -> str:\n        return str(x)",
)
IMPORTS = "from typing import Annotated\n\nfrom mcp.server import MCPServer\nfrom mcp.server.mcpserver import Resolve\n"


def tool_module(
    imports: str, annotation: str = "Annotated[str, Resolve(load_d)]", head: str = IMPORTS
) -> str:
    """A module binding `mcp` and registering `t(x, d: annotation)`."""
    return (
        head
        + imports
        + '\nmcp = MCPServer("x")\n\n\n@mcp.tool()\n'
        + f"def t(x: int, d: {annotation}) -> str:\n    return str(d)\n"
    )


CASES: dict[str, Case] = {}

# 1. pds/mcp.py + contacts/mcp.py (a Django project): the resolver lives in the module that
#    makes the server; each app's tools module imports both from there.
CASES["resolver defined in the server module, tool modules importing both"] = (
    {
        "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n\n\n' + BAD,
        "app/contacts.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
        "from app.server import load_d, mcp\n\n\n@mcp.tool()\n"
        "async def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n",
        "app/main.py": "from app.server import mcp  # noqa: F401\nimport app.contacts  # noqa: F401\n",
    },
    "import app.main",
    "app/server.py",
    REFUSED,
    CLEAN,
)

# 2. aegis mcp_gateway: a dependency alias at module level of a module whose server is made
#    in a keyword-only factory; the resolver reads a ContextVar in a third module.
CASES["alias at module level, server made in a keyword-only factory, resolver in a third module"] = (
    {
        "app/security_context.py": "from contextvars import ContextVar\n\n_P: ContextVar[str | None] = "
        'ContextVar("p", default=None)\n\n\n' + BAD,
        "app/tools.py": IMPORTS + "\nfrom app.security_context import load_d\n\n"
        "PrincipalDependency = Annotated[str, Resolve(load_d)]\n\n\n"
        'def build_mcp_server(*, store: object) -> MCPServer:\n    mcp = MCPServer("x")\n\n'
        "    @mcp.tool()\n    def t(x: int, principal: PrincipalDependency) -> str:\n        return principal\n\n"
        "    return mcp\n",
        "app/main.py": "from app.tools import build_mcp_server\n\nmcp = build_mcp_server(store=object())\n",
    },
    "import app.main",
    "app/security_context.py",
    REFUSED,
    CLEAN,
)

# 3. forge/server.py: a project decorator (functools.wraps, ParamSpec, one wrapper per
#    iscoroutinefunction) on resolvers and tools, under postponed annotations.
ANTICIPATED = """\
from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from inspect import iscoroutinefunction
from typing import ParamSpec, TypeVar

_P = ParamSpec("_P")
_R = TypeVar("_R")


def anticipated(func: Callable[_P, _R]) -> Callable[_P, _R]:
    if iscoroutinefunction(func):

        @wraps(func)
        async def async_wrapper(*args: _P.args, **kwargs: _P.kwargs):
            try:
                return await func(*args, **kwargs)
            except ValueError as error:
                raise RuntimeError(str(error)) from error

        return async_wrapper  # type: ignore[return-value]

    @wraps(func)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return func(*args, **kwargs)
        except ValueError as error:
            raise RuntimeError(str(error)) from error

    return wrapper
"""
for _kind in ("async def", "def"):
    CASES[f"{_kind} resolver behind a project decorator branching on iscoroutinefunction"] = (
        {
            "app/errors.py": ANTICIPATED,
            "app/deps.py": "from __future__ import annotations\n\nfrom app.errors import anticipated\n\n\n"
            f"@anticipated\n{_kind} load_d(nope: str) -> str:\n    return nope\n",
            "app/main.py": "from __future__ import annotations\n\n"
            + tool_module("\nfrom app.deps import load_d\nfrom app.errors import anticipated\n").replace(
                "@mcp.tool()\n", "@mcp.tool()\n@anticipated\n"
            ),
        },
        "import app.main",
        "app/deps.py",
        REFUSED,
        ("load_d(nope: str) -> str:\n    return nope", "load_d(x: int) -> str:\n    return str(x)"),
    )

# 4. ADE apps/api/.../dependencies.py (FastAPI): an alias module under postponed annotations
#    importing its resolvers from a feature package, aliases listed in __all__.
CASES["alias module under postponed annotations, resolver in a feature package"] = (
    {
        "app/features/__init__.py": "",
        "app/features/auth/__init__.py": "",
        "app/features/auth/dependencies.py": "async " + BAD,
        "app/api/__init__.py": "",
        "app/api/deps.py": '"""Shared dependency aliases."""\n\nfrom __future__ import annotations\n\n'
        "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
        "from app.features.auth.dependencies import load_d\n\nCurrentUser = Annotated[str, Resolve(load_d)]\n\n"
        '__all__ = ["CurrentUser"]\n',
        "app/api/tools.py": "from __future__ import annotations\n\nfrom mcp.server import MCPServer\n\n"
        "from app.api.deps import CurrentUser\n\n\ndef register(mcp: MCPServer) -> None:\n"
        "    @mcp.tool()\n    def t(x: int, user: CurrentUser) -> str:\n        return user\n",
        "app/main.py": 'from mcp.server import MCPServer\n\nfrom app.api.tools import register\n\nmcp = MCPServer("x")\n'
        "register(mcp)\n",
    },
    "import app.main",
    "app/features/auth/dependencies.py",
    REFUSED,
    CLEAN,
)

# 5. FastAPI "advanced dependencies" / andreselc/proyecto-api-python app/users/auth/Role_Checker.py:
#    a parameterised callable instance whose __call__ depends on a resolver of a third module.
CASES["callable instance whose __call__ resolves a resolver of a third module"] = (
    {
        "app/auth.py": BAD,
        "app/roles.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
        "from app.auth import load_d\n\n\nclass RoleChecker:\n"
        "    def __init__(self, allowed: list[str]) -> None:\n        self.allowed = allowed\n\n"
        "    def __call__(self, user: Annotated[str, Resolve(load_d)]) -> bool:\n"
        '        return user in self.allowed\n\n\nallow_admin = RoleChecker(["admin"])\n',
        "app/main.py": tool_module(
            "\nfrom app.roles import allow_admin\n", "Annotated[bool, Resolve(allow_admin)]"
        ),
    },
    "import app.main",
    "app/auth.py",
    REFUSED,
    CLEAN,
)
CASES["callable instance made in the marker, its __call__ refused"] = (
    {
        "app/roles.py": "class RoleChecker:\n    def __init__(self, allowed: list[str]) -> None:\n"
        "        self.allowed = allowed\n\n    def __call__(self, nope: str) -> bool:\n"
        "        return nope in self.allowed\n",
        "app/main.py": tool_module(
            "\nfrom app.roles import RoleChecker\n", 'Annotated[bool, Resolve(RoleChecker(["admin"]))]'
        ),
    },
    "import app.main",
    "app/roles.py",
    "parameter 'nope'",
    (
        "def __call__(self, nope: str) -> bool:\n        return nope in",
        "def __call__(self, x: int) -> bool:\n        return str(x) in",
    ),
)

# 6. sciop api/deps.py: a TypeAlias bound one way under TYPE_CHECKING and another at run time.
CASES["alias bound differently under TYPE_CHECKING and at run time"] = (
    {
        "app/deps.py": "from typing import TYPE_CHECKING, Annotated, TypeAlias\n\n"
        "from mcp.server.mcpserver import Resolve\n\n\n"
        + BAD
        + "\n\nif TYPE_CHECKING:\n    D: TypeAlias = str\n"
        "else:\n    D: TypeAlias = Annotated[str, Resolve(load_d)]\n",
        "app/main.py": tool_module("\nfrom app.deps import D\n", "D"),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 7. `try: from fastapi.params import Depends / except ImportError: class Depends` (a library's
#    optional-dependency fallback): the resolver itself defined in the fallback arm.
CASES["resolver defined in an except ImportError fallback"] = (
    {
        "app/deps.py": "try:\n    from app.fast_deps import load_d\nexcept ImportError:\n\n    "
        + NESTED[0]
        + "\n",
        "app/main.py": tool_module("\nfrom app.deps import load_d\n"),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    NESTED,
)

# 9. FastAPI habit (get_db_session(db = Depends(get_db))): Resolve written as a default value.
CASES["Resolve written as a default value in a resolver (FastAPI habit)"] = (
    {
        "app/db.py": "def get_db() -> str:\n    return 'db'\n",
        "app/deps.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
        "from app.db import get_db\n\n\ndef load_d(db: str = Resolve(get_db)) -> str:\n    return db\n",
        "app/main.py": tool_module("\nfrom app.deps import load_d\n"),
    },
    "import app.main",
    "app/deps.py",
    "Resolver 'load_d' parameter 'db'",
    ("db: str = Resolve(get_db)", "db: Annotated[str, Resolve(get_db)]"),
)

# 10. Namespace packages (no __init__.py) holding the resolver.
CASES["resolver in a namespace sub-package without __init__.py"] = (
    {
        "app/deps/users.py": BAD,
        "app/main.py": tool_module("\nfrom app.deps.users import load_d\n"),
    },
    "import app.main",
    "app/deps/users.py",
    REFUSED,
    CLEAN,
)

# 11. src layout (uv init --package): the package under src/, run with src on the path.
CASES["src layout with hatchling, resolver under src/"] = (
    {
        "pyproject.toml": "[project]\nname = 'svc'\nversion = '0'\n\n[build-system]\n"
        "requires = ['hatchling']\nbuild-backend = 'hatchling.build'\n",
        "src/svc/__init__.py": "",
        "src/svc/deps.py": BAD,
        "src/svc/server.py": tool_module("\nfrom svc.deps import load_d\n"),
    },
    "import sys; sys.path.insert(0, 'src'); import svc.server",
    "src/svc/deps.py",
    REFUSED,
    CLEAN,
)

# 12. Circular imports between resolver modules, readable only under postponed annotations.
CASES["two resolver modules importing each other under postponed annotations"] = (
    {
        "app/deps/__init__.py": "",
        "app/deps/a.py": "from __future__ import annotations\n\nfrom typing import Annotated\n\n"
        "from mcp.server.mcpserver import Resolve\n\nfrom app.deps import b\n\n\n"
        "def load_a(v: Annotated[str, Resolve(b.load_d)]) -> str:\n    return v\n\n\n"
        "def prefix() -> str:\n    return 'p'\n",
        "app/deps/b.py": "from __future__ import annotations\n\nfrom typing import Annotated\n\n"
        "from mcp.server.mcpserver import Resolve\n\nfrom app.deps import a\n\n\n" + BAD + "\n\n"
        "def load_b(p: Annotated[str, Resolve(a.prefix)]) -> str:\n    return p\n",
        "app/main.py": tool_module("\nfrom app.deps.a import load_a\n", "Annotated[str, Resolve(load_a)]"),
    },
    "import app.main",
    "app/deps/b.py",
    REFUSED,
    CLEAN,
)

# 13. A resolver chain across four modules ending in an alias the tool uses.
CASES["resolver chain across four modules behind an alias"] = (
    {
        "app/raw.py": BAD,
        "app/tokens.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
        "from app.raw import load_d\n\n\ndef get_token(t: Annotated[str, Resolve(load_d)]) -> str:\n    return t\n",
        "app/users.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
        "from app.tokens import get_token\n\n\ndef get_user(tok: Annotated[str, Resolve(get_token)]) -> str:\n    return tok\n",
        "app/aliases.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
        "from app.users import get_user\n\nUser = Annotated[str, Resolve(get_user)]\n",
        "app/main.py": tool_module("\nfrom app.aliases import User\n", "User"),
    },
    "import app.main",
    "app/raw.py",
    REFUSED,
    CLEAN,
)

# 14. Definitions under `if sys.version_info` (compat shims in published packages).
CASES["resolver defined per sys.version_info arm, the running arm refused"] = (
    {
        "app/deps.py": "import sys\n\nif sys.version_info >= (3, 10):\n\n    " + NESTED[0] + "\n\nelse:\n\n"
        "    def load_d(x: int) -> str:\n        return str(x)\n",
        "app/main.py": tool_module("\nfrom app.deps import load_d\n"),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    NESTED,
)

# 15. PEP 562 lazy re-exports in a package __init__ (large SDKs: `def __getattr__(name)`).
CASES["resolver re-exported lazily by a package __getattr__"] = (
    {
        "app/deps/__init__.py": "def __getattr__(name: str):\n    if name == 'load_d':\n"
        "        from .users import load_d\n\n        return load_d\n    raise AttributeError(name)\n",
        "app/deps/users.py": BAD,
        "app/main.py": tool_module("\nfrom app.deps import load_d\n"),
    },
    "import app.main",
    "app/deps/users.py",
    REFUSED,
    CLEAN,
)

# 16. Dotted access through a package: `import app.deps.users` then `app.deps.users.load_d`.
CASES["resolver named by its full dotted module path"] = (
    {
        "app/deps/__init__.py": "",
        "app/deps/users.py": BAD,
        "app/main.py": tool_module(
            "\nimport app.deps.users\n", "Annotated[str, Resolve(app.deps.users.load_d)]"
        ),
    },
    "import app.main",
    "app/deps/users.py",
    REFUSED,
    CLEAN,
)

# 17. `from .. import deps` then `deps.load_d` in a nested tools package.
CASES["resolver module imported relatively from the parent package"] = (
    {
        "app/deps.py": BAD,
        "app/tools/__init__.py": "",
        "app/tools/users.py": tool_module("\nfrom .. import deps\n", "Annotated[str, Resolve(deps.load_d)]"),
        "app/main.py": "import app.tools.users  # noqa: F401\n",
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 18. Import statements black writes: parenthesised over lines with comments, and a
#     backslash continuation; an import inside the register function's body.
CASES["resolver imported in a parenthesised multi-line import with comments"] = (
    {
        "app/deps.py": BAD + "\n\ndef other() -> str:\n    return 'o'\n",
        "app/main.py": tool_module(
            "\nfrom app.deps import (  # resolvers\n    # the user\n    other,  # noqa: F401\n\n    load_d,\n)\n"
        ),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)
CASES["resolver imported with a backslash continuation"] = (
    {
        "app/deps.py": BAD,
        "app/main.py": tool_module("\nfrom app.deps \\\n    import load_d\n"),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)
CASES["resolver imported on a line after a semicolon"] = (
    {
        "app/deps.py": BAD,
        "app/main.py": tool_module("\nimport os; from app.deps import load_d  # noqa: E702\n"),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)
CASES["resolver imported inside the register function's body"] = (
    {
        "app/deps.py": BAD,
        "app/tools.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n\n"
        "def register(mcp) -> None:\n    from app.deps import load_d\n\n    @mcp.tool()\n"
        "    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n",
        "app/main.py": 'from mcp.server import MCPServer\n\nfrom app.tools import register\n\nmcp = MCPServer("x")\nregister(mcp)\n',
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 19. rde interface/mcp/resources.py: a resolver with lazy imports in its body, a by-name
#     optional argument, registered by `register_protocol_tools(server: Any)` in the same file.
CASES["resolver beside a register(server: Any) helper, by-name optional argument"] = (
    PROTOCOL_TOOLS,
    "import app.main",
    "app/protocol.py",
    "Resolver 'resolve_contract' parameter 'project'",
    ("resolve_contract(project: str | None = None)", "resolve_contract(project_id: str | None = None)"),
)

# 20. A resolver module under postponed annotations whose Context is imported only under
#     TYPE_CHECKING (ruff's TCH rules move it there): the SDK sees no hints at all.
CASES["resolver's Context imported only under TYPE_CHECKING (ruff TC002 habit)"] = (
    {
        "app/deps.py": "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\n"
        "if TYPE_CHECKING:\n    from mcp.server.mcpserver import Context\n\n\n"
        "def load_d(ctx: Context, x: int) -> str:\n    return str(x)\n",
        "app/main.py": tool_module("\nfrom app.deps import load_d\n"),
    },
    "import app.main",
    "app/deps.py",
    "Resolver 'load_d' parameter 'ctx'",
    (
        "if TYPE_CHECKING:\n    from mcp.server.mcpserver import Context",
        "from mcp.server.mcpserver import Context",
    ),
)

# 21. The resolver's dependency imported only under TYPE_CHECKING: the whole hint set is lost,
#     so its Resolve parameter is refused too.
CASES["resolver's dependency alias imported only under TYPE_CHECKING"] = (
    {
        "app/base.py": "def prefix() -> str:\n    return 'p'\n",
        "app/aliases.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
        "from app.base import prefix\n\nPrefix = Annotated[str, Resolve(prefix)]\n",
        "app/deps.py": "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\n"
        "if TYPE_CHECKING:\n    from app.aliases import Prefix\n\n\n"
        "def load_d(p: Prefix, x: int) -> str:\n    return p + str(x)\n",
        "app/main.py": tool_module("\nfrom app.deps import load_d\n"),
    },
    "import app.main",
    "app/deps.py",
    "Resolver 'load_d' parameter 'p'",
    ("if TYPE_CHECKING:\n    from app.aliases import Prefix", "from app.aliases import Prefix"),
)

# 22. typing_extensions.Annotated in the alias module (projects supporting old Pythons).
CASES["alias built with typing_extensions.Annotated"] = (
    {
        "app/deps.py": "from mcp.server.mcpserver import Resolve\nfrom typing_extensions import Annotated\n\n\n"
        + BAD
        + "\n\nD = Annotated[str, Resolve(load_d)]\n",
        "app/main.py": tool_module("\nfrom app.deps import D\n", "D"),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 23. A resolver decorated with `@lru_cache` imported from functools, bare.
CASES["resolver decorated by a bare @lru_cache imported by name"] = (
    {
        "app/deps.py": "from functools import lru_cache\n\n\n@lru_cache\n" + BAD,
        "app/main.py": tool_module("\nfrom app.deps import load_d\n"),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 24. A string annotation naming an alias (no postponed annotations).
CASES["tool annotation written as a string naming an imported alias"] = (
    {
        "app/deps.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n\n"
        + BAD
        + "\n\nD = Annotated[str, Resolve(load_d)]\n",
        "app/main.py": tool_module("\nfrom app.deps import D\n", '"D"'),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 25. Same module basename in two feature packages (`users/deps.py`, `orders/deps.py`).
CASES["two feature packages each with their own deps.py"] = (
    {
        "app/users/__init__.py": "",
        "app/users/deps.py": BAD,
        "app/users/tools.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
        "from app.server import mcp\n\nfrom .deps import load_d\n\n\n@mcp.tool()\n"
        "def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n",
        "app/orders/__init__.py": "",
        "app/orders/deps.py": CLEAN[1] + "\n",
        "app/orders/tools.py": "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
        "from app.server import mcp\n\nfrom .deps import load_d\n\n\n@mcp.tool()\n"
        "def u(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n    return d\n",
        "app/server.py": 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n',
        "app/main.py": "from app.server import mcp  # noqa: F401\nimport app.orders.tools  # noqa: F401\n"
        "import app.users.tools  # noqa: F401\n",
    },
    "import app.main",
    "app/users/deps.py",
    REFUSED,
    CLEAN,
)


MORE: dict[str, Case] = {}

# 26. Published MCP servers run both as a package and as `mcp run server.py`:
#     `try: from .deps import ... / except ImportError: from deps import ...`.
MORE["relative import with a flat fallback for script runs"] = (
    {
        "app/deps.py": BAD,
        "app/server.py": tool_module(
            "\ntry:\n    from .deps import load_d\nexcept ImportError:\n    from deps import load_d  # type: ignore[no-redef]\n"
        ),
    },
    "import app.server",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 27. A script folder whose name is no identifier (`weather-server/`), siblings imported flat.
MORE["script folder named with a hyphen, sibling resolver module imported flat"] = (
    {
        "weather-server/deps.py": BAD,
        "weather-server/server.py": tool_module("\nfrom deps import load_d\n"),
    },
    "import runpy, sys; sys.path.insert(0, 'weather-server'); runpy.run_path('weather-server/server.py', run_name='server_module')",
    "weather-server/deps.py",
    REFUSED,
    CLEAN,
)

# 28. `from src.svc.deps import ...` in a src layout run from the project root.
MORE["src layout imported through the src namespace from the root"] = (
    {
        "pyproject.toml": "[project]\nname = 'svc'\nversion = '0'\n\n[build-system]\n"
        "requires = ['hatchling']\nbuild-backend = 'hatchling.build'\n",
        "src/svc/__init__.py": "",
        "src/svc/deps.py": BAD,
        "src/svc/server.py": tool_module("\nfrom src.svc.deps import load_d\n"),
    },
    "import src.svc.server",
    "src/svc/deps.py",
    REFUSED,
    CLEAN,
)

# 29. FastAPI "classes as dependencies" with pydantic: a BaseModel as the resolver.
MORE["pydantic model used as the resolver"] = (
    {
        "app/deps.py": "from pydantic import BaseModel\n\n\nclass Filters(BaseModel):\n    x: int\n    nope: str = ''\n",
        "app/main.py": tool_module(
            "\nfrom app.deps import Filters\n", "Annotated[Filters, Resolve(Filters)]"
        ),
    },
    "import app.main",
    "app/deps.py",
    "Resolver 'Filters' parameter 'nope'",
    ("    nope: str = ''\n", ""),
)

# 30. FastAPI `Depends(partial(get_setting, name="x"))`: a partial binding by keyword keeps
#     the parameter in the signature, where the SDK still classifies it.
MORE["functools.partial binding the refused parameter by keyword"] = (
    {
        "app/deps.py": "import functools\n\n\ndef _load(x: int, nope: str) -> str:\n    return nope\n\n\n"
        "load_d = functools.partial(_load, nope='fixed')\n",
        "app/main.py": tool_module("\nfrom app.deps import load_d\n"),
    },
    "import app.main",
    "app/deps.py",
    "Resolver 'partial' parameter 'nope'",
    (
        "def _load(x: int, nope: str) -> str:\n    return nope\n\n\nload_d = functools.partial(_load, nope='fixed')",
        "def _load(x: int) -> str:\n    return str(x)\n\n\nload_d = functools.partial(_load, x=1)",
    ),
)

CASES.update(MORE)


NOT_FOLLOWED: dict[str, str] = {}


(
    test_sdk_refuses_and_lint_reports_alike,
    test_each_file_alone_reports_what_lint_dot_reports,
    test_the_editor_reports_what_lint_dot_reports,
) = survey_tests(CASES, NOT_FOLLOWED)
