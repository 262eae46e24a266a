"""Quotas. Resolve the user's bucket first: every word here only contains a marker (Resolved,
an EntityResolver, the .tooltip of a widget, the ibmcp1133 locale, 'json.tool')."""


def quota_left(user: str, bucket: str) -> int:
    """`bucket` is no argument of the tool that runs this: the SDK refuses the tool."""
    return len(user) - len(bucket)
