"""``kiosk render``: files as promised, and one clear line with exit 2 for bad arguments."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from PIL import Image

from kiosk.cli import main
from kiosk.render.scenes import render_scene


def test_render_scene_writes_the_image_and_its_truth(tmp_path):
    png, truth = tmp_path / "s.png", tmp_path / "s.json"
    args = [
        "render",
        "scene",
        "--deck",
        "piquet-32",
        "--cards",
        "4",
        "--seed",
        "7",
        "--size",
        "640x360",
        "-o",
        str(png),
        "--truth",
        str(truth),
    ]
    assert main(args) == 0
    data = json.loads(truth.read_text())
    scene = render_scene("piquet-32", 4, 7, (640, 360))
    assert data["size"] == [640, 360]
    assert [c["id"] for c in data["cards"]] == [c.card_id for c in scene.cards]
    for got, want in zip(data["cards"], scene.cards, strict=True):
        assert np.allclose(got["corners"], want.corners, atol=0.01)
        assert got["occluded"] == want.occluded and got["index_visible"] == want.index_visible
    assert np.array_equal(cv2.imread(str(png)), scene.image)


def test_render_card_and_sheet(tmp_path):
    assert (
        main(
            [
                "render",
                "card",
                "affiche-belge",
                "JK1",
                "-o",
                str(tmp_path / "jk.png"),
                "--width",
                "100",
            ]
        )
        == 0
    )
    assert Image.open(tmp_path / "jk.png").size == (100, 140)
    assert main(["render", "sheet", "math-pairs", "--level", "add-10", "-o", str(tmp_path / "m.pdf")]) == 0
    assert (tmp_path / "m.pdf").read_bytes().startswith(b"%PDF")


def test_render_mat_for_a_game(tmp_path):
    assert (
        main(
            [
                "render",
                "mat",
                "--paper",
                "A3",
                "--players",
                "3",
                "--dpi",
                "40",
                "-o",
                str(tmp_path / "m.pdf"),
            ]
        )
        == 0
    )
    assert (tmp_path / "m.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize(
    "args, needle",
    [
        (["card", "nodeck", "QS", "-o", "{d}/x.png"], "unknown deck"),
        (["card", "standard-52", "ZZ", "-o", "{d}/x.png"], "no card"),
        (["card", "standard-52", "QS", "-o", "{d}/x.txt"], "must end in"),
        (["scene", "--deck", "standard-52", "--size", "big", "-o", "{d}/x.png"], "WIDTHxHEIGHT"),
        (["scene", "--deck", "piquet-32", "--cards", "40", "-o", "{d}/x.png"], "between 0 and 32"),
        (["scene", "--deck", "piquet-32", "-o", "{d}/missing/x.png"], "does not exist"),
        (["sheet", "math-pairs", "--level", "calculus", "-o", "{d}/x.pdf"], "--level"),
        (["mat", "--game", "chess", "-o", "{d}/x.pdf"], "unknown game"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(tmp_path, capsys, args, needle):
    code = main(["render", *[a.format(d=tmp_path) for a in args]])
    err = capsys.readouterr().err
    assert code == 2
    assert needle in err and err.count("\n") == 1
    assert not any(tmp_path.iterdir())
