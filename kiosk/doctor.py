"""``kiosk doctor``: is this box able to run the kiosk? One line per part, a clear verdict.

Each check returns ``ok``, ``warn`` (works, but a technician should know) or ``fail`` (the
kiosk cannot do its job), a detail line and, for scripts, facts (the models' folder, SDL's video
drivers, numpy's origin, the printer's port); a check that crashes is a ``fail`` with the
error, never a traceback. The exit code is non-zero when anything failed, so install.sh and a
technician's script can rely on it. ``kiosk doctor --json`` prints :func:`as_json`:
``{"ok": bool, "checks": [{"key", "name", "status", "detail", "facts"}, ...]}`` in the report's
order, with the keys ``config``, ``state_directory``, ``stamp_queue``, ``state_medium``, ``free_disk``,
``model_files``, ``camera``, ``calibration``, ``printer``, ``gpio``, ``sdl_video``, ``display``, ``numpy``,
``clock`` and ``operator_pin``.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.config import Config, load_config, section_classes
from kiosk.errors import KioskError

OK, WARN, FAIL = "ok", "warn", "fail"
MIN_FREE_MB, LOW_FREE_MB = 100, 500


#: Where Debian's python3-* packages live; a venv with --system-site-packages sees them.
APT_SITE = Path("/usr/lib/python3/dist-packages")


@dataclass(frozen=True)
class Result:
    name: str
    status: str
    detail: str
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The name as a JSON key: ``model files`` -> ``model_files``."""
        return self.name.lower().replace(" ", "_")


#: A check returns its status and detail, and may add facts for scripts.
Check = Callable[[Config], tuple[str, str] | tuple[str, str, dict[str, Any]]]


def check_config(config: Config) -> tuple[str, str]:
    if config.path is None:
        return WARN, "no configuration file: defaults in use (write one with `kiosk config init`)"
    return OK, str(config.path)


def check_state_dir(config: Config) -> tuple[str, str]:
    from kiosk.devices.state import atomic_write, state_dir

    path = state_dir()
    probe = path / ".doctor-probe"
    atomic_write(probe, b"ok")
    probe.unlink()
    return OK, f"{path} is writable"


def check_disk(config: Config) -> tuple[str, str]:
    from kiosk.devices.state import state_dir

    free_mb = shutil.disk_usage(state_dir()).free // 2**20
    if free_mb < MIN_FREE_MB:
        return FAIL, f"only {free_mb} MB free: the stamp queue needs room"
    return (WARN if free_mb < LOW_FREE_MB else OK), f"{free_mb} MB free"


def check_models(config: Config) -> tuple[str, str, dict[str, Any]]:
    from kiosk.vision.identify import INDEX_MODEL, default_models_dir, model_files
    from kiosk.vision.outline import MODEL_FILE as OUTLINE_MODEL
    from kiosk.vision.pips import MODEL_FILE as PIP_MODEL
    from kiosk.vision.runtime import interpreter_class

    directory = default_models_dir()
    facts: dict[str, Any] = {
        "dir": str(directory),
        "found": sorted(p.name for p in directory.glob("*.tflite")) if directory.is_dir() else [],
    }
    missing = [f for f in (f"{INDEX_MODEL}.tflite", f"{INDEX_MODEL}.labels.txt") if not (directory / f).is_file()]
    if missing:
        return FAIL, f"{directory}: missing {', '.join(missing)} (see models/MODEL.md)", facts
    runtime = interpreter_class()
    facts["runtime"] = runtime.__module__
    if not (directory / OUTLINE_MODEL).is_file():
        return (
            WARN,
            (
                f"{directory}: no {OUTLINE_MODEL}: cards are found by the hand-set cues alone, "
                "which miss many on white or striped tables (see models/MODEL.md)"
            ),
            facts,
        )
    if not (directory / PIP_MODEL).is_file():
        return (
            WARN,
            (
                f"{directory}: no {PIP_MODEL}: a number card's suit is read from its small corner "
                "index alone, and clubs and spades are then confused more often (see models/MODEL.md)"
            ),
            facts,
        )
    index = ", ".join(p.name for p in model_files(directory, INDEX_MODEL))
    return OK, f"{directory}: {index}, {OUTLINE_MODEL}, {PIP_MODEL}, runtime {runtime.__module__}", facts


def check_camera(config: Config) -> tuple[str, str, dict[str, Any]]:
    import cv2

    from kiosk.vision.identify import SMALL_CARD_PX
    from kiosk.vision.sources import FALLBACKS, SourceError, check_spec, is_camera_spec, make_source

    # the report says why a camera fails: OpenCV's own warning is silenced where the bindings
    # allow it (4.11, the Pi's pin, has no cv2.utils.logging)
    opencv_log = getattr(cv2.utils, "logging", None)
    if opencv_log is not None:
        opencv_log.setLogLevel(opencv_log.LOG_LEVEL_ERROR)

    spec = config.camera.source
    check_spec(spec)
    facts: dict[str, Any] = {"spec": spec}
    if not is_camera_spec(spec):
        return WARN, f"camera source is {spec!r}: a demo, not a camera (no stamp is printed for it)", facts
    c = config.camera
    tried = []
    for candidate in FALLBACKS.get(spec, (spec,)):
        source = make_source(candidate, (c.width, c.height), fps=c.fps, focus_m=c.focus_m, mains_hz=c.mains_hz)
        try:
            source.open()
        except SourceError as exc:
            tried.append(str(exc))
            continue
        try:
            frame = first_frame(source, 3.0)
        finally:
            source.close()
        facts["source"] = source.name
        if frame is None:
            return FAIL, f"{source.name} opened but gave no frame in 3 s", facts
        got, asked = (frame.shape[1], frame.shape[0]), (config.camera.width, config.camera.height)
        facts["frame"] = list(got)
        if got[0] < asked[0]:  # a webcam that cannot give the size asked for gives its own, silently
            return (
                WARN,
                (
                    f"{source.name}: {got[0]}x{got[1]} frames, not the {asked[0]}x{asked[1]} asked for: "
                    f"the cards are smaller in the picture, and under {SMALL_CARD_PX:.0f} px wide "
                    "their suits are misread (hardware/CAMERA.md)"
                ),
                facts,
            )
        return OK, f"{source.name}: {got[0]}x{got[1]} frames", facts
    return FAIL, "no camera: " + "; ".join(tried), facts


def check_calibration(config: Config) -> tuple[str, str, dict[str, Any]]:
    from kiosk.devices.state import state_dir
    from kiosk.runtime import CALIBRATION_FILE
    from kiosk.vision.calibration import MAX_SLANT, Calibration

    path = state_dir() / CALIBRATION_FILE
    saved = Calibration.load(path)  # a damaged file is set aside (and logged), as the kiosk does at its start
    if saved is None:
        return WARN, f"no calibration in {path}: lay the mat under the camera, markers up: the kiosk calibrates", {}
    w, h, slant = *saved.frame_size, saved.slant()
    facts = {"path": str(path), "method": saved.method, "frame": [w, h], "slant_degrees": round(slant, 1)}
    said = f"calibrated ({saved.method}) on {w}x{h} frames; the camera looks {slant:.0f} degrees off straight down"
    if (w, h) != (config.camera.width, config.camera.height):
        return WARN, f"{said}, but the camera is set to {config.camera.width}x{config.camera.height}", facts
    if slant > MAX_SLANT:
        return WARN, f"{said}: beyond {MAX_SLANT:.0f} cards are missed (hardware/CAMERA.md)", facts
    return OK, said, facts


def check_printer(config: Config) -> tuple[str, str, dict[str, Any]]:
    from escpos.exceptions import Error as EscposError

    from kiosk.devices.gpio import board_model, header_uart
    from kiosk.devices.printer import PrinterState, can_answer, check_settings, describe, open_printer, read_status

    settings = config.printer
    facts: dict[str, Any] = {"backend": settings.backend}
    if settings.backend == "none":
        return WARN, 'no printer configured (backend = "none"): stamps are shown, not printed', facts
    check_settings(settings)
    where = describe(settings)
    if settings.backend == "serial":
        board, uart = board_model(), header_uart()
        facts.update(port=settings.serial_port, board=board, header_uart=uart)
        if board and settings.serial_port == "/dev/serial0" and uart != "/dev/serial0":
            return (
                FAIL,
                (
                    f"{where}: on a {board} /dev/serial0 is the debug header's UART; header pins 8 and 10 "
                    f'are {uart} (dtparam=uart0=on): set [printer] serial_port = "{uart}" '
                    "(hardware/install.sh sets both)"
                ),
                facts,
            )
    try:
        printer = open_printer(settings)
    except (OSError, EscposError) as exc:  # not found, no permission, USB errors
        return FAIL, f"{settings.backend} printer {where}: {' '.join(str(exc).split())}", facts
    asked = settings.answers_status and can_answer(printer)
    try:
        state = read_status(printer) if asked else PrinterState.READY
    finally:
        printer.close()
    facts["answers_status"] = (state is not None) if asked else None
    if state is None:
        return (
            WARN,
            (
                f"{where}: no answer to the status query (DLE EOT): the kiosk prints without asking, so paper "
                "out and offline go unseen; check the printer's power and its TX wire (hardware/WIRING.md), "
                "or set answers_status = false"
            ),
            facts,
        )
    if state is PrinterState.OFFLINE:
        return FAIL, f"{where}: the printer says it is off line (cover open, or an error)", facts
    if state is PrinterState.PAPER_OUT:
        return FAIL, f"{where}: out of paper", facts
    if state is PrinterState.PAPER_LOW:
        return WARN, f"{where}: paper nearly out", facts
    if settings.backend == "dummy":
        return WARN, where, facts
    return OK, f"{where}: ready" + ("" if asked else " (status not queried)"), facts


def check_gpio(config: Config) -> tuple[str, str]:
    from gpiozero.pins.mock import MockFactory

    from kiosk.devices.gpio import board_model, is_raspberry_pi, pin_factory

    factory = pin_factory()
    if isinstance(factory, MockFactory):
        if is_raspberry_pi():
            return FAIL, f"{board_model()} with simulated pins (GPIOZERO_PIN_FACTORY=mock?)"
        return WARN, "not a Raspberry Pi: LEDs and buttons are simulated (MockFactory)"
    return OK, f"{board_model()}: {type(factory).__name__}"


def check_display(config: Config) -> tuple[str, str]:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    try:
        pygame.display.init()
        driver = pygame.display.get_driver()
        modes = pygame.display.list_modes()
    except pygame.error as exc:
        wanted = os.environ.get("SDL_VIDEODRIVER", "auto")
        return FAIL, f"SDL cannot open a display (SDL_VIDEODRIVER={wanted}): {exc}"
    finally:
        pygame.display.quit()
    if driver in ("dummy", "offscreen"):
        return WARN, f"SDL driver {driver}: nothing is shown"
    size = f", {modes[0][0]}x{modes[0][1]}" if modes and modes != -1 else ""
    return OK, f"SDL driver {driver}{size}"


def check_state_medium(config: Config) -> tuple[str, str, dict[str, Any]]:
    from kiosk.devices.state import state_dir
    from kiosk.mounts import in_memory, mount_of, mount_table

    path = str(state_dir().resolve())
    table = mount_table()
    mount = mount_of(path, table)
    if mount is None:
        return WARN, f"{path}: its file system is unknown (no /proc/self/mountinfo)", {"path": path}
    facts = {"path": path, "mount": mount.point, "fstype": mount.fstype, "in_memory": in_memory(path, table)}
    lost = "so queued stamps, the counters and the calibration are lost at every power-off"
    if facts["in_memory"]:
        return (
            WARN,
            (
                f"{path} is on {mount.fstype} at {mount.point}, kept in memory (the overlay file system?), "
                f"{lost}: give it its own partition (hardware/POWER.md)"
            ),
            facts,
        )
    if facts["in_memory"] is None:
        return (
            WARN,
            (
                f"{path} is on an overlay at {mount.point} that may keep its changes in memory, {lost}: "
                "give it its own partition (hardware/POWER.md)"
            ),
            facts,
        )
    return OK, f"{path} on {mount.fstype} ({mount.point})", facts


def check_sdl_video(config: Config) -> tuple[str, str, dict[str, Any]]:
    from kiosk.display import driver_for, sdl_video_drivers

    wanted = [d.strip().lower() for d in driver_for(os.environ).split(",") if d.strip()]
    found = sdl_video_drivers()
    if found is None:
        return (
            WARN,
            "cannot tell which video drivers SDL has (its library is not in /proc/self/maps)",
            {"wanted": wanted},
        )
    library, drivers = found
    facts = {"library": library, "drivers": drivers, "wanted": wanted}
    have = ", ".join(drivers)
    if not any(d in drivers for d in wanted):
        return (
            FAIL,
            (
                f"SDL_VIDEODRIVER={','.join(wanted)}, but the SDL under pygame ({library}) has only {have}: "
                "PyPI's pygame bundles an SDL without kmsdrm; use Debian's (apt install python3-pygame, "
                "a venv with --system-site-packages: hardware/install.sh)"
            ),
            facts,
        )
    return OK, f"SDL_VIDEODRIVER={','.join(wanted)}; video drivers: {have} ({library})", facts


def check_numpy(config: Config) -> tuple[str, str, dict[str, Any]]:
    import numpy

    where = Path(numpy.__file__).resolve().parent
    origin = "apt" if where.is_relative_to(APT_SITE) else "pip"
    apt = sorted(APT_SITE.glob("numpy-*.*-info"))
    apt_version = apt[-1].name.split("-")[1].removesuffix(".egg").removesuffix(".dist") if apt else None
    facts = {"version": numpy.__version__, "path": str(where), "origin": origin, "apt_version": apt_version}
    if origin == "pip" and apt_version is not None and str(APT_SITE) in sys.path:
        status = FAIL if apt_version.split(".")[0] != numpy.__version__.split(".")[0] else WARN
        return (
            status,
            (
                f"numpy {numpy.__version__} from pip ({where}) hides apt's numpy {apt_version}, which apt's "
                "picamera2 and simplejpeg are built against: reinstall with hardware/install.sh (its "
                "constraints keep apt's numpy)"
            ),
            facts,
        )
    return OK, f"numpy {numpy.__version__} from {origin} ({where})", facts


def check_clock(config: Config) -> tuple[str, str, dict[str, Any]]:
    from kiosk.clock import clock_trust

    trust = clock_trust()
    facts = {"trusted": trust.trusted, "now": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
    if not trust.trusted:
        return (
            WARN,
            (
                f"{trust.why}: stamps print no date until the clock can be trusted (network time, or the "
                "real-time clock's battery or an RTC HAT: hardware/BOM.md)"
            ),
            facts,
        )
    return OK, f"{facts['now']}, {trust.why}", facts


def check_operator_pin(config: Config) -> tuple[str, str, dict[str, Any]]:
    from kiosk.config_edit import get_value
    from kiosk.devices.gpio import is_raspberry_pi

    default = get_value(config, "kiosk.admin_pin", default=True)
    facts = {"changed": config.kiosk.admin_pin != default}
    if not facts["changed"]:
        return (
            (FAIL if is_raspberry_pi() else WARN),
            (
                f"the operator PIN is still the documented default {default}: anyone who reads the manual opens the "
                "operator menu (hardware/install.sh sets a new one; or `kiosk config set kiosk.admin_pin NNNNNN`)"
            ),
            facts,
        )
    return OK, "changed from the default", facts


#: name -> check, in the order of the report (the configuration is checked first, by loading it).
def first_frame(source: Any, seconds: float) -> Any:
    """The first good frame (:func:`~kiosk.vision.sources.base.checked_frame`) ``source`` gives
    within ``seconds``, or None. It is read in a helper thread: a camera whose ``read()`` hangs
    is reported as giving no frame, and the doctor goes on."""
    from kiosk.vision.sources.base import checked_frame

    found: list[Any] = []
    deadline = time.monotonic() + seconds

    def read() -> None:
        while not found and time.monotonic() < deadline:
            frame = checked_frame(source.read())
            if frame is not None:
                found.append(frame)

    threading.Thread(target=read, name="doctor-camera", daemon=True).start()
    while not found and time.monotonic() < deadline:
        time.sleep(0.02)
    return found[0] if found else None


def check_queue(config: Config) -> tuple[str, str]:
    """The stamp queue's file passes SQLite's integrity check (read only: the kiosk may run);
    parked stamps are a warning, since they print only when a technician reprints them."""
    import sqlite3

    from kiosk.devices.service import QUEUE_FILE
    from kiosk.devices.state import state_dir

    path = state_dir() / QUEUE_FILE
    if not path.exists():
        return OK, f"{path}: no queue yet (the kiosk starts one)"
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            (check,) = db.execute("PRAGMA quick_check").fetchone()
            if check == "ok":
                columns = {row[1] for row in db.execute("PRAGMA table_info(jobs)")}
                parked_sql = "parked IS NOT NULL" if "parked" in columns else "0"
                waiting, parked = db.execute(
                    f"SELECT COUNT(*) - COALESCE(SUM({parked_sql}), 0), "
                    f"COALESCE(SUM({parked_sql}), 0) FROM jobs WHERE done IS NULL"
                ).fetchone()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        if not getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
            return FAIL, f"{path} cannot be read: {exc}"
        check = str(exc)
    if check != "ok":
        return FAIL, (
            f"{path} is damaged ({check}): the kiosk sets it aside at its next start and "
            "keeps the stamps it can still read"
        )
    if parked:
        return WARN, f"{path}: {parked} parked stamp(s) that failed to print (`kiosk queue list`), {waiting} waiting"
    return OK, f"{path}: intact, {waiting} stamp(s) waiting"


CHECKS: dict[str, Check] = {
    "state directory": check_state_dir,
    "stamp queue": check_queue,
    "state medium": check_state_medium,
    "free disk": check_disk,
    "model files": check_models,
    "camera": check_camera,
    "calibration": check_calibration,
    "printer": check_printer,
    "GPIO": check_gpio,
    "SDL video": check_sdl_video,
    "display": check_display,
    "numpy": check_numpy,
    "clock": check_clock,
    "operator PIN": check_operator_pin,
}


def run_checks(checks: dict[str, Check] | None = None) -> list[Result]:
    """Load the configuration, then run every check; with a broken configuration file that
    check fails and the others run on the defaults."""
    try:
        config = load_config()
        results = [Result("config", *check_config(config))]
    except KioskError as exc:
        config = Config({name: cls() for name, cls in section_classes().items()}, None)
        results = [Result("config", FAIL, str(exc))]
    for name, check in (CHECKS if checks is None else checks).items():
        try:
            results.append(Result(name, *check(config)))
        except Exception as exc:  # a doctor reports, it does not crash
            results.append(Result(name, FAIL, f"{type(exc).__name__}: {exc}"))
    return results


def as_json(results: list[Result]) -> dict[str, Any]:
    """``{"ok": nothing failed, "checks": [{"key", "name", "status", "detail", "facts"}, ...]}``."""
    return {
        "ok": all(r.status != FAIL for r in results),
        "checks": [
            {"key": r.key, "name": r.name, "status": r.status, "detail": r.detail, "facts": r.facts} for r in results
        ],
    }


def report(results: list[Result]) -> str:
    """One aligned line per check, then the verdict."""
    width = max(len(r.name) for r in results)
    lines = [f"[{r.status.upper():>4}] {r.name:<{width}}  {r.detail}" for r in results]
    failed = [r.name for r in results if r.status == FAIL]
    lines.append(f"broken: {', '.join(failed)}" if failed else "everything needed works")
    return "\n".join(lines)
