"""Memory referee: pairs turned in the centre, false pairs kept caught in the seat zones."""

from __future__ import annotations

from kiosk.referee.base import Expect, Observation
from kiosk.referee.memory import MemoryReferee
from tests.quotes import Quotes, decided

quote = Quotes("002_0523c4126fa103ae.txt")


def obs(ref: MemoryReferee, kind: str, card: str, zone: str) -> list:
    return ref.observe(Observation(kind, card, zone))


def turn(ref: MemoryReferee, a: str, b: str) -> list:
    return obs(ref, "confirmed", a, "centre") + obs(ref, "confirmed", b, "centre")


def take(ref: MemoryReferee, a: str, b: str) -> list:
    return obs(ref, "removed", a, "centre") + obs(ref, "removed", b, "centre")


def test_pair_scores_two_cards_and_the_player_plays_again() -> None:
    ref = MemoryReferee(3, {"level": "add-10", "pairs": 2})
    assert ref.status().to_act == 1
    rulings = turn(ref, "3", "2+1")
    assert rulings[0].key == "memory.pair" and rulings[0].params["calculation"] == "2 + 1"
    assert take(ref, "3", "2+1")[0].key == "memory.play_again"
    assert ref.status().scores == (0, 2, 0) and ref.status().to_act == 1


def test_no_pair_passes_the_turn_and_the_last_pair_ends_the_game() -> None:
    ref = MemoryReferee(2, {"level": "add-10", "pairs": 1})
    rulings = turn(ref, "1+0", "2")
    assert rulings[0].key == "memory.no_pair" and rulings[0].params["shown"] == "2"
    assert take(ref, "1+0", "2")[0].params == {"player": 1}
    turn(ref, "1", "1+0")
    rulings = take(ref, "1", "1+0")
    assert rulings[0].key == "memory.game_over_cards" and ref.status().winners == (0,)


def test_false_pair_kept_is_flagged_and_the_spotter_takes_all_the_author_cards() -> None:
    ref = MemoryReferee(3, {"level": "tables-5-7"})
    turn(ref, "6x7", "42")
    take(ref, "6x7", "42")
    turn(ref, "7x8", "54")
    take(ref, "7x8", "54")  # the turn passes to player 3 ...
    rulings = obs(ref, "confirmed", "54", "seat1")  # ... but player 2 kept them
    assert rulings[0].key == "memory.false_pair_kept"
    assert rulings[0].params == {"player": 2, "calculation": "7 × 8", "value": 56, "shown": "54"}
    assert set(ref.inputs()[0].choices) == {"0", "2"}
    ref.on_input("spotted", choice="0")
    assert ref.status().scores == (4, 0, 0) and ref.inputs() == []


def test_after_a_spotted_false_pair_the_game_ends_with_the_last_pair_that_can_be_found() -> None:
    ref = MemoryReferee(3, {"level": "add-10", "pairs": 3})  # 1 + 0 / 1, 1 + 1 / 2, 2 + 1 / 3
    turn(ref, "1+1", "3")
    take(ref, "1+1", "3")
    obs(ref, "confirmed", "3", "seat1")  # player 2 kept them; player 3 spotted it
    assert ref.on_input("spotted", choice="2")[-1].key == "memory.error_spotted"
    turn(ref, "1+0", "1")
    rulings = take(ref, "1+0", "1")  # 2 and 2 + 1 have no partner left: the game is over
    assert rulings[-1].key == "memory.game_over_cards"
    assert ref.status().scores == (0, 0, 4) and ref.status().winners == (2,)


def test_false_pair_nobody_spotted_cancels_the_game() -> None:
    ref = MemoryReferee(2, {"level": "add-10"})
    turn(ref, "3+4", "8")
    take(ref, "3+4", "8")
    obs(ref, "confirmed", "3+4", "seat1")
    rulings = ref.on_input("unspotted")
    assert rulings[0].key == "memory.cancelled" and ref.status().over and ref.status().winners == ()


def test_a_whole_game_through_the_adapter_a_spotted_false_pair_ends_it() -> None:
    quote("si elles sont appariées, il les garde et il peut rejouer")
    quote("si un adversaire s'en rend compte, le joueur qui s'est trompé donne toutes ses cartes à son adversaire")
    decided(
        "Memory with more than 2 players: a player caught with a false pair gives all his cards to whoever spotted it."
    )
    ref = MemoryReferee(3, {"level": "add-10", "pairs": 3})  # 1 + 0 / 1, 1 + 1 / 2, 2 + 1 / 3
    assert ref.status().expects == Expect("memory.expect_turn", {"player": 2})
    shown = turn(ref, "1+0", "2") + take(ref, "1+0", "2")
    assert [r.key for r in shown] == ["memory.no_pair", "memory.next_player"]
    shown = turn(ref, "1+1", "2")
    assert obs(ref, "confirmed", "1+1", "centre") == []  # seen again
    assert ref.status().expects == Expect("memory.expect_clear", {"player": 3})
    shown += take(ref, "1+1", "2") + obs(ref, "confirmed", "2", "seat2")  # a pair kept where it should be
    assert [r.key for r in shown] == ["memory.pair", "memory.play_again"]
    shown = turn(ref, "1+0", "3") + take(ref, "1+0", "3") + obs(ref, "confirmed", "3", "seat2")
    assert [r.key for r in shown] == ["memory.no_pair", "memory.next_player", "memory.false_pair_kept"]
    assert ref.status().expects == Expect("memory.expect_spotter", {"player": 3})
    assert ref.status().scores == (0, 0, 4) and set(ref.inputs()[0].choices) == {"0", "1"}
    rulings = ref.on_input("spotted", choice="0")
    assert [r.key for r in rulings] == ["memory.error_spotted", "memory.game_over_cards"]
    # 1 and 2 + 1 lost their partners to the spotter: no pair is left face down, the game is over
    status = ref.status()
    assert status.over and status.scores == (4, 0, 0) and status.winners == (0,) and status.expects is None
    assert obs(ref, "confirmed", "1", "centre") == [] and ref.inputs() == []
