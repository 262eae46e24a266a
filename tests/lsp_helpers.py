"""A real LSP client (pytest-lsp) driving `python -m mcpdeps lsp` over stdio, and the helpers
the language-server tests share: documents, waiting for diagnostics, `lint --format json`
for the same files (the oracle the published diagnostics must equal)."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES


def _client() -> LanguageClient:
    """pytest-lsp's client, also keeping the document version each publication was made for,
    and the codes of every publication per document (`history`)."""
    client = LanguageClient(converter_factory=default_converter)
    client.published_versions = {}  # type: ignore[attr-defined]
    client.history = {}  # type: ignore[attr-defined]
    for method, func in DEFAULT_CLIENT_FEATURES.items():
        if method != types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS:
            client.feature(method)(func)

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        client.published_versions[params.uri] = params.version  # type: ignore[attr-defined]
        client.history.setdefault(params.uri, []).append([d.code for d in params.diagnostics])  # type: ignore[attr-defined]

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(client: LanguageClient, params: types.RegistrationParams) -> None:
        client.registrations = [r.method for r in params.registrations]  # type: ignore[attr-defined]

    return client


SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "mcpdeps", "lsp"], client_factory=_client)
DEBOUNCE_MS = 30
TIMEOUT = 20.0


def session_on_root() -> Any:
    """A `client` fixture for a module whose `root` fixture is the workspace: a session started
    there (`start`), shut down after the test. Bound in the module (`client = session_on_root()`):
    pytest finds a fixture by the module's names."""

    @pytest_lsp.fixture(config=SERVER)
    async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
        await start(lsp_client, request.getfixturevalue("root"))
        yield
        await lsp_client.shutdown_session()

    return client


async def start(client: LanguageClient, root: Path | None, **options: Any) -> None:
    """Initialize a session on `root` (None: no workspace, a lone file opened) with file
    watching (as editors do) and a short debounce."""
    capabilities = types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)
        ),
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True, version_support=True
            )
        ),
    )
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            root_uri=root.as_uri() if root is not None else None,
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)]
            if root is not None
            else None,
            initialization_options={"debounceMs": DEBOUNCE_MS, **options},
        )
    )


class Docs:
    """Open documents of one session, with their versions."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.versions: dict[str, int] = {}

    def open(self, path: Path, text: str | None = None) -> str:
        uri = path.as_uri()
        self.versions[uri] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="python", version=1, text=path.read_text() if text is None else text
                )
            )
        )
        return uri

    def change(self, path: Path, text: str) -> int:
        """Replace the unsaved text (nothing is written); returns the new version."""
        uri = path.as_uri()
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return self.versions[uri]

    def close(self, path: Path) -> None:
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
        )
        self.versions.pop(path.as_uri(), None)

    def files_changed(self, *changes: tuple[Path, types.FileChangeType]) -> None:
        self.client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=p.as_uri(), type=kind) for p, kind in changes]
            )
        )


def as_lint(root: Path, uri: str, d: types.Diagnostic) -> dict[str, Any]:
    """An LSP diagnostic in `lint --format json`'s terms (ASCII files: units are characters)."""
    path = Path(uri.removeprefix("file://")).relative_to(root).as_posix()
    assert d.code_description is not None and d.code_description.href.endswith(f"#{str(d.code).lower()}")
    severity = {1: "error", 2: "warning", 3: "information"}[int(d.severity or 1)]
    return {
        "code": d.code,
        "name": d.data["name"],
        "severity": "info" if severity == "information" else severity,
        "message": d.message,
        "path": path,
        "line": d.range.start.line + 1,
        "column": d.range.start.character + 1,
        "end_line": d.range.end.line + 1,
        "end_column": d.range.end.character + 1,
        "tool": d.data["tool"],
        "related": [
            {
                "path": Path(r.location.uri.removeprefix("file://")).relative_to(root).as_posix(),
                "line": r.location.range.start.line + 1,
                "column": r.location.range.start.character + 1,
                "message": r.message,
            }
            for r in d.related_information or []
        ],
    }


def published(client: LanguageClient, root: Path) -> list[dict[str, Any]]:
    """Everything the client holds now, as lint JSON, in the contract's order."""
    out = [as_lint(root, uri, d) for uri, ds in client.diagnostics.items() for d in ds]
    return sorted(
        out, key=lambda d: (d["path"], d["line"], d["column"], d["code"], d["tool"] or "", d["message"])
    )


def lint_json(root: Path, *args: str) -> list[dict[str, Any]]:
    """`mcpdeps lint --format json .` in `root`, without `fix` (the server offers fixes as code actions)."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mcpdeps",
            "lint",
            "--format",
            "json",
            "--exit-zero",
            "--no-cache",
            *args,
            ".",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return [{k: v for k, v in d.items() if k != "fix"} for d in json.loads(proc.stdout)["diagnostics"]]


async def eventually(
    check: Callable[[], Any], what: str, timeout: float = TIMEOUT
) -> Any:  # pragma: no cover - helper
    """Wait until `check()` returns something truthy (the server publishes as it goes)."""
    deadline = asyncio.get_running_loop().time() + timeout
    last: Any = None
    while asyncio.get_running_loop().time() < deadline:
        last = check()
        if last:
            return last
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def settle(client: LanguageClient, root: Path, expected: Sequence[dict[str, Any]]) -> None:
    """Wait until the published diagnostics equal `expected`; on timeout show the difference."""
    try:
        await eventually(lambda: published(client, root) == list(expected), "the expected diagnostics")
    except AssertionError:
        assert published(client, root) == list(expected)


def codes(client: LanguageClient, path: Path) -> list[str]:
    return sorted(str(d.code) for d in client.diagnostics.get(path.as_uri(), []))


async def at_version(client: LanguageClient, path: Path, version: int) -> list[types.Diagnostic]:
    """The diagnostics published for this version of an open document (waits for them)."""
    uri = path.as_uri()
    await eventually(
        lambda: client.published_versions.get(uri) == version, f"diagnostics of {path.name} v{version}"
    )  # type: ignore[attr-defined]
    return list(client.diagnostics[uri])


class RawSession:
    """`mcpdeps lsp` driven byte by byte (for bad input, and to read its stderr whole)."""

    def __init__(self, root: Path, *python_flags: str, args: Sequence[str] = ()) -> None:
        import threading

        self.proc = subprocess.Popen(
            [sys.executable, *python_flags, "-m", "mcpdeps", "lsp", *args],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.root = root
        self.messages: list[dict[str, Any]] = []
        self.arrived: list[float] = []
        """`time.perf_counter()` when each message was read."""
        self.stdout_rest = b""
        self._lock = threading.Condition()
        self._write_lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._next_id = 0
        self._seen = 0

    def _read(self) -> None:
        """Every frame the server writes; anything that is not a frame is kept in `stdout_rest`."""
        assert self.proc.stdout is not None
        stream = self.proc.stdout
        while True:
            header = stream.readline()
            if not header:
                return
            if not header.startswith(b"Content-Length: "):
                self.stdout_rest += header
                continue
            length = int(header.split(b":")[1])
            while (line := stream.readline()) not in (b"\r\n", b""):
                if not line.startswith(b"Content-Type: "):
                    self.stdout_rest += line
            body = stream.read(length)
            message = json.loads(body)
            with self._lock:
                self.messages.append(message)
                self.arrived.append(time.perf_counter())
                self._lock.notify_all()
            if "id" in message and "method" in message:  # a request to the client: accept it
                self._write({"jsonrpc": "2.0", "id": message["id"], "result": None})

    def send_bytes(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        with self._write_lock:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

    def _write(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        self.send_bytes(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    def send(self, method: str, params: Any = None, *, request: bool = False) -> int | None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        ident = None
        if request:
            self._next_id += 1
            ident = message["id"] = self._next_id
        self._write(message)
        return ident

    def wait(self, match: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT) -> dict[str, Any]:
        return self.messages[self.wait_index(match, timeout)]

    def wait_index(
        self, match: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT, start: int = 0
    ) -> int:
        """The index of the first message from `start` on that matches (waits for it)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                found = next((i for i in range(start, len(self.messages)) if match(self.messages[i])), None)
                if found is not None:
                    return found
                start = len(self.messages)  # those did not match; look at newer ones only
                left = deadline - time.monotonic()
                if left <= 0:
                    methods = [m.get("method", m.get("id")) for m in self.messages[-20:]]
                    raise AssertionError(f"no such message; the last ones: {methods}")
                self._lock.wait(left)

    def request(self, method: str, params: Any = None) -> dict[str, Any]:
        ident = self.send(method, params, request=True)
        return self.wait(lambda m: m.get("id") == ident and "method" not in m)

    def initialize(self, debounce_ms: int = 10, capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        reply = self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": self.root.as_uri(),
                "capabilities": capabilities or {},
                "initializationOptions": {"debounceMs": debounce_ms},
            },
        )
        self.send("initialized", {})
        return reply

    def open(self, path: Path) -> None:
        self.send(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": path.as_uri(),
                    "languageId": "python",
                    "version": 1,
                    "text": path.read_text(),
                }
            },
        )

    def change(self, path: Path, version: int, text: str) -> None:
        """The document's whole new (unsaved) text."""
        self.send(
            "textDocument/didChange",
            {"textDocument": {"uri": path.as_uri(), "version": version}, "contentChanges": [{"text": text}]},
        )

    def published(self, path: Path, version: int, timeout: float = TIMEOUT) -> float:
        """When the diagnostics of this version of `path` arrived (`time.perf_counter()`)."""
        uri = path.as_uri()

        def match(m: dict[str, Any]) -> bool:
            if m.get("method") != "textDocument/publishDiagnostics":
                return False
            return m["params"]["uri"] == uri and m["params"].get("version") == version

        index = self.wait_index(match, timeout, start=self._seen)
        self._seen = index
        return self.arrived[index]

    def diagnostics(self, path: Path) -> list[dict[str, Any]]:
        uri = path.as_uri()
        found = self.wait(
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
        )
        return found["params"]["diagnostics"]

    def finish(self, timeout: float = TIMEOUT) -> tuple[int, str]:
        """Shut down and exit politely; returns the exit code and the whole of stderr."""
        try:
            self.request("shutdown")
            self.send("exit")
        except (AssertionError, BrokenPipeError, OSError):
            pass
        return self.close(timeout)

    def close(self, timeout: float = TIMEOUT) -> tuple[int, str]:
        """Close stdin (the client went away) and wait for the server to end."""
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        code = self.proc.wait(timeout)
        self._reader.join(timeout)
        assert self.proc.stderr is not None
        return code, self.proc.stderr.read().decode(errors="replace")


async def quick_fixes(
    client: LanguageClient, path: Path, diagnostic: types.Diagnostic
) -> list[types.CodeAction]:
    """The code actions the server offers for one published diagnostic, as an editor asks."""
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    assert actions is not None
    return [a for a in actions if isinstance(a, types.CodeAction)]


def fixed_by_lint(root: Path, relative: str) -> str:
    """`relative` as `mcpdeps lint --fix` rewrites it, in a copy of `root` beside it: the
    text an editor's fix must equal."""
    from conftest import run_mcpdeps

    expected = root.with_name(f"{root.name}-expected")
    shutil.copytree(root, expected)
    run_mcpdeps("lint", "--fix", "--no-cache", relative, cwd=expected)
    return (expected / relative).read_text()
