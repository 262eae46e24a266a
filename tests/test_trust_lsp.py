"""In the editor, MCPD201-MCPD204's unsafe fixes are quick fixes that are never preferred and
say they change behaviour: choosing one is the user's consent."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_helpers import quick_fixes, session_on_root
from mcpdeps.lint_rules.registry import find_rule
from pytest_lsp import LanguageClient
from test_lsp_features import apply, opened

pytestmark = pytest.mark.asyncio(loop_scope="function")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "server.py").write_text(find_rule("MCPD203").INVALID[0])
    return tmp_path


client = session_on_root()


async def test_resolve_it_instead_is_offered_but_never_preferred(
    client: LanguageClient, tmp_path: Path
) -> None:
    source = find_rule("MCPD203").INVALID[0]
    server = tmp_path / "server.py"
    server.write_text(source)
    await opened(client, server)
    [diagnostic] = [d for d in client.diagnostics[server.as_uri()] if d.code == "MCPD203"]
    [fix] = [a for a in await quick_fixes(client, server, diagnostic) if "MCPD203, unsafe" in a.title]
    assert fix.title.startswith("mcpdeps: resolve it instead") and not fix.is_preferred
    assert fix.edit is not None and fix.edit.changes is not None
    fixed = apply(source, fix.edit.changes[server.as_uri()])
    assert "def resolve_api_key(ctx: Context) -> str:" in fixed
    assert "api_key: Annotated[str, Resolve(resolve_api_key)]" in fixed
