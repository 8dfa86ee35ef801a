"""Referee of Le Choux de Bruxelles: the pairs laid face up in each player's zone.

The camera never sees a hand nor a draw, so the referee only judges the pairs: two cards of the
same value and colour confirmed in a seat's zone make a pair (with the naming variant it counts
once a place of the pair was named, ``name`` input); two cards of one value but different colours
are called out; the Choux de Bruxelles laid down is refused, until every pair is down: then it
shows who the Puant is (or the table says so, ``puant`` input). Its status tells who is drawn
from first, from the deal (one card at a time from the dealer's left) and the odd hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games.base import Ruling
from kiosk.games.cards import deal, rank_of
from kiosk.games.choux import CHOUX, Choux, choux_deck, first_holder, is_pair, names_match
from kiosk.referee.base import InputSpec, Observation, RefereeAdapter
from kiosk.referee.zones import Layout, seats_layout

ALL_PAIRS = 24


class ChouxReferee(RefereeAdapter):
    game_id = "choux"
    seats_as_names = True

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> None:
        unknown = set(options or {}) - set(Choux.default_options)
        if unknown:
            raise ValueError(f"choux: unknown option(s) {sorted(unknown)}")
        opts = {**Choux.default_options, **(options or {})}
        self.players = players
        self.deck = choux_deck()
        self.naming = bool(opts["naming"])
        self.dealer = int(opts["dealer"])
        self.loose: dict[int, list[str]] = {s: [] for s in range(players)}  # unpaired, face up
        self.laid: dict[int, list[tuple[str, str]]] = {s: [] for s in range(players)}
        self.unnamed: dict[int, list[tuple[str, str]]] = {s: [] for s in range(players)}
        self.puant: int | None = None

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players, centre=())

    def opening(self) -> dict[str, int]:
        """Who is drawn from first (``giver``) and who starts (``player``), from the deal alone:
        one card at a time from the dealer's left, so the hand sizes are known."""
        counts = [len(h) for h in deal(self.deck.ids, self.players, first=(self.dealer + 1) % self.players)]
        holder = first_holder(counts, self.dealer)
        return {"player": (holder + 1) % self.players, "giver": holder}

    def pairs_down(self) -> int:
        return sum(len(p) for p in self.laid.values())

    # -- observations --

    def observe(self, obs: Observation) -> list[Ruling]:
        if obs.zone is None or not obs.zone.startswith("seat") or obs.card_id not in self.deck:
            return []
        seat = int(obs.zone[4:])
        if obs.kind == "removed":
            return self._removed(seat, obs.card_id)
        if obs.card_id == CHOUX:
            if self.pairs_down() == ALL_PAIRS:
                return self._puant(seat)
            return [Ruling("choux.never_pairs", {"player": seat, "card": CHOUX}, "violation")]
        loose = self.loose[seat]
        if obs.card_id in loose or any(obs.card_id in p for p in self.laid[seat] + self.unnamed[seat]):
            return []
        partner = next((c for c in loose if is_pair(c, obs.card_id)), None)
        if partner is None:
            loose.append(obs.card_id)
            clash = next((c for c in loose[:-1] if rank_of(c) == rank_of(obs.card_id)), None)
            if clash is None:
                return []
            return [
                Ruling(
                    "choux.not_pair_colour",
                    {"player": seat, "card_a": clash, "card_b": obs.card_id},
                    "violation",
                )
            ]
        loose.remove(partner)
        pair = (partner, obs.card_id)
        if self.naming:
            self.unnamed[seat].append(pair)
            return [Ruling("choux.name_it", {"player": seat, "card_a": pair[0], "card_b": pair[1]})]
        return self._lay(seat, pair)

    def _lay(self, seat: int, pair: tuple[str, str]) -> list[Ruling]:
        self.laid[seat].append(pair)
        rulings = [Ruling("choux.pair", {"player": seat, "card_a": pair[0], "card_b": pair[1]}, "ok")]
        if self.pairs_down() == ALL_PAIRS:
            rulings.append(Ruling("choux.all_pairs", {}, "info"))
        return rulings

    def _removed(self, seat: int, card: str) -> list[Ruling]:
        """A card picked up: a loose card, or a pair going back to hand (no longer counted)."""
        if card in self.loose[seat]:
            self.loose[seat].remove(card)
            return []
        for group in (self.laid[seat], self.unnamed[seat]):
            for pair in group:
                if card in pair:
                    group.remove(pair)
                    other = pair[1] if pair[0] == card else pair[0]
                    self.loose[seat].append(other)
                    return []
        return []

    def _puant(self, seat: int) -> list[Ruling]:
        self.puant = seat
        return [Ruling("choux.puant", {"player": seat}, "game_over")]

    # -- inputs --

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        seat = int(params.get("seat", -1))
        if action == "name" and 0 <= seat < self.players and self.unnamed[seat]:
            pair = self.unnamed[seat].pop(0)
            args = {"player": seat, "card_a": pair[0], "card_b": pair[1]}
            if names_match(str(params.get("text", "")), pair, self.deck):
                return [Ruling("choux.named_right", args, "ok")] + self._lay(seat, pair)
            self.loose[seat] += list(pair)  # back in hand: it leaves the zone
            return [Ruling("choux.named_wrong", args, "violation")]
        if action == "puant" and 0 <= seat < self.players and self.pairs_down() == ALL_PAIRS:
            return self._puant(seat)
        return [Ruling("choux.input_refused", {"action": action}, "violation")]

    def inputs(self) -> list[InputSpec]:
        if self.puant is not None:
            return []
        specs = [
            InputSpec("name", "choux.input_name", {"seat": s, "card_a": p[0], "card_b": p[1]})
            for s in range(self.players)
            for p in self.unnamed[s][:1]
        ]
        if self.pairs_down() == ALL_PAIRS:
            specs += [InputSpec("puant", "choux.input_puant", {"seat": s}) for s in range(self.players)]
        return specs

    def status(self) -> Mapping[str, Any]:
        over = self.puant is not None
        return {
            "to_act": None,  # draws happen between hands: the camera cannot follow them
            "scores": [len(self.laid[s]) for s in range(self.players)],
            "over": over,
            "winners": [s for s in range(self.players) if s != self.puant] if over else [],
            "pairs_down": self.pairs_down(),
            "opening": self.opening(),
        }
