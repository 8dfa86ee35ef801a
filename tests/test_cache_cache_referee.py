"""Cache-cache referee: the camera reads the calculation, the keypad gives the answer."""

from __future__ import annotations

from kiosk.referee.base import Observation
from kiosk.referee.cache_cache import CacheCacheReferee


def show(ref: CacheCacheReferee, card: str) -> list:
    return ref.observe(Observation("confirmed", card, "centre"))


def test_question_answer_and_the_score() -> None:
    ref = CacheCacheReferee(2, {"level": "tables-5-7"})
    assert ref.status()["to_act"] == 1 and ref.inputs() == [] and ref.status()["held"] == [6, 6]
    assert show(ref, "56")[0].key == "cache_cache.show_calculation"  # a result is not a question
    assert show(ref, "3+4")[0].key == "cache_cache.show_calculation"  # nor a card of another level
    rulings = show(ref, "7x8")
    assert rulings[0].params == {"player": 2, "calculation": "7 × 8"}
    spec = ref.inputs()[0]
    assert spec.action == "answer" and "56" in spec.choices and ref.status()["to_act"] == 0
    rulings = ref.on_input("answer", choice="56")
    assert rulings[0].key == "cache_cache.right" and ref.status()["scores"] == [1, 0]
    assert ref.status()["held"] == [6, 5] and ref.status()["to_act"] == 0  # roles change


def test_wrong_answer_gives_the_double_card_and_the_game_ends_on_an_empty_hand() -> None:
    ref = CacheCacheReferee(2, {"level": "add-10", "pairs": 2})
    show(ref, "3+4")
    rulings = ref.on_input("answer", choice="8")
    assert rulings[0].key == "cache_cache.wrong" and rulings[0].params["giver"] == 2
    assert ref.status()["held"] == [2, 0] and ref.status()["over"]
    assert ref.status()["winners"] == [0, 1]  # 0 - 0
    assert ref.on_input("answer", choice="7")[0].key == "cache_cache.input_not_now"
