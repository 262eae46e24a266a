"""Plugin bookkeeping."""
EXPORTED: list = []


def exported(fn):
    EXPORTED.append(fn.__name__)
    return fn
