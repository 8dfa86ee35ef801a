"""Kakkerlakkenpoker engine: scenarios from seed 003_55f06b0835a16e62.txt."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kiosk.games.base import IllegalMove
from kiosk.games.kakkerlakken import EmptyHand, Judge, Kakkerlakken, Offer, Pass, Reveal, Slide, species_of
from tests.quotes import Quotes

SEED = "003_55f06b0835a16e62.txt"
quote = Quotes(SEED)


def game(players: int = 4, **options: object) -> Kakkerlakken:
    return Kakkerlakken(players, random.Random(1), options)


def rig(g: Kakkerlakken, seat: int, hand: list[str], front: tuple[str, ...] | list[str] = ()) -> None:
    """Give ``seat`` exactly these cards; what it held goes to the next seat's hand (no card lost)."""
    wanted = set(hand) | set(front)
    for other in range(g.players):
        g.hands[other] = [c for c in g.hands[other] if c not in wanted]
        g.front[other] = [c for c in g.front[other] if c not in wanted]
    g.aside = [c for c in g.aside if c not in wanted]
    g.hands[(seat + 1) % g.players] += g.hands[seat] + g.front[seat]
    g.hands[seat] = list(hand)
    g.front[seat] = list(front)
    assert len(g.card_locations()) == 64


def test_deal_all_64_cards_as_evenly_as_possible() -> None:
    quote("Distribuez ensuite toutes les cartes face cachée et le plus équitablement possible entre tous les joueurs.")
    for players in range(3, 7):
        g = game(players)
        sizes = [len(h) for h in g.hands]
        assert sum(sizes) == 64 and max(sizes) - min(sizes) <= 1
        assert sorted(c for c, _ in g.card_locations()) == sorted(f"{sp}-{n}" for sp in g.species for n in range(1, 9))


def test_right_judgement_giver_takes_the_card_and_starts() -> None:
    quote("S'il a raison, le donneur récupère la carte et la pose face visible devant lui.")
    g = game()
    rig(g, 0, ["rat-1", "fly-1", "bat-1"])
    g.play(Offer("rat-1", 2, "fly"))  # a lie
    rulings = g.play(Judge(False))  # "faux": right
    assert rulings[0].key == "kakkerlakken.judged_right"
    assert g.front[0] == ["rat-1"] and g.to_act == 0


def test_wrong_judgement_receiver_takes_the_card_and_starts_next() -> None:
    quote("S'il a tort, c'est lui qui doit placer la carte face visible devant lui.")
    quote("La personne qui doit poser la carte face visible devant elle commence le tour suivant.")
    g = game()
    rig(g, 0, ["rat-1", "fly-1"])
    g.play(Offer("rat-1", 3, "rat"))  # the truth
    rulings = g.play(Judge(False))  # "faux": wrong
    assert rulings[0].key == "kakkerlakken.judged_wrong"
    assert rulings[0].params["taker"] == 4
    assert g.front[3] == ["rat-1"] and g.to_act == 3 and g.current is None


def test_pass_only_to_players_who_have_not_seen_the_card() -> None:
    quote(
        "il regarde discrètement la carte et la fait glisser face cachée vers un autre joueur qui "
        "ne l'a pas encore vue."
    )
    quote("een kaart mag per ronde slechts één keer bij elke speler langskomen.")
    g = game(4)
    rig(g, 0, ["spider-1", "fly-1"])
    g.play(Offer("spider-1", 1, "spider"))
    assert g.pass_targets() == [2, 3]
    with pytest.raises(IllegalMove) as exc:
        g.play(Pass(0, "bat"))  # the first giver has seen it
    assert exc.value.key == "kakkerlakken.already_seen"
    g.play(Pass(2, "bat"))
    with pytest.raises(IllegalMove):
        g.play(Pass(1, "bat"))  # the passer has looked at it
    assert g.pass_targets() == [3]


def test_last_possible_receiver_must_judge() -> None:
    quote("Si la carte arrive chez le dernier joueur possible, celui-ci est obligé de trancher.")
    g = game(3)
    rig(g, 0, ["frog-1", "fly-1"])
    g.play(Offer("frog-1", 1, "frog"))
    rulings = g.play(Pass(2, "bat"))
    assert rulings[-1].key == "kakkerlakken.last_must_judge"
    assert g.legal_moves() == [Judge(True), Judge(False)]
    with pytest.raises(IllegalMove) as exc:
        g.play(Pass(0, "bat"))
    assert exc.value.key == "kakkerlakken.must_judge"
    g.play(Judge(True))  # "vrai" about "bat": wrong, the judge takes it
    assert g.front[2] == ["frog-1"] and g.to_act == 2


def test_right_judge_after_a_pass_makes_the_last_passer_take_it() -> None:
    g = game(4)
    rig(g, 0, ["bat-1", "fly-1"])
    g.play(Offer("bat-1", 1, "bat"))
    g.play(Pass(3, "rat"))
    g.play(Judge(False))  # right: it is not a rat
    assert g.front[1] == ["bat-1"] and g.to_act == 1


def test_loss_at_the_fourth_card_of_one_species() -> None:
    quote(
        "La partie prend immédiatement fin dès qu'un joueur doit poser devant lui sa quatrième "
        "carte d'une même espèce animale"
    )
    g = game(4)
    rig(g, 1, ["fly-1"], front=["rat-1", "rat-2", "rat-3", "bat-1", "bat-2"])
    rig(g, 0, ["rat-4", "fly-2"])
    g.play(Offer("rat-4", 1, "rat"))
    rulings = g.play(Judge(False))
    assert rulings[-1].key == "kakkerlakken.loses_species"
    assert rulings[-1].params == {"player": 2, "species": "rat", "count": 4}
    assert g.over and g.winners() == [0, 2, 3] and g.scores() == [1, 0, 1, 1]
    assert g.legal_moves() == []


def test_four_different_cards_do_not_lose() -> None:
    quote("je verliest pas als je 4 kaarten van exact dezelfde diersoort hebt verzameld")
    g = game(4)
    rig(g, 1, ["fly-1"], front=["rat-1", "bat-1", "frog-1"])
    rig(g, 0, ["spider-1", "fly-2"])
    g.play(Offer("spider-1", 1, "spider"))
    g.play(Judge(False))
    assert not g.over and len(g.front[1]) == 4


def test_warning_at_three_of_a_kind() -> None:
    g = game(4)
    rig(g, 2, ["fly-1"], front=["stinkbug-1", "stinkbug-2"])
    rig(g, 0, ["stinkbug-3", "fly-2"])
    g.play(Offer("stinkbug-3", 2, "stinkbug"))
    rulings = g.play(Judge(False))
    assert rulings[-1].key == "kakkerlakken.warning" and rulings[-1].params["count"] == 3


def test_loss_with_an_empty_hand_when_one_must_start() -> None:
    quote(
        "le jeu s'arrête sur-le-champ si c'est au tour d'un joueur de lancer une nouvelle manche "
        "en jouant une carte de sa main, mais qu'il n'en possède plus aucune."
    )
    g = game(3)
    rig(g, 0, ["bat-1", "fly-1"])
    rig(g, 1, [])
    g.play(Offer("bat-1", 1, "fly"))
    rulings = g.play(Judge(True))  # wrong: player 2 takes it and must start, with no card
    assert rulings[-1].key == "kakkerlakken.loses_empty_hand"
    assert g.over and g.winners() == [0, 2]


def test_receiver_cannot_offer_and_starter_cannot_judge() -> None:
    g = game(3)
    with pytest.raises(IllegalMove):
        g.play(Judge(True))
    card = g.hands[0][0]
    with pytest.raises(IllegalMove):
        g.play(Offer(card, 0, "rat"))  # to oneself
    with pytest.raises(IllegalMove):
        g.play(Offer(card, 1, "unicorn"))
    with pytest.raises(IllegalMove):
        g.play(Offer(g.hands[1][0], 1, "rat"))  # not in the starter's hand
    g.play(Offer(card, 1, "rat"))
    with pytest.raises(IllegalMove):
        g.play(Offer(g.hands[0][0], 2, "rat"))


def test_two_player_variant_sets_cards_aside_and_loses_at_five() -> None:
    quote(
        "Pour une partie à deux joueurs, il existe une variante officielle : vous écartez au "
        "préalable un certain nombre de cartes au hasard et la défaite survient dès cinq cartes "
        "de la même espèce"
    )
    g = game(2)
    assert len(g.aside) == 16 and len(g.hands[0]) == len(g.hands[1]) == 24
    # only one move: the receiver can never pass, the giver has seen the card
    g.play(Offer(g.hands[0][0], 1, "rat"))
    assert all(isinstance(m, Judge) for m in g.legal_moves())
    g2 = game(2, aside=0)  # every species fully in play: five loses, four does not
    rig(g2, 1, ["fly-1"], front=["rat-1", "rat-2", "rat-3"])
    rig(g2, 0, ["rat-4", "rat-5", "fly-2"])
    g2.play(Offer("rat-4", 1, "rat"))
    g2.play(Judge(False))
    assert not g2.over
    g2.starter = 0
    g2.play(Offer("rat-5", 1, "rat"))
    rulings = g2.play(Judge(False))
    assert g2.over and rulings[-1].params["count"] == 5


def test_two_player_variant_loses_with_every_card_of_a_species_in_play() -> None:
    quote("ou dès qu'un joueur possède toutes les cartes d'une même espèce.")
    g = game(2)
    counts = Counter(species_of(c) for c in g.aside)
    sp, n = counts.most_common(1)[0]  # the species with the most cards aside: 8 - n in play
    remaining = [c for c in (f"{sp}-{i}" for i in range(1, 9)) if c not in g.aside]
    assert len(remaining) == 8 - n < 5
    others = [c for c in g.hands[0] + g.hands[1] if species_of(c) != sp]
    rig(g, 1, others[:1], front=remaining[:-1])
    rig(g, 0, [remaining[-1], others[1]])
    g.play(Offer(remaining[-1], 1, sp))
    rulings = g.play(Judge(False))
    assert g.over and rulings[-1].params == {"player": 2, "species": sp, "count": len(remaining)}


def table(players: int = 3, **options: object) -> Kakkerlakken:
    return Kakkerlakken(players, random.Random(1), options, at_table=True)


@pytest.mark.parametrize("move", [Slide(1, "rat"), Reveal("rat"), EmptyHand()])
def test_the_table_moves_are_refused_by_a_dealing_engine(move: object) -> None:
    with pytest.raises(IllegalMove) as exc:
        game(3).play(move)
    assert exc.value.key == "kakkerlakken.table_only"


def test_at_the_table_the_judgement_waits_for_the_card_to_be_turned_over() -> None:
    quote("je mag de kaart pas omdraaien nadat je 'waar' of 'niet waar' hebt uitgesproken.")
    g = table()
    assert g.card_locations() == [] and g.legal_moves()[-1] == EmptyHand()
    with pytest.raises(IllegalMove) as exc:
        g.play(Offer("rat-1", 1, "rat"))  # the hands are unseen: no card is known to be in one
    assert exc.value.key == "kakkerlakken.not_in_hand"
    g.play(Slide(1, "rat"))
    with pytest.raises(IllegalMove) as exc:
        g.play(Reveal("rat"))
    assert exc.value.key == "kakkerlakken.judge_first" and exc.value.params == {"player": 2}
    assert [r.key for r in g.play(Judge(False))] == ["kakkerlakken.turn_card"]
    assert g.legal_moves() == [Reveal(sp) for sp in g.species] and g.expects()[0] == "kakkerlakken.expect_reveal"
    with pytest.raises(IllegalMove) as exc:
        g.play(Pass(2, "bat"))  # the card is being turned over
    assert exc.value.key == "kakkerlakken.turn_card"
    rulings = g.play(Reveal("rat"))  # the truth called false: the judge takes it
    assert rulings[0].key == "kakkerlakken.judged_wrong" and g.front[1] == ["rat"] and g.to_act == 1


def test_at_the_table_an_empty_hand_is_declared_and_five_loses_with_two_players() -> None:
    quote("la défaite survient dès cinq cartes de la même espèce")
    g = table(2)
    assert g.in_play_counts is None and g.aside == []  # the cards set aside stay face down
    for _ in range(4):
        g.play(Slide(1, "rat"))
        g.play(Judge(True))
        g.play(Reveal("bat"))  # wrong: seat 1 takes a bat and starts
        g.starter = 0
    assert not g.over and g.species_counts(1) == {"bat": 4}
    with pytest.raises(IllegalMove) as exc:
        g.play(Judge(True))
    assert exc.value.key == "kakkerlakken.no_card_in_play"
    assert [r.key for r in g.play(EmptyHand())] == ["kakkerlakken.loses_empty_hand"]
    assert g.over and g.winners() == [1]
