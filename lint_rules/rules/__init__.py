"""The rules themselves, one module per rule (`registry.py` collects them; `base.Rule` is their
shape). They live apart from the engine's modules (checking, records, cache, fixes) so that a
rule is read, added or changed in one place; helpers that only rules share start with `_`."""
