"""Logging decorator."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


def logged(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return wrapper
