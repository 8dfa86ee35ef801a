"""The clock a stamp's date comes from: trusted only when network time set it since boot or a
real-time clock with a battery agrees with it; otherwise the stamp prints no date (issue 52: a
Pi 4 has no RTC, a Pi 5's needs a battery, and with no network the dates were wrong)."""

from __future__ import annotations

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


def test_the_screens_stamp_preview_follows_the_day_and_the_clocks_trust(monkeypatch) -> None:
    """The passport screen shows the stamp as it prints: a kiosk left on overnight, or whose
    clock becomes trusted after boot, must not keep showing the first preview it drew."""
    from kiosk import clock
    from kiosk.ui import artwork

    def pixels(day: date | None) -> bytes:
        monkeypatch.setattr(clock, "trusted_today", lambda: day)
        surface = artwork.stamp_preview("3H", "fr", "Kiosk", 384)
        assert surface is not None
        return bytes(surface.get_buffer().raw)  # (image.tobytes is newer than Bookworm's pygame 2.1.2)

    undated, monday, tuesday = pixels(None), pixels(date(2026, 12, 7)), pixels(date(2026, 12, 8))
    assert len({undated, monday, tuesday}) == 3
    assert pixels(date(2026, 12, 7)) == monday
