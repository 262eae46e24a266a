from app.inventory import check_stock

__all__ = ["check_stock"]
