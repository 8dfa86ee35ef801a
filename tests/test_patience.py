"""Patience (Klondike), rule by rule: every sentence of seed 000_de7fdf0eefacbd60.txt about the
game and every decision of rules-decisions.md about it."""

from __future__ import annotations

import random

import pytest

from kiosk.decks import SUITS
from kiosk.games.base import IllegalMove
from kiosk.games.patience import RANKS, Column, Draw, GiveUp, Landed, Move, Patience, Recycle, Tableau, Tell
from tests.quotes import decided, seed_says


def rig(
    columns: list[tuple[list[str], list[str]]],
    foundations: dict[str, int] | None = None,
    stock: list[str] | None = None,
    waste: list[str] | None = None,
    draw: int = 1,
) -> Patience:
    """A game on this position; foundations are given as counts per suit."""
    game = Patience(1, random.Random(0), {"draw": draw})
    piles = {s: [f"{r}{s}" for r in RANKS[:n]] for s, n in (foundations or {}).items()}
    cols = [Column(list(d), list(u)) for d, u in columns]
    cols += [Column([], []) for _ in range(7 - len(cols))]
    game.tableau = Tableau(cols, piles, list(stock or []), list(waste or []), draw)
    return game


def test_seven_columns_of_1_to_7_only_the_last_card_visible_no_manneken():
    seed_says(
        "Sans les Manneken-Pis, dispose 7 colonnes de 1 à 7 cartes : seule la dernière "
        "carte de chaque colonne est visible."
    )
    game = Patience(1, random.Random(7))
    cols = game.tableau.columns
    assert [len(c.down) + len(c.up) for c in cols] == [1, 2, 3, 4, 5, 6, 7]
    assert all(len(c.up) == 1 for c in cols)
    assert {c for c, place in game.card_locations() if place == "aside"} == {"JK1", "JK2"}


def test_build_down_alternating_red_and_black():
    seed_says("Range les cartes en descendant, en alternant rouge et noir (une Dame rouge sur un Roi noir…).")
    game = rig([([], ["KS"]), ([], ["QH"]), ([], ["QC"]), ([], ["JD"])])
    for src, key in [("col2", "patience.not_alternating"), ("col3", "patience.not_alternating")]:
        with pytest.raises(IllegalMove) as err:
            game.play(Move(src, "col0"))
        assert err.value.key == key
    game.play(Move("col1", "col0"))
    assert game.tableau.columns[0].up == ["KS", "QH"]


def test_aces_aside_built_up_by_suit_from_ace_to_king():
    seed_says("Place les As à part et monte-les par symbole, de l’As au Roi.")
    game = rig([([], ["3S"]), ([], ["AS"]), ([], ["2S"])])
    with pytest.raises(IllegalMove) as err:
        game.play(Move("col0", "found"))
    assert err.value.key == "patience.foundation_order"
    game.play(Move("col1", "found"))
    game.play(Move("col2", "found"))
    game.play(Move("col0", "found"))
    assert game.tableau.foundations["S"] == ["AS", "2S", "3S"]
    with pytest.raises(IllegalMove):
        game.play(Move("col0", "found:H"))


def test_the_rest_is_the_stock_turned_one_card_at_a_time_option_three():
    seed_says("Le reste forme la pioche, que tu retournes une carte à la fois.")
    decided("Patience: Klondike, draw 1 (option: draw 3)")
    game = Patience(1, random.Random(2))
    assert len(game.tableau.stock) == 24 and game.options["draw"] == 1
    top = game.tableau.stock[-1]
    game.play(Draw())
    assert game.tableau.waste == [top] and len(game.tableau.stock) == 23
    three = Patience(1, random.Random(2), {"draw": 3})
    turned = three.tableau.stock[-3:][::-1]
    three.play(Draw())
    assert three.tableau.waste == turned and len(three.tableau.stock) == 21


def test_unlimited_passes_through_the_stock():
    decided("unlimited passes through the stock,")
    game = rig([([], ["KS"])], stock=["3D", "5C"])
    for _ in range(5):
        game.play(Draw())
        game.play(Draw())
        assert game.legal_moves()[0] == Recycle()
        game.play(Recycle())
    assert game.tableau.stock == ["3D", "5C"] and not game.over


def test_only_a_king_or_a_run_headed_by_a_king_fills_an_empty_column():
    decided("only a King (or a run headed by a King) fills an empty column,")
    game = rig([(["2C"], ["KH", "QS", "JH"]), (["4D"], ["QD"]), ([], [])])
    with pytest.raises(IllegalMove) as err:
        game.play(Move("col1", "col2"))
    assert err.value.key == "patience.king_only"
    game.play(Move("col0", "col2", 3))
    assert game.tableau.columns[2].up == ["KH", "QS", "JH"]
    assert game.tableau.columns[0].up == ["2C"]  # the face-down card turned up


def test_moves_back_from_a_foundation_allowed():
    decided("moves back from a foundation allowed.")
    game = rig([([], ["4H"])], foundations={"S": 3})
    game.play(Move("found:S", "col0"))
    assert game.tableau.columns[0].up == ["4H", "3S"] and len(game.tableau.foundations["S"]) == 2


def test_you_win_when_the_four_piles_are_complete():
    seed_says("Tu gagnes quand les quatre piles sont complètes.")
    seed_says("Je wint als de vier stapels volledig zijn.")
    game = rig([([], ["KD"])], foundations={"C": 13, "S": 13, "H": 13, "D": 12})
    rulings = game.play(Move("col0", "found"))
    assert game.over and game.winners() == [0] and game.scores() == [52]
    assert rulings[-1].key == "patience.won"


def test_giving_up_is_a_loss():
    game = Patience(1, random.Random(1))
    game.play(GiveUp())
    assert game.over and game.winners() == [] and game.to_act is None


def test_a_refused_move_changes_nothing():
    game = Patience(1, random.Random(3))
    before = game.card_locations()
    with pytest.raises(IllegalMove):
        game.play(Move("col0", "col0"))
    with pytest.raises(IllegalMove):
        game.play(Recycle())
    assert game.card_locations() == before


def test_legal_moves_are_exactly_the_moves_the_rules_accept():
    game = Patience(1, random.Random(11))
    for _ in range(40):
        legal = set(game.legal_moves())
        places = ["waste"] + [f"col{i}" for i in range(7)] + [f"found:{s}" for s in SUITS]
        for src in places:
            for dst in ["found"] + [f"col{i}" for i in range(7)]:
                for count in range(1, 14):
                    move = Move(src, dst, count)
                    try:
                        game.tableau.check(move)
                    except IllegalMove:
                        assert move not in legal
                    else:
                        assert move in legal
        game.play(game.bot_move())
        if game.over:
            break


def test_at_the_table_every_card_starts_unknown_and_the_deal_is_turned_up():
    seed_says(
        "Sans les Manneken-Pis, dispose 7 colonnes de 1 à 7 cartes : "
        "seule la dernière carte de chaque colonne est visible."
    )
    game = Patience(1, random.Random(0), at_table=True)
    assert game.card_locations() == [("JK1", "aside"), ("JK2", "aside")]
    assert game.expects() == ("patience.expect_deal", {})
    assert game.play(Landed("KS", "col0")) == [] and game.tableau.columns[0].up == ["KS"]
    assert game.expects() == ("patience.expect_turn_up", {"column": 2})
    for move, key in [(Landed("JK1", "col1"), "patience.manneken_out"), (Landed("KS", "col1"), "patience.turn_first")]:
        with pytest.raises(IllegalMove) as err:
            game.play(move)
        assert err.value.key == key
    for move in (Draw(), Recycle()):  # the table turns the stock by showing the card
        with pytest.raises(IllegalMove) as err:
            game.play(move)
        assert err.value.key == "patience.unknown_move"
    with pytest.raises(IllegalMove) as err:
        Patience(1, random.Random(0)).play(Landed("KS", "col0"))
    assert err.value.key == "patience.unknown_move"


def test_at_the_table_a_card_on_the_waste_is_a_turn_of_the_stock():
    seed_says("Le reste forme la pioche, que tu retournes une carte à la fois.")
    decided("unlimited passes through the stock,")
    game = Patience(1, random.Random(0), at_table=True)
    assert game.play(Landed("5H", "waste")) == []
    assert len(game.tableau.stock) == 23 and game.tableau.waste == ["5H"]
    assert game.play(Landed("5H", "waste")) == [] and len(game.tableau.stock) == 23  # seen again
    game.tableau.stock, game.tableau.waste = [], [None, "5H"]  # as if the rest were turned, one unseen
    rulings = game.play(Landed("9C", "waste"))  # the waste turned over, then a turn
    assert rulings == [] and game.tableau.waste == ["9C"] and game.tableau.stock == ["5H"]
    with pytest.raises(IllegalMove) as err:
        game.play(Landed("2D", "waste"))  # the stock's next card is known: 5H
    assert err.value.key == "patience.stock_order" and game.tableau.stock == ["5H"]


def test_at_the_table_draw_3_names_the_cards_uncovered_on_the_waste():
    game = Patience(1, random.Random(0), {"draw": 3}, at_table=True)
    t = game.tableau
    t.columns[0], t.columns[1] = Column([], ["KS"]), Column([], ["QS"])
    game.play(Landed("JD", "waste"))  # three cards turned, JD on top
    assert t.waste == [None, None, "JD"] and len(t.stock) == 21
    assert game.play(Landed("JD", "col1"))[0].key == "patience.move_ok"
    rulings = game.play(Landed("QH", "col0"))  # turned unseen under JD, now laid on the King
    assert rulings[0].key == "patience.move_ok" and t.columns[0].up == ["KS", "QH"] and t.waste == [None]
    with pytest.raises(IllegalMove) as err:
        game.play(Landed("5C", "col0"))
    assert err.value.key == "patience.not_alternating" and t.waste == [None]  # refused: nothing learnt
    assert game.play(Landed("8D", "waste")) == [] and t.waste == ["8D"] and len(t.stock) == 21


def test_at_the_table_the_player_tells_hidden_cards():
    game = Patience(1, random.Random(0), at_table=True)
    rulings = game.play(Tell("col1", ("4C", "9D")))
    assert rulings[0].key == "patience.told" and game.tableau.columns[1].down == ["4C", "9D"]
    assert game.play(Landed("9D", "col1")) == [] and game.tableau.columns[1].up == ["9D"]
    refusals = [(Tell("col2", ("2C", "3C", "9D")), "patience.tell_refused"), (Tell("x", ()), "patience.unknown_place")]
    for move, key in refusals:
        with pytest.raises(IllegalMove) as err:
            game.play(move)
        assert err.value.key == key
