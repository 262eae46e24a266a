class BaseQuote:
    def __init__(self, title: str, currency: str) -> None:
        self.title = title
        self.currency = currency
