"""The clock a stamp's date comes from: trusted only when network time set it since boot or a
real-time clock with a battery agrees with it; otherwise the stamp prints no date (issue 52: a
Pi 4 has no RTC, a Pi 5's needs a battery, and with no network the dates were wrong)."""

from __future__ import annotations

import time
from datetime import UTC, date, datetime
from pathlib import Path

import numpy as np
import pytest

from kiosk.clock import EARLIEST, clock_trust
from kiosk.devices.stamp import render_stamp, stamp_layout

NOW = datetime(2026, 12, 6, 15, 0, tzinfo=UTC).timestamp()


def _rtc(tmp_path: Path, seconds: float | None) -> Path:
    rtc = tmp_path / "rtc0"
    rtc.mkdir()
    if seconds is not None:
        (rtc / "since_epoch").write_text(f"{int(seconds)}\n")
    return rtc


@pytest.mark.parametrize(
    ("synced", "rtc_seconds", "now", "trusted", "says"),
    [
        (True, None, NOW, True, "network time"),
        (False, NOW - 20, NOW, True, "real-time clock and its battery"),
        (False, None, NOW, False, "no real-time clock"),
        (False, 0, NOW, False, "battery is missing or flat"),  # a Pi 5's RTC without its battery
        (False, NOW - 86400 * 40, NOW, False, "differ by"),
        (True, None, EARLIEST - 86400, False, "before this kiosk existed"),  # even if "synchronised"
    ],
)
def test_the_clock_is_trusted_only_when_something_set_it(
    tmp_path: Path, synced: bool, rtc_seconds: float | None, now: float, trusted: bool, says: str
) -> None:
    marker = tmp_path / "synchronized"
    if synced:
        marker.touch()
    trust = clock_trust(now, marker, _rtc(tmp_path, rtc_seconds))
    assert trust.trusted is trusted and says in trust.why


def test_a_stamp_without_a_trusted_day_has_an_empty_date_box() -> None:
    """The box stays, empty (a visitor may write the day in); a dated stamp has ink in it."""
    undated = np.asarray(render_stamp("3S", day=None)) == 0
    dated = np.asarray(render_stamp("3S", day=date(2026, 12, 6))) == 0
    changed = np.argwhere(undated != dated)
    assert len(changed) and not undated[tuple(changed.T)].any()  # only ink added, by the date
    assert stamp_layout(undated.shape[1]).height == undated.shape[0]


def test_the_stamp_service_takes_its_day_from_the_trusted_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kiosk.devices import service

    monkeypatch.setattr("kiosk.clock.SYNCHRONISED", tmp_path / "synchronized")
    monkeypatch.setattr("kiosk.clock.RTC", tmp_path / "no-rtc")
    assert service.trusted_today() is None
    (tmp_path / "synchronized").touch()
    assert service.trusted_today() == date.today()


def test_the_screens_stamp_preview_follows_the_day_and_the_clocks_trust() -> None:
    """The passport screen shows the stamp as it prints: a kiosk left on overnight, or whose
    clock becomes trusted after boot, must not keep showing the first preview it drew."""
    from kiosk.modes.previews import StampPreviews

    day: list[date | None] = [None]
    previews = StampPreviews(today=lambda: day[0])

    def pixels(today: date | None) -> bytes:
        day[0] = today
        image = previews.get("3H", "fr", "Kiosk", 384)
        while image is None:  # drawn by the worker; the screen redraws until it is there
            assert previews.pending()
            time.sleep(0.01)
            image = previews.get("3H", "fr", "Kiosk", 384)
        return image.tobytes()

    try:
        undated, monday, tuesday = pixels(None), pixels(date(2026, 12, 7)), pixels(date(2026, 12, 8))
        assert len({undated, monday, tuesday}) == 3
        assert pixels(date(2026, 12, 7)) == monday
    finally:
        previews.close()


def test_a_stamp_preview_is_drawn_off_the_ui_thread_and_a_failure_leaves_a_blank() -> None:
    """Showing a place never waits for the stamp renderer: ``get`` answers at once, the picture
    follows when drawn; a renderer that fails leaves the stamp's place blank, the kiosk running."""
    import threading

    from PIL import Image

    from kiosk.modes.previews import StampPreviews

    release, threads = threading.Event(), []

    def slow(card_id: str, lang: str, name: str, width: int, day: date | None) -> Image.Image:
        threads.append(threading.current_thread())
        release.wait(5)
        if card_id == "KS":
            raise RuntimeError("renderer broke")
        return Image.new("RGB", (width, width))

    previews = StampPreviews(render=slow, today=lambda: None)
    try:
        assert previews.get("3H", "fr", "K", 64) is None and previews.pending()
        release.set()
        for card_id in ("3H", "KS"):
            while previews.get(card_id, "fr", "K", 64) is None and previews.pending():
                time.sleep(0.01)
        assert previews.get("3H", "fr", "K", 64) is not None
        assert previews.get("KS", "fr", "K", 64) is None and not previews.pending()
        assert threads and all(t is not threading.main_thread() for t in threads)
    finally:
        previews.close()
