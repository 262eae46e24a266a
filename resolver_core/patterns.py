"""Regular expressions compiled the first time a run uses them.

Compiling a pattern is paid when its module is imported, and every run imports the analyzer
whole, while most runs use few of its patterns: the import scan's (for `lint FILE` and the
workers' plan), the trust rules', the prefilter's rarer shapes, modern syntax on an older
interpreter. Those are declared here, with `compiled_when_used`, and called for their pattern:
`_IMPORT().finditer(text)`. A pattern every run uses is compiled at import as usual.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import AnyStr


def compiled_when_used(pattern: AnyStr, flags: int = 0) -> Callable[[], re.Pattern[AnyStr]]:
    """`re.compile(pattern, flags)`, the first time it is called, and the same pattern after."""
    return functools.cache(functools.partial(re.compile, pattern, flags))
