"""The passport stamp service the app talks to: render a place's stamp, store it in the durable
queue, and let the printer worker print it in the background.

The app (``kiosk.ui.app.StampService``) asks four things: ``request(card_id, lang)``,
``pending(card_id)``, ``state()`` and ``test_page()``; none of them waits for the printer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

from escpos.escpos import Escpos

from kiosk.devices.printer import (
    PrinterSettings,
    PrinterState,
    PrinterWorker,
    check_settings,
    describe,
)
from kiosk.devices.queue import Job, JobQueue
from kiosk.devices.stamp import render_stamp, render_test_page, stamp_png
from kiosk.devices.state import state_dir

log = logging.getLogger(__name__)
QUEUE_FILE = "stamps.sqlite3"
TEST_PAGE_ID = "test-page"


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
        today: Callable[[], date] = date.today,
    ) -> None:
        check_settings(settings)
        self.settings = settings
        self.kiosk_name = kiosk_name
        self._today = today
        self.queue = JobQueue(
            queue_path or state_dir() / QUEUE_FILE,
            card_cooldown_s=card_cooldown_s,
            max_per_minute=settings.max_per_minute,
        )
        self.worker = PrinterWorker(settings, self.queue, connect=connect, on_state=on_state, on_printed=on_printed)
        if self.queue.waiting():
            log.info("%d stamp(s) left from before the restart will be printed", self.queue.waiting())
        self.worker.start()

    def request(self, card_id: str, lang: str) -> bool:
        """Queue the stamp of ``card_id``; False when a flood limit refused it."""
        image = render_stamp(
            card_id,
            day=self._today(),
            lang=lang,
            width=self.settings.width,
            kiosk_name=self.kiosk_name,
        )
        admission = self.queue.submit(card_id, stamp_png(image))
        if admission.accepted:
            self.worker.wake()
        else:
            log.info("stamp of %s refused: %s", card_id, admission.reason)
        return admission.accepted

    def pending(self, card_id: str | None = None) -> int:
        return self.queue.waiting(card_id)

    def state(self) -> str:
        """``printing`` while a job goes out, else ready, paper_low, paper_out or offline."""
        if self.worker.printing is not None:
            return "printing"
        return self.worker.state.name.lower()

    def test_page(self) -> None:
        """Queue a test page (ruler, grey ramp, settings) for the technician."""
        s = self.settings
        lines = [
            self.kiosk_name,
            describe(s),
            f"{s.width} dots, profile {s.profile}",
            f"heat {s.heat_dots}/{s.heat_time}/{s.heat_interval}" if s.heat else "heat: printer default",
            datetime.now().strftime("%d.%m.%Y %H:%M"),
        ]
        self.queue.submit(TEST_PAGE_ID, stamp_png(render_test_page(s.width, lines)), limited=False)
        self.worker.wake()

    def counters(self) -> dict[str, int]:
        return self.queue.counters()

    def close(self) -> None:
        """Stop after the strip in progress; unprinted stamps stay queued for the next start."""
        self.worker.stop(timeout=10)
        self.queue.close()
