"""Pouilleux referee: the kiosk checks every pair laid in a seat zone (the seed's calculator)."""

from __future__ import annotations

from kiosk.modes.games import game_info
from kiosk.modes.referee import RefereeMode
from kiosk.referee.base import Expect, Observation
from kiosk.referee.pouilleux import PouilleuxReferee
from kiosk.table import CardEvent, SeenCard, TableView
from tests.quotes import Quotes

quote = Quotes("002_0523c4126fa103ae.txt")


def lay(ref: PouilleuxReferee, seat: int, *cards: str) -> list:
    out: list = []
    for card in cards:
        out += ref.observe(Observation("confirmed", card, f"seat{seat}"))
    return out


def test_right_pair_is_approved() -> None:
    ref = PouilleuxReferee(3)
    rulings = lay(ref, 0, "7x8", "56")
    assert [r.key for r in rulings] == ["pouilleux.pair_ok"]
    assert rulings[0].params == {"player": 1, "calculation": "7 × 8", "value": 56, "shown": "56"}


def test_wrong_pair_is_flagged_with_the_calculation_and_both_values() -> None:
    ref = PouilleuxReferee(3)
    assert lay(ref, 1, "54") == []
    rulings = lay(ref, 1, "7x8")
    assert rulings[0].key == "pouilleux.wrong_pair" and rulings[0].level == "violation"
    assert rulings[0].params == {"player": 2, "calculation": "7 × 8", "value": 56, "shown": "54"}
    assert [s.action for s in ref.inputs()] == ["spotted", "unspotted"]
    assert set(ref.inputs()[0].choices) == {"0", "2"}  # not the author


def test_spotter_in_the_game_gives_a_card_spotter_out_scores_one() -> None:
    ref = PouilleuxReferee(3)
    ref.on_input("out", choice="2")
    lay(ref, 0, "3+4", "8")
    rulings = ref.on_input("spotted", choice="1")
    assert rulings[0].key == "pouilleux.card_given" and rulings[-1].key == "pouilleux.take_back"
    lay(ref, 1, "5+3", "7")
    rulings = ref.on_input("spotted", choice="2")
    assert rulings[0].key == "pouilleux.spot_bonus"
    assert ref.status().scores == (0, 0, 4 + 1)


def test_players_out_score_4_3_and_the_last_holds_the_pouilleux() -> None:
    ref = PouilleuxReferee(3, {"rounds": 2})
    ref.on_input("out", choice="1")
    rulings = ref.on_input("out", choice="0")
    assert [r.key for r in rulings] == ["pouilleux.out", "pouilleux.round_over", "pouilleux.new_round"]
    assert rulings[1].params == {"player": 3} and rulings[2].params == {"dealer": 2}
    assert ref.status().scores == (3, 4, 0) and not ref.status().over
    ref.on_input("out", choice="2")
    rulings = ref.on_input("out", choice="1")
    assert rulings[-1].key == "pouilleux.match_over"
    assert ref.status().scores == (3, 7, 4) and ref.status().winners == (1,)


def test_unfinishable_round_with_a_finder_and_an_author() -> None:
    ref = PouilleuxReferee(3)
    ref.on_input("out", choice="0")
    ref.on_input("unfinishable")
    assert ref.status().scores == (0, 0, 0)
    ref.on_input("found", choice="2")
    rulings = ref.on_input("author", choice="1")
    assert rulings[0].key == "pouilleux.error_found" and ref.status().scores == (1, 0, 2)


def test_unfinishable_round_the_calculator_points_at_the_wrong_pair_it_sees() -> None:
    ref = PouilleuxReferee(4)
    lay(ref, 3, "6x7", "48")
    rulings = ref.on_input("unspotted")  # nobody claimed it: the error stands, the cards stay
    assert rulings[0].key == "pouilleux.error_stands" and rulings[0].params["player"] == 4
    ref.on_input("unfinishable")
    rulings = ref.on_input("calculator")
    assert rulings[0].key == "pouilleux.calculator_found"
    assert rulings[0].params == {"player": 4, "calculation": "6 × 7", "value": 42, "shown": "48"}
    assert ref.status().scores == (1, 1, 1, 0)


def test_own_error_found_gives_everyone_one_point() -> None:
    ref = PouilleuxReferee(2)
    ref.on_input("unfinishable")
    ref.on_input("found", choice="0")
    rulings = ref.on_input("author", choice="0")
    assert rulings[0].key == "pouilleux.own_error_found" and ref.status().scores == (1, 1)


def test_taken_back_cards_leave_the_zone_and_buttons_out_of_turn_are_refused() -> None:
    ref = PouilleuxReferee(2)
    lay(ref, 0, "2", "1+0")
    for card in ("2", "1+0"):
        ref.observe(Observation("removed", card, "seat0"))
    assert ref.watcher.laid("seat0") == [] and ref.engine.laid == []  # the calculator will not point at it
    assert ref.on_input("author", choice="0")[0].key == "pouilleux.input_not_now"
    assert lay(ref, 0, "1", "1+0")[0].key == "pouilleux.pair_ok"


def test_session_places_cards_in_seat_zones_and_flags_a_wrong_pair() -> None:
    layout = PouilleuxReferee.layout(3)
    session = RefereeMode(game_info("pouilleux"), 3)
    x, y = layout["seat2"].centre
    corners = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    events = tuple(
        CardEvent("confirmed", SeenCard(n, card, 0.99, corners, (x + dx, y)))
        for n, (card, dx) in enumerate((("9x6", -0.05), ("56", 0.05)), start=1)
    )
    rulings = session.on_view(TableView(1, 0.0, events=events))
    assert [r.key for r in rulings] == ["pouilleux.wrong_pair"]
    assert rulings[0].params == {"player": 3, "calculation": "9 × 6", "value": 54, "shown": "56"}


def test_a_whole_round_through_the_adapter() -> None:
    quote(
        "Début : chacun pose les cartes appariées de son jeu devant lui. Les autres vérifient si c’est juste : "
        "celui qui repère une erreur donne une carte de son jeu à celui qui s’est trompé, lequel reprend les 2 "
        "cartes non appariées."
    )
    quote(
        "le premier qui n’a plus de carte a gagné, il marque 4 points, la partie continue s’il y a plus de deux "
        "joueurs, qui marquent successivement lorsqu’ils n’ont plus de carte 3 points, 2 points, etc…"
    )
    ref = PouilleuxReferee(3, {"level": "tables-5-7"})
    assert ref.status().expects == Expect("pouilleux.expect_pairs") and ref.status().to_act is None
    seen = lay(ref, 0, "7x8", "56") + lay(ref, 1, "6x7", "42") + lay(ref, 2, "6x4", "30")
    assert ref.status().expects == Expect("pouilleux.expect_spotter", {"player": 3})
    assert [s.action for s in ref.inputs()] == ["spotted", "unspotted"]
    seen += lay(ref, 0, "6x6", "36")  # the others lay on while the table settles the error
    seen += ref.on_input("spotted", choice="0")
    for card in ("6x4", "30"):
        assert ref.observe(Observation("removed", card, "seat2")) == []
    assert [p.seat for p in ref.engine.laid] == [0, 1, 0]  # the wrong pair left the table
    seen += ref.on_input("out", choice="0")
    assert lay(ref, 0, "5x6", "30")[0].key == "pouilleux.not_in_hand"  # a player out holds no card
    seen += lay(ref, 2, "6x4", "24") + ref.on_input("out", choice="2")
    assert [r.key for r in seen] == [
        "pouilleux.pair_ok",
        "pouilleux.pair_ok",
        "pouilleux.wrong_pair",
        "pouilleux.pair_ok",
        "pouilleux.card_given",
        "pouilleux.take_back",
        "pouilleux.out",
        "pouilleux.pair_ok",
        "pouilleux.out",
        "pouilleux.round_over",
        "pouilleux.match_over",
    ]
    assert seen[-2].params == {"player": 2} and seen[-1].params == {"players": "1"}
    status = ref.status()
    assert status.over and status.scores == (4, 0, 3) and status.winners == (0,) and status.expects is None
    assert ref.inputs() == [] and lay(ref, 1, "5x3", "15") == []


def test_the_calculator_asks_whose_error_when_it_saw_none_left() -> None:
    quote(
        "Si personne ne trouve d'erreur, on appelle le prof (ou la calculatrice !), et la première erreur trouvée "
        "rapporte 1 point à tout le monde, sauf à celui qui s'est trompé (0 point)…"
    )
    ref = PouilleuxReferee(3)
    ref.on_input("unfinishable")
    assert ref.status().expects == Expect("pouilleux.expect_finder")
    assert ref.on_input("calculator") == [] and [s.action for s in ref.inputs()] == ["author"]
    assert ref.status().expects == Expect("pouilleux.expect_author")
    rulings = ref.on_input("author", choice="2")
    assert rulings[0].key == "pouilleux.calculator_found" and rulings[0].params == {"player": 3}
    assert ref.status().scores == (1, 1, 0) and ref.status().over
