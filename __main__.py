"""`python -m mcpdeps`: the same entry point as the console script; every child mcpdeps starts uses it."""

from .cli.main import main

main()
