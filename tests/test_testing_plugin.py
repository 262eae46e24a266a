"""The `mcpdeps` pytest plugin as a user meets it (pytester): the seed's bookshop tested with `mcp_client`.

The bookshop is `examples/bookshop/server.py`, copied into each pytester project as a
user's own module; its first tests are the README's own code block.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

pytest_plugins = ["pytester"]

BOOKSHOP = (REPO / "examples" / "bookshop" / "server.py").read_text()


def readme_tests() -> str:
    """The bookshop's tests as the README shows them: the test runs exactly what users read."""
    section = (REPO / "README.md").read_text().split("### Testing a tool: `mcpdeps.testing`", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


@pytest.fixture(scope="module", autouse=True)
def sdk_loaded() -> None:
    """Everything a call imports, imported here first: pytester's in-process runs then keep it.

    Each run removes the modules it imported; the SDK's `cryptography` cannot be imported a
    second time into one process, so it must not be among them.
    """
    from mcpdeps.testing import PROTOCOLS, TestClient

    spec = importlib.util.spec_from_file_location(
        "warm_up_bookshop", REPO / "examples" / "bookshop" / "server.py"
    )
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    for protocol in PROTOCOLS:
        with TestClient(example.mcp, protocol=protocol) as client:
            client.call(
                "order_book", title="Neuromancer", answers={"confirm_backorder": {"action": "decline"}}
            )


@pytest.fixture
def bookshop(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(bookshop=BOOKSHOP)
    pytester.syspathinsert()
    return pytester


def test_the_bookshop_tests_pass_in_both_protocol_modes(bookshop: pytest.Pytester) -> None:
    bookshop.makepyfile(test_bookshop=readme_tests())
    result = bookshop.runpytest("-v", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=10)
    result.stdout.fnmatch_lines(["*test_in_stock?legacy? PASSED*", "*test_in_stock?2026-07-28? PASSED*"])


def test_an_override_is_undone_when_its_test_fails(bookshop: pytest.Pytester) -> None:
    bookshop.makepyfile(
        test_bookshop="""
        import pytest
        from bookshop import Stock, check_stock, mcp

        @pytest.fixture
        def mcp_server():
            return mcp

        def test_fails_with_a_fake_inventory(mcp_client):
            mcp_client.override(check_stock, lambda title: Stock(title=title, copies=0))
            assert mcp_client.call("reserve_book", title="Dune").text == "never"

        def test_a_later_test_sees_the_real_inventory(mcp_client):
            call = mcp_client.call("reserve_book", title="Dune")
            assert call.text == "Reserved 'Dune' (6 copies left)."
        """
    )
    result = bookshop.runpytest("-p", "no:cacheprovider", "-p", "no:randomly")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(["*'Dune' is out of stock.*"])


def test_an_unanswered_question_fails_the_test_with_its_text(bookshop: pytest.Pytester) -> None:
    bookshop.makepyfile(
        test_bookshop="""
        import pytest
        from bookshop import mcp

        @pytest.fixture
        def mcp_server():
            return mcp

        @pytest.mark.mcp_protocol("2026-07-28")
        def test_nobody_answers(mcp_client):
            mcp_client.call("order_book", title="Neuromancer")
        """
    )
    result = bookshop.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*UnansweredQuestion: bookshop:confirm_backorder asks the user: "
            "\"'Neuromancer' is out of stock (2-3 weeks). Order anyway?\", and the test gives no answer for it.*"
        ]
    )


def test_the_protocol_marker_narrows_the_modes_and_checks_its_values(bookshop: pytest.Pytester) -> None:
    bookshop.makepyfile(
        test_bookshop="""
        import pytest
        from bookshop import mcp

        pytestmark = pytest.mark.mcp_protocol("legacy")

        @pytest.fixture
        def mcp_server():
            return mcp

        def test_legacy_only(mcp_client, mcp_protocol):
            assert mcp_protocol == "legacy"
            assert mcp_client.call("reserve_book", title="Dune").rounds == 1
        """
    )
    bookshop.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
    bookshop.makepyfile(
        test_bad="""
        import pytest

        @pytest.mark.mcp_protocol("2025-11-25")
        def test_x(mcp_client):
            pass
        """
    )
    result = bookshop.runpytest("-p", "no:cacheprovider", "test_bad.py")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*mcp_protocol takes one or more of 'legacy', '2026-07-28'*gives '2025-11-25'*"]
    )


def test_without_a_server_fixture_the_failure_says_what_to_write(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_x(mcp_client):\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(
        ["*mcp_client needs the server under test: define a fixture named `mcp_server`*"]
    )


def test_a_run_that_uses_no_fixture_imports_three_small_modules_and_not_the_sdk(tmp_path: Path) -> None:
    (tmp_path / "test_plain.py").write_text(
        "import sys\n\ndef test_plain():\n"
        "    assert not {'mcp', 'mcp_types', 'anyio', 'pydantic'} & set(sys.modules)\n"
        "    ours = sorted(m for m in sys.modules if m.startswith('mcpdeps'))\n"
        "    assert ours == ['mcpdeps', 'mcpdeps.testing', 'mcpdeps.testing.plugin'], ours\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:asyncio",
         "-p", "no:anyio", "-p", "no:pytest_lsp", "-p", "no:hypothesispytest", "test_plain.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_an_async_test_uses_the_async_client(bookshop: pytest.Pytester) -> None:
    bookshop.makepyfile(
        test_bookshop="""
        import pytest
        from bookshop import Stock, check_stock, mcp
        from mcpdeps.testing import AsyncTestClient

        pytestmark = pytest.mark.anyio

        @pytest.fixture
        def anyio_backend():
            return "asyncio"

        async def test_backordered_with_a_fake_inventory():
            async with AsyncTestClient(mcp, protocol="2026-07-28") as client:
                client.override(check_stock, lambda title: Stock(title=title, copies=0))
                call = await client.call("order_book", title="Dune", answers={"confirm_backorder": {"action": "accept", "content": {"confirm": True}}})
            assert call.text == "Backordered 'Dune'; it would arrive in 2-3 weeks."
            assert (call.rounds, call.runs["confirm_backorder"]) == (2, 2)
        """
    )
    bookshop.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
