__all__ = ["check_stock"]


def check_stock(title: str) -> int:
    return 1


def _private(title: str) -> int:
    return 0
