"""``kiosk doctor``: every check reported, a clear verdict, non-zero exit when something needed
is missing (as on this machine: no camera, no printer)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kiosk.cli import main
from kiosk.doctor import CHECKS, FAIL, OK, WARN, run_checks
from kiosk.runtime import CALIBRATION_FILE
from kiosk.vision.sources import OpenCVSource
from tests.slanted_camera import slanted


def by_name(results: list) -> dict[str, tuple[str, str]]:
    return {r.name: (r.status, r.detail) for r in results}


def test_no_camera_and_no_printer_fail_and_the_exit_code_says_so(
    kiosk_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kiosk_env.write_text(
        f'[camera]\nsource = "/dev/video-none"\n\n[printer]\nserial_port = "{kiosk_env.parent / "ttyNONE"}"\n'
    )
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    lines = {line.split("]", 1)[1].split()[0] for line in out.splitlines() if line.startswith("[")}
    assert {"config", "state", "free", "model", "camera", "printer", "GPIO", "display"} <= lines
    assert "[FAIL] camera" in out and "[FAIL] printer" in out and "ttyNONE" in out
    assert out.splitlines()[-1].startswith("broken: ") and "camera" in out.splitlines()[-1]


def test_a_file_printer_and_writable_state_pass(kiosk_env: Path) -> None:
    kiosk_env.write_text(f'[printer]\nbackend = "file"\nfile_path = "{kiosk_env.parent / "lp0"}"\n')
    results = by_name(run_checks({k: CHECKS[k] for k in ("state directory", "printer", "GPIO")}))
    assert results["config"] == (OK, str(kiosk_env))
    assert results["state directory"][0] == OK and (kiosk_env.parent / "state").is_dir()
    assert results["printer"][0] == OK
    assert results["GPIO"] == (
        WARN,
        "not a Raspberry Pi: LEDs and buttons are simulated (MockFactory)",
    )


def test_a_virtual_camera_is_only_a_warning_and_sdl_dummy_shows_nothing(kiosk_env: Path) -> None:
    kiosk_env.write_text('[camera]\nsource = "virtual"\n')
    results = by_name(run_checks({k: CHECKS[k] for k in ("camera", "display")}))
    assert results["camera"][0] == WARN and "demo" in results["camera"][1]
    assert results["display"] == (WARN, "SDL driver dummy: nothing is shown")


def test_a_broken_config_fails_and_the_other_checks_still_run(kiosk_env: Path) -> None:
    kiosk_env.write_text('[printer]\nbaudrate = "fast"\n')
    results = by_name(run_checks({"state directory": CHECKS["state directory"]}))
    assert results["config"][0] == FAIL and "printer.baudrate" in results["config"][1]
    assert results["state directory"][0] == OK


def test_a_crashing_check_is_reported_not_raised(kiosk_env: Path) -> None:
    def broken(config: object) -> tuple[str, str]:
        raise RuntimeError("sensor on fire")

    results = by_name(run_checks({"thermometer": broken}))
    assert results["thermometer"] == (FAIL, "RuntimeError: sensor on fire")


def test_json_output_lists_every_check(kiosk_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``kiosk doctor --json`` is what scripts (the rehearsal, a fleet check) read: one entry per
    check, keyed, each with its status, detail and facts."""
    import json

    kiosk_env.write_text('[camera]\nsource = "virtual"\n\n[printer]\nbackend = "none"\n')
    main(["doctor", "--json"])
    report = json.loads(capsys.readouterr().out)
    checks = {c["key"]: c for c in report["checks"]}
    assert [c["name"] for c in report["checks"]] == ["config", *CHECKS]
    assert {
        "camera",
        "model_files",
        "sdl_video",
        "numpy",
        "printer",
        "gpio",
        "clock",
        "state_medium",
        "operator_pin",
    } <= set(checks)
    assert all(
        c["status"] in (OK, WARN, FAIL) and c["detail"] and isinstance(c["facts"], dict) for c in checks.values()
    )
    assert report["ok"] is all(c["status"] != FAIL for c in checks.values())
    assert checks["model_files"]["status"] == OK and "index.tflite" in checks["model_files"]["facts"]["found"]
    assert checks["numpy"]["facts"]["origin"] in ("apt", "pip")
    assert "dummy" in checks["sdl_video"]["facts"]["drivers"]


@pytest.mark.parametrize(
    ("online", "paper", "status", "says"),
    [
        (b"\x12", b"\x72", FAIL, "out of paper"),
        (b"", b"", WARN, "TX wire (hardware/WIRING.md), or set answers_status = false"),
        (b"\x12", b"\x1e", WARN, "paper nearly out"),
        (b"\x12", b"\x12", OK, "ready"),
    ],
)
def test_the_printer_line_says_what_the_printer_answers(
    kiosk_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    online: bytes,
    paper: bytes,
    status: str,
    says: str,
) -> None:
    from test_printer import Answering

    from kiosk.devices import printer

    monkeypatch.setattr(printer, "open_printer", lambda settings: Answering(online, paper))
    results = by_name(run_checks({"printer": CHECKS["printer"]}))
    assert results["printer"][0] == status and says in results["printer"][1]


def test_model_files_fail_without_the_index_model_and_warn_without_the_outline_or_pip_model(
    kiosk_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kiosk.vision.identify import default_models_dir

    shipped = default_models_dir()
    models = tmp_path / "models"
    models.mkdir()
    monkeypatch.setenv("KIOSK_MODELS_DIR", str(models))
    assert by_name(run_checks({"model files": CHECKS["model files"]}))["model files"][0] == FAIL
    for name in ("index.tflite", "index.labels.txt"):
        (models / name).write_bytes((shipped / name).read_bytes())
    status, detail = by_name(run_checks({"model files": CHECKS["model files"]}))["model files"]
    assert status == WARN and "outline.tflite" in detail
    (models / "outline.tflite").write_bytes((shipped / "outline.tflite").read_bytes())
    status, detail = by_name(run_checks({"model files": CHECKS["model files"]}))["model files"]
    assert status == WARN and "pips.tflite" in detail
    (models / "pips.tflite").write_bytes((shipped / "pips.tflite").read_bytes())
    status, detail = by_name(run_checks({"model files": CHECKS["model files"]}))["model files"]
    assert status == OK and "pips.tflite" in detail


class _Webcam(OpenCVSource):
    """A webcam that gives its own frame size whatever it is asked for (at the hardware edge:
    this machine has no camera)."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(0)
        self.size = size

    def open(self) -> None:
        pass

    def read(self) -> np.ndarray | None:
        return np.zeros((self.size[1], self.size[0], 3), np.uint8)

    def close(self) -> None:
        pass


@pytest.mark.parametrize(("gives", "status"), [((640, 480), WARN), ((1280, 720), OK), ((1920, 1080), OK)])
def test_a_webcam_giving_smaller_frames_than_asked_for_is_a_warning(
    kiosk_env: Path, monkeypatch: pytest.MonkeyPatch, gives: tuple[int, int], status: str
) -> None:
    """A webcam that cannot give 1280x720 silently gives 640x480, where the cards are half as
    wide and under SMALL_CARD_PX their suits are misread: the technician is told."""
    kiosk_env.write_text('[camera]\nsource = "0"\n')
    monkeypatch.setattr("kiosk.vision.sources.make_source", lambda spec, size=(1280, 720), **options: _Webcam(gives))
    result = by_name(run_checks({"camera": CHECKS["camera"]}))["camera"]
    assert result[0] == status and f"{gives[0]}x{gives[1]}" in result[1]
    if status == WARN:
        assert "1280x720 asked for" in result[1] and "CAMERA.md" in result[1]


def _calibrated(state: Path, far_edge: float, size: tuple[int, int] = (1280, 720)) -> None:
    state.mkdir(parents=True, exist_ok=True)
    slanted(far_edge, size).save(state / CALIBRATION_FILE)


def test_the_calibration_line_says_how_far_the_camera_looks_off_straight_down(kiosk_env: Path) -> None:
    """No calibration yet is a warning that says how to get one; a camera looking straight down
    or about 26 degrees off is fine and says so; one at 39 degrees, past the 35 the kiosk was
    measured at, or calibrated at another frame size than the camera is set to, is a warning."""
    check = {"calibration": CHECKS["calibration"]}
    state = kiosk_env.parent / "state"
    status, detail = by_name(run_checks(check))["calibration"]
    assert status == WARN and "no calibration" in detail and "markers" in detail
    slants = {}
    for far_edge in (1.0, 0.8, 0.5):
        _calibrated(state, far_edge)
        (result,) = [r for r in run_checks(check) if r.name == "calibration"]
        slants[far_edge] = (result.status, result.facts["slant_degrees"])
    assert slants[1.0] == (OK, 0.0)
    assert slants[0.8][0] == OK and 24 < slants[0.8][1] < 28
    assert slants[0.5][0] == WARN and 37 < slants[0.5][1] < 41
    _calibrated(state, 1.0, (1920, 1080))
    status, detail = by_name(run_checks(check))["calibration"]
    assert status == WARN and "1920x1080" in detail and "1280x720" in detail
