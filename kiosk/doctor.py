"""``kiosk doctor``: is this box able to run the kiosk? One line per part, a clear verdict.

Each check returns ``ok``, ``warn`` (works, but a technician should know) or ``fail`` (the
kiosk cannot do its job); a check that crashes is a ``fail`` with the error, never a
traceback. The exit code is non-zero when anything failed, so install.sh and a technician's
script can rely on it.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass

from kiosk.config import Config, load_config, section_classes
from kiosk.errors import KioskError

OK, WARN, FAIL = "ok", "warn", "fail"
MIN_FREE_MB, LOW_FREE_MB = 100, 500


@dataclass(frozen=True)
class Result:
    name: str
    status: str
    detail: str


Check = Callable[[Config], tuple[str, str]]


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


def check_models(config: Config) -> tuple[str, str]:
    from kiosk.vision.identify import INDEX_MODEL, default_models_dir, model_files
    from kiosk.vision.outline import MODEL_FILE as OUTLINE_MODEL
    from kiosk.vision.pips import MODEL_FILE as PIP_MODEL
    from kiosk.vision.runtime import interpreter_class

    directory = default_models_dir()
    missing = [f for f in (f"{INDEX_MODEL}.tflite", f"{INDEX_MODEL}.labels.txt") if not (directory / f).is_file()]
    if missing:
        return FAIL, f"{directory}: missing {', '.join(missing)} (see models/MODEL.md)"
    runtime = interpreter_class()
    if not (directory / OUTLINE_MODEL).is_file():
        return WARN, (
            f"{directory}: no {OUTLINE_MODEL}: cards are found by the hand-set cues alone, "
            "which miss many on white or striped tables (see models/MODEL.md)"
        )
    if not (directory / PIP_MODEL).is_file():
        return WARN, (
            f"{directory}: no {PIP_MODEL}: a number card's suit is read from its small corner "
            "index alone, and clubs and spades are then confused more often (see models/MODEL.md)"
        )
    index = ", ".join(p.name for p in model_files(directory, INDEX_MODEL))
    return OK, f"{directory}: {index}, {OUTLINE_MODEL}, {PIP_MODEL}, runtime {runtime.__module__}"


def check_camera(config: Config) -> tuple[str, str]:
    import cv2

    from kiosk.vision.identify import SMALL_CARD_PX
    from kiosk.vision.sources import SourceError, make_source

    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)  # the report says why

    spec = config.camera.source
    if spec == "virtual" or (
        spec not in ("auto", "picamera2") and os.path.exists(spec) and not spec.startswith("/dev/")
    ):
        return WARN, f"camera source is {spec!r}: a demo, not a camera"
    tried = []
    for candidate in ("picamera2", "0") if spec == "auto" else (spec,):
        source = make_source(candidate, (config.camera.width, config.camera.height))
        try:
            source.open()
        except SourceError as exc:
            tried.append(str(exc))
            continue
        try:
            frame = None
            deadline = time.monotonic() + 3.0
            while frame is None and time.monotonic() < deadline:
                frame = source.read()
        finally:
            source.close()
        if frame is None:
            return FAIL, f"{source.name} opened but gave no frame in 3 s"
        got, asked = (frame.shape[1], frame.shape[0]), (config.camera.width, config.camera.height)
        if got[0] < asked[0]:  # a webcam that cannot give the size asked for gives its own, silently
            return WARN, (
                f"{source.name}: {got[0]}x{got[1]} frames, not the {asked[0]}x{asked[1]} asked for: "
                f"the cards are smaller in the picture, and under {SMALL_CARD_PX:.0f} px wide "
                "their suits are misread (hardware/CAMERA.md)"
            )
        return OK, f"{source.name}: {got[0]}x{got[1]} frames"
    return FAIL, "no camera: " + "; ".join(tried)


def check_printer(config: Config) -> tuple[str, str]:
    from escpos.exceptions import Error as EscposError

    from kiosk.devices.printer import PrinterState, check_settings, describe, open_printer, probe

    settings = config.printer
    if settings.backend == "none":
        return WARN, 'no printer configured (backend = "none"): stamps are shown, not printed'
    check_settings(settings)
    where = describe(settings)
    try:
        printer = open_printer(settings)
    except (OSError, EscposError) as exc:  # not found, no permission, USB errors
        return FAIL, f"{settings.backend} printer {where}: {' '.join(str(exc).split())}"
    try:
        state = probe(printer, settings)
    finally:
        printer.close()
    if state is PrinterState.OFFLINE:
        return FAIL, (
            f"{where}: no answer to the status query (check the printer's power and "
            "its TX wire, or set answers_status = false)"
        )
    if state is PrinterState.PAPER_OUT:
        return FAIL, f"{where}: out of paper"
    if state is PrinterState.PAPER_LOW:
        return WARN, f"{where}: paper nearly out"
    if settings.backend == "dummy":
        return WARN, where
    return OK, f"{where}: ready" + ("" if settings.answers_status else " (status not queried)")


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


#: name -> check, in the order of the report (the configuration is checked first, by loading it).
CHECKS: dict[str, Check] = {
    "state directory": check_state_dir,
    "free disk": check_disk,
    "model files": check_models,
    "camera": check_camera,
    "printer": check_printer,
    "GPIO": check_gpio,
    "display": check_display,
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
            status, detail = check(config)
        except Exception as exc:  # a doctor reports, it does not crash
            status, detail = FAIL, f"{type(exc).__name__}: {exc}"
        results.append(Result(name, status, detail))
    return results


def report(results: list[Result]) -> str:
    """One aligned line per check, then the verdict."""
    width = max(len(r.name) for r in results)
    lines = [f"[{r.status.upper():>4}] {r.name:<{width}}  {r.detail}" for r in results]
    failed = [r.name for r in results if r.status == FAIL]
    lines.append(f"broken: {', '.join(failed)}" if failed else "everything needed works")
    return "\n".join(lines)
