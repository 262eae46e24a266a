"""The mcpdeps command line: thin typer front ends over resolver_core and lint_rules."""
