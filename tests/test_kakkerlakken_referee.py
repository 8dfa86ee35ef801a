"""Kakkerlakkenpoker referee: buttons for the claims and judgements, the camera for the faces."""

from __future__ import annotations

from kiosk.referee.base import Expect, Observation
from kiosk.referee.kakkerlakken import KakkerlakkenReferee
from tests.quotes import Quotes

quote = Quotes("003_55f06b0835a16e62.txt")


def seen(ref: KakkerlakkenReferee, card: str, zone: str | None, kind: str = "confirmed") -> list:
    return ref.observe(Observation(kind, card, zone))


def offer(ref: KakkerlakkenReferee, to: int, claim: str) -> list:
    assert ref.on_input("offer", choice=str(to)) == []
    return ref.on_input("claim", choice=claim)


def test_layout_has_one_zone_per_seat_and_a_centre() -> None:
    assert KakkerlakkenReferee.layout(5).names == ("seat0", "seat1", "seat2", "seat3", "seat4", "centre")


def test_a_round_from_claim_to_the_taker() -> None:
    ref = KakkerlakkenReferee(3)
    assert [s.action for s in ref.inputs()] == ["offer", "empty_hand"]
    assert set(ref.inputs()[0].choices) == {"1", "2"}
    rulings = offer(ref, 1, "cockroach")
    assert rulings[0].params == {"player": 1, "receiver": 2, "species": "cockroach"}
    assert ref.status().to_act == 1 and ref.status().details["claim"] == "cockroach"
    assert [s.action for s in ref.inputs()] == ["judge", "judge", "pass"]
    assert set(ref.inputs()[2].choices) == {"2"}  # only the player who has not seen it
    ref.on_input("judge", says_true=False)
    rulings = seen(ref, "cockroach", "centre")  # the camera answers the species
    assert rulings[0].key == "kakkerlakken.judged_wrong" and rulings[0].params["taker"] == 2
    assert ref.status().to_act == 1 and ref.status().expects == Expect("kakkerlakken.expect_lay", {"player": 2})
    assert seen(ref, "cockroach", "seat1") == []
    assert ref.status().details["species"][1] == {"cockroach": 1} and ref.status().to_act == 1


def test_pass_then_forced_judgement_and_a_right_judge() -> None:
    ref = KakkerlakkenReferee(3)
    offer(ref, 1, "rat")
    ref.on_input("pass", choice="2")
    assert [s.action for s in ref.inputs()] == ["claim"]
    ref.on_input("claim", choice="bat")
    assert [s.action for s in ref.inputs()] == ["judge", "judge"]  # the last one must judge
    assert ref.on_input("pass", choice="0")[0].key == "kakkerlakken.input_not_now"
    ref.on_input("judge", says_true=False)
    rulings = seen(ref, "rat-5", "seat1")  # a full card id, laid straight before the passer
    assert rulings[0].key == "kakkerlakken.judged_right" and rulings[0].params["taker"] == 2
    assert ref.status().details["species"][1] == {"rat": 1} and ref.status().to_act == 1


def test_warning_at_three_and_loss_at_four_of_a_species() -> None:
    ref = KakkerlakkenReferee(4)
    offer(ref, 2, "stinkbug")  # the truth, called false: player 3 takes it and starts
    ref.on_input("judge", says_true=False)
    seen(ref, "stinkbug", "centre")
    seen(ref, "stinkbug", "seat2")
    for n in range(2, 5):  # player 3 lies "rat" with stinkbugs; caught each time, he takes them
        assert ref.status().to_act == 2
        offer(ref, 0, "rat")
        ref.on_input("judge", says_true=False)
        rulings = seen(ref, "stinkbug", "seat2")
        assert rulings[0].key == "kakkerlakken.judged_right"
        if n == 3:
            assert rulings[-1].key == "kakkerlakken.warning" and rulings[-1].params["count"] == 3
    assert rulings[-1].key == "kakkerlakken.loses_species"
    assert rulings[-1].params == {"player": 3, "species": "stinkbug", "count": 4}
    status = ref.status()
    assert status.over and status.winners == (0, 1, 3) and status.scores == (1, 1, 0, 1) and ref.inputs() == []


def test_card_laid_before_the_wrong_player_is_flagged() -> None:
    ref = KakkerlakkenReferee(3)
    offer(ref, 2, "frog")
    ref.on_input("judge", says_true=True)
    seen(ref, "frog", "centre")  # right: player 1 takes it
    rulings = seen(ref, "frog", "seat2")
    assert rulings[0].key == "kakkerlakken.wrong_seat" and rulings[0].params == {"player": 1}


def test_empty_hand_loses() -> None:
    ref = KakkerlakkenReferee(4, {"starter": 2})
    rulings = ref.on_input("empty_hand")
    assert rulings[0].key == "kakkerlakken.loses_empty_hand" and rulings[0].params == {"player": 3}
    assert ref.status().winners == (0, 1, 3)


def test_two_players_lose_at_five() -> None:
    quote("la défaite survient dès cinq cartes de la même espèce")
    ref = KakkerlakkenReferee(2)
    for n in range(1, 6):  # player 1 says "rat" with a spider, is caught and takes it each time
        offer(ref, 1, "rat")
        ref.on_input("judge", says_true=False)
        rulings = seen(ref, "spider", "seat0")
        assert ref.status().over == (n == 5)
    assert rulings[-1].key == "kakkerlakken.loses_species" and rulings[-1].params["count"] == 5


def test_sightings_that_are_no_move_are_not_counted_and_unknown_faces_are_ignored() -> None:
    ref = KakkerlakkenReferee(3)
    offer(ref, 1, "bat")
    ref.on_input("judge", says_true=True)
    seen(ref, "bat", "seat1")  # right: player 1 takes it
    seen(ref, "bat", "seat0", "removed")  # a hand passes over it...
    assert seen(ref, "bat", "seat0") == []  # ...and it is seen again: still one bat
    assert ref.status().details["species"][0] == {"bat": 1}
    assert seen(ref, "7H", "seat0") == [] and seen(ref, "rat", "seat2") == []
    assert ref.status().details["species"] == [{"bat": 1}, {}, {}]


def test_card_turned_before_the_judgement_is_flagged() -> None:
    quote("je mag de kaart pas omdraaien nadat je 'waar' of 'niet waar' hebt uitgesproken.")
    ref = KakkerlakkenReferee(3)
    offer(ref, 1, "rat")
    rulings = seen(ref, "rat", "centre")
    assert rulings[0].key == "kakkerlakken.judge_first" and rulings[0].params == {"player": 2}
    assert ref.status().to_act == 1 and [s.action for s in ref.inputs()][:2] == ["judge", "judge"]


def test_a_whole_game_at_the_table_ends_with_one_loser() -> None:
    quote("Si la carte arrive chez le dernier joueur possible, celui-ci est obligé de trancher.")
    quote("S'il a tort, c'est lui qui doit placer la carte face visible devant lui.")
    quote("Ce joueur perd aussitôt la partie.")
    quote("Tous les autres joueurs se partagent alors directement la victoire.")
    ref = KakkerlakkenReferee(3)
    shown: list = []
    # Player 1 says "rat" to player 2, who looks and passes it to player 3 as a "bat": he must judge.
    shown += offer(ref, 1, "rat")
    ref.on_input("pass", choice="2")
    shown += ref.on_input("claim", choice="bat")
    shown += seen(ref, "bat", "centre")  # turned over before "vrai"/"faux"
    shown += ref.on_input("judge", says_true=False)
    shown += seen(ref, "bat", "centre")  # it was a bat: player 3 was wrong and takes it
    shown += seen(ref, "bat", "seat0")  # laid before player 1 by mistake
    assert ref.status().to_act == 2 and ref.status().details["species"] == [{}, {}, {"bat": 1}]
    # Player 3 lies "rat" with bats to player 2 and is caught each time: the fourth bat loses.
    for _ in range(3):
        shown += offer(ref, 1, "rat")
        shown += ref.on_input("judge", says_true=False)
        shown += seen(ref, "bat", "seat2")  # turned over straight before the giver, who takes it
    assert [r.key for r in shown] == [
        "kakkerlakken.offered",
        "kakkerlakken.passed",
        "kakkerlakken.last_must_judge",
        "kakkerlakken.judge_first",
        "kakkerlakken.turn_card",
        "kakkerlakken.judged_wrong",
        "kakkerlakken.wrong_seat",
        *["kakkerlakken.offered", "kakkerlakken.turn_card", "kakkerlakken.judged_right"] * 2,
        "kakkerlakken.warning",
        *["kakkerlakken.offered", "kakkerlakken.turn_card", "kakkerlakken.judged_right"],
        "kakkerlakken.loses_species",
    ]
    assert shown[-1].params == {"player": 3, "species": "bat", "count": 4} and shown[-1].level == "game_over"
    status = ref.status()
    assert status.over and status.winners == (0, 1) and status.scores == (1, 1, 0)
    assert status.expects is None and ref.inputs() == []
