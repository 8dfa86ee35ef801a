"""The PIN lockout survives a power cut, and no clock jump stretches or resets it; python-escpos
leaves no folder behind in /tmp."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from kiosk.ui.pin import PinGuard

REPO = Path(__file__).resolve().parents[1]


class Wall:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_the_lockout_survives_a_restart(tmp_path: Path) -> None:
    """Three wrong tries lock the pad; pulling the plug (a new guard on the same file, a new
    monotonic clock) neither unlocks it nor gives three new tries."""
    path, wall = tmp_path / "pin.json", Wall()
    guard = PinGuard("1830", path=path, wall=wall, now=0.0)
    assert not any(guard.check("0000", now=t) for t in (1.0, 2.0, 3.0))
    assert guard.locked_for(3.0) == 30.0
    wall.now += 10  # the power is cut 10 s into the lock, back at once
    again = PinGuard("1830", path=path, wall=wall, now=500.0)
    assert again.locked_for(500.0) == 20.0 and not again.check("1830", now=500.0)
    assert again.check("1830", now=520.5)


def test_failed_tries_survive_a_restart_and_locks_keep_doubling(tmp_path: Path) -> None:
    path, wall = tmp_path / "pin.json", Wall()
    guard = PinGuard("1830", path=path, wall=wall, now=0.0)
    assert not guard.check("1", now=1.0) and not guard.check("2", now=2.0)
    guard = PinGuard("1830", path=path, wall=wall, now=0.0)  # a restart between the 2nd and 3rd try
    assert not guard.check("3", now=3.0) and guard.locked_for(3.0) == 30.0
    wall.now += 40
    guard = PinGuard("1830", path=path, wall=wall, now=100.0)
    assert guard.locked_for(100.0) == 0.0
    assert not any(guard.check("9", now=t) for t in (101.0, 102.0, 103.0))
    assert guard.locked_for(103.0) == 60.0  # the second lock: twice as long


def test_a_clock_set_back_a_day_does_not_stretch_the_lock(tmp_path: Path) -> None:
    path, wall = tmp_path / "pin.json", Wall()
    guard = PinGuard("1830", path=path, wall=wall, now=0.0)
    for t in (1.0, 2.0, 3.0):
        guard.check("0000", now=t)
    wall.now -= 86_400  # no RTC: the clock comes back a day early after the power cut
    assert PinGuard("1830", path=path, wall=wall, now=0.0).locked_for(0.0) == 30.0


def test_the_right_pin_clears_the_saved_lockout(tmp_path: Path) -> None:
    path, wall = tmp_path / "pin.json", Wall()
    guard = PinGuard("1830", path=path, wall=wall, now=0.0)
    guard.check("0000", now=1.0)
    assert guard.check("1830", now=2.0)
    assert json.loads(path.read_text()) == {"failures": 0, "locks": 0, "locked_until": 0.0}


def test_a_damaged_lockout_file_is_set_aside_and_the_pad_still_works(tmp_path: Path) -> None:
    path = tmp_path / "pin.json"
    path.write_text('{"failures": 1e999, "locks": 0, "locked_until": 0}')
    guard = PinGuard("1830", path=path, now=0.0)
    assert guard.locked_for(0.0) == 0.0 and guard.check("1830", now=1.0)
    assert len(list(tmp_path.glob("pin.json.bad-*"))) == 1


def test_no_printer_profile_folder_is_left_in_tmp(tmp_path: Path) -> None:
    """python-escpos makes a temporary folder for its printer profiles at every import and never
    removes it; the kiosk's processes leave none."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    code = "import kiosk.devices.printer, escpos.printer; escpos.printer.Dummy(profile='POS-5890')"
    for _ in range(3):
        subprocess.run(
            [sys.executable, "-c", code],
            check=True,
            cwd=REPO,
            env={**os.environ, "TMPDIR": str(scratch), "PYTHONPATH": str(REPO)},
        )
    assert list(scratch.iterdir()) == []
