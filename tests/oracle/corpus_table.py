"""Write `tests/corpus/README.md`: what the corpus is, and how many cases cover each rule.

Run ``python tests/oracle/corpus_table.py`` after adding or changing a case;
``--check`` exits 1 when the README is out of date (the test suite runs the same check).
The counts come from the `# expect:` headers only, so this needs neither the SDK nor the
linter and runs in milliseconds.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "corpus"
README = CORPUS / "README.md"
EXAMPLES = ("examples/bookshop", "examples/broken")
HEADER = re.compile(r"^# expect: (ok|MCPD0\d\d(?:, MCPD0\d\d)*)\s*$")

# The registration-error rules of docs/contracts.md, with the SDK check each one mirrors
# (ids of sdk-semantics.md). MCPD010 is not in the contract table: the linter added it for
# T1, which the contract gives no code (lint_rules/rules/lambda_without_name.py).
RULES: dict[str, tuple[str, str]] = {
    "MCPD001": ("resolver-cycle", "R1"),
    "MCPD002": ("unclassifiable-parameter", "R2"),
    "MCPD003": ("resolve-in-union", "R3"),
    "MCPD004": ("multiple-questions", "R4"),
    "MCPD005": ("resolve-with-input-required", "R5"),
    "MCPD006": ("underscore-parameter", "T2"),
    "MCPD007": ("invalid-resolver", "T10"),
    "MCPD008": ("bare-tool-decorator", "T9"),
    "MCPD009": ("unevaluable-annotation", "T3"),
    "MCPD010": ("lambda-tool-without-name", "T1"),
}

INTRO = """\
# The SDK-oracle corpus

Ground truth for `mcpdeps lint` and `mcpdeps graph`. Each case is a folder
`tests/corpus/<group>/<case>/` whose entry module is `server.py` (plus any modules and
packages the case needs). The first line of `server.py` says what the SDK does with it:

- `# expect: ok`: every tool registers;
- `# expect: MCPD00X[, MCPD00Y]`: the registration-error codes (contracts.md) the case produces.

Registrations inside functions happen when an entry point calls them at start-up: the next
comment lines, `# start: <statement>`, are what the oracle runs after the import, in the
module's namespace (`# start: mcp = build_server(store={})` calls a factory and keeps its
server under the factory's variable name; `# start: register(MCPServer())` calls a helper
with a fresh server). The linter sees no such line: every registration site counts for it.

`tests/test_oracle.py` checks every case three ways in one run: the real SDK
(`tests/oracle/sdk_verdicts.py`, one subprocess, registration patched so every tool gets a
verdict) must produce exactly the header's codes; `mcpdeps lint` must report the SDK's code
for every rejected tool and nothing of 0xx for an accepted one; `mcpdeps graph` must list
the SDK's published input-schema properties, in order, for every accepted tool.

Rules for writing a case:

- at most one registration error per tool (the SDK reports only the first one per tool, so
  the header must be both the SDK's and the linter's set), and tool names unique in a case;
- no I/O or network at import; the case is imported as the module `server` with its
  folder first on `sys.path`;
- valid cases must also be free of the 1xx run-time traps (no positional-only parameters,
  no `ctx.elicit` in tools, no defaults on resolved parameters, stable question messages,
  elicitation models with only str/int/float/bool/Literal fields...): the whole valid
  corpus must lint silent;
- T1 (a lambda registered without `name=`) has no code in the contract table; the linter
  reports it as MCPD010 lambda-tool-without-name (`lint_rules/rules/lambda_without_name.py`), and
  the oracle maps the SDK's message to that code.

After adding or changing a case, regenerate this file: `python tests/oracle/corpus_table.py`.
"""


def read_header(server_file: Path) -> list[str]:
    """The codes of a case (empty for `ok`); raises on a malformed header."""
    first = server_file.read_text(encoding="utf-8").partition("\n")[0]
    match = HEADER.match(first)
    if match is None:
        raise ValueError(f"{server_file}: first line must be '# expect: ok' or '# expect: MCPD00X[, ...]'")
    return [] if match.group(1) == "ok" else match.group(1).split(", ")


def case_headers() -> dict[str, list[str]]:
    """Every corpus case and example, relative to the repository, with its expected codes."""
    folders = sorted(p.parent for p in CORPUS.glob("*/*/server.py"))
    folders += [REPO / example for example in EXAMPLES]
    return {f.relative_to(REPO).as_posix(): read_header(f / "server.py") for f in folders}


def render(headers: dict[str, list[str]]) -> str:
    """The README text for these cases."""
    per_code = Counter(code for codes in headers.values() for code in codes)
    valid = sum(1 for codes in headers.values() if not codes)
    multi = sum(1 for codes in headers.values() if len(codes) > 1)
    lines = [INTRO, "## Cases per rule", ""]
    lines += ["| code | name | SDK check | cases |", "|---|---|---|---|"]
    lines += [f"| {code} | {name} | {sdk} | {per_code[code]} |" for code, (name, sdk) in RULES.items()]
    lines += [f"| ok | (valid: every tool registers) | | {valid} |", ""]
    lines.append(
        f"{len(headers)} cases in all ({len(EXAMPLES)} of them the examples), {valid} valid, "
        f"{len(headers) - valid} invalid, {multi} with several codes (one per tool)."
    )
    groups = Counter(case.split("/")[-2] if case.startswith("tests/") else "examples" for case in headers)
    lines += ["", "## Cases per group", "", "| group | cases |", "|---|---|"]
    lines += [f"| {group} | {count} |" for group, count in sorted(groups.items())]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Write the README, or with `--check` only compare it."""
    text = render(case_headers())
    if "--check" in argv:
        if not README.exists() or README.read_text(encoding="utf-8") != text:
            sys.stderr.write(f"{README} is out of date: run python tests/oracle/corpus_table.py\n")
            return 1
        return 0
    README.write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
