from .check import check

__all__ = ["check"]
