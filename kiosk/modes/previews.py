"""Stamp pictures for the passport screen, drawn by a worker thread.

Rendering a stamp takes longer than a frame of the UI, so a place is shown at once and its stamp
picture joins it when ready. A preview is dated as the stamp prints now (undated while the
clock cannot be trusted): the day is part of the key, so a preview follows midnight and a clock
that becomes trusted.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import date

from PIL import Image

from kiosk.clock import trusted_today
from kiosk.decks import load_deck

log = logging.getLogger(__name__)

Key = tuple[str, str, str, int, date | None]  # card, language, kiosk name, width, day


def render_preview(card_id: str, lang: str, name: str, width: int, day: date | None) -> Image.Image:
    """The stamp of ``card_id`` as it prints on ``day``, scaled to ``width`` pixels, in RGB."""
    from kiosk.devices.stamp import render_stamp

    img = render_stamp(load_deck("affiche-belge")[card_id], day=day, lang=lang, kiosk_name=name).convert("RGB")
    return img.resize((width, int(img.height * width / img.width)), Image.Resampling.LANCZOS)


class StampPreviews:
    """``get`` answers at once: the picture when drawn, else None and the worker draws it."""

    def __init__(
        self,
        render: Callable[[str, str, str, int, date | None], Image.Image] = render_preview,
        today: Callable[[], date | None] = trusted_today,
        keep: int = 32,
    ) -> None:
        self._render = render
        self._today = today
        self._keep = keep
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stamp-preview")
        self._jobs: OrderedDict[Key, Future[Image.Image]] = OrderedDict()

    def get(self, card_id: str, lang: str, name: str, width: int) -> Image.Image | None:
        """The preview if drawn; None while it is drawn, or when drawing it failed (logged once)."""
        key: Key = (card_id, lang, name, width, self._today())
        job = self._jobs.get(key)
        if job is None:
            job = self._jobs[key] = self._pool.submit(self._render, *key)
            job.add_done_callback(_log_failure)
            while len(self._jobs) > self._keep:
                self._jobs.popitem(last=False)
        self._jobs.move_to_end(key)
        if not job.done() or job.exception() is not None:
            return None
        return job.result()

    def pending(self) -> bool:
        """Whether a preview is still being drawn (the screen redraws soon to show it)."""
        return any(not job.done() for job in self._jobs.values())

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _log_failure(job: Future[Image.Image]) -> None:
    if not job.cancelled() and job.exception() is not None:
        log.error("cannot render a stamp preview", exc_info=job.exception())
