"""Patience referee scenarios: a real deal played by the engine's bot is shown to the referee
card by card, as the camera would confirm them; illegal moves and hints on request."""

from __future__ import annotations

import random

import pytest

from kiosk.games.patience import Draw, GiveUp, Move, Patience, Recycle, goes_on
from kiosk.referee.base import Expect, Observation
from kiosk.referee.patience import PatienceReferee
from tests.quotes import decided, seed_says

EASY = 1_000_008  # a deal the solver wins in a few dozen nodes


def confirm(ref: PatienceReferee, card: str, zone: str):
    return ref.observe(Observation("confirmed", card, zone))


def show_deal(ref: PatienceReferee, game: Patience) -> None:
    for i, col in enumerate(game.tableau.columns):
        assert confirm(ref, col.up[-1], f"col{i}") == []


def show_move(ref: PatienceReferee, game: Patience, move) -> list:
    """Play ``move`` in the engine and show the referee what the camera would see."""
    t = game.tableau
    head = t.moving(move)[0] if isinstance(move, Move) else None
    turned_before = {i: len(c.down) for i, c in enumerate(t.columns)}
    game.play(move)
    if isinstance(move, Recycle):
        return []
    if isinstance(move, Draw):
        return confirm(ref, t.waste[-1], "waste")
    zone = "found2" if move.dst == "found" else move.dst
    rulings = confirm(ref, head, zone)
    for i, col in enumerate(t.columns):
        if len(col.down) < turned_before[i]:
            rulings += confirm(ref, col.up[0], f"col{i}")
    if move.src == "waste" and t.waste:
        rulings += confirm(ref, t.waste[-1], "waste")  # the card uncovered on the waste
    return rulings


def test_layout_stock_waste_four_foundations_seven_columns():
    names = PatienceReferee.layout(1).names
    assert names[:2] == ("stock", "waste") and len(names) == 2 + 4 + 7


@pytest.mark.parametrize(("seed", "draw"), [(5, 1), (13, 1), (51, 3)])  # lost, won, won
def test_a_whole_bot_game_is_followed_to_its_end_without_a_false_alarm(seed: int, draw: int):
    seed_says("Le reste forme la pioche, que tu retournes une carte à la fois.")
    seed_says("Tu gagnes quand les quatre piles sont complètes.")
    decided("unlimited passes through the stock,")
    game = Patience(1, random.Random(seed), {"draw": draw})
    ref = PatienceReferee(1, {"draw": draw})
    show_deal(ref, game)
    assert ref.status().expects == Expect("patience.expect_move")
    shown = []
    while not game.over:
        move = game.bot_move()
        if isinstance(move, GiveUp):
            game.play(move)
            shown += ref.on_input("give_up")
            break
        shown += show_move(ref, game, move)
    assert all(r.level != "violation" for r in shown), [r for r in shown if r.level == "violation"]
    t, seen = game.tableau, ref.engine.tableau
    assert [c.up for c in seen.columns] == [c.up for c in t.columns]
    assert [len(c.down) for c in seen.columns] == [len(c.down) for c in t.columns]
    assert seen.foundations == t.foundations
    status = ref.status()
    assert status.over and status.scores == tuple(game.scores()) and status.winners == tuple(game.winners())
    assert shown[-1].key == ("patience.won" if game.winners() else "patience.lost") and ref.inputs() == []


def test_an_illegal_move_is_flagged_with_its_reason():
    seed_says("Range les cartes en descendant, en alternant rouge et noir (une Dame rouge sur un Roi noir…).")
    game = Patience(1, random.Random(5))
    ref = PatienceReferee(1)
    show_deal(ref, game)
    cols = game.tableau.columns
    src, dst = next(
        (a, b) for a in range(7) for b in range(7) if a != b and not goes_on(cols[a].up[-1], cols[b].up[-1])
    )
    rulings = confirm(ref, cols[src].up[-1], f"col{dst}")
    assert rulings[0].key == "patience.not_alternating" and rulings[0].level == "violation"
    assert confirm(ref, cols[src].up[-1], f"col{src}") == []  # put back: nothing changed


def test_only_a_king_fills_an_empty_column():
    decided("only a King (or a run headed by a King) fills an empty column,")
    game = Patience(1, random.Random(5))  # face up: 3D 3C 7D KD 8H 5D 3H
    ref = PatienceReferee(1)
    show_deal(ref, game)
    ref.engine.tableau.columns[6].down.clear()  # as if column 7 had been cleared
    ref.engine.tableau.columns[6].up.clear()
    assert confirm(ref, "3D", "col6")[0].key == "patience.king_only"
    assert confirm(ref, "KD", "col6")[0].key == "patience.move_ok"
    assert ref.engine.tableau.columns[6].up == ["KD"]


def test_hint_is_a_win_only_when_every_card_is_known():
    game = Patience(1, random.Random(EASY))
    ref = PatienceReferee(1)
    show_deal(ref, game)
    assert ref.inputs()[0].action == "hint"
    blind = ref.on_input("hint")[0]
    assert not blind.key.startswith("patience.hint_win")
    for i, col in enumerate(game.tableau.columns):
        told = ref.on_input("tell", place=f"col{i}", cards=list(col.down))
        assert told[0].key == "patience.told"
    ref.on_input("tell", place="stock", cards=list(reversed(game.tableau.stock)))
    hint = ref.on_input("hint")[0]
    assert hint.key.startswith("patience.hint_win_")


def test_telling_a_card_that_contradicts_the_table_is_refused():
    game = Patience(1, random.Random(EASY))
    ref = PatienceReferee(1)
    show_deal(ref, game)
    visible = game.tableau.columns[0].up[-1]
    rulings = ref.on_input("tell", place="col1", cards=[visible])
    assert rulings[0].key == "patience.tell_refused"


def test_manneken_out():
    seed_says("Sans les Manneken-Pis")
    assert confirm(PatienceReferee(1), "JK1", "col0")[0].key == "patience.manneken_out"


def test_a_run_is_recognised_whatever_card_the_camera_confirms_first():
    game = Patience(1, random.Random(5))
    ref = PatienceReferee(1)
    show_deal(ref, game)
    t = ref.engine.tableau
    t.columns[0].up, t.columns[1].up = ["KS"], ["8C", "QH", "JC"]
    rulings = confirm(ref, "JC", "col0")  # the lower card of the run is seen first
    assert rulings[0].key == "patience.move_ok"
    assert t.columns[0].up == ["KS", "QH", "JC"] and t.columns[1].up == ["8C"]
    assert confirm(ref, "QH", "col0") == []
