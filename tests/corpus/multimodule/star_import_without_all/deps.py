def check_stock(title: str) -> int:
    return 1


def _check(title: str) -> int:
    return 0
