"""Recto-verso referee: the engine at the table scores the cases from the card the camera reads."""

from __future__ import annotations

import pytest

from kiosk.games import mathpairs
from kiosk.games.base import IllegalMove
from kiosk.referee.base import Expect, Observation
from kiosk.referee.recto_verso import RectoVersoReferee
from tests.quotes import Quotes

quote = Quotes("002_0523c4126fa103ae.txt")


def show(ref: RectoVersoReferee, card: str) -> list:
    return ref.observe(Observation("confirmed", card, "centre"))


@pytest.mark.parametrize(
    ("announce", "action", "given", "scores"),
    [
        ("56", "exact", None, (1, 2)),
        ("56", "false", "54", (0, 2)),
        ("56", "false_no_result", None, (0, 2)),
        ("54", "exact", None, (0, 0)),
        ("54", "false", "56", (2, 0)),
        ("54", "false", "49", (1, 0)),
        ("54", "false_no_result", None, (1, 0)),
    ],
)
def test_every_case_of_answer_and_validation(announce: str, action: str, given: str | None, scores: tuple) -> None:
    ref = RectoVersoReferee(2, {"level": "tables-5-7"})
    assert ref.status().expects == Expect("recto_verso.expect_card", {"player": 2})
    show(ref, "7x8")
    assert [s.action for s in ref.inputs()] == ["announce"]
    ref.on_input("announce", choice=announce)
    assert [s.action for s in ref.inputs()] == ["exact", "false", "false_no_result"]
    assert ref.status().expects == Expect("recto_verso.expect_validation", {"player": 1})
    rulings = ref.on_input(action, **({"choice": given} if given else {}))
    assert rulings[0].key == "recto_verso.turned" and rulings[0].params["value"] == 56
    assert ref.status().scores == scores
    assert ref.status().details["left"] == 11 and ref.status().to_act == 0


def test_that_is_wrong_without_a_result_is_a_button_of_its_own() -> None:
    quote(
        "Le premier valide ou non le résultat par « c’est exact », ou « c’est faux », en donnant alors "
        "son résultat, puis retourne la carte."
    )
    quote(
        "Dans le cas où le deuxième joueur a donné un résultat erroné, la validation « c’est faux » "
        "donne 1 point au premier joueur, il en marque 2 s’il a donné en plus le bon résultat"
    )
    ref = RectoVersoReferee(2, {"level": "tables-5-7"})
    show(ref, "6x7")
    ref.on_input("announce", choice="48")
    spec = ref.inputs()[2]
    assert spec.label_key == "recto_verso.input.false_no_result" and spec.params == {"player": 1} and not spec.choices
    rulings = ref.on_input("false_no_result")
    assert rulings[0].params["asker_points"] == 0 and rulings[0].params["validator_points"] == 1
    assert ref.on_input("false_no_result")[0].key == "recto_verso.input_not_now"  # no card announced now


def test_a_result_or_a_card_already_played_is_refused_in_the_centre() -> None:
    ref = RectoVersoReferee(2, {"level": "tables-5-7"})
    rulings = show(ref, "56")
    assert rulings[0].key == "recto_verso.show_calculation" and rulings[0].params == {"player": 2}
    show(ref, "7x8")
    assert show(ref, "7x8") == []  # the same card seen again
    ref.on_input("announce", choice="56")
    ref.on_input("exact")
    rulings = show(ref, "7x8")
    assert rulings == [IllegalMove("recto_verso.not_on_table", card="7x8").ruling()]


def test_a_whole_game_through_the_adapter_ends_with_the_most_points() -> None:
    quote("La carte jouée est ensuite sortie du jeu.")
    quote("On change ensuite de joueur, et on continue jusqu’à ce qu’il n’y ait plus de carte.")
    quote("Celui qui a marqué le plus de points a gagné.")
    ref = RectoVersoReferee(2, {"level": "add-10", "pairs": 4})
    shown = []
    for n, (calc, _) in enumerate(mathpairs.level_pairs("add-10", 4)):
        value = mathpairs.card(calc).value or 0
        asker = ref.engine.asker
        assert ref.status().to_act == asker and ref.status().details["left"] == 4 - n
        shown += show(ref, calc)
        ref.on_input("announce", choice=str(value if asker == 0 else value + 1))  # seat 1 always errs
        shown += ref.on_input("false", choice=str(value)) if asker == 1 else ref.on_input("exact")
    assert [r.key for r in shown].count("recto_verso.turned") == 4
    assert shown[-1].key == "recto_verso.game_over_points" and shown[-1].params == {"points": "8 - 2"}
    status = ref.status()  # per card: 0 + 2 when seat 1 asks, 2 + 1 when seat 0 does
    assert status.over and status.winners == (0,) and status.scores == (8, 2) and status.expects is None
    assert ref.inputs() == [] and show(ref, "3+4") == []
