"""Clock jumps and the flood limits: the cool-down and the per-minute limit follow the monotonic
clock within a run, and rows dated in the future (the clock was ahead, then set back) are
ignored across runs. A jump of the wall clock never refuses stamps for the length of the jump."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.devices.queue import COOLDOWN, RATE, JobQueue

DAY = 86_400.0


class Clocks:
    """A wall clock that can jump and a monotonic clock that only moves forward."""

    def __init__(self) -> None:
        self.wall = 1_800_000_000.0
        self.mono = 1_000.0

    def wait(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds

    def queue(self, path: Path, **limits: float) -> JobQueue:
        return JobQueue(path, clock=lambda: self.wall, monotonic=lambda: self.mono, **limits)  # type: ignore[arg-type]


@pytest.mark.parametrize("jump", [-DAY, -3600.0, +DAY])
def test_a_clock_jump_within_a_run_changes_no_limit(tmp_path: Path, jump: float) -> None:
    clocks = Clocks()
    q = clocks.queue(tmp_path / "q.sqlite3", card_cooldown_s=30, max_per_minute=2)
    assert q.submit("3H", b"x").accepted
    clocks.wall += jump
    clocks.wait(10)
    assert q.submit("3H", b"x").reason == COOLDOWN  # 10 s after it, whatever the wall clock says
    assert q.submit("4H", b"x").accepted
    assert q.submit("5H", b"x").reason == RATE
    clocks.wait(21)
    assert q.submit("3H", b"x").reason == RATE  # its cool-down is over; the minute is not
    clocks.wait(30)  # 61 s after the first stamp: one stamp (4H) left in the minute
    assert q.submit("3H", b"x").accepted
    q.close()


def test_rows_dated_in_the_future_are_ignored_after_a_restart(tmp_path: Path) -> None:
    """The clock was a day ahead (no RTC, a wrong NTP answer), stamps were printed, then the clock
    was set right and the kiosk restarted: those rows do not refuse stamps for a day."""
    clocks = Clocks()
    clocks.wall += DAY
    with clocks.queue(tmp_path / "q.sqlite3", card_cooldown_s=30, max_per_minute=1) as q:
        assert q.submit("3H", b"x").accepted
    clocks.wall -= DAY
    clocks.wait(5)
    with clocks.queue(tmp_path / "q.sqlite3", card_cooldown_s=30, max_per_minute=1) as q:
        assert q.submit("3H", b"x").accepted


def test_rows_of_an_earlier_run_in_the_past_still_count(tmp_path: Path) -> None:
    """A restart does not buy a new stamp: a card stamped 10 s before the restart is still in
    its cool-down, and the minute's stamps still count."""
    clocks = Clocks()
    with clocks.queue(tmp_path / "q.sqlite3", card_cooldown_s=30, max_per_minute=2) as q:
        assert q.submit("3H", b"x").accepted and q.submit("4H", b"x").accepted
    clocks.wait(10)
    clocks.mono = 5.0  # a reboot restarts the monotonic clock
    with clocks.queue(tmp_path / "q.sqlite3", card_cooldown_s=30, max_per_minute=2) as q:
        assert q.submit("3H", b"x").reason == COOLDOWN
        assert q.submit("5H", b"x").reason == RATE
        clocks.wait(51)
        assert q.submit("3H", b"x").accepted


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["2H", "3C", "KS"]),
            st.floats(0, 40, allow_nan=False),
            st.sampled_from([0.0, 0.0, 0.0, -DAY, -3600.0, 3600.0, DAY]),
        ),
        max_size=25,
    ),
    st.integers(1, 5),
    st.sampled_from([0.0, 30.0]),
)
def test_the_limits_hold_on_the_monotonic_clock_whatever_the_wall_clock_does(
    requests: list[tuple[str, float, float]], per_minute: int, cooldown: float
) -> None:
    """Property: with the wall clock jumping anywhere, the stamps accepted respect both limits
    measured on the monotonic clock, and every request is either accepted or refused, counted."""
    clocks = Clocks()
    q = clocks.queue(Path(":memory:"), card_cooldown_s=cooldown, max_per_minute=per_minute)
    accepted: list[tuple[str, float]] = []
    for card, gap, jump in requests:
        clocks.wait(gap)
        clocks.wall += jump
        if q.submit(card, b"x").accepted:
            accepted.append((card, clocks.mono))
    for card, t in accepted:
        assert len([u for _, u in accepted if t - 60 < u <= t]) <= per_minute
        assert all(t - u >= cooldown for c, u in accepted if c == card and u < t)
    refused = q.counters()["refused_rate"] + q.counters()["refused_cooldown"]
    assert len(accepted) + refused == len(requests)
    q.close()


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(["2H", "3C", "KS", "AD"]), min_size=1, max_size=12),
    st.sampled_from([-DAY, -3600.0, 3600.0, DAY]),
)
def test_a_jump_never_refuses_what_the_same_run_without_it_accepts(cards: list[str], jump: float) -> None:
    """Property: requests a minute apart are all accepted, with or without one wall-clock jump
    between any two of them."""
    clocks = Clocks()
    q = clocks.queue(Path(":memory:"), card_cooldown_s=30, max_per_minute=1)
    for i, card in enumerate(cards):
        clocks.wait(61)
        if i == len(cards) // 2:
            clocks.wall += jump
        assert q.submit(card, b"x").accepted
    q.close()
