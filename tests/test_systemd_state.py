"""The state directory (systemd's StateDirectory, an override, or the XDG default) and atomic
writes that leave the old file whole when anything goes wrong."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kiosk.devices import state
from kiosk.errors import KioskError


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("KIOSK_STATE_DIR", raising=False)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def test_default_is_the_xdg_state_home(tmp_path: Path) -> None:
    assert state.state_dir() == tmp_path / "home" / ".local" / "state" / "kiosk"
    assert state.state_dir().is_dir()


def test_systemd_state_directory_is_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path / 'var-lib-kiosk'}:{tmp_path / 'other'}")
    assert state.state_dir() == tmp_path / "var-lib-kiosk"


def test_the_override_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "systemd"))
    monkeypatch.setenv("KIOSK_STATE_DIR", str(tmp_path / "mine"))
    assert state.state_dir() == tmp_path / "mine"


def test_an_unusable_directory_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("KIOSK_STATE_DIR", str(tmp_path / "file" / "sub"))
    with pytest.raises(KioskError, match="cannot be created"):
        state.state_dir()


def test_atomic_write_replaces_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "counters.json"
    state.atomic_write(target, b"old")
    state.atomic_write(target, b"new")
    assert target.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["counters.json"]


def test_a_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "counters.json"
    state.atomic_write(target, b"old")

    def power_cut(src: str, dst: str) -> None:
        raise OSError("power cut")

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(OSError):
        state.atomic_write(target, b"new")
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["counters.json"]
