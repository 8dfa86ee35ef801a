"""hardware/rehearse.sh, the Pi install rehearsed on an emulated arm64 root: the script parses and
passes shellcheck, and the checks it runs inside the root (hardware/rehearse_checks.py) tell a
good install from a broken one. The rehearsal itself takes minutes and root: it is run by hand."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from kiosk.devices.queue import JobQueue

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "hardware" / "rehearse.sh"


def _load_checks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rehearse_checks", REPO / "hardware" / "rehearse_checks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


checks = _load_checks()


def test_the_script_is_executable_and_parses() -> None:
    assert os.access(SCRIPT, os.X_OK)
    proc = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed")
def test_the_script_passes_shellcheck() -> None:
    proc = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout


def test_the_script_ends_with_the_summary_line_and_runs_every_rehearsed_step() -> None:
    script = SCRIPT.read_text()
    assert "printf 'rehearsal: %d passed, %d failed\\n'" in script
    for needed in (
        "debootstrap --arch=arm64",
        "hardware/install.sh",
        "doctor --json",
        "recognize",
        "demo --seconds 60",
        "run --headless",
        "--seconds 20",
        "python3-picamera2",
        "raspi-config",
        "systemctl",
    ):
        assert needed in script, needed


DOCTOR = [
    {"name": "model files", "status": "ok", "detail": "/opt/kiosk/.venv/lib/python3.11/site-packages/kiosk/models"},
    {
        "name": "SDL video",
        "status": "fail",
        "detail": "SDL video drivers: x11, wayland, kmsdrm, offscreen; kmsdrm: no display device",
    },
    {"name": "numpy", "status": "ok", "detail": "numpy 1.24.2 from apt (/usr/lib/python3/dist-packages/numpy)"},
]


@pytest.mark.parametrize("report", [DOCTOR, {"checks": DOCTOR}])
def test_a_good_doctor_report_passes_each_item(report: object) -> None:
    for item in ("models", "sdl", "numpy", None):
        ok, seen = checks.check_doctor(report, item)
        assert ok, (item, seen)


@pytest.mark.parametrize(
    ("item", "entry"),
    [
        ("models", {"name": "model files", "status": "fail", "detail": "model file not found"}),
        ("sdl", {"name": "display", "status": "ok", "detail": "SDL video drivers: x11, wayland, offscreen, dummy"}),
        ("sdl", {"name": "display", "status": "warn", "detail": "SDL driver offscreen: nothing is shown"}),
        ("numpy", {"name": "numpy", "status": "ok", "detail": "numpy 2.2.1 from /opt/kiosk/.venv/lib/python3.11"}),
        ("numpy", {"name": "numpy origin", "status": "fail", "detail": "numpy 2.2.1 shadows apt's"}),
        ("numpy", {"name": "numpy", "status": "ok", "detail": "numpy 1.26 (apt has 1.24)", "facts": {"origin": "pip"}}),
        (
            "sdl",
            {
                "name": "SDL video",
                "status": "ok",
                "detail": "video drivers: kmsdrm",
                "facts": {"drivers": ["x11", "offscreen"]},
            },
        ),
    ],
)
def test_a_doctor_report_that_shows_the_fault_fails(item: str, entry: dict[str, str]) -> None:
    report = [entry if i == ("models", "sdl", "numpy").index(item) else e for i, e in enumerate(DOCTOR)]
    ok, _ = checks.check_doctor(report, item)
    assert not ok


def test_the_doctors_facts_are_read_in_any_case() -> None:
    entry = {"name": "SDL video", "status": "ok", "detail": "", "facts": {"drivers": ["x11", "KMSDRM"]}}
    assert checks.check_doctor([entry], "sdl")[0]


def test_a_doctor_report_without_the_item_fails_and_names_what_it_has() -> None:
    ok, seen = checks.check_doctor(DOCTOR[:1], "numpy")
    assert not ok and "model files" in seen


def test_a_malformed_doctor_report_is_an_error() -> None:
    with pytest.raises(ValueError, match="doctor --json"):
        checks.check_doctor({"camera": "ok"}, "models")


def test_recognize_holds_only_when_every_card_and_nothing_else_is_named() -> None:
    truth = {"cards": [{"id": "AC"}, {"id": "8H"}, {"id": "3C"}]}
    assert checks.recognized_all(truth, {"cards": [{"id": "3C"}, {"id": "AC"}, {"id": "8H"}]})[0]
    assert not checks.recognized_all(truth, {"cards": [{"id": "3C"}, {"id": "AC"}]})[0]
    assert not checks.recognized_all(truth, {"cards": [{"id": "3C"}, {"id": "AC"}, {"id": "8H"}, {"id": "8H"}]})[0]


def test_demo_holds_with_a_card_confirmed_and_nothing_wrong() -> None:
    good = {
        "frames": 900,
        "vision_frames": 40,
        "errors": 0,
        "cards_shown": 3,
        "cards_confirmed": 2,
        "false_confirmations": 0,
        "stamps_requested": 2,
        "stamps_printed": 2,
        "stamps_lost": 0,
    }
    assert checks.demo_held(good)[0]
    for bad in (
        {"errors": 1},
        {"false_confirmations": 1},
        {"stamps_lost": 1},
        {"cards_confirmed": 0},
        {"vision_frames": 0},
    ):
        assert not checks.demo_held({**good, **bad})[0], bad
    assert checks.demo_held({**good, "cards_confirmed": 0}, min_confirmed=0)[0]  # emulated: too slow to confirm
    assert not checks.demo_held({**good, "cards_confirmed": 0, "errors": 2}, min_confirmed=0)[0]


def test_queued_stamps_reads_the_kiosks_own_queue(tmp_path: Path) -> None:
    db = tmp_path / "stamps.sqlite3"
    assert checks.queued_stamps(db) == 0  # no queue yet
    with JobQueue(db):
        pass
    assert checks.queued_stamps(db) == 0
    with JobQueue(db) as queue:
        queue.submit("3H", b"png")
        queue.submit("4C", b"png")
    assert checks.queued_stamps(db) == 2


def _service(tmp_path: Path, code: str, start_limit: float = 30.0) -> tuple[bool, str]:
    return checks.run_as_service(
        [sys.executable, "-c", code], 0.3, start_limit, tmp_path / "log", notify=tmp_path / "notify"
    )  # type: ignore[no-any-return]


NOTIFY_READY = (
    "import os, socket, time\n"
    "s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
    "s.sendto(b'READY=1', os.environ['NOTIFY_SOCKET'])\n"
)


def test_a_service_that_gets_ready_and_keeps_running_holds(tmp_path: Path) -> None:
    ok, seen = _service(tmp_path, NOTIFY_READY + "time.sleep(60)\n")
    assert ok and "READY=1 after" in seen and "still running" in seen


def test_a_service_that_exits_after_ready_fails(tmp_path: Path) -> None:
    ok, seen = _service(tmp_path, NOTIFY_READY + "raise SystemExit(3)\n")
    assert not ok and "status 3" in seen


def test_a_service_that_never_gets_ready_fails(tmp_path: Path) -> None:
    ok, seen = _service(tmp_path, "import time; time.sleep(60)", start_limit=0.5)
    assert not ok and "no READY=1" in seen


def test_the_checks_command_line_reports_and_exits_by_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "doctor.json"
    report.write_text(json.dumps(DOCTOR))
    assert checks.main(["doctor", str(report), "numpy"]) == 0
    assert "apt" in capsys.readouterr().out
    report.write_text("not json")
    assert checks.main(["doctor", str(report), "numpy"]) == 1
    assert "JSONDecodeError" in capsys.readouterr().out
