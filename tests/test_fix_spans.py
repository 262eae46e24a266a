"""The `ast` span fixers give exactly the libcst fixers' text, and spare libcst where they can.

A fix is computed from `ast` positions for the plain shapes, by libcst for the rest.
Every fixable example is fixed both ways (`fix_paths.outcomes_of`): wherever the span
fixer answers, its text must be libcst's byte for byte (so the `Fix`, its edits and what
`--fix` writes are too: both go through `edits_between`). Examples: every rule's own
valid and invalid ones, `tests/fix_rules`' cases, the corpus, the fuzzers' expressions
and modules, and random shapes of each fixable code (names, spacing, comments,
decorators, line continuations, parentheses, layouts). The plain shapes must actually
take the span path (else this would test nothing), and a json run on a file whose fixes
are all plain must not import libcst.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
import test_fix_rules
import test_fuzz_programs
from conftest import REPO, run_mcpdeps
from fix_paths import Outcome, mismatches, outcomes_of, outcomes_of_source
from generated_python import MODULES
from hypothesis import given, settings
from hypothesis import strategies as st
from mcpdeps.lint_rules.registry import ALL_RULES

CORPUS = REPO / "tests" / "corpus"
PROPERTY = settings(
    deadline=None,
    derandomize=True,
    max_examples=150,
    suppress_health_check=list(test_fuzz_programs.HealthCheck),
)


def _check(outcomes: list[Outcome]) -> list[Outcome]:
    bad = mismatches(outcomes)
    assert not bad, "\n\n".join(bad)
    return outcomes


def _in_tmp(source: str) -> list[Outcome]:
    with tempfile.TemporaryDirectory(prefix="mcpdeps-spans-") as tmp:
        return _check(outcomes_of_source(Path(tmp), source))


RULE_EXAMPLES = [
    pytest.param(source, id=f"{rule.code}-{kind}-{i}")
    for rule in ALL_RULES
    for kind in ("INVALID", "VALID")
    for i, source in enumerate(getattr(rule, kind))
]


@pytest.mark.parametrize("source", RULE_EXAMPLES)
def test_rule_examples_fix_the_same_both_ways(source: str) -> None:
    _in_tmp(source)


FIX_CASES = [pytest.param(c.source("before"), id=c.id) for c in test_fix_rules.CASES] + [
    pytest.param(
        test_fix_rules.HEAD.format(imports=test_fix_rules.IMPORTS, include="") + p.values[0], id=p.id
    )
    for p in test_fix_rules.REFUSED
]


@pytest.mark.parametrize("source", FIX_CASES)
def test_fix_rules_cases_fix_the_same_both_ways(source: str) -> None:
    _in_tmp(source)


def test_the_fix_rules_cases_take_the_span_path() -> None:
    """The shapes `--fix` is tested on end to end (exact bytes, then the SDK) are plain ones:
    those tests now check the span fixers' output against the real SDK. Their refusals are
    decided without libcst too (libcst's own tests, mirrored on the same nodes)."""
    for case in test_fix_rules.CASES:
        if case.code == "MCPD008":
            continue
        outcomes = [o for o in _in_tmp(case.source("before")) if o.diagnostic.code == case.code]
        assert outcomes and all(o.decided and o.spans is not None for o in outcomes), case.id
    for refused in test_fix_rules.REFUSED:
        source, code = refused.values
        outcomes = [
            o
            for o in _in_tmp(test_fix_rules.HEAD.format(imports=test_fix_rules.IMPORTS, include="") + source)
            if o.diagnostic.code == code
        ]
        assert outcomes and all(o.decided and o.spans is None for o in outcomes), refused.id


def test_the_corpus_fixes_the_same_both_ways(tmp_path: Path) -> None:
    outcomes = _check(outcomes_of([CORPUS]))
    assert {o.diagnostic.code for o in outcomes if o.decided and o.spans is not None} >= {
        "MCPD003",
        "MCPD006",
    }


FUZZ = settings(test_fuzz_programs.FUZZ, max_examples=60)
FIXABLE_PLACES = ("resolved default", "tool annotation", "annotated metadata")


@FUZZ
@given(st.sampled_from(FIXABLE_PLACES), test_fuzz_programs.EXPRESSIONS)
def test_fuzzed_expressions_fix_the_same_both_ways(place: str, expression: str) -> None:
    _in_tmp(test_fuzz_programs.HEADER + test_fuzz_programs.TEMPLATES[place].format(e=expression))


@FUZZ
@given(MODULES, st.booleans())
def test_fuzzed_modules_fix_the_same_both_ways(generated: str, fixable_first: bool) -> None:
    fixable = test_fuzz_programs.FIXABLE
    body = fixable + "\n" + generated if fixable_first else generated + "\n" + fixable
    with tempfile.TemporaryDirectory(prefix="mcpdeps-spans-") as tmp:
        path = Path(tmp) / "server.py"
        path.write_text(test_fuzz_programs.HEADER + body, encoding="utf-8", errors="surrogatepass")
        _check(outcomes_of([path]))


# Random shapes ---------------------------------------------------------------------------

HEAD = """\
import functools
import typing
from typing import Annotated, Optional, Union

from mcp.server import MCPServer
from mcp.server.mcpserver import Resolve, Sample
from mcp.types import SamplingMessage, TextContent
from pydantic import Field

mcp = MCPServer("shop")


def current_user() -> str:
    return "ada"

"""

PLAIN_GAPS = ["", "", " ", "  ", "\n    ", "\t"]
ODD_GAPS = ["  # a note (with a paren\n    ", " \\\n    "]
GAP = st.shared(st.booleans(), key="odd").flatmap(
    lambda odd: st.sampled_from(PLAIN_GAPS + ODD_GAPS if odd else PLAIN_GAPS)
)
"""What may stand between two tokens inside brackets: nothing, spaces, a line break, and
in half the examples also a comment or a line continuation (which go to libcst)."""
NAMES = st.sampled_from(["user", "who", "üser", "u2", "current"])
TYPES = st.sampled_from(["str", "int | None", "list[str]", "'str'", "typing.Any"])


@st.composite
def annotated(draw: st.DrawFn) -> str:
    g = draw(st.lists(GAP, min_size=6, max_size=6))
    resolve = draw(
        st.sampled_from(["Resolve(current_user)", "Resolve( current_user )", "Resolve(current_user,)"])
    )
    extra = draw(st.sampled_from(["", f",{g[4]}Field(description='who (me)')"]))
    trailing = draw(st.sampled_from(["", ","]))
    text = f"{draw(st.sampled_from(['Annotated', 'typing.Annotated']))}[{g[0]}{draw(TYPES)}{g[1]},{g[2]}{resolve}{extra}{trailing}{g[3]}]"
    return f"({g[5]}{text})" if draw(st.booleans()) else text


@st.composite
def optional(draw: st.DrawFn, inner: str) -> str:
    g = draw(st.lists(GAP, min_size=3, max_size=3))
    forms = [
        f"{inner}{g[0]}|{g[1]}None",
        f"None{g[0]}|{g[1]}{inner}",
        f"Optional[{g[0]}{inner}{g[1]}]",
        f"typing.Optional[{inner}]",
        f"Union[{g[0]}{inner},{g[1]}None{g[2]}]",
        f"Union[None, {inner}]",
        f"Union[{inner}, None,]",
    ]
    form = draw(st.sampled_from(forms))
    return f"({form})" if draw(st.integers(0, 4)) == 0 else form


@st.composite
def parameter(draw: st.DrawFn) -> tuple[str, str]:
    """(code the shape is for, `name: annotation = default`)."""
    code = draw(st.sampled_from(["MCPD003", "MCPD101", "MCPD111"]))
    inner = draw(annotated())
    if code == "MCPD003":
        annotation = draw(optional(inner))
    elif code == "MCPD101":
        g = draw(st.lists(GAP, min_size=4, max_size=4))
        hidden = draw(st.one_of(optional(inner), st.just(inner)))
        trailing = draw(st.sampled_from(["", ","]))
        annotation = f"Annotated[{g[0]}{hidden},{g[1]}Field(description='who'){trailing}{g[2]}]"
    else:
        annotation = inner
    default = draw(st.sampled_from(["", "None", "(None)", '"nobody"', "...", "None  # no default\n"]))
    if code == "MCPD111" and not default:
        default = '"x"'
    g = draw(st.lists(st.sampled_from(["", " ", "  ", "\t"]), min_size=4, max_size=4))
    written = f"{draw(NAMES)}{g[0]}:{g[1]}{annotation}"
    if default:
        written += f"{g[2]}={g[3]}{default}"
    return code, written


@st.composite
def tool(draw: st.DrawFn) -> str:
    _, param = draw(parameter())
    others = draw(st.sampled_from([["greeting: str"], [], ["greeting: str", "*"], ['greeting: str = "hi"']]))
    params = [*others, param] if draw(st.booleans()) else [param, *others]
    if "*" in params and params[-1] == "*":
        params.pop()
    if draw(st.booleans()):
        signature = "(\n    " + ",\n    ".join(params) + draw(st.sampled_from([",\n", "\n"])) + ")"
    else:
        signature = "(" + ", ".join(params) + ")"
    decorators = draw(
        st.sampled_from(["@mcp.tool()\n", "# a tool\n@mcp.tool(  )\n", "@mcp.tool(name='t')\n"])
    )
    return f"\n{decorators}def t{signature} -> str:\n    return 'x'\n"


def _parses(source: str) -> bool:
    try:
        compile(source, "server.py", "exec", dont_inherit=True)
    except SyntaxError:
        return False
    return True


@st.composite
def sample_call(draw: st.DrawFn) -> str:
    g = draw(st.lists(GAP, min_size=3, max_size=3))
    keywords = ["max_tokens=100", f"include_context{g[0]}={g[1]}'thisServer'"]
    keywords += draw(st.sampled_from([[], ["temperature=0.5"], ["stop_sequences=['(']"]]))
    keywords = draw(st.permutations(keywords))
    args = ["[message]", *keywords]
    if draw(st.booleans()):
        inside = "\n" + "".join(f"        {a},\n" for a in args) + "    "
        if draw(st.booleans()):
            inside = inside.removesuffix(",\n    ") + "\n    "
    else:
        sep = draw(st.sampled_from([", ", ",", " , ", f",{g[2]}"]))
        inside = sep.join(args) + draw(st.sampled_from(["", ",", " "]))
    return (
        "\n\ndef summarize(text: str) -> Sample:\n"
        '    message = SamplingMessage(role="user", content=TextContent(type="text", text=text))\n'
        f"    return Sample({inside})\n"
    )


USES = st.sampled_from(
    [
        "    {x} = {x}.strip()\n",
        "    print({x}, {x})\n",
        '    label = f"<{{{x}}}>"\n',
        "    for {x} in [{x}]:\n        pass\n",
        "    # {x} is the greeting\n",
        '    """Uses {x}."""\n',
        "    def inner() -> str:\n        return {x}\n",
        "    def own({x}: str) -> str:\n        return {x}\n",
        "    items = [{x} for _ in range(2)]\n",
        "    {x}s = 1\n",
        "    value = obj.{x}\n",
        "    del {x}\n",
        "    global counter\n",
        "    return len({x}) \\\n        + 1\n",
        "    greeting = 1\n",
        "    text: {x} = 'x'\n",
        "    üser = {x}\n",
        "    class Holder:\n        held = {x}\n",
        "    class Own:\n        {x} = 1\n",
        "    get = lambda: {x}\n",
        "    get = lambda {x}: {x}\n",
        "    pairs = {{{x}: n for n in range({x})}}\n",
        "    def later(k: str = {x}) -> str:  # {x} by default\n        return k\n",
        "    def own2({x}: str = {x}) -> str:\n        def deeper() -> str:\n            return {x}\n        return deeper()\n",
        "    text = cast('{x}', {x})\n",
        "    (n := {x})\n",
        "    if (m := 2):\n        total = [{x} := 1 for _ in 'a']\n",
    ]
)


@st.composite
def renamed(draw: st.DrawFn) -> str:
    body = "".join(draw(st.lists(USES, max_size=4)))
    if draw(st.booleans()):  # MCPD002: a resolver parameter misspelling the tool's argument
        old = draw(st.sampled_from(["greting", "greetin", "gretting"]))
        head = draw(st.sampled_from(["", "# the resolver\n", "@functools.cache\n"]))
        call = draw(
            st.sampled_from(["", f"\nHELLO = greeting_of({old}='x')\n", "\nHELLO = greeting_of('x')\n"])
        )
        return (
            f"\n{head}def greeting_of({old}: str) -> str:\n{body.format(x=old)}    return {old}\n{call}\n\n"
            "@mcp.tool()\ndef greet(greeting: str, shown: Annotated[str, Resolve(greeting_of)]) -> str:\n"
            "    return shown\n"
        )
    old = draw(st.sampled_from(["_greeting", "__greeting", "_üser"]))
    return (
        f"\n@mcp.tool()\ndef greet({old}: str, user: Annotated[str, Resolve(current_user)]) -> str:\n"
        f"{body.format(x=old)}    return {old} + user\n"
    )


SHAPES = {"parameters": tool, "sample-calls": sample_call, "renames": renamed}


@pytest.mark.parametrize("shapes", list(SHAPES.values()), ids=list(SHAPES))
@PROPERTY
@given(data=st.data())
def test_random_shapes_fix_the_same_both_ways(
    shapes: Callable[[], st.SearchStrategy[str]], data: st.DataObject
) -> None:
    source = HEAD + data.draw(shapes())
    if _parses(source):
        _in_tmp(source)


PLAIN = [
    pytest.param("def t(user: Annotated[str, Resolve(current_user)] | None = None) -> str:", id="MCPD003"),
    pytest.param(
        "def t(user: Optional[Annotated[str, Resolve(current_user)]] = None) -> str:", id="MCPD003-optional"
    ),
    pytest.param(
        "def t(\n    user: Annotated[\n        Annotated[str, Resolve(current_user)] | None,\n"
        "        Field(description='who'),\n    ] = None,\n) -> str:",
        id="MCPD101-multi-line",
    ),
    pytest.param("def t(user: Annotated[str, Resolve(current_user)] = 'x') -> str:", id="MCPD111"),
]


@pytest.mark.parametrize("signature", PLAIN)
def test_plain_shapes_take_the_span_path(signature: str) -> None:
    outcomes = _in_tmp(HEAD + f"\n@mcp.tool()\n{signature}\n    return 'x'\n")
    assert outcomes and all(o.decided and o.spans is not None for o in outcomes)


def test_a_json_run_with_only_plain_fixes_imports_no_libcst(tmp_path: Path) -> None:
    """The first json/sarif run (and the run after an edit) computes its fixes without libcst."""
    (tmp_path / "server.py").write_text(
        HEAD
        + "\n\ndef greeting_of(greting: str) -> str:\n    return greting.title()\n\n\n"
        + "@mcp.tool()\ndef greet(greeting: str, *, _user: Annotated[str, Resolve(current_user)] | None = None,\n"
        + "          shown: Annotated[str, Resolve(greeting_of)] = 'x') -> str:\n    return _user + shown\n",
        encoding="utf-8",
    )
    for fmt in ("json", "sarif"):
        proc = run_mcpdeps(
            "lint", ".", "--format", fmt, "--no-cache", cwd=tmp_path, env={"PYTHONPROFILEIMPORTTIME": "1"}
        )
        imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line}
        assert "libcst" not in imported, fmt
        if fmt == "json":
            assert proc.stdout.count('"fix": {') == 4, proc.stdout  # MCPD002, MCPD003, MCPD006, MCPD111
