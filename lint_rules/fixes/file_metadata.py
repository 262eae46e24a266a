"""What a rewritten file keeps of the one it replaces: owner, mode, extended attributes.

A replacement is a new inode, so everything that is not the text must be given to it
again. Extended attributes carry more than labels: POSIX ACLs live in
`system.posix_acl_access`, and with an ACL the group bits of the mode are its mask, so a
replacement given only the mode would grant the owning group what the mask allowed
another user (`--fix` used to widen files that way). Attributes the new file got by itself
(a folder's default ACL) but the old one lacked are taken away. What cannot be kept is a
`Refused` naming it: the file is then left as it is, never silently changed.
"""

from __future__ import annotations

import os
import stat

from ...resolver_core.file_guard import Refused
from ...resolver_core.records import record


@record
class Metadata:
    """A file's owner, permission bits and extended attributes, as read from its descriptor."""

    uid: int
    gid: int
    mode: int
    xattrs: dict[str, bytes]

    @classmethod
    def of(cls, fd: int, st: os.stat_result) -> Metadata:
        return cls(st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode), _xattrs(fd))


def _xattrs(fd: int) -> dict[str, bytes]:
    """Every extended attribute this user can read; none where the file system keeps none."""
    if not hasattr(os, "listxattr"):
        return {}
    try:
        names = os.listxattr(fd)
    except OSError:
        return {}
    found = {}
    for name in names:
        try:
            found[name] = os.getxattr(fd, name)
        except OSError:  # gone meanwhile: the last look at the file will notice
            continue
    return found


def give(fd: int, metadata: Metadata, display: str) -> None:
    """Make the open file `fd` carry `metadata`: owner first (giving a file away clears its
    set-id bits), then the mode, then the attributes (an ACL sets the group bits to its mask).
    Refused if any of it does not hold afterwards."""
    if (metadata.uid, metadata.gid) != (os.getuid(), os.getgid()):
        os.fchown(fd, metadata.uid, metadata.gid)
    os.fchmod(fd, metadata.mode)
    have = _xattrs(fd)
    name = ""
    try:
        for name in sorted(have.keys() - metadata.xattrs.keys()):
            os.removexattr(fd, name)
        for name, value in sorted(metadata.xattrs.items()):
            if have.get(name) != value:
                os.setxattr(fd, name, value)
    except OSError as exc:
        raise Refused(
            f"{display} has the extended attribute {name}, which mcpdeps could not give the rewritten "
            f"file ({exc.strerror or exc}); it was left as it is"
        ) from exc
    kept = Metadata.of(fd, os.fstat(fd))
    if kept != metadata:
        raise Refused(
            f"{display} would not keep its permissions or attributes if rewritten; it was left as it is"
        )
