from mcp.server.mcpserver import ListRoots, Sample


def check_stock(title: str) -> int:
    return 1


def ask_twice(title: str) -> Sample | ListRoots:
    return ListRoots()


def by_warehouse(title: str, warehouse: str) -> int:
    return 1
