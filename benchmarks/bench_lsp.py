"""Issues 15 and 28: `mcpdeps lsp` on generated trees of every shape, driven over stdio.

Per size: the time from starting the server to the first diagnostics of an opened tool
module (initialize included); the time the first full pass over the project takes; then
single-character edits (a letter typed into, then deleted from, a docstring, unsaved) to
a tool module and to a shared resolver module, each timed from `didChange` to the
`publishDiagnostics` of that version, minus the debounce (p50/p95); and the server's
resident memory after the first edit and after the last. Edits come every `--interval`
seconds (typing speed), not after the server went idle: an edit to the shared module
leaves hundreds of files to re-check in the background, and a keystroke must not wait
for them.

The shared resolver module (`app/shared.py`, added here) is used by a tool in every tool
module: editing it makes every tool module stale. The trees are `bench_large.make_tree`'s
(`--shape corpus` is `gen_corpus.py`'s, the others `gen_shapes.py`'s); `--code DIR` runs the
mcpdeps package found in DIR too, after this checkout's, on the same tree.

Run by hand: `python benchmarks/bench_lsp.py [sizes...] [--shape S...] [--seeds K...]
[--code DIR]` (default 250 1000 2000, `corpus`, seed 1).
Targets: p95 < 50 ms (tool module) and < 150 ms (shared resolver module) after the
debounce; memory after 200 edits <= 1.5x memory after the first.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from _timing import compile_code, compile_package  # noqa: E402
from bench_large import SHAPES  # noqa: E402
from bench_large import make_tree as generate  # noqa: E402
from lsp_helpers import RawSession  # noqa: E402

DEBOUNCE_MS = 50
KEEP_LOG = Path(os.environ["BENCH_LSP_LOG"]) if os.environ.get("BENCH_LSP_LOG") else None
"""Where to keep the server's debug log of the last size (timings of every check)."""
SHARED = '''"""A resolver every tool module uses (the benchmark's shared resolver module)."""

from mcp.server.mcpserver import Context


def current_user(ctx: Context) -> str:
    """Who is calling."""
    return "ada"
'''
TYPED = '"""Who asks for {title}."""'
"""The docstring typed into in a tool module (of the tool added to every one)."""
SHARED_TOOL = '''

from app import shared


@mcp.tool()
async def whoami_{n}(title: str, user: Annotated[str, Resolve(shared.current_user)]) -> str:
    """Who asks for {{title}}."""
    return user
'''


def make_tree(out: Path, modules: int, shape: str, seed: int) -> Path:
    """Write the tree; returns the tool module edits are typed into."""
    generate(out, shape, modules, seed)
    (out / "app" / "shared.py").write_text(SHARED)
    tools = sorted(out.glob("pkg*/tools_*.py"))
    for path in tools:
        n = path.stem.removeprefix("tools_")
        path.write_text(path.read_text() + SHARED_TOOL.format(n=n))
    corpus_first = out / "pkg1" / "tools_1.py"  # where the figures of earlier sessions were taken
    return corpus_first if corpus_first.exists() else tools[0]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used (clock ticks: 10 ms resolution)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle(session: RawSession, timeout: float = 900) -> float:
    """Wait for the end of the first full pass (`$/progress` end); returns when it came."""

    def ended(m: dict[str, Any]) -> bool:
        value = m.get("params", {}).get("value", {}) if m.get("method") == "$/progress" else {}
        return isinstance(value, dict) and value.get("kind") == "end"

    return session.arrived[session.wait_index(ended, timeout)]


def edits(
    session: RawSession, path: Path, count: int, interval: float, needle: str
) -> tuple[list[float], float, float]:
    """`count` single-character edits inside the docstring `needle`: latencies in ms after the
    debounce, the server's memory after the first edit and its CPU milliseconds per edit."""
    original = path.read_text()
    assert needle in original, needle
    typed = original.replace(needle, needle[:-3] + "x" + needle[-3:], 1)
    session.open(path)
    session.published(path, 1, timeout=300)
    latencies = []
    memory = 0.0
    cpu = cpu_seconds(session.proc.pid)
    for version in range(2, count + 2):
        sent = time.perf_counter()
        session.change(path, version, typed if version % 2 == 0 else original)
        arrived = session.published(path, version, timeout=120)
        latencies.append((arrived - sent) * 1000 - DEBOUNCE_MS)
        memory = memory or rss_mb(session.proc.pid)
        time.sleep(max(0.0, interval - (time.perf_counter() - sent)))
    return latencies, memory, (cpu_seconds(session.proc.pid) - cpu) * 1000 / count


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench(tree: Path, tool: Path, count: int, interval: float) -> dict[str, float]:
    """One server's session on `tree` (a copy of it: the edits are saved to disk)."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(tree, Path(tmp) / "tree")
        tree = Path(tmp) / "tree"
        tool = tree / tool
        shared = tree / "app" / "shared.py"
        start = time.perf_counter()
        log = Path(tmp) / "server.log"
        session = RawSession(tree, args=["-v", "--log-file", str(log)])
        session.initialize(DEBOUNCE_MS, capabilities={"window": {"workDoneProgress": True}})
        session.open(tool)
        first = session.published(tool, 1, timeout=300) - start
        full = idle(session) - start
        tool_ms, after_first, tool_cpu = edits(session, tool, count, interval, TYPED)
        shared_ms, _, shared_cpu = edits(session, shared, count, interval, '"""Who is calling."""')
        after_all = rss_mb(session.proc.pid)
        code, stderr = session.finish(timeout=600)  # a server in a whole-project check ends after it
        if KEEP_LOG:
            KEEP_LOG.write_text(log.read_text())
        assert code == 0 and "Traceback" not in stderr, stderr[-2000:]
        return {
            "first": first * 1000,
            "full": full,
            "tool_p50": statistics.median(tool_ms),
            "tool_p95": percentile(tool_ms, 0.95),
            "shared_p50": statistics.median(shared_ms),
            "shared_p95": percentile(shared_ms, 0.95),
            "tool_cpu": tool_cpu,
            "shared_cpu": shared_cpu,
            "rss_first": after_first,
            "rss_last": after_all,
            "edits": 2 * count,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[250, 1000, 2000])
    parser.add_argument("--shape", nargs="+", choices=SHAPES, default=["corpus"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[1])
    parser.add_argument("--code", type=Path, help="a folder holding an older `mcpdeps` package to run too")
    parser.add_argument("--edits", type=int, default=100, help="edits per module kind (two kinds)")
    parser.add_argument("--interval", type=float, default=0.25, help="seconds between keystrokes")
    args = parser.parse_args()
    compile_package()
    pythonpaths = {"this": os.environ.get("PYTHONPATH")}
    if args.code is not None:
        pythonpaths = {"base": compile_code(args.code), **pythonpaths}
    print(f"debounce {DEBOUNCE_MS} ms (subtracted), a keystroke every {args.interval * 1000:.0f} ms")
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print(
        "| tree | code | open -> first diagnostics | full pass done | tool edit p50 / p95 (server CPU per edit) "
        "| shared edit p50 / p95 (server CPU per edit) | RSS after 1st edit -> after last (ratio) |"
    )
    print("|---|---|---|---|---|---|---|")
    for shape in args.shape:
        for size in args.sizes:
            for seed in args.seeds:
                with tempfile.TemporaryDirectory() as tmp:
                    tree = Path(tmp) / "tree"
                    tool = make_tree(tree, size, shape, seed).relative_to(tree)
                    for name, path in pythonpaths.items():
                        _set_pythonpath(path)
                        r = bench(tree, tool, args.edits, args.interval)
                        _row(f"{shape} {size} s{seed}", name, r)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


def _set_pythonpath(value: str | None) -> None:
    """The servers started next import mcpdeps from `value` first (None: as installed)."""
    if value is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = value


def _row(tree: str, code: str, r: dict[str, float]) -> None:
    print(
        f"| {tree} | {code} | {r['first']:.0f} ms | {r['full']:.1f} s "
        f"| {r['tool_p50']:.1f} / {r['tool_p95']:.1f} ms ({r['tool_cpu']:.0f} ms) "
        f"| {r['shared_p50']:.1f} / {r['shared_p95']:.1f} ms ({r['shared_cpu']:.0f} ms) "
        f"| {r['rss_first']:.0f} -> {r['rss_last']:.0f} MB ({r['rss_last'] / r['rss_first']:.2f}x, {r['edits']} edits) |",
        flush=True,
    )


if __name__ == "__main__":
    main()
