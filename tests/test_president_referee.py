"""Président referee scenarios: combos confirmed in the centre, passes by touch."""

from __future__ import annotations

import itertools
import random

from kiosk.games.base import Ruling
from kiosk.games.hands import UnseenHand
from kiosk.games.president import GiveBack, Pass, Play, President
from kiosk.referee.base import Expect, Observation
from kiosk.referee.president import PresidentReferee
from tests.quotes import decided, seed_says


def lay(ref: PresidentReferee, *cards: str):
    out = []
    for card in cards:
        out += ref.observe(Observation("confirmed", card, "centre"))
    return out


def test_counts_from_the_deal_and_the_dealers_left_leads():
    decided("the dealer's left neighbour leads the first round;")
    ref = PresidentReferee(5)
    assert ref.status().details["hand_counts"] == [11, 11, 10, 10, 10] and ref.status().to_act == 0
    assert ref.status().expects == Expect("president.expect_lead", {"player": 1})


def test_a_lead_of_several_then_as_many_equal_or_higher():
    seed_says("Le premier joueur pose une carte, ou plusieurs de même valeur.")
    seed_says("Chacun à son tour pose autant de cartes, d’une valeur égale ou plus forte, ou passe.")
    ref = PresidentReferee(3)
    assert lay(ref, "5C", "5D") == []  # the leader may still add a third 5
    rulings = lay(ref, "7H")  # another value closes the lead
    assert rulings[0].key == "president.combo_ok" and rulings[0].params["count"] == 2
    rulings = lay(ref, "7S")
    assert rulings[0].key == "president.combo_ok" and rulings[0].params["player"] == 2
    rulings = lay(ref, "6C", "6D")
    assert rulings[0].key == "president.too_low" and rulings[0].params["previous"] == "7"
    assert ref.status().details["hand_counts"] == [16, 15, 17]
    assert ref.status().expects == Expect("president.expect_answer", {"player": 3, "count": 2, "value": "7"})


def test_the_2_beats_the_ace():
    seed_says("Le 2 est la carte la plus forte.")
    ref = PresidentReferee(3)
    lay(ref, "AS")
    ref.on_input("done")
    assert lay(ref, "2H")[0].key == "president.combo_ok"


def test_mixed_values_are_refused():
    ref = PresidentReferee(3)
    lay(ref, "9C")
    ref.on_input("done")
    assert lay(ref, "JC")[0].key == "president.combo_ok"
    ref2 = PresidentReferee(3)
    lay(ref2, "4C", "4D")
    lay(ref2, "9C")  # closes the lead; seat 1 answers a pair
    assert lay(ref2, "8C")[0].key == "president.mixed_values"


def test_when_everyone_passes_the_last_to_play_starts_again_passers_may_replay():
    seed_says("Quand tout le monde passe, le dernier à avoir joué recommence.")
    decided("a player who passed may play again in the same trick;")
    ref = PresidentReferee(3)
    lay(ref, "4C")
    assert ref.on_input("pass")[0].key == "president.combo_ok"  # closes the lead, seat 1 passes
    lay(ref, "6C")  # seat 2
    ref.on_input("pass")  # seat 0
    assert ref.status().to_act == 1
    assert lay(ref, "9C")[0].key == "president.combo_ok"  # seat 1 passed, plays again
    ref.on_input("pass")
    rulings = ref.on_input("pass")
    assert rulings[-1].key == "president.trick_won" and rulings[-1].params["next"] == 2
    assert ref.status().to_act == 1 and ref.inputs() == []


def test_president_balayeur_and_the_best_card_reminder():
    seed_says(
        "Le premier qui se débarrasse de ses cartes devient Président, le dernier devient "
        "Balayeur : à la manche suivante, il donne sa meilleure carte au Président."
    )
    decided("the Président gives nothing back (option).")
    ref = PresidentReferee(3, {"rounds": 2})
    ref.engine.hands = [UnseenHand(1), UnseenHand(1), UnseenHand(3)]
    lay(ref, "KC")
    ref.on_input("done")  # seat 0 out
    ref.on_input("pass")
    ref.on_input("pass")  # seat 0 is out: seat 1 leads
    rulings = lay(ref, "3C")
    rulings += ref.on_input("done")
    keys = [r.key for r in rulings]
    assert "president.roles" in keys and "president.give_best_card" in keys
    assert "president.give_back_reminder" not in keys
    roles = next(r for r in rulings if r.key == "president.roles").params
    assert roles == {"president": 1, "balayeur": 3}
    assert ref.status().scores == (1, 0, 0) and ref.status().to_act == 0
    assert ref.status().details["hand_counts"] == [19, 17, 16]  # seat 2 dealt from seat 0, then gave a card


def test_the_option_reminds_the_president_to_give_back():
    ref = PresidentReferee(3, {"president_gives_back": True})
    ref.engine.hands = [UnseenHand(1), UnseenHand(1), UnseenHand(3)]
    lay(ref, "KC")
    ref.on_input("pass")  # closes the lead; seat 0 is out, seat 1 passes
    ref.on_input("pass")  # seat 2: seat 1 leads
    rulings = lay(ref, "3C") + ref.on_input("done")
    assert "president.give_back_reminder" in [r.key for r in rulings]
    assert ref.status().details["hand_counts"] == [18, 17, 17]  # a card each way: as dealt


def test_manneken_out_and_the_leader_cannot_pass():
    ref = PresidentReferee(4)
    assert lay(ref, "JK1")[0].key == "president.manneken_out"
    assert ref.on_input("pass")[0].key == "president.must_lead"


def show(game: President, ref: PresidentReferee, move) -> list[Ruling]:
    """Play ``move`` in the dealt game and report to the referee what the table shows of it."""
    leading = game.previous is None
    game.play(move)
    if isinstance(move, GiveBack):
        return []  # a card passed from hand to hand: the table cannot see it
    if isinstance(move, Pass):
        return ref.on_input("pass")
    assert isinstance(move, Play)
    rulings = lay(ref, *move.cards)
    return rulings + (ref.on_input("done") if leading and len(move.cards) < 4 else [])


def test_whole_dealt_games_reach_the_same_end_at_the_table():
    seed_says(
        "Le premier qui se débarrasse de ses cartes devient Président, le dernier devient "
        "Balayeur : à la manche suivante, il donne sa meilleure carte au Président."
    )
    decided("a player who passed may play again in the same trick;")
    for players, seed, gives_back in itertools.product((3, 5, 7), range(2), (False, True)):
        options = {"rounds": 2, "president_gives_back": gives_back}
        game, ref = President(players, random.Random(seed), options), PresidentReferee(players, options, seed)
        shown: list[Ruling] = []
        while not game.over:
            shown += show(game, ref, game.bot_move())
            if game.owed is None and not game.over:
                assert ref.status().details["hand_counts"] == [len(h) for h in game.hands]
                assert ref.status().to_act == game.to_act
        assert all(r.level != "violation" for r in shown), [r for r in shown if r.level == "violation"]
        status = ref.status()
        assert status.over and status.winners == tuple(game.winners()) and status.scores == tuple(game.scores())
        keys = [r.key for r in shown]
        assert keys.count("president.roles") == 2 and keys[-1] == "president.game_over"
        assert keys.count("president.give_back_reminder") == (1 if gives_back else 0)
