"""Power cuts and crashes: the demo is killed (SIGKILL) at 20 random moments and restarted on the
same state directory. Every stamp requested before a kill is printed after the restarts, at most
once more per kill, and the config, calibration, queue and counters stay readable."""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from conftest import demo_args, headless_env

from kiosk.counters import Counters
from kiosk.vision.calibration import Calibration

KILLS = 20


def _demo(out: Path, state: Path, seconds: float) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "kiosk", *demo_args(seconds, out, state)],
        env=headless_env(state),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def test_kills_at_random_moments_lose_no_stamp(tmp_path: Path):
    state, out = tmp_path / "state", tmp_path / "out"
    rng = random.Random(7)
    for _ in range(KILLS):
        proc = _demo(out, state, 30)
        time.sleep(rng.uniform(2.0, 9.0))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    final = _demo(out, state, 25)  # a last run that is allowed to finish: it drains the queue
    assert final.wait(timeout=240) in (0, 1)

    db = sqlite3.connect(state / "stamps.sqlite3")
    waiting = db.execute("SELECT COUNT(*) FROM jobs WHERE done IS NULL").fetchone()[0]
    counters = dict(db.execute("SELECT name, value FROM counters").fetchall())
    db.close()
    assert counters.get("submitted", 0) > 0, "the runs asked for stamps"
    assert waiting == 0, f"{waiting} stamp(s) never printed"
    assert counters.get("printed", 0) >= counters["submitted"]
    assert counters.get("reprinted", 0) <= KILLS  # at most the job in flight at each kill
    assert Calibration.load(state / "calibration.json") is not None
    assert Counters(state / "counters.json").summary()["stamps"] >= 1
    json.loads((out / "summary.json").read_text())
