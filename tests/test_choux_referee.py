"""The Choux referee fed with table observations: pairs laid in a seat's zone, colour mistakes,
the Choux laid too early, the naming variant and the Puant."""

from __future__ import annotations

from kiosk.games.choux import choux_deck, is_pair
from kiosk.referee.base import Expect, Observation
from kiosk.referee.choux import ChouxReferee
from kiosk.referee.registry import available_referees
from tests.quotes import seed_says


def lay(ref: ChouxReferee, zone: str, *cards: str) -> list:
    rulings = []
    for card in cards:
        rulings += ref.observe(Observation("confirmed", card, zone))
    return rulings


def keys(rulings) -> list[str]:
    return [r.key for r in rulings]


def all_pairs() -> list[tuple[str, str]]:
    ids = [c for c in choux_deck().ids if c != "JS"]
    return [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :] if is_pair(a, b)]


def test_layout_is_one_zone_per_seat():
    assert ChouxReferee.layout(3).names == ("seat0", "seat1", "seat2")
    assert available_referees()["choux"] is ChouxReferee


def test_the_seed_examples_are_pairs():
    seed_says(
        "Exemples : Villers-la-Ville (3 ♣) + Ieper (3 ♠) · Lier (3 ♥) + Nivelles (3 ♦) · "
        "Anvers (Roi ♣) + Eupen (Roi ♠)."
    )
    ref = ChouxReferee(3)
    rulings = lay(ref, "seat0", "3C", "3S", "3H", "3D") + lay(ref, "seat2", "KC", "KS")
    assert keys(rulings) == ["choux.pair"] * 3
    assert ref.status().details["pairs"] == [2, 0, 1] and ref.status().scores == (0, 0, 0)


def test_same_value_other_colour_is_called_out():
    seed_says(
        "Une paire, ce sont deux cartes de même valeur et de même couleur : deux noires (♣ et ♠) "
        "ou "
        "deux rouges (♥ et ♦)."
    )
    ref = ChouxReferee(3)
    rulings = lay(ref, "seat1", "3C", "3H")
    assert [(r.key, r.level, r.params["card_a"], r.params["card_b"]) for r in rulings] == [
        ("choux.not_pair_colour", "violation", "3C", "3H")
    ]
    assert keys(lay(ref, "seat1", "3S")) == ["choux.pair"]  # 3C finds its black partner


def test_cards_laid_in_any_order_still_pair_up():
    ref = ChouxReferee(2)
    assert keys(lay(ref, "seat0", "5C", "8H", "5S", "8D")) == ["choux.pair", "choux.pair"]


def test_the_choux_never_pairs_until_it_reveals_the_puant():
    seed_says("Les Choux de Bruxelles (Valet de ♠) restent seuls : ils ne pourront jamais faire de paire.")
    seed_says("Le dernier joueur, celui qui garde les Choux de Bruxelles, est le Puant !")
    ref = ChouxReferee(3)
    assert keys(lay(ref, "seat1", "JS")) == ["choux.never_pairs"]
    ref.observe(Observation("removed", "JS", "seat1"))
    rulings = []
    for i, pair in enumerate(all_pairs()):
        rulings += lay(ref, f"seat{i % 3}", *pair)
    assert ref.status().details["pairs_down"] == 24 and keys(rulings)[-1] == "choux.all_pairs"
    assert [s.action for s in ref.inputs()] == ["puant"] * 3
    assert ref.status().expects == Expect("choux.expect_choux")
    assert keys(lay(ref, "seat1", "JS")) == ["choux.puant", "choux.match_won", "choux.match_won"]
    status = ref.status()
    assert status.over and status.winners == (0, 2) and status.scores == (1, 0, 1) and status.expects is None


def test_naming_variant_counts_a_pair_once_a_place_is_named():
    seed_says(
        "Variante : pour poser une paire, il faut dire le nom d’un des deux lieux. Une erreur ? "
        "La paire "
        "reste en main jusqu’au tour suivant."
    )
    ref = ChouxReferee(3, {"naming": True})
    assert keys(lay(ref, "seat0", "3C", "3S")) == ["choux.name_it"]
    assert [(s.action, s.params["seat"]) for s in ref.inputs()] == [("name", 0)]
    assert keys(ref.on_input("name", seat=0, text="Gand")) == ["choux.named_wrong"]
    assert ref.status().details["pairs_down"] == 0
    for card in ("3C", "3S"):  # back in hand
        ref.observe(Observation("removed", card, "seat0"))
    assert keys(lay(ref, "seat0", "3S", "3C")) == ["choux.name_it"]
    assert keys(ref.on_input("name", seat=0, text="Ypres")) == ["choux.named_right", "choux.pair"]
    assert ref.status().details["pairs_down"] == 1


def test_the_opening_follows_the_odd_hand_of_the_deal():
    seed_says(
        "Comptez vos cartes : un seul joueur en a un nombre impair. C’est chez lui qu’on tire la "
        "première "
        "carte : son voisin de gauche commence."
    )
    # 49 cards to 3 players from seat 1 (the dealer 0's left): 17, 16, 16 -> seat 1 is odd.
    assert ChouxReferee(3).status().details["opening"] == {"player": 2, "giver": 1}
    assert ChouxReferee(7, {"dealer": 3}).status().details["opening"] == {"player": 4, "giver": 3}


def test_the_referee_does_not_claim_to_follow_the_draws():
    ref = ChouxReferee(3)
    assert ref.status().to_act is None and ref.status().expects == Expect("choux.expect_pairs")
    assert lay(ref, "centre", "3C") == [] and keys(ref.on_input("puant", seat=0)) == ["choux.input_refused"]


def test_a_whole_match_of_two_rounds_at_the_table():
    seed_says("On continue jusqu’à ce que toutes les paires soient posées.")
    seed_says("Le dernier joueur, celui qui garde les Choux de Bruxelles, est le Puant ! Il mélange et distribue")
    ref = ChouxReferee(3, {"rounds": 2})
    pairs = all_pairs()

    def said(rulings) -> list[tuple[str, object]]:
        return [(r.key, r.params.get("player")) for r in rulings]

    # Round 1: a colour mistake, the Choux laid too early, then every pair down and seat 1's Choux.
    assert said(lay(ref, "seat1", "3C", "3H")) == [("choux.not_pair_colour", 1)]
    assert said(lay(ref, "seat1", "JS")) == [("choux.never_pairs", 1)]
    ref.observe(Observation("removed", "JS", "seat1"))
    assert said(lay(ref, "seat1", "3S")) == [("choux.pair", 1)]  # 3C finds its black partner
    rulings = []
    for i, pair in enumerate(p for p in pairs if "3C" not in p):
        rulings += lay(ref, f"seat{i % 3}", *pair)
    assert said(rulings).count(("choux.pair", 0)) == 8 and said(rulings)[-1] == ("choux.all_pairs", None)
    rulings = lay(ref, "seat1", "JS")
    assert [r.key for r in rulings] == ["choux.puant", "choux.round_start", "choux.turn"]
    assert rulings[1].params == {"round": 2, "by": 1} and rulings[2].params == {"player": 0, "giver": 2}
    assert ref.status().scores == (1, 0, 1) and not ref.status().over
    # Round 2, dealt by the Puant: the mat starts empty again; seat 2 keeps the Choux.
    assert ref.status().details["pairs_down"] == 0 and ref.status().expects == Expect("choux.expect_pairs")
    for i, pair in enumerate(pairs):
        lay(ref, f"seat{i % 3}", *pair)
    assert said(lay(ref, "seat2", "JS")) == [("choux.puant", 2), ("choux.match_won", None)]
    status = ref.status()
    assert status.over and status.winners == (0,) and status.scores == (2, 1, 1) and ref.inputs() == []
