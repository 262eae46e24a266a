"""`serve` over HTTP: loopback by default, a loud warning for all interfaces, Host checked.

What the serve tests already cover is not repeated here (the DNS-rebinding 421/403 on the
default binding, the warning's text from `exposure_warning()`, `transport_security()` for
0.0.0.0). Missing, and added here with the real process: *where* the default socket is
bound (read from the kernel's table, `/proc/net/tcp`, not inferred from a connection to
127.0.0.1 succeeding), and that `--host 0.0.0.0` (and `0`, and IPv6 `::`) really prints the
warning and still refuses a foreign `Host` header on the wildcard socket. Binding all
interfaces lasts a few seconds, on a random free port.
"""

from __future__ import annotations

import socket
from pathlib import Path

import httpx2
import pytest
from test_serve_support import BOOKSHOP, INITIALIZE, ServeProcess, free_port

TCP_TABLES = (Path("/proc/net/tcp"), Path("/proc/net/tcp6"))
LISTEN = "0A"
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}

pytestmark = pytest.mark.skipif(not TCP_TABLES[0].exists(), reason="needs Linux /proc/net/tcp")


def listening_addresses(port: int) -> set[str]:
    """Local addresses (hex, as the kernel writes them) with a socket listening on `port`."""
    found = set()
    for table in TCP_TABLES:
        if not table.exists():
            continue
        for line in table.read_text().splitlines()[1:]:
            fields = line.split()
            address, _, hex_port = fields[1].partition(":")
            if int(hex_port, 16) == port and fields[3] == LISTEN:
                found.add(address)
    return found


def test_default_binding_is_loopback_only() -> None:
    port = free_port()
    with ServeProcess(BOOKSHOP, "--transport", "http", "--port", str(port)) as proc:
        proc.wait_for_port(port)
        assert listening_addresses(port) == {"0100007F"}  # 127.0.0.1, and nothing else
        assert "WARNING" not in proc.stderr


WILDCARDS = {"0.0.0.0": "0" * 8, "0": "0" * 8, "::": "0" * 32}
"""How each spelling of "every interface" appears in the kernel's tables (IPv4, IPv6)."""


@pytest.mark.parametrize("host", sorted(WILDCARDS))
def test_all_interfaces_warns_and_still_refuses_foreign_hosts(host: str) -> None:
    if host == "::" and not (socket.has_ipv6 and TCP_TABLES[1].exists()):
        pytest.skip("no IPv6 on this machine")
    port = free_port()
    with ServeProcess(BOOKSHOP, "--transport", "http", "--host", host, "--port", str(port)) as proc:
        proc.wait_for_port(port)
        assert listening_addresses(port) == {WILDCARDS[host]}  # every interface
        proc.wait_for_text("WARNING")
        text = " ".join(proc.stderr.replace("│", " ").split())
        assert "WARNING: server exposed beyond this machine" in text
        url = f"http://127.0.0.1:{port}/mcp"
        foreign = httpx2.post(
            url, json=INITIALIZE, headers={**HEADERS, "Host": "attacker.example"}, timeout=10
        )
        assert foreign.status_code == 421, foreign.text
        rebound = httpx2.post(
            url, json=INITIALIZE, headers={**HEADERS, "Host": f"attacker.example:{port}"}, timeout=10
        )
        assert rebound.status_code == 421, rebound.text
        local = httpx2.post(url, json=INITIALIZE, headers=HEADERS, timeout=10)
        assert local.status_code == 200, local.text
