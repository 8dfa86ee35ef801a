"""The Patience referee: the camera watches the tableau, the waste and the foundations.

The kiosk keeps a :class:`~kiosk.games.patience.Tableau` in which every card it has not seen is
unknown. A card confirmed in a zone is one of:
- a known card arriving from elsewhere: a move, checked against the rules (legal, or the reason
  it is not; the player puts it back);
- a new card in a column whose face-up cards are gone: the face-down card turned up;
- a new card on the waste: the stock was turned (after a full pass the kiosk knows the stock).
Removals are ignored: a card covered by another one disappears from view without moving.

A hint is given on request: the solver's next move of a winning line when every card is known
(the player can tell the face-down cards and the stock with the ``tell`` input), else a move that
turns up a hidden card, else an honest "no win found".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.decks import SUITS
from kiosk.games.base import IllegalMove, Ruling
from kiosk.games.patience import COLUMNS, Column, Draw, Move, Patience, Recycle, Tableau
from kiosk.games.solver import Advisor
from kiosk.referee.base import InputSpec, Observation, RefereeAdapter
from kiosk.referee.zones import Layout, Zone

STOCK_SIZE = 52 - sum(range(1, COLUMNS + 1))


class PatienceReferee(RefereeAdapter):
    game_id = "patience"

    def __init__(self, players: int = 1, options: Mapping[str, Any] | None = None, seed: int = 0):
        super().__init__(players, options, seed)
        if players != 1:
            raise ValueError("patience: 1 player")
        self.options = {**Patience.default_options, **self.options}
        columns = [Column([None] * (i + 1), []) for i in range(COLUMNS)]
        self.tableau = Tableau(columns, {}, [None] * STOCK_SIZE, [], self.options["draw"])
        self.advisor = Advisor()

    @classmethod
    def layout(cls, players: int = 1) -> Layout:
        zones = [Zone("stock", (0.02, 0.03, 0.14, 0.30)), Zone("waste", (0.16, 0.03, 0.30, 0.30))]
        zones += [Zone(f"found{i}", (0.44 + i * 0.14, 0.03, 0.56 + i * 0.14, 0.30)) for i in range(4)]
        zones += [Zone(f"col{i}", (0.02 + i * 0.14, 0.34, 0.14 + i * 0.14, 0.98)) for i in range(COLUMNS)]
        return Layout(tuple(zones))

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

    def observe(self, obs: Observation) -> list[Ruling]:
        zone, card = obs.zone or "", obs.card_id
        if obs.kind != "confirmed" or self.tableau.won or zone == "stock" or not zone:
            return []
        if card.startswith("JK"):
            return [Ruling("patience.manneken_out", {"card": card}, "violation")]
        dst = "found" if zone.startswith("found") else zone
        source = self._where(card)
        if source and (source[0] == dst or (dst == "found" and source[0].startswith("found"))):
            return []  # seen again where it already is
        if zone == "waste":
            return self._turned_from_stock(card)
        if source is None:
            if self._known(card):
                return [Ruling("patience.not_movable", {"card": card}, "violation")]
            return self._turned_up(zone, card)
        move = self._carried(Move(source[0], dst, source[1]))
        try:
            turned = self.tableau.apply(move)
        except IllegalMove as exc:
            return [exc.ruling()]
        rulings = [Ruling("patience.move_ok", {"card": card}, "ok")]
        rulings += [Ruling("patience.turned", {"card": c}, "info") for c in turned]
        if self.tableau.won:
            rulings.append(Ruling("patience.won", {}, "game_over"))
        return rulings

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

    def _turned_up(self, zone: str, card: str) -> list[Ruling]:
        if not zone.startswith("col"):
            return [Ruling("patience.unexpected", {"card": card}, "violation")]
        index = int(zone[3:])
        col = self.tableau.columns[index]
        if col.up or not col.down:
            return [Ruling("patience.unexpected", {"card": card}, "violation")]
        if col.down[-1] not in (None, card):
            return [Ruling("patience.told_otherwise", {"card": card, "told": col.down[-1]}, "violation")]
        self.tableau.reveal(index, card)
        return []

    def _turned_from_stock(self, card: str) -> list[Ruling]:
        """A card appeared on the waste: the stock was turned (after a recycle if it was empty)."""
        t = self.tableau
        if self._where(card) is not None:
            return [Ruling("patience.unexpected", {"card": card}, "violation")]
        if not t.stock:
            if not t.waste:
                return [Ruling("patience.unexpected", {"card": card}, "violation")]
            t.apply(Recycle())
        if card not in t.stock and self._known(card):
            return [Ruling("patience.unexpected", {"card": card}, "violation")]
        t.apply(Draw())
        if t.waste[-1] is None:
            t.waste[-1] = card
        elif t.waste[-1] != card:
            return [Ruling("patience.stock_order", {"card": card}, "violation")]
        return []

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        if action == "hint":
            return [self._hint()]
        if action == "tell":
            return self._tell(str(params.get("place", "")), list(params.get("cards", [])))
        return [Ruling("patience.input_not_now", {}, "reminder")]

    def _tell(self, place: str, cards: list[str]) -> list[Ruling]:
        """The player tells the face-down cards of a column (bottom first) or the stock (top
        first): unknown places are filled, known ones must agree."""
        t = self.tableau
        if place.startswith("col") and place[3:].isdigit() and int(place[3:]) < COLUMNS:
            pile = t.columns[int(place[3:])].down
        elif place == "stock":
            pile = t.stock
            cards = list(reversed(cards))
        else:
            return [Ruling("patience.input_not_now", {}, "reminder")]
        clash = [c for c in cards if self._known(c) and c not in pile]
        if len(cards) != len(pile) or clash or any(k not in (None, c) for k, c in zip(pile, cards, strict=True)):
            return [Ruling("patience.tell_refused", {"place": place}, "violation")]
        pile[:] = cards
        return [Ruling("patience.told", {"place": place, "count": len(cards)}, "info")]

    def _hint(self) -> Ruling:
        result = self.advisor.hint(self.tableau)
        if result.status == "won":
            return Ruling("patience.won", {}, "game_over")
        if result.move is None:
            return Ruling("patience.hint_none", {}, "info")
        prefix = "patience.hint_win_" if result.status == "win" else "patience.hint_progress_"
        move = result.move
        if isinstance(move, Draw):
            return Ruling(prefix + "draw", {}, "info")
        if isinstance(move, Recycle):
            return Ruling(prefix + "recycle", {}, "info")
        card = self.tableau.moving(move)[0]
        if move.dst == "found":
            return Ruling(prefix + "home", {"card": card}, "info")
        return Ruling(prefix + "move", {"card": card, "column": int(move.dst[3:]) + 1}, "info")

    def inputs(self) -> list[InputSpec]:
        return [] if self.tableau.won else [InputSpec("hint", "patience.input_hint")]

    def status(self) -> Mapping[str, Any]:
        won = self.tableau.won
        home = self.tableau.foundation_count()
        return {
            "to_act": None if won else 0,
            "scores": [home],
            "over": won,
            "winners": [0] if won else [],
            "foundations": {s: len(self.tableau.foundations[s]) for s in SUITS},
        }
