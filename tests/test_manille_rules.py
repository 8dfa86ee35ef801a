"""Manille belge à deux: the deal, playing from hand and visible piles, the seed's worked
examples, the factors, capot and the 30–30 rule. Seed: 004_7389259e18a88c97.txt."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kiosk.games.base import IllegalMove
from kiosk.games.manille import (
    DEAL_SCHEDULE,
    RULES,
    Boam,
    ChooseTrump,
    Double,
    Manille,
    duties,
    stake_factor,
)
from kiosk.games.tricks import PIQUET, PlayCard, allowed
from tests.quotes import Quotes

SEED = "004_7389259e18a88c97.txt"
quote = Quotes(SEED)


class Stacked(random.Random):
    """An RNG whose shuffles lay the cards in a chosen order."""

    def __init__(self, order: list[str]):
        super().__init__(0)
        self.order = order

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        x[:] = self.order


def stack(deal: dict[str, list[list[str]]], dealer: int) -> list[str]:
    """The deck order that deals ``deal`` (where -> seat -> cards), non-dealer first."""
    taken = {where: 0 for _, where in DEAL_SCHEDULE}
    out = []
    for size, where in DEAL_SCHEDULE:
        for seat in (1 - dealer, dealer):
            out += deal[where][seat][taken[where] : taken[where] + size]
        taken[where] += size
    return out


# Seat 0 deals. Its first pile shows 10♦ on a hidden 7♥, and it holds K♦ (the seed's example).
EXAMPLE = {
    "hand": [
        ["KD", "8C", "9C", "10C", "JC", "QC", "KC", "AC"],
        ["AD", "7D", "8D", "9D", "JD", "QD", "7C", "JS"],
    ],
    "hidden": [["7H", "8H", "9H", "7S"], ["10H", "JH", "QH", "KH"]],
    "visible": [["10D", "8S", "9S", "10S"], ["AH", "QS", "KS", "AS"]],
}


def example_game(trump: str | None = "S") -> Manille:
    game = Manille(2, Stacked(stack(EXAMPLE, 0)), {"first_dealer": 0})
    game.play(ChooseTrump(trump))
    game.play(Double(False))
    return game


def test_order_and_values_total_60():
    quote("Ordre : 10 A K Q J 9 8 7.")
    quote("Dix : 5, as : 4, rois : 3, dames : 2, valets : 1, autres : 0, soit 60 dans le jeu.")
    order = ["10H", "AH", "KH", "QH", "JH", "9H", "8H", "7H"]
    assert sorted(order, key=RULES.plain_strength, reverse=True) == order
    assert [RULES.points(c, None) for c in order] == [5, 4, 3, 2, 1, 0, 0, 0]
    assert sum(RULES.points(c, "S") for c in PIQUET) == 60


def test_deal_eight_in_hand_and_four_double_piles():
    quote(
        "Donnez 3 en main chacun ; 4 cartes cachées sur table chacun, en alternance ; encore 2 en "
        "main ; une découverte sur chaque carte de table, en alternance ; enfin 3 en main."
    )
    game = Manille(2, random.Random(3))
    places = Counter(
        where.rsplit(":", 1)[0] if where.startswith("hand") else where for _, where in game.card_locations()
    )
    for seat in (0, 1):
        assert len(game.hands[seat]) == 8
        stacks = game.piles[seat].stacks
        assert len(stacks) == 4 and all(len(p) == 2 for p in stacks)
        assert places[f"pile:{seat}:hidden"] == 4 and places[f"pile:{seat}:visible"] == 4
    assert sorted(c for c, _ in game.card_locations()) == sorted(PIQUET)


def test_stacked_deal_matches_the_example():
    game = example_game()
    assert game.hands[0] == set(EXAMPLE["hand"][0])
    assert game.piles[0].stacks[0] == ["7H", "10D"] and "7H" in game.piles[0].face_down
    assert game.visible_tops(0) == ["10D", "8S", "9S", "10S"]


def test_dealer_chooses_trump_the_other_leads_contre_and_surcontre():
    quote("Le donneur choisit l’atout après avoir vu ses cartes, ou sans-atout. L’autre entame.")
    game = Manille(2, Stacked(stack(EXAMPLE, 0)), {"first_dealer": 0})
    assert game.to_act == 0 and ChooseTrump(None) in game.legal_moves()
    game.play(ChooseTrump("S"))
    assert game.to_act == 1 and game.legal_moves() == [Double(True), Double(False)]
    game.play(Double(True))
    assert game.to_act == 0  # the dealer may surcontre
    keys = [r.key for r in game.play(Double(True))]
    assert keys == ["manille.surcontre"] and game.doubles == 2 and game.to_act == 1


def test_worked_example_answer_with_the_visible_ten_and_reveal_the_seven():
    quote(
        "Pique atout. L’adversaire entame A♦. Votre pile montre 10♦ sur 7♥ caché. Même avec K♦ en "
        "main vous devez jouer le 10♦ disponible qui gagne."
    )
    game = example_game("S")
    assert game.to_act == 1
    game.play(PlayCard("AD"))
    assert game.legal_moves() == [PlayCard("10D")]
    with pytest.raises(IllegalMove) as err:
        game.play(PlayCard("KD"))
    assert err.value.key == "manille.rule_go_over"
    quote(
        "Prenez A♦ et 10♦ pour 4 + 5 = 9 points, révélez 7♥ et entamez. Le nouveau sept ne peut "
        "entrer dans la levée terminée."
    )
    rulings = game.play(PlayCard("10D"))
    trick = game.table.tricks[0]
    assert trick.winner == 0 and trick.points == 9 and trick.cards == ("AD", "10D")
    assert [r.key for r in rulings] == ["manille.trick_won", "manille.revealed"]
    assert "7H" in game.visible_tops(0) and game.to_act == 0


def test_hidden_cards_create_no_duty():
    quote("Les dessous cachés ne créent aucune obligation avant leur exposition.")
    game = example_game("S")
    # Seat 0 has hearts only under its piles: A♥ led does not oblige it, it must trump.
    game.play(PlayCard("AH"))
    assert {m.card for m in game.legal_moves()} == {"8S", "9S", "10S"}


def test_answering_rules_go_over_follow_trump_then_free():
    quote(
        "Répondez en considérant tout cet ensemble disponible : fournissez et montez si possible. "
        "Sans couleur, coupez si vous avez de l’atout ; sans les deux, défaussez librement."
    )
    hand = ["KD", "7D", "8S", "AC"]
    assert set(allowed(hand, duties("QD", "S"))[1]) == {"KD"}
    assert set(allowed(hand, duties("AD", "S"))[1]) == {"KD", "7D"}
    assert set(allowed(hand, duties("QH", "S"))[1]) == {"8S"}
    assert set(allowed(hand, duties("QH", None))[1]) == set(hand)  # no-trump: free discard
    assert set(allowed(["KD", "AC"], duties("7S", "S"))[1]) == {"KD", "AC"}  # trump led, none held


def test_excess_over_30_and_the_no_trump_contre_example():
    quote(
        "Autre donne complète : 42 capturés donnent 42 − 30 = 12 points de match ; sans-atout avec "
        "contre adverse, 12 × 2 × 2 = 48."
    )
    assert Boam().add((42, 18), (9, 7), stake_factor(0, "S")).match_points == 12
    assert Boam().add((42, 18), (9, 7), stake_factor(1, None)).match_points == 48


def test_factors_multiply_contre_2_surcontre_4_no_trump_2():
    quote(
        "Avant le jeu, l’adversaire peut contrer et le donneur surcontrer : facteurs 2 et 4, pas "
        "des "
        "points fixes ajoutés."
    )
    assert [stake_factor(d, "H") for d in (0, 1, 2)] == [1, 2, 4]
    assert [stake_factor(d, None) for d in (0, 1, 2)] == [2, 4, 8]
    assert Boam().add((18, 42), (7, 9), stake_factor(2, "H")).match_points == 48


def test_capot_scores_60_but_an_empty_trick_given_away_breaks_it():
    quote(
        "Toutes les levées doublent les 30 de base en 60 avant les autres facteurs ; prendre les "
        "cartes payantes mais céder une levée vide ne fait pas un capot."
    )
    capot = Boam().add((60, 0), (16, 0), stake_factor(1, "H"))
    assert capot.capot and capot.match_points == 120
    assert Boam().add((60, 0), (15, 1), 1).match_points == 30


def test_30_30_scores_nothing_and_doubles_the_next_decisive_deal_once():
    quote(
        "À 30–30 personne ne marque. Ici la prochaine donne décisive est doublée ; des égalités "
        "répétées gardent un seul double en attente sans l’accumuler."
    )
    boam = Boam()
    assert boam.add((30, 30), (8, 8), 1).winner is None and boam.double_pending
    boam.add((30, 30), (8, 8), 4)
    assert boam.add((40, 20), (9, 7), 1).match_points == 20  # doubled once, not twice
    assert not boam.double_pending
    assert boam.add((40, 20), (9, 7), 1).match_points == 10
    assert boam.totals == [30, 0]


def test_first_to_101_wins_the_boam():
    quote("Premier à 101 points de match gagne le boam.")
    boam = Boam()
    boam.add((60, 0), (16, 0), 1)
    assert not boam.over
    boam.add((50, 10), (12, 4), 2)
    assert boam.totals == [100, 0] and not boam.over and boam.winners() == []
    boam.add((29, 31), (7, 9), 1)
    assert not boam.over
    boam.add((31, 29), (9, 7), 1)
    assert boam.over and boam.winners() == [0] and boam.totals == [101, 1]


def test_a_whole_boam_with_bots_keeps_60_points_per_deal():
    quote("La levée elle-même n’ajoute rien.")
    game = Manille(2, random.Random(11))
    while not game.over:
        game.play(game.bot_move())
    assert all(sum(r.points) == 60 for r in game.boam.rows)
    assert max(game.scores()) >= 101 and game.winners() == [game.scores().index(max(game.scores()))]


def test_bad_moves_are_refused():
    game = example_game("S")
    with pytest.raises(IllegalMove) as err:
        game.play(PlayCard("KD"))  # seat 1 leads; K♦ is seat 0's
    assert err.value.key == "manille.not_available"
    with pytest.raises(IllegalMove):
        game.play(PlayCard("10H"))  # hidden under seat 1's pile
    with pytest.raises(ValueError):
        Manille(2, random.Random(0), {"target": 0})
