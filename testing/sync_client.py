"""`TestClient`: `AsyncTestClient` for plain (non-async) tests, run on an event loop in a thread.

A test function then needs no async plugin, as with FastAPI's and Starlette's
`TestClient`: each call is sent through anyio's blocking portal and waits for its record.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, Literal

from .client import AnswersLike, AsyncTestClient, ClientOptions, Protocol
from .naming import ResolverRef
from .record import CallRecord
from .rewiring import Replacement

if TYPE_CHECKING:
    from mcp.server import MCPServer
    from mcp.server.auth.provider import AccessToken
    from typing_extensions import Unpack


class TestClient:
    """`with TestClient(server) as client: call = client.call("order_book", title="Dune")`.

    Same arguments and methods as `AsyncTestClient`, without `await`.
    """

    __test__ = False  # not a test class, whatever pytest's `Test*` pattern says

    def __init__(self, server: MCPServer, **options: Unpack[ClientOptions]) -> None:
        self.async_client = AsyncTestClient(server, **options)
        self._stack: ExitStack | None = None
        self._portal: Any = None

    @property
    def protocol(self) -> Protocol:
        return self.async_client.protocol

    def override(self, resolver: ResolverRef, replacement: Replacement | Any) -> None:
        """See `AsyncTestClient.override`."""
        if self._portal is not None:
            self._portal.call(self._override_now, resolver, replacement)
        else:
            self.async_client.override(resolver, replacement)

    async def _override_now(self, resolver: ResolverRef, replacement: Replacement | Any) -> None:
        self.async_client.override(resolver, replacement)

    def answer(self, resolver: ResolverRef, answer: Mapping[str, Any]) -> None:
        """See `AsyncTestClient.answer`."""
        self.async_client.answer(resolver, answer)

    def __enter__(self) -> TestClient:
        from anyio.from_thread import start_blocking_portal

        with ExitStack() as stack:
            self._portal = stack.enter_context(start_blocking_portal())
            stack.enter_context(self._portal.wrap_async_context_manager(self.async_client))
            self._stack = stack.pop_all()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        stack, self._stack, self._portal = self._stack, None, None
        if stack is not None:
            stack.__exit__(*exc_info)

    def _run(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        if self._portal is None:
            raise RuntimeError("Open the test client first (`with TestClient(server) as client`).")
        return self._portal.call(functools.partial(fn, *args, **kwargs))

    def call(
        self,
        tool: str,
        arguments: Mapping[str, Any] | None = None,
        /,
        *,
        answers: AnswersLike = None,
        access_token: AccessToken | Literal["client"] | None = "client",
        **kwargs: Any,
    ) -> CallRecord:
        """See `AsyncTestClient.call`."""
        record: CallRecord = self._run(
            self.async_client.call, tool, arguments, answers=answers, access_token=access_token, **kwargs
        )
        return record

    def input_schema(self, tool: str) -> dict[str, Any]:
        """The tool's input schema as `tools/list` reports it."""
        schema: dict[str, Any] = self._run(self.async_client.input_schema, tool)
        return schema
