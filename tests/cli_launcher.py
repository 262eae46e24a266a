"""What a test spawns in place of a long-running `python -m mcpdeps ARGS` (`serve`, `mcp`): the
run itself is forked from the zygote at SOCKET, and this process stands for it.

Run as `python -I -S tests/cli_launcher.py SOCKET ARGS...` (`forked_cli.launcher_command`):
no `site`, no environment read by the interpreter, nothing from the run's folder (`-I`), so it
starts in ~20 ms against ~1 s for the SDK. It is spawned exactly where the fresh process would
be (same folder, environment, standard streams, session, signal dispositions, mask, umask and
limits) and hands all of that to the zygote, whose child becomes the run in a session of its
own (`cli_zygote._child`). Then:
- the signals a test or a client sends to end a server (`FORWARDED`) go on to the run's whole
  process group, as `killpg` on this process's group would reach a fresh run and its children
  (both callers, `ServeProcess` and the SDK's stdio client, signal the group);
- if this process dies first, even by SIGKILL, the zygote sees its connection close and kills
  the run's process group (`cli_zygote._serve`);
- it ends when the run ends, with its exit code, or by its signal; if the zygote dies first
  (its status can no longer come), it kills the run's group and exits 1.
Where the zygote cannot fork the run as it is (it is gone, the environment is not its own,
a standard stream is closed), this process becomes the fresh run (`exec`).
"""

import contextlib
import json
import os
import signal
import socket
import sys

FORWARDED = (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGUSR1, signal.SIGUSR2)
FRESH = [sys.executable, "-m", "mcpdeps"]


def _dispositions() -> dict[int, str]:
    """This process's signal dispositions as it started: what a fresh run would start with."""
    names = {signal.SIG_IGN: "ignore", signal.SIG_DFL: "default", signal.default_int_handler: "interrupt"}
    found = {}
    for number in signal.valid_signals():
        try:
            found[int(number)] = names.get(signal.getsignal(number), "default")
        except (OSError, ValueError):
            continue
    return found


def inherited() -> dict[str, object]:
    """What a fresh run inherits from the process that spawns it at that moment and a forked one
    takes from its request (`forked_cli` sends it too): the file creation mask (read, not set and
    reset: another thread may be creating files) and the resource limits as they are now (a test
    may lower one, the file size, to see a full disk)."""
    import resource

    with open("/proc/self/status", encoding="ascii") as status:
        umask = next(int(line.split()[1], 8) for line in status if line.startswith("Umask:"))
    limits = {n: resource.getrlimit(getattr(resource, n)) for n in dir(resource) if n.startswith("RLIMIT_")}
    return {"umask": umask, "limits": limits}


class _Forwarder:
    """Passes the signals in `FORWARDED` on to the run's process group once its pid is known."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.pending: list[int] = []
        for number in FORWARDED:
            signal.signal(number, self.handle)

    def handle(self, number: int, frame: object) -> None:
        if self.pid is None:
            self.pending.append(number)
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):  # ended: its status is on its way
            os.killpg(self.pid, number)

    def start(self, pid: int) -> None:
        self.pid = pid
        while self.pending:
            self.handle(self.pending.pop(0), None)

    def fresh(self, args: list[str]) -> None:
        """Become the fresh run: dispositions as they were (exec resets caught signals only)."""
        for number in self.pending:
            signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), number)  # what reached this process before the run could take it
        os.execv(sys.executable, [*FRESH, *args])


def _lines(connection: socket.socket):  # type: ignore[no-untyped-def]
    buffer = b""
    while True:
        chunk = connection.recv(4096)
        if not chunk:
            return
        buffer += chunk
        while b"\n" in buffer:
            line, _, buffer = buffer.partition(b"\n")
            yield json.loads(line)


def _end(status: int) -> None:
    """End as the run ended: its exit code, or its signal."""
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [-code])
        os.kill(os.getpid(), -code)
        code = 128 - code  # a signal whose default is to be ignored
    os._exit(code)


def main() -> None:
    path, *args = sys.argv[1:]
    request = {
        "args": args,
        "cwd": os.getcwd(),
        "env": dict(os.environ),
        **inherited(),
        "launcher": {
            "signals": _dispositions(),
            "mask": sorted(map(int, signal.pthread_sigmask(signal.SIG_BLOCK, []))),
        },
    }
    forwarder = _Forwarder()
    try:
        for fd in (0, 1, 2):
            os.fstat(fd)  # a closed one: the fresh run finds it closed
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(path)
        message = json.dumps(request).encode() + b"\n"
        sent = socket.send_fds(connection, [message], [0, 1, 2])
        connection.sendall(message[sent:])
        replies = _lines(connection)
        first = next(replies, {"fresh": True})
    except OSError:
        first = {"fresh": True}
    if "pid" not in first:
        forwarder.fresh(args)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):  # the run's now: its client sees them end when the run ends, not this process
        os.dup2(null, fd)
    forwarder.start(first["pid"])
    for reply in replies:
        if "status" in reply:
            _end(reply["status"])
    with contextlib.suppress(ProcessLookupError, PermissionError):  # nothing left to report its end
        os.killpg(first["pid"], signal.SIGKILL)
    print("cli_launcher: the mcpdeps zygote ended while the run was in progress", file=sys.stderr)
    os._exit(1)


if __name__ == "__main__":
    main()
