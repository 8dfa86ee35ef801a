"""Referee of Le Compromis à la belge: what the camera proves about the table.

The mat has one zone per seat (where a government is laid down), the draw pile, the discard pile
and the ``aside`` zone for the Aces and Manneken-Pis that were played. The camera sees neither the
hands nor the face-down draw pile, so the referee judges what lands face up:

- 6 cards confirmed in a seat's zone: a government, judged on the spot (valid, or which pair fails
  and why); a King shown in that zone afterwards adds the bonus point (once);
- a card confirmed aside: the special card's effect is announced (or refused: only an Ace or a
  Manneken-Pis goes aside, and none in the first game);
- a card confirmed on the discard pile ends the turn (an Ace or Manneken-Pis there is a fault;
  so is discarding the card just taken from that pile).

It follows whose turn it is from the discards (Binche's and Doudou's extra discards included) and
applies the skips of Andenne and of a false government. Players tell it who shouted
« Compromis, une fois ! » (``call``) and when the next round starts (``next_round``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.decks import load_deck
from kiosk.games.base import Ruling
from kiosk.games.cards import rank_of
from kiosk.games.compromis import GOVERNMENT, Compromis, check_government, not_special_key, special_effects
from kiosk.referee.base import InputSpec, Observation, RefereeAdapter
from kiosk.referee.zones import Layout, seats_layout


class CompromisReferee(RefereeAdapter):
    game_id = "compromis"
    seats_as_names = True

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> None:
        unknown = set(options or {}) - set(Compromis.default_options)
        if unknown:
            raise ValueError(f"compromis: unknown option(s) {sorted(unknown)}")
        opts = {**Compromis.default_options, **(options or {})}
        self.players = players
        self.deck = load_deck(Compromis.deck_id)
        self.effects = special_effects(opts)
        self.first_game = bool(opts["first_game"])
        self.target_points = 4 if players == 2 else 3
        self.scores = [0] * players
        self.zones: dict[str, list[str]] = {}
        self.current = int(opts["youngest"])
        self.skips = [0] * players
        self.called = [False] * players
        self.judged: set[int] = set()  # seats whose 6 cards were judged (until they pick them up)
        self.governed: int | None = None  # the seat that formed this round's government
        self.king_shown = False
        self.owed_discards = 0  # Binche's discards by the others, Doudou's swap
        self.taken: set[str] = set()  # cards taken from the discard pile during this turn
        self.winner: int | None = None
        self.round = 1

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players, centre=("draw", "discard", "aside"))

    # -- observations --

    def observe(self, obs: Observation) -> list[Ruling]:
        if obs.zone is None or obs.zone == "draw":
            return []
        cards = self.zones.setdefault(obs.zone, [])
        if obs.kind == "removed":
            if obs.card_id in cards:
                cards.remove(obs.card_id)
            if obs.zone == "discard":
                self.taken.add(obs.card_id)
            if obs.zone.startswith("seat") and not cards:
                self.judged.discard(int(obs.zone[4:]))
            return []
        if obs.card_id in cards:
            return []
        cards.append(obs.card_id)
        if self.winner is not None:
            return []
        if obs.zone.startswith("seat"):
            return self._seat_card(int(obs.zone[4:]), obs.card_id)
        if obs.zone == "aside":
            return self._aside(obs.card_id)
        return self._discard(obs.card_id)

    def _seat_card(self, seat: int, card: str) -> list[Ruling]:
        cards = self.zones[f"seat{seat}"]
        if self.governed == seat and rank_of(card) == "K" and not self.king_shown:
            self.king_shown = True
            return [Ruling("compromis.king_bonus", {"player": seat}, "score")] + self._score(seat, 1)
        if len(cards) != GOVERNMENT or seat in self.judged or self.governed is not None:
            return []
        self.judged.add(seat)
        verdict = check_government(cards, self.deck)
        if not verdict.ok:
            self.skips[seat] += 1
            wrong = [Ruling(key, {"player": seat, **params}, "violation") for key, params in verdict.problems]
            return wrong + [Ruling("compromis.gov_false", {"player": seat}, "violation")]
        self.governed = seat
        rulings = [
            Ruling("compromis.government_ok", {"player": seat, "points": 1}, "score"),
            Ruling("compromis.king_prompt", {"player": seat}, "info"),
        ]
        if not self.called[seat]:
            rulings.append(Ruling("compromis.forgot_call", {"player": seat}, "reminder"))
        return rulings + self._score(seat, 1)

    def _score(self, seat: int, points: int) -> list[Ruling]:
        self.scores[seat] += points
        if self.scores[seat] < self.target_points:
            return []
        self.winner = seat
        last = min(self.scores)
        return [Ruling("compromis.match_won", {"player": seat}, "game_over")] + [
            Ruling("compromis.frites", {"player": s}, "reminder") for s in range(self.players) if self.scores[s] == last
        ]

    def _aside(self, card: str) -> list[Ruling]:
        if card not in self.effects:
            return [Ruling(not_special_key(card, self.first_game), {"card": card}, "violation")]
        player, effect = self.current, self.effects[card]
        rulings = [Ruling(f"compromis.special_{effect}", {"player": player, "card": card})]
        if effect == "binche":
            self.owed_discards = self.players - 1
            return rulings
        if effect == "doudou" and self.zones.get("discard"):
            self.owed_discards = 1
            return rulings
        if effect == "doudou":
            rulings.append(Ruling("compromis.doudou_empty", {"player": player}))
        if effect == "andenne":
            skipped = (player + 1) % self.players
            self.skips[skipped] += 1
            rulings.append(Ruling("compromis.andenne_skip", {"player": skipped}))
        return rulings + self._next_turn()

    def _discard(self, card: str) -> list[Ruling]:
        if card in self.effects:
            return [Ruling("compromis.illegal_special_on_discard", {"card": card}, "violation")]
        if card in self.taken:
            return [Ruling("compromis.illegal_same_discard", {"card": card}, "violation")]
        if self.owed_discards:
            self.owed_discards -= 1
            if self.owed_discards:
                return []
        return self._next_turn()

    def _next_turn(self) -> list[Ruling]:
        rulings: list[Ruling] = []
        seat = (self.current + 1) % self.players
        while self.skips[seat]:
            self.skips[seat] -= 1
            rulings.append(Ruling("compromis.turn_skipped", {"player": seat}))
            seat = (seat + 1) % self.players
        self.current = seat
        self.taken = set()
        return rulings + [Ruling("compromis.your_turn", {"player": seat})]

    # -- inputs --

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        if action == "call":
            seat = int(params["seat"])
            self.called[seat] = True
            return [Ruling("compromis.called", {"player": seat}, "ok")]
        if action == "next_round" and self.governed is not None and self.winner is None:
            starter = (self.governed + 1) % self.players  # the winner's left neighbour
            self.governed, self.king_shown = None, False
            self.judged, self.zones, self.taken = set(), {}, set()
            self.called, self.skips = [False] * self.players, [0] * self.players
            self.owed_discards, self.current = 0, starter
            self.round += 1
            return [Ruling("compromis.round_start", {"round": self.round, "player": starter})]
        return [Ruling("compromis.input_refused", {"action": action}, "violation")]

    def inputs(self) -> list[InputSpec]:
        if self.winner is not None:
            return []
        specs = [InputSpec("call", "compromis.input_call", {"seat": s}) for s in range(self.players)]
        if self.governed is not None:
            specs.append(InputSpec("next_round", "compromis.input_next_round"))
        return specs

    def status(self) -> Mapping[str, Any]:
        over = self.winner is not None
        return {
            "to_act": None if over else self.current,
            "scores": list(self.scores),
            "over": over,
            "winners": [] if self.winner is None else [self.winner],
            "target": self.target_points,
            "specials": bool(self.effects),
        }
