"""`CalledFirst`: which helpers an entry point calls before a given one, each caller parsed
once and only when it imports a given file (`resolver_core/called_first.py`)."""

from __future__ import annotations

from mcpdeps.resolver_core.called_first import CalledFirst

MAIN = """\
from app import a, b
from app.c import register as register_c

b.register(mcp)
register_c(mcp)
a.register(mcp)
"""
OTHER = "from app import b, c\n\nb.register(mcp)\n"


def _called(read: list[str]) -> CalledFirst:
    texts = {"main.py": MAIN, "other.py": OTHER}
    names = {p: (f"app.{p[:-3]}", False) for p in ("a.py", "b.py", "c.py", "main.py", "other.py")}
    imported_by = {"a.py": {"main.py"}, "b.py": {"main.py", "other.py"}, "c.py": {"main.py", "other.py"}}
    return CalledFirst(["a.py"], imported_by, names, lambda p: read.append(p) or texts[p])


def test_the_helpers_called_before_the_given_one_and_each_caller_parsed_once() -> None:
    read: list[str] = []
    called = _called(read)
    assert [called.before(p) for p in ("b.py", "c.py", "b.py", "c.py")] == [True, True, True, True]
    assert read == ["main.py"], "a caller importing no given file (other.py) is not read"


def test_a_helper_called_after_the_given_one_is_not_first() -> None:
    read: list[str] = []
    called = _called(read)
    later = MAIN.replace("a.register(mcp)\n", "").replace(
        "b.register(mcp)\n", "a.register(mcp)\nb.register(mcp)\n"
    )
    called.text = lambda p: read.append(p) or {"main.py": later, "other.py": OTHER}[p]
    assert called.before("b.py") is False
    assert called.before("c.py") is False
    assert read == ["main.py"]


RELAYED = """\
from app.relay import setup
from app import b, c, d

svc = c.create_server()
d.create_server()
b.register(mcp)
setup(mcp)
setup(svc)
"""


HELPER = "def register(server):\n    @server.tool()\n    def {name}() -> None: ...\n"


def _relayed(text: str, b_tool: str = "b_search") -> CalledFirst:
    """`main.py` reaches the given `a.py` only through `relay.py`, which imports it; a.py's
    helper registers the tool `search`, b.py's `b_tool`."""
    names = {p: (f"app.{p[:-3]}", False) for p in ("a.py", "b.py", "c.py", "d.py", "main.py", "relay.py")}
    imported_by = {
        "a.py": {"relay.py"},
        "relay.py": {"main.py"},
        "b.py": {"main.py"},
        "c.py": {"main.py"},
        "d.py": {"main.py"},
    }
    texts = {"main.py": text, "a.py": HELPER.format(name="search"), "b.py": HELPER.format(name=b_tool)}
    return CalledFirst(["a.py"], imported_by, names, lambda p: texts.get(p, ""))


def test_through_a_relay_a_factory_whose_server_it_is_handed_comes_first() -> None:
    """Before a relay call: a factory whose result the relay is handed (`svc =
    c.create_server()`, `setup(svc)`) comes first; a factory whose server nothing hands on
    (`d.create_server()`) does not, nor a helper handed the relay's own server
    (`b.register(mcp)`, `setup(mcp)`) whose tools cannot be named like the given file's."""
    called = _relayed(RELAYED)
    assert [called.before(p) for p in ("b.py", "c.py", "d.py")] == [False, True, False]


def test_through_a_relay_a_helper_handed_its_server_first_comes_first_when_it_spells_a_tool_name() -> None:
    """`b.register(mcp)` then `setup(mcp)`, b's helper registering a tool named like a.py's
    (`search`): b's registration may be the first of a duplicate located in a.py."""
    assert _relayed(RELAYED, b_tool="search").before("b.py") is True
    named = "def register(server):\n    server.add_tool(find, name='search')\n"
    called = _relayed(RELAYED)
    called.text = lambda p: {"main.py": RELAYED, "a.py": named, "b.py": HELPER.format(name="search")}.get(
        p, ""
    )
    assert called.before("b.py") is True, "a name a.py passes as `name=`"


def test_a_factory_called_after_the_relay_it_feeds_is_not_first() -> None:
    called = _relayed(
        "from app.relay import setup\nfrom app import c\n\nsetup(svc)\nsvc = c.create_server()\n"
    )
    assert called.before("c.py") is False
