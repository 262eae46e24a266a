"""`graph -o FILE`: the format follows the file's extension; pictures are drawn by Graphviz.

`-o g.svg` used to write the text tree into a file named `.svg`. Now `.txt` is the tree,
`.json`, `.mmd`/`.mermaid` and `.dot`/`.gv` are those formats, and `.svg`, `.png` and `.pdf`
are the `dot` text rendered by Graphviz's `dot` program (a clear error says how to get it
when it is missing). Any other extension, or a `--format` that contradicts the extension,
is refused rather than guessed.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from ..errors import UserError

TEXT_FORMATS = {
    ".txt": "tree",
    ".json": "json",
    ".mmd": "mermaid",
    ".mermaid": "mermaid",
    ".dot": "dot",
    ".gv": "dot",
}
PICTURES = (".svg", ".png", ".pdf")
"""Rendered from the dot text by Graphviz (`dot -T<format>`)."""


def format_for(output: Path, given: str | None) -> tuple[str, str | None]:
    """(text format to produce, picture format or None) for `-o output` and an optional `--format`."""
    suffix = output.suffix.lower()
    if suffix in PICTURES:
        wanted, picture = "dot", suffix[1:]
    elif suffix in TEXT_FORMATS:
        wanted, picture = TEXT_FORMATS[suffix], None
    else:
        known = ", ".join([*TEXT_FORMATS, *PICTURES])
        if given is None:
            raise UserError(
                f"Cannot tell the format of {output} from its extension: use one of {known}, "
                "or give --format (tree, json, mermaid, dot)."
            )
        return given, None  # an unknown extension with an explicit format: the user said what they want
    if given is not None and given != wanted:
        raise UserError(f"--format {given} contradicts {output} (a {suffix} file); give one or the other.")
    return wanted, picture


def draw_picture(dot_text: str, picture: str, output: Path) -> None:
    """Render the dot text to `output` with Graphviz."""
    dot = shutil.which("dot")
    if dot is None:
        raise UserError(
            f"Writing {output} needs Graphviz's `dot` program, which is not installed "
            "(apt-get install graphviz, brew install graphviz, or https://graphviz.org/download/). "
            f"Or write {output.with_suffix('.dot')} and render it elsewhere."
        )
    try:
        done = subprocess.run(
            [dot, f"-T{picture}", "-o", str(output)],
            input=dot_text.encode("utf-8"),
            capture_output=True,
            timeout=120,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UserError(f"Graphviz could not draw {output}: {exc}.") from exc
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UserError(f"Graphviz could not draw {output}: {reason[-1] if reason else 'it failed'}.")
