"""Le Compromis à la belge (seed 000_de7fdf0eefacbd60.txt, with its FAQ, and rules-decisions.md).

Each 2..10 card is a minister: lion = Flemish, coq = Walloon, Laeken (7) and the Cinquantenaire
(5) Brussels, playing either role. A government is 3 pairs, each a lion-role and a coq-role
minister of the same value. A turn: draw (stock or top of the discard pile), then discard one
card or play an Ace / Manneken-Pis instead (set aside, never on the discard pile), ending with 7
cards. A government is declared mid-turn (after drawing, or after an action that brought the
missing card) with 6 cards down: 1 point, 2 with a King in hand; a false one goes back to hand and
its author skips his next turn. First to 3 points (4 with 2 players) wins the match; the winner's
left neighbour (seat + 1) starts the next round.

Choices the texts leave open, kept small: a false government leaves the author's turn where it was
(he still owes his discard, give or Doudou card) and he may not declare again that turn; a round
that ends with an exhausted stock (no government) is started next by the left neighbour of the
round's first player.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, permutations
from typing import Any, ClassVar

from kiosk.decks import Deck, load_deck
from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.games.cards import deal, number_of, rank_of, reshuffle_except_top

#: The action cards and their effect (rules-decisions.md), the ``specials`` option's default;
#: the deck data names the places. A table may give these cards other effects, or none.
SPECIALS: Mapping[str, str] = {
    "AS": "doudou",
    "AH": "malmedy",
    "AD": "binche",
    "AC": "andenne",
    "JK1": "manneken",
    "JK2": "manneken",
}
#: What an action card can do (see :meth:`Compromis._do_playspecial`).
EFFECTS = ("doudou", "malmedy", "binche", "andenne", "manneken")
HAND = 7
GOVERNMENT = 6


def special_effects(options: Mapping[str, Any]) -> dict[str, str]:
    """The live action cards of a match and their effect: the ``specials`` option, checked (an Ace
    or a Manneken-Pis -> one of :data:`EFFECTS`; a card left out is dead), none in a first game."""
    table = options["specials"]
    if not isinstance(table, Mapping):
        raise ValueError(f"compromis: option specials must be a table card = effect, not {table!r}")
    for card, effect in table.items():
        if card not in SPECIALS:
            raise ValueError(
                f"compromis: option specials: {card!r} is not an action card; allowed: {', '.join(SPECIALS)}"
            )
        if effect not in EFFECTS:
            raise ValueError(f"compromis: option specials: {card} = {effect!r}; allowed: {', '.join(EFFECTS)}")
    return {} if options["first_game"] else dict(table)


def not_special_key(card: str, first_game: bool) -> str:
    """Why ``card`` cannot be set aside as an action card: the message key."""
    if card not in SPECIALS:
        return "compromis.illegal_not_special"
    return "compromis.illegal_first_game" if first_game else "compromis.illegal_dead_card"


# -- governments -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """Whether 6 cards form a government; ``problems`` are (message key, params) naming the cards
    at fault, ``pairs`` the (lion role, coq role) pairs found when it is one."""

    problems: tuple[tuple[str, Mapping[str, Any]], ...]
    pairs: tuple[tuple[str, str], ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


def check_government(cards: Collection[str], deck: Deck) -> Verdict:
    """Judge ``cards`` as a government: 3 pairs of a lion and a coq of the same value (2..10),
    a Brussels minister playing one role of its choice, two pairs of one value allowed."""
    cards = sorted(cards)
    if len(cards) != GOVERNMENT or len(set(cards)) != GOVERNMENT:
        return Verdict((("compromis.gov_count", {"count": len(set(cards))}),))
    problems: list[tuple[str, Mapping[str, Any]]] = []
    by_value: dict[int, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for card in cards:
        value = number_of(card)
        if value is None:
            problems.append(("compromis.gov_not_minister", {"card": card}))
        else:
            by_value[value][deck[card].region or ""].append(card)
    pairs: list[tuple[str, str]] = []
    for value in sorted(by_value):
        found, wrong = _pair_up(by_value[value])
        pairs.extend(found)
        problems.extend(wrong)
    return Verdict(tuple(problems), tuple(pairs) if not problems else ())


def _pair_up(
    roles: Mapping[str, list[str]],
) -> tuple[list[tuple[str, str]], list[tuple[str, Mapping[str, Any]]]]:
    """Pairs of one value: lions with coqs, the Brussels card filling the side that lacks one."""
    lions, coqs, brussels = (
        list(roles.get("flanders", [])),
        list(roles.get("wallonia", [])),
        list(roles.get("brussels", [])),
    )
    if len(lions) + len(coqs) + len(brussels) == 3 and brussels:
        others = sorted(lions + coqs)
        return [], [
            (
                "compromis.gov_both_roles",
                {"card": brussels[0], "card_a": others[0], "card_b": others[1]},
            )
        ]
    pairs: list[tuple[str, str]] = []
    while lions and coqs:
        pairs.append((lions.pop(0), coqs.pop(0)))
    for b in brussels:
        if lions:
            pairs.append((lions.pop(0), b))
        elif coqs:
            pairs.append((b, coqs.pop(0)))
        else:
            lions.append(b)  # alone below
    problems: list[tuple[str, Mapping[str, Any]]] = []
    for same, key in ((lions, "compromis.gov_two_lions"), (coqs, "compromis.gov_two_coqs")):
        while len(same) >= 2:
            problems.append((key, {"card_a": same.pop(0), "card_b": same.pop(0)}))
        if same:
            problems.append(("compromis.gov_alone", {"card": same.pop()}))
    return pairs, problems


def can_pair(a: str, b: str, deck: Deck) -> bool:
    """Could ``a`` and ``b`` be one pair of a government?"""
    return (a, b) in _pairable(deck.id)


@cache
def _pairable(deck_id: str) -> frozenset[tuple[str, str]]:
    """Every ordered (a, b) that can pair: the bots ask this thousands of times per match."""
    deck = load_deck(deck_id)
    ministers = [c for c in deck if number_of(c.id) is not None]
    return frozenset(
        (a.id, b.id)
        for a in ministers
        for b in ministers
        if a.id != b.id
        and number_of(a.id) == number_of(b.id)
        and {a.region, b.region} not in ({"flanders"}, {"wallonia"})
    )


def find_government(hand: Iterable[str], deck: Deck) -> frozenset[str] | None:
    """A government among the cards of ``hand``, or None (the bots declare as soon as they can)."""
    ministers = sorted(c for c in hand if number_of(c) is not None)
    ministers = [c for c in ministers if any(can_pair(c, o, deck) for o in ministers)]
    for six in combinations(ministers, GOVERNMENT):
        if check_government(six, deck).ok:
            return frozenset(six)
    return None


# -- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DrawStock:
    """Take the top card of the draw pile."""


@dataclass(frozen=True)
class TakeDiscard:
    """Take the top card of the discard pile."""


@dataclass(frozen=True)
class Discard:
    """Put ``card`` on the discard pile (the turn's discard, Doudou's swap, Binche's discard)."""

    card: str


@dataclass(frozen=True)
class PlaySpecial:
    """Play an Ace or a Manneken-Pis instead of discarding: it is set aside and acts."""

    card: str


@dataclass(frozen=True)
class Declare:
    """Lay 6 cards down as a government; ``called``: « Compromis, une fois ! » was shouted."""

    cards: frozenset[str]
    called: bool = True


@dataclass(frozen=True)
class Target:
    """Malmedy: the opponent whose hand is raided."""

    seat: int


@dataclass(frozen=True)
class ShowJack:
    """Malmedy's target shows a Jack (a speciality): the raid is cancelled, the Jack stays."""

    card: str


@dataclass(frozen=True)
class Yield:
    """Malmedy's target lets the raid happen."""


@dataclass(frozen=True)
class Give:
    """Malmedy: the card the raider gives back to the target."""

    card: str


@dataclass(frozen=True)
class Arrange:
    """Manneken-Pis: the cards looked at, put back with ``order[0]`` on top."""

    order: tuple[str, ...]


# -- the engine --------------------------------------------------------------------------------


@dataclass
class _Turn:
    """What happened so far in the current turn (reset at each turn)."""

    # draw | act | doudou | malmedy_target | malmedy_defend | malmedy_give | binche | arrange
    phase: str = "draw"
    taken: set[str] = field(default_factory=set)  # cards taken from the discard pile this turn
    declared: bool = False
    target: int | None = None
    binche: list[int] = field(default_factory=list)  # seats that still owe Binche's discard
    looked: tuple[str, ...] = ()  # Manneken-Pis: the cards being looked at, top first


class Compromis(GameEngine):
    game_id = "compromis"
    deck_id = "affiche-belge"
    min_players = 2
    max_players = 6
    #: ``first_game``: the special cards are dead cards, discarded normally. ``youngest``: the seat
    #: that starts the first round ("Le plus jeune commence"). ``specials``: card -> effect.
    default_options: ClassVar[Mapping[str, Any]] = {"first_game": False, "youngest": 0, "specials": SPECIALS}
    menu_options: ClassVar[Mapping[str, tuple[Any, ...]]] = {"first_game": (False, True)}

    def __init__(self, players: int, rng: random.Random, options: Mapping[str, Any] | None = None):
        super().__init__(players, rng, options)
        if not 0 <= int(self.options["youngest"]) < players:
            raise ValueError(f"compromis: youngest seat {self.options['youngest']} is not a seat")
        self.deck = load_deck(self.deck_id)
        self.effects = special_effects(self.options)
        self.target_points = 4 if players == 2 else 3
        self._scores = [0] * players
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.stock: list[str] = []
        self.discard: list[str] = []
        self.aside: list[str] = []
        self.laid: list[str] = []  # the winning government, on the table once the match is over
        self.skips = [0] * players
        self.frites: list[int] = []  # seats that forgot to shout: they pay the frites
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

    def legal_moves(self) -> list[Any]:
        if self.over:
            return []
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
        discards: list[Any] = [Discard(c) for c in hand if self._may_discard(c)]
        if phase == "binche":
            return discards
        if phase == "act":
            discards += [PlaySpecial(c) for c in hand if self.is_special(c)]
        return discards + self._declarations(hand)

    def _declarations(self, hand: list[str]) -> list[Declare]:
        if self.turn.declared:
            return []
        return [
            Declare(frozenset(six), called)
            for six in combinations(sorted(hand), GOVERNMENT)
            for called in (True, False)
        ]

    def _may_discard(self, card: str) -> bool:
        return not self.is_special(card) and card not in self.turn.taken

    def play(self, move: Any) -> list[Ruling]:
        self._check(move)
        player = self.to_act
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

    def _check(self, move: Any) -> None:
        if self.over:
            raise IllegalMove("compromis.illegal_over")
        phase = self.turn.phase
        if phase not in self._PHASES.get(type(move).__name__, ()):
            raise IllegalMove("compromis.illegal_phase", phase=phase)
        hand = self.hands[self.to_act or 0]
        card = getattr(move, "card", None)
        if card is not None and card not in hand:
            raise IllegalMove("compromis.illegal_not_in_hand", card=card)
        if isinstance(move, TakeDiscard) and not self.discard:
            raise IllegalMove("compromis.illegal_discard_empty")
        if isinstance(move, Discard):
            if self.is_special(move.card):
                raise IllegalMove("compromis.illegal_special_on_discard", card=card)
            if card in self.turn.taken:
                raise IllegalMove("compromis.illegal_same_discard", card=card)
        if isinstance(move, PlaySpecial) and not self.is_special(move.card):
            raise IllegalMove(not_special_key(move.card, self.options["first_game"]), card=card)
        if isinstance(move, ShowJack) and rank_of(card) != "J":
            raise IllegalMove("compromis.illegal_not_jack", card=card)
        if isinstance(move, Target) and not (0 <= move.seat < self.players and move.seat != self.current):
            raise IllegalMove("compromis.illegal_target", seat=move.seat)
        if isinstance(move, Arrange) and sorted(move.order) != sorted(self.turn.looked):
            raise IllegalMove("compromis.illegal_order", count=len(self.turn.looked))
        if isinstance(move, Declare):
            if self.turn.declared:
                raise IllegalMove("compromis.illegal_declared_twice")
            missing = sorted(set(move.cards) - set(hand))
            if missing:
                raise IllegalMove("compromis.illegal_not_in_hand", card=missing[0])
            if len(move.cards) != GOVERNMENT:
                raise IllegalMove("compromis.gov_count", count=len(move.cards))

    # -- moves --

    def _do_drawstock(self, player: int, move: DrawStock) -> list[Ruling]:
        self.hands[player].append(self.stock.pop())
        self.turn.phase = "act"
        return [Ruling("compromis.drew_stock", {"player": player})]

    def _do_takediscard(self, player: int, move: TakeDiscard) -> list[Ruling]:
        card = self.discard.pop()
        self.hands[player].append(card)
        self.turn.taken.add(card)
        self.turn.phase = "act"
        return [Ruling("compromis.took_discard", {"player": player, "card": card})]

    def _do_discard(self, player: int, move: Discard) -> list[Ruling]:
        self.hands[player].remove(move.card)
        self.discard.append(move.card)
        rulings = [Ruling("compromis.discarded", {"player": player, "card": move.card})]
        if self.turn.phase == "binche":
            self.turn.binche.pop(0)
            return rulings + self._binche_next()
        return rulings + self._end_turn()

    def _do_playspecial(self, player: int, move: PlaySpecial) -> list[Ruling]:
        self.hands[player].remove(move.card)
        self.aside.append(move.card)
        effect = self.effects[move.card]
        rulings = [Ruling(f"compromis.special_{effect}", {"player": player, "card": move.card})]
        if effect == "doudou":
            if not self.discard:
                return rulings + [Ruling("compromis.doudou_empty", {"player": player})] + self._end_turn()
            card = self.discard.pop()
            self.hands[player].append(card)
            self.turn.taken.add(card)
            self.turn.phase = "doudou"
            return rulings + [Ruling("compromis.took_discard", {"player": player, "card": card})]
        if effect == "malmedy":
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
        # manneken: look at the top 3 (reshuffle first when fewer than 3), alone.
        if len(self.stock) < 3:
            reshuffle_except_top(self.stock, self.discard, self.rng)
        self.turn.looked = tuple(reversed(self.stock[-3:]))
        if not self.turn.looked:
            return rulings + self._end_turn()
        self.turn.phase = "arrange"
        return rulings

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
        self.turn.declared = True
        verdict = check_government(move.cards, self.deck)
        if not verdict.ok:
            self.skips[player] += 1
            wrong = [Ruling(key, {"player": player, **params}, "violation") for key, params in verdict.problems]
            return wrong + [Ruling("compromis.gov_false", {"player": player}, "violation")]
        hand = self.hands[player]
        king = any(rank_of(c) == "K" for c in hand if c not in move.cards)
        points = 2 if king else 1
        self._scores[player] += points
        rulings = [Ruling("compromis.government_ok", {"player": player, "points": points}, "score")]
        if not move.called:
            self.frites.append(player)
            rulings.append(Ruling("compromis.forgot_call", {"player": player}, "reminder"))
        if self._scores[player] >= self.target_points:
            self._winner = player
            self.laid = sorted(move.cards)
            self.hands[player] = [c for c in hand if c not in move.cards]
            last = min(self._scores)
            payers = [s for s in range(self.players) if self._scores[s] == last]
            return (
                rulings
                + [Ruling("compromis.match_won", {"player": player}, "game_over")]
                + [Ruling("compromis.frites", {"player": s}, "reminder") for s in payers]
            )
        return rulings + self._new_round((player + 1) % self.players)

    # -- flow --

    def _new_round(self, starter: int) -> list[Ruling]:
        cards = sorted(self.deck.ids)
        self.rng.shuffle(cards)
        self.hands = deal(cards, self.players, HAND, first=starter)
        self.stock = cards[HAND * self.players :][::-1]  # top = last
        self.discard, self.aside = [], []
        self.skips = [0] * self.players
        self.rounds += 1
        self.round_starter = starter
        rulings = [Ruling("compromis.round_start", {"round": self.rounds, "player": starter})]
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
        return rulings

    def _stock_ready(self) -> bool:
        """A card can be drawn, reshuffling the discard pile (but its top) if the stock is empty."""
        return bool(self.stock) or reshuffle_except_top(self.stock, self.discard, self.rng)

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
        self.hands[seat].append(self.stock.pop())
        return [Ruling("compromis.binche_draw", {"player": seat})]

    # -- the bot --

    def bot_move(self) -> Any:
        """Declare once a government is in hand; keep pairs, a King and a Jack; play specials."""
        phase, seat = self.turn.phase, self.to_act or 0
        hand = self.hands[seat]
        if phase in ("act", "doudou", "malmedy_give") and not self.turn.declared:
            six = find_government(hand, self.deck)
            if six is not None:
                return Declare(six)
        if phase == "draw":
            top = self.discard[-1] if self.discard else None
            if top is not None and self._usefulness(top, hand) >= 10:
                return TakeDiscard()
            return DrawStock()
        if phase == "act":
            specials = [c for c in hand if self.is_special(c)]
            if specials:
                return PlaySpecial(self.rng.choice(specials))
        if phase == "malmedy_target":
            return Target(max((s for s in range(self.players) if s != seat), key=lambda s: self._scores[s]))
        if phase == "malmedy_defend":
            jacks = [c for c in hand if rank_of(c) == "J"]
            return ShowJack(jacks[0]) if jacks else Yield()
        if phase == "arrange":
            return Arrange(self.turn.looked)
        allowed = [c for c in hand if phase == "malmedy_give" or self._may_discard(c)]
        worst = min(
            allowed,
            key=lambda c: (self._usefulness(c, [h for h in hand if h != c]), self.rng.random()),
        )
        return Give(worst) if phase == "malmedy_give" else Discard(worst)

    def _usefulness(self, card: str, others: list[str]) -> int:
        """How much a bot wants to keep ``card`` next to ``others``: partners count most."""
        if number_of(card) is not None:
            return 1 + 10 * sum(can_pair(card, o, self.deck) for o in others)
        rank = rank_of(card)
        if rank in ("K", "J") and not any(rank_of(o) == rank for o in others):
            return 2  # one King for the bonus, one Jack against Malmedy
        return 0
