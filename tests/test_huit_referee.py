"""Huit américain referee scenarios: cards confirmed on the discard pile, suits named by touch;
a whole dealt game shown to the referee as the camera and the buttons would report it."""

from __future__ import annotations

import itertools
import random

from kiosk.games.base import Ruling
from kiosk.games.hands import UnseenHand
from kiosk.games.huit import Draw, Huit, Pass, Play
from kiosk.referee.base import Expect, Observation
from kiosk.referee.huit import HuitReferee
from tests.quotes import decided, seed_says


def lay(ref: HuitReferee, card: str):
    return ref.observe(Observation("confirmed", card, "discard"))


def test_layout_has_draw_and_discard_piles():
    assert {"draw", "discard", "seat0", "seat1"} <= set(HuitReferee.layout(2).names)


def test_same_suit_or_same_value_fits_other_cards_go_back():
    seed_says("pose une carte du même symbole (♣ ♥ ♠ ♦) ou de la même valeur que celle du dessus.")
    ref = HuitReferee(3)
    assert lay(ref, "9H")[0].key == "huit.start"
    assert lay(ref, "3H")[0].key == "huit.played"  # seat 0, same suit
    assert lay(ref, "3C")[0].key == "huit.played"  # seat 1, same value
    wrong = lay(ref, "KD")
    assert wrong[0].key == "huit.does_not_fit" and wrong[0].params["player"] == 3
    assert lay(ref, "5C")[0].key == "huit.take_back"
    ref.observe(Observation("removed", "KD", "discard"))
    assert lay(ref, "5C")[0].key == "huit.played" and ref.status().to_act == 0
    assert ref.status().details["hand_counts"] == [6, 6, 6]


def test_an_8_on_anything_then_the_named_suit():
    seed_says("Le 8 se pose sur tout et te permet de choisir le symbole suivant.")
    ref = HuitReferee(2)
    lay(ref, "KS")
    rulings = lay(ref, "8D")
    assert [r.key for r in rulings] == ["huit.played", "huit.choose_suit"]
    spec = ref.inputs()[0]
    assert spec.action == "suit" and set(spec.choices) == {"C", "D", "H", "S"}
    assert lay(ref, "4H")[0].key == "huit.name_suit"
    assert ref.status().expects == Expect("huit.expect_take_back", {"card": "4H"})
    ref.observe(Observation("removed", "4H", "discard"))
    assert ref.status().expects == Expect("huit.expect_suit", {"player": 1})
    assert ref.on_input("suit", choice="H")[0].key == "huit.suit_named"
    assert lay(ref, "4H")[0].key == "huit.played" and ref.status().to_act == 0


def test_a_starting_8_keeps_its_suit():
    decided("a starting 8 keeps its suit.")
    ref = HuitReferee(2)
    lay(ref, "8C")
    assert ref.inputs()[0].action == "drew"  # no suit to name
    assert lay(ref, "KC")[0].key == "huit.played"


def test_forced_draw_reminder_and_pass():
    seed_says("Sinon, pioche une carte.")
    decided("one forced draw when no card fits, played at once if it fits;")
    ref = HuitReferee(2)
    lay(ref, "9H")
    assert [s.action for s in ref.inputs()] == ["drew"]
    assert ref.on_input("pass")[0].key == "huit.cannot_pass"  # no pass without the draw
    assert ref.on_input("drew")[0].key == "huit.play_drawn_if_fits"
    assert ref.status().details["hand_counts"] == [8, 7] and [s.action for s in ref.inputs()] == ["pass"]
    assert ref.status().expects == Expect("huit.expect_drawn", {"player": 1})
    assert ref.on_input("pass")[0].key == "huit.passes" and ref.status().to_act == 1


def test_first_without_cards_wins():
    seed_says("Le premier qui n’a plus de cartes gagne.")
    ref = HuitReferee(2)
    lay(ref, "2C")
    hearts = ["2H", "3H", "4H", "5H", "6H", "7H", "9H", "10H", "JH", "QH", "KH", "AH", "8H"]
    for card in hearts[:-1]:
        assert lay(ref, card)[0].key == "huit.played"
    rulings = lay(ref, hearts[-1])
    assert rulings[-1].key == "huit.wins" and rulings[-1].params["player"] == 1
    status = ref.status()
    assert status.over and status.winners == (0,) and status.scores == (1, 0) and ref.inputs() == []
    assert status.to_act is None and status.expects is None


def test_manneken_out_and_hands_never_seen():
    decided("Manneken-Pis out;")
    ref = HuitReferee(2)
    assert lay(ref, "JK2")[0].key == "huit.manneken_out"
    assert ref.observe(Observation("confirmed", "5D", "seat1")) == []


def test_the_table_rebuilds_an_empty_stock_and_a_blocked_game_ends():
    decided("empty stock: reshuffle the discard pile except its top;")
    ref = HuitReferee(2)
    ref.engine.stock = UnseenHand(0)
    for card in ("9H", "3H", "3C"):
        lay(ref, card)
    rulings = ref.on_input("drew")
    assert rulings[0].key == "huit.reshuffle" and rulings[0].params["count"] == 2
    assert ref.engine.discard == ["3C"] and len(ref.engine.stock) == 1
    ref.on_input("pass")
    ref.on_input("drew")  # the last card of the stock
    ref.on_input("pass")
    assert [s.action for s in ref.inputs()] == ["pass"]  # nothing left to draw
    ref.on_input("pass")
    rulings = ref.on_input("pass")
    assert rulings[-1].key == "huit.blocked" and ref.status().winners == (0, 1)  # 7 cards each


def show(game: Huit, ref: HuitReferee, move) -> list[Ruling]:
    """Play ``move`` in the dealt game and report to the referee what the table shows of it."""
    game.play(move)
    if isinstance(move, Play):
        rulings = lay(ref, move.card)
        return rulings + (ref.on_input("suit", choice=move.suit) if move.suit and not game.over else [])
    if isinstance(move, Draw):
        rulings = ref.on_input("drew")
        return rulings + (ref.on_input("pass") if game.drawn is None else [])  # the drawn card did not fit
    assert isinstance(move, Pass)
    return ref.on_input("pass")


def test_whole_dealt_games_reach_the_same_end_at_the_table():
    seed_says("Le premier qui n’a plus de cartes gagne.")
    decided("one forced draw when no card fits, played at once if it fits;")
    keys: set[str] = set()
    for players, seed in itertools.product((2, 4, 7), range(4)):
        game, ref = Huit(players, random.Random(seed)), HuitReferee(players, seed=seed)
        shown = lay(ref, game.top)
        while not game.over:
            shown += show(game, ref, game.bot_move())
        assert all(r.level != "violation" for r in shown), [r for r in shown if r.level == "violation"]
        status = ref.status()
        assert status.over and status.winners == tuple(game.winners()) and status.scores == tuple(game.scores())
        assert status.details["hand_counts"] == [len(h) for h in game.hands]
        assert shown[-1].key == "huit.wins" and shown[-1].params["player"] == game.winners()[0] + 1
        keys |= {r.key for r in shown}
    assert {"huit.start", "huit.suit_named", "huit.play_drawn_if_fits", "huit.passes", "huit.reshuffle"} <= keys
