"""The printed mat: its small print never lies over a zone, and a game's mat has only as many
seats as the game has players."""

from __future__ import annotations

import pytest

from kiosk.cli import main
from kiosk.games.registry import get_game
from kiosk.referee.registry import available_referees
from kiosk.render.mat import footer_box, paper_pixels, zone_label

LAYOUTS = [
    (game, players)
    for game, referee in sorted(available_referees().items())
    for players in range(get_game(game).min_players, get_game(game).max_players + 1)
]


@pytest.mark.parametrize("game, players", LAYOUTS)
def test_the_footer_crosses_no_zone(game, players):
    w, h = paper_pixels("A3", 100)
    layout = available_referees()[game].layout(players)
    x0, y0, x1, y1 = footer_box(w, h, layout)
    assert x1 - x0 >= 0.15 * w  # room for the small print
    for zone in layout.zones:
        zx0, zy0, zx1, zy1 = (zone.rect[0] * w, zone.rect[1] * h, zone.rect[2] * w, zone.rect[3] * h)
        assert x1 <= zx0 or x0 >= zx1 or y1 <= zy0 or y0 >= zy1, (game, players, zone.name)


def test_a_mat_for_more_players_than_the_game_takes_is_refused(tmp_path, capsys):
    assert main(["render", "mat", "--game", "klaverjassen", "--players", "9", "-o", str(tmp_path / "m.png")]) == 2
    assert "klaverjassen is played by 4" in capsys.readouterr().err
    assert not (tmp_path / "m.png").exists()


@pytest.mark.parametrize(
    "zone, label",
    [
        ("col0", "Colonne 1 · Kolom 1"),
        ("found3", "Pile 4 · Stapel 4"),
        ("piles1", "Piles 2 · Stapels 2"),
        ("seat9", "Joueur 10 · Speler 10"),
        ("waste", "Retournées · Omgedraaid"),
    ],
)
def test_every_printed_zone_label_is_in_french_and_dutch(zone, label):
    assert zone_label(zone) == label
