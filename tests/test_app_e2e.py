"""End to end, headless (SDL's dummy driver): the whole app on the virtual table, the real vision
pipeline and model, python-escpos' Dummy printer behind the durable queue, gpiozero's MockFactory.

Seed 000_de7fdf0eefacbd60.txt: "passe une carte du jeu devant : le lieu s'affiche et son tampon
s'imprime dans ton passeport."
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from conftest import run_until

from kiosk.config import load_config
from kiosk.render.timeline import VirtualTable
from kiosk.runtime import CALIBRATION_FILE, build_services
from kiosk.ui.app import App
from kiosk.vision.calibration import Calibration, from_markers


def _app(
    tmp_path: Path, script: list[dict], mat: bool = False, deck: str = "affiche-belge", moved_px: float = 0.0
) -> App:
    """The kiosk on the virtual table; with ``mat``, calibrated on an earlier run, the camera
    since moved ``moved_px`` to the left (the mat that far to the right in the picture)."""
    config = load_config(tmp_path / "absent.toml")
    config = config.replace("display", fullscreen=False)
    printer = dataclasses.replace(config.printer, backend="dummy", strip_pause_s=0.0)
    state = tmp_path / "state"
    state.mkdir(parents=True)
    if mat:  # the kiosk found the mat's markers on an earlier run and saved the calibration
        frame, _ = VirtualTable(deck, seed=0, mat=True, script=script).frame(0)
        found = from_markers(frame)
        assert found is not None and found.markers_seen == 4
        shift = np.array([[1, 0, moved_px], [0, 1, 0], [0, 0, 1.0]])
        Calibration(found.homography @ shift, found.frame_size, found.method, 4).save(state / CALIBRATION_FILE)
    services = build_services(
        config,
        state=state,
        camera="virtual",
        printer=printer,
        source_options={"deck_id": deck, "script": script, "mat": mat},
        demo=True,
    )  # stamps for the rendered table, as in `kiosk demo`
    return App(config, services, size=(800, 480), fullscreen=False)


@pytest.fixture
def closing():
    apps: list[App] = []
    yield apps.append
    for app in apps:
        app.close()


def test_attract_then_passport_then_one_stamp_for_the_card_shown(tmp_path: Path, closing):
    script = [
        {"at": 12, "card": "3H", "mat_xy": (0.5, 0.5), "leave": 150, "angle": 20},
        {"at": 60, "hand": (0.5, 0.45), "leave": 80},
    ]  # a hand passes over the card
    app = _app(tmp_path, script)
    closing(app)
    assert app.screen.name == "attract"
    assert run_until(app, lambda: app.screen.name == "passport")
    assert app.screen.params["card_id"] == "3H" and app.screen.params["refused"] == ""
    assert app.screen.params["job"] is not None
    stamps = app.services.stamps
    assert run_until(app, lambda: stamps.pending() == 0 and stamps.counters()["printed"] == 1)
    # the card stays in view while the hand passes over it: still one stamp, one confirmation
    run_until(app, lambda: app.services.vision.source.index > 170, timeout=60)
    assert stamps.counters()["submitted"] == 1 and app.passport.requested == 1
    assert app.services.counters.summary()["places"] == {"3H": 1}


def test_a_kiosk_keeps_its_calibration_until_the_camera_moves(tmp_path: Path, closing):
    """A calibration that still holds is kept as loaded; one saved before the camera moved by 2 %
    of the picture is replaced, on disk too, from the mat's markers where they now show."""
    still = _app(tmp_path / "still", [], mat=True)
    try:
        loaded = still.calibration
        assert loaded is not None
        assert run_until(still, lambda: still._frame is not None)
        still.step()
        assert still.calibration is loaded
    finally:
        still.close()  # one kiosk at a time holds the (simulated) GPIO pins
    moved = _app(tmp_path / "moved", [], mat=True, moved_px=26.0)
    closing(moved)
    before = moved.calibration
    assert before is not None
    assert run_until(moved, lambda: moved.calibration is not before)
    saved = Calibration.load(tmp_path / "moved" / "state" / CALIBRATION_FILE)
    assert saved is not None and not saved.moved(moved.calibration) and saved.moved(before)


def _referee_rulings(app: App) -> list:
    session = getattr(app.screen, "session", None)
    return session.rulings if session is not None else []


def test_referee_judges_a_valid_and_a_false_government(tmp_path: Path, closing):
    good = ("3H", "3C", "3S", "3D", "4H", "4D")  # Lier+Villers-la-Ville, Ieper+Nivelles, 4 lion+coq
    bad = ("5H", "5D", "6H", "6C", "8H", "8S")
    script = []
    for k, cards in enumerate((good, bad)):
        start = 15 + k * 260
        for i, card_id in enumerate(cards):  # one row in seat 0's zone
            script.append(
                {"at": start + 4 * i, "card": card_id, "mat_xy": (0.115 + 0.154 * i, 0.86), "leave": start + 160}
            )
    app = _app(tmp_path, script, mat=True)
    closing(app)
    app.goto("referee", game="compromis", players=2)
    app.step()
    assert app.calibration is not None
    view = app.enrolment("standard-52").detector.view  # teaching a deck sees the table as calibrated
    assert view is not None and np.allclose(view.coef, app.calibration.table_view.coef)
    keys = lambda: [r.key for r in _referee_rulings(app)]  # noqa: E731
    assert run_until(app, lambda: "compromis.government_ok" in keys()), keys()
    next_round = [spec for spec in app.screen.session.inputs() if spec.action == "next_round"]
    app.screen.on_action("input", {"spec": next_round[0]})  # the table says: next round
    assert run_until(app, lambda: "compromis.gov_false" in keys()), keys()
    false = [r for r in _referee_rulings(app) if r.level == "violation" and r.key != "compromis.gov_false"]
    assert false, "the false government names the pair that fails"
    assert app.screen.session.status().scores[0] >= 1  # type: ignore[attr-defined]


def test_referee_names_the_winner_of_a_klaverjassen_trick(tmp_path: Path, closing):
    """Seed 001_40fe8032c5f19f76.txt: the highest card of the suit led wins the trick when no trump
    is played; ace 11, king 4, and the 7 and 9 of a plain suit nothing: 15 points."""
    seats = [(0.5, 0.86), (0.12, 0.5), (0.5, 0.14), (0.88, 0.5)]
    trick = ("7D", "KD", "AD", "9D")
    script = [
        {"at": 40 + 12 * i, "card": card_id, "mat_xy": seats[i], "leave": 400, "angle": 90 * i}
        for i, card_id in enumerate(trick)
    ]
    app = _app(tmp_path, script, mat=True)
    closing(app)
    app.goto("referee", game="klaverjassen", players=4)
    app.step()
    session = app.screen.session
    for action, value in (("dealer", "3"), ("trump", "H")):  # seat 3 deals, seat 0 picks hearts
        spec = next(s for s in session.inputs() if s.action == action)
        app.screen.on_action("choice", {"spec": spec, "value": value})
    won = lambda: [r for r in session.rulings if r.key == "klaverjassen.trick_won"]  # noqa: E731
    assert run_until(app, lambda: bool(won())), [r.key for r in session.rulings]
    assert won()[0].params["player"] == 3 and won()[0].params["points"] == 15  # seat 2, shown 1-based
    assert not [r for r in session.rulings if r.level == "violation"]


def test_referee_flags_a_wrong_math_pair_laid_down(tmp_path: Path, closing):
    """Seed 002_0523c4126fa103ae.txt (Pouilleux): "chacun pose les cartes appariées de son jeu devant
    lui. Les autres vérifient si c'est juste" - the kiosk checks with the camera, like the seed's
    calculator, and names the calculation and both values."""
    script = [
        {"at": 20, "card": "7x8", "mat_xy": (0.42, 0.85), "leave": 600, "angle": 6},
        {"at": 40, "card": "54", "mat_xy": (0.60, 0.85), "leave": 600, "angle": -9},
    ]
    app = _app(tmp_path, script, mat=True, deck="math-pairs")
    closing(app)
    app.goto("referee", game="pouilleux", players=2)
    app.step()
    wrong = lambda: [r for r in _referee_rulings(app) if r.key == "pouilleux.wrong_pair"]  # noqa: E731
    assert run_until(app, lambda: bool(wrong())), [r.key for r in _referee_rulings(app)]
    assert wrong()[0].params == {"player": 1, "calculation": "7 × 8", "value": 56, "shown": "54"}
    assert wrong()[0].level == "violation"
