def current_user(token: str) -> str:
    return token[:4]
