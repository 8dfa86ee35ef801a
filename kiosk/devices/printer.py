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

from escpos import printer as escpos_printer
from escpos.capabilities import get_profile
from escpos.escpos import Escpos
from escpos.exceptions import Error as EscposError
from PIL import Image

from kiosk.config import doc
from kiosk.devices.queue import Job, JobQueue
from kiosk.errors import ConfigError, KioskError

log = logging.getLogger(__name__)

BACKENDS: tuple[str, ...] = ("serial", "usb", "network", "file", "dummy", "none")


@dataclass(frozen=True)
class PrinterSettings:
    """The thermal printer; the defaults fit the common 58 mm TTL printers on the Pi's UART."""

    backend: str = doc("serial, usb, network, file, dummy (python-escpos' test double) or none.", "serial")
    serial_port: str = doc("Serial device: the Pi's UART (GPIO14 TXD, GPIO15 RXD).", "/dev/serial0")
    baudrate: int = doc("Serial speed; TTL printers ship at 19200 or 9600 (the self-test page says).", 19200)
    serial_timeout_s: float = doc("Seconds to wait for the answer to a status query.", 1.0)
    usb_vendor: int = doc('USB vendor id (lsusb), for backend = "usb".', 0x0416)
    usb_product: int = doc('USB product id (lsusb), for backend = "usb".', 0x5011)
    host: str = doc('Network printer address, for backend = "network".', "")
    port: int = doc("Network printer raw port.", 9100)
    file_path: str = doc('Device or file written to, for backend = "file" (/dev/usb/lp0).', "")
    profile: str = doc(
        "python-escpos printer profile (its width and cutter): POS-5890 for 58 mm, TM-T20II for 80 mm.",
        "POS-5890",
    )
    width: int = doc("Dots per line: 384 for 58 mm paper, 576 for 80 mm (203 dpi).", 384)
    strip_rows: int = doc("Raster rows sent per GS v 0 command.", 24)
    strip_pause_s: float = doc("Pause after each strip so the printer's buffer keeps up.", 0.05)
    heat: bool = doc("Send ESC 7 heat settings (printers that take them, such as the CSN-A2).", False)
    heat_dots: int = doc("ESC 7 n1: maximum heating dots, in units of 8 dots, minus 1.", 11)
    heat_time: int = doc("ESC 7 n2: heating time in 10 us; more is darker and slower.", 120)
    heat_interval: int = doc("ESC 7 n3: heating interval in 10 us.", 40)
    cut: bool = doc("The printer has a cutter (else the paper is fed for tearing off).", False)
    feed_lines: int = doc("Lines fed after a stamp.", 4)
    answers_status: bool = doc(
        "The printer answers status queries (DLE EOT): paper out and "
        "offline are detected; set false for a printer that never answers.",
        True,
    )
    retry_s: float = doc("Seconds between checks while jobs are held (paper out, offline).", 5.0)
    max_per_minute: int = doc("Stamps accepted per minute, against a flood (0: no limit).", 6)


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


def probe(printer: Escpos, settings: PrinterSettings) -> PrinterState:
    """Ask the printer for its state where it can answer; a printer that never answers is READY."""
    if not settings.answers_status or type(printer)._read is Escpos._read:
        return PrinterState.READY
    if not printer.is_online():
        return PrinterState.OFFLINE
    paper = printer.paper_status()
    return (PrinterState.PAPER_OUT, PrinterState.PAPER_LOW, PrinterState.READY)[paper]


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
        self._wake = threading.Event()
        self._stop = threading.Event()
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
        """The worker loop (the thread's target; tests may call :meth:`step` instead)."""
        while not self._stop.is_set():
            try:
                progressed = self.step()
            except Exception:  # a bug must not silently end the only thread that prints
                log.exception("printer worker step failed")
                progressed = False
            if not progressed:
                self._wake.wait(self.settings.retry_s)
                self._wake.clear()
        self._release()

    def step(self) -> bool:
        """Print the oldest waiting job; False when there was none or the printer holds it."""
        job = self.queue.next_job()
        if job is None:
            if self._state.holds:
                self._refresh()
            return False
        try:
            image = fit_width(Image.open(io.BytesIO(job.image)), self.settings.width)
        except (OSError, ValueError) as exc:  # unreadable now means unreadable forever
            log.error("stamp job %d (%s) is unreadable, dropped: %s", job.id, job.card_id, exc)
            self.queue.discard(job.id)
            return True
        if not self._refresh():
            return False
        try:
            self.printing = job.id
            self.queue.begin(job.id)
            print_stamp(
                self._device,  # type: ignore[arg-type]
                image,
                self.settings,
                on_strip=lambda done, total: self._progress(job, done, total),
            )
        except (OSError, EscposError) as exc:
            self._fail(exc)
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

    def _refresh(self) -> bool:
        """Connect if needed and update the state; True when a job may be printed."""
        try:
            if self._device is None:
                self._device = self._connect()
            self._set_state(probe(self._device, self.settings))
        except (OSError, EscposError) as exc:
            self._fail(exc)
        return not self._state.holds

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
