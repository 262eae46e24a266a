"""What `mcpdeps new` is made of: reading a module with libcst, deciding what to add and where,
rendering the new code, checking it, and writing it atomically.

Kept apart from `cli/new_cmd.py` so the command module stays a thin typer front end and
`libcst` is only imported when `new` actually runs (start-up of `mcpdeps lint` is measured).
"""
