"""The durable stamp queue: SQLite in the state directory, so no visitor's stamp is ever lost.

A stamp is stored (with its rendered image, so a job printed after a reboot still carries the
visitor's date) *before* it is printed, counted as an attempt when printing starts, and marked
done after the last byte went out. After a crash or a power cut every job not marked done is
printed again: at least once, never silently dropped; only the job that was in flight can come
out twice. WAL journaling with ``synchronous=FULL`` keeps the file consistent across power cuts.
A job that keeps failing is *parked*: kept, listed by ``kiosk queue list``, skipped by the
printer until a technician reprints it, so the stamps behind it still print.

The flood limits (a per-card cool-down and a number of stamps per minute) are checked here, at
submission, because they are about what a visitor asked for, not about the printer. They are
immune to the wall clock jumping: stamps of this run are compared on the monotonic clock, rows
of earlier runs on the wall clock, ignoring rows dated in the future.

:func:`open_queue` opens the file or says why it cannot: a damaged file (garbage, zeroed or
truncated) is set aside, its waiting stamps salvaged where they still read, and a fresh queue
started; a file that cannot be opened or written (read-only or full disk) is a
:class:`QueueUnavailable`. Every refused stamp has its reason (a message key) and its counter.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kiosk.devices.state import FAULTS, set_aside
from kiosk.errors import KioskError

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    card_id  TEXT    NOT NULL,
    created  REAL    NOT NULL,   -- wall-clock time of the request (the stamp's date)
    image    BLOB,               -- the 1-bit PNG to print; dropped once done
    attempts INTEGER NOT NULL DEFAULT 0,
    done     REAL,               -- NULL while the job waits or is in flight
    failures INTEGER NOT NULL DEFAULT 0,
    parked   REAL,               -- set when the job failed too often; NULL while it may print
    note     TEXT                -- the last failure, for the queue view
);
CREATE INDEX IF NOT EXISTS jobs_waiting ON jobs (done, id);
CREATE INDEX IF NOT EXISTS jobs_card ON jobs (card_id, created);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""
#: Columns added to the first version of the file, added in place when missing.
_ADDED_COLUMNS = {"failures": "INTEGER NOT NULL DEFAULT 0", "parked": "REAL", "note": "TEXT"}

#: Why a stamp was refused: message keys (the screen shows them), each with its own counter.
COOLDOWN = "devices.stamp.cooldown"  # the same card again within the cool-down
RATE = "devices.stamp.rate"  # over the stamps allowed per minute
STORAGE = "devices.stamp.storage"  # the queue could not store the job (full disk, I/O error)
UNAVAILABLE = "devices.stamp.unavailable"  # no queue at all (state directory unusable)
ERROR = "devices.stamp.error"  # the stamp could not be made (an error while rendering it)
REFUSALS: tuple[str, ...] = (COOLDOWN, RATE, STORAGE, UNAVAILABLE, ERROR)

#: Counter names, all starting at 0.
COUNTERS: tuple[str, ...] = (
    "submitted",
    "printed",
    "reprinted",
    "discarded",
    "parked",
    "cleared",
    *(f"refused_{reason.rsplit('.', 1)[1]}" for reason in REFUSALS),
)
_WINDOW_S = 60.0  # the per-minute limit's window
_DAMAGE = ("SQLITE_CORRUPT", "SQLITE_NOTADB")  # error names of a damaged file (not an unusable disk)
_MAGIC = b"SQLite format 3\x00"
_PAGE_SIZES = (4096, 1024, 2048, 8192, 16384, 32768, 65536, 512)
_PROBES = 10_000  # ids looked up past the last one read when a damaged file's sequence is lost


def refusal_counter(reason: str) -> str:
    """The counter of a refusal reason (``devices.stamp.rate`` -> ``refused_rate``)."""
    return f"refused_{reason.rsplit('.', 1)[1]}"


class QueueUnavailable(KioskError):
    """The queue's file cannot be opened or written (read-only directory, full disk, locked)."""


class QueueDamaged(Exception):
    """The file opened but its integrity check failed."""


@dataclass(frozen=True)
class Job:
    id: int
    card_id: str
    created: float
    image: bytes
    attempts: int


@dataclass(frozen=True)
class JobRow:
    """One job as ``kiosk queue list`` shows it; ``state`` is waiting, parked or done."""

    id: int
    card_id: str
    created: float
    attempts: int
    failures: int
    state: str
    note: str


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
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """``card_cooldown_s``: a card stamped less than this ago is refused (0: no limit);
        ``max_per_minute``: stamps accepted in any 60 s window (0: no limit). ``clock`` dates
        the rows, ``monotonic`` times this run's stamps for the limits.

        Raises sqlite3.Error when the file cannot be opened, QueueDamaged when it fails its
        integrity check (:func:`open_queue` handles both)."""
        self.path = path
        self.card_cooldown_s = card_cooldown_s
        self.max_per_minute = max_per_minute
        self._clock = clock
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self._unstored: Counter[str] = Counter()  # refusals the file could not count
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            (check,) = self._db.execute("PRAGMA quick_check").fetchone()
            if check != "ok":
                raise QueueDamaged(f"integrity check: {check}")
            self._db.executescript(_SCHEMA)
            have = {row[1] for row in self._db.execute("PRAGMA table_info(jobs)")}
            for column, kind in _ADDED_COLUMNS.items():
                if column not in have:
                    self._db.execute(f"ALTER TABLE jobs ADD COLUMN {column} {kind}")
            (self._last_of_before,) = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM jobs").fetchone()
        except BaseException:
            self._db.close()
            raise
        self._this_run: list[tuple[str, float]] = []  # (card id, monotonic time) accepted in this run

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> JobQueue:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def submit(self, card_id: str, image_png: bytes, *, cooldown: bool = True, rate: bool = True) -> Admission:
        """Store a job unless a flood limit refuses it (``cooldown=False``: a test page, which
        only the per-minute limit applies to; both False: a technician's reprint) or the file
        cannot take it (refused as STORAGE); the job is on disk when this returns."""
        wall, mono = self._clock(), self._monotonic()
        try:
            with self._lock, self._db:
                self._db.execute("BEGIN IMMEDIATE")
                reason = self._refusal(card_id, wall, mono, cooldown, rate)
                if reason:
                    self._bump(refusal_counter(reason))
                    return Admission(None, reason)
                job_id = self._db.execute(
                    "INSERT INTO jobs (card_id, created, image) VALUES (?, ?, ?)", (card_id, wall, image_png)
                ).lastrowid
                self._bump("submitted")
        except sqlite3.Error as exc:
            self.count_unstored(STORAGE)
            FAULTS.report(self.path.name, f"cannot store a stamp: {exc}")
            return Admission(None, STORAGE)
        with self._lock:
            self._this_run.append((card_id, mono))
        FAULTS.clear(self.path.name)
        return Admission(job_id)

    def count_unstored(self, reason: str) -> None:
        """Count a refusal decided outside the file (it could not store it, or the stamp could
        not be made): kept in memory, shown by :meth:`counters` until the process ends."""
        with self._lock:
            self._unstored[refusal_counter(reason)] += 1

    def _refusal(self, card_id: str, wall: float, mono: float, cooldown: bool, rate: bool) -> str:
        """COOLDOWN, RATE or "" for a request at ``wall`` / ``mono`` (the lock is held)."""
        keep = max(self.card_cooldown_s, _WINDOW_S)
        self._this_run = [(c, t) for c, t in self._this_run if mono - t < keep]
        if cooldown and self.card_cooldown_s > 0:
            recent = any(c == card_id and mono - t < self.card_cooldown_s for c, t in self._this_run)
            if recent or self._before(wall - self.card_cooldown_s, wall, card_id):
                return COOLDOWN
        if rate and self.max_per_minute > 0:
            now = sum(mono - t < _WINDOW_S for _, t in self._this_run)
            if now + self._before(wall - _WINDOW_S, wall) >= self.max_per_minute:
                return RATE
        return ""

    def _before(self, since: float, until: float, card_id: str | None = None) -> int:
        """Jobs of earlier runs dated in (since, until]: a row dated after ``until`` (the clock
        went back since) is ignored rather than blocking stamps until the clock catches up."""
        (n,) = self._db.execute(
            "SELECT COUNT(*) FROM jobs WHERE id <= ? AND created > ? AND created <= ? AND (? IS NULL OR card_id = ?)",
            (self._last_of_before, since, until, card_id, card_id),
        ).fetchone()
        return int(n)

    def next_job(self) -> Job | None:
        """The oldest job not yet done nor parked (an interrupted one comes first again), or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, card_id, created, image, attempts FROM jobs "
                "WHERE done IS NULL AND parked IS NULL ORDER BY id LIMIT 1"
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

    def fail(self, job_id: int, note: str, park_after: int) -> tuple[int, bool]:
        """Record a failed attempt at ``job_id``; at the ``park_after``-th it is parked (kept,
        skipped by :meth:`next_job`). The job's failures so far, and whether it was parked."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("UPDATE jobs SET failures = failures + 1, note = ? WHERE id = ?", (note, job_id))
            parked = self._db.execute(
                "UPDATE jobs SET parked = ? WHERE id = ? AND failures >= ? AND parked IS NULL AND done IS NULL",
                (self._clock(), job_id, park_after),
            ).rowcount
            if parked:
                self._bump("parked")
            row = self._db.execute("SELECT failures FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return (int(row[0]) if row else 0), bool(parked)

    def release(self, job_id: int) -> bool:
        """Put a parked (or waiting) job back in line with its failures forgotten; False when
        there is no such job still to print."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            cur = self._db.execute(
                "UPDATE jobs SET parked = NULL, failures = 0 WHERE id = ? AND done IS NULL", (job_id,)
            )
        return bool(cur.rowcount)

    def clear(self) -> int:
        """Drop every job not yet printed (waiting and parked), counted as cleared; how many."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            n = self._db.execute("UPDATE jobs SET done = ?, image = NULL WHERE done IS NULL", (self._clock(),)).rowcount
            if n:
                self._db.execute(
                    "INSERT INTO counters (name, value) VALUES ('cleared', ?) "
                    "ON CONFLICT(name) DO UPDATE SET value = value + excluded.value",
                    (n,),
                )
        return int(n)

    def restore(self, jobs: list[Job], counters: dict[str, int]) -> None:
        """Put jobs and counters salvaged from a damaged file into this (fresh) queue."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany(
                "INSERT INTO jobs (card_id, created, image, attempts) VALUES (?, ?, ?, ?)",
                [(j.card_id, j.created, j.image, j.attempts) for j in jobs],
            )
            self._db.executemany(
                "INSERT INTO counters (name, value) VALUES (?, ?) "
                "ON CONFLICT(name) DO UPDATE SET value = value + excluded.value",
                [(k, v) for k, v in counters.items() if k in COUNTERS],
            )
            (self._last_of_before,) = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM jobs").fetchone()

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
        """How many jobs (of ``card_id``, or all) wait to be printed (parked ones not included)."""
        with self._lock:
            (n,) = self._db.execute(
                "SELECT COUNT(*) FROM jobs WHERE done IS NULL AND parked IS NULL AND (? IS NULL OR card_id = ?)",
                (card_id, card_id),
            ).fetchone()
        return int(n)

    def state_of(self, job_id: int) -> str:
        """waiting, parked, done, or unknown (no such job)."""
        with self._lock:
            row = self._db.execute("SELECT done, parked FROM jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            return "unknown"
        return "done" if row[0] is not None else "parked" if row[1] is not None else "waiting"

    def jobs(self, done: int = 10) -> list[JobRow]:
        """Every job still to print or parked, oldest first, then the ``done`` latest done."""
        query = (
            "SELECT id, card_id, created, attempts, failures, done, parked, COALESCE(note, '') FROM jobs "
            "WHERE done IS NULL UNION ALL SELECT * FROM (SELECT id, card_id, created, attempts, failures, "
            "done, parked, COALESCE(note, '') FROM jobs WHERE done IS NOT NULL ORDER BY id DESC LIMIT ?)"
        )
        with self._lock:
            rows = self._db.execute(query, (done,)).fetchall()
        out = [
            JobRow(
                i,
                card,
                created,
                attempts,
                failures,
                "done" if finished is not None else "parked" if parked is not None else "waiting",
                note,
            )
            for i, card, created, attempts, failures, finished, parked, note in rows
        ]
        return sorted(out, key=lambda r: r.id)

    def image(self, job_id: int) -> tuple[str, float, bytes | None] | None:
        """(card id, created, image or None once printed) of ``job_id``, or None."""
        with self._lock:
            row = self._db.execute("SELECT card_id, created, image FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return (row[0], row[1], row[2]) if row else None

    def counters(self) -> dict[str, int]:
        """Every counter of :data:`COUNTERS` plus ``waiting`` and ``parked_now``."""
        with self._lock:
            stored = dict(self._db.execute("SELECT name, value FROM counters").fetchall())
            unstored = dict(self._unstored)
            (parked,) = self._db.execute(
                "SELECT COUNT(*) FROM jobs WHERE done IS NULL AND parked IS NOT NULL"
            ).fetchone()
        values = {name: int(stored.get(name, 0)) + unstored.get(name, 0) for name in COUNTERS}
        values["waiting"] = self.waiting()
        values["parked_now"] = int(parked)
        return values

    def _bump(self, name: str) -> None:
        self._db.execute(
            "INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1",
            (name,),
        )


def open_queue(path: Path, **limits: object) -> JobQueue:
    """The queue in ``path`` (``limits`` go to :class:`JobQueue`), recovered if damaged.

    A damaged file (not a database, a zeroed header, truncated, failing its integrity check) is
    renamed aside with its journal, never deleted; the stamps still waiting in it that can be
    read, and its counters, go into a fresh queue. A file that cannot be opened or written
    raises :class:`QueueUnavailable` with the reason.
    """
    try:
        return JobQueue(path, **limits)  # type: ignore[arg-type]
    except QueueDamaged as exc:
        why = str(exc)
    except sqlite3.DatabaseError as exc:
        if not getattr(exc, "sqlite_errorname", "").startswith(_DAMAGE):
            raise QueueUnavailable(f"{path}: {exc}") from exc
        why = str(exc)
    aside = set_aside(path, f"damaged ({why})")
    if aside is None:
        raise QueueUnavailable(f"{path}: damaged ({why}) and cannot be set aside")
    for journal in ("-wal", "-shm"):  # the journal belongs to the old file: never replay it into the new one
        old = path.with_name(path.name + journal)
        if old.exists():
            old.replace(aside.with_name(aside.name + journal))
    jobs, counters = salvage(aside)
    try:
        queue = JobQueue(path, **limits)  # type: ignore[arg-type]
        queue.restore(jobs, counters)
    except (sqlite3.Error, QueueDamaged) as exc:
        raise QueueUnavailable(f"{path}: a fresh queue cannot be started: {exc}") from exc
    FAULTS.happened(path.name, f"{len(jobs)} waiting stamp(s) recovered from {aside.name} into a fresh queue")
    return queue


def salvage(path: Path) -> tuple[list[Job], dict[str, int]]:
    """The waiting jobs and the counters that can still be read from a damaged queue file, which
    is only read: row by row past damaged pages, and, where the file no longer opens (a garbage,
    zeroed or truncated first page), from a copy in memory with its header rebuilt."""
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            db.execute("SELECT COUNT(*) FROM sqlite_schema").fetchone()
            return _read_back(db)
        finally:
            db.close()
    except sqlite3.DatabaseError:
        pass
    try:
        data = path.read_bytes()
    except OSError:
        return [], {}
    sizes = [int.from_bytes(data[16:18], "big") or 65536] if data.startswith(_MAGIC) else list(_PAGE_SIZES)
    for page_size in sizes:
        pages = len(data) // page_size
        if page_size not in _PAGE_SIZES or pages == 0:
            continue
        db = sqlite3.connect(":memory:")
        try:
            db.deserialize(_header(data, page_size, pages) + data[100 : pages * page_size])
            db.execute("SELECT COUNT(*) FROM jobs").fetchone()
            return _read_back(db)
        except sqlite3.Error:
            continue
        finally:
            db.close()
    log.warning("%s: nothing could be salvaged", path.name)
    return [], {}


def _header(data: bytes, page_size: int, pages: int) -> bytes:
    """The 100-byte header for ``pages`` pages of ``page_size`` from the start of ``data``: its
    own where it is a database header, else a fresh one; in the rollback-journal format (to
    open in memory) and with the page count valid."""
    if data.startswith(_MAGIC):
        header = bytearray(data[:100])
    else:
        template = sqlite3.connect(":memory:")
        try:
            template.execute(f"PRAGMA page_size = {page_size}")
            template.execute("CREATE TABLE t (x)")
            header = bytearray(template.serialize()[:100])
        finally:
            template.close()
        header[32:40] = bytes(8)  # no free-list
        header[40:44] = (1).to_bytes(4, "big")  # schema cookie
    header[18:20] = b"\x01\x01"
    header[24:28] = header[92:96] = (1).to_bytes(4, "big")  # the page count below is to be used
    header[28:32] = pages.to_bytes(4, "big")
    return bytes(header)


def _read_back(db: sqlite3.Connection) -> tuple[list[Job], dict[str, int]]:
    """Waiting jobs (scanned; past a damaged page, looked up one id at a time) and counters."""
    query = "SELECT id, card_id, created, image, attempts FROM jobs NOT INDEXED WHERE done IS NULL"
    found: dict[int, Job] = {}

    def keep(row: tuple) -> None:  # type: ignore[type-arg]
        if isinstance(row[1], str) and isinstance(row[2], float) and isinstance(row[3], bytes):
            found[row[0]] = Job(*row)

    try:
        for row in db.execute(query):
            keep(row)
    except sqlite3.Error:
        try:
            (last,) = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'jobs'").fetchone()
        except (sqlite3.Error, TypeError):
            last = max(found, default=0) + _PROBES
        for job_id in range(1, int(last) + 1):
            try:
                row = db.execute(query + " AND id = ?", (job_id,)).fetchone()
            except sqlite3.Error:
                continue
            if row:
                keep(row)
    counters: dict[str, int] = {}
    try:
        for name, value in db.execute("SELECT name, value FROM counters"):
            if name in COUNTERS and isinstance(value, int) and value >= 0:
                counters[name] = value
    except sqlite3.Error:
        pass
    return [found[k] for k in sorted(found)], counters
