"""Resolver modules and their imports, round 3 (s15): how published MCP 2.x servers and
FastAPI projects (whose `Depends(fn)` modules are the nearest published kin of resolver
modules) organise dependency functions, rebuilt in the 2.3 API and checked against the SDK.

Each case: a project whose tool runs a resolver the SDK refuses at registration; `lint .` and
`lint <resolver file>` (what pre-commit passes) must both report MCPD002 there, and the clean
twin is accepted by both (`published_shapes.check_both_ways`). Then every file alone must
report what `lint .` reports there (`each_file_alone_reports_what_lint_dot_reports`). The
shapes of rounds 1-2 (`test_published_shapes_s14_resolvers.py` and the import tests) are not
repeated here.
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
from test_published_shapes_s14_resolvers import BAD, tool_module

Case = tuple[dict[str, str], str, str, str, tuple[str, str]]

NOPE = "parameter 'nope' cannot be resolved"
"""What the SDK says of a refused `nope` whatever the resolver's own name (a closure, a partial)."""

HEAD = "from typing import Annotated\n\nfrom mcp.server.mcpserver import Resolve\n"
INDENTED = (
    "def load_d(nope: str) -> str:\n        return nope",
    "def load_d(x: int) -> str:\n        return str(x)",
)
"""The refused resolver and its clean twin as a method (indented once)."""
CLOSURE = ("def dep(nope: str) -> str:", "def dep(x: int) -> str:")
"""A factory's inner dependency, refused and clean (its body returns a constant)."""
SERVER = 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n'


def uses(imports: str, target: str, name: str = "t") -> str:
    """A tools module importing the server from `app.server` and `imports`, registering
    `name(x, d)` resolved by `target`."""
    return (
        HEAD
        + "\nfrom app.server import mcp\n"
        + imports
        + f"\n\n@mcp.tool()\ndef {name}(x: int, d: Annotated[str, Resolve({target})]) -> str:\n    return d\n"
    )


def entry(*modules: str) -> str:
    """`app/main.py` importing the server and then `modules` (each registering at import)."""
    return "from app.server import mcp  # noqa: F401\n" + "".join(
        f"import {m}  # noqa: F401\n" for m in modules
    )


def served(files: dict[str, str], bad: str, refused: str, clean: tuple[str, str]) -> Case:
    """A case whose `files` are imported by `app/main.py` through `app.tools`, beside `app/server.py`
    binding `mcp` (the layout most of these projects share)."""
    return (
        {"app/server.py": SERVER, **files, "app/main.py": entry("app.tools")},
        "import app.main",
        bad,
        refused,
        clean,
    )


CASES: dict[str, Case] = {}

# 1. FastAPI `Depends(AuthDeps.get_current_user)` (a class grouping dependencies as
#    staticmethods, seen in the code corpus, e.g. a `require_auth` module): Resolve(Deps.load_d).
CASES["staticmethod of a deps class, Resolve(Deps.load_d) in another module"] = served(
    {
        "app/deps.py": "class Deps:\n    @staticmethod\n    " + INDENTED[0] + "\n",
        "app/tools.py": uses("from app.deps import Deps\n", "Deps.load_d"),
    },
    "app/deps.py",
    REFUSED,
    INDENTED,
)

# 2. The same grouping with classmethods (settings-bound dependencies read from `cls`).
CASES["classmethod of a deps class, Resolve(Deps.load_d) in another module"] = served(
    {
        "app/deps.py": "class Deps:\n    prefix = 'p'\n\n    @classmethod\n"
        "    def load_d(cls, nope: str) -> str:\n        return cls.prefix + nope\n",
        "app/tools.py": uses("from app.deps import Deps\n", "Deps.load_d"),
    },
    "app/deps.py",
    REFUSED,
    (
        "load_d(cls, nope: str) -> str:\n        return cls.prefix + nope",
        "load_d(cls, x: int) -> str:\n        return cls.prefix + str(x)",
    ),
)

# 3. `Depends(AuthDeps.require_roles("Admin", ...))`: a staticmethod factory whose inner
#    dependency depends on another staticmethod of the class (seen in the code corpus).
CASES["staticmethod factory of a deps class, inner dependency resolving a sibling staticmethod"] = served(
    {
        "app/deps.py": HEAD
        + "\n\nclass AuthDeps:\n    @staticmethod\n    "
        + INDENTED[0]
        + "\n\n    @staticmethod\n    def require_roles(*roles: str):\n"
        "        def _dep(user: Annotated[str, Resolve(AuthDeps.load_d)]) -> str:\n"
        "            return user if user in roles else ''\n\n        return _dep\n",
        "app/tools.py": uses("from app.deps import AuthDeps\n", 'AuthDeps.require_roles("admin", "staff")'),
    },
    "app/deps.py",
    REFUSED,
    INDENTED,
)

# 4. `from app.auth import dependencies as AuthDeps` then `Depends(AuthDeps.admin_required)`
#    (seen in the code corpus): a resolver module imported under an `as` alias.
CASES["resolver module imported `as` a capitalised alias, AuthDeps.load_d"] = (
    {
        "app/server.py": SERVER,
        "app/auth/__init__.py": "",
        "app/auth/dependencies.py": BAD,
        "app/goods.py": uses("from app.auth import dependencies as AuthDeps\n", "AuthDeps.load_d"),
        "app/main.py": entry("app.goods"),
    },
    "import app.main",
    "app/auth/dependencies.py",
    REFUSED,
    CLEAN,
)

# 5. `import app.api.deps as deps` (an `import a.b as c`), then `deps.load_d`.
CASES["`import app.api.deps as deps`, deps.load_d"] = (
    {
        "app/server.py": SERVER,
        "app/api/__init__.py": "",
        "app/api/deps.py": BAD,
        "app/api/items.py": uses("import app.api.deps as deps\n", "deps.load_d"),
        "app/main.py": entry("app.api.items"),
    },
    "import app.main",
    "app/api/deps.py",
    REFUSED,
    CLEAN,
)

# 6. A resolver imported under another name (`from .dependencies import get_user as current_user`).
CASES["resolver imported under an `as` name"] = served(
    {
        "app/deps.py": BAD,
        "app/tools.py": uses("from app.deps import load_d as current_user\n", "current_user"),
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 7. full-stack FastAPI layout: app/api/v1/endpoints/items.py doing `from ... import deps`
#    (three dots: the resolver module two packages up).
CASES["`from ... import deps` three levels up, deps.load_d"] = (
    {
        "app/server.py": SERVER,
        "app/api/__init__.py": "",
        "app/api/deps.py": BAD,
        "app/api/v1/__init__.py": "",
        "app/api/v1/endpoints/__init__.py": "",
        "app/api/v1/endpoints/items.py": uses("from ... import deps\n", "deps.load_d"),
        "app/main.py": entry("app.api.v1.endpoints.items"),
    },
    "import app.main",
    "app/api/deps.py",
    REFUSED,
    CLEAN,
)

# 8. `from ..deps import load_d` two levels down in a feature package.
CASES["`from ..deps import load_d` in a nested feature package"] = (
    {
        "app/server.py": SERVER,
        "app/features/__init__.py": "",
        "app/features/deps.py": BAD,
        "app/features/users/__init__.py": "",
        "app/features/users/tools.py": uses("from ..deps import load_d\n", "load_d"),
        "app/main.py": entry("app.features.users.tools"),
    },
    "import app.main",
    "app/features/deps.py",
    REFUSED,
    CLEAN,
)

# 9. FastAPI `CurrentUser = Annotated[User, Depends(get_current_user)]` in dependencies.py,
#    re-exported from the package `__init__` and used in a third module
#    (`from .dependencies import CurrentUser`, seen many times in the code corpus).
CASES["alias defined in one module, re-exported by the package __init__, used in a third"] = served(
    {
        "app/deps/__init__.py": "from .aliases import CurrentUser\n\n__all__ = ['CurrentUser']\n",
        "app/deps/auth.py": BAD,
        "app/deps/aliases.py": HEAD
        + "\nfrom .auth import load_d\n\nCurrentUser = Annotated[str, Resolve(load_d)]\n",
        "app/tools.py": HEAD.replace("from typing import Annotated\n\n", "")
        + "\nfrom app.deps import CurrentUser\nfrom app.server import mcp\n\n\n@mcp.tool()\n"
        "def t(x: int, user: CurrentUser) -> str:\n    return user\n",
    },
    "app/deps/auth.py",
    REFUSED,
    CLEAN,
)

# 10. A `dependencies/` package split over several files, its `__init__` importing from each and
#     listing them in a tuple `__all__`; the tool names the package, `dependencies.load_d`.
CASES["dependencies/ package over several files with a tuple __all__, dependencies.load_d"] = served(
    {
        "app/dependencies/__init__.py": "from .auth import load_d\nfrom .db import get_db\n\n"
        "__all__ = (\n    'get_db',\n    'load_d',\n)\n",
        "app/dependencies/auth.py": BAD,
        "app/dependencies/db.py": "def get_db() -> str:\n    return 'db'\n",
        "app/tools.py": uses("from app import dependencies\n", "dependencies.load_d"),
    },
    "app/dependencies/auth.py",
    REFUSED,
    CLEAN,
)

# 11. The package `__init__` re-exporting under another name (`... import load_d as get_current_user`).
CASES["package __init__ re-exporting the resolver under an `as` name"] = served(
    {
        "app/dependencies/__init__.py": "from .auth import load_d as get_current_user\n\n__all__ = ['get_current_user']\n",
        "app/dependencies/auth.py": BAD,
        "app/tools.py": uses("from app.dependencies import get_current_user\n", "get_current_user"),
    },
    "app/dependencies/auth.py",
    REFUSED,
    CLEAN,
)

# 12. A chain across three modules, each naming the next through its module
#     (`import app.tokens as tokens`, `tokens.get_token`).
CASES["resolver chain across three modules, each reached through a module alias"] = served(
    {
        "app/raw.py": BAD,
        "app/tokens.py": HEAD + "\nimport app.raw as raw\n\n\n"
        "def get_token(t: Annotated[str, Resolve(raw.load_d)]) -> str:\n    return t\n",
        "app/users.py": HEAD + "\nfrom app import tokens\n\n\n"
        "def get_user(tok: Annotated[str, Resolve(tokens.get_token)]) -> str:\n    return tok\n",
        "app/tools.py": uses("from app import users\n", "users.get_user"),
    },
    "app/raw.py",
    REFUSED,
    CLEAN,
)

# 13. `def require_scope(scope): async def _check(...): ...; return _check` in an auth module,
#     `Depends(require_scope("write"))` in the routes (seen many times in the code corpus).
CASES["resolver made by a factory of the deps module, Resolve(require('admin'))"] = served(
    {
        "app/auth.py": "def require(scope: str):\n    "
        + CLOSURE[0]
        + "\n        return scope\n\n    return dep\n",
        "app/tools.py": uses("from app.auth import require\n", 'require("admin")'),
    },
    "app/auth.py",
    NOPE,
    CLOSURE,
)

# 14. The factory's result bound in the deps module (`Admin = require("admin")`), then an alias.
CASES["factory result bound at module level and wrapped in an alias, in the deps module"] = served(
    {
        "app/auth.py": HEAD + "\n\ndef require(scope: str):\n    " + CLOSURE[0] + "\n        return scope\n\n"
        "    return dep\n\n\nrequire_admin = require('admin')\nAdmin = Annotated[str, Resolve(require_admin)]\n",
        "app/tools.py": HEAD.replace("from typing import Annotated\n\n", "")
        + "\nfrom app.auth import Admin\nfrom app.server import mcp\n\n\n@mcp.tool()\n"
        "def t(x: int, d: Admin) -> str:\n    return d\n",
    },
    "app/auth.py",
    NOPE,
    CLOSURE,
)

# 15. The factory's inner dependency depending on a resolver of a third module.
CASES["factory's inner dependency resolving a resolver of a third module"] = served(
    {
        "app/users.py": BAD,
        "app/perms.py": HEAD + "\nfrom app.users import load_d\n\n\ndef require(scope: str):\n"
        "    def dep(user: Annotated[str, Resolve(load_d)]) -> str:\n        return user + scope\n\n    return dep\n",
        "app/tools.py": uses("from app.perms import require\n", 'require("admin")'),
    },
    "app/users.py",
    REFUSED,
    CLEAN,
)

# 16. `Depends(partial(check_permission, "admin"))` (seen in the code corpus): a partial made
#     in the marker, binding positionally; its function in the deps module.
CASES["functools.partial made in the marker, binding the first argument positionally"] = served(
    {
        "app/deps.py": "def check(role: str, nope: str) -> str:\n    return role + nope\n",
        "app/tools.py": uses(
            "from functools import partial\n\nfrom app.deps import check\n", 'partial(check, "admin")'
        ),
    },
    "app/deps.py",
    NOPE,
    (
        "check(role: str, nope: str) -> str:\n    return role + nope",
        "check(role: str, x: int) -> str:\n    return role + str(x)",
    ),
)

# 17. A register function importing the resolver module in its body, the module-level import
#     kept for type checkers only (`if TYPE_CHECKING: from app import deps`).
CASES["resolver module imported in the register body, and under TYPE_CHECKING at module level"] = (
    {
        "app/deps.py": BAD,
        "app/tools.py": "from typing import TYPE_CHECKING, Annotated\n\nfrom mcp.server.mcpserver import Resolve\n\n"
        "if TYPE_CHECKING:\n    from app import deps\n\n\ndef register(mcp) -> None:\n    from app import deps\n\n"
        "    @mcp.tool()\n    def t(x: int, d: Annotated[str, Resolve(deps.load_d)]) -> str:\n        return d\n",
        "app/main.py": 'from mcp.server import MCPServer\n\nfrom app.tools import register\n\nmcp = MCPServer("x")\nregister(mcp)\n',
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 18. Circular imports: the server module imports its tools at the bottom (after binding
#     `mcp`), the tools import the server back, the resolver module imports the server module
#     for its settings.
CASES["circular imports: server imports tools at the bottom, deps imports the server"] = (
    {
        "app/server.py": SERVER + "SETTINGS = {'p': 'q'}\n\nfrom app import tools  # noqa: E402, F401\n",
        "app/deps.py": "from app import server\n\n\n"
        + BAD.replace("return nope", "return server.SETTINGS['p'] + nope"),
        "app/tools.py": uses("from app.deps import load_d\n", "load_d"),
    },
    "import app.server",
    "app/deps.py",
    REFUSED,
    (
        "load_d(nope: str) -> str:\n    return server.SETTINGS['p'] + nope",
        "load_d(x: int) -> str:\n    return server.SETTINGS['p'] + str(x)",
    ),
)

# 19. Two hops: the server imports a helpers module that re-exports the resolver it imported
#     from the deps module (no package `__init__` involved).
CASES["resolver re-exported by a plain module the server imports (two hops)"] = (
    {
        "app/deps.py": BAD,
        "app/helpers.py": "from app.deps import load_d  # noqa: F401\n\n\ndef fmt(v: str) -> str:\n    return v\n",
        "app/main.py": tool_module("\nfrom app.helpers import load_d\n"),
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 20. An Elicit resolver in a questions module, its pydantic model in a models module.
CASES["Elicit resolver in its own module, the model in a third"] = served(
    {
        "app/models.py": "from pydantic import BaseModel\n\n\nclass Confirm(BaseModel):\n    ok: bool\n",
        "app/questions.py": "from mcp.server.mcpserver import Elicit\n\nfrom app.models import Confirm\n\n\n"
        "def ask(nope: str) -> Elicit[Confirm]:\n    return Elicit('Delete ' + nope + '?', Confirm)\n",
        "app/tools.py": HEAD
        + "\nfrom app.models import Confirm\nfrom app.questions import ask\nfrom app.server import mcp\n\n\n"
        "@mcp.tool()\ndef t(x: int, c: Annotated[Confirm, Resolve(ask)]) -> str:\n    return str(c.ok)\n",
    },
    "app/questions.py",
    "Resolver 'ask' parameter 'nope'",
    (
        "ask(nope: str) -> Elicit[Confirm]:\n    return Elicit('Delete ' + nope",
        "ask(x: int) -> Elicit[Confirm]:\n    return Elicit('Delete ' + str(x)",
    ),
)

# 21. A Sample resolver in its own module, consumed by a resolver of the deps module.
CASES["Sample resolver in its own module, consumed by a resolver of another"] = served(
    {
        "app/sampling.py": "from mcp.server.mcpserver import Sample\n\n\n"
        "def summarise(nope: str) -> Sample:\n    return Sample([nope], max_tokens=50)\n",
        "app/deps.py": HEAD + "\nfrom app.sampling import summarise\n\n\n"
        "def summary(s: Annotated[str, Resolve(summarise)]) -> str:\n    return s\n",
        "app/tools.py": uses("from app.deps import summary\n", "summary"),
    },
    "app/sampling.py",
    "Resolver 'summarise' parameter 'nope'",
    (
        "summarise(nope: str) -> Sample:\n    return Sample([nope]",
        "summarise(x: int) -> Sample:\n    return Sample([str(x)]",
    ),
)

# 22. An alias held as a class attribute of a deps namespace class (`Deps.User`).
CASES["alias held as a class attribute of a deps class, annotation Deps.User"] = served(
    {
        "app/deps.py": HEAD + "\n\n" + BAD + "\n\nclass Deps:\n    User = Annotated[str, Resolve(load_d)]\n",
        "app/tools.py": HEAD.replace("from typing import Annotated\n\n", "")
        + "\nfrom app.deps import Deps\nfrom app.server import mcp\n\n\n@mcp.tool()\n"
        "def t(x: int, d: Deps.User) -> str:\n    return d\n",
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 23. A resolver whose parameter is an alias read through a module alias of a third module
#     (`import app.aliases as a`, `p: a.Token`).
CASES["resolver parameter annotated with an alias read through a module alias"] = served(
    {
        "app/raw.py": BAD,
        "app/aliases.py": HEAD + "\nfrom app.raw import load_d\n\nToken = Annotated[str, Resolve(load_d)]\n",
        "app/deps.py": "import app.aliases as a\n\n\ndef get_user(tok: a.Token) -> str:\n    return tok\n",
        "app/tools.py": uses("from app.deps import get_user\n", "get_user"),
    },
    "app/raw.py",
    REFUSED,
    CLEAN,
)

# 24. The deps module a package: `from app.api import deps` where deps/ re-exports from
#     deps/users.py, then `deps.load_d`.
CASES["deps is a package re-exporting from a submodule, deps.load_d"] = (
    {
        "app/server.py": SERVER,
        "app/api/__init__.py": "",
        "app/api/deps/__init__.py": "from app.api.deps.users import load_d\n\n__all__ = ['load_d']\n",
        "app/api/deps/users.py": BAD,
        "app/api/items.py": uses("from app.api import deps\n", "deps.load_d"),
        "app/main.py": entry("app.api.items"),
    },
    "import app.main",
    "app/api/deps/users.py",
    REFUSED,
    CLEAN,
)

# 25. The submodule named through its package after the package imported it: `from app import
#     dependencies` then `dependencies.auth.load_d`.
CASES["resolver named through the package's submodule attribute, dependencies.auth.load_d"] = served(
    {
        "app/dependencies/__init__.py": "from . import auth\n\n__all__ = ['auth']\n",
        "app/dependencies/auth.py": BAD,
        "app/tools.py": uses("from app import dependencies\n", "dependencies.auth.load_d"),
    },
    "app/dependencies/auth.py",
    REFUSED,
    CLEAN,
)

# 26. A staticmethod of the deps class reached through a module-level instance (`auth = AuthDeps()`).
CASES["staticmethod of a deps class reached through a module-level instance"] = served(
    {
        "app/deps.py": "class AuthDeps:\n    @staticmethod\n    " + INDENTED[0] + "\n\n\nauth = AuthDeps()\n",
        "app/tools.py": uses("from app.deps import auth\n", "auth.load_d"),
    },
    "app/deps.py",
    REFUSED,
    INDENTED,
)


# 27. A staticmethod inherited from a base class of another module: `class AuthDeps(BaseDeps)`
#     in deps.py, the method defined in base.py, `Resolve(AuthDeps.load_d)` in the tools.
CASES["staticmethod inherited from a base deps class of another module"] = served(
    {
        "app/base.py": "class BaseDeps:\n    @staticmethod\n    " + INDENTED[0] + "\n",
        "app/deps.py": "from app.base import BaseDeps\n\n\nclass AuthDeps(BaseDeps):\n    pass\n",
        "app/tools.py": uses("from app.deps import AuthDeps\n", "AuthDeps.load_d"),
    },
    "app/base.py",
    REFUSED,
    INDENTED,
)

# 28. A resolver made by a factory of a fourth module and bound at module level of the deps
#     module (`load_user = make_loader("user")`): the refused def is the factory's closure.
CASES["deps module binding a factory's closure made in another module"] = served(
    {
        "app/factories.py": "def make_loader(kind: str):\n    "
        + CLOSURE[0]
        + "\n        return kind\n\n    return dep\n",
        "app/deps.py": "from app.factories import make_loader\n\nload_user = make_loader('user')\n",
        "app/tools.py": uses("from app.deps import load_user\n", "load_user"),
    },
    "app/factories.py",
    NOPE,
    CLOSURE,
)

# 29. A nested namespace class (`Deps.Auth.load_d`).
CASES["staticmethod of a class nested in a deps namespace class, Deps.Auth.load_d"] = served(
    {
        "app/deps.py": "class Deps:\n    class Auth:\n        @staticmethod\n        "
        + INDENTED[0].replace("\n        ", "\n            ")
        + "\n",
        "app/tools.py": uses("from app.deps import Deps\n", "Deps.Auth.load_d"),
    },
    "app/deps.py",
    REFUSED,
    (
        INDENTED[0].replace("\n        ", "\n            "),
        INDENTED[1].replace("\n        ", "\n            "),
    ),
)

# 30. A deps class imported under an alias and read through its module: `deps.AuthDeps.load_d`.
CASES["staticmethod read through the module, deps.AuthDeps.load_d"] = served(
    {
        "app/deps.py": "class AuthDeps:\n    @staticmethod\n    " + INDENTED[0] + "\n",
        "app/tools.py": uses("from app import deps\n", "deps.AuthDeps.load_d"),
    },
    "app/deps.py",
    REFUSED,
    INDENTED,
)

# 31. A method bound to an instance made in the marker, `Resolve(Deps().load_d)`.
CASES["method of an instance made in the marker, Resolve(Deps().load_d)"] = served(
    {
        "app/deps.py": "class Deps:\n    def load_d(self, nope: str) -> str:\n        return nope\n",
        "app/tools.py": uses("from app.deps import Deps\n", "Deps().load_d"),
    },
    "app/deps.py",
    REFUSED,
    (
        "load_d(self, nope: str) -> str:\n        return nope",
        "load_d(self, x: int) -> str:\n        return str(x)",
    ),
)

# 32. A classmethod factory (`Perm.require("admin")`) returning its inner dependency.
CASES["classmethod factory of a permissions class"] = served(
    {
        "app/perms.py": "class Perm:\n    @classmethod\n    def require(cls, scope: str):\n"
        "        def dep(nope: str) -> str:\n            return scope\n\n        return dep\n",
        "app/tools.py": uses("from app.perms import Perm\n", 'Perm.require("admin")'),
    },
    "app/perms.py",
    NOPE,
    CLOSURE,
)

# 33. A server factory importing the resolver in its body (`def create_server(): from .deps
#     import load_d`), the entry point calling it at module level.
CASES["server factory importing the resolver module in its body"] = (
    {
        "app/deps.py": BAD,
        "app/factory.py": HEAD + "\nfrom mcp.server import MCPServer\n\n\ndef create_server() -> MCPServer:\n"
        "    from app.deps import load_d\n\n    mcp = MCPServer('x')\n\n    @mcp.tool()\n"
        "    def t(x: int, d: Annotated[str, Resolve(load_d)]) -> str:\n        return d\n\n    return mcp\n",
        "app/main.py": "from app.factory import create_server\n\nmcp = create_server()\n",
    },
    "import app.main",
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 34. `if TYPE_CHECKING: ... else: from app.deps import load_d` in the tools module.
CASES["resolver imported in the else arm of if TYPE_CHECKING"] = served(
    {
        "app/deps.py": BAD,
        "app/tools.py": uses(
            "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from app.deps import load_d\nelse:\n"
            "    from app.deps import load_d\n",
            "load_d",
        ),
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 35. An alias of an alias across modules: `User = Annotated[str, Resolve(load_d)]` in deps,
#     `AdminUser = Annotated[User, "admin"]` in roles (the metadata flattened into one).
CASES["alias of an alias across modules, metadata flattened"] = served(
    {
        "app/deps.py": HEAD + "\n\n" + BAD + "\n\nUser = Annotated[str, Resolve(load_d)]\n",
        "app/roles.py": "from typing import Annotated\n\nfrom app.deps import User\n\nAdminUser = Annotated[User, 'admin']\n",
        "app/tools.py": "from app.roles import AdminUser\nfrom app.server import mcp\n\n\n@mcp.tool()\n"
        "def t(x: int, d: AdminUser) -> str:\n    return d\n",
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 36. A dict of resolvers in the deps module, `Resolve(RESOLVERS["user"])` in the tools.
CASES["resolver read out of a dict literal of the deps module"] = served(
    {
        "app/deps.py": BAD + "\n\nRESOLVERS = {'user': load_d}\n",
        "app/tools.py": uses("from app.deps import RESOLVERS\n", 'RESOLVERS["user"]'),
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 36b. The same dict written with the key twice: Python keeps the last entry, and so does lint.
CASES["resolver read out of a dict literal writing its key twice, the last kept"] = served(
    {
        "app/deps.py": BAD + "\n\ndef other(x: int) -> str:\n    return str(x)\n\n\n"
        "RESOLVERS = {'user': other, 'admin': other, 'user': load_d}\n",
        "app/tools.py": uses("from app import deps\n", 'deps.RESOLVERS["user"]'),
    },
    "app/deps.py",
    REFUSED,
    CLEAN,
)

# 37. The tools registered in the package `__init__` itself, importing the sibling deps module.
CASES["tools registered in a package __init__ importing its sibling deps relatively"] = served(
    {
        "app/tools/__init__.py": uses("from .deps import load_d\n", "load_d"),
        "app/tools/deps.py": BAD,
    },
    "app/tools/deps.py",
    REFUSED,
    CLEAN,
)

# 38. The deps class aliased on import (`from app.deps import AuthDeps as A`).
CASES["deps class imported under an `as` name, A.load_d"] = served(
    {
        "app/deps.py": "class AuthDeps:\n    @staticmethod\n    " + INDENTED[0] + "\n",
        "app/tools.py": uses("from app.deps import AuthDeps as A\n", "A.load_d"),
    },
    "app/deps.py",
    REFUSED,
    INDENTED,
)

# 39. Tools and deps importing each other: the deps module reads a constant of the tools
#     module under postponed annotations (`from app import tools`, used in the body only).
CASES["circular import: the deps module imports the tools module back"] = served(
    {
        "app/deps.py": "from __future__ import annotations\n\nfrom app import tools\n\n\n"
        "def load_d(nope: str) -> str:\n    return tools.PREFIX + nope\n",
        "app/tools.py": "PREFIX = 'p'\n\n" + uses("from app.deps import load_d\n", "load_d"),
    },
    "app/deps.py",
    REFUSED,
    (
        "load_d(nope: str) -> str:\n    return tools.PREFIX + nope",
        "load_d(x: int) -> str:\n    return tools.PREFIX + str(x)",
    ),
)


# 40. The base named through its module (`class AuthDeps(base.BaseDeps)`), a classmethod inherited.
CASES["classmethod inherited from a base named through its module"] = served(
    {
        "app/base.py": "class BaseDeps:\n    @classmethod\n    def load_d(cls, nope: str) -> str:\n        return nope\n",
        "app/deps.py": "from app import base\n\n\nclass AuthDeps(base.BaseDeps):\n    pass\n",
        "app/tools.py": uses("from app.deps import AuthDeps\n", "AuthDeps.load_d"),
    },
    "app/base.py",
    REFUSED,
    (
        "load_d(cls, nope: str) -> str:\n        return nope",
        "load_d(cls, x: int) -> str:\n        return str(x)",
    ),
)

# 41. FastAPI's generic CRUD base (`class CRUDUser(CRUDBase[User])`, `crud_user = CRUDUser()`):
#     the resolver a method the instance inherits from a generic base of another module.
CASES["method inherited from a generic base, bound to a module-level instance"] = served(
    {
        "app/base.py": "from typing import Generic, TypeVar\n\nT = TypeVar('T')\n\n\nclass CRUDBase(Generic[T]):\n"
        "    def load_d(self, nope: str) -> str:\n        return nope\n",
        "app/deps.py": "from app.base import CRUDBase\n\n\nclass CRUDUser(CRUDBase[str]):\n    pass\n\n\n"
        "crud_user = CRUDUser()\n",
        "app/tools.py": uses("from app.deps import crud_user\n", "crud_user.load_d"),
    },
    "app/base.py",
    REFUSED,
    (
        "load_d(self, nope: str) -> str:\n        return nope",
        "load_d(self, x: int) -> str:\n        return str(x)",
    ),
)

# 42. A staticmethod inherited from a generic base, `Resolve(AuthDeps.load_d)`.
CASES["staticmethod inherited from a generic base of another module"] = served(
    {
        "app/base.py": "from typing import Generic, TypeVar\n\nT = TypeVar('T')\n\n\nclass BaseDeps(Generic[T]):\n"
        "    @staticmethod\n    " + INDENTED[0] + "\n",
        "app/deps.py": "from app.base import BaseDeps\n\n\nclass AuthDeps(BaseDeps[str]):\n    pass\n",
        "app/tools.py": uses("from app.deps import AuthDeps\n", "AuthDeps.load_d"),
    },
    "app/base.py",
    REFUSED,
    INDENTED,
)

# 43. An alias written in the class body over the class's own staticmethod.
CASES["alias in a deps class body over its own staticmethod, Deps.User"] = served(
    {
        "app/deps.py": HEAD + "\n\nclass Deps:\n    @staticmethod\n    " + INDENTED[0] + "\n\n"
        "    User = Annotated[str, Resolve(load_d)]\n",
        "app/tools.py": "from app.deps import Deps\nfrom app.server import mcp\n\n\n@mcp.tool()\n"
        "def t(x: int, d: Deps.User) -> str:\n    return d\n",
    },
    "app/deps.py",
    REFUSED,
    INDENTED,
)


NOT_FOLLOWED: dict[str, str] = {}


(
    test_sdk_refuses_and_lint_reports_alike,
    test_each_file_alone_reports_what_lint_dot_reports,
    test_the_editor_reports_what_lint_dot_reports,
) = survey_tests(CASES, NOT_FOLLOWED)


ORDERS = {
    "C3 order of two bases, the second overriding the first's base": (
        "class Base:\n    @staticmethod\n    def load_d(nope: str) -> str:\n        return nope\n\n\n"
        "class A(Base):\n    pass\n\n\nclass B(Base):\n    @staticmethod\n"
        "    def load_d(x: int) -> str:\n        return str(x)\n\n\nclass Deps(A, B):\n    pass\n"
    ),
    "a metaclass that may add the attribute": (
        "class Meta(type):\n    pass\n\n\nclass Base:\n    @staticmethod\n"
        "    def load_d(nope: str) -> str:\n        return nope\n\n\nclass Deps(Base, metaclass=Meta):\n"
        "    load_d = staticmethod(lambda x: str(x))\n"
    ),
    "the subclass overriding its base's method": (
        "class Base:\n    @staticmethod\n    def load_d(nope: str) -> str:\n        return nope\n\n\n"
        "class Deps(Base):\n    @staticmethod\n    def load_d(x: int) -> str:\n        return str(x)\n"
    ),
}


@pytest.mark.parametrize("order", sorted(ORDERS))
def test_an_inherited_resolver_is_read_only_where_the_mro_is_one_chain(tmp_path: Path, order: str) -> None:
    """`Resolve(Deps.load_d)` is followed into a base only through single inheritance without a
    metaclass: the SDK accepts these servers (the method Python finds first takes `x`), and
    lint must not report the refused `load_d` of a base that Python does not reach first."""
    files = {
        "app/server.py": SERVER,
        "app/deps.py": ORDERS[order],
        "app/tools.py": uses("from app.deps import Deps\n", "Deps.load_d"),
        "app/main.py": entry("app.tools"),
    }
    write_files(tmp_path, {**PROJECT, **files})
    assert sdk(tmp_path, "import app.main").returncode == 0
    for paths in (
        [
            ".",
        ],
        ["app/deps.py"],
    ):
        assert [d for d in found(tmp_path, paths) if d["severity"] == "error"] == []
