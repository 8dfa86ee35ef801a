"""Cache-cache referee: the camera reads the calculation, the keypad gives the answer, the engine
at the table rules."""

from __future__ import annotations

from kiosk.games import mathpairs
from kiosk.referee.base import Expect, Observation
from kiosk.referee.cache_cache import CacheCacheReferee
from tests.quotes import Quotes

quote = Quotes("002_0523c4126fa103ae.txt")


def show(ref: CacheCacheReferee, card: str) -> list:
    return ref.observe(Observation("confirmed", card, "centre"))


def test_question_answer_and_the_score() -> None:
    ref = CacheCacheReferee(2, {"level": "tables-5-7"})
    status = ref.status()
    assert status.to_act == 1 and ref.inputs() == [] and status.details["held"] == [6, 6]
    assert status.expects == Expect("cache_cache.expect_question", {"player": 2})
    assert show(ref, "56")[0].key == "cache_cache.show_calculation"  # a result is not a question
    assert show(ref, "3+4")[0].key == "cache_cache.show_calculation"  # nor a card of another level
    rulings = show(ref, "7x8")
    assert rulings[0].params == {"player": 2, "calculation": "7 × 8"}
    assert show(ref, "7x8") == []  # seen again
    spec = ref.inputs()[0]
    assert spec.action == "answer" and "56" in spec.choices and ref.status().to_act == 0
    assert ref.status().expects == Expect("cache_cache.expect_answer", {"player": 1})
    rulings = ref.on_input("answer", choice="56")
    assert rulings[0].key == "cache_cache.right" and ref.status().scores == (1, 0)
    assert ref.status().details["held"] == [6, 5] and ref.status().to_act == 0  # roles change
    assert show(ref, "7x8")[0].key == "cache_cache.not_your_card"  # out of the game


def test_wrong_answer_gives_the_double_card_and_the_game_ends_on_an_empty_hand() -> None:
    ref = CacheCacheReferee(2, {"level": "add-10", "pairs": 2})
    show(ref, "3+4")
    rulings = ref.on_input("answer", choice="8")
    assert rulings[0].key == "cache_cache.wrong" and rulings[0].params["giver"] == 2
    assert ref.status().details["held"] == [2, 0] and ref.status().over
    assert ref.status().winners == (0, 1)  # 0 - 0
    assert ref.on_input("answer", choice="7")[0].key == "cache_cache.input_not_now"


def test_a_whole_game_through_the_adapter_until_a_hand_is_empty() -> None:
    quote(
        "Si le premier joueur donne le bon résultat, il marque 1 point et la carte double est sortie du jeu, "
        "sinon, le deuxième joueur donne la carte double au premier."
    )
    quote("On change ensuite de joueur, et on continue jusqu’à ce que l’un des deux joueurs n’ait plus de carte.")
    ref = CacheCacheReferee(2, {"level": "add-10", "pairs": 5})  # seat 1 holds 3 double cards, seat 0 2
    calcs = [calc for calc, _ in mathpairs.level_pairs("add-10", 4)]  # the cards asked, in turn
    seen = []
    for calc, right in zip(calcs, (True, False, True, True), strict=True):
        assert ref.inputs() == []
        seen += show(ref, calc)
        value = mathpairs.card(calc).value or 0
        seen += ref.on_input("answer", choice=str(value if right else value + 1))
    # held [2, 3]: seat 0 right [2, 2]; seat 1 wrong, takes the card [1, 3]; seat 0 right [1, 2];
    # seat 1 right and seat 0 has none left [0, 2]
    assert [r.key for r in seen if r.key != "cache_cache.question"][:-1] == [
        "cache_cache.right",
        "cache_cache.wrong",
        "cache_cache.right",
        "cache_cache.right",
    ]
    assert seen[-1].key == "cache_cache.game_over_points" and seen[-1].params == {"points": "2 - 1"}
    status = ref.status()
    assert status.over and status.details["held"] == [0, 2] and status.scores == (2, 1)
    assert status.winners == (0,) and status.expects is None and status.to_act is None
