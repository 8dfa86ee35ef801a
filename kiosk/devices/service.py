"""The passport stamp service the app talks to: render a place's stamp, store it in the durable
queue, and let the printer worker print it in the background.

The app (``kiosk.modes.passport.StampService``) asks: ``request(card_id, lang)`` (an
:class:`~kiosk.devices.queue.Admission`: the job, or why it was refused), ``job_state(job_id)``,
``pending(card_id)``, ``state()``, ``test_page()`` and ``counters()``, and for the operator menu
``jobs()``, ``reprint(job_id)`` and ``clear()``; none of them waits for the printer. When the
queue cannot be opened (read-only or full state directory) the service runs degraded: ``state()``
is ``unavailable``, every request is refused with its reason and counted, and the queue is tried
again at most every REOPEN_S seconds.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import Any

from escpos.escpos import Escpos

from kiosk.clock import clock_trust, trusted_today
from kiosk.devices.printer import (
    PrinterSettings,
    PrinterState,
    PrinterWorker,
    check_settings,
    describe,
)
from kiosk.devices.queue import (
    COUNTERS,
    ERROR,
    UNAVAILABLE,
    Admission,
    Job,
    JobQueue,
    JobRow,
    QueueUnavailable,
    open_queue,
    refusal_counter,
)
from kiosk.devices.stamp import render_stamp, render_test_page, stamp_png
from kiosk.devices.state import FAULTS, state_dir

log = logging.getLogger(__name__)
QUEUE_FILE = "stamps.sqlite3"
TEST_PAGE_ID = "test-page"
REOPEN_S = 30.0  # an unavailable queue is tried again at a request at most this often


class StampPrinter:
    """Stamps for visitors, queued durably and printed by one worker thread."""

    def __init__(
        self,
        settings: PrinterSettings,
        *,
        kiosk_name: str,
        card_cooldown_s: float,
        queue_path: Path | None = None,
        connect: Callable[[], Escpos] | None = None,
        on_state: Callable[[PrinterState], None] | None = None,
        on_printed: Callable[[Job], None] | None = None,
        today: Callable[[], date | None] = trusted_today,
    ) -> None:
        check_settings(settings)
        self.settings = settings
        self.kiosk_name = kiosk_name
        self._today = today
        self._path = queue_path or state_dir() / QUEUE_FILE
        self._limits = {"card_cooldown_s": card_cooldown_s, "max_per_minute": settings.max_per_minute}
        self._worker_hooks = {"connect": connect, "on_state": on_state, "on_printed": on_printed}
        self._lock = threading.Lock()
        self._refused: Counter[str] = Counter()  # refusals while there is no queue to count them
        self._tried_at = time.monotonic()
        self.queue: JobQueue | None = None
        self.worker: PrinterWorker | None = None
        self._open()

    def _open(self) -> bool:
        """Open the queue and start the worker; False (degraded) when the queue is unavailable."""
        try:
            queue = open_queue(self._path, **self._limits)
        except QueueUnavailable as exc:
            FAULTS.report(self._path.name, f"stamps unavailable: {exc}")
            return False
        FAULTS.clear(self._path.name)
        self.queue = queue
        self.worker = PrinterWorker(self.settings, queue, **self._worker_hooks)  # type: ignore[arg-type]
        if waiting := queue.waiting():
            log.info("%d stamp(s) left from before the restart will be printed", waiting)
        self.worker.start()
        return True

    def _available(self) -> JobQueue | None:
        """The queue, reopened if it was unavailable and REOPEN_S have passed (a technician may
        have freed the disk)."""
        with self._lock:
            if self.queue is None and time.monotonic() - self._tried_at >= REOPEN_S:
                self._tried_at = time.monotonic()
                self._open()
            return self.queue

    def request(self, card_id: str, lang: str) -> Admission:
        """Queue the stamp of ``card_id``: accepted with its job id, or refused with a reason
        (a flood limit, no queue, a full disk, an error while rendering), each counted."""
        queue = self._available()
        if queue is None:
            return self._refuse(card_id, UNAVAILABLE)
        try:
            image = render_stamp(
                card_id,
                day=self._today(),
                lang=lang,
                width=self.settings.width,
                kiosk_name=self.kiosk_name,
            )
            png = stamp_png(image)
        except Exception:  # noqa: BLE001 - a stamp that cannot be made is refused, never a crash
            log.exception("the stamp of %s cannot be made", card_id)
            queue.count_unstored(ERROR)
            return Admission(None, ERROR)
        admission = queue.submit(card_id, png)
        if admission.accepted:
            self.worker.wake()  # type: ignore[union-attr]
        else:
            log.info("stamp of %s refused: %s", card_id, admission.reason)
        return admission

    def _refuse(self, card_id: str, reason: str) -> Admission:
        with self._lock:
            self._refused[refusal_counter(reason)] += 1
        log.info("stamp of %s refused: %s", card_id, reason)
        return Admission(None, reason)

    def pending(self, card_id: str | None = None) -> int:
        """Stamps of ``card_id`` (or all) waiting to print; 0 without a queue."""
        return self._read(lambda q: q.waiting(card_id), 0)

    def job_state(self, job_id: int) -> str:
        """waiting, printing, parked, done, or unknown."""
        if self.worker is not None and self.worker.printing == job_id:
            return "printing"
        return self._read(lambda q: q.state_of(job_id), "unknown")

    def _read(self, ask: Callable[[JobQueue], object], otherwise: object) -> Any:
        """``ask(queue)``, or ``otherwise`` without a queue or when its file fails (reported)."""
        queue = self.queue
        if queue is None:
            return otherwise
        try:
            return ask(queue)
        except sqlite3.Error as exc:
            FAULTS.report(self._path.name, f"cannot be read: {exc}")
            return otherwise

    def state(self) -> str:
        """``unavailable`` without a queue, ``printing`` while a job goes out, else ready,
        paper_low, paper_out or offline."""
        if self.worker is None:
            return "unavailable"
        if self.worker.printing is not None:
            return "printing"
        return self.worker.state.name.lower()

    def test_page(self) -> Admission:
        """Queue a test page (ruler, grey ramp, settings) for the technician; the per-minute
        limit applies to it as to stamps."""
        s = self.settings
        lines = [
            self.kiosk_name,
            describe(s),
            f"{s.width} dots, profile {s.profile}",
            f"heat {s.heat_dots}/{s.heat_time}/{s.heat_interval}" if s.heat else "heat: printer default",
            datetime.now().strftime("%d.%m.%Y %H:%M") + ("" if clock_trust().trusted else " (clock not trusted)"),
        ]
        queue = self._available()
        if queue is None:
            return self._refuse(TEST_PAGE_ID, UNAVAILABLE)
        admission = queue.submit(TEST_PAGE_ID, stamp_png(render_test_page(s.width, lines)), cooldown=False)
        if admission.accepted:
            self.worker.wake()  # type: ignore[union-attr]
        return admission

    def jobs(self) -> list[JobRow]:
        """The stamps still to print, oldest first: waiting, or parked with the last failure (the
        operator menu's queue view); none without a queue."""
        return self._read(lambda q: q.jobs(done=0), [])

    def reprint(self, job_id: int) -> bool:
        """Put a parked stamp back in line; False when no such stamp is still to print."""
        released = bool(self._read(lambda q: q.release(job_id), False))
        if released and self.worker is not None:
            self.worker.wake()
        return released

    def clear(self) -> int:
        """Drop every stamp not yet printed (counted as cleared); how many."""
        return int(self._read(lambda q: q.clear(), 0))

    def counters(self) -> dict[str, int]:
        """The queue's counters (:data:`~kiosk.devices.queue.COUNTERS`, ``waiting``,
        ``parked_now``) with the refusals counted while it was unavailable."""
        with self._lock:
            refused = dict(self._refused)
        stored = self._read(lambda q: q.counters(), None)
        if stored is None:
            stored = {**{name: 0 for name in COUNTERS}, "waiting": 0, "parked_now": 0}
        return {name: value + refused.get(name, 0) for name, value in stored.items()}

    def close(self) -> None:
        """Stop after the strip in progress; unprinted stamps stay queued for the next start."""
        if self.worker is not None:
            self.worker.stop(timeout=10)
        if self.queue is not None:
            self.queue.close()
