"""Whether the kiosk can trust its clock for the date it prints on a stamp.

A Pi 4 has no real-time clock, and a Pi 5's keeps time only with its battery fitted. Without
network time such a Pi boots at the time it was last shut down (systemd-timesyncd's saved
clock): days or months behind. The clock is trusted when systemd-timesyncd synchronised it
since boot, or when a real-time clock reads a plausible time that agrees with it (one kept by a
battery, which set the system clock at boot). Otherwise a stamp's date box is left empty and
``kiosk doctor`` warns; the fix is the RTC battery or an RTC HAT (``hardware/BOM.md``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

#: Created by systemd-timesyncd once it has synchronised the clock, removed at boot.
SYNCHRONISED = Path("/run/systemd/timesync/synchronized")
RTC = Path("/sys/class/rtc/rtc0")
#: No clock that reads earlier than this is right: the kiosk did not exist yet.
EARLIEST = datetime(2025, 1, 1, tzinfo=UTC).timestamp()
#: A real-time clock further than this from the system clock is not what set it.
AGREE_S = 300.0


@dataclass(frozen=True)
class ClockTrust:
    trusted: bool
    why: str


def _day(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d")


def clock_trust(now: float | None = None, synchronised: Path | None = None, rtc: Path | None = None) -> ClockTrust:
    """Whether the system clock (``now``, default the current time) can be trusted, and why
    (``synchronised`` and ``rtc`` default to :data:`SYNCHRONISED` and :data:`RTC`)."""
    now = time.time() if now is None else now
    synchronised = SYNCHRONISED if synchronised is None else synchronised
    rtc = RTC if rtc is None else rtc
    if now < EARLIEST:
        return ClockTrust(False, f"the clock says {_day(now)}, before this kiosk existed")
    if synchronised.exists():
        return ClockTrust(True, "set by network time since boot (systemd-timesyncd)")
    try:
        rtc_now = float((rtc / "since_epoch").read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return ClockTrust(
            False, "no network time and no real-time clock: the clock resumes where it stopped at the last shutdown"
        )
    if rtc_now < EARLIEST:
        return ClockTrust(False, f"the real-time clock reads {_day(rtc_now)}: its battery is missing or flat")
    if abs(rtc_now - now) > AGREE_S:
        return ClockTrust(
            False,
            f"the real-time clock ({_day(rtc_now)}) and the system clock ({_day(now)}) "
            f"differ by {abs(rtc_now - now) / 60:.0f} minutes",
        )
    return ClockTrust(True, "kept by the real-time clock and its battery")


def trusted_today() -> date | None:
    """Today's date, or None when the clock cannot be trusted (a stamp then prints no date)."""
    return date.today() if clock_trust().trusted else None
