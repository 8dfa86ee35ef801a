"""Klaverjassen rules: card order and values, the following rules of both variants, roem, nat,
pit, trump choice, the deal and the boompje. Seed: 001_40fe8032c5f19f76.txt."""

from __future__ import annotations

import random

import pytest

from kiosk.games.base import IllegalMove
from kiosk.games.klaverjassen import (
    RULES,
    ChooseTrump,
    ClaimRoem,
    Klaverjassen,
    Pass,
    TrumpBidding,
    deal_hands,
    duties,
)
from kiosk.games.klaverjassen_score import roem, score_deal
from kiosk.games.tricks import PIQUET, PlayCard, Trick, allowed
from tests.quotes import Quotes, decided

SEED = "001_40fe8032c5f19f76.txt"
quote = Quotes(SEED)


def legal(hand: list[str], plays: list[tuple[int, str]], trump: str, variant: str) -> set[str]:
    return set(allowed(hand, duties(plays, trump, variant))[1])


def rule(hand: list[str], plays: list[tuple[int, str]], trump: str, variant: str) -> str | None:
    duty, _ = allowed(hand, duties(plays, trump, variant))
    return duty.rule if duty else None


class Stacked(random.Random):
    """An RNG whose shuffles lay the cards in a chosen order (the deal a test needs)."""

    def __init__(self, order: list[str]):
        super().__init__(0)
        self.order = order

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        x[:] = self.order


def stack(hands: list[list[str]], dealer: int) -> list[str]:
    """The deck order that ``deal_hands`` turns into ``hands`` (8 each) for ``dealer``."""
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    out = []
    for start, size in ((0, 3), (3, 2), (5, 3)):
        for seat in order:
            out += hands[seat][start : start + size]
    return out


# --- card order and values ------------------------------------------------------------------


def test_trump_order_and_values():
    quote(
        "le Valet (Jas, 20 points) est le plus fort, suivi du 9 (Nel, 14 points), de l'As (11), "
        "du Dix (10), du Roi (4), de la Dame (3), du Huit (0) et du Sept (0)"
    )
    trumps = ["JH", "9H", "AH", "10H", "KH", "QH", "8H", "7H"]
    assert sorted(trumps, key=RULES.trump_strength, reverse=True) == trumps
    assert [RULES.points(c, "H") for c in trumps] == [20, 14, 11, 10, 4, 3, 0, 0]


def test_plain_order_and_values_total_152():
    quote(
        "Pour les couleurs sans atout, l'ordre est le suivant : As (11), Dix (10), Roi (4), "
        "Dame (3), Valet (2), Neuf (0), Huit (0) et Sept (0)"
    )
    plain = ["AS", "10S", "KS", "QS", "JS", "9S", "8S", "7S"]
    assert sorted(plain, key=RULES.plain_strength, reverse=True) == plain
    assert [RULES.points(c, "H") for c in plain] == [11, 10, 4, 3, 2, 0, 0, 0]
    quote("162 points de base fixes (152 points dans les cartes, plus 10 points pour le dernier pli)")
    assert sum(RULES.points(c, "H") for c in PIQUET) == 152


def test_trick_goes_to_highest_trump_else_highest_of_suit_led():
    quote(
        "La carte la plus forte de la couleur demandée remporte le pli, sauf si un atout a été "
        "joué ; dans ce cas, l'atout le plus élevé l'emporte."
    )
    assert RULES.winning_index(["10S", "AS", "AD", "KS"], "H") == 1
    assert RULES.winning_index(["10S", "AS", "7H", "KS"], "H") == 2
    assert RULES.winning_index(["AH", "9H", "JC", "JH"], "H") == 3  # the Jas beats the Nel


# --- following: both variants ---------------------------------------------------------------


def test_must_follow_suit():
    quote("Vous êtes toujours tenu de fournir à la couleur demandée si vous en avez en main.")
    for variant in ("amsterdam", "rotterdam"):
        assert legal(["7S", "AS", "JH", "AD"], [(0, "KS")], "H", variant) == {"7S", "AS"}
        assert rule(["7S", "AS", "JH"], [(0, "KS")], "H", variant) == "follow_suit"


def test_partner_winning_amsterdam_frees_rotterdam_forces_trump():
    quote(
        "Dans la variante d'Amsterdam, vous n'êtes pas obligé de couper à l'atout si le pli "
        "appartient déjà à votre partenaire à ce moment-là."
    )
    quote(
        "Dans la variante de Rotterdam, vous êtes toujours tenu de couper si vous ne pouvez pas "
        "fournir la couleur demandée"
    )
    # seat 0 leads AS (winning), seat 1 discards, seat 2 (partner of 0) is void in spades.
    plays = [(0, "AS"), (1, "7D")]
    hand = ["8H", "KC", "QD"]
    assert legal(hand, plays, "H", "amsterdam") == {"8H", "KC", "QD"}
    assert legal(hand, plays, "H", "rotterdam") == {"8H"}
    assert rule(hand, plays, "H", "rotterdam") == "must_trump"


def test_opponent_winning_both_variants_must_trump():
    plays = [(1, "AS")]  # seat 2 answers an opponent
    for variant in ("amsterdam", "rotterdam"):
        assert legal(["8H", "KC"], plays, "H", variant) == {"8H"}


def test_opponent_trumped_must_overtrump():
    plays = [(0, "AS"), (1, "QH")]
    for variant in ("amsterdam", "rotterdam"):
        assert legal(["KH", "7H", "AC"], plays, "H", variant) == {"KH"}
        assert rule(["KH", "7H", "AC"], plays, "H", variant) == "must_overtrump"


def test_rotterdam_overtrumps_even_the_partner():
    quote("vous devez toujours surcouper si vous le pouvez, même si votre propre partenaire mène le pli")
    plays = [(3, "AS"), (0, "QH"), (1, "7D")]  # seat 2's partner 0 wins with a trump
    assert legal(["KH", "AC"], plays, "H", "rotterdam") == {"KH"}
    assert legal(["KH", "AC"], plays, "H", "amsterdam") == {"KH", "AC"}


def test_undertrump_forbidden_while_another_card_can_be_played():
    quote(
        "Ondertroeveneen lagere troefkaart bijleggen terwijl je moet overtroeven of een andere "
        "geldige kaart kunt spelen."
    )
    decided(
        "Amsterdam: no duty to trump when the partner is winning; never undertrump while another card can be played."
    )
    plays = [(0, "AS"), (1, "9H")]  # opponent trumped with the Nel
    assert legal(["7H", "AC"], plays, "H", "amsterdam") == {"AC"}
    assert rule(["7H", "AC"], plays, "H", "amsterdam") == "no_undertrump"
    # Amsterdam, partner winning with a trump: discarding is free but undertrumping is not.
    plays = [(1, "AS"), (2, "9H"), (3, "7D")]
    assert legal(["8H", "KC"], plays, "H", "amsterdam") == {"KC"}
    assert legal(["8H", "JH"], plays, "H", "amsterdam") == {"JH"}


def test_rotterdam_undertrumps_when_its_only_trumps_are_lower():
    quote(
        "Dans la variante de Rotterdam, vous êtes toujours tenu de couper si vous ne pouvez pas "
        "fournir la couleur demandée"
    )
    decided("Rotterdam: must trump and overtrump when void, even over the partner.")
    # Trump spades: North (0) leads the Ace of hearts, East (1) trumps with the Jack; South (2)
    # holds the 7 of spades and the King of diamonds.
    plays = [(0, "AH"), (1, "JS")]
    assert legal(["7S", "KD"], plays, "S", "rotterdam") == {"7S"}
    assert rule(["7S", "KD"], plays, "S", "rotterdam") == "must_trump"
    assert legal(["7S", "KD"], plays, "S", "amsterdam") == {"KD"}
    # A trump that can go over is still owed first; over the partner too.
    assert legal(["7S", "9S", "KD"], [(0, "AH"), (1, "AS")], "S", "rotterdam") == {"9S"}
    partner_trumped = [(1, "AH"), (2, "JS"), (3, "7H")]  # North (0) answers; South's Jack wins
    assert legal(["7S", "KD"], partner_trumped, "S", "rotterdam") == {"7S"}
    assert legal(["7S", "KD"], partner_trumped, "S", "amsterdam") == {"KD"}
    # Amsterdam, the partner winning without a trump: free, trumping included.
    assert legal(["7S", "KD"], [(1, "7H"), (2, "AH"), (3, "8H")], "S", "amsterdam") == {"7S", "KD"}


def test_undertrump_allowed_when_only_lower_trumps_are_left():
    plays = [(0, "AS"), (1, "9H")]
    assert legal(["7H", "8H"], plays, "H", "amsterdam") == {"7H", "8H"}
    assert rule(["7H", "8H"], plays, "H", "amsterdam") is None
    assert legal(["7H", "8H"], plays, "H", "rotterdam") == {"7H", "8H"}
    assert rule(["7H", "8H"], plays, "H", "rotterdam") == "must_trump"


def test_trump_led_must_go_over_in_both_variants():
    plays = [(0, "AH"), (1, "9H")]  # seat 2 is the partner of the leader, the Nel is winning
    for variant in ("amsterdam", "rotterdam"):
        assert legal(["JH", "10H", "KS"], plays, "H", variant) == {"JH"}
        assert rule(["JH", "10H"], plays, "H", variant) == "go_over"
        assert legal(["10H", "7H", "KS"], plays, "H", variant) == {"10H", "7H"}  # cannot go over
        assert legal(["KS", "AD"], plays, "H", variant) == {"KS", "AD"}  # no trump: free


# --- roem -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, trump, expected",
    [
        (["7S", "8S", "9S", "AD"], "H", 20),  # run of three
        (["10D", "JD", "QD", "KD"], "H", 50),  # run of four
        (["KH", "QH", "7C", "8D"], "H", 20),  # stuk alone
        (["JH", "QH", "KH", "8C"], "H", 40),  # stuk with a run of three
        (["10H", "JH", "QH", "KH"], "H", 70),  # stuk with a run of four
        (["JC", "JD", "JH", "JS"], "H", 200),  # four Jacks
        (["AC", "AD", "AH", "AS"], "H", 100),  # four Aces
        (["QC", "QD", "QH", "QS"], "S", 100),  # four Queens (stuk is not counted twice)
        (["9C", "9D", "9H", "9S"], "H", 0),  # four Nines: no roem
        (["KS", "QS", "7C", "8D"], "H", 0),  # King and Queen of a plain suit
        (["9S", "10S", "JS", "AD"], "H", 20),  # 9 10 J run: order 7 8 9 10 J Q K A
        (["QS", "KS", "AS", "7S"], "C", 20),  # Q K A, the 7 does not wrap
    ],
)
def test_roem_cases(cards, trump, expected):
    assert roem(cards, trump) == expected


# --- deal scoring: made, nat, pit -----------------------------------------------------------


def tricks_won(winners: list[int], points: list[int]) -> list[Trick]:
    return [Trick(i + 1, (), w, p) for i, (w, p) in enumerate(zip(winners, points, strict=True))]


def test_made_deal_both_teams_keep_their_points():
    quote("Si l'équipe prenante obtient plus de points que l'équipe adverse, chaque camp conserve ses points.")
    tricks = tricks_won([0, 1, 2, 3, 0, 1, 2, 0], [30, 20, 25, 15, 20, 12, 20, 10])
    result = score_deal(tricks, "H", 0, [20, 0, 0, 0, 0, 0, 0, 0])
    assert result.card_points == (115, 47)  # the last trick's 10 to team 0
    assert result.score == (135, 47) and result.outcome == "made"


def test_nat_when_not_more_than_the_defenders_roem_included():
    quote("les adversaires empochent alors la totalité des 162 points ainsi que toutes les annonces de la manche")
    tricks = tricks_won([0, 1, 2, 3, 0, 1, 2, 1], [30, 20, 25, 15, 20, 12, 20, 10])
    # team 0: 95 + 20 roem = 115; team 1: 67 cards + 50 roem = 117 -> nat
    result = score_deal(tricks, "H", 0, [20, 50, 0, 0, 0, 0, 0, 0])
    assert result.outcome == "nat" and result.score == (0, 162 + 70)


def test_a_tie_is_nat():
    tie = tricks_won([0, 1, 0, 1, 0, 1, 0, 1], [20, 20, 20, 20, 21, 20, 20, 11])
    result = score_deal(tie, "H", 0, [0] * 8)
    assert result.card_points == (81, 81) and result.outcome == "nat" and result.score == (0, 162)


def test_pit_adds_100_for_either_team():
    quote(
        "Si une équipe remporte les huit plis, on parle de « capot » (ou « pit » / « mars »), ce "
        "qui "
        "rapporte 100 points de bonus supplémentaires."
    )
    all_points = [20] * 7 + [12]
    made = score_deal(tricks_won([0, 2] * 4, all_points), "H", 0, [0] * 8)
    assert made.pit == 0 and made.score == (162 + 100, 0)
    defenders = score_deal(tricks_won([1, 3] * 4, all_points), "H", 0, [20] + [0] * 7)
    assert defenders.outcome == "nat" and defenders.pit == 1 and defenders.score == (0, 162 + 20 + 100)


def test_renege_loses_the_deal():
    tricks = tricks_won([0, 1, 2, 3, 0, 1, 2, 0], [30, 20, 25, 15, 20, 12, 20, 10])
    result = score_deal(tricks, "H", 0, [20, 0, 50, 0, 0, 0, 0, 0], renege_team=0)
    assert result.outcome == "renege" and result.score == (0, 162 + 70)


# --- trump choice and the deal --------------------------------------------------------------


def test_obligatory_choice_left_of_dealer_first_and_forced_after_all_pass():
    quote(
        "Dans la variante obligatoire, le joueur à gauche du donneur choisit une couleur d'atout "
        "ou "
        "passe ; si tout le monde passe, le premier joueur a l'obligation d'en choisir une."
    )
    bidding = TrumpBidding(dealer=3, mode="obligatory")
    seats = []
    for _ in range(4):
        seats.append(bidding.seat)
        bidding.pass_()
    assert seats == [0, 1, 2, 3] and bidding.seat == 0 and not bidding.may_pass
    with pytest.raises(IllegalMove):
        bidding.pass_()
    bidding.choose("S")
    assert bidding.trump == "S" and bidding.chooser == 0


def test_turned_card_is_the_first_proposal():
    quote("Dans la variante avec carte retournée, la carte dévoilée constitue la première proposition d'atout.")
    bidding = TrumpBidding(dealer=0, mode="turned", turned="9D")
    assert bidding.seat == 1 and bidding.suits == ("D",)
    with pytest.raises(IllegalMove):
        bidding.choose("H")
    for _ in range(4):
        bidding.pass_()
    assert "D" not in bidding.suits and bidding.may_pass
    for _ in range(4):
        bidding.pass_()
    assert bidding.seat == 1 and not bidding.may_pass and set(bidding.suits) == {"C", "H", "S"}


def test_deal_3_2_3_from_the_dealers_left():
    quote(
        "Le donneur distribue dans le sens des aiguilles d'une montre huit cartes à chaque joueur, "
        "généralement distribuées par trois, deux puis trois cartes."
    )
    order = list(PIQUET)
    hands = deal_hands(Stacked(order), dealer=3)
    assert hands[0] == order[0:3] + order[12:14] + order[20:23]
    assert hands[3] == order[9:12] + order[18:20] + order[29:32]
    assert sorted(c for h in hands for c in h) == sorted(PIQUET)


def engine_with(hands: list[list[str]], dealer: int = 3, **options) -> Klaverjassen:
    return Klaverjassen(4, Stacked(stack(hands, dealer)), {"first_dealer": dealer, **options})


HANDS = [
    ["JH", "9H", "AH", "10H", "KH", "QH", "8H", "7H"],
    ["AS", "10S", "KS", "QS", "JS", "9S", "8S", "7S"],
    ["AD", "10D", "KD", "QD", "JD", "9D", "8D", "7D"],
    ["AC", "10C", "KC", "QC", "JC", "9C", "8C", "7C"],
]


def test_engine_refuses_a_renege_and_the_left_neighbour_leads():
    quote("Le joueur situé à gauche du donneur entame la partie en posant la carte de son choix sur la table.")
    hands = [
        ["JH", "9H", "AH", "10H", "KH", "QH", "8H", "7C"],
        ["7H", "AS", "10S", "KS", "QS", "JS", "9S", "8S"],
        ["AD", "10D", "KD", "QD", "JD", "9D", "8D", "7D"],
        ["AC", "10C", "KC", "QC", "JC", "9C", "8C", "7S"],
    ]
    game = engine_with(hands, dealer=3)
    assert game.to_act == 0 and game.hands[0] == set(hands[0])
    game.play(ChooseTrump("S"))
    assert game.to_act == 0
    game.play(PlayCard("KH"))
    assert game.legal_moves() == [PlayCard("7H")]
    with pytest.raises(IllegalMove) as err:
        game.play(PlayCard("AS"))
    assert err.value.key == "klaverjassen.rule_follow_suit" and game.to_act == 1
    with pytest.raises(IllegalMove) as err:
        game.play(PlayCard("AD"))
    assert err.value.key == "klaverjassen.not_in_hand"


def four_of_a_kind_deal(**options) -> tuple[Klaverjassen, list[str]]:
    """Seat 0 names hearts and leads only trumps, each trick four of a kind: a pit."""
    game = engine_with(HANDS, dealer=3, **options)
    game.play(ChooseTrump("H"))
    rulings = []
    for rank in ("7", "8", "9", "10", "J", "Q", "K", "A"):
        for suit in "HSDC":
            rulings += game.play(PlayCard(rank + suit))
    return game, [r.key for r in rulings]


def test_pit_deal_through_the_engine_and_the_sheet():
    game, keys = four_of_a_kind_deal()
    assert "klaverjassen.pit" in keys and keys.count("klaverjassen.roem") == 5
    row = game.sheet.rows[0]
    assert row.pit == 0 and row.card_points == (162, 0)
    assert row.roem == (600, 0)  # four 10s, Jacks, Queens, Kings, Aces: 100+200+100+100+100
    assert row.score == (162 + 600 + 100, 0)
    assert game.dealer == 0 and game.to_act == 1  # next deal: the next dealer's left neighbour


def test_house_rules_four_low_cards_as_roem_and_the_pit_bonus():
    game, keys = four_of_a_kind_deal(four_low_roem=True, pit_bonus=200)
    assert keys.count("klaverjassen.roem") == 8
    row = game.sheet.rows[0]
    assert row.roem == (600 + 3 * 100, 0) and row.score == (162 + 900 + 200, 0)
    assert roem(["7C", "7D", "7H", "7S"], "H", four_low=True) == 100
    assert roem(["JC", "JD", "JH", "JS"], "H", four_low=True) == 200
    assert roem(["7C", "7D", "7H", "7S"], "H") == 0
    game, _ = four_of_a_kind_deal(pit_bonus=0)
    assert game.sheet.rows[0].score == (162 + 600, 0)


def test_claimed_roem_counts_only_when_claimed():
    quote("roem telt alleen mee als je dit aangeeft bij het spelen van de betreffende slag")
    hands = [
        ["KH", "7C", "8C", "9C", "10C", "JC", "QC", "KC"],
        ["QH", "7D", "8D", "9D", "10D", "JD", "QD", "KD"],
        ["7H", "7S", "8S", "9S", "10S", "JS", "QS", "KS"],
        ["8H", "AH", "9H", "10H", "JH", "AC", "AD", "AS"],
    ]
    for claim in (True, False):
        game = engine_with(hands, dealer=3, roem="claimed")
        game.play(ChooseTrump("H"))
        for card in ("KH", "QH", "7H", "AH"):  # stuk and the run Q K A of trump
            game.play(PlayCard(card))
        assert game.legal_moves() == [ClaimRoem(True), ClaimRoem(False)] and game.to_act == 3
        game.play(ClaimRoem(claim))
        assert game.roem == [40 if claim else 0]


def test_boompje_is_16_deals_and_the_higher_total_wins():
    quote(
        "Une partie complète (« boompje ») compte 16 manches ; l'équipe qui affiche le score "
        "cumulé "
        "le plus élevé remporte la victoire."
    )
    game = Klaverjassen(4, random.Random(7))
    while not game.over:
        game.play(game.bot_move())
    assert len(game.sheet.rows) == 16
    a, b = game.sheet.totals()
    assert game.scores() == [a, b, a, b]
    assert set(game.winners()) == ({0, 2} if a > b else {1, 3} if b > a else {0, 1, 2, 3})
    assert all(sum(r.card_points) == 162 for r in game.sheet.rows)


def test_bad_options_are_refused():
    with pytest.raises(ValueError):
        Klaverjassen(4, random.Random(0), {"variant": "utrecht"})
    with pytest.raises(ValueError, match=r"pit_bonus must be an integer 0\.\.500, not 1000"):
        Klaverjassen(4, random.Random(0), {"pit_bonus": 1000})
    with pytest.raises(ValueError, match="four_low_roem must be true or false"):
        Klaverjassen(4, random.Random(0), {"four_low_roem": "yes"})
    with pytest.raises(ValueError):
        Klaverjassen(3, random.Random(0))
    assert Pass() in Klaverjassen(4, random.Random(0)).legal_moves()
