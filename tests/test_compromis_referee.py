"""The Compromis referee fed with table observations: governments judged from the 6 cards laid in a
seat's zone, special cards set aside, discards, turns, skips and the score."""

from __future__ import annotations

from kiosk.modes.games import game_info
from kiosk.modes.referee import RefereeMode
from kiosk.referee.base import Expect, Observation
from kiosk.referee.compromis import CompromisReferee
from kiosk.referee.registry import available_referees
from kiosk.table import CardEvent, SeenCard, TableView
from tests.quotes import decided, seed_says


def lay(ref: CompromisReferee, zone: str, *cards: str) -> list:
    rulings = []
    for card in cards:
        rulings += ref.observe(Observation("confirmed", card, zone))
    return rulings


def keys(rulings) -> list[str]:
    return [r.key for r in rulings]


def start(ref: CompromisReferee, card: str = "6S") -> list:
    """The table turns the first card of the draw pile onto the discard pile."""
    return lay(ref, "discard", card)


def test_layout_has_a_zone_per_seat_and_the_piles():
    assert CompromisReferee.layout(4).names == (
        "seat0",
        "seat1",
        "seat2",
        "seat3",
        "draw",
        "discard",
        "aside",
    )
    assert available_referees()["compromis"] is CompromisReferee


def test_the_seed_example_laid_down_is_a_government():
    seed_says(
        "Exemple : Lier (3) + Villers-la-Ville (3), De Panne (4) + Arlon (4), Laeken (7) + Spa "
        "(7) : "
        "c’est un gouvernement !"
    )
    ref = CompromisReferee(3)
    ref.on_input("call", seat=1)
    rulings = lay(ref, "seat1", "3H", "3C", "4H", "4C", "7S", "7H")
    assert keys(rulings) == ["compromis.government_ok", "compromis.king_prompt"]
    assert rulings[0].level == "score" and ref.status().scores == (0, 1, 0)


def test_two_coqs_are_not_a_pair_and_the_author_skips_his_next_turn():
    seed_says("Un gouvernement faux ? Son auteur reprend ses cartes et passe son prochain tour.")
    ref = CompromisReferee(3)
    start(ref)
    rulings = lay(ref, "seat0", "3C", "3D", "4H", "4C", "7S", "7H")
    assert [(r.key, r.params.get("card_a"), r.params.get("card_b")) for r in rulings] == [
        ("compromis.gov_two_coqs", "3C", "3D"),
        ("compromis.gov_false", None, None),
    ]
    assert all(r.level == "violation" for r in rulings) and ref.status().scores == (0, 0, 0)
    for card in ("3C", "3D", "4H", "4C", "7S", "7H"):  # the cards go back to hand
        ref.observe(Observation("removed", card, "seat0"))
    lay(ref, "discard", "QC")  # seat 0 ends the turn
    lay(ref, "discard", "QD")  # seat 1
    rulings = lay(ref, "discard", "QH")  # seat 2; seat 0 is skipped
    assert keys(rulings) == ["compromis.discarded", "compromis.turn_skipped", "compromis.your_turn"]
    assert ref.status().to_act == 1


def test_laeken_playing_both_roles_is_not_a_government():
    seed_says("Laeken peut-il être flamand et wallon en même temps ? Non")
    ref = CompromisReferee(2)
    rulings = lay(ref, "seat0", "7S", "7H", "7C", "5H", "5C", "5D")
    assert [(r.key, r.params.get("card")) for r in rulings][:2] == [
        ("compromis.gov_both_roles", "5H"),
        ("compromis.gov_both_roles", "7S"),
    ]


def test_a_king_shown_after_the_government_adds_one_bonus_point():
    seed_says("Un gouvernement rapporte 1 point, 2 avec un Roi.")
    ref = CompromisReferee(3)
    lay(ref, "seat2", "3H", "3C", "4H", "4C", "7S", "7H")
    assert keys(lay(ref, "seat2", "KD")) == ["compromis.king_bonus"]
    assert lay(ref, "seat2", "KH") == []  # one bonus only
    assert ref.status().scores == (0, 0, 2)


def test_forgetting_the_call_is_reminded():
    seed_says("Ton gouvernement compte quand même… mais tu paies les frites.")
    ref = CompromisReferee(3)
    rulings = lay(ref, "seat1", "3H", "3C", "4H", "4C", "7S", "7H")
    assert "compromis.forgot_call" in keys(rulings) and ref.status().scores[1] == 1


def test_specials_set_aside_are_announced_and_never_go_on_the_discard_pile():
    seed_says(
        "Un As ou un Manneken-Pis se joue à la place de ta défausse (un seul par tour) et se "
        "pose à part : "
        "il ne va jamais dans la défausse."
    )
    ref = CompromisReferee(3)
    start(ref)
    assert keys(lay(ref, "aside", "JK1")) == ["compromis.special_manneken", "compromis.your_turn"]
    assert [r.level for r in lay(ref, "discard", "AH")] == ["violation"]
    assert keys(lay(ref, "aside", "QS")) == ["compromis.illegal_not_special"]


def test_first_game_specials_are_discarded_not_played():
    seed_says("Pour la première partie, jouez sans les cartes spéciales : on les défausse simplement.")
    ref = CompromisReferee(3, {"first_game": True})
    start(ref)
    assert keys(lay(ref, "aside", "AS")) == ["compromis.illegal_first_game"]
    assert keys(lay(ref, "discard", "AS")) == ["compromis.discarded", "compromis.your_turn"]


def test_the_tables_own_special_effects_are_refereed():
    ref = CompromisReferee(3, {"specials": {"AS": "andenne"}})
    start(ref)
    assert keys(lay(ref, "aside", "AH")) == ["compromis.illegal_dead_card"]
    assert keys(lay(ref, "discard", "AH")) == ["compromis.discarded", "compromis.your_turn"]  # dead: seat 1 next
    rulings = lay(ref, "aside", "AS")
    assert keys(rulings)[:2] == ["compromis.special_andenne", "compromis.andenne_skip"]
    assert ref.status().to_act == 0  # seat 2 skipped


def test_turns_follow_discards_with_binche_doudou_and_andenne():
    decided("every other player draws the top card of the draw pile and then discards one card.")
    ref = CompromisReferee(3)
    assert ref.status().expects == Expect("compromis.expect_first_card", {"player": 0})
    start(ref)
    assert ref.status().expects == Expect("compromis.expect_turn", {"player": 0})
    lay(ref, "discard", "QC")  # seat 0 discards
    assert ref.status().to_act == 1
    rulings = lay(ref, "aside", "AD")  # seat 1: Binche, seats 2 and 0 draw and owe a discard
    assert [(r.key, r.params["player"]) for r in rulings] == [
        ("compromis.special_binche", 1),
        ("compromis.binche_draw", 2),
    ]
    assert ref.status().expects == Expect("compromis.expect_discard", {"player": 2})
    assert keys(lay(ref, "discard", "QD")) == ["compromis.discarded", "compromis.binche_draw"]
    assert ref.status().to_act == 0
    lay(ref, "discard", "QH")
    assert ref.status().to_act == 2
    lay(ref, "aside", "AS")  # seat 2: Doudou takes the top (QH) and swaps
    assert ref.observe(Observation("removed", "QH", "discard")) == []
    assert ref.status().to_act == 2
    lay(ref, "discard", "9C")
    assert ref.status().to_act == 0
    rulings = lay(ref, "aside", "AC")  # seat 0: Andenne, seat 1 skips
    assert "compromis.andenne_skip" in keys(rulings) and ref.status().to_act == 2


def test_doudou_on_an_empty_discard_pile_ends_the_turn():
    seed_says("Le Doudou, si la défausse est vide ? Il ne se passe rien")
    ref = CompromisReferee(2)
    start(ref)
    rulings = ref.observe(Observation("removed", "6S", "discard"))  # seat 0 takes the only discard
    assert keys(rulings) == ["compromis.took_discard"]
    rulings = lay(ref, "aside", "AS")
    assert "compromis.doudou_empty" in keys(rulings) and ref.status().to_act == 1


def test_andenne_with_two_players_plays_again():
    seed_says("Andenne à 2 joueurs ? Ton adversaire passe son tour : tu rejoues immédiatement.")
    ref = CompromisReferee(2)
    start(ref)
    lay(ref, "aside", "AC")
    assert ref.status().to_act == 0


def test_the_discard_just_taken_cannot_go_back():
    decided("Taking the top discard and discarding it again the same turn is not allowed.")
    ref = CompromisReferee(3)
    start(ref)
    lay(ref, "discard", "QC")
    ref.observe(Observation("removed", "QC", "discard"))  # seat 1 takes it...
    assert keys(lay(ref, "discard", "QC")) == ["compromis.illegal_same_discard"]


def test_match_won_at_three_the_last_pays_and_the_next_round_starts_left_of_the_winner():
    seed_says("Le premier à 3 points (4 à 2 joueurs) devient Premier ministre… et le dernier paie les frites.")
    seed_says("le voisin de gauche du gagnant commence la manche suivante.")
    ref = CompromisReferee(3)
    for round_ in range(3):
        ref.on_input("call", seat=1)
        rulings = lay(ref, "seat1", "3H", "3C", "4H", "4C", "7S", "7H")
        if round_ < 2:
            assert keys(ref.on_input("next_round")) == ["compromis.round_start"]
            assert ref.status().to_act == 2
    assert "compromis.match_won" in keys(rulings)
    assert [r.params["player"] for r in rulings if r.key == "compromis.frites"] == [0, 2]
    status = ref.status()
    assert status.over and status.winners == (1,) and status.scores == (0, 3, 0) and ref.inputs() == []


def test_what_the_camera_cannot_see_is_not_judged():
    ref = CompromisReferee(3)
    assert lay(ref, "draw", "3H") == [] and lay(ref, None, "3C") == []
    assert lay(ref, "seat0", "3H", "3C", "4H") == []  # fewer than 6: nothing to judge yet
    assert [s.action for s in ref.inputs()] == ["call", "call", "call"]
    assert keys(ref.on_input("next_round")) == ["compromis.input_refused"]


def test_session_routes_table_events_to_the_zones():
    session = RefereeMode(game_info("compromis"), 3)
    layout = session.layout
    cards = ["3H", "3C", "4H", "4C", "7S", "7H"]
    events = tuple(
        CardEvent("confirmed", SeenCard(i, c, 0.99, ((0, 0),) * 4, layout["seat2"].centre)) for i, c in enumerate(cards)
    )
    rulings = session.on_view(TableView(frame_index=1, timestamp=0.0, events=events))
    assert "compromis.government_ok" in keys(rulings) and session.status().scores == (0, 0, 1)


def test_a_whole_match_at_the_table_ends_with_the_prime_minister_and_the_frites():
    seed_says("Un gouvernement rapporte 1 point, 2 avec un Roi.")
    seed_says("Le premier à 3 points (4 à 2 joueurs) devient Premier ministre… et le dernier paie les frites.")
    seed_says("Les autres vérifient. Un gouvernement faux ? Son auteur reprend ses cartes et passe son prochain tour.")
    ref = CompromisReferee(3)

    def said(rulings) -> list[tuple[str, object]]:
        return [(r.key, r.params.get("player")) for r in rulings]

    # Round 1, seat 0 starts: a take from the discard pile, Binche, then seat 0's government and a King.
    assert said(start(ref)) == [("compromis.your_turn", 0)]
    assert said(lay(ref, "discard", "QC")) == [("compromis.discarded", 0), ("compromis.your_turn", 1)]
    assert said(ref.observe(Observation("removed", "QC", "discard"))) == [("compromis.took_discard", 1)]
    assert said(lay(ref, "discard", "9D")) == [("compromis.discarded", 1), ("compromis.your_turn", 2)]
    assert said(lay(ref, "aside", "AD")) == [("compromis.special_binche", 2), ("compromis.binche_draw", 0)]
    assert said(lay(ref, "discard", "QD")) == [("compromis.discarded", 0), ("compromis.binche_draw", 1)]
    assert said(lay(ref, "discard", "QH")) == [("compromis.discarded", 1), ("compromis.your_turn", 0)]
    ref.on_input("call", seat=0)
    rulings = lay(ref, "seat0", "3H", "3C", "4H", "4C", "7S", "7H")
    assert said(rulings) == [("compromis.government_ok", 0), ("compromis.king_prompt", 0)]
    assert said(lay(ref, "seat0", "KD")) == [("compromis.king_bonus", 0)]
    assert ref.status().scores == (2, 0, 0)
    assert [s.action for s in ref.inputs()] == ["call", "call", "call", "next_round"]
    assert said(ref.on_input("next_round")) == [("compromis.round_start", 1)]
    # Round 2, seat 1 starts: his false government costs him his next turn; seat 2 governs.
    start(ref, "8S")
    rulings = lay(ref, "seat1", "5H", "5D", "6H", "6C", "9H", "9S")
    assert rulings[-1].key == "compromis.gov_false" and {r.level for r in rulings} == {"violation"}
    for card in ("5H", "5D", "6H", "6C", "9H", "9S"):
        ref.observe(Observation("removed", card, "seat1"))
    assert said(lay(ref, "discard", "QS")) == [("compromis.discarded", 1), ("compromis.your_turn", 2)]
    assert said(lay(ref, "discard", "JC")) == [("compromis.discarded", 2), ("compromis.your_turn", 0)]
    assert said(lay(ref, "discard", "JD")) == [
        ("compromis.discarded", 0),
        ("compromis.turn_skipped", 1),
        ("compromis.your_turn", 2),
    ]
    ref.on_input("call", seat=2)
    assert said(lay(ref, "seat2", "2H", "2C", "8H", "8C", "9C", "9D"))[0] == ("compromis.government_ok", 2)
    assert said(ref.on_input("next_round")) == [("compromis.round_start", 0)]
    # Round 3, seat 0 starts and governs at once, forgetting to shout: 3 points, seat 1 is last.
    start(ref, "10S")
    rulings = lay(ref, "seat0", "3S", "3D", "4S", "4D", "10H", "10C")
    assert said(rulings) == [
        ("compromis.government_ok", 0),
        ("compromis.king_prompt", 0),
        ("compromis.forgot_call", 0),
        ("compromis.match_won", 0),
        ("compromis.frites", 1),
    ]
    status = ref.status()
    assert status.over and status.winners == (0,) and status.scores == (3, 0, 1) and status.expects is None
    assert ref.inputs() == [] and lay(ref, "discard", "QC") == []
