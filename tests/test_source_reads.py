"""`source.regular_bytes` reads a file whole, whatever its size was when it was looked at.

Most files are read with one `read` of the size `fstat` gave and one byte more; a file that
grew since (the extra byte is there) or shrank (less comes back) is read on to its end.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from mcpdeps.resolver_core import source


@pytest.mark.parametrize("data", [b"", b"x = 1\n", b"# " + b"a" * 200_000 + b"\n"])
def test_a_file_is_read_as_its_bytes(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "m.py"
    path.write_bytes(data)
    assert source.regular_bytes(path) == data


@pytest.mark.parametrize("told", [0, 5, 100_000])
def test_a_file_whose_size_changed_since_it_was_looked_at_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, told: int
) -> None:
    """`fstat` saying less than the file holds (it grew: the byte asked beyond the size comes
    back) or more (it shrank: less comes back) still gives every byte."""
    data = b"x = 1\n" * 5_000
    path = tmp_path / "m.py"
    path.write_bytes(data)
    real = os.fstat

    def fstat(fd: int) -> os.stat_result:
        st = real(fd)
        return os.stat_result((st.st_mode, *st[1:6], told, *st[7:]))

    monkeypatch.setattr(os, "fstat", fstat)
    assert source.regular_bytes(path) == data


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="procfs")
def test_a_file_whose_size_is_not_known_is_read_whole() -> None:
    """procfs files say they hold nothing, and hold text."""
    path = Path("/proc/self/cmdline")
    assert source.regular_bytes(path) == path.read_bytes() != b""
