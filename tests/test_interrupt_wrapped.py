"""Ctrl+C while a module is imported can reach mcpdeps wrapped in another exception.

A `KeyboardInterrupt` raised in a descriptor's `__set_name__` (a dataclass field of a class
being created: libcst's node classes as `lint --fix` imports them) is re-raised by Python
as `RuntimeError: Error calling __set_name__ ...`, caused by the interrupt. It leaves as an
interrupt does (exit 130, "interrupted"), not as an internal error (exit 2).
"""

from __future__ import annotations

import pytest
from mcpdeps.cli.errors import guarded


class _Interrupting:
    def __set_name__(self, owner: type, name: str) -> None:
        raise KeyboardInterrupt


def _define_a_class() -> None:
    type("Node", (), {"field": _Interrupting()})


def test_an_interrupt_wrapped_by_set_name_exits_as_an_interrupt(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(RuntimeError) as wrapped:
        _define_a_class()
    assert isinstance(wrapped.value.__cause__, KeyboardInterrupt)
    with pytest.raises(SystemExit) as done:
        guarded(_define_a_class, ["lint", "--fix", "."])
    assert done.value.code == 130
    assert capsys.readouterr().err == "mcpdeps: interrupted\n"


def test_a_runtime_error_of_its_own_is_still_an_internal_error(capsys: pytest.CaptureFixture[str]) -> None:
    def fail() -> None:
        try:
            raise ValueError("inner")
        except ValueError as exc:
            raise RuntimeError("outer") from exc

    with pytest.raises(SystemExit) as done:
        guarded(fail, ["lint", "."])
    assert done.value.code == 2
    assert "internal error: RuntimeError: outer" in capsys.readouterr().err
