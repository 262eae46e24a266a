"""Rendering shared by several commands (rich only; no typer): hanging indents, help layout."""
