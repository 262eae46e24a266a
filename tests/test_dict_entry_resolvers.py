"""`Resolve(RESOLVERS["user"])`: a resolver read out of a dict written out is the value written
for that key (`written_collections.written_entry`), checked as the SDK checks it; a dict the
source changes, a computed key or a `**` entry stay what only the run knows (MCPD113, info),
never a finding the SDK would not make. Each project is checked against the real SDK."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files
from published_shapes import CLEAN, PROJECT, REFUSED, found, sdk
from test_published_shapes_s15_resolvers import SERVER, entry, uses

GOOD = CLEAN[1].replace("load_d", "load_ok")

UNREAD = {
    "changed after its literal": (
        CLEAN[0] + "\n\n\n" + GOOD + "\n\n\nRESOLVERS = {'user': load_d}\nRESOLVERS['user'] = load_ok\n",
        'RESOLVERS["user"]',
        None,
    ),
    "updated": (
        CLEAN[0] + "\n\n\n" + GOOD + "\n\n\nRESOLVERS = {'user': load_d}\nRESOLVERS.update(user=load_ok)\n",
        'RESOLVERS["user"]',
        None,
    ),
    "a ** entry": (
        CLEAN[0]
        + "\n\n\n"
        + GOOD
        + "\n\n\nBASE = {'user': load_d}\nRESOLVERS = {'admin': load_ok, **BASE}\n",
        'RESOLVERS["user"]',
        REFUSED,
    ),
    "a computed key": (
        CLEAN[0] + "\n\n\nRESOLVERS = {'user': load_d}\n",
        "RESOLVERS['us' + 'er']",
        REFUSED,
    ),
}
"""Deps modules whose dict lint does not read, the target, and what the SDK says (None: starts)."""


@pytest.mark.parametrize("case", sorted(UNREAD))
def test_a_dict_the_run_may_change_is_not_read(tmp_path: Path, case: str) -> None:
    """The SDK resolves what the dict holds when the tool registers; lint says the resolver is
    known only at run time (MCPD113, info) and reports no finding in either file."""
    deps, target, refused = UNREAD[case]
    files = {
        **PROJECT,
        "app/server.py": SERVER,
        "app/deps.py": deps,
        "app/tools.py": uses("from app.deps import RESOLVERS\n", target),
        "app/main.py": entry("app.tools"),
    }
    write_files(tmp_path, files)
    ran = sdk(tmp_path, "import app.main")
    if refused is None:
        assert ran.returncode == 0, ran.stderr
    else:
        assert refused in ran.stderr
    diagnostics = found(tmp_path, ["."])
    assert [(d["code"], d["severity"]) for d in diagnostics] == [("MCPD113", "info")], diagnostics
    assert found(tmp_path, ["app/deps.py"]) == [d for d in diagnostics if d["path"] == "app/deps.py"]
