"""A forked `mcpdeps` run (`tests/forked_cli.py`) is a fresh `python -m mcpdeps` run, byte for byte.

Most of the suite's runs are forked from a zygote that has already imported the command
line. That is only sound if a test cannot tell the difference, so each case here runs the
same command line both ways, in the same folder and environment, and compares the return
code, both outputs and (for `new` and `--fix`) the files left behind.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import forked_cli
import pytest
from conftest import EXAMPLES, REPO, run_mcpdeps

BASE = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
BASE.pop("FORCE_COLOR", None)
COLOUR = {**{k: v for k, v in os.environ.items() if k != "NO_COLOR"}, "FORCE_COLOR": "1", "COLUMNS": "90"}

CASES: list[tuple[str, list[str], str | None]] = [
    ("lint-full", ["lint", "--no-cache", "bookshop", "broken"], None),
    ("lint-cached", ["lint", "--cache-dir", ".c", "broken"], None),
    ("lint-json", ["lint", "--no-cache", "--format", "json", "broken"], None),
    ("lint-sarif", ["lint", "--no-cache", "--format", "sarif", "broken"], None),
    ("lint-github", ["lint", "--no-cache", "--format", "github", "broken"], None),
    ("lint-statistics", ["lint", "--no-cache", "--statistics", "broken"], None),
    ("lint-diff", ["lint", "--no-cache", "--diff", "broken"], None),
    (
        "lint-stdin",
        ["lint", "--stdin-filename", "server.py", "-"],
        "from mcp.server.mcpserver import MCPServer\n",
    ),
    ("lint-usage-error", ["lint", "--format", "yaml", "broken"], None),
    ("lint-missing", ["lint", "no/such/file.py"], None),
    ("lint-help", ["lint", "--help"], None),
    ("graph", ["graph", "bookshop/server.py"], None),
    ("graph-json", ["graph", "--format", "json", "bookshop/server.py"], None),
    ("graph-mermaid", ["graph", "--format", "mermaid", "broken/server.py"], None),
    ("graph-live", ["graph", "--live", "--format", "json", "bookshop/server.py"], None),
    ("rule", ["rule", "MCPD001"], None),
    ("help", ["--help"], None),
    ("version", ["--version"], None),
    ("unknown-command", ["frobnicate"], None),
    ("new-tool", ["new", "tool", "wave", "--in", "bookshop/server.py", "--arg", "name"], None),
    ("fix", ["lint", "--no-cache", "--fix", "broken"], None),
    ("call", ["call", "--stdio", "bookshop/server.py", "search_books", "--arg", "query=neuro"], None),
    ("serve-stdio", ["serve", "bookshop/server.py"], ""),
    (
        "serve-help",
        ["serve", "--help"],
        None,
    ),  # forked from a zygote without the SDK  # starts, serves, ends with its input
    ("mcp-stdio", ["mcp"], ""),
]


def _project(folder: Path) -> Path:
    for name in ("bookshop", "broken"):
        shutil.copytree(EXAMPLES / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".c" not in p.relative_to(folder).parts and "__pycache__" not in p.parts
    }


def _fresh(
    args: list[str], cwd: Path, input: str | None, env: dict[str, str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpdeps", *args],
        cwd=cwd,
        input=input,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _forked(
    args: list[str], cwd: Path, input: str | None, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    done = forked_cli.run_forked(args, cwd=cwd, input=input, env=env, timeout=120)
    assert done is not None
    return done


@pytest.mark.parametrize("env", [BASE, COLOUR], ids=["plain", "colour"])
@pytest.mark.parametrize(("args", "input"), [(a, i) for _, a, i in CASES], ids=[c[0] for c in CASES])
def test_a_forked_run_is_a_fresh_run(
    tmp_path: Path, args: list[str], input: str | None, env: dict[str, str]
) -> None:
    fresh_dir, forked_dir = _project(tmp_path / "fresh"), _project(tmp_path / "forked")
    fresh = _fresh(args, fresh_dir, input, env)
    forked = _forked(args, forked_dir, input, env)
    assert forked.args == fresh.args
    assert (forked.returncode, forked.stdout, forked.stderr) == (
        fresh.returncode,
        fresh.stdout.replace(str(fresh_dir), str(forked_dir)),
        fresh.stderr.replace(str(fresh_dir), str(forked_dir)),
    )
    assert _files(forked_dir) == _files(fresh_dir)


def test_a_forked_run_reads_its_own_folder_and_not_the_zygotes(tmp_path: Path) -> None:
    """`sys.path[0]` is the run's folder, as under `-m`: a user's `cli.py` there is theirs."""
    (tmp_path / "cli.py").write_text("raise SystemExit('the user module was imported')\n", encoding="utf-8")
    shutil.copy(EXAMPLES / "bookshop" / "server.py", tmp_path / "server.py")
    args = ["graph", "--live", "--format", "json", "server.py"]
    fresh, forked = _fresh(args, tmp_path, None, BASE), _forked(args, tmp_path, None, BASE)
    assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)


def test_a_forked_run_past_its_timeout_is_killed_as_subprocess_kills_it(tmp_path: Path) -> None:
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired) as expired:
        forked_cli.run_forked(
            ["serve", str(EXAMPLES / "bookshop" / "server.py"), "-t", "http", "-p", "0"],
            cwd=tmp_path,
            input=None,
            env=BASE,
            timeout=2,  # serving by then: the SDK is imported already
        )
    assert time.monotonic() - started < 20
    assert expired.value.cmd[:3] == [sys.executable, "-m", "mcpdeps"]
    stderr = expired.value.stderr  # as `subprocess.run` leaves it: bytes, or None if nothing came yet
    assert stderr is None or isinstance(stderr, bytes)


@pytest.mark.skipif(
    os.environ.get("MCPDEPS_TESTS_FRESH") == "1", reason="MCPDEPS_TESTS_FRESH=1 forks nothing, as asked"
)
def test_only_an_environment_that_acts_after_start_up_is_forked() -> None:
    assert forked_cli.forkable(BASE)
    assert not forked_cli.forkable({**BASE, "PYTHONPROFILEIMPORTTIME": "1"})
    assert not forked_cli.forkable({**BASE, "PYTHONPATH": str(REPO)})


def _both(
    tmp_path: Path,
    args: list[str],
    setup: Callable[[Path], object],
    env: dict[str, str] = BASE,
) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """(fresh, forked) in folders set up alike: return code, outputs (the folder as <D>), files left."""
    outcomes = []
    for name, how in (("fresh", _fresh), ("forked", _forked)):
        folder = tmp_path / name
        folder.mkdir()
        setup(folder)
        done = how(args, folder, None, env)
        outcomes.append(
            (
                done.returncode,
                done.stdout.replace(str(folder), "<D>"),
                done.stderr.replace(str(folder), "<D>"),
                _files(folder),
            )
        )
    return outcomes[0], outcomes[1]


def _server(code: str) -> Callable[[Path], object]:
    """A folder whose `server.py` runs `code` when imported (`graph --live` imports it), then serves."""
    tool = "from mcp.server import MCPServer\nmcp = MCPServer('x')\n"
    return lambda folder: (folder / "server.py").write_text(code + "\n" + tool, encoding="utf-8")


LIVE = ["graph", "--live", "--format", "json", "server.py"]


def test_a_command_line_longer_than_one_socket_read_is_read_whole(tmp_path: Path) -> None:
    """280 kB of arguments (a fresh process takes up to 2 MB): the zygote read only the first
    socket buffer of the request, failed to parse it, and died (exit 1, nothing printed)."""
    args = ["lint", "--no-cache", *(f"{'x' * 90}{i}.py" for i in range(3000))]
    fresh, forked = _both(tmp_path, args, lambda folder: None)
    assert forked == fresh


def test_an_uncaught_exception_prints_the_traceback_of_a_fresh_run(tmp_path: Path) -> None:
    """A BaseException from the user's server passes every handler: the traceback started at the
    zygote's own frame (`cli_zygote.py`, in `_child`) instead of runpy's."""
    fresh, forked = _both(tmp_path, LIVE, _server("class Stop(BaseException):\n    pass\n\nraise Stop('no')"))
    assert fresh[0] == 1 and "Stop: no" in str(fresh[2])
    assert forked == fresh


def test_a_forked_run_ends_with_the_interpreters_teardown(tmp_path: Path) -> None:
    """Module teardown runs finalizers and flushes files nobody closed: the run's own process
    ends so (it ended with `os._exit`, losing the log's bytes and the finalizer's line)."""
    code = (
        "import sys\nLOG = open('log.txt', 'w')\nLOG.write('written at teardown')\n"
        "class Bye:\n    def __del__(self):\n        sys.stdout.write('finalized\\n')\n\nKEEP = Bye()"
    )
    fresh, forked = _both(tmp_path, LIVE, _server(code))
    assert fresh[3]["log.txt"] == b"written at teardown" and "finalized" in str(fresh[1])
    assert forked == fresh


PROCESS = """import gc, json, os, sys
main = sys.modules["__main__"]
print(json.dumps({"main": sorted(vars(main)), "argv": sys.argv, "orig_argv": sys.orig_argv,
    "cwd on path": os.getcwd() in sys.path, "path": sys.path[1:], "gc": gc.isenabled(),
    "streams": [repr(s) for s in (sys.stdin, sys.stdout, sys.stderr)],
    "line buffering": [s.line_buffering for s in (sys.stdout, sys.stderr)]}), file=sys.stderr)
"""


@pytest.mark.parametrize("safe_path", ["", "1"], ids=["path0", "PYTHONSAFEPATH"])
def test_user_code_sees_the_process_of_a_fresh_run(tmp_path: Path, safe_path: str) -> None:
    """What a user's server can see of its process: `__main__` (`__annotations__` was missing),
    `sys.path` (under PYTHONSAFEPATH the run's folder was put on it, and the zygote replaced the
    first entry of its own path with its folder), argv, the collector, the streams."""
    env = {**BASE, "PYTHONSAFEPATH": safe_path} if safe_path else BASE

    def setup(folder: Path) -> None:
        (folder / "sub").mkdir()
        _server(PROCESS)(folder / "sub")

    args = ["graph", "--live", "--format", "json", "sub/server.py"]
    fresh, forked = _both(tmp_path, args, setup, env)
    assert fresh[0] == 0, fresh
    assert forked == fresh


@pytest.mark.parametrize(
    ("module", "args"),
    [
        ("typer.py", ["graph", "--format", "json", "server.py"]),
        ("json.py", ["graph", "--format", "json", "server.py"]),
        ("mcpdeps/__init__.py", ["graph", "--format", "json", "server.py"]),
        ("anyio.py", LIVE),
        ("pydantic/__init__.py", ["serve", "server.py"]),
    ],
    ids=["typer", "json", "mcpdeps", "anyio-live", "pydantic-serve"],
)
def test_a_module_in_the_runs_folder_is_imported_as_a_fresh_run_imports_it(
    tmp_path: Path, module: str, args: list[str]
) -> None:
    """`-m` puts the run's folder first on `sys.path`: a `typer.py`, `json.py`, `mcpdeps/` there (or
    the SDK's `anyio.py`, `pydantic/`) is what a fresh run imports (and fails on), while the zygote
    had its own already. Such a folder is run fresh (`run_mcpdeps`), and the zygote is no longer asked."""
    (tmp_path / module).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / module).write_text("raise SystemExit('the user module was imported')\n", encoding="utf-8")
    (tmp_path / "server.py").write_text("x = 1\n", encoding="utf-8")
    fresh = _fresh(args, tmp_path, None, BASE)
    assert (fresh.returncode == 1 and "No module" in fresh.stderr) or "user module" in fresh.stderr
    for _ in range(2):  # the second run of an environment is the one that would be forked
        done = run_mcpdeps(*args, cwd=tmp_path)
        assert (done.returncode, done.stdout, done.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)


def _timed_out_both_ways(folder: Path, timeout: float) -> list[tuple[object, object, float, float]]:
    """`LIVE` in `folder` fresh, then forked: each `TimeoutExpired`'s outputs and timeout, and
    the seconds it took to come."""
    caught = []
    for run in (
        lambda: _fresh(LIVE, folder, None, BASE, timeout),
        lambda: forked_cli.run_forked(LIVE, cwd=folder, input=None, env=BASE, timeout=timeout),
    ):
        started = time.monotonic()
        with pytest.raises(subprocess.TimeoutExpired) as expired:
            run()
        error = expired.value
        caught.append((error.stdout, error.stderr, error.timeout, time.monotonic() - started))
    return caught


def test_a_run_that_prints_nothing_before_its_timeout_has_no_output_as_subprocess_has_none(
    tmp_path: Path,
) -> None:
    """`subprocess.run` leaves `None`, not `b""`, in `TimeoutExpired` when nothing was read."""
    _server("import time\ntime.sleep(60)")(tmp_path)
    fresh, forked = _timed_out_both_ways(tmp_path, 1)
    assert forked[:3] == fresh[:3] == (None, None, 1)


@pytest.mark.parametrize(
    "name", ["PYTHONPROFILEIMPORTTIME", "PYTHONVERBOSE", "PYTHONINSPECT", "PYTHONDEVMODE", "PYTHONWARNINGS"]
)
def test_variables_that_act_while_the_interpreter_starts_are_never_forked(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Even when this process has them too (a test's `monkeypatch.setenv`): the zygote did its
    imports under them, so a child would not print the import lines, warnings... of a fresh run."""
    monkeypatch.setenv(name, "1" if name != "PYTHONWARNINGS" else "default")
    assert not forked_cli.forkable({**os.environ, "NO_COLOR": "1"})


def test_a_relative_pythonpath_entry_is_never_forked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The interpreter makes it absolute against its own folder at start: the zygote's, not the run's."""
    monkeypatch.setenv("PYTHONPATH", "src")
    assert not forked_cli.forkable(dict(os.environ))


def test_a_relative_folder_is_the_tests_folder_as_for_subprocess(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`cwd="examples"` is relative to this process's folder: the child went to the zygote's."""
    _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    args = ["graph", "--format", "json", "server.py"]
    fresh = _fresh(args, Path("bookshop"), None, BASE)
    forked = _forked(args, Path("bookshop"), None, BASE)
    assert fresh.returncode == 0
    assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)


@pytest.mark.parametrize(
    "variables",
    [
        {"TERMINAL_WIDTH": "50"},
        {"GITHUB_ACTIONS": "true"},
        {"TYPER_USE_RICH": "0"},
        {"_TYPER_STANDARD_TRACEBACK": "1"},
        {"COLUMNS": "40", "LINES": "5"},
    ],
    ids=lambda variables: ",".join(variables),
)
def test_variables_typer_and_rich_read_when_imported_act_on_a_forked_run(
    tmp_path: Path, variables: dict[str, str]
) -> None:
    """Each environment has its own zygote, which imported typer and rich under it."""
    env = {**BASE, **variables}
    for args in (["lint", "--help"], ["graph", "--format", "nope", "server.py"]):
        fresh, forked = _fresh(args, tmp_path, None, env), _forked(args, tmp_path, None, env)
        assert (forked.returncode, forked.stdout, forked.stderr) == (
            fresh.returncode,
            fresh.stdout,
            fresh.stderr,
        )


def test_a_serve_told_to_watch_this_process_is_never_forked(tmp_path: Path) -> None:
    """`MCPDEPS_EXIT_WITH_PARENT` names the parent `serve` must outlive no longer than: a forked
    run's parent is the zygote, so it stopped at once (exit 0, nothing printed, no answer)."""
    shutil.copy(EXAMPLES / "bookshop" / "server.py", tmp_path / "server.py")
    env = {"MCPDEPS_EXIT_WITH_PARENT": str(os.getpid())}
    assert not forked_cli.forkable({**BASE, **env})
    hello = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
    hello += '"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n'
    for _ in range(2):  # the second run of an environment is the one that would be forked
        done = run_mcpdeps("serve", "server.py", cwd=tmp_path, input=hello, env=env)
        assert done.returncode == 0 and '"serverInfo":{"name":"Bookshop"' in done.stdout, done


CLOSED_STDIN = """import json, os, sys
sys.path.insert(0, {tests!r})
import forked_cli
os.close(0)
env = dict(os.environ)
args = ["lint", "--stdin-filename", "server.py", "-"]
runs = [forked_cli.run(args, cwd={cwd!r}, input=None, env=env, timeout=60) for _ in range(2)]
print(json.dumps([None if r is None else [r.returncode, r.stdout, r.stderr] for r in runs]))
"""


def test_a_process_without_standard_input_runs_fresh(tmp_path: Path) -> None:
    """With fd 0 closed a fresh run has no `sys.stdin`; passing it to the zygote raised EBADF."""
    script = CLOSED_STDIN.format(tests=str(Path(__file__).parent), cwd=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-c", script], env=BASE, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [None, None]


def test_files_are_created_with_the_umask_of_the_process_that_runs_mcpdeps(tmp_path: Path) -> None:
    """A fresh run inherits this process's umask as it is now; the child had the zygote's."""
    args = ["new", "server", "demo"]
    _forked(["new", "--help"], tmp_path, None, BASE)  # the zygote of `new` started under the old umask
    previous = os.umask(0o077)
    try:
        fresh, forked = _both(tmp_path, args, lambda folder: None)
    finally:
        os.umask(previous)
    assert forked == fresh
    modes = {
        name: sorted(
            (p.relative_to(tmp_path / name).as_posix(), p.stat().st_mode)
            for p in (tmp_path / name).rglob("*")
        )
        for name in ("fresh", "forked")
    }
    assert modes["fresh"] and all(mode & 0o077 == 0 for _, mode in modes["fresh"])
    assert modes["forked"] == modes["fresh"]


def test_a_run_has_the_resource_limits_of_the_process_that_runs_mcpdeps(tmp_path: Path) -> None:
    """A 512-byte file size limit (a full disk): a fresh run cannot write its 1 kB graph; the
    child had the zygote's limits, from when it started, and wrote it."""
    _project(tmp_path)
    args = ["graph", "--format", "json", "-o", "graph.json", "bookshop/server.py"]
    _forked(["graph", "--help"], tmp_path, None, BASE)  # the zygote started under the old limits
    previous = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (512, previous[1]))
    try:
        fresh = _fresh(args, tmp_path, None, BASE)
        written = (tmp_path / "graph.json").read_bytes() if (tmp_path / "graph.json").exists() else None
        forked = _forked(args, tmp_path, None, BASE)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, previous)
    assert fresh.returncode != 0, fresh
    assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert ((tmp_path / "graph.json").read_bytes() if (tmp_path / "graph.json").exists() else None) == written


def test_an_argument_with_a_nul_byte_is_refused_as_subprocess_refuses_it(tmp_path: Path) -> None:
    """No process can get one: `subprocess` raises ValueError; the zygote passed it on in JSON."""
    for _ in range(2):  # the second run of an environment is the one that would be forked
        with pytest.raises(ValueError, match="embedded null byte"):
            run_mcpdeps("lint", "a\0b.py", cwd=tmp_path)


def test_a_run_that_closes_its_outputs_and_goes_on_times_out_as_subprocess_times_out(tmp_path: Path) -> None:
    """After both outputs end, `subprocess.run` still waits only until the timeout; the forked
    run waited for the process however long it took, past its timeout."""
    _server("import os, time\nos.close(1)\nos.close(2)\ntime.sleep(30)")(tmp_path)
    fresh, forked = _timed_out_both_ways(tmp_path, 2)  # the forked run imported the SDK already: it
    assert forked[:2] == fresh[:2] == (None, None)  # closes its outputs well before the timeout
    assert fresh[3] < 15 and forked[3] < 15


SDK_STATE = """import atexit, json, logging, os, signal, sys, threading, warnings
def third_party(module):
    return "site-packages" in (getattr(module, "__file__", None) or "")
print(json.dumps({
    "modules": sorted(n for n, m in list(sys.modules.items()) if n.startswith("mcpdeps") or third_party(m)),
    "loggers": sorted(logging.Logger.manager.loggerDict),
    "root": [logging.root.level, [repr(h) for h in logging.root.handlers]],
    "exit hooks": atexit._ncallbacks(),
    "threads": [t.name for t in threading.enumerate()],
    "signals": {s.name: repr(signal.getsignal(s)) for s in signal.valid_signals() if s < 32 and s not in (9, 19)},
    "warnings": [repr(f) for f in warnings.filters],
    "setting": os.environ.get("ZYG_SETTING"),
    "mp main": sys.modules.get("__mp_main__", sys.modules["__main__"]) is sys.modules["__main__"],
}, indent=1))
raise SystemExit(0)
"""
"""A server that prints what the SDK's import left in the process when its own import starts
(the zygote imported the SDK before the run, a fresh run while starting it), and stops."""

SDK_RUNS = {
    "graph-live": LIVE,
    "serve-stdio": ["serve", "server.py"],
    "serve-http": ["serve", "-t", "http", "-p", "0", "server.py"],
    "serve-module": ["serve", "server:mcp"],
}


@pytest.mark.parametrize("args", SDK_RUNS.values(), ids=SDK_RUNS)
def test_the_user_code_finds_the_sdk_as_a_fresh_run_leaves_it(tmp_path: Path, args: list[str]) -> None:
    """The zygotes of the user's code import the SDK before the run: its modules, loggers, exit
    hooks, threads, signal handlers, warnings filters and `multiprocessing`'s `__main__` are
    what a fresh run has when it imports the server."""
    fresh, forked = _both(tmp_path, args, lambda folder: (folder / "server.py").write_text(SDK_STATE))
    assert fresh[0] == 0 and '"mcp.server"' in str(fresh[1]), fresh
    assert forked == fresh


def test_a_variable_read_when_the_server_is_imported_is_the_runs_own(tmp_path: Path) -> None:
    """Each environment has its zygote, which imported the SDK under it; the server sees the run's."""
    for value in ("one", "two"):
        env = {**BASE, "ZYG_SETTING": value}
        (tmp_path / value).mkdir()
        fresh, forked = _both(
            tmp_path / value, LIVE, lambda folder: (folder / "server.py").write_text(SDK_STATE), env
        )
        assert f'"setting": "{value}"' in str(fresh[1])
        assert forked == fresh


def test_a_forked_run_of_the_users_code_has_a_multiprocessing_key_of_its_own(tmp_path: Path) -> None:
    """`multiprocessing` draws its key when imported: the zygote's children shared the zygote's."""
    _server(
        "import multiprocessing, sys\nprint(multiprocessing.current_process().authkey.hex(), file=sys.stderr)"
    )(tmp_path)
    keys = {_forked(LIVE, tmp_path, None, BASE).stderr for _ in range(2)}
    assert len(keys) == 2, keys


PYDANTIC_PLUGIN = """import sys
class Plugin:
    def new_schema_validator(self, *args, **kwargs):
        return None, None, None
print("the plugin in the run's folder was loaded", file=sys.stderr)
plugin = Plugin()
"""


def test_a_pydantic_plugin_in_the_runs_folder_is_loaded_as_a_fresh_run_loads_it(tmp_path: Path) -> None:
    """pydantic looks its plugins up on `sys.path` (the run's folder first) when the SDK builds
    its first model: in the zygote, before the run. Such a folder is run fresh."""
    (tmp_path / "zygplugin.py").write_text(PYDANTIC_PLUGIN, encoding="utf-8")
    info = tmp_path / "zygplugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: zygplugin\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[pydantic]\nzyg = zygplugin:plugin\n", encoding="utf-8")
    _server("")(tmp_path)
    fresh = _fresh(LIVE, tmp_path, None, BASE)
    assert "the plugin in the run's folder was loaded" in fresh.stderr, fresh
    for _ in range(2):  # the second run of an environment is the one that would be forked
        done = run_mcpdeps(*LIVE, cwd=tmp_path)
        assert (done.returncode, done.stdout, done.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)


HASHES = """import os, sys
print("hash", hash("mcpdeps"), file=sys.stderr)
print("seed", os.environ.get("PYTHONHASHSEED"), sys.flags.hash_randomization, file=sys.stderr)
"""


def _hash_and_rest(done: subprocess.CompletedProcess[str]) -> tuple[str, tuple[object, ...]]:
    """The `hash` line the server printed, and everything else the run printed."""
    lines = done.stderr.splitlines(keepends=True)
    hashed = [line for line in lines if line.startswith("hash ")]
    assert len(hashed) == 1, done
    return hashed[0], (done.returncode, done.stdout, "".join(line for line in lines if line not in hashed))


def test_runs_given_different_seed_numbers_hash_strings_as_separate_fresh_runs_do(tmp_path: Path) -> None:
    """Forked runs shared their zygote's hash seed, so tests that compare runs' bytes started
    them fresh. With `hash_seed=N` each number has its own seed (and zygote), which the child
    does not see in its environment, and the run prints what a fresh one prints."""
    _server(HASHES)(tmp_path)
    fresh = _hash_and_rest(_fresh(LIVE, tmp_path, None, BASE))
    runs = {
        number: _hash_and_rest(
            forked_cli.run_forked(LIVE, cwd=tmp_path, input=None, env=BASE, timeout=120, hash_seed=number)  # type: ignore[arg-type]
        )
        for number in (None, 0, 1, 2)
    }
    assert len({hashed for hashed, _ in (fresh, *runs.values())}) == 5
    assert all(rest == fresh[1] for _, rest in runs.values()), (fresh, runs)
    again = forked_cli.run_forked(LIVE, cwd=tmp_path, input=None, env=BASE, timeout=120, hash_seed=1)
    assert again is not None and _hash_and_rest(again) == runs[1]  # the number names one seed


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_a_run_with_a_seed_number_prints_what_a_fresh_run_prints(tmp_path: Path, fmt: str) -> None:
    _project(tmp_path)
    args = ["lint", "--no-cache", "--format", fmt, "bookshop", "broken"]
    fresh = _fresh(args, tmp_path, None, BASE)
    for number in (0, 1):
        done = forked_cli.run_forked(args, cwd=tmp_path, input=None, env=BASE, timeout=120, hash_seed=number)
        assert done is not None
        assert (done.returncode, done.stdout, done.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)


def test_a_seed_the_environment_sets_is_the_runs_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh run under `PYTHONHASHSEED=7` hashes as every other run under it: so does a run
    given a seed number then (fresh), even where this process has the same variable (forkable)."""
    _server(HASHES)(tmp_path)
    monkeypatch.setenv("PYTHONHASHSEED", "7")
    env = {**BASE, "PYTHONHASHSEED": "7"}
    fresh = _fresh(LIVE, tmp_path, None, env)
    for _ in range(2):  # the second run of an environment is the one that would be forked
        done = run_mcpdeps(*LIVE, cwd=tmp_path, env={"PYTHONHASHSEED": "7"}, hash_seed=1)
        assert (done.returncode, done.stdout, done.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)


def test_the_help_of_a_command_of_the_users_code_forks_from_a_zygote_without_the_sdk() -> None:
    """A fresh `serve --help` never imports the SDK, so its zygote need not (the `serve-help` case
    above holds the two runs equal); after `--`, `--help` is an argument like any other."""
    assert [forked_cli.family(args) for args in (["serve", "--help"], ["call", "s.py", "--help"])] == [
        "app",
        "app",
    ]
    assert forked_cli.family(["call", "s.py", "t", "--", "--help"]) == "call"
    assert forked_cli.family(["serve", "s.py"]) == "serve"


def test_a_forked_runs_teardown_collects_everything_as_a_fresh_runs_does(tmp_path: Path) -> None:
    """The zygote hides what it holds from the collector (`cli_zygote._freeze`); a run's teardown,
    whose last collection runs what is left of the finalizers, must see it all again."""
    code = "import atexit, gc\natexit.register(lambda: print('frozen at exit:', gc.get_freeze_count()))"
    fresh, forked = _both(tmp_path, LIVE, _server(code))
    assert "frozen at exit: 0" in str(fresh[1])
    assert forked == fresh
