def check(isbn: str) -> int:
    return 2
