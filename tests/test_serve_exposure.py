"""Binding beyond loopback: the warning a user sees, and DNS-rebinding protection kept on.

Tests never bind 0.0.0.0, so these check the pieces `serve` uses for it: the
SDK's own `TransportSecurityMiddleware` fed with our settings, and the panel.
"""

from __future__ import annotations

import io
import socket

import pytest
from mcp.server.transport_security import TransportSecurityMiddleware
from mcpdeps.cli.serve.http import HttpOptions, is_loopback, transport_security
from mcpdeps.cli.serve.terminal import exposure_warning
from rich.console import Console


def _accepts(options: HttpOptions, host: str) -> bool:
    return TransportSecurityMiddleware(transport_security(options))._validate_host(host)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("192.168.1.10", False),
        ("example.com", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_all_interfaces_still_refuse_foreign_host_headers() -> None:
    options = HttpOptions(
        spec="server.py",
        cwd=".",
        host="0.0.0.0",
        port=8000,
        allow_hosts=["shop.internal", "fe80::1", "gw:8443"],
    )
    settings = transport_security(options)
    assert settings.enable_dns_rebinding_protection
    assert _accepts(options, "127.0.0.1:8000") and _accepts(options, "localhost:8000")
    assert _accepts(options, f"{socket.gethostname()}:8000")
    assert _accepts(options, "shop.internal") and _accepts(options, "shop.internal:8000")
    assert _accepts(options, "[fe80::1]:8000") and _accepts(options, "gw:8443")
    assert not _accepts(options, "gw:9999")
    assert not _accepts(options, "attacker.example:8000")


def test_specific_host_is_allowed_by_name() -> None:
    options = HttpOptions(spec="server.py", cwd=".", host="192.168.1.10", port=9000)
    assert _accepts(options, "192.168.1.10:9000")
    assert not _accepts(options, "192.168.1.11:9000")


def test_exposure_warning_is_loud() -> None:
    out = io.StringIO()
    exposure_warning(
        HttpOptions(spec="s.py", cwd=".", host="0.0.0.0", port=8000), Console(file=out, width=100)
    )
    text = " ".join(out.getvalue().replace("│", " ").split())
    assert "WARNING: server exposed beyond this machine" in text
    assert "Listening on every network interface, port 8000" in text
    assert "no authentication" in text and "--allow-host" in text
