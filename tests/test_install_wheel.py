"""A normal (non-editable) install finds its models: hardware/install.sh installs the kiosk as a
wheel into /opt/kiosk/.venv, where a models folder beside the source tree does not exist (issue
52: `kiosk run` stopped with "model file not found" and the unit restarted for ever). The models
ship as package data; this builds the wheel from a copy of the tree, installs it into a fresh
venv and asks that venv's `kiosk doctor --json`, from a folder outside the checkout.

Offline: the wheel is built with this environment's setuptools (no build isolation), and the
fresh venv borrows this one's installed dependencies through a .pth line, not the index.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the kiosk's wheel; its python."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    shutil.copytree(REPO / "kiosk", source / "kiosk", ignore=shutil.ignore_patterns("__pycache__"))
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", str(root / "dist"), str(source)],
        check=True,
        cwd=root,
    )
    (wheel,) = (root / "dist").glob("kiosk-*.whl")
    target = root / "venv"
    venv.EnvBuilder(with_pip=False).create(target)
    python = target / "bin" / "python"
    subprocess.run(
        [*pip, "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(wheel)], check=True, cwd=root
    )
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    (site / "kiosk-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")  # numpy, cv2, pygame...
    return python


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIOSK_", "PYTHON"))}
    return {
        **env,
        "KIOSK_CONFIG": str(tmp / "absent.toml"),
        "KIOSK_STATE_DIR": str(tmp / "state"),
        "SDL_VIDEODRIVER": "dummy",
        "GPIOZERO_PIN_FACTORY": "mock",
    }


def test_the_installed_kiosk_is_the_wheels_not_the_checkout(installed: Path, tmp_path: Path) -> None:
    out = subprocess.run(
        [str(installed), "-c", "import kiosk; print(kiosk.__file__)"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path),
    ).stdout
    assert Path(out.strip()).is_relative_to(installed.parents[1]) and not Path(out.strip()).is_relative_to(REPO)


def test_doctor_of_a_wheel_install_finds_the_models(installed: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [str(installed.parent / "kiosk"), "doctor", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path),
        timeout=300,
    )
    models = next(c for c in json.loads(done.stdout)["checks"] if c["key"] == "model_files")
    assert models["status"] == "ok", models["detail"]
    assert Path(models["facts"]["dir"]).is_relative_to(installed.parents[1])
    assert {"index.tflite", "outline.tflite", "pips.tflite"} <= set(models["facts"]["found"])


def test_the_installed_models_load(installed: Path, tmp_path: Path) -> None:
    """What `kiosk run` does first: the identifier and the outline model load from the wheel."""
    code = (
        "from kiosk.vision.identify import Identifier; from kiosk.vision.detect import Detector, DetectorConfig; "
        "Identifier('affiche-belge'); Detector(DetectorConfig(outline_model=True)); print('loaded')"
    )
    out = subprocess.run(
        [str(installed), "-c", code],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path),
        timeout=300,
    ).stdout
    assert out.strip().endswith("loaded")
