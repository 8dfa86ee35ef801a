"""The systemd unit for Raspberry Pi OS Bookworm and the install script: `systemd-analyze
verify` and shellcheck pass, and the unit says what the kiosk needs (notify + watchdog,
restart always, the kiosk user in the device groups, a state directory, devices reachable)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
UNIT = REPO / "systemd" / "kiosk.service"
DESKTOP = REPO / "systemd" / "kiosk-desktop.conf"
INSTALL = REPO / "hardware" / "install.sh"


def entries(path: Path) -> dict[str, list[str]]:
    """``Section.Key`` -> values, in order (systemd keys may repeat)."""
    out: dict[str, list[str]] = {}
    section = ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.setdefault(f"{section}.{key}", []).append(value)
    return out


def test_the_unit_notifies_and_is_watched_and_always_restarted() -> None:
    unit = entries(UNIT)
    assert unit["Service.Type"] == ["notify"] and unit["Service.NotifyAccess"] == ["main"]
    assert int(unit["Service.WatchdogSec"][0]) >= 10
    assert unit["Service.Restart"] == ["always"]
    assert unit["Unit.StartLimitIntervalSec"] == ["0"]
    assert unit["Service.ExecStart"] == ["/opt/kiosk/.venv/bin/kiosk run"]
    assert unit["Install.WantedBy"] == ["multi-user.target"]


def test_the_unit_runs_as_kiosk_with_device_groups_and_a_state_directory() -> None:
    unit = entries(UNIT)
    assert unit["Service.User"] == ["kiosk"]
    groups = set(unit["Service.SupplementaryGroups"][0].split())
    assert {"video", "render", "input", "gpio", "dialout"} <= groups
    assert unit["Service.StateDirectory"] == ["kiosk"]
    assert unit["Service.WorkingDirectory"] == ["%S/kiosk"]
    env = dict(v.split("=", 1) for v in unit["Service.Environment"])
    assert env["SDL_VIDEODRIVER"] == "kmsdrm" and env["GPIOZERO_PIN_FACTORY"] == "lgpio"


def test_hardening_leaves_the_devices_reachable() -> None:
    unit = entries(UNIT)
    assert unit["Service.ProtectSystem"] == ["strict"] and unit["Service.NoNewPrivileges"] == ["yes"]
    for breaking in (
        "PrivateDevices",
        "DevicePolicy",
        "DeviceAllow",
        "MemoryDenyWriteExecute",
        "PrivateNetwork",
        "PrivateUsers",
    ):
        assert f"Service.{breaking}" not in unit, breaking
    assert "AF_NETLINK" in unit["Service.RestrictAddressFamilies"][0]  # udev: cameras, input


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
@pytest.mark.parametrize("desktop", [False, True], ids=["kms", "desktop"])
def test_systemd_analyze_verify_passes_without_warnings(tmp_path: Path, desktop: bool) -> None:
    # verify checks that ExecStart exists: point /opt/kiosk at this checkout, as install.sh does.
    venv_kiosk = REPO / ".venv" / "bin" / "kiosk"
    if not venv_kiosk.exists():
        pytest.skip("no .venv/bin/kiosk to stand in for /opt/kiosk/.venv/bin/kiosk")
    (tmp_path / "kiosk.service").write_text(UNIT.read_text().replace("/opt/kiosk", str(REPO)))
    if desktop:
        (tmp_path / "kiosk.service.d").mkdir()
        (tmp_path / "kiosk.service.d" / "desktop.conf").write_text(
            DESKTOP.read_text().replace("@DESKTOP_USER@", "pi").replace("@DESKTOP_UID@", "1000")
        )
    proc = subprocess.run(
        ["systemd-analyze", "verify", "kiosk.service"],
        cwd=tmp_path,
        text=True,
        capture_output=True,
        timeout=60,
        env={**os.environ, "SYSTEMD_UNIT_PATH": f"{tmp_path}:"},
    )
    ours = [line for line in proc.stderr.splitlines() if "kiosk" in line]
    assert proc.returncode == 0 and not ours, proc.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed")
def test_install_script_passes_shellcheck() -> None:
    proc = subprocess.run(["shellcheck", str(INSTALL)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout


def test_install_script_installs_what_the_unit_expects() -> None:
    script = INSTALL.read_text()
    assert os.access(INSTALL, os.X_OK)
    assert subprocess.run(["bash", "-n", str(INSTALL)]).returncode == 0
    for needed in (
        "python3-picamera2",
        "python3-lgpio",
        "--system-site-packages",
        "enable_uart=1",
        "systemctl enable kiosk.service",
        "/etc/kiosk/kiosk.toml",
        "useradd --system",
    ):
        assert needed in script, needed
    # Safe to run twice: every change is guarded by a check of the current state.
    assert "if ! id kiosk" in script and '[ ! -x "$PREFIX/.venv/bin/python" ]' in script
    assert 'if [ ! -f "$CONFIG" ]' in script
