"""Configuration errors exit 2 with a sentence naming the file (and the key), never a traceback.

`tests/test_config.py` covers an unknown key, wrong-typed `select`/`fail-on`, unknown rule
codes in `ignore` and `per-file-ignores`, invalid TOML and a missing `--config` file. Added
here: the shapes any TOML parser accepts but a config cannot be (`tool = 3`, a
`[tool.mcpdeps]` that is no table), other wrong types, unknown codes in `extend-select`,
a non-UTF-8 file, a bad explicit `--config`, and the same files met by `serve`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_mcpdeps

SERVER = "from mcp.server import MCPServer\n\nmcp = MCPServer('x')\n"


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (b"tool = 3\n", None),  # not our table: ignored like any other pyproject.toml
        (b'tool = "mcpdeps"\n', None),
        (b'[tool]\nmcpdeps = "x"\n', "has no [tool.mcpdeps] table"),
        (b'[tool.mcpdeps]\nper-file-ignores = ["MCPD001"]\n', "bad value for 'per-file-ignores'"),
        (b'[tool.mcpdeps.per-file-ignores]\n"a.py" = "MCPD001"\n', "bad value for 'per-file-ignores.a.py'"),
        (b"[tool.mcpdeps]\nsrc = 3\n", "bad value for 'src'"),
        (b'[tool.mcpdeps]\nexclude = "x"\n', "bad value for 'exclude'"),
        (b'[tool.mcpdeps]\nselect = ["MCPD001", 3]\n', "bad value for 'select.1'"),
        (b'[tool.mcpdeps]\nextend-select = ["MCPD999"]\n', "extend-select names 'MCPD999'"),
        (b'[tool.mcpdeps.lint]\nselect = ["MCPD001"]\n', "unknown key 'lint'"),
        (b'[tool.mcpdeps]\nselect = ["\xff"]\n', "is not UTF-8 text"),
        (b"[tool.mcpdeps]\nselect = [\n", "is not valid TOML"),
    ],
)
def test_bad_pyproject(tmp_path: Path, config: bytes, expected: str | None) -> None:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_bytes(config)
    proc = run_mcpdeps("lint", "--no-cache", cwd=tmp_path)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    if expected is None:
        assert proc.returncode == 0, proc.stderr
        return
    assert proc.returncode == 2, proc.stdout + proc.stderr
    message = " ".join(proc.stderr.split())
    assert expected in message and str(tmp_path / "pyproject.toml") in message


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("bad.toml", b'select = ["MCPD001"\n', "bad.toml is not valid TOML"),
        ("mcpdeps.toml", b'selec = ["MCPD001"]\n', "unknown key 'selec'"),
        ("mcpdeps.toml", b'fail-on = ["error"]\n', "bad value for 'fail-on'"),
        ("binary.toml", b"\x00\xff\xfe", "binary.toml is not UTF-8 text"),
    ],
)
def test_bad_explicit_config_file(tmp_path: Path, name: str, content: bytes, expected: str) -> None:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    (tmp_path / name).write_bytes(content)
    proc = run_mcpdeps("lint", "--no-cache", "--config", name, cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert expected in " ".join(proc.stderr.split()), proc.stderr


def test_a_folder_given_as_config_is_an_exit_2_sentence(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    proc = run_mcpdeps("lint", "--no-cache", "--config", ".", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert str(tmp_path) in proc.stderr


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (b"tool = 3\n", "No MCPServer found"),  # ignored; then the usual search for a server
        (b'[tool]\nmcpdeps = "x"\n', "No MCPServer found"),
        (b"[tool.mcpdeps]\nserve = 3\n", "must be a string"),
        (b'[tool.mcpdeps]\nserve = "\xff"\n', "cannot be read"),
    ],
)
def test_serve_reads_bad_pyprojects_without_crashing(tmp_path: Path, config: bytes, expected: str) -> None:
    (tmp_path / "server.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_bytes(config)
    proc = run_mcpdeps("serve", cwd=tmp_path, timeout=60)
    assert (
        proc.returncode in (1, 2) and "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    )
    assert expected in " ".join(proc.stderr.split()), proc.stderr
