"""Recto-verso referee: the five cases scored from the card the camera reads."""

from __future__ import annotations

import pytest

from kiosk.referee.base import Observation
from kiosk.referee.recto_verso import RectoVersoReferee


@pytest.mark.parametrize(
    ("announce", "action", "given", "scores"),
    [
        ("56", "exact", None, [1, 2]),
        ("56", "false", "54", [0, 2]),
        ("54", "exact", None, [0, 0]),
        ("54", "false", "56", [2, 0]),
        ("54", "false", "49", [1, 0]),
    ],
)
def test_five_cases_of_answer_and_validation(announce: str, action: str, given: str | None, scores: list[int]) -> None:
    ref = RectoVersoReferee(2, {"level": "tables-5-7"})
    ref.observe(Observation("confirmed", "7x8", "centre"))
    assert [s.action for s in ref.inputs()] == ["announce"]
    ref.on_input("announce", choice=announce)
    assert [s.action for s in ref.inputs()] == ["exact", "false"]
    rulings = ref.on_input(action, **({"choice": given} if given else {}))
    assert rulings[0].key == "recto_verso.turned" and rulings[0].params["value"] == 56
    assert ref.status()["scores"] == scores
    assert ref.status()["left"] == 11 and ref.status()["to_act"] == 0


def test_game_ends_when_no_card_is_left() -> None:
    ref = RectoVersoReferee(2, {"level": "add-10", "pairs": 1})
    assert ref.on_input("announce", choice="7")[0].key == "recto_verso.input_not_now"
    ref.observe(Observation("confirmed", "3+4", "centre"))
    ref.on_input("announce", choice="7")
    rulings = ref.on_input("exact")
    assert rulings[-1].key == "recto_verso.game_over_points" and ref.status()["winners"] == [1]
