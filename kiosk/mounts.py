"""Which file system holds a path, and whether what is written there survives a power-off.

Raspberry Pi OS's overlay file system (``raspi-config nonint do_overlayfs 0``) keeps every
change to the root in RAM (an ``overlay`` whose upper layer is a ``tmpfs``): a state directory
there loses the stamp queue, the counters and the calibration at each power-off.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

RAM_FILE_SYSTEMS = frozenset({"tmpfs", "ramfs"})
_ESCAPE = re.compile(r"\\([0-7]{3})")


@dataclass(frozen=True)
class Mount:
    point: str
    fstype: str
    options: tuple[str, ...]  # the super block's options (upperdir=... for an overlay)


def mounts(mountinfo: str) -> list[Mount]:
    """The mounts listed in a ``/proc/self/mountinfo`` text."""
    found = []
    for line in mountinfo.splitlines():
        fields, _, rest = line.partition(" - ")
        parts, tail = fields.split(), rest.split()
        if len(parts) >= 5 and len(tail) >= 3:
            point = _ESCAPE.sub(lambda m: chr(int(m.group(1), 8)), parts[4])
            found.append(Mount(point, tail[0], tuple(tail[2].split(","))))
    return found


def mount_of(path: str, table: list[Mount]) -> Mount | None:
    """The mount that holds ``path`` (an absolute, resolved path): the longest mount point above
    it; the last one mounted where two share a point."""
    best: Mount | None = None
    for mount in table:
        point = mount.point.rstrip("/") or "/"
        if path == point or path.startswith(point.rstrip("/") + "/"):
            if best is None or len(point) >= len(best.point.rstrip("/") or "/"):
                best = mount
    return best


def in_memory(path: str, table: list[Mount]) -> bool | None:
    """Whether what is written to ``path`` lives in RAM: a tmpfs, or an overlay whose upper
    layer is one; None for an overlay whose upper layer is not visible here."""
    mount = mount_of(path, table)
    if mount is None:
        return None
    if mount.fstype in RAM_FILE_SYSTEMS:
        return True
    if mount.fstype != "overlay":
        return False
    upper = next((o.partition("=")[2] for o in mount.options if o.startswith("upperdir=")), "")
    holder = mount_of(upper, table) if upper.startswith("/") else None
    if holder is None or holder is mount:  # the upper layer lies outside this mount namespace
        return None
    return holder.fstype in RAM_FILE_SYSTEMS


def mount_table(mountinfo: Path = Path("/proc/self/mountinfo")) -> list[Mount]:
    """This process's mounts (none where ``mountinfo`` cannot be read)."""
    try:
        return mounts(mountinfo.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return []
