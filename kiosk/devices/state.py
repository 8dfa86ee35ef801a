"""The state directory (job queue, counters, calibration, PIN lockout) and safe I/O in it.

A kiosk is switched off at the wall, so nothing here may be left half-written: files are written
to a temporary name, flushed to disk, then renamed over the old one. Nor may one bad file stop it:
a state file is read with bounded size and nesting, a damaged one is set aside (renamed, never
deleted), and a write that fails (full disk, read-only card) is logged once and recorded in
:data:`FAULTS`, which the screen, the demo summary and ``kiosk queue list`` show.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from kiosk.errors import KioskError

log = logging.getLogger(__name__)
T = TypeVar("T")

#: A state file larger than this is not read (the largest, counters.json, holds a few hundred bytes).
MAX_STATE_BYTES = 1 << 20
#: Deeper nesting of JSON arrays and objects is refused before parsing (ours are two deep).
MAX_STATE_DEPTH = 16
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')


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


class Faults:
    """What is wrong with the kiosk's storage, by subject (a file name): faults open now, each
    logged once when it appears and once when it clears (never once per try), and what happened
    to files during this run (set aside, recovered), kept for the summary and the screens."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[str, str] = {}
        self._events: list[str] = []

    def report(self, subject: str, message: str) -> None:
        """``subject`` is failing now (a write that did not go through)."""
        with self._lock:
            known = self._open.get(subject) == message
            self._open[subject] = message
        if not known:
            log.warning("%s: %s", subject, message)

    def clear(self, subject: str) -> None:
        """``subject`` works again."""
        with self._lock:
            gone = self._open.pop(subject, None)
        if gone is not None:
            log.info("%s: works again", subject)

    def happened(self, subject: str, message: str) -> None:
        """Something was done about a bad file (set aside, recovered): logged and kept."""
        with self._lock:
            self._events.append(f"{subject}: {message}")
        log.warning("%s: %s", subject, message)

    def current(self) -> dict[str, str]:
        with self._lock:
            return dict(self._open)

    def events(self) -> list[str]:
        with self._lock:
            return list(self._events)

    def forget(self) -> None:
        """Start afresh: another kiosk begins in this process (the test suite runs many)."""
        with self._lock:
            self._open.clear()
            self._events.clear()

    def summary(self) -> dict[str, object]:
        """Both, for a JSON summary: ``{"failing": {subject: message}, "events": [...]}``."""
        return {"failing": self.current(), "events": self.events()}


#: The process's storage faults.
FAULTS = Faults()


def save_file(path: Path, data: bytes) -> bool:
    """:func:`atomic_write` that never raises for the disk: False (and a fault reported once)
    when the file could not be written; the caller keeps its data in memory."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data)
    except OSError as exc:
        FAULTS.report(path.name, f"not saved to {path}: {exc.strerror or exc}")
        return False
    FAULTS.clear(path.name)
    return True


def set_aside(path: Path, why: str) -> Path | None:
    """Rename a damaged state file to ``<name>.bad-<time>`` (kept for a technician, never
    deleted) and report it; the new name, or None when even renaming failed."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(100):
        aside = path.with_name(f"{path.name}.bad-{stamp}" + (f"-{n}" if n else ""))
        if aside.exists():
            continue
        try:
            os.replace(path, aside)
        except OSError as exc:
            FAULTS.report(path.name, f"{why}; cannot set it aside: {exc.strerror or exc}")
            return None
        FAULTS.happened(path.name, f"{why}; set aside as {aside.name}")
        return aside
    return None


def load_json(path: Path, parse: Callable[[Any], T], *, max_bytes: int = MAX_STATE_BYTES) -> T | None:
    """``parse(data)`` of the JSON file at ``path``, or None when it is absent or bad.

    A file over ``max_bytes``, nested deeper than :data:`MAX_STATE_DEPTH`, holding a number that
    is not finite (``1e999``, ``NaN``), not JSON, or that ``parse`` refuses (ValueError,
    TypeError, KeyError) is set aside with a warning: the caller starts from its defaults.
    """
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise ValueError(f"{size} bytes, over the {max_bytes} a state file may have")
        text = path.read_text(encoding="utf-8")
        depth = json_depth(text)
        if depth > MAX_STATE_DEPTH:
            raise ValueError(f"nested {depth} deep, over {MAX_STATE_DEPTH}")
        data = json.loads(text, parse_float=_finite, parse_constant=_no_constant)
        value = parse(data)
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        FAULTS.report(path.name, f"cannot be read: {exc}")
        return None
    except (ValueError, TypeError, KeyError, OverflowError) as exc:
        set_aside(path, f"unreadable ({type(exc).__name__}: {exc})")
        return None
    return value


def json_depth(text: str) -> int:
    """How deep arrays and objects nest in the JSON ``text`` (strings skipped), without parsing."""
    depth = deepest = 0
    for ch in re.sub(r"[^\[\]{}]", "", _STRINGS.sub("", text)):
        depth += 1 if ch in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def count(value: Any) -> int:
    """``value`` as a counter: an int from 0 to 2**53 (a bool, a float or anything else is refused)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 2**53:
        raise ValueError(f"not a count: {value!r}")
    return value


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number out of range: {text}")
    return value


def _no_constant(text: str) -> float:
    raise ValueError(f"not a number: {text}")
