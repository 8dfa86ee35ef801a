"""Patience (Klondike), one player: the seed's rules plus rules-decisions.md.

Seed (000): without the Manneken-Pis, lay 7 columns of 1 to 7 cards, only the last card of each
column face up. Build down in alternating colours (a red Queen on a black King). Put the Aces
aside and build them up by suit from Ace to King. The rest is the stock, turned one card at a
time. You win when the four piles are complete.

Decisions: draw 1 (option ``draw``: 3); unlimited passes through the stock; only a King, or a run
headed by a King, fills an empty column; a card may come back from a foundation to a column.

:class:`Tableau` holds the rules on a position that may contain unknown cards (``None``: a
face-down card or a stock card nobody has told the kiosk); the engine deals a fully known one, or
at the table starts from an unknown one and learns it from what the camera sees. A face-down card
whose column is cleared turns up by itself when it is known; an unknown one waits for
:meth:`Tableau.reveal`.

At the table (``at_table=True``) nothing is dealt: every card starts unknown and the table reports
:class:`Landed`, a card the camera saw arrive on a place. The engine reads it as a move of that
card (with the cards on it) from where it lies, checked by the rules; a card turned up in a
cleared column; or, on the waste, a turn of the stock (after turning the waste over when the stock
is empty). The player may also :class:`Tell` the face-down cards of a column or the stock.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kiosk.decks import SUITS, load_deck, parse_standard_id
from kiosk.games.base import GameEngine, IllegalMove, Ruling

COLUMNS = 7
STOCK_SIZE = 52 - sum(range(1, COLUMNS + 1))
RANK_VALUE: dict[str, int] = {
    r: i + 1 for i, r in enumerate(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))
}
RED = frozenset({"D", "H"})
# Looked up, not parsed: the rules run in every bot move and every solver call.
_RANK: dict[str, int] = {f"{r}{s}": v for r, v in RANK_VALUE.items() for s in SUITS}
_RED: dict[str, bool] = {f"{r}{s}": s in RED for r in RANK_VALUE for s in SUITS}
RANKS: tuple[str, ...] = tuple(RANK_VALUE)
#: card -> the two cards that may be laid on it in a column.
_GOES_ON: dict[str, tuple[str, ...]] = {
    c: tuple(o for o in _RANK if _RANK[o] == _RANK[c] - 1 and _RED[o] != _RED[c]) for c in _RANK
}


def rank_of(card: str) -> int:
    return _RANK[card]


def suit_of(card: str) -> str:
    return parse_standard_id(card)[1]


def goes_on(card: str, below: str) -> bool:
    """May ``card`` be laid on ``below`` in a column (one lower, other colour)?"""
    return card in _GOES_ON[below]


@dataclass(frozen=True)
class Draw:
    """Turn the next card(s) of the stock onto the waste (``draw`` option: 1 or 3)."""


@dataclass(frozen=True)
class Recycle:
    """The stock is empty: the waste turns over into a new stock (unlimited passes)."""


@dataclass(frozen=True)
class Move:
    """Move ``count`` cards from ``src`` to ``dst``.

    Places: ``waste``, ``col0`` .. ``col6``, ``found:C`` (a foundation, by suit); as a
    destination ``found`` means the foundation of the card's suit.
    """

    src: str
    dst: str
    count: int = 1


@dataclass(frozen=True)
class GiveUp:
    """The player stops: the game is recorded as lost."""


@dataclass(frozen=True)
class Landed:
    """At the table: the camera saw ``card`` arrive on ``place`` (``waste``, ``col0`` .. ``col6``, or
    ``found`` for any foundation)."""

    card: str
    place: str


@dataclass(frozen=True)
class Tell:
    """At the table: the player tells the face-down ``cards`` of a column (bottom first) or of the
    stock (``place`` ``stock``, top first)."""

    place: str
    cards: tuple[str, ...]


@dataclass
class Column:
    down: list[str | None]
    up: list[str]


class Tableau:
    """A Klondike position and its rules; stock and waste tops are their last items."""

    def __init__(
        self,
        columns: list[Column],
        foundations: Mapping[str, list[str]],
        stock: list[str | None],
        waste: list[str | None],
        draw: int = 1,
    ):
        self.columns = columns
        self.foundations = {s: list(foundations.get(s, [])) for s in SUITS}
        self.stock = stock
        self.waste = waste
        self.draw = draw

    @classmethod
    def deal(cls, cards: list[str], draw: int = 1) -> Tableau:
        """The seed's layout: column i gets i + 1 cards, the last one face up."""
        columns, k = [], 0
        for i in range(COLUMNS):
            columns.append(Column(list(cards[k : k + i]), [cards[k + i]]))
            k += i + 1
        return cls(columns, {}, list(reversed(cards[k:])), [], draw)

    @property
    def won(self) -> bool:
        return all(len(f) == 13 for f in self.foundations.values())

    def foundation_count(self) -> int:
        return sum(len(f) for f in self.foundations.values())

    def _column(self, place: str) -> Column:
        if place.startswith("col") and place[3:].isdigit() and int(place[3:]) < COLUMNS:
            return self.columns[int(place[3:])]
        raise IllegalMove("patience.unknown_place", place=place)

    def moving(self, move: Move) -> list[str]:
        """The cards ``move`` would carry, or IllegalMove when the source cannot give them."""
        if move.count < 1:
            raise IllegalMove("patience.unknown_place", place=move.src)
        if move.src == "waste":
            top = self.waste[-1] if self.waste else None
            if top is None or move.count != 1:
                raise IllegalMove("patience.nothing_there", place=move.src)
            return [top]
        if move.src.startswith("found:"):
            pile = self.foundations.get(move.src[6:])
            if not pile or move.count != 1:
                raise IllegalMove("patience.nothing_there", place=move.src)
            return [pile[-1]]
        col = self._column(move.src)
        if move.count > len(col.up):
            raise IllegalMove("patience.not_face_up", place=move.src, count=move.count)
        return col.up[len(col.up) - move.count :]

    def check(self, move: Move) -> None:
        """Raise IllegalMove (with the reason) unless ``move`` is legal here."""
        cards = self.moving(move)
        head = cards[0]
        if move.dst in ("found", f"found:{suit_of(head)}"):
            if move.src.startswith("found:") or len(cards) != 1:
                raise IllegalMove("patience.one_card_to_foundation", card=head)
            pile = self.foundations[suit_of(head)]
            if rank_of(head) != len(pile) + 1:
                raise IllegalMove("patience.foundation_order", card=head, needed=len(pile) + 1)
            return
        if move.dst.startswith("found"):
            raise IllegalMove("patience.foundation_suit", card=head, place=move.dst)
        col = self._column(move.dst)
        if move.dst == move.src:
            raise IllegalMove("patience.same_place", place=move.dst)
        if col.up:
            if not goes_on(head, col.up[-1]):
                raise IllegalMove("patience.not_alternating", card=head, below=col.up[-1])
        elif col.down:
            raise IllegalMove("patience.turn_first", place=move.dst)
        elif rank_of(head) != 13:
            raise IllegalMove("patience.king_only", card=head)

    def apply(self, move: Any) -> list[str]:
        """Play a checked move; returns the face-down cards it turned up."""
        if isinstance(move, Draw):
            if not self.stock:
                raise IllegalMove("patience.stock_empty")
            for _ in range(min(self.draw, len(self.stock))):
                self.waste.append(self.stock.pop())
            return []
        if isinstance(move, Recycle):
            if self.stock or not self.waste:
                raise IllegalMove("patience.cannot_recycle")
            self.stock, self.waste = list(reversed(self.waste)), []
            return []
        self.check(move)
        cards = self.moving(move)
        if move.src == "waste":
            self.waste.pop()
        elif move.src.startswith("found:"):
            self.foundations[move.src[6:]].pop()
        else:
            del self._column(move.src).up[-move.count :]
        if move.dst.startswith("found"):
            self.foundations[suit_of(cards[0])].append(cards[0])
        else:
            self._column(move.dst).up.extend(cards)
        return self._turn_up()

    def _turn_up(self) -> list[str]:
        turned = []
        for col in self.columns:
            if not col.up and col.down and col.down[-1] is not None:
                card = col.down.pop()
                assert card is not None
                col.up.append(card)
                turned.append(card)
        return turned

    def reveal(self, index: int, card: str) -> None:
        """The camera saw the unknown face-down card of column ``index`` turned up: ``card``."""
        col = self.columns[index]
        if col.up or not col.down:
            raise IllegalMove("patience.no_card_to_turn", place=f"col{index}")
        col.down.pop()
        col.up.append(card)

    def locations(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for i, col in enumerate(self.columns):
            out += [(c, f"col{i}:down") for c in col.down if c is not None]
            out += [(c, f"col{i}") for c in col.up]
        for suit, pile in self.foundations.items():
            out += [(c, f"found:{suit}") for c in pile]
        out += [(c, "stock") for c in self.stock if c is not None]
        return out + [(c, "waste") for c in self.waste if c is not None]


class Patience(GameEngine):
    game_id = "patience"
    deck_id = "affiche-belge"
    min_players = 1
    max_players = 1
    default_options = {"draw": 1}

    def __init__(
        self, players: int, rng: random.Random, options: Mapping[str, Any] | None = None, *, at_table: bool = False
    ):
        super().__init__(players, rng, options, at_table=at_table)
        if self.options["draw"] not in (1, 3):
            raise ValueError(f"patience: draw must be 1 or 3, not {self.options['draw']!r}")
        deck = load_deck(self.deck_id)
        self.aside = [c.id for c in deck if c.kind == "joker"]
        cards = [c.id for c in deck if c.kind == "standard"]
        if at_table:
            columns = [Column([None] * (i + 1), []) for i in range(COLUMNS)]
            self.tableau = Tableau(columns, {}, [None] * STOCK_SIZE, [], self.options["draw"])
        else:
            rng.shuffle(cards)
            self.tableau = Tableau.deal(cards, self.options["draw"])
        self.gave_up = False
        self._progress = self._measure()
        self._progress_at_recycle = self._progress

    @property
    def over(self) -> bool:
        return self.gave_up or self.tableau.won

    @property
    def to_act(self) -> int | None:
        return None if self.over else 0

    def legal_moves(self) -> list[Any]:
        if self.over:
            return []
        t = self.tableau
        moves: list[Any] = [Draw()] if t.stock else ([Recycle()] if t.waste else [])
        sources: dict[str, tuple[str, int]] = {}  # head card -> (place, count)
        if t.waste and t.waste[-1] is not None:
            sources[t.waste[-1]] = ("waste", 1)
        for i, col in enumerate(t.columns):
            sources.update((card, (f"col{i}", len(col.up) - j)) for j, card in enumerate(col.up))
        for suit, pile in t.foundations.items():
            nxt = f"{RANKS[len(pile)]}{suit}" if len(pile) < 13 else None
            src, count = sources.get(nxt, ("", 0)) if nxt else ("", 0)
            if count == 1:
                moves.append(Move(src, "found"))
            if pile:
                sources[pile[-1]] = (f"found:{suit}", 1)
        for i, col in enumerate(t.columns):
            if col.up:
                heads = [c for c in _GOES_ON[col.up[-1]] if c in sources]
            else:
                heads = [] if col.down else [c for c in sources if _RANK[c] == 13]
            moves += [Move(sources[c][0], f"col{i}", sources[c][1]) for c in heads if sources[c][0] != f"col{i}"]
        if self.at_table:  # the table turns the stock by showing the card: a Landed on the waste
            moves = [m for m in moves if isinstance(m, Move)]
        return moves + [GiveUp()]

    def play(self, move: Any) -> list[Ruling]:
        if self.over:
            raise IllegalMove("patience.game_over")
        if isinstance(move, GiveUp):
            self.gave_up = True
            return [Ruling("patience.lost", {"foundations": self.tableau.foundation_count()}, "game_over")]
        if self.at_table and isinstance(move, Landed):
            return self._landed(move.card, move.place)
        if self.at_table and isinstance(move, Tell):
            return self._tell(move.place, list(move.cards))
        if not isinstance(move, Move if self.at_table else (Draw, Recycle, Move)):
            raise IllegalMove("patience.unknown_move")
        return self._apply(move)

    def _apply(self, move: Any) -> list[Ruling]:
        turned = self.tableau.apply(move)
        if isinstance(move, Recycle):
            self._progress_at_recycle = self._progress
        self._progress = max(self._progress, self._measure())
        rulings = [Ruling("patience.turned", {"card": c}, "info") for c in turned]
        if self.tableau.won:
            rulings.append(Ruling("patience.won", {}, "game_over"))
        return rulings

    # --- at the table ------------------------------------------------------------------
    def _where(self, card: str) -> tuple[str, int] | None:
        """(place, count) when ``card`` can be picked up with the cards on it, else None."""
        t = self.tableau
        if t.waste and t.waste[-1] == card:
            return "waste", 1
        for suit, pile in t.foundations.items():
            if pile and pile[-1] == card:
                return f"found:{suit}", 1
        for i, col in enumerate(t.columns):
            if card in col.up:
                return f"col{i}", len(col.up) - col.up.index(card)
        return None

    def _known(self, card: str) -> bool:
        return any(card == c for c, _ in self.tableau.locations())

    def _landed(self, card: str, place: str) -> list[Ruling]:
        if card in self.aside:
            raise IllegalMove("patience.manneken_out", card=card)
        waste = self.tableau.waste
        if self._is_waste_top(card, place):
            waste[-1] = card
            if place == "waste":
                return []  # uncovered on the waste, where it was turned unseen
            try:
                return self._landed(card, place)
            except IllegalMove:
                waste[-1] = None
                raise
        source = self._where(card)
        if source and (source[0] == place or (place == "found" and source[0].startswith("found"))):
            return []  # seen again where it lies
        if place == "waste":
            return self._from_stock(card)
        if source is None:
            return self._turned_up(place, card)
        rulings = self._apply(self._carried(Move(source[0], place, source[1])))
        return [Ruling("patience.move_ok", {"card": card}, "ok")] + rulings

    def _carried(self, move: Move) -> Move:
        """The cards of a run arrive in any order: the legal move of the longest run that
        contains the card seen, else the move of that card (whose refusal says why)."""
        if not move.src.startswith("col"):
            return move
        run = len(self.tableau.columns[int(move.src[3:])].up)
        for count in range(run, move.count, -1):
            longer = Move(move.src, move.dst, count)
            try:
                self.tableau.check(longer)
            except IllegalMove:
                continue
            return longer
        return move

    def _cleared(self, place: str) -> int | None:
        """The index of the column at ``place`` if its face-up cards are gone and face-down ones
        remain (the next card seen there is the one turned up)."""
        if not (place.startswith("col") and place[3:].isdigit() and int(place[3:]) < COLUMNS):
            return None
        col = self.tableau.columns[int(place[3:])]
        return None if col.up or not col.down else int(place[3:])

    def _is_waste_top(self, card: str, place: str) -> bool:
        """In draw 3 the cards under the waste's top were turned unseen: an unknown card seen on
        the waste, or arriving anywhere but a column that has a card to turn up, is that top."""
        waste = self.tableau.waste
        if not waste or waste[-1] is not None or self._known(card):
            return False
        return place == "waste" or self._cleared(place) is None

    def _turned_up(self, place: str, card: str) -> list[Ruling]:
        """A card nobody could pick up arrived on ``place``: the face-down card of a cleared
        column turned up, or a card that cannot have moved."""
        index = self._cleared(place)
        told = None if index is None else self.tableau.columns[index].down[-1]
        if index is None or (told is None and self._known(card)):
            raise IllegalMove("patience.not_movable" if self._known(card) else "patience.unexpected", card=card)
        if told not in (None, card):
            raise IllegalMove("patience.told_otherwise", card=card, told=told)
        self.tableau.reveal(index, card)
        return []

    def _from_stock(self, card: str) -> list[Ruling]:
        """A card arrived on the waste: the stock was turned (after a recycle if it was empty)."""
        t = self.tableau
        stock = t.stock or list(reversed(t.waste))
        if self._where(card) is not None or not stock:
            raise IllegalMove("patience.unexpected", card=card)
        expected = stock[-min(t.draw, len(stock))]  # the card a turn shows on top of the waste
        if expected is None and self._known(card):
            raise IllegalMove("patience.stock_order" if card in stock else "patience.unexpected", card=card)
        if expected not in (None, card):
            raise IllegalMove("patience.stock_order", card=card)
        if not t.stock:
            t.apply(Recycle())
        t.apply(Draw())
        t.waste[-1] = card
        return []

    def _tell(self, place: str, cards: list[str]) -> list[Ruling]:
        """The face-down cards of a column (bottom first) or the stock (top first): unknown places
        are filled, known ones must agree."""
        t = self.tableau
        if place.startswith("col") and place[3:].isdigit() and int(place[3:]) < COLUMNS:
            pile = t.columns[int(place[3:])].down
        elif place == "stock":
            pile = t.stock
            cards = list(reversed(cards))
        else:
            raise IllegalMove("patience.unknown_place", place=place)
        clash = [c for c in cards if self._known(c) and c not in pile]
        if len(cards) != len(pile) or clash or any(k not in (None, c) for k, c in zip(pile, cards, strict=True)):
            raise IllegalMove("patience.tell_refused", place=place)
        pile[:] = cards
        return [Ruling("patience.told", {"place": place, "count": len(cards)}, "info")]

    def expects(self) -> tuple[str, dict[str, Any]] | None:
        """What the table does next (message key, parameters); None once over."""
        if self.over:
            return None
        columns = self.tableau.columns
        if not any(col.up for col in columns):
            return "patience.expect_deal", {}
        hidden = next((i for i, col in enumerate(columns) if not col.up and col.down), None)
        if hidden is not None:
            return "patience.expect_turn_up", {"column": hidden + 1}
        return "patience.expect_move", {}

    def _measure(self) -> int:
        """Progress for the bot: cards home, cards face up, cards out of the stock and waste."""
        t = self.tableau
        face_down = sum(len(c.down) for c in t.columns)
        return t.foundation_count() * 3 - face_down * 2 - len(t.stock) - len(t.waste)

    def bot_move(self) -> Any:
        """Greedy: home, turn a card up, use the waste, else draw; gives up after a dry pass."""
        t = self.tableau
        moves = self.legal_moves()
        by_kind: list[list[Any]] = [
            [m for m in moves if isinstance(m, Move) and m.dst == "found" and not m.src.startswith("found")],
            [
                m
                for m in moves
                if isinstance(m, Move)
                and m.src.startswith("col")
                and m.dst.startswith("col")
                and m.count == len(t._column(m.src).up)
                and t._column(m.src).down
            ],
            [m for m in moves if isinstance(m, Move) and m.src == "waste"],
            [m for m in moves if isinstance(m, Draw)],
        ]
        for group in by_kind:
            if group:
                return group[0]
        if isinstance(moves[0], Recycle) and self._progress > self._progress_at_recycle:
            return moves[0]
        return GiveUp()

    def scores(self) -> list[int]:
        """Cards on the foundations (52 is a win)."""
        return [self.tableau.foundation_count()]

    def winners(self) -> list[int]:
        return [0] if self.tableau.won else []

    def card_locations(self) -> list[tuple[str, str]]:
        return self.tableau.locations() + [(c, "aside") for c in self.aside]
