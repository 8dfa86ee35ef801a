"""Printer status over a serial line (issue 52): a cheap printer that ignores DLE EOT still prints
(it was "offline" for ever), one that answered and falls silent is offline, a stale byte is never
read as the answer, and an answer is read as soon as it comes."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from escpos.printer import Dummy, Serial
from PIL import Image
from test_printer import Answering

from kiosk.devices.printer import PrinterSettings, PrinterState, PrinterWorker, query, read_status
from kiosk.devices.queue import JobQueue
from kiosk.devices.stamp import stamp_png

SETTINGS = PrinterSettings(backend="dummy", strip_pause_s=0.0, retry_s=0.05)


class Line:
    """The serial port under python-escpos (pyserial's calls): bytes waiting to be read, and the
    printer's answer to each DLE EOT put behind them."""

    is_open = False  # nothing for python-escpos to close

    def __init__(self, waiting: bytes, answers: dict[bytes, bytes]) -> None:
        self.waiting, self.answers = bytearray(waiting), answers
        self.reads: list[int] = []

    def reset_input_buffer(self) -> None:
        self.waiting.clear()

    def write(self, data: bytes) -> int:
        self.waiting += self.answers.get(bytes(data), b"")
        return len(data)

    def read(self, size: int = 1) -> bytes:
        self.reads.append(size)
        out, self.waiting = bytes(self.waiting[:size]), self.waiting[size:]
        return out


def _serial(line: Line) -> Serial:
    printer = Serial(devfile="/dev/null", profile="POS-5890")
    printer.device = line  # type: ignore[assignment]
    return printer


def test_a_stale_byte_is_dropped_before_each_query_and_one_byte_is_read() -> None:
    """An answer that came after its timeout (here: "off line", 0x1a) waits in the input buffer;
    read as the next answer it would hold every stamp. And pyserial's read(16) would wait out the
    whole timeout for the 15 bytes that never come: one byte is asked for."""
    line = Line(b"\x1a", {b"\x10\x04\x01": b"\x12", b"\x10\x04\x04": b"\x12"})
    assert read_status(_serial(line)) is PrinterState.READY
    assert line.reads == [1, 1]
    assert query(_serial(Line(b"", {})), b"\x10\x04\x01") is None


def _stamp() -> bytes:
    return stamp_png(Image.new("1", (384, 48), 1))


def _worker(tmp_path: Path, device: Dummy) -> tuple[PrinterWorker, JobQueue]:
    queue = JobQueue(tmp_path / "stamps.sqlite3", card_cooldown_s=0, max_per_minute=0)
    queue.submit("7H", _stamp())
    return PrinterWorker(SETTINGS, queue, connect=lambda: device), queue


def test_a_printer_that_never_answers_prints_and_the_log_says_so_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    device = Answering(b"", b"")
    worker, queue = _worker(tmp_path, device)
    with caplog.at_level(logging.WARNING, logger="kiosk.devices.printer"):
        assert worker.step() is True
        queue.submit("8H", _stamp())
        assert worker.step() is True
    assert worker.state is PrinterState.READY and worker.answers is False and queue.waiting() == 0
    said = [r.getMessage() for r in caplog.records if "does not answer" in r.getMessage()]
    assert len(said) == 1 and "answers_status = false" in said[0]
    queue.close()


def test_a_printer_that_answered_and_falls_silent_is_offline(tmp_path: Path) -> None:
    device = Answering(b"\x12", b"\x12")
    worker, queue = _worker(tmp_path, device)
    assert worker.step() is True and worker.answers is True
    device.online = device.paper = b""  # switched off
    queue.submit("8H", _stamp())
    assert worker.step() is False
    assert worker.state is PrinterState.OFFLINE and queue.waiting() == 1
    device.online = device.paper = b"\x12"  # back on: the held stamp prints
    assert worker.step() is True and queue.waiting() == 0
    queue.close()
