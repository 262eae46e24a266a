"""Annotations Python evaluates where a function is defined, naming what the module binds later.

Without `from __future__ import annotations`, Python up to 3.13 evaluates a function's
annotations when it defines it. A module-level tool or resolver whose annotation names
something bound further down (`Resolve(login)` with `login` defined below it, a class written
after the tool that `mcp.add_tool` registers last) stops the server's import with a
`NameError`: the SDK never sees the tool. `lint` reported nothing there (only the names the SDK
reads at registration were held to the registration's line).

Python and the SDK are the oracle, both ways, in the same test: each case is imported here
under the real `mcp` (registration recorded, `oracle/sdk_verdicts.judge_case`), and must fail
to import with a `NameError` exactly when `lint` reports the case's code (MCPD009 for a tool's
own hints, MCPD002 for a resolver's, as the contract files unevaluable hints). The file as
pre-commit passes it (`lint FILE`) says the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files
from mcpdeps.lint_rules import lint
from oracle.sdk_verdicts import judge_case

HEAD = (
    "from typing import Annotated\n\n"
    "from mcp.server import MCPServer\n"
    "from mcp.server.mcpserver import Resolve\n\n"
    'mcp = MCPServer("shop")\n\n\n'
)

LOGIN = 'def login() -> str:\n    return "me"\n\n\n'
"""The resolver the cases define below (or above) the tool reading it."""

CASES: dict[str, tuple[dict[str, str], set[str], str | None]] = {
    "a decorated tool whose resolver is defined below it": (
        {
            "server.py": HEAD + "@mcp.tool()\n"
            "def order(book: str, who: Annotated[str, Resolve(login)]) -> str:\n"
            "    return book + who\n\n\n"
            "def login() -> str:\n"
            '    return "me"\n'
        },
        {"MCPD009"},
        "server.py",
    ),
    "a tool registered last, its resolver defined between the tool and the registration": (
        {
            "server.py": HEAD + "def order(book: str, who: Annotated[str, Resolve(login)]) -> str:\n"
            "    return book + who\n\n\n" + LOGIN + "mcp.add_tool(order)\n"
        },
        {"MCPD009"},
        "server.py",
    ),
    "a tool registered last, its return type defined below it": (
        {
            "server.py": HEAD + "def order(book: str) -> Receipt:\n"
            "    return Receipt()\n\n\n"
            "class Receipt:\n"
            '    """A receipt."""\n\n\n'
            "mcp.add_tool(order, structured_output=False)\n"
        },
        {"MCPD009"},
        "server.py",
    ),
    "a resolver whose own resolver is defined below it": (
        {
            "server.py": HEAD + "def who(user: Annotated[str, Resolve(login)]) -> str:\n"
            "    return user\n\n\n"
            "def login() -> str:\n"
            '    return "me"\n\n\n'
            "@mcp.tool()\n"
            "def order(book: str, name: Annotated[str, Resolve(who)]) -> str:\n"
            "    return book + name\n"
        },
        {"MCPD002"},
        "server.py",
    ),
    "a resolver module whose resolver uses one defined below it": (
        {
            "deps.py": "from typing import Annotated\n\n"
            "from mcp.server.mcpserver import Resolve\n\n\n"
            "def who(user: Annotated[str, Resolve(login)]) -> str:\n"
            "    return user\n\n\n"
            "def login() -> str:\n"
            '    return "me"\n',
            "server.py": HEAD.replace("\n\nmcp =", "\nfrom deps import who\n\nmcp =") + "@mcp.tool()\n"
            "def order(book: str, name: Annotated[str, Resolve(who)]) -> str:\n"
            "    return book + name\n",
        },
        {"MCPD002"},
        "deps.py",
    ),
    "a resolver with no parameter, its return type defined below it": (
        {
            "server.py": HEAD + "def settings() -> Settings:\n"
            "    return Settings()\n\n\n"
            "class Settings:\n"
            '    region = "eu"\n\n\n'
            "def region(s: Annotated[Settings, Resolve(settings)]) -> str:\n"
            "    return s.region\n\n\n"
            "mcp.add_tool(region)\n"
        },
        {"MCPD002"},
        "server.py",
    ),
    "a class resolver whose __init__ names what is bound below the class": (
        {
            "server.py": HEAD + "class Cart:\n"
            "    def __init__(self, book: Isbn) -> None:\n"
            "        self.book = book\n\n\n"
            "Isbn = str\n\n\n"
            "@mcp.tool()\n"
            "def order(book: str, cart: Annotated[Cart, Resolve(Cart)]) -> str:\n"
            "    return book\n"
        },
        {"MCPD002"},
        "server.py",
    ),
    "a method resolver annotated with its own class": (
        {
            "server.py": HEAD.replace("import Resolve", "import Context, Resolve") + "class Session:\n"
            "    @classmethod\n"
            "    def current(cls, ctx: Context) -> Session:\n"
            "        return cls()\n\n\n"
            "@mcp.tool()\n"
            "def whoami(s: Annotated[Session, Resolve(Session.current)]) -> str:\n"
            '    return "me"\n'
        },
        {"MCPD002"},
        "server.py",
    ),
    "valid: a tool named as a builtin, its annotations reading the builtin": (
        {
            "server.py": HEAD + "@mcp.tool()\n"
            "def search(q: str) -> list[str]:\n"
            "    return [q]\n\n\n"
            "@mcp.tool()\n"
            'def list(path: str = ".") -> list[str]:\n'
            "    return [path]\n"
        },
        set(),
        None,
    ),
    "valid: a name a loop binds above the tool, bound again below it": (
        {
            "server.py": HEAD + "for Unit in (str,):\n"
            "    pass\n\n\n"
            "def convert(x: Unit) -> str:\n"
            "    return x\n\n\n"
            "Unit = int\n"
            "mcp.add_tool(convert)\n"
        },
        set(),
        None,
    ),
    "valid: the arm of a conditional expression Python does not take": (
        {
            "server.py": "import sys\n" + HEAD + "@mcp.tool()\n"
            "def order(book: str if sys.version_info >= (3, 0) else Later) -> str:\n"
            "    return book\n\n\n"
            "class Later:\n"
            '    """Never read."""\n'
        },
        set(),
        None,
    ),
    "valid: a tool defined on a loop's second pass, after the loop bound its resolver": (
        {
            "server.py": HEAD + "for attempt in range(2):\n"
            "    if attempt == 1:\n\n"
            "        def order(book: str, who: Annotated[str, Resolve(login)]) -> str:\n"
            "            return book + who\n\n"
            "        mcp.add_tool(order)\n\n"
            "    def login() -> str:\n"
            '        return "me"\n'
        },
        set(),
        None,
    ),
    "a lambda's default in a tool's metadata, naming what is bound below": (
        {
            "server.py": HEAD + "def order(book: Annotated[str, lambda d=DESCRIPTION: d]) -> str:\n"
            "    return book\n\n\n"
            'DESCRIPTION = "a book"\n'
            "mcp.add_tool(order)\n"
        },
        {"MCPD009"},
        "server.py",
    ),
    "valid: a walrus in an if test above the tool binds the name it reads": (
        {
            "server.py": "from decimal import Decimal\n\n" + HEAD + "if (Money := Decimal) is not None:\n\n"
            "    def price(x: str) -> Money:\n"
            "        return Money(x)\n\n\n"
            "Money = Decimal\n"
            "mcp.add_tool(price, structured_output=False)\n"
        },
        set(),
        None,
    ),
    "valid: a tool defined under a with statement that may swallow the error": (
        {
            "server.py": "from contextlib import suppress\n\n" + HEAD + "def price(x: str) -> str:\n"
            "    return x\n\n\n"
            "with suppress(Exception):\n\n"
            "    def price(x: str) -> Money:  # noqa: F811\n"
            "        return x\n\n\n"
            "from decimal import Decimal as Money  # noqa: E402\n\n"
            "mcp.add_tool(price)\n"
        },
        set(),
        None,
    ),
    "valid: a string annotation, read by the SDK at a registration written after the resolver": (
        {
            "server.py": HEAD + 'def order(book: str, who: "Annotated[str, Resolve(login)]") -> str:\n'
            "    return book + who\n\n\n" + LOGIN + "mcp.add_tool(order)\n"
        },
        set(),
        None,
    ),
    "valid: postponed annotations, registered after the resolver": (
        {
            "server.py": "from __future__ import annotations\n\n"
            + HEAD
            + "def order(book: str, who: Annotated[str, Resolve(login)]) -> str:\n"
            "    return book + who\n\n\n" + LOGIN + "mcp.add_tool(order)\n"
        },
        set(),
        None,
    ),
    "valid: a tool defined in a factory called after the module binds its resolver": (
        {
            "server.py": HEAD.replace('mcp = MCPServer("shop")\n\n\n', "") + "def build() -> MCPServer:\n"
            '    server = MCPServer("shop")\n\n'
            "    @server.tool()\n"
            "    def order(book: str, who: Annotated[str, Resolve(login)]) -> str:\n"
            "        return book + who\n\n"
            "    return server\n\n\n"
            "def login() -> str:\n"
            '    return "me"\n\n\n'
            "mcp = build()\n"
        },
        set(),
        None,
    ),
    "valid: a name bound above the tool and again below it": (
        {
            "server.py": HEAD + "def login() -> str:\n"
            '    return "me"\n\n\n'
            "@mcp.tool()\n"
            "def order(book: str, who: Annotated[str, Resolve(login)]) -> str:\n"
            "    return book + who\n\n\n"
            "def login() -> str:  # noqa: F811\n"
            '    return "you"\n'
        },
        set(),
        None,
    ),
    "valid: a method whose annotation names what its class body binds": (
        {
            "server.py": HEAD + "class Repo:\n"
            "    Row = int\n\n"
            "    def get(self, key: str) -> Row:\n"
            "        return len(key)\n\n\n"
            "repo = Repo()\n\n\n"
            "@mcp.tool()\n"
            "def order(key: str, n: Annotated[int, Resolve(repo.get)]) -> int:\n"
            "    return n\n"
        },
        set(),
        None,
    ),
}


def _python_and_sdk(folder: Path) -> set[str]:
    """What importing the case under the real SDK says: a `NameError` at import (the code the
    case's header gives it), the SDK's registration codes, or nothing."""
    verdict = judge_case(folder)
    if verdict["import_error"] is not None:
        assert verdict["import_error"].startswith("NameError: "), verdict["import_error"]
        return {"NameError"}
    assert verdict["tools"], "the case registers no tool"
    return {t["code"] for t in verdict["tools"] if t["verdict"] != "ok"}


def _registration_codes(folder: Path, *paths: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    targets = [folder / p for p in paths] if paths else [folder]
    for d in lint(targets, cwd=folder).diagnostics:
        if d.code.startswith("MCPD0"):
            found.setdefault(Path(d.path).name, set()).add(d.code)
    return found


@pytest.mark.parametrize("case", CASES)
def test_lint_reports_what_fails_to_import(case: str, tmp_path: Path) -> None:
    files, codes, located = CASES[case]
    write_files(tmp_path, files)
    assert _python_and_sdk(tmp_path) == ({"NameError"} if codes else set())
    found = _registration_codes(tmp_path)
    assert found == ({located: codes} if located else {})
    if located is not None:  # the file as pre-commit passes it
        assert _registration_codes(tmp_path, located) == {located: codes}


def test_a_resolver_is_reported_once_where_it_is_defined(tmp_path: Path) -> None:
    files, _, _ = CASES["a resolver whose own resolver is defined below it"]
    write_files(tmp_path, files)
    found = [(d.code, d.line, d.message) for d in lint([tmp_path], cwd=tmp_path).diagnostics]
    assert found == [
        (
            "MCPD002",
            9,
            "resolver 'who' cannot be used: its hints use 'login', which is bound at line 13, after it "
            "is defined at line 9, where Python up to 3.13 evaluates them: importing the module fails",
        )
    ]


def test_the_message_says_where_python_reads_the_name(tmp_path: Path) -> None:
    files, _, _ = CASES["a tool registered last, its resolver defined between the tool and the registration"]
    write_files(tmp_path, files)
    (message,) = [d.message for d in lint([tmp_path], cwd=tmp_path).diagnostics]
    assert message == (
        "tool 'order': the hints of the tool use 'login', which is bound at line 13, after the "
        "tool is defined at line 9, where Python up to 3.13 evaluates them: importing the module "
        "fails; the SDK cannot register it"
    )
