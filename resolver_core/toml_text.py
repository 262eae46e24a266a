"""TOML text parsed by the interpreter's parser (`tomllib`, Python 3.11+) or its backport
(`tomli`, Python 3.10), for the three readers of TOML: lint settings, uv workspaces and `serve`'s
entry point.

The parser is imported by the first call, not with this module: most runs find no file naming
mcpdeps or a workspace, and the parser (with `datetime`) would be a cost of every run.
"""

from __future__ import annotations

import sys
from typing import Any


def loads(text: str) -> dict[str, Any]:
    """`text` parsed; a `ValueError` where it cannot be read: the parser's `TOMLDecodeError`, or
    the interpreter's own (an integer past its limit of digits, `sys.set_int_max_str_digits`)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10
        import tomli as tomllib
    return tomllib.loads(text)
