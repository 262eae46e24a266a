"""Calling as a given access token: what `get_access_token()` returns inside the server.

The SDK's auth middleware puts the authenticated user in a context variable that
`get_access_token()` reads; in memory and over stdio nothing sets it. A test client sets
it to a user whose token is the current call's. Handlers of a 2026-07-28 in-process call
run in the caller's task, so the variable is set around each call; a legacy connection's
server task copies the context once, when the connection opens, so the user set there
reads the token from a slot each call fills.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.auth.provider import AccessToken


def _caller_class() -> type:
    from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser

    class Caller(AuthenticatedUser):
        """The authenticated user of a test client: whoever the current call is made as."""

        def __init__(self) -> None:  # the token is read per call, not fixed at construction
            self.token: AccessToken | None = None

        @property
        def access_token(self) -> AccessToken | None:  # type: ignore[override]
            return self.token

        @property
        def scopes(self) -> list[str]:  # type: ignore[override]
            return list(self.token.scopes) if self.token is not None else []

        @property
        def username(self) -> str:  # type: ignore[override]
            return self.token.client_id if self.token is not None else ""

    return Caller


class Identity:
    """The caller's identity for one test client's connection and calls."""

    def __init__(self) -> None:
        from mcp.server.auth.middleware.auth_context import auth_context_var

        self._var = auth_context_var
        self.caller: Any = _caller_class()()
        self._previous: Any = None

    def connect(self) -> None:
        """Before the connection opens: its server task keeps this user for the legacy calls."""
        self._previous = self._var.get()
        self._var.set(self.caller)

    def disconnect(self) -> None:
        self._var.set(self._previous)

    def calling_as(self, token: AccessToken | None) -> None:
        """Make the coming call as `token` (None: unauthenticated) in this task too."""
        self.caller.token = token
        self._var.set(self.caller)


def access_token(
    subject: str | None = None,
    *,
    scopes: list[str] | tuple[str, ...] = (),
    client_id: str = "mcpdeps-test-client",
    claims: dict[str, Any] | None = None,
    token: str = "mcpdeps-test-token",
) -> AccessToken:
    """An `AccessToken` to call as: `client.call("whoami", access_token=access_token("ada", scopes=["read"]))`."""
    from mcp.server.auth.provider import AccessToken

    return AccessToken(token=token, client_id=client_id, scopes=list(scopes), subject=subject, claims=claims)
