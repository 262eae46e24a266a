"""What the `mcpdeps mcp` tools return: pydantic models, published as each tool's output schema.

The lint and graph documents are the fixed contracts of `lint --format json` and
`graph --format json` (docs/contracts.md), described field by field so a client
can validate `structuredContent`; each report adds the workspace it was computed
in. The documents themselves are always produced by the commands' own renderers,
never rebuilt here: these classes only describe them.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Literal

from pydantic import BaseModel, Field, create_model

from ...resolver_core.diagnostics import KINDS, Diagnostic, Edit


class WorkspaceInfo(BaseModel):
    """Where the paths were looked up, and whether the client chose it."""

    roots: list[str] = Field(description="The allowed folders; relative paths start at the first one.")
    source: Literal["client", "cwd"] = Field(
        description="`client`: the client's roots; `cwd`: the client gave none, the server's folder is used."
    )
    note: str | None = Field(default=None, description="Why the server's folder is used, when it is.")


def _contract_diagnostic() -> type[BaseModel]:
    """`Diagnostic`'s contract fields (`diagnostics.KINDS`, without the `full` format's
    `help`), typed and defaulted as the dataclass declares them."""
    hints = typing.get_type_hints(Diagnostic)
    defaults = {f.name: f for f in dataclasses.fields(Diagnostic)}

    def default(name: str) -> object:
        f = defaults[name]
        if f.default_factory is not dataclasses.MISSING:
            return Field(default_factory=f.default_factory)
        return ... if f.default is dataclasses.MISSING else f.default

    names = [name for name in KINDS[Diagnostic] if name != "help"]
    model: type[BaseModel] = create_model(  # type: ignore[call-overload]
        "ContractDiagnostic", __base__=BaseModel, **{name: (hints[name], default(name)) for name in names}
    )
    model.__doc__ = "A diagnostic exactly as `mcpdeps lint --format json` prints it."
    return model


if typing.TYPE_CHECKING:
    # Built at run time from the dataclass; to a type checker it is a model like the others.
    class ContractDiagnostic(BaseModel): ...

else:
    ContractDiagnostic = _contract_diagnostic()


class LintSummary(BaseModel):
    files: int
    parsed: int
    errors: int
    warnings: int
    infos: int


class LintReport(BaseModel):
    """`mcpdeps lint --format json`'s document, and the workspace it was run in."""

    version: int
    diagnostics: list[ContractDiagnostic]
    summary: LintSummary
    workspace: WorkspaceInfo


class GraphParameter(BaseModel):
    name: str
    kind: Literal["tool_argument", "context", "resolved"]
    resolver: str | None


class GraphResolver(BaseModel):
    name: str
    qualname: str
    module: str
    path: str | None
    line: int | None
    is_async: bool
    asks: Literal["elicit", "sample", "list_roots"] | None
    parameters: list[GraphParameter]
    used_by: list[str]


class GraphTool(BaseModel):
    name: str
    function: str
    path: str | None
    line: int | None
    arguments: list[str] = Field(description="The input-schema properties the SDK publishes, in order.")
    context: str | None
    resolved: dict[str, str] = Field(description="Resolved parameter name to resolver id (module:qualname).")


class GraphServer(BaseModel):
    name: str | None
    variable: str
    path: str
    line: int | None
    tools: list[GraphTool]


class GraphReport(BaseModel):
    """`mcpdeps graph --format json`'s document, and the workspace it was read in."""

    version: int
    servers: list[GraphServer]
    resolvers: dict[str, GraphResolver]
    workspace: WorkspaceInfo


class RuleReport(BaseModel):
    """A rule's documentation, as `mcpdeps rule CODE` shows it."""

    code: str
    name: str
    severity: Literal["error", "warning", "info"]
    summary: str
    fixable: bool = Field(description="Whether the `fix` tool (`mcpdeps lint --fix`) can repair it.")
    markdown: str = Field(
        description="The whole page: what it finds, why it matters, an example and the fix."
    )


class Consent(BaseModel):
    """What the user is asked before `fix` writes anything."""

    apply: bool = Field(
        default=True, title="Apply these fixes", description="Write the edits shown to the files."
    )


class FileFix(BaseModel):
    path: str
    edits: list[Edit]
    diff: str


FixStatus = Literal["applied", "declined", "cancelled", "nothing_to_fix", "not_asked"]


class FixReport(BaseModel):
    """What `fix` proposed, whether the user let it write, and what is left to fix by hand."""

    status: FixStatus = Field(
        description="`applied`: written; `declined`/`cancelled`: the user said no, nothing written; "
        "`nothing_to_fix`; `not_asked`: the user could not be asked (the client has no forms, or the edits "
        "are more than one question can show whole), nothing written."
    )
    fixed: int = Field(
        description="How many problems were fixed on disk (0 unless `applied`; refused files not counted)."
    )
    proposed: int = Field(description="How many problems the edits proposed fix, written or not.")
    files: list[FileFix]
    unsafe: list[str] = Field(description="Fixes left out because they would make a new error appear.")
    refused: list[str] = Field(description="Files not written because they changed on disk meanwhile.")
    remaining: list[ContractDiagnostic] = Field(
        description="What lint reports once the edits are applied (with them written or not)."
    )
    workspace: WorkspaceInfo
