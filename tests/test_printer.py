"""The stamp job's exact ESC/POS byte stream (python-escpos Dummy and File printers), the
printer's status, and the worker holding and resuming the queue on paper-out and offline."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import numpy as np
import pytest
from escpos.exceptions import DeviceNotFoundError
from escpos.printer import Dummy
from PIL import Image

from kiosk.devices.printer import (
    PrinterSettings,
    PrinterState,
    PrinterWorker,
    check_settings,
    fit_width,
    open_printer,
    print_stamp,
    probe,
)
from kiosk.devices.queue import JobQueue
from kiosk.errors import ConfigError

INIT = b"\x1b@"


def pattern(width: int = 384, height: int = 50, seed: int = 1) -> Image.Image:
    """A 1-bit test image with a different bit pattern on every row."""
    bits = np.random.default_rng(seed).random((height, width)) < 0.5
    return Image.fromarray(np.where(bits, 0, 255).astype(np.uint8)).convert("1")


def raster(img: Image.Image, top: int, bottom: int) -> bytes:
    """GS v 0 for rows top..bottom, from the ESC/POS manual: black dot = 1, MSB first."""
    ink = np.asarray(img.convert("L"))[top:bottom] < 128
    header = b"\x1dv0\x00" + (img.width // 8).to_bytes(2, "little") + (bottom - top).to_bytes(2, "little")
    return header + np.packbits(ink, axis=1).tobytes()


def expected_job(img: Image.Image, rows: int, tail: bytes, heat: bytes = b"") -> bytes:
    strips = b"".join(raster(img, t, min(t + rows, img.height)) for t in range(0, img.height, rows))
    return INIT + heat + strips + tail


QUIET = PrinterSettings(backend="dummy", strip_rows=24, strip_pause_s=0.0, feed_lines=4)


def test_stamp_job_is_init_raster_strips_and_feed() -> None:
    img, dev = pattern(), Dummy(profile="POS-5890")
    print_stamp(dev, img, QUIET)
    # 50 rows in strips of 24: 24 + 24 + 2, then ESC d 4 (print and feed 4 lines).
    assert dev.output == expected_job(img, 24, b"\x1bd\x04")


def test_heat_settings_follow_init_and_cutter_feeds_then_cuts() -> None:
    img = pattern(576, 30, seed=2)
    settings = PrinterSettings(
        backend="dummy",
        profile="TM-T20II",
        width=576,
        strip_rows=16,
        strip_pause_s=0.0,
        heat=True,
        heat_dots=7,
        heat_time=80,
        heat_interval=2,
        cut=True,
    )
    dev = Dummy(profile="TM-T20II")
    print_stamp(dev, img, settings)
    # python-escpos' cut(): ESC d 6 then GS V 0 (full cut).
    assert dev.output == expected_job(img, 16, b"\x1bd\x06\x1dV\x00", heat=b"\x1b7\x07\x50\x02")


def test_file_printer_receives_the_same_bytes_as_dummy(tmp_path: Path) -> None:
    img, target = pattern(seed=3), tmp_path / "lp0"
    file_printer = open_printer(PrinterSettings(backend="file", file_path=str(target)))
    print_stamp(file_printer, img, QUIET)
    file_printer.close()
    assert target.read_bytes() == expected_job(img, 24, b"\x1bd\x04")


def test_a_pause_follows_every_strip_and_progress_counts_strips() -> None:
    pauses: list[float] = []
    progress: list[tuple[int, int]] = []
    settings = PrinterSettings(backend="dummy", strip_rows=20, strip_pause_s=0.07)
    print_stamp(
        Dummy(profile="POS-5890"),
        pattern(height=50),
        settings,
        pause=pauses.append,
        on_strip=lambda d, t: progress.append((d, t)),
    )
    assert pauses == [0.07, 0.07, 0.07]
    assert progress == [(1, 3), (2, 3), (3, 3)]


def test_a_stamp_of_the_wrong_width_is_refused() -> None:
    with pytest.raises(ValueError, match="576 dots wide"):
        print_stamp(Dummy(), pattern(576, 8), QUIET)


class Answering(Dummy):
    """A Dummy that answers DLE EOT n like a real printer: byte per query kind."""

    def __init__(self, online: bytes = b"\x12", paper: bytes = b"\x12", **kw: object) -> None:
        super().__init__(profile="POS-5890", **kw)
        self.online, self.paper = online, paper
        self.fail_after_strips: int | None = None
        self._strips = 0

    def _read(self) -> bytes:
        return self.paper if self._output_list[-1] == b"\x10\x04\x04" else self.online

    def _raw(self, msg: bytes) -> None:
        if msg.startswith(b"\x1dv0"):
            if self._strips == self.fail_after_strips:
                raise OSError("printer unplugged")
            self._strips += 1
        super()._raw(msg)


@pytest.mark.parametrize(
    ("online", "paper", "state"),
    [
        (b"\x12", b"\x12", PrinterState.READY),
        (b"\x12", b"\x1e", PrinterState.PAPER_LOW),
        (b"\x12", b"\x72", PrinterState.PAPER_OUT),
        (b"\x1a", b"\x12", PrinterState.OFFLINE),  # bit 3 of DLE EOT 1: off line
        (b"", b"", PrinterState.OFFLINE),  # no answer from a printer that should answer
    ],
)
def test_probe_reads_online_and_paper_status(online: bytes, paper: bytes, state: PrinterState) -> None:
    assert probe(Answering(online, paper), QUIET) is state


def test_a_printer_that_cannot_answer_is_not_asked() -> None:
    dev = Dummy()
    assert probe(dev, QUIET) is PrinterState.READY
    assert dev.output == b""
    assert probe(Answering(b"", b""), PrinterSettings(answers_status=False)) is PrinterState.READY


def png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture
def queue(tmp_path: Path) -> JobQueue:
    q = JobQueue(tmp_path / "jobs.sqlite3")
    yield q
    q.close()


def test_paper_out_holds_jobs_and_printing_resumes_when_paper_is_back(queue: JobQueue) -> None:
    dev, states = Answering(paper=b"\x72"), []
    worker = PrinterWorker(QUIET, queue, connect=lambda: dev, on_state=states.append)
    queue.submit("2H", png(pattern(seed=4)))
    assert worker.step() is False
    assert worker.state is PrinterState.PAPER_OUT and queue.waiting() == 1
    assert b"\x1dv0" not in dev.output  # nothing was sent while the paper is out
    dev.paper = b"\x12"
    assert worker.step() is True
    assert queue.waiting() == 0 and states == [PrinterState.PAPER_OUT, PrinterState.READY]
    assert dev.output.count(b"\x1dv0") == 3


def test_offline_printer_keeps_jobs_until_it_can_be_opened(queue: JobQueue) -> None:
    plugged = Dummy(profile="POS-5890")
    attempts = iter([DeviceNotFoundError("no /dev/serial0"), OSError("busy"), plugged])

    def connect() -> Dummy:
        nxt = next(attempts)
        if isinstance(nxt, Exception):
            raise nxt
        return nxt

    worker = PrinterWorker(QUIET, queue, connect=connect)
    queue.submit("KS", png(pattern(seed=5)))
    assert [worker.step(), worker.step()] == [False, False]
    assert worker.state is PrinterState.OFFLINE and queue.waiting() == 1
    assert worker.step() is True
    assert worker.state is PrinterState.READY and queue.waiting() == 0


def test_a_job_cut_short_by_a_write_error_is_printed_again(queue: JobQueue) -> None:
    flaky, good = Answering(), Dummy(profile="POS-5890")
    flaky.fail_after_strips = 2
    devices = iter([flaky, good])
    worker = PrinterWorker(QUIET, queue, connect=lambda: next(devices))
    img = pattern(seed=6)
    queue.submit("3C", png(img))
    assert worker.step() is False and worker.state is PrinterState.OFFLINE
    assert worker.step() is True
    assert good.output == expected_job(img, 24, b"\x1bd\x04")
    assert queue.counters()["reprinted"] == 1 and queue.counters()["printed"] == 1


def test_paper_running_out_during_a_job_keeps_it_for_a_reprint(queue: JobQueue) -> None:
    dev = Answering()
    worker = PrinterWorker(
        QUIET,
        queue,
        on_progress=lambda job, d, t: setattr(dev, "paper", b"\x72"),
        connect=lambda: dev,
    )
    queue.submit("4S", png(pattern(seed=7)))
    assert worker.step() is False
    assert worker.state is PrinterState.PAPER_OUT and queue.waiting() == 1


def test_worker_thread_drains_the_queue_and_stops(queue: JobQueue) -> None:
    dev, done = Dummy(profile="POS-5890"), threading.Event()
    settings = PrinterSettings(backend="dummy", strip_pause_s=0.0, retry_s=30.0)

    def progress(job: object, d: int, t: int) -> None:
        if queue.counters()["submitted"] == 2 and d == t and job.id == 2:  # type: ignore[attr-defined]
            done.set()

    worker = PrinterWorker(settings, queue, connect=lambda: dev, on_progress=progress)
    worker.start()
    for seed in (8, 9):
        queue.submit(f"{seed}D", png(pattern(seed=seed)))
        worker.wake()
    assert done.wait(20)
    worker.stop(20)
    assert queue.waiting() == 0 and dev.output.count(INIT) == 2


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (PrinterSettings(backend="bluetooth"), "backend"),
        (PrinterSettings(width=380), "multiple of 8"),
        (PrinterSettings(width=576), "wider than profile"),
        (PrinterSettings(profile="no-such-printer"), "unknown"),
    ],
)
def test_inconsistent_settings_are_config_errors(settings: PrinterSettings, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        check_settings(settings)


def test_missing_serial_port_is_reported_as_not_found(tmp_path: Path) -> None:
    with pytest.raises(DeviceNotFoundError):
        open_printer(PrinterSettings(serial_port=str(tmp_path / "ttyNONE")))


def test_an_unreadable_job_is_dropped_and_counted_and_the_next_one_prints(queue: JobQueue) -> None:
    dev = Dummy(profile="POS-5890")
    worker = PrinterWorker(QUIET, queue, connect=lambda: dev)
    queue.submit("2H", b"not a png")
    img = pattern(seed=10)
    queue.submit("3H", png(img))
    assert worker.step() is True and worker.step() is True
    assert queue.waiting() == 0 and queue.counters()["discarded"] == 1
    assert dev.output == expected_job(img, 24, b"\x1bd\x04")


@pytest.mark.parametrize("queued_width", [320, 576])
def test_jobs_queued_at_another_paper_width_are_fitted(queue: JobQueue, queued_width: int) -> None:
    dev = Dummy(profile="POS-5890")
    worker = PrinterWorker(QUIET, queue, connect=lambda: dev)
    queue.submit("2H", png(pattern(queued_width, 40, seed=11)))
    assert worker.step() is True
    header = dev.output[len(INIT) : len(INIT) + 8]
    assert header[:4] == b"\x1dv0\x00" and int.from_bytes(header[4:6], "little") == 384 // 8


def test_fit_width_centres_a_narrow_stamp_on_white_paper() -> None:
    narrow = Image.new("1", (16, 2), 0)
    fitted = fit_width(narrow, 32)
    row = np.asarray(fitted)[0]
    assert fitted.size == (32, 2) and row[:8].all() and not row[8:24].any() and row[24:].all()


def test_a_bug_in_a_step_does_not_end_the_worker_thread(queue: JobQueue) -> None:
    calls, done = [], threading.Event()
    worker = PrinterWorker(PrinterSettings(backend="dummy", retry_s=0.01), queue)

    def flaky_step() -> bool:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("bug")
        done.set()
        return False

    worker.step = flaky_step  # type: ignore[method-assign]
    worker.start()
    assert done.wait(20)
    worker.stop(20)
    assert len(calls) >= 2
