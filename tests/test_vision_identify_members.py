"""A model shipped as several members (one recipe, other seeds): the kiosk averages their
answers (``kiosk.vision.identify.model_files``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from kiosk.decks import load_deck
from kiosk.errors import KioskError
from kiosk.render.faces import render_face
from kiosk.vision.face import FACE_SIZE, index_crops
from kiosk.vision.identify import Identifier
from kiosk.vision.members import default_models_dir, member_stem, model_files


def test_model_files_lists_the_first_file_then_the_members_by_number(tmp_path: Path) -> None:
    for name in (
        "index.tflite",
        "index.10.tflite",
        "index.2.tflite",
        "index.3.tflite",
        "index.labels.txt",
        "index.2.train.json",
        "index.old.tflite",
        "index.1.tflite",
        "pips.tflite",
    ):
        (tmp_path / name).write_bytes(b"")
    assert [p.name for p in model_files(tmp_path, "index")] == [
        "index.tflite",
        "index.2.tflite",
        "index.3.tflite",
        "index.10.tflite",
    ]
    assert member_stem("index", 1) == "index" and member_stem("index", 2) == "index.2"


def _folder(tmp_path: Path, name: str, members: list[str]) -> Path:
    """A models folder whose index members are the shipped files ``members``, in that order."""
    shipped, folder = default_models_dir(), tmp_path / name
    folder.mkdir()
    shutil.copy(shipped / "index.labels.txt", folder)
    for k, file in enumerate(members, start=1):
        shutil.copy(shipped / file, folder / f"{member_stem('index', k)}.tflite")
    return folder


def _corners() -> list[np.ndarray]:
    deck = load_deck("standard-52")
    faces = [np.asarray(render_face(deck[c], None, FACE_SIZE[0]))[:, :, ::-1] for c in ("QH", "10S", "9D", "AC")]
    return [crop for f in faces for crop in index_crops(np.ascontiguousarray(f))]


def test_the_members_answer_together_with_the_mean_of_their_probabilities(tmp_path: Path) -> None:
    shipped = model_files(default_models_dir(), "index")
    assert len(shipped) == 2  # the shipped index model: seeds 2 and 3 (models/MODEL.md)
    crops = _corners()
    alone = [Identifier("standard-52", _folder(tmp_path, p.stem, [p.name])).scores(crops)[0] for p in shipped[:2]]
    both = Identifier("standard-52", _folder(tmp_path, "both", [p.name for p in shipped[:2]])).scores(crops)[0]
    assert np.abs(alone[0] - alone[1]).max() > 1e-3  # two runs: the mean is not either one
    np.testing.assert_allclose(both, (alone[0] + alone[1]) / 2, atol=1e-6)


def test_a_member_of_another_shape_is_a_clear_error(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "odd", ["index.tflite", "pips.tflite"])
    with pytest.raises(KioskError, match=r"index\.2\.tflite: not a member of"):
        Identifier("standard-52", folder)
