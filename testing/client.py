"""`AsyncTestClient`: the SDK's in-memory `Client` on a server whose resolvers a test controls.

While the client is open, the server's tools run counting stand-ins of their resolvers
(`rewiring.py`), overrides included; closing it (an exception included) puts back what
the SDK registered. One client per server at a time: two would each rewire the other's
stand-ins.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypedDict

import anyio

from ..resolver_core.answers import AnswersFile, parse_answers, read_answers_file
from ..resolver_core.suggest import did_you_mean
from . import sdk_internals
from .answering import Answerer, UnansweredQuestion
from .identity import Identity
from .naming import ResolverIndex, ResolverRef
from .record import CallRecord, Runs
from .rewiring import OverrideError, Replacement, Rewiring, Value

if TYPE_CHECKING:
    from mcp.client import Client
    from mcp.server import MCPServer
    from mcp.server.auth.provider import AccessToken

Protocol = Literal["legacy", "2026-07-28"]
PROTOCOLS: tuple[Protocol, ...] = ("legacy", "2026-07-28")
AnswersLike = Mapping[str, Any] | str | Path | None
"""Answers in the `mcpdeps call --answers` format: a mapping, or the path of a JSON file. In a
mapping, an answer may also be the SDK's own `ElicitResult`, `CreateMessageResult` or `ListRootsResult`."""


class ClientOptions(TypedDict, total=False):
    """`AsyncTestClient`'s keyword options, which `TestClient` passes on unchanged.

    Declared as a type so that the blocking client takes exactly the async one's options
    (`**options: Unpack[ClientOptions]`): the type checker, not a copy of the signature,
    keeps the two equal. The defaults are `AsyncTestClient.__init__`'s.
    """

    protocol: Protocol
    overrides: Mapping[ResolverRef, Replacement | Any] | None
    answers: AnswersLike
    access_token: AccessToken | None


_OPEN: dict[int, object] = {}
"""Servers with an open test client (by id; the client keeps its server alive)."""


def read_answers(answers: AnswersLike) -> AnswersFile:
    """Answers from a mapping or a JSON file, through the one parser `mcpdeps call` uses."""
    if answers is None:
        return AnswersFile({})
    if isinstance(answers, str | Path):
        return read_answers_file(Path(answers))
    entries = {key: _as_entry(answer) for key, answer in answers.items()}
    return parse_answers(entries, "The answers", Path.cwd())


def _as_entry(answer: Any) -> Any:
    """An answer given as the SDK's own result object, in the answers format; anything else as is."""
    from mcp_types import CreateMessageResult, CreateMessageResultWithTools, ElicitResult, ListRootsResult

    if isinstance(answer, ElicitResult):
        return {"action": answer.action, "content": answer.content}
    if isinstance(answer, CreateMessageResult | CreateMessageResultWithTools):
        return {"result": answer.model_dump(mode="json", by_alias=True, exclude_none=True)}
    if isinstance(answer, ListRootsResult):
        return {"roots": [str(root.uri) for root in answer.roots]}
    return answer


def _merged(*layers: AnswersFile) -> AnswersFile:
    return AnswersFile({key: answer for layer in layers for key, answer in layer.root.items()})


class AsyncTestClient:
    """`async with AsyncTestClient(server) as client: call = await client.call("tool", title="Dune")`."""

    __test__ = False  # not a test class, whatever pytest's `Test*` pattern says

    def __init__(
        self,
        server: MCPServer,
        *,
        protocol: Protocol = "legacy",
        overrides: Mapping[ResolverRef, Replacement | Any] | None = None,
        answers: AnswersLike = None,
        access_token: AccessToken | None = None,
    ) -> None:
        sdk_internals.check_sdk()
        from mcp.server import MCPServer

        if not isinstance(server, MCPServer):
            raise TypeError(
                f"mcpdeps.testing tests an MCPServer (`from mcp.server import MCPServer`), not {type(server).__name__}."
            )
        if protocol not in PROTOCOLS:
            raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}, not {protocol!r}.")
        self.server = server
        self.protocol = protocol
        self.access_token = access_token
        self.index = ResolverIndex.of(server)
        self._overrides: dict[Any, Replacement] = {}
        self._answers = self._checked(read_answers(answers))
        self._rewiring = Rewiring(server, self.index, self._overrides)
        self._answerer = Answerer(self._rewiring.log)
        self._identity: Identity | None = None
        self._client: Client | None = None
        self._rounds = 0
        self._one_call = anyio.Lock()
        for ref, replacement in (overrides or {}).items():
            self.override(ref, replacement)

    # ------------------------------------------------------------------ set-up
    def override(self, resolver: ResolverRef, replacement: Replacement | Any) -> None:
        """Run `replacement` wherever the server runs `resolver`, until this client closes.

        `replacement` is a callable (its own parameters resolve as a resolver's do: tool
        arguments by name, `Context`, `Resolve(...)`) or a value (`testing.value(x)` for
        a callable value). The original never runs; the tool's input schema is unchanged.
        """
        key = self.index.find(resolver).key
        before = self._overrides.get(key)
        self._overrides[key] = (
            replacement if callable(replacement) or isinstance(replacement, Value) else Value(replacement)
        )
        if self._client is None:
            return
        try:
            self._rewiring.reinstall()
        except OverrideError:
            if before is None:
                del self._overrides[key]
            else:
                self._overrides[key] = before
            self._rewiring.install()
            raise

    def answer(self, resolver: ResolverRef, answer: Mapping[str, Any]) -> None:
        """Answer `resolver`'s question in every later call (an answers-format entry)."""
        key = self.index.find(resolver).id
        self._answers = _merged(self._answers, read_answers({key: answer}))

    def _checked(self, answers: AnswersFile) -> AnswersFile:
        """Answers whose every key names a resolver of the server: a misspelt key fails, with the close name."""
        for key in answers.root:
            self.index.find(key)
        return answers

    # --------------------------------------------------------------- lifecycle
    async def __aenter__(self) -> AsyncTestClient:
        from mcp.client import Client

        if id(self.server) in _OPEN:
            raise RuntimeError("This server already has an open mcpdeps test client; close it first.")
        _OPEN[id(self.server)] = self.server
        try:
            self._rewiring.install()
            self._identity = Identity()
            self._identity.caller.token = self.access_token
            self._identity.connect()
            client = Client(
                self.server,
                mode=self.protocol,
                elicitation_callback=self._answerer.elicit,
                sampling_callback=self._answerer.sample,
                list_roots_callback=self._answerer.list_roots,
            )
            await client.__aenter__()
        except BaseException:
            self._close_local()
            raise
        self._client = client
        sdk_internals.count_rounds(client, self._round)
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        """Close the connection and undo the rewiring; a failure of the test itself propagates on its own."""
        client, self._client = self._client, None
        try:
            if client is not None:
                await client.__aexit__(None, None, None)
        finally:
            self._close_local()

    def _close_local(self) -> None:
        self._rewiring.uninstall()
        if self._identity is not None:
            self._identity.disconnect()
            self._identity = None
        _OPEN.pop(id(self.server), None)

    def _round(self) -> None:
        self._rounds += 1

    @property
    def client(self) -> Client:
        """The SDK's own `Client` (list tools, read resources, ... directly)."""
        if self._client is None:
            raise RuntimeError("Open the test client first (`async with AsyncTestClient(server) as client`).")
        return self._client

    # ------------------------------------------------------------------- calls
    async def input_schema(self, tool: str) -> dict[str, Any]:
        """The tool's input schema as `tools/list` reports it."""
        self._known_tool(tool)
        listed = {t.name: t for t in (await self.client.list_tools()).tools}
        return dict(listed[tool].input_schema)

    async def call(
        self,
        tool: str,
        arguments: Mapping[str, Any] | None = None,
        /,
        *,
        answers: AnswersLike = None,
        access_token: AccessToken | Literal["client"] | None = "client",
        **kwargs: Any,
    ) -> CallRecord:
        """Call `tool` (arguments as a mapping or keywords) and record what happened.

        A question without an answer raises `UnansweredQuestion` (an `AssertionError`)
        with its text; a tool error is a result (`call.is_error`, `call.text`).
        """
        client = self.client
        self._known_tool(tool)
        args = {**(arguments or {}), **kwargs}
        async with self._one_call:
            self._answerer.start_call(
                (self._checked(read_answers(answers)), self._answers), self._rewiring.wire_ids.get(tool, {})
            )
            self._rewiring.log.runs.clear()
            self._rounds = 0
            assert self._identity is not None
            self._identity.calling_as(self.access_token if access_token == "client" else access_token)
            try:
                result = await client.call_tool(tool, args)
            except Exception as exc:
                if self._answerer.failure is not None:
                    raise self._answerer.failure from exc
                raise
            finally:
                self._identity.caller.token = self.access_token
            if self._answerer.failure is not None:
                raise self._answerer.failure
            runs = Runs(self._rewiring.log.runs, self.index)
            return CallRecord(
                tool,
                args,
                result,
                list(self._answerer.questions),
                self._rounds,
                runs,
                client.protocol_version,
            )

    def _known_tool(self, name: str) -> None:
        names = [t.name for t in sdk_internals.registered_tools(self.server)]
        if name not in names:
            raise LookupError(
                f"Server {self.index.server_name!r} has no tool {name!r}{did_you_mean(name, names)}. "
                f"Its tools: {', '.join(names) or 'none'}."
            )


__all__ = ["PROTOCOLS", "AsyncTestClient", "Protocol", "UnansweredQuestion", "read_answers"]
