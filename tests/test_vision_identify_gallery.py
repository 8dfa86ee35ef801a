"""Enrolment: `kiosk enroll --deck NAME DIR` teaches a venue's own printing of a face deck."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from kiosk.cli import main
from kiosk.decks import load_deck
from kiosk.render.faces import render_face
from kiosk.vision.face import FACE_SIZE
from kiosk.vision.gallery import Gallery, gallery_path
from kiosk.vision.identify import Identifier


def _venue_print(card_id: str) -> np.ndarray:
    """The kiosk's artwork as another printer would make it: recoloured, with a wide margin."""
    card = load_deck("kakkerlakken-64")[card_id]
    face = cv2.cvtColor(np.asarray(render_face(card, None, 240)), cv2.COLOR_RGB2BGR)
    recoloured = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)
    recoloured[..., 0] = (recoloured[..., 0].astype(int) + 25) % 180
    return cv2.copyMakeBorder(
        cv2.cvtColor(recoloured, cv2.COLOR_HSV2BGR),
        12,
        12,
        12,
        12,
        cv2.BORDER_CONSTANT,
        value=(250, 250, 250),
    )


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KIOSK_STATE_DIR", str(tmp_path / "state"))
    return tmp_path / "state"


@pytest.fixture
def scans(tmp_path: Path) -> Path:
    folder = tmp_path / "scans"
    folder.mkdir()
    for species in load_deck("kakkerlakken-64").species:
        cv2.imwrite(str(folder / f"{species}-1.png"), _venue_print(f"{species}-1"))
    return folder


def test_enrolled_gallery_answers_by_nearest_neighbour(
    state: Path, scans: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["enroll", "--deck", "kakkerlakken-64", str(scans)]) == 0
    assert "8 cards" in capsys.readouterr().out
    assert gallery_path("kakkerlakken-64", state).is_file()
    ident = Identifier("kakkerlakken-64")
    assert ident.gallery is not None
    deck = load_deck("kakkerlakken-64")
    photos = [cv2.resize(_venue_print(f"{s}-5"), FACE_SIZE) for s in deck.species]
    photos[1] = np.ascontiguousarray(photos[1][::-1, ::-1])
    answers = ident.identify(photos)
    assert [a.card_id for a in answers] == list(deck.species)
    assert all(a.runner_up not in (None, a.card_id) for a in answers)


def test_state_dir_option_wins_over_the_environment(state: Path, scans: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    assert main(["enroll", "--deck", "kakkerlakken-64", "--state-dir", str(other), str(scans)]) == 0
    assert gallery_path("kakkerlakken-64", other).is_file()
    assert not gallery_path("kakkerlakken-64", state).exists()


def test_a_file_not_named_by_card_id_is_an_error(state: Path, scans: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cv2.imwrite(str(scans / "unicorn.png"), np.zeros((10, 10, 3), np.uint8))
    assert main(["enroll", "--deck", "kakkerlakken-64", str(scans)]) == 1
    assert "unicorn" in capsys.readouterr().err
    assert not gallery_path("kakkerlakken-64", state).exists()


def test_index_decks_and_bad_arguments_are_refused(
    state: Path, scans: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["enroll", "--deck", "standard-52", str(scans)]) == 2  # face scans are no photos of its cards
    assert "not named by a card id of standard-52" in capsys.readouterr().err
    assert main(["enroll", "--deck", "math-pairs", str(scans)]) == 1
    assert "printed on it" in capsys.readouterr().err
    assert main(["enroll", "--deck", "nope", str(scans)]) == 2
    assert main(["enroll", "--deck", "kakkerlakken-64", str(scans / "missing")]) == 2


def test_gallery_refuses_unsure_and_not_a_card() -> None:
    emb = np.eye(3, dtype=np.float32)
    gallery = Gallery("kakkerlakken-64", ("rat", "bat", "fly"), emb)
    assert gallery.identify(np.array([1.0, 0.1, 0.0]), none_prob=0.0).card_id == "rat"
    assert gallery.identify(np.array([1.0, 0.98, 0.0]), none_prob=0.0).card_id is None  # too close
    assert gallery.identify(np.array([1.0, 0.0, 0.0]), none_prob=0.9).card_id is None  # "none" class
    assert gallery.identify(np.array([0.3, 0.0, 0.1]), none_prob=0.0).card_id == "rat"  # scale-free


def test_gallery_round_trips_through_the_state_dir(tmp_path: Path) -> None:
    gallery = Gallery("math-pairs", ("7x8", "56"), np.array([[1, 0], [0, 1]], np.float32))
    gallery.save(tmp_path)
    loaded = Gallery.load("math-pairs", tmp_path)
    assert loaded is not None and loaded.answers == gallery.answers
    assert np.array_equal(loaded.embeddings, gallery.embeddings)
    assert Gallery.load("kakkerlakken-64", tmp_path) is None
