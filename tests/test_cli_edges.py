"""The command line's rough edges a new user met: every one ends in one line or a clean exit,
never a traceback, and nothing is written that is not what its name says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.cli import main

KIOSK = [sys.executable, "-m", "kiosk"]


def test_a_reader_that_stops_early_is_no_error():
    # `kiosk decks --json | head -c 1`: the pipe closes before the listing is written.
    with subprocess.Popen([*KIOSK, "decks", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.read(1) == b"["
        proc.stdout.close()
        err = proc.stderr.read().decode()
        code = proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err
    assert code == 0


@pytest.mark.parametrize("name", ["stamp.jpg", "stamp.jpeg", "stamp"])
def test_a_stamp_is_written_only_as_png(tmp_path: Path, capsys, name):
    assert main(["stamp", "3H", "-o", str(tmp_path / name)]) == 2
    assert "PNG" in capsys.readouterr().err
    assert not (tmp_path / name).exists()


@pytest.mark.parametrize("width", ["0", "-8", "100"])
def test_a_stamp_width_that_cannot_print_is_refused_not_replaced(tmp_path: Path, capsys, width):
    assert main(["stamp", "3H", "-o", str(tmp_path / "s.png"), "--width", width]) == 2
    assert f"--width {width}" in capsys.readouterr().err
    assert not (tmp_path / "s.png").exists()


def test_recognize_prints_no_runtime_banner(tmp_path: Path):
    scene = tmp_path / "scene.png"
    subprocess.run(
        [*KIOSK, "render", "scene", "--deck", "standard-52", "--cards", "2", "-o", str(scene)],
        check=True,
        capture_output=True,
    )
    done = subprocess.run(
        [*KIOSK, "recognize", "--deck", "standard-52", str(scene)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "2 cards" in done.stdout
    assert "INFO:" not in done.stderr and "XNNPACK" not in done.stderr


@pytest.mark.parametrize("option", ["--out", "--state-dir"])
def test_demo_folders_that_are_files_are_one_line(tmp_path: Path, option):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    args = [*KIOSK, "demo", "--headless", "--seconds", "1", "--out", str(tmp_path / "out"), option, str(blocker)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert f"{option} {blocker}: a file is in the way" in done.stderr
    assert done.stdout == ""  # no greeting from pygame either


def test_config_show_prints_toml_that_loads_back_the_same(tmp_path: Path, capsys):
    import tomllib

    from kiosk.config import load_config

    path = tmp_path / "kiosk.toml"
    path.write_text('[kiosk]\nname = "Café \\"Le Lion\\" \\\\ Brussel"\nlanguage = "nl"\n', encoding="utf-8")
    assert main(["config", "show", "--config", str(path)]) == 0
    shown = capsys.readouterr().out
    assert not shown.lstrip().startswith("{")  # not JSON
    again = tmp_path / "again.toml"
    again.write_text(shown, encoding="utf-8")
    assert tomllib.loads(shown)["kiosk"]["name"] == 'Café "Le Lion" \\ Brussel'
    assert load_config(again, required=True).as_dict() == load_config(path, required=True).as_dict()


def test_run_and_config_name_the_file_with_the_same_option():
    from kiosk.cli import build_parser

    parser = build_parser()
    for command in (["config", "check"], ["run"]):
        assert parser.parse_args([*command, "--config", "x.toml"]) is not None
