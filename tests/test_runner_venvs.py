"""The user's server runs in the user's environment: mcpdeps installed on its own, the server elsewhere.

Real venvs (`tests/venv_tools.py`, built once per machine): mcpdeps' wheel with its
dependencies in one (as pipx or `uv tool install` install it), and a project venv with
the SDK and a small local distribution (`shelf_catalog`) the server imports, but none
of mcpdeps' own packages (typer, rich, libcst...). The bookshop, with its inventory
imported from `shelf_catalog`, is served over stdio and HTTP to the SDK's `Client`,
called with `mcpdeps call` (the `order_book` elicitation), and graphed live; the
interpreter is given with `--python` or found (VIRTUAL_ENV, `.venv/`). Interpreters
with mcp 1.x or no mcp are refused before anything of the server is imported.

Parallel-safe: venvs are built under file locks, every project lives in its own temporary
folder, every HTTP server on a free port.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import pytest
from conftest import EXAMPLES, default_sigint
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from test_serve_support import FIXTURES, ElicitationAnswers, free_port, port_is_open, text_of
from venv_tools import CACHE, local_wheel, mcpdeps_tool_venv, python_of, venv

SDK = importlib.metadata.version("mcp")
BOOKSHOP = EXAMPLES / "bookshop" / "server.py"
LOCAL_INVENTORY = 'INVENTORY = {"Dune": 7, "Neuromancer": 0}'
IMPORTED = "from shelf_catalog import INVENTORY  # only the project's venv has shelf_catalog"
ACCEPT = {"confirm_backorder": {"action": "accept", "content": {"confirm": True}}}
TIMEOUT = 120


# ----------------------------------------------------------------------------- environments


@pytest.fixture(scope="module")
def tool() -> Path:
    """mcpdeps installed from its wheel into a venv of its own."""
    return mcpdeps_tool_venv()


@pytest.fixture(scope="module")
def project_venv() -> Path:
    """The SDK (with its dependencies) and `shelf_catalog`; nothing else of mcpdeps'."""
    dists = CACHE / "dists"
    dists.mkdir(parents=True, exist_ok=True)
    catalog = local_wheel(
        dists, "shelf_catalog", "1.0", {"shelf_catalog/__init__.py": LOCAL_INVENTORY + "\n"}
    )
    return venv("project", [f"mcp=={SDK}"], no_deps=[catalog])


@pytest.fixture(scope="module")
def old_sdk_venv() -> Path:
    """mcp 1.x from the registry (metadata is all the check reads: no dependencies needed)."""
    return venv("mcp1", no_deps=["mcp<2"])


@pytest.fixture(scope="module")
def no_sdk_venv() -> Path:
    return venv("no-mcp")


@dataclass(frozen=True)
class Shop:
    """A project folder holding the bookshop, and how mcpdeps is told (or finds) its interpreter."""

    root: Path
    args: tuple[str, ...]
    env: dict[str, str]
    interpreter: Path
    """The interpreter mcpdeps must name."""
    extra: dict[str, str] = field(default_factory=dict)


def _write_shop(root: Path, *, marker: bool = False) -> None:
    root.mkdir(parents=True, exist_ok=True)
    text = BOOKSHOP.read_text(encoding="utf-8")
    assert LOCAL_INVENTORY in text
    server = text.replace(LOCAL_INVENTORY, IMPORTED)
    if marker:  # importing the server leaves a file behind: "nothing started" is checkable
        server = server.replace(
            IMPORTED, 'import pathlib\npathlib.Path(__file__).with_name("IMPORTED").write_text("")'
        )
        server = server.replace("INVENTORY.get(title, 0)", "{'Dune': 7}.get(title, 0)")
    (root / "server.py").write_text(server, encoding="utf-8")
    (root / "plain.py").write_text(text, encoding="utf-8")  # imports only what mcpdeps has too
    (root / "pyproject.toml").write_text('[project]\nname = "shop"\nversion = "0"\n', encoding="utf-8")


@pytest.fixture(scope="module", params=["--python", ".venv", "VIRTUAL_ENV"])
def shop(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, project_venv: Path
) -> Shop:
    root = tmp_path_factory.mktemp("shop")
    _write_shop(root)
    python = python_of(project_venv)
    if request.param == "--python":
        return Shop(root, ("--python", str(python)), {}, python)
    if request.param == ".venv":
        (root / ".venv").symlink_to(project_venv, target_is_directory=True)
        return Shop(root, (), {}, root / ".venv" / "bin" / "python")
    return Shop(root, (), {"VIRTUAL_ENV": str(project_venv)}, python)


def _env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "FORCE_COLOR")}
    return {**env, "NO_COLOR": "1", "COLUMNS": "120", "PYTHONUNBUFFERED": "1", **extra}


def _mcpdeps(
    tool: Path | None, *args: str | Path, cwd: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """The installed console script of `tool`, else the checkout's (editable) `python -m mcpdeps`."""
    command = [str(tool / "bin" / "mcpdeps")] if tool is not None else [sys.executable, "-m", "mcpdeps"]
    return subprocess.run(
        [*command, *map(str, args)],
        cwd=cwd,
        env=_env(env),
        capture_output=True,
        text=True,
        input="",
        timeout=TIMEOUT,
    )


# ----------------------------------------------------------------------------- the environments


def test_the_project_venv_has_the_sdk_and_shelf_catalog_but_nothing_of_mcpdeps(project_venv: Path) -> None:
    probe = (
        "import importlib.util, json; "
        "print(json.dumps({n: importlib.util.find_spec(n) is not None for n in "
        "['mcp', 'shelf_catalog', 'mcpdeps', 'typer', 'rich', 'libcst', 'watchfiles', 'dotenv']}))"
    )
    found = json.loads(subprocess.check_output([python_of(project_venv), "-c", probe], text=True, cwd="/"))
    assert found == {
        "mcp": True,
        "shelf_catalog": True,
        "mcpdeps": False,
        "typer": False,
        "rich": False,
        "libcst": False,
        "watchfiles": False,
        "dotenv": False,
    }


def test_the_tool_venv_lacks_shelf_catalog(tool: Path) -> None:
    done = subprocess.run([python_of(tool), "-c", "import shelf_catalog"], capture_output=True, cwd="/")
    assert done.returncode == 1


# ----------------------------------------------------------------------------- graph --live


def _graph_live_equals_static(tool: Path | None, shop: Shop) -> None:
    static = _mcpdeps(tool, "graph", "server.py", "-f", "json", cwd=shop.root, env=shop.env)
    live = _mcpdeps(
        tool, "graph", "--live", "server.py", "-f", "json", *shop.args, cwd=shop.root, env=shop.env
    )
    assert live.returncode == 0, live.stderr
    assert json.loads(live.stdout) == json.loads(static.stdout)
    assert f"the server runs under {shop.interpreter}" in live.stderr
    tree = _mcpdeps(tool, "graph", "--live", "server.py", *shop.args, cwd=shop.root, env=shop.env)
    static_tree = _mcpdeps(tool, "graph", "server.py", cwd=shop.root, env=shop.env)
    assert tree.returncode == 0, tree.stderr
    assert tree.stdout.startswith("live graph:") and static_tree.stdout.startswith("static graph:")
    # Below the header that says which it is, the trees are the same.
    assert tree.stdout.split("\n", 1)[1] == static_tree.stdout.split("\n", 1)[1]


def test_graph_live_under_the_project_interpreter_equals_the_static_graph(tool: Path, shop: Shop) -> None:
    _graph_live_equals_static(tool, shop)


def test_a_server_mcpdeps_can_import_stays_in_its_process(tool: Path, shop: Shop) -> None:
    live = _mcpdeps(tool, "graph", "--live", "plain.py", "-f", "json", cwd=shop.root, env=shop.env)
    assert live.returncode == 0, live.stderr
    assert "runs under" not in live.stderr


@pytest.mark.parametrize(
    "command", [("graph", "--live", "server.py"), ("call", "server.py", "order_book", "--arg", "title=Dune")]
)
def test_without_a_project_environment_the_error_says_what_is_missing(
    command: tuple[str, ...], tool: Path, tmp_path: Path
) -> None:
    _write_shop(tmp_path)
    done = _mcpdeps(tool, *command, cwd=tmp_path, env={})
    assert done.returncode == 2, done.stderr
    assert "No module named 'shelf_catalog'" in done.stderr
    assert "which lacks shelf_catalog, and found no project environment" in done.stderr
    assert "--python PATH" in done.stderr and "Traceback" not in done.stderr


# ----------------------------------------------------------------------------- call


def _call_orders_a_backordered_book(tool: Path | None, shop: Shop, tmp_path: Path) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(ACCEPT), encoding="utf-8")
    done = _mcpdeps(
        tool, "call", "server.py", "order_book", "--arg", "title=Neuromancer", "--answers", answers,
        *shop.args, cwd=shop.root, env=shop.env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Backordered 'Neuromancer'" in done.stdout
    assert ":confirm_backorder · elicitation · answered by answers file" in done.stdout
    assert 'accept {"confirm": true}' in done.stdout
    assert f"the server runs under {shop.interpreter}" in done.stderr


def test_call_runs_the_order_book_elicitation_under_the_project_interpreter(
    tool: Path, shop: Shop, tmp_path: Path
) -> None:
    _call_orders_a_backordered_book(tool, shop, tmp_path)


# ----------------------------------------------------------------------------- serve


async def _order_through(target: object) -> None:
    answers = ElicitationAnswers({"confirm": True})
    with anyio.fail_after(60):
        async with Client(target, elicitation_callback=answers) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            assert {"reserve_book", "order_book"} <= tools
            ordered = await client.call_tool("order_book", {"title": "Neuromancer"})
            assert not ordered.is_error, text_of(ordered)
            assert "Backordered 'Neuromancer'" in text_of(ordered)
            assert answers.asked == ["'Neuromancer' is out of stock (2-3 weeks). Order anyway?"]


def test_serve_stdio_answers_the_sdk_client(tool: Path, shop: Shop) -> None:
    params = StdioServerParameters(
        command=str(tool / "bin" / "mcpdeps"),
        args=["serve", "server.py", *shop.args],
        cwd=shop.root,
        env=_env(shop.env),
    )
    anyio.run(_order_through, params)


@contextlib.contextmanager
def _serving_http(
    tool: Path | None, args: Sequence[str | Path], cwd: Path, env: dict[str, str], log: Path
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """`mcpdeps serve ARGS -t http` on a free port until the block ends; then one SIGINT to mcpdeps."""
    port = free_port()
    command = [str(tool / "bin" / "mcpdeps")] if tool is not None else [sys.executable, "-m", "mcpdeps"]
    with open(log, "wb") as err:
        proc = subprocess.Popen(
            [*command, "serve", *map(str, args), "-t", "http", "--port", str(port)],
            cwd=cwd,
            env=_env(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
            preexec_fn=default_sigint,
        )
    try:
        for _ in range(1200):
            assert proc.poll() is None, log.read_text(encoding="utf-8")
            if port_is_open(port):
                break
            time.sleep(0.1)
        yield proc, f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_serve_http_answers_the_sdk_client_and_names_the_interpreter(
    tool: Path, shop: Shop, tmp_path: Path
) -> None:
    log = tmp_path / "serve.log"
    with _serving_http(tool, ["server.py", *shop.args], shop.root, shop.env, log) as (proc, url):
        anyio.run(_order_through, url)
    assert proc.returncode == 130, log.read_text(encoding="utf-8")  # stopped by Ctrl+C (SIGINT)
    banner = log.read_text(encoding="utf-8")
    assert "Bookshop" in banner and "order_book" in banner
    assert f"python     {shop.interpreter}" in banner
    assert "mcpdeps serve: stopped" in banner


# ----------------------------------------------------------------------------- the checkout's mcpdeps


@pytest.fixture(scope="module")
def given(tmp_path_factory: pytest.TempPathFactory, project_venv: Path) -> Shop:
    root = tmp_path_factory.mktemp("shop-editable")
    _write_shop(root)
    return Shop(root, ("--python", str(python_of(project_venv))), {}, python_of(project_venv))


def test_an_editable_install_loads_itself_by_path_there_too(given: Shop, tmp_path: Path) -> None:
    """The runner's package root is the repository in an editable install: same behaviour."""
    _graph_live_equals_static(None, given)
    _call_orders_a_backordered_book(None, given, tmp_path)


def _runners_in(folder: Path) -> list[int]:
    """Processes running the runner's boot.py in `folder` (none must outlive mcpdeps)."""
    from mcpdeps.cli.runner import BOOT

    found = []
    for proc in Path("/proc").iterdir():
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
            if str(BOOT).encode() in cmdline and Path(os.readlink(proc / "cwd")) == folder:
                found.append(int(proc.name))
        except (OSError, ValueError):
            continue
    return found


def test_reload_restarts_the_runner_under_the_project_interpreter(given: Shop, tmp_path: Path) -> None:
    log = tmp_path / "reload.log"
    with _serving_http(None, ["server.py", "--reload", *given.args], given.root, {}, log) as (proc, url):
        anyio.run(_order_through, url)
    assert proc.returncode == 130, log.read_text(encoding="utf-8")  # stopped by Ctrl+C (SIGINT)
    text = log.read_text(encoding="utf-8")
    assert f"python     {given.interpreter}" in text
    assert "Started by --reload" in text
    assert _runners_in(given.root) == [], "the runner outlived mcpdeps"


@pytest.fixture(scope="module")
def trips(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("trips")
    for name in ("server.py", "default_key.py"):
        (root / name).write_text((FIXTURES / "workers" / name).read_text(encoding="utf-8"), encoding="utf-8")
    return root


def test_workers_run_under_the_project_interpreter(trips: Path, project_venv: Path, tmp_path: Path) -> None:
    """uvicorn's spawned workers re-run the runner's boot.py there, and the key probe runs there too."""
    from test_serve_workers import _call_once

    python = python_of(project_venv)
    pids = tmp_path / "pids.log"
    env = {"MCP_STATE_KEY": secrets.token_hex(32), "MCPDEPS_TEST_PID_LOG": str(pids)}
    log = tmp_path / "workers.log"
    args = ["server.py", "--workers", "2", "--python", python]
    with _serving_http(None, args, trips, env, log) as (proc, url):
        text = anyio.run(_call_once, url)
        worker = int(text.rsplit("worker ", 1)[1].rstrip(")."))
        executable = (Path("/proc") / str(worker) / "cmdline").read_bytes().split(b"\0")[0].decode()
    assert executable == str(python), "a worker of another interpreter answered"
    assert proc.returncode == 130, log.read_text(encoding="utf-8")  # stopped by Ctrl+C (SIGINT)
    refused = _mcpdeps(
        None, "serve", "default_key.py", "-t", "http", "--workers", "2", "--python", python, cwd=trips, env={}
    )
    assert refused.returncode == 2, refused.stderr
    assert "--workers 2 needs request state sealed with keys every worker shares" in refused.stderr


# ----------------------------------------------------------------------------- wrong SDK


@pytest.fixture(scope="module")
def marked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("marked")
    _write_shop(root, marker=True)
    return root


COMMANDS = {
    "serve stdio": ("serve", "server.py"),
    "serve http": ("serve", "server.py", "--transport", "http", "--port", "0"),
    "call": ("call", "server.py", "order_book", "--arg", "title=Dune"),
    "graph --live": ("graph", "--live", "server.py"),
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("sdk", ["mcp 1.x", "no mcp"])
def test_a_wrong_sdk_is_one_paragraph_and_nothing_starts(
    command: str, sdk: str, marked: Path, request: pytest.FixtureRequest
) -> None:
    environment = request.getfixturevalue("old_sdk_venv" if sdk == "mcp 1.x" else "no_sdk_venv")
    python = python_of(environment)
    done = _mcpdeps(None, *COMMANDS[command], "--python", python, cwd=marked, env={})
    assert done.returncode == 2, done.stdout + done.stderr
    message = done.stderr.strip()
    assert message.startswith("mcpdeps: error: ") and "\n" not in message, message
    assert str(python) in message
    if sdk == "mcp 1.x":
        found = next(
            d.metadata["Version"] for d in importlib.metadata.distributions(path=[str(_site(environment))])
        )
        assert found.startswith("1.") and f"which has mcp {found};" in message
    else:
        assert "which has no mcp package;" in message
    assert 'pip install "mcp>=2.3,<3"' in message
    assert "Nothing was started." in message
    assert "bug in mcpdeps" not in message and "Traceback" not in done.stderr
    assert not (marked / "IMPORTED").exists(), "the server was imported"
    assert "Bookshop" not in done.stderr, "no banner"


def _site(environment: Path) -> Path:
    return next((environment / "lib").glob("python*/site-packages"))


def test_python_that_is_not_an_interpreter_is_a_sentence(marked: Path) -> None:
    done = _mcpdeps(
        None, "graph", "--live", "server.py", "--python", marked / "server.py", cwd=marked, env={}
    )
    assert done.returncode == 2
    assert "--python" in done.stderr and "Traceback" not in done.stderr
    missing = _mcpdeps(None, "graph", "--live", "server.py", "--python", "nowhere/python", cwd=marked, env={})
    assert missing.returncode == 2
    assert "is not an executable file" in missing.stderr


def test_python_needs_live_for_graph(marked: Path) -> None:
    done = _mcpdeps(None, "graph", "server.py", "--python", sys.executable, cwd=marked, env={})
    assert done.returncode == 2
    assert "needs --live" in done.stderr


def test_a_port_is_not_checked_before_the_sdk(old_sdk_venv: Path, marked: Path) -> None:
    """The SDK check comes first: even a busy port is not what the user hears about."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = _mcpdeps(
            None, "serve", "server.py", "-t", "http", "--port", port, "--python", python_of(old_sdk_venv),
            cwd=marked, env={},
        )  # fmt: skip
    assert done.returncode == 2
    assert "which has mcp 1." in done.stderr and "already in use" not in done.stderr
