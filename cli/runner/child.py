"""The runner's tasks, run by the server's interpreter (through `boot.py`): stdlib and SDK only.

- `graph OPTIONS`: import the server, build its live graph, report it.
- `serve OPTIONS`: import the server, report the banner's facts (or why it cannot start),
  then serve it on stdio (inherited stdin/stdout) or HTTP (a socket mcpdeps bound and passed).
- `keys SPEC CWD TOKEN`: the `--workers` shared-key probe (`cli/serve/keys.py`).

OPTIONS is one JSON argument. Reports are one JSON document written to the file
descriptor `result_fd` and closed (mcpdeps reads to end of file); without one, errors
are one paragraph on stderr, as `mcpdeps` prints them. The lint gate, `--env-file` and
`--reload` stay in mcpdeps' process: by the time a task runs, they are done.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import traceback
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import UserError


class _Reporter:
    """Where the task's one report goes: the result pipe, else (errors only) stderr."""

    def __init__(self, fd: int | None) -> None:
        self.fd = fd

    def started(self) -> None:
        """Tell mcpdeps the task runs (one space: the report that follows is still one JSON
        document), before anything of the user's is imported: an interpreter that never gets
        here is stopped after `parent.STARTUP_TIMEOUT`, a slow import is waited for."""
        if self.fd is not None:
            os.write(self.fd, b" ")

    def send(self, report: dict[str, Any]) -> None:
        if self.fd is None:
            if "error" in report:
                sys.stderr.write(f"mcpdeps: error: {report['error']}\n")
            return
        from ...resolver_core.graph_json import escape_surrogates

        data = escape_surrogates(json.dumps(report, ensure_ascii=False)).encode("utf-8")
        with os.fdopen(self.fd, "wb") as pipe:
            pipe.write(data)
        self.fd = None


def main(argv: list[str]) -> int:
    """Run one task; its failures become a report and an exit code, never a bare traceback."""
    if not argv:
        sys.stderr.write("mcpdeps runner: no task given\n")
        return 2
    task, rest = argv[0], argv[1:]
    if task == "keys":
        from ..serve.keys import probe_main

        return probe_main(rest)
    options = json.loads(rest[0])
    reporter = _Reporter(options.get("result_fd"))
    reporter.started()
    try:
        if task == "graph":
            return _graph(options, reporter)
        if task == "serve":
            return _serve(options, reporter)
        raise UserError(f"unknown runner task {task!r}")
    except KeyboardInterrupt:
        return 0
    except UserError as exc:
        reporter.send({"error": str(exc), "exit_code": exc.exit_code})
        return exc.exit_code
    except Exception as exc:
        if options.get("verbose"):
            traceback.print_exc()
        reporter.send(
            {"error": f"the server's interpreter failed with {type(exc).__name__}: {exc}", "exit_code": 2}
        )
        return 2


def _graph(options: dict[str, Any], reporter: _Reporter) -> int:
    from ...resolver_core.graph_wire import to_wire
    from ..graph.live import import_live_graph

    reporter.send({"graph": to_wire(import_live_graph(options["spec"]))})
    return 0


def _serve(options: dict[str, Any], reporter: _Reporter) -> int:
    from ...resolver_core.graph_wire import to_wire
    from ...resolver_core.loading import LoadError, parse_spec
    from ..serve.http import HttpOptions
    from ..serve.served import Served, load_for_serving, served_graph

    http = HttpOptions(**options["http"])
    try:
        parsed = parse_spec(options["spec"], Path(http.cwd))
    except LoadError as exc:
        raise UserError(str(exc)) from exc
    loaded = load_for_serving(parsed)
    http = replace(http, spec=f"{loaded.path}:{loaded.attribute}")  # what workers import: this object
    if options["transport"] == "http" and http.workers > 1:
        from ..serve.keys import require_shared_keys

        require_shared_keys(loaded.server, http.spec, Path(http.cwd), http.workers)
    reporter.send({"served": Served.of(loaded).to_data(), "graph": to_wire(served_graph(loaded))})
    if options.get("dry"):
        return 0  # the banner's facts only (stdio with --inspector: the Inspector starts the server)
    from ..serve.logs import install as install_logs

    install_logs(http.log_level)  # one log style, as in-process (the SDK installed its own handler)
    if options["transport"] == "stdio":
        from ..serve.stdio import serve_stdio

        serve_stdio(loaded.server)  # a stop signal (forwarded by the parent) ends it at once
        return 0
    from ..serve.http import run_http

    sock = socket.socket(fileno=options["socket_fd"])
    try:
        run_http(loaded.server, http, sock)
    finally:
        sock.close()
    return 0
