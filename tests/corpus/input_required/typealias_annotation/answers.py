from typing import TypeAlias

from mcp.types import InputRequiredResult

Answer: TypeAlias = InputRequiredResult | str
