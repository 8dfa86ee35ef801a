"""The state directory (job queue, counters) and atomic writes into it.

A kiosk is switched off at the wall, so nothing here may be left half-written: files are written
to a temporary name, flushed to disk, then renamed over the old one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from kiosk.errors import KioskError


def state_dir() -> Path:
    """``$KIOSK_STATE_DIR``, else systemd's ``$STATE_DIRECTORY``, else ``~/.local/state/kiosk``.

    The directory is created when missing; an unusable one is a :class:`KioskError`.
    """
    override = os.environ.get("KIOSK_STATE_DIR")
    systemd = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    path = Path(override or systemd or Path.home() / ".local" / "state" / "kiosk")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise KioskError(f"state directory {path} cannot be created: {exc}") from exc
    return path


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a power cut leaves either the old or the new file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
