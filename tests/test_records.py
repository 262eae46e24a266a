"""`@record` (`resolver_core/records.py`) compares, hashes and shows a record as
`@dataclass(unsafe_hash=True)` does, without compiling those three methods per record:
the same answers, class by class, for every kind of field a record declares."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest
from mcpdeps.resolver_core.records import record


def _twins(body: dict[str, Any], annotations: dict[str, str], **options: Any) -> tuple[type, type]:
    """The same class body made a record and a stdlib dataclass with `unsafe_hash=True`."""

    def made(decorate: Any) -> type:
        return decorate(type("Fact", (), {**body, "__annotations__": dict(annotations)}))

    return made(record(**options)), made(dataclass(unsafe_hash=True, **options))


SHAPES: dict[str, tuple[dict[str, Any], dict[str, str], dict[str, Any], list[tuple[Any, ...]]]] = {
    "no field": ({}, {}, {}, [()]),
    "one field": ({}, {"name": "str"}, {}, [("a",), ("b",)]),
    "several fields and a default": (
        {"line": 0},
        {"path": "str", "names": "tuple[str, ...]", "line": "int"},
        {},
        [("a.py", ("x",), 1), ("a.py", ("x",), 2), ("b.py", (), 0)],
    ),
    "a field left out of comparing": (
        {"seen": field(default=0, compare=False)},
        {"name": "str", "seen": "int"},
        {},
        [("a", 1), ("a", 2), ("b", 1)],
    ),
    "a field compared but not hashed": (
        {"extra": field(default=0, hash=False)},
        {"name": "str", "extra": "int"},
        {},
        [("a", 1), ("a", 2)],
    ),
    "a field hidden from repr": (
        {"text": field(default="", repr=False)},
        {"name": "str", "text": "str"},
        {},
        [("a", "long"), ("a", "other")],
    ),
    "keyword only, without slots": (
        {},
        {"name": "str", "line": "int"},
        {"kw_only": True, "slots": False},
        [("a", 1), ("a", 2)],
    ),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_record_compares_hashes_and_shows_as_a_dataclass_would(shape: str) -> None:
    body, annotations, options, values = SHAPES[shape]
    ours, stdlib = _twins(body, annotations, **options)
    names = list(annotations)
    made = [
        (ours(**dict(zip(names, v, strict=True))), stdlib(**dict(zip(names, v, strict=True)))) for v in values
    ]
    for a, a_std in made:
        assert repr(a) == repr(a_std)
        assert hash(a) == hash(a_std)
        for b, b_std in made:
            assert (a == b) == (a_std == b_std)
            assert (a != b) == (a_std != b_std)
        assert a != a_std, "another class's instance is never equal"
        assert a.__eq__(object()) is NotImplemented
        assert dataclasses.replace(a) == a
        assert dataclasses.asdict(a) == dataclasses.asdict(a_std)


def test_a_record_that_holds_itself_is_shown_without_recursing() -> None:
    @record(slots=False)
    class Node:
        children: list[Any]

    node = Node([])
    node.children.append(node)
    assert (
        repr(node)
        == "test_a_record_that_holds_itself_is_shown_without_recursing.<locals>.Node(children=[...])"
    )


@record
class _Sent:
    """A record as workers send them back (pickled)."""

    path: str
    seen: int = field(default=0, compare=False)


def test_a_record_pickled_is_equal_with_the_same_hash() -> None:
    sent = _Sent("a.py", 3)
    back = pickle.loads(pickle.dumps(sent))
    assert back == sent and hash(back) == hash(sent) and back.seen == 3


def test_a_slotted_class_compares_and_shows_as_a_dataclass_and_is_not_hashable() -> None:
    """`@slotted`: the mutable classes the graph is built of (`model.Tool`, `model.Graph`)
    compare and show as `@dataclass(slots=True)` makes them, and stay unhashable."""
    from mcpdeps.resolver_core.records import slotted

    annotations = {"name": "str", "params": "list[str]", "seen": "int"}
    body = {"params": field(default_factory=list), "seen": field(default=0, compare=False)}
    ours = slotted(type("Tool", (), {**body, "__annotations__": dict(annotations)}))
    stdlib = dataclass(slots=True)(type("Tool", (), {**body, "__annotations__": dict(annotations)}))
    (a, b, c), (a_std, b_std, c_std) = [
        (cls("a"), cls("a", ["x"]), cls("a", seen=3)) for cls in (ours, stdlib)
    ]
    assert [repr(a), repr(b), repr(c)] == [repr(a_std), repr(b_std), repr(c_std)]
    assert (a == b, a == c, b == c) == (a_std == b_std, a_std == c_std, b_std == c_std)
    a.params.append("x")  # mutable, as the graph's classes are while it is built
    assert a == b
    with pytest.raises(TypeError, match="unhashable"):
        hash(ours("a"))
    assert "__dict__" not in dir(ours("a")), "slotted"


INITS: dict[
    str, tuple[dict[str, Any], dict[str, str], dict[str, Any], list[tuple[tuple[Any, ...], dict[str, Any]]]]
] = {
    "required and defaults": (
        {"line": 0, "names": field(default_factory=list)},
        {"path": "str", "line": "int", "names": "list[str]"},
        {},
        [(("a",), {}), (("a", 3), {}), (("a",), {"names": ["x"]}), ((), {"path": "b", "line": 2})],
    ),
    "fields left out of __init__": (
        {
            "seen": field(default=5, init=False),
            "kept": field(default_factory=dict, init=False),
            "bare": field(init=False),
        },
        {"name": "str", "seen": "int", "kept": "dict[str, int]", "bare": "int"},
        {},
        [(("a",), {})],
    ),
    "keyword only": ({"line": 1}, {"path": "str", "line": "int"}, {"kw_only": True}, [((), {"path": "a"})]),
    "a field called self": (
        {},
        {"self": "str", "other": "int"},
        {},
        [(("a", 1), {}), ((), {"self": "b", "other": 2})],
    ),
}


@pytest.mark.parametrize("shape", INITS)
def test_a_record_is_made_as_a_dataclass_is(shape: str) -> None:
    """`__init__`, compiled when a record of the class is first made, takes the arguments the
    dataclass's takes, fills the same fields, makes each default factory's value anew, and
    refuses the same calls."""
    body, annotations, options, calls = INITS[shape]
    ours, theirs = _twins(body, annotations, **options)
    for args, kwargs in calls:
        made, expected = ours(*args, **kwargs), theirs(*args, **kwargs)
        for name in annotations:
            assert hasattr(made, name) == hasattr(expected, name), name
            if hasattr(expected, name):
                assert getattr(made, name) == getattr(expected, name), name
    for args, kwargs in [((), {}), (("a", 1, [], 9, 9), {}), (("a",), {"nothing": 1})]:
        with pytest.raises(TypeError):
            theirs(*args, **kwargs)
        with pytest.raises(TypeError):
            ours(*args, **kwargs)
    factories = [f.name for f in dataclasses.fields(ours) if f.default_factory is not dataclasses.MISSING]
    first, second = ours(*calls[0][0], **calls[0][1]), ours(*calls[0][0], **calls[0][1])
    assert all(getattr(first, name) is not getattr(second, name) for name in factories)


def test_a_record_that_writes_its_own_init_keeps_it() -> None:
    @record
    class Pair:
        left: int
        right: int

        def __init__(self, both: int) -> None:
            self.left = self.right = both

    assert (Pair(3).left, Pair(3).right) == (3, 3)


def test_every_data_class_of_the_package_says_what_it_is() -> None:
    """Each `@record`, `@slotted` and `@dataclass` class has a docstring: `@dataclass` otherwise
    writes one from `inspect.signature` at import (a cost every run paid), and a record's
    signature is known only once its `__init__` is compiled (`records._init_on_first_use`)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    missing = []
    for folder in ("cli", "resolver_core", "lint_rules"):
        for path in sorted((root / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ClassDef) or ast.get_docstring(node) is not None:
                    continue
                names = {ast.unparse(d).split("(")[0].rpartition(".")[2] for d in node.decorator_list}
                if names & {"record", "slotted", "dataclass"}:
                    missing.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    assert missing == []
