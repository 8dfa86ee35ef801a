"""Le Compromis à la belge (seed 000_de7fdf0eefacbd60.txt, with its FAQ, and rules-decisions.md).

Each 2..10 card is a minister: lion = Flemish, coq = Walloon, Laeken (7) and the Cinquantenaire
(5) Brussels, playing either role. A government is 3 pairs, each a lion-role and a coq-role
minister of the same value (:mod:`kiosk.games.compromis_government`). A turn: draw (stock or top
of the discard pile), then discard one card or play an Ace / Manneken-Pis instead (set aside,
never on the discard pile), ending with 7 cards. A government is declared mid-turn (after
drawing, or after an action that brought the missing card) with 6 cards down: 1 point, 2 with a
King in hand; a false one goes back to hand and its author skips his next turn. First to 3
points (4 with 2 players) wins the match; the winner's left neighbour (seat + 1) starts the next
round.

Choices the texts leave open, kept small: a false government leaves the author's turn where it was
(he still owes his discard, give or Doudou card) and he may not declare again that turn; a round
that ends with an exhausted stock (no government) is started next by the left neighbour of the
round's first player.

At the table (``at_table=True``) the cards are dealt by hand and the engine keeps the public
record: the discard pile, the cards set aside, the size of the face-down stock. The table turns
the first card of the discard pile (phase ``first``); a card seen on the discard pile or set aside
at the start of a turn means the player drew from the stock unseen; a card seen taken from the
discard pile is :class:`TakeDiscard`. Malmedy's raid and the Manneken-Pis' look happen between
hands, unseen: the turn ends when the card is set aside. A government is the 6 cards seen laid
before a seat (:class:`GovernmentLaid`), judged whatever the turn, since only the seat's zone is
proven; the King bonus is a King shown there afterwards (:class:`ShowKing`, phase ``scored``),
the shout is :class:`Called` and :class:`NextRound` starts the next round.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations, permutations
from typing import Any, ClassVar

from kiosk.decks import load_deck
from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.games.cards import deal, rank_of, reshuffle_except_top
from kiosk.games.compromis_bot import bot_move
from kiosk.games.compromis_government import GOVERNMENT, check_government
from kiosk.games.compromis_moves import (
    Arrange,
    Called,
    Declare,
    Discard,
    DrawStock,
    Give,
    GovernmentLaid,
    NextRound,
    PlaySpecial,
    ShowJack,
    ShowKing,
    TakeDiscard,
    Target,
    Yield,
)
from kiosk.games.compromis_specials import SPECIALS, not_special_key, special_effects

#: Cards in a hand at the end of each turn.
HAND = 7


@dataclass
class _Turn:
    """What happened so far in the current turn (reset at each turn)."""

    # draw | act | doudou | malmedy_target | malmedy_defend | malmedy_give | binche | arrange;
    # at the table also first (the discard pile is started) and scored (a government ended the round)
    phase: str = "draw"
    taken: set[str] = field(default_factory=set)  # cards taken from the discard pile this turn
    declared: set[int] = field(default_factory=set)  # seats that declared a government this turn
    target: int | None = None
    binche: list[int] = field(default_factory=list)  # seats that still owe Binche's discard
    looked: tuple[str, ...] = ()  # Manneken-Pis: the cards being looked at, top first


#: The phases of a round in progress at the table, where a government may be laid down.
_TABLE_ROUND = ("first", "draw", "act", "doudou", "binche")


class Compromis(GameEngine):
    game_id = "compromis"
    deck_id = "affiche-belge"
    min_players = 2
    max_players = 6
    #: ``first_game``: the special cards are dead cards, discarded normally. ``youngest``: the seat
    #: that starts the first round ("Le plus jeune commence"). ``specials``: card -> effect.
    default_options: ClassVar[Mapping[str, Any]] = {"first_game": False, "youngest": 0, "specials": SPECIALS}
    menu_options: ClassVar[Mapping[str, tuple[Any, ...]]] = {"first_game": (False, True)}

    def __init__(
        self,
        players: int,
        rng: random.Random,
        options: Mapping[str, Any] | None = None,
        *,
        at_table: bool = False,
    ):
        super().__init__(players, rng, options, at_table=at_table)
        if not 0 <= int(self.options["youngest"]) < players:
            raise ValueError(f"compromis: youngest seat {self.options['youngest']} is not a seat")
        self.deck = load_deck(self.deck_id)
        self.effects = special_effects(self.options)
        self.target_points = 4 if players == 2 else 3
        self._scores = [0] * players
        self.hands: list[list[str]] = [[] for _ in range(players)]  # at the table: unseen, never held
        self.stock: list[str] = []
        self.unseen_stock = 0  # at the table: the face-down stock's size
        self.discard: list[str] = []
        self.aside: list[str] = []
        self.laid: list[str] = []  # the winning government, on the table once the match is over
        self.skips = [0] * players
        self.frites: list[int] = []  # seats that forgot to shout: they pay the frites
        self.shouted: set[int] = set()  # at the table: who shouted « Compromis, une fois ! » this round
        self.governed: int | None = None  # at the table: the seat whose government ended the round
        self.king_shown = False
        self.current = 0
        self.round_starter = 0
        self.rounds = 0
        self._winner: int | None = None
        self.turn = _Turn()
        self.opening = self._new_round(int(self.options["youngest"]))

    # -- the GameEngine shape --

    @property
    def to_act(self) -> int | None:
        if self.over:
            return None
        if self.turn.phase == "malmedy_defend":
            return self.turn.target
        if self.turn.phase == "binche":
            return self.turn.binche[0]
        return self.current

    @property
    def over(self) -> bool:
        return self._winner is not None

    def scores(self) -> list[int]:
        return list(self._scores)

    def winners(self) -> list[int]:
        return [] if self._winner is None else [self._winner]

    def card_locations(self) -> list[tuple[str, str]]:
        out = [(c, f"hand:{seat}") for seat, hand in enumerate(self.hands) for c in hand]
        out += [(c, "stock") for c in self.stock]
        out += [(c, "discard") for c in self.discard]
        out += [(c, "aside") for c in self.aside]
        out += [(c, f"table:{self._winner}") for c in self.laid]
        return out

    def is_special(self, card: str) -> bool:
        """An action card that is live in this match (dead cards in the first game)."""
        return card in self.effects

    def king_due(self) -> int | None:
        """At the table: the seat whose government ended the round and may still show a King."""
        return self.governed if self.turn.phase == "scored" and not self.king_shown and not self.over else None

    def expects(self) -> tuple[str, dict[str, Any]] | None:
        """At the table, what the camera waits for next (message key, parameters); None once over."""
        phase = self.turn.phase
        if self.over:
            return None
        if phase == "first":
            return "compromis.expect_first_card", {"player": self.current}
        if phase == "scored":
            return "compromis.expect_next_round", {"player": self.governed}
        if phase in ("doudou", "binche"):
            return "compromis.expect_discard", {"player": self.to_act}
        return "compromis.expect_turn", {"player": self.current}

    def legal_moves(self) -> list[Any]:
        """The moves of ``to_act``; at the table, the ones that name no card besides (a card is
        judged when the camera sees it): the shouts, a take from the discard pile, the next round."""
        if self.over:
            return []
        if self.at_table:
            moves: list[Any] = [Called(seat) for seat in range(self.players)]
            if self.turn.phase == "draw" and self.discard:
                moves.append(TakeDiscard())
            return moves + ([NextRound()] if self.turn.phase == "scored" else [])
        phase, hand = self.turn.phase, self.hands[self.to_act or 0]
        if phase == "draw":
            return [DrawStock()] + ([TakeDiscard()] if self.discard else [])
        if phase == "malmedy_target":
            return [Target(s) for s in range(self.players) if s != self.current]
        if phase == "malmedy_defend":
            return [Yield()] + [ShowJack(c) for c in hand if rank_of(c) == "J"]
        if phase == "malmedy_give":
            return [Give(c) for c in hand] + self._declarations(hand)
        if phase == "arrange":
            return [Arrange(p) for p in permutations(self.turn.looked)]
        discards: list[Any] = [Discard(c) for c in hand if self.may_discard(c)]
        if phase == "binche":
            return discards
        if phase == "act":
            discards += [PlaySpecial(c) for c in hand if self.is_special(c)]
        return discards + self._declarations(hand)

    def _declarations(self, hand: list[str]) -> list[Declare]:
        if self.current in self.turn.declared:
            return []
        return [
            Declare(frozenset(six), called)
            for six in combinations(sorted(hand), GOVERNMENT)
            for called in (True, False)
        ]

    def may_discard(self, card: str) -> bool:
        """Whether ``card`` may go on the discard pile this turn (not an action card, not just taken)."""
        return not self.is_special(card) and card not in self.turn.taken

    def play(self, move: Any) -> list[Ruling]:
        self._check(move)
        player = self.to_act
        assert player is not None
        if self.at_table and self.turn.phase == "draw" and isinstance(move, (Discard, PlaySpecial)):
            self._draw(player)  # the camera cannot see a draw from the face-down stock
            self.turn.phase = "act"
        handler = getattr(self, f"_do_{type(move).__name__.lower()}")
        return handler(player, move)  # type: ignore[no-any-return]

    # -- validation: every refusal happens here, before anything changes --

    _PHASES: Mapping[str, tuple[str, ...]] = {
        "DrawStock": ("draw",),
        "TakeDiscard": ("draw",),
        "Discard": ("act", "doudou", "binche"),
        "PlaySpecial": ("act",),
        "Declare": ("act", "doudou", "malmedy_give"),
        "Target": ("malmedy_target",),
        "ShowJack": ("malmedy_defend",),
        "Yield": ("malmedy_defend",),
        "Give": ("malmedy_give",),
        "Arrange": ("arrange",),
    }
    #: What a table adds: the first card, a card seen after an unseen draw, its own moves.
    _TABLE_PHASES: Mapping[str, tuple[str, ...]] = {
        "Discard": ("first", "draw"),
        "PlaySpecial": ("first", "draw"),
        "GovernmentLaid": _TABLE_ROUND,
        "ShowKing": ("scored",),
        "Called": (*_TABLE_ROUND, "scored"),
        "NextRound": ("scored",),
    }
    _TABLE_ONLY = (GovernmentLaid, ShowKing, Called, NextRound)

    def _check(self, move: Any) -> None:
        if self.over:
            raise IllegalMove("compromis.illegal_over")
        if isinstance(move, self._TABLE_ONLY) and not self.at_table:
            raise IllegalMove("compromis.table_only")
        phase, name = self.turn.phase, type(move).__name__
        allowed = self._PHASES.get(name, ()) + (self._TABLE_PHASES.get(name, ()) if self.at_table else ())
        if phase not in allowed:
            raise IllegalMove("compromis.illegal_phase", phase=phase)
        if isinstance(move, (GovernmentLaid, ShowKing, Called)) and not 0 <= move.seat < self.players:
            raise IllegalMove("compromis.illegal_seat", seat=move.seat)
        self._check_card(move)
        if isinstance(move, TakeDiscard) and not self.discard:
            raise IllegalMove("compromis.illegal_discard_empty")
        if isinstance(move, Target) and not (0 <= move.seat < self.players and move.seat != self.current):
            raise IllegalMove("compromis.illegal_target", seat=move.seat)
        if isinstance(move, Arrange) and sorted(move.order) != sorted(self.turn.looked):
            raise IllegalMove("compromis.illegal_order", count=len(self.turn.looked))
        if isinstance(move, (Declare, GovernmentLaid)):
            self._check_declaration(move)

    def _check_card(self, move: Any) -> None:
        """The card a move names: in the hand (seen, at the table: on no pile) and allowed there."""
        card = getattr(move, "card", None)
        if card is None or isinstance(move, ShowKing):
            return
        if self.at_table and isinstance(move, (Discard, PlaySpecial)):
            if card not in self.deck or card in self.discard or card in self.aside:
                raise IllegalMove("compromis.illegal_not_in_hand", card=card)
        elif card not in self.hands[self.to_act or 0]:
            raise IllegalMove("compromis.illegal_not_in_hand", card=card)
        if isinstance(move, Discard):
            if self.is_special(card):
                raise IllegalMove("compromis.illegal_special_on_discard", card=card)
            if card in self.turn.taken:
                raise IllegalMove("compromis.illegal_same_discard", card=card)
        if isinstance(move, PlaySpecial) and not self.is_special(card):
            raise IllegalMove(not_special_key(card, self.options["first_game"]), card=card)
        if isinstance(move, ShowJack) and rank_of(card) != "J":
            raise IllegalMove("compromis.illegal_not_jack", card=card)

    def _check_declaration(self, move: Declare | GovernmentLaid) -> None:
        seat = move.seat if isinstance(move, GovernmentLaid) else self.current
        if seat in self.turn.declared:
            raise IllegalMove("compromis.illegal_declared_twice")
        seen = self.deck.ids if isinstance(move, GovernmentLaid) else self.hands[seat]
        missing = sorted(set(move.cards) - set(seen))
        if missing:
            raise IllegalMove("compromis.illegal_not_in_hand", card=missing[0])
        if len(move.cards) != GOVERNMENT:
            raise IllegalMove("compromis.gov_count", count=len(move.cards))

    # -- moves --

    def _do_drawstock(self, player: int, move: DrawStock) -> list[Ruling]:
        self._draw(player)
        self.turn.phase = "act"
        return [Ruling("compromis.drew_stock", {"player": player})]

    def _do_takediscard(self, player: int, move: TakeDiscard) -> list[Ruling]:
        card = self.discard.pop()
        self._to_hand(player, card)
        self.turn.taken.add(card)
        self.turn.phase = "act"
        return [Ruling("compromis.took_discard", {"player": player, "card": card})]

    def _do_discard(self, player: int, move: Discard) -> list[Ruling]:
        self._from_hand(player, move.card)
        self.discard.append(move.card)
        if self.turn.phase == "first":  # the table turned the first card of the discard pile
            self.unseen_stock -= 1
            return self._begin_turn(self.current)
        rulings = [Ruling("compromis.discarded", {"player": player, "card": move.card})]
        if self.turn.phase == "binche":
            self.turn.binche.pop(0)
            return rulings + self._binche_next()
        return rulings + self._end_turn()

    def _do_playspecial(self, player: int, move: PlaySpecial) -> list[Ruling]:
        self._from_hand(player, move.card)
        self.aside.append(move.card)
        if self.turn.phase == "first":  # an Ace or Manneken-Pis never starts the discard pile
            self.unseen_stock -= 1
            return [Ruling("compromis.first_card_aside", {"card": move.card})]
        effect = self.effects[move.card]
        rulings = [Ruling(f"compromis.special_{effect}", {"player": player, "card": move.card})]
        if effect == "doudou":
            if not self.discard:
                return rulings + [Ruling("compromis.doudou_empty", {"player": player})] + self._end_turn()
            card = self.discard.pop()
            self._to_hand(player, card)
            self.turn.taken.add(card)
            self.turn.phase = "doudou"
            return rulings + [Ruling("compromis.took_discard", {"player": player, "card": card})]
        if effect == "malmedy" and not self.at_table:
            self.turn.phase = "malmedy_target"
            return rulings
        if effect == "binche":
            self.turn.binche = [(player + k) % self.players for k in range(1, self.players)]
            self.turn.phase = "binche"
            return rulings + self._binche_next()
        if effect == "andenne":
            skipped = (player + 1) % self.players
            self.skips[skipped] += 1
            return rulings + [Ruling("compromis.andenne_skip", {"player": skipped})] + self._end_turn()
        if effect == "manneken":  # look at the top 3 (reshuffle first when fewer than 3), alone
            if self._stock_size() < 3:
                self._reshuffle()
            self.turn.looked = () if self.at_table else tuple(reversed(self.stock[-3:]))
            if self.turn.looked:
                self.turn.phase = "arrange"
                return rulings
        return rulings + self._end_turn()  # at the table Malmedy and the Manneken-Pis act unseen

    def _do_target(self, player: int, move: Target) -> list[Ruling]:
        self.turn.target = move.seat
        self.turn.phase = "malmedy_defend"
        return [Ruling("compromis.malmedy_target", {"player": player, "target": move.seat})]

    def _do_showjack(self, player: int, move: ShowJack) -> list[Ruling]:
        ruling = Ruling("compromis.malmedy_blocked", {"player": player, "card": move.card}, "ok")
        return [ruling] + self._end_turn()

    def _do_yield(self, player: int, move: Yield) -> list[Ruling]:
        victim = self.hands[player]
        card = victim.pop(self.rng.randrange(len(victim)))
        self.hands[self.current].append(card)
        self.turn.phase = "malmedy_give"
        return [Ruling("compromis.malmedy_took", {"player": self.current, "target": player})]

    def _do_give(self, player: int, move: Give) -> list[Ruling]:
        target = self.turn.target
        assert target is not None
        self.hands[player].remove(move.card)
        self.hands[target].append(move.card)
        return [Ruling("compromis.malmedy_gave", {"player": player, "target": target})] + self._end_turn()

    def _do_arrange(self, player: int, move: Arrange) -> list[Ruling]:
        k = len(move.order)
        self.stock[-k:] = list(reversed(move.order))
        return [Ruling("compromis.manneken_done", {"player": player})] + self._end_turn()

    def _do_declare(self, player: int, move: Declare) -> list[Ruling]:
        king = any(rank_of(c) == "K" for c in self.hands[player] if c not in move.cards)
        return self._declare(player, move.cards, move.called, king)

    def _do_governmentlaid(self, player: int, move: GovernmentLaid) -> list[Ruling]:
        return self._declare(move.seat, move.cards, move.seat in self.shouted, king=False)

    def _do_showking(self, player: int, move: ShowKing) -> list[Ruling]:
        if move.seat != self.king_due() or rank_of(move.card) != "K":
            return []  # a card laid there that brings nothing
        self.king_shown = True
        return [Ruling("compromis.king_bonus", {"player": move.seat}, "score")] + self._score(move.seat, 1)

    def _do_called(self, player: int, move: Called) -> list[Ruling]:
        self.shouted.add(move.seat)
        return [Ruling("compromis.called", {"player": move.seat}, "ok")]

    def _do_nextround(self, player: int, move: NextRound) -> list[Ruling]:
        assert self.governed is not None
        return self._new_round((self.governed + 1) % self.players)

    def _declare(self, seat: int, cards: frozenset[str], called: bool, king: bool) -> list[Ruling]:
        """Judge a government declared by ``seat``; at the table a King is shown afterwards."""
        if seat == self.current:
            self.turn.declared.add(seat)
        verdict = check_government(cards, self.deck)
        if not verdict.ok:
            self.skips[seat] += 1
            wrong = [Ruling(key, {"player": seat, **params}, "violation") for key, params in verdict.problems]
            return wrong + [Ruling("compromis.gov_false", {"player": seat}, "violation")]
        points = 2 if king else 1
        rulings = [Ruling("compromis.government_ok", {"player": seat, "points": points}, "score")]
        if self.at_table:
            rulings.append(Ruling("compromis.king_prompt", {"player": seat}, "info"))
        if not called:
            self.frites.append(seat)
            rulings.append(Ruling("compromis.forgot_call", {"player": seat}, "reminder"))
        self.laid = sorted(cards)
        self.hands[seat] = [c for c in self.hands[seat] if c not in cards]
        rulings += self._score(seat, points)
        if self.over:
            return rulings
        if self.at_table:  # the table shows a King, then deals again
            self.governed, self.laid = seat, []
            self.turn = _Turn("scored")
            return rulings
        return rulings + self._new_round((seat + 1) % self.players)

    def _score(self, seat: int, points: int) -> list[Ruling]:
        """Add ``points`` to ``seat``; at the target the match is won and the last pay the frites."""
        self._scores[seat] += points
        if self._scores[seat] < self.target_points:
            return []
        self._winner = seat
        last = min(self._scores)
        payers = [s for s in range(self.players) if self._scores[s] == last]
        return [Ruling("compromis.match_won", {"player": seat}, "game_over")] + [
            Ruling("compromis.frites", {"player": s}, "reminder") for s in payers
        ]

    # -- flow --

    def _new_round(self, starter: int) -> list[Ruling]:
        self.discard, self.aside, self.laid = [], [], []
        self.skips = [0] * self.players
        self.rounds += 1
        self.round_starter = starter
        rulings = [Ruling("compromis.round_start", {"round": self.rounds, "player": starter})]
        if self.at_table:  # dealt by hand: the table turns the first card of the discard pile
            self.unseen_stock = len(self.deck) - HAND * self.players
            self.shouted, self.governed, self.king_shown = set(), None, False
            self.current, self.turn = starter, _Turn("first")
            return rulings
        cards = sorted(self.deck.ids)
        self.rng.shuffle(cards)
        self.hands = deal(cards, self.players, HAND, first=starter)
        self.stock = cards[HAND * self.players :][::-1]  # top = last
        while self.stock:
            card = self.stock.pop()
            if self.is_special(card):
                self.aside.append(card)  # an Ace or Manneken-Pis never starts the discard pile
                rulings.append(Ruling("compromis.first_card_aside", {"card": card}))
                continue
            self.discard.append(card)
            break
        return rulings + self._begin_turn(starter)

    def _begin_turn(self, seat: int) -> list[Ruling]:
        rulings: list[Ruling] = []
        while self.skips[seat]:
            self.skips[seat] -= 1
            rulings.append(Ruling("compromis.turn_skipped", {"player": seat}))
            seat = (seat + 1) % self.players
        self.current = seat
        self.turn = _Turn()
        if not self._stock_ready():
            return rulings + self._void_round()
        if self.at_table:
            rulings.append(Ruling("compromis.your_turn", {"player": seat}))
        return rulings

    def _stock_size(self) -> int:
        return self.unseen_stock if self.at_table else len(self.stock)

    def _draw(self, seat: int) -> None:
        """The top card of the stock goes to ``seat``'s hand (unseen at the table)."""
        if self.at_table:
            self.unseen_stock -= 1
        else:
            self.hands[seat].append(self.stock.pop())

    def _to_hand(self, seat: int, card: str) -> None:
        if not self.at_table:
            self.hands[seat].append(card)

    def _from_hand(self, seat: int, card: str) -> None:
        if not self.at_table:
            self.hands[seat].remove(card)

    def _reshuffle(self) -> None:
        """The discard pile but its top card is shuffled under the stock."""
        if not self.at_table:
            reshuffle_except_top(self.stock, self.discard, self.rng)
        elif len(self.discard) >= 2:
            self.unseen_stock += len(self.discard) - 1
            del self.discard[:-1]

    def _stock_ready(self) -> bool:
        """A card can be drawn, reshuffling the discard pile (but its top) if the stock is empty."""
        if not self._stock_size():
            self._reshuffle()
        return bool(self._stock_size())

    def _void_round(self) -> list[Ruling]:
        ruling = Ruling("compromis.round_void", {}, "info")
        return [ruling] + self._new_round((self.round_starter + 1) % self.players)

    def _end_turn(self) -> list[Ruling]:
        return self._begin_turn((self.current + 1) % self.players)

    def _binche_next(self) -> list[Ruling]:
        """The next player hit by Binche draws the top card; he then owes a discard."""
        if not self.turn.binche:
            return self._end_turn()
        if not self._stock_ready():
            return self._void_round()
        seat = self.turn.binche[0]
        self._draw(seat)
        return [Ruling("compromis.binche_draw", {"player": seat})]

    # -- the bot --

    def bot_move(self) -> Any:
        """Declare once a government is in hand; keep pairs, a King and a Jack; play specials."""
        return bot_move(self)
