"""Shared fixtures: headless SDL, the bundled training fonts, the real photos beside the repository."""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from kiosk.decks import load_deck
from kiosk.render.compositing import composite_card, face_bgra
from kiosk.vision.params import PARAMS

FRAME_IN_CARD = PARAMS.looks.frame_in_card

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("KIOSK_TRAIN_FONTS", "bundled")  # the same training pictures whatever fonts are installed

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
REAL_CARDS = SHARED / "data" / "real-cards"
BENCH = REPO / "bench"


def shifted_along(quad: np.ndarray, share: float) -> np.ndarray:
    """A card's quad (TL, TR, BR, BL) moved along its long side by ``share`` of its short side:
    an outline found a row of pips or a strip of table off its card."""
    along = (quad[3] - quad[0]) / np.linalg.norm(quad[3] - quad[0])
    return quad + along * share * float(np.linalg.norm(quad[1] - quad[0]))


def picture_frame(card: np.ndarray) -> np.ndarray:
    """The picture frame of a court card whose corners are ``card`` (TL, TR, BR, BL): centred in
    it at ``PARAMS.looks.frame_in_card`` of its sides."""
    centre = card.mean(axis=0)
    across, along = ((card[k] - card[0]) / np.linalg.norm(card[k] - card[0]) for k in (1, 3))
    offsets = card - centre
    return (
        centre
        + (offsets @ across)[:, None] * across * FRAME_IN_CARD[0]
        + (offsets @ along)[:, None] * along * FRAME_IN_CARD[1]
    ).astype(np.float32)


def on_stripes(card_id: str, quad: np.ndarray) -> np.ndarray:
    """A pink and white striped cloth (stripes 40 px wide) of 640 x 360, BGR, with the
    standard deck's ``card_id`` at ``quad``: its sides vanish where they cross the white."""
    img = np.full((360, 640, 3), 250, np.uint8)
    for x in range(0, 640, 80):
        img[:, x : x + 40] = (170, 120, 235)
    composite_card(img, face_bgra(load_deck("standard-52")[card_id], None, 160), quad)
    return img


def bench_module(name: str) -> ModuleType:
    """A module of ``bench/`` (the same matching and error measures as the benchmarks), imported
    as running it does: with ``bench/`` on the path, for its shared ``_vision`` module."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def real_cards() -> Path:
    if not REAL_CARDS.is_dir():
        pytest.skip(f"real photos not found at {REAL_CARDS}")
    return REAL_CARDS


def run_until(app: Any, done: Callable[[], bool], timeout: float = 120.0) -> bool:
    """Step a headless app until ``done()``, for at most ``timeout`` seconds (generous: CI machines
    are shared; nothing here measures speed). False when the time ran out."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        app.step()
        if done():
            return True
        time.sleep(0.01)
    return False


@pytest.fixture
def kiosk_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A state directory and a (not yet written) configuration file of the test's own."""
    monkeypatch.setenv("KIOSK_STATE_DIR", str(tmp_path / "state"))
    config = tmp_path / "kiosk.toml"
    monkeypatch.setenv("KIOSK_CONFIG", str(config))
    return config


@pytest.fixture(autouse=True)
def _fresh_storage_faults() -> None:
    """Each test is a kiosk of its own: no storage fault an earlier test caused shows in it."""
    from kiosk.devices.state import FAULTS

    FAULTS.forget()


def demo_args(seconds: float, out: Path, state: Path) -> list[str]:
    """``kiosk``'s arguments for a headless demo of ``seconds`` writing to ``out`` on ``state``."""
    return ["demo", "--headless", "--seconds", str(seconds), "--out", str(out), "--state-dir", str(state)]


def headless_env(state: Path) -> dict[str, str]:
    """This process's environment for a kiosk child: no screen, simulated GPIO, its own state."""
    return {**os.environ, "SDL_VIDEODRIVER": "dummy", "GPIOZERO_PIN_FACTORY": "mock", "KIOSK_STATE_DIR": str(state)}


def quiet_kiosk(tmp: Path, config_text: str = "") -> Any:
    """A headless 800x480 kiosk in ``tmp`` with no camera (nothing on its table moves), no light or
    buttons, a printer behind python-escpos' Dummy, and ``config_text`` as its kiosk.toml. The
    caller closes it."""
    import dataclasses

    from kiosk.config import load_config
    from kiosk.runtime import build_services
    from kiosk.ui.app import App

    (tmp / "kiosk.toml").write_text(config_text, encoding="utf-8")
    config = load_config(tmp / "kiosk.toml").replace("display", fullscreen=False)
    config = config.replace("lights", kind="none").replace("buttons", pins=[])
    printer = dataclasses.replace(config.printer, backend="dummy", strip_pause_s=0.0)
    (tmp / "state").mkdir()
    services = build_services(config, state=tmp / "state", camera="/dev/video-absent", printer=printer, demo=True)
    return App(config, services, size=(800, 480), fullscreen=False)
