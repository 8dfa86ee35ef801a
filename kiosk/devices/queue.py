"""The durable stamp queue: SQLite in the state directory, so no visitor's stamp is ever lost.

A stamp is stored (with its rendered image, so a job printed after a reboot still carries the
visitor's date) *before* it is printed, counted as an attempt when printing starts, and marked
done after the last byte went out. After a crash or a power cut every job not marked done is
printed again: at least once, never silently dropped; only the job that was in flight can come
out twice. WAL journaling with ``synchronous=FULL`` keeps the file consistent across power cuts.

The flood limits (a per-card cool-down and a number of stamps per minute) are checked here, at
submission, because they are about what a visitor asked for, not about the printer.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    card_id  TEXT    NOT NULL,
    created  REAL    NOT NULL,
    image    BLOB,               -- the 1-bit PNG to print; dropped once done
    attempts INTEGER NOT NULL DEFAULT 0,
    done     REAL                -- NULL while the job waits or is in flight
);
CREATE INDEX IF NOT EXISTS jobs_waiting ON jobs (done, id);
CREATE INDEX IF NOT EXISTS jobs_card ON jobs (card_id, created);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""

#: Counter names, all starting at 0.
COUNTERS: tuple[str, ...] = (
    "submitted",
    "printed",
    "reprinted",
    "refused_cooldown",
    "refused_rate",
    "discarded",
)


@dataclass(frozen=True)
class Job:
    id: int
    card_id: str
    created: float
    image: bytes
    attempts: int


@dataclass(frozen=True)
class Admission:
    """The answer to a stamp request: accepted with a job id, or refused with a message key."""

    job_id: int | None
    reason: str = ""

    @property
    def accepted(self) -> bool:
        return self.job_id is not None


class JobQueue:
    """Stamp jobs in one SQLite file; safe to share between the UI thread and the printer worker."""

    def __init__(
        self,
        path: Path,
        *,
        card_cooldown_s: float = 0.0,
        max_per_minute: int = 0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``card_cooldown_s``: a card stamped less than this ago is refused (0: no limit);
        ``max_per_minute``: stamps accepted in any 60 s window (0: no limit)."""
        self.path = path
        self.card_cooldown_s = card_cooldown_s
        self.max_per_minute = max_per_minute
        self._clock = clock
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> JobQueue:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def submit(self, card_id: str, image_png: bytes, *, limited: bool = True) -> Admission:
        """Store a job unless a flood limit refuses it (``limited=False``: a technician's test
        page); the job is on disk when this returns."""
        now = self._clock()
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            if (
                limited
                and self.card_cooldown_s > 0
                and self._db.execute(
                    "SELECT 1 FROM jobs WHERE card_id = ? AND created > ? LIMIT 1",
                    (card_id, now - self.card_cooldown_s),
                ).fetchone()
            ):
                self._bump("refused_cooldown")
                return Admission(None, "devices.stamp.cooldown")
            if limited and self.max_per_minute > 0:
                (recent,) = self._db.execute("SELECT COUNT(*) FROM jobs WHERE created > ?", (now - 60.0,)).fetchone()
                if recent >= self.max_per_minute:
                    self._bump("refused_rate")
                    return Admission(None, "devices.stamp.rate")
            cur = self._db.execute(
                "INSERT INTO jobs (card_id, created, image) VALUES (?, ?, ?)",
                (card_id, now, image_png),
            )
            self._bump("submitted")
            return Admission(cur.lastrowid)

    def next_job(self) -> Job | None:
        """The oldest job not yet done (an interrupted one comes first again), or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, card_id, created, image, attempts FROM jobs WHERE done IS NULL ORDER BY id LIMIT 1"
            ).fetchone()
        return Job(*row) if row else None

    def begin(self, job_id: int) -> None:
        """Record that printing of ``job_id`` starts; a second start counts as a reprint."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            (attempts,) = self._db.execute("SELECT attempts FROM jobs WHERE id = ?", (job_id,)).fetchone()
            if attempts:
                self._bump("reprinted")
            self._db.execute("UPDATE jobs SET attempts = attempts + 1 WHERE id = ?", (job_id,))

    def finish(self, job_id: int) -> None:
        """Mark ``job_id`` printed; its image is dropped, its row kept for the flood limits."""
        self._close(job_id, "printed")

    def discard(self, job_id: int) -> None:
        """Take an unprintable job (its image cannot be read) out of the queue, counted."""
        self._close(job_id, "discarded")

    def _close(self, job_id: int, counter: str) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            cur = self._db.execute(
                "UPDATE jobs SET done = ?, image = NULL WHERE id = ? AND done IS NULL",
                (self._clock(), job_id),
            )
            if cur.rowcount:
                self._bump(counter)

    def waiting(self, card_id: str | None = None) -> int:
        """How many jobs (of ``card_id``, or all) are not yet printed."""
        with self._lock:
            (n,) = self._db.execute(
                "SELECT COUNT(*) FROM jobs WHERE done IS NULL AND (? IS NULL OR card_id = ?)",
                (card_id, card_id),
            ).fetchone()
        return int(n)

    def counters(self) -> dict[str, int]:
        """Every counter of :data:`COUNTERS` plus ``waiting``."""
        with self._lock:
            stored = dict(self._db.execute("SELECT name, value FROM counters").fetchall())
        values = {name: int(stored.get(name, 0)) for name in COUNTERS}
        values["waiting"] = self.waiting()
        return values

    def _bump(self, name: str) -> None:
        self._db.execute(
            "INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1",
            (name,),
        )
