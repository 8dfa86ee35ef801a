"""A job that keeps failing: the printer worker backs off, logs each kind of failure once, and
parks the job after ``park_after`` tries (kept, listed, reprintable) so the stamps behind it
print; an error outside any job (the queue's file failing) never ends the thread nor spins it.
``kiosk queue list | reprint ID | clear`` show and handle what the worker left."""

from __future__ import annotations

import io
import logging
import sqlite3
import time
from pathlib import Path

import pytest
from escpos.printer import Dummy
from PIL import Image

from kiosk.cli import main
from kiosk.devices.printer import MAX_BACKOFF, PrinterSettings, PrinterWorker
from kiosk.devices.queue import JobQueue
from kiosk.devices.stamp import stamp_png

SETTINGS = PrinterSettings(backend="dummy", strip_pause_s=0.0, retry_s=0.5, park_after=3)


class Jamming(Dummy):
    """A printer whose firmware chokes on one job: the strip of that job's first raster row
    makes the driver raise an error that is not a transport error (at the hardware edge)."""

    def __init__(self, poison: bytes) -> None:
        super().__init__(profile="POS-5890")
        self.poison = poison

    def _raw(self, msg: bytes) -> None:
        if self.poison in msg:
            raise RuntimeError("firmware rejected the raster data")
        super()._raw(msg)


def _stamp(shade: int) -> bytes:
    """A 384-dot stamp whose raster rows are ``shade`` (each job's bytes differ)."""
    image = Image.new("L", (384, 24), 255)
    image.paste(0, (0, 0, 8 * shade, 24))
    return stamp_png(image.convert("1"))


@pytest.fixture
def queue(tmp_path: Path) -> JobQueue:
    q = JobQueue(tmp_path / "stamps.sqlite3")
    yield q  # type: ignore[misc]
    q.close()


def test_a_failing_job_is_parked_and_the_next_one_prints(queue: JobQueue, caplog: pytest.LogCaptureFixture) -> None:
    bad, good = queue.submit("3H", _stamp(3)), queue.submit("4H", _stamp(5))
    device = Jamming(poison=b"\x00\xff\xff\xff\x00")  # a row of job 3H: 3 black bytes, then white
    printed: list[str] = []
    worker = PrinterWorker(SETTINGS, queue, connect=lambda: device, on_printed=lambda j: printed.append(j.card_id))
    caplog.set_level(logging.DEBUG, logger="kiosk.devices.printer")
    pauses = []
    for _ in range(SETTINGS.park_after):
        assert worker.step() is False
        pauses.append(worker.pause)
    assert pauses[:2] == [SETTINGS.retry_s, 2 * SETTINGS.retry_s]  # backs off while it may still print
    assert queue.state_of(bad.job_id) == "parked" and queue.waiting() == 1  # type: ignore[arg-type]
    assert worker.step() is True and printed == ["4H"]
    assert queue.state_of(good.job_id) == "done"  # type: ignore[arg-type]
    tracebacks = [r for r in caplog.records if r.exc_info and r.levelno >= logging.ERROR]
    assert len(tracebacks) == 1  # the first failure of its kind only
    parked = [r for r in caplog.records if "parked after 3 failures" in r.getMessage()]
    assert len(parked) == 1 and "kiosk queue reprint" in parked[0].getMessage()
    assert queue.counters()["parked"] == 1 and queue.counters()["parked_now"] == 1


def test_a_transport_error_holds_the_job_without_parking_it(queue: JobQueue) -> None:
    """A printer that drops off the line mid-job is the printer's fault, not the job's: the job
    waits (offline) however often it happens, and prints when the printer is back."""
    queue.submit("3H", _stamp(3))
    attempts = 0

    class Unplugged(Dummy):
        def _raw(self, msg: bytes) -> None:
            if attempts <= 5 and msg.startswith(b"\x1dv0"):
                raise OSError("printer unplugged")
            super()._raw(msg)

    def connect() -> Dummy:
        nonlocal attempts
        attempts += 1
        return Unplugged(profile="POS-5890")

    worker = PrinterWorker(SETTINGS, queue, connect=connect)
    for _ in range(5):
        assert worker.step() is False
    assert queue.counters()["parked"] == 0 and queue.waiting() == 1
    assert worker.step() is True and queue.waiting() == 0


def test_an_error_outside_any_job_is_logged_once_and_backed_off(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The queue's file fails under the worker (here: closed): the thread lives on, logs one
    traceback, and waits longer after each failure instead of spinning."""
    q = JobQueue(tmp_path / "stamps.sqlite3")
    q.close()
    settings = PrinterSettings(backend="dummy", retry_s=0.01)
    worker = PrinterWorker(settings, q, connect=lambda: Dummy(profile="POS-5890"))
    caplog.set_level(logging.DEBUG, logger="kiosk.devices.printer")
    worker.start()
    deadline = time.monotonic() + 60
    while worker.pause < MAX_BACKOFF * settings.retry_s and time.monotonic() < deadline:
        time.sleep(0.01)
    worker.stop(timeout=5)
    assert worker.pause == MAX_BACKOFF * settings.retry_s
    assert len([r for r in caplog.records if r.exc_info]) == 1
    assert any(isinstance(r.exc_info[1], sqlite3.Error) for r in caplog.records if r.exc_info)


def test_queue_list_shows_parked_and_waiting_stamps_and_every_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KIOSK_STATE_DIR", str(tmp_path))
    with JobQueue(tmp_path / "stamps.sqlite3", card_cooldown_s=30) as q:
        parked = q.submit("3H", _stamp(1)).job_id
        q.submit("3H", _stamp(1))  # refused: cool-down
        waiting = q.submit("4H", _stamp(2)).job_id
        q.fail(parked, "RuntimeError: firmware rejected the raster data", park_after=1)  # type: ignore[arg-type]
    assert main(["queue", "list"]) == 0
    out = capsys.readouterr().out
    assert "1 waiting, 1 parked" in out
    assert f"#{parked:<6} 3H" in out and "parked" in out and "firmware rejected" in out
    assert f"#{waiting:<6} 4H" in out
    assert "cooldown 1" in out and "storage 0" in out and "unavailable 0" in out


def test_queue_reprint_puts_a_parked_stamp_back_and_queues_a_printed_one_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KIOSK_STATE_DIR", str(tmp_path))
    monkeypatch.setenv("KIOSK_CONFIG", str(tmp_path / "absent.toml"))
    with JobQueue(tmp_path / "stamps.sqlite3") as q:
        parked = q.submit("3H", _stamp(1)).job_id
        printed = q.submit("4H", _stamp(2)).job_id
        q.fail(parked, "boom", park_after=1)  # type: ignore[arg-type]
        q.finish(printed)  # type: ignore[arg-type]
    assert main(["queue", "reprint", str(parked)]) == 0
    assert main(["queue", "reprint", str(printed)]) == 0
    assert main(["queue", "reprint", "999"]) == 1
    assert "no stamp job #999" in capsys.readouterr().err
    with JobQueue(tmp_path / "stamps.sqlite3") as q:
        assert q.state_of(parked) == "waiting"  # type: ignore[arg-type]
        again = [j for j in q.jobs() if j.state == "waiting" and j.card_id == "4H"]
        assert len(again) == 1 and q.waiting() == 2
        image = q.image(again[0].id)
        assert image is not None and image[2] is not None
        assert Image.open(io.BytesIO(image[2])).width == 384  # rendered anew at the printer's width


def test_queue_clear_drops_what_is_not_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KIOSK_STATE_DIR", str(tmp_path))
    with JobQueue(tmp_path / "stamps.sqlite3") as q:
        q.submit("3H", _stamp(1))
        q.fail(q.submit("4H", _stamp(2)).job_id, "boom", park_after=1)  # type: ignore[arg-type]
    assert main(["queue", "clear"]) == 0
    assert "2 stamp(s)" in capsys.readouterr().out
    with JobQueue(tmp_path / "stamps.sqlite3") as q:
        assert q.waiting() == 0 and q.counters()["parked_now"] == 0 and q.counters()["cleared"] == 2


@pytest.mark.parametrize("argv", [["queue", "reprint"], ["queue", "list", "3"], ["queue", "list", "--done", "-1"]])
def test_queue_usage_errors(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIOSK_STATE_DIR", str(tmp_path))
    assert main(argv) == 2
