"""Services."""
