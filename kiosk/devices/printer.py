"""The thermal printer: python-escpos back-ends chosen by settings, stamp jobs as raster strips,
paper/online status, and the worker thread that owns the device and drains the job queue.

The ESC/POS protocol is python-escpos' business; this module only decides *which* transport
(serial TTL, USB, network, a file, or the library's Dummy) and *how* a stamp goes out: printer
reset, optional heat settings, the image in short raster strips with a pause after each so a
slow printer's buffer never overflows into garbage, then a feed (or a cut where there is a
cutter).
"""

from __future__ import annotations

import io
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from escpos import printer as escpos_printer
from escpos.capabilities import get_profile
from escpos.constants import RT_MASK_LOWPAPER, RT_MASK_NOPAPER, RT_MASK_ONLINE, RT_STATUS_ONLINE, RT_STATUS_PAPER
from escpos.escpos import Escpos
from escpos.exceptions import Error as EscposError
from PIL import Image

from kiosk.config import doc
from kiosk.devices.queue import Job, JobQueue
from kiosk.errors import ConfigError, KioskError

log = logging.getLogger(__name__)

BACKENDS: tuple[str, ...] = ("serial", "usb", "network", "file", "dummy", "none")
#: A failing job, or an error outside any job, waits at most this many times ``retry_s``.
MAX_BACKOFF = 16


@dataclass(frozen=True)
class PrinterSettings:
    """The thermal printer; the defaults fit the common 58 mm TTL printers on the Pi's UART."""

    backend: str = doc(
        "serial, usb, network, file, dummy (python-escpos' test double) or none.",
        "serial",
        choices=BACKENDS,
    )
    serial_port: str = doc("Serial device: the Pi's UART (GPIO14 TXD, GPIO15 RXD).", "/dev/serial0", length=(1, 4096))
    baudrate: int = doc(
        "Serial speed; TTL printers ship at 19200 or 9600 (the self-test page says).",
        19200,
        choices=(1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200),
    )
    serial_timeout_s: float = doc(
        "Seconds to wait for the answer to a status query (a printer answers within milliseconds).", 0.3, lo=0.05, hi=30
    )
    usb_vendor: int = doc('USB vendor id (lsusb), for backend = "usb".', 0x0416, lo=0, hi=0xFFFF)
    usb_product: int = doc('USB product id (lsusb), for backend = "usb".', 0x5011, lo=0, hi=0xFFFF)
    host: str = doc('Network printer address, for backend = "network".', "", length=(0, 253))
    port: int = doc("Network printer raw port.", 9100, lo=1, hi=65535)
    file_path: str = doc('Device or file written to, for backend = "file" (/dev/usb/lp0).', "", length=(0, 4096))
    profile: str = doc(
        "python-escpos printer profile (its width and cutter): POS-5890 for 58 mm, TM-T20II for 80 mm.",
        "POS-5890",
        length=(1, 64),
    )
    width: int = doc(
        "Dots per line: 384 for 58 mm paper, 576 for 80 mm (203 dpi); a multiple of 8.",
        384,
        lo=8,
        hi=1024,
    )
    strip_rows: int = doc("Raster rows sent per GS v 0 command.", 24, lo=1, hi=255)
    strip_pause_s: float = doc("Pause after each strip so the printer's buffer keeps up.", 0.05, lo=0, hi=2)
    heat: bool = doc("Send ESC 7 heat settings (printers that take them, such as the CSN-A2).", False)
    heat_dots: int = doc("ESC 7 n1: maximum heating dots, in units of 8 dots, minus 1.", 11, lo=0, hi=255)
    heat_time: int = doc("ESC 7 n2: heating time in 10 us; more is darker and slower.", 120, lo=3, hi=255)
    heat_interval: int = doc("ESC 7 n3: heating interval in 10 us.", 40, lo=0, hi=255)
    cut: bool = doc("The printer has a cutter (else the paper is fed for tearing off).", False)
    feed_lines: int = doc("Lines fed after a stamp.", 4, lo=0, hi=30)
    answers_status: bool = doc(
        "The printer answers status queries (DLE EOT): paper out and "
        "offline are detected; set false for a printer that never answers.",
        True,
    )
    retry_s: float = doc(
        "Seconds between checks while jobs are held (paper out, offline); a failing job waits "
        "twice as long after each failure, up to 16 times this.",
        5.0,
        lo=0.5,
        hi=300,
    )
    park_after: int = doc(
        "Failed tries after which a job is parked (kept, shown by `kiosk queue list`, "
        "reprinted with `kiosk queue reprint ID`) so the stamps behind it print.",
        3,
        lo=1,
        hi=20,
    )
    max_per_minute: int = doc("Stamps accepted per minute, against a flood (0: no limit).", 6, lo=0, hi=60)

    def validate(self) -> None:
        """The settings work together (the config loader calls this; so does the worker)."""
        check_settings(self)


class PrinterState(StrEnum):
    """What the screen and the LEDs show about the printer; values are message keys."""

    READY = "devices.printer.ready"
    PAPER_LOW = "devices.printer.paper_low"
    PAPER_OUT = "devices.printer.paper_out"
    OFFLINE = "devices.printer.offline"

    @property
    def holds(self) -> bool:
        """Jobs wait (and are kept) while the printer is in this state."""
        return self in (PrinterState.PAPER_OUT, PrinterState.OFFLINE)


def open_printer(settings: PrinterSettings) -> Escpos:
    """The python-escpos printer of ``settings.backend``, opened; errors say what to fix."""
    kind = settings.backend
    common = {"profile": settings.profile}
    if kind == "serial":
        dev: Escpos = escpos_printer.Serial(
            devfile=settings.serial_port,
            baudrate=settings.baudrate,
            timeout=settings.serial_timeout_s,
            dsrdtr=False,
            **common,
        )
    elif kind == "usb":
        dev = escpos_printer.Usb(settings.usb_vendor, settings.usb_product, **common)
    elif kind == "network":
        dev = escpos_printer.Network(settings.host, port=settings.port, timeout=5, **common)
    elif kind == "file":
        dev = escpos_printer.File(devfile=settings.file_path, **common)
    elif kind == "dummy":
        dev = escpos_printer.Dummy(**common)
    else:
        raise ConfigError(f"printer backend {kind!r} cannot print; choose one of {BACKENDS[:-1]}")
    if not dev.is_usable():
        raise KioskError(f"printer backend {kind!r} needs a missing library (pyserial or pyusb)")
    dev.open()
    return dev


def describe(settings: PrinterSettings) -> str:
    """Where the printer is, in a few words (doctor, test page, logs)."""
    return {
        "serial": f"{settings.serial_port} at {settings.baudrate} baud",
        "usb": f"USB {settings.usb_vendor:04x}:{settings.usb_product:04x}",
        "network": f"{settings.host}:{settings.port}",
        "file": settings.file_path,
        "dummy": "python-escpos Dummy (prints nothing)",
    }.get(settings.backend, settings.backend)


def check_settings(settings: PrinterSettings) -> None:
    """Raise ConfigError when the settings cannot work together (before any job is taken)."""
    if settings.backend not in BACKENDS:
        raise ConfigError(f"[printer] backend = {settings.backend!r}: choose one of {BACKENDS}")
    if settings.width % 8 or settings.width <= 0:
        raise ConfigError(f"[printer] width = {settings.width}: a positive multiple of 8 dots")
    try:
        media = get_profile(settings.profile).media["width"]["pixels"]
    except KeyError:
        raise ConfigError(f"[printer] profile = {settings.profile!r}: unknown to python-escpos") from None
    if isinstance(media, int) and media < settings.width:
        raise ConfigError(
            f"[printer] width = {settings.width} is wider than profile {settings.profile!r} ({media} dots)"
        )


def can_answer(printer: Escpos) -> bool:
    """Whether the printer's transport reads anything back (serial, USB, network; not a file)."""
    return type(printer)._read is not Escpos._read


def query(printer: Escpos, request: bytes) -> int | None:
    """The printer's one-byte answer to the DLE EOT ``request``, or None when none came in time.

    On a serial line the bytes already waiting (an answer that came after its timeout, noise)
    are dropped first, so that they are never read as this answer, and one byte is read: that
    returns as soon as it has come, where python-escpos' read of 16 waits out the timeout.
    """
    device: Any = getattr(printer, "device", None)
    serial_line = hasattr(device, "reset_input_buffer")
    if serial_line:
        device.reset_input_buffer()
    printer._raw(request)
    reply = device.read(1) if serial_line else printer._read()
    return reply[0] if reply else None


def read_status(printer: Escpos) -> PrinterState | None:
    """The printer's state from DLE EOT 1 (on line) and DLE EOT 4 (paper sensors); None when it
    does not answer."""
    online = query(printer, RT_STATUS_ONLINE)
    if online is None:
        return None
    if online & RT_MASK_ONLINE:
        return PrinterState.OFFLINE
    paper = query(printer, RT_STATUS_PAPER)
    if paper is not None and paper & RT_MASK_NOPAPER == RT_MASK_NOPAPER:
        return PrinterState.PAPER_OUT
    if paper is not None and paper & RT_MASK_LOWPAPER == RT_MASK_LOWPAPER:
        return PrinterState.PAPER_LOW
    return PrinterState.READY


def probe(printer: Escpos, settings: PrinterSettings) -> PrinterState:
    """The printer's state where it can and should answer (READY where not); no answer is OFFLINE."""
    if not settings.answers_status or not can_answer(printer):
        return PrinterState.READY
    state = read_status(printer)
    return PrinterState.OFFLINE if state is None else state


def print_stamp(
    printer: Escpos,
    image: Image.Image,
    settings: PrinterSettings,
    *,
    pause: Callable[[float], None] = time.sleep,
    on_strip: Callable[[int, int], None] | None = None,
) -> None:
    """Send one stamp: ESC @, heat settings if any, raster strips with pauses, then feed or cut.

    ``image`` must be exactly ``settings.width`` dots wide; ``on_strip(done, total)`` follows
    the progress (the screen's "printing" bar).
    """
    if image.width != settings.width:
        raise ValueError(f"stamp is {image.width} dots wide, the printer takes {settings.width}")
    image = image.convert("1")
    printer.hw("INIT")
    if settings.heat:
        printer._raw(b"\x1b7" + bytes((settings.heat_dots, settings.heat_time, settings.heat_interval)))
    rows = settings.strip_rows
    total = -(-image.height // rows)
    for i in range(total):
        strip = image.crop((0, i * rows, image.width, min(image.height, (i + 1) * rows)))
        printer.image(strip, impl="bitImageRaster", fragment_height=rows)
        pause(settings.strip_pause_s)
        if on_strip:
            on_strip(i + 1, total)
    if settings.cut:
        printer.cut()
    else:
        printer.print_and_feed(settings.feed_lines)


def fit_width(image: Image.Image, width: int) -> Image.Image:
    """``image`` as a 1-bit image exactly ``width`` dots wide: centred on white paper when
    narrower, scaled down and dithered when wider (jobs queued before the paper width changed)."""
    image = image.convert("1")
    if image.width < width:
        paper = Image.new("1", (width, image.height), 1)
        paper.paste(image, ((width - image.width) // 2, 0))
        return paper
    if image.width > width:
        height = max(1, round(image.height * width / image.width))
        return image.convert("L").resize((width, height), Image.Resampling.LANCZOS).convert("1")
    return image


class PrinterWorker:
    """The one thread that owns the printer: it prints queued jobs oldest first, holds them
    while the paper is out or the printer is offline, and resumes by itself when it is back.

    ``on_state(state)`` is called (from the worker thread) when the printer's state changes,
    ``on_progress(job, done, total)`` after each strip and ``on_printed(job)`` once the job is
    marked done. The app posts them as pygame events.
    """

    def __init__(
        self,
        settings: PrinterSettings,
        queue: JobQueue,
        *,
        connect: Callable[[], Escpos] | None = None,
        on_state: Callable[[PrinterState], None] | None = None,
        on_progress: Callable[[Job, int, int], None] | None = None,
        on_printed: Callable[[Job], None] | None = None,
    ) -> None:
        self.settings = settings
        self.queue = queue
        self._connect = connect or (lambda: open_printer(settings))
        self._on_state = on_state
        self._on_progress = on_progress
        self._on_printed = on_printed
        self._device: Escpos | None = None
        self._state = PrinterState.READY
        self.printing: int | None = None  # id of the job being sent, for the screen
        self.answers: bool | None = None  # whether the printer has answered a status query yet
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.pause = settings.retry_s  # how long run() waits after a step that printed nothing (backs off)
        self._logged: set[str] = set()  # kinds of error already logged with their traceback
        self._thread: threading.Thread | None = None

    @property
    def state(self) -> PrinterState:
        return self._state

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="printer", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """A job was queued: look now instead of at the next retry."""
        self._wake.set()

    def stop(self, timeout: float | None = None) -> None:
        """Finish the strip in progress, then stop; an unfinished job stays queued."""
        self._stop.set()
        self._wake.set()
        if self._thread:
            self._thread.join(timeout)

    def run(self) -> None:
        """The worker loop (the thread's target; tests may call :meth:`step` instead). An error
        outside any one job (the queue's file failing, a bug) is logged once per kind and backed
        off, doubling the wait up to MAX_BACKOFF times ``retry_s``; it never ends the thread."""
        errors = 0  # steps failed in a row
        while not self._stop.is_set():
            try:
                progressed = self.step()
                errors = 0
            except Exception as exc:  # a bug must not silently end the only thread that prints
                errors += 1
                self._log_once(exc, "printer worker step failed")
                self.pause = self._backoff(errors)
                progressed = False
            if not progressed:
                self._wake.wait(self.pause)
                self._wake.clear()
        self._release()

    def step(self) -> bool:
        """Print the oldest waiting job; False when there was none or the printer holds it.

        A transport error (OSError, python-escpos' errors) means the printer is offline: the
        job waits, as for paper out. Any other error while printing is the job's: it is logged
        once per kind, the job is tried again after a doubling wait, and parked (kept, skipped)
        at its ``park_after``-th failure so the jobs behind it print.
        """
        self.pause = self.settings.retry_s
        job = self.queue.next_job()
        if job is None:
            if self._state.holds:
                self._refresh()
            return False
        try:
            image = fit_width(Image.open(io.BytesIO(job.image)), self.settings.width)
        except (OSError, ValueError, Image.DecompressionBombError) as exc:  # unreadable now is forever
            log.error("stamp job %d (%s) is unreadable, dropped: %s", job.id, job.card_id, exc)
            self.queue.discard(job.id)
            return True
        if not self._refresh():
            return False
        self.queue.begin(job.id)
        try:
            self.printing = job.id
            print_stamp(
                self._device,  # type: ignore[arg-type]
                image,
                self.settings,
                on_strip=lambda done, total: self._progress(job, done, total),
            )
        except (OSError, EscposError) as exc:
            self._fail(exc)
            return False
        except Exception as exc:  # noqa: BLE001 - the job's own failure, never the thread's end
            self._job_failed(job, exc)
            return False
        finally:
            self.printing = None
        # Paper that ran out during the job means a half stamp: keep the job for a reprint.
        if not self._refresh():
            return False
        self.queue.finish(job.id)
        if self._on_printed:
            self._on_printed(job)
        return True

    def _job_failed(self, job: Job, exc: Exception) -> None:
        """Count the failure; park the job at the ``park_after``-th, else wait longer each time."""
        note = f"{type(exc).__name__}: {exc}"[:200]
        self._log_once(exc, f"stamp job {job.id} ({job.card_id}) failed")
        failures, parked = self.queue.fail(job.id, note, self.settings.park_after)
        if parked:
            log.error(
                "stamp job %d (%s) parked after %d failures (%s); `kiosk queue reprint %d` tries it again",
                job.id,
                job.card_id,
                failures,
                note,
                job.id,
            )
        else:
            self.pause = self._backoff(failures)

    def _backoff(self, failures: int) -> float:
        """The wait after the ``failures``-th failure in a row: ``retry_s``, then twice as long
        each time, at most MAX_BACKOFF times ``retry_s``."""
        return min(self.settings.retry_s * 2 ** min(failures - 1, 30), MAX_BACKOFF * self.settings.retry_s)

    def _log_once(self, exc: Exception, what: str) -> None:
        """The traceback of the first error of each kind; a debug line for the ones after."""
        kind = type(exc).__name__
        if kind in self._logged:
            log.debug("%s again: %s", what, exc)
        else:
            self._logged.add(kind)
            log.exception("%s: %s (logged once; repeats at debug level)", what, exc)

    def _refresh(self) -> bool:
        """Connect if needed and update the state; True when a job may be printed."""
        try:
            if self._device is None:
                self._device = self._connect()
            self._set_state(self._status(self._device))
        except (OSError, EscposError) as exc:
            self._fail(exc)
        return not self._state.holds

    def _status(self, device: Escpos) -> PrinterState:
        """The printer's state, asked where it can answer (``answers_status``). A printer that has
        answered and then falls silent is offline. One that has not answered since it was first
        connected is taken as ready, as the cheap printers that ignore DLE EOT must be (the log
        says so once; paper out and offline then go unseen), and is asked again each time, so a
        printer switched on late is found out."""
        if not self.settings.answers_status or not can_answer(device):
            return PrinterState.READY
        state = read_status(device)
        if state is not None:
            self.answers = True
            return state
        if self.answers:
            return PrinterState.OFFLINE
        if self.answers is None:
            log.warning(
                "printer %s does not answer status queries (DLE EOT): printing without them, so paper "
                "out and offline go unseen (check its TX wire, or set answers_status = false)",
                describe(self.settings),
            )
            self.answers = False
        return PrinterState.READY

    def _fail(self, exc: Exception) -> None:
        if self._state is not PrinterState.OFFLINE:
            log.warning("printer offline: %s", exc)
        self._release()
        self._set_state(PrinterState.OFFLINE)

    def _release(self) -> None:
        if self._device is not None:
            try:
                self._device.close()
            except (OSError, EscposError):
                pass
            self._device = None

    def _set_state(self, state: PrinterState) -> None:
        if state is not self._state:
            self._state = state
            log.info("printer: %s", state.name)
            if self._on_state:
                self._on_state(state)

    def _progress(self, job: Job, done: int, total: int) -> None:
        if self._on_progress:
            self._on_progress(job, done, total)
