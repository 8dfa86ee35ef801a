"""``kiosk printer status|test`` against a File printer."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.cli import main


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KIOSK_STATE_DIR", str(tmp_path / "state"))
    path = tmp_path / "kiosk.toml"
    monkeypatch.setenv("KIOSK_CONFIG", str(path))
    path.write_text(f'[printer]\nbackend = "file"\nfile_path = "{tmp_path / "lp0"}"\n')
    return path


def test_test_page_is_a_full_width_raster_job(config: Path) -> None:
    assert main(["printer", "test"]) == 0
    job = (config.parent / "lp0").read_bytes()
    assert job.startswith(b"\x1b@\x1dv0\x00" + (384 // 8).to_bytes(2, "little"))
    assert job.endswith(b"\x1bd\x04")


def test_status_shows_the_state_and_the_counters(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["printer", "status"]) == 0
    out = capsys.readouterr().out
    assert "lp0: ready" in out and "printed 0" in out and "waiting 0" in out


def test_no_printer_configured_is_an_error(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config.write_text('[printer]\nbackend = "none"\n')
    assert main(["printer", "test"]) == 1
    assert "no printer configured" in capsys.readouterr().err
