def check_stock(title: str, warehouse: str) -> int:
    return 1
