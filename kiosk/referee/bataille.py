"""The Bataille referee: each player turns his card face up in his own zone of the mat.

What the camera proves: the face-up cards of a fight, hence who takes them or who must fight a
bataille (only the tied players). The face-down card of a bataille is not recognised, and the
piles are hidden: a player who has run out says so with a button, and if that happens during
his bataille he loses (rules-decisions.md). The kiosk cannot count the cards in the piles, so it
does not apply the round cap of the engine; it counts the fights.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from kiosk.games.base import Ruling
from kiosk.games.bataille import best_seats, seats_text
from kiosk.referee.base import InputSpec, Observation, RefereeAdapter
from kiosk.referee.zones import Layout, seats_layout

_SEAT = re.compile(r"seat(\d+)$")


class BatailleReferee(RefereeAdapter):
    game_id = "bataille"

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        super().__init__(players, options, seed)
        self.active = list(range(players))
        self.fighters = list(self.active)
        self.faces: dict[int, str] = {}  # this step's face-up card per fighter
        self.shown: list[str] = []  # every face-up card of the fight, for the announcement
        self.fights = 0
        self.taken = [0] * players  # fights won per seat: the only score the camera proves
        self.winners: list[int] = []

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players, centre=())

    def observe(self, obs: Observation) -> list[Ruling]:
        match = _SEAT.match(obs.zone or "")
        if obs.kind != "confirmed" or match is None or self.winners:
            return []
        seat = int(match.group(1))
        if obs.card_id.startswith("JK"):
            return [Ruling("bataille.manneken_out", {"card": obs.card_id}, "violation")]
        if seat not in self.fighters:
            return [Ruling("bataille.not_fighting", {"player": seat + 1}, "violation")]
        if seat in self.faces or obs.card_id in self.shown:
            return []
        self.faces[seat] = obs.card_id
        self.shown.append(obs.card_id)
        if len(self.faces) < len(self.fighters):
            return []
        return self._resolve()

    def _resolve(self) -> list[Ruling]:
        best = best_seats(self.faces)
        self.faces = {}
        if len(best) > 1:
            self.fighters = best
            return [Ruling("bataille.bataille", {"players": seats_text(best)}, "info")]
        return self._takes(best[0])

    def _takes(self, winner: int) -> list[Ruling]:
        cards = " ".join(self.shown)
        self.shown, self.faces, self.fighters = [], {}, list(self.active)
        self.fights += 1
        self.taken[winner] += 1
        return [Ruling("bataille.takes_seen", {"player": winner + 1, "cards": cards}, "ok")]

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        seat = params.get("player")
        if action != "out" or seat not in self.active or self.winners:
            return [Ruling("bataille.input_not_now", {}, "reminder")]
        self.active.remove(seat)
        rulings = [Ruling("bataille.out_of_cards", {"player": seat + 1}, "violation")]
        if seat in self.fighters:
            self.fighters.remove(seat)
            self.faces.pop(seat, None)
        if len(self.active) == 1:
            self.winners = list(self.active)
            return rulings + [Ruling("bataille.game_over", {"players": seats_text(self.winners)}, "game_over")]
        if not self.fighters:  # the whole bataille ran out: the next player still in takes
            return rulings + self._takes(min(self.active, key=lambda s: (s - seat) % self.players))
        if len(self.fighters) == 1 and self.shown:  # the last fighter standing takes the pot
            return rulings + self._takes(self.fighters[0])
        if self.faces and len(self.faces) == len(self.fighters):
            return rulings + self._resolve()
        return rulings

    def inputs(self) -> list[InputSpec]:
        if self.winners:
            return []
        return [InputSpec("out", "bataille.input_out", {"player": s}) for s in self.active]

    def status(self) -> Mapping[str, Any]:
        waiting = [s for s in self.fighters if s not in self.faces]
        return {
            "to_act": waiting[0] if waiting else None,
            "scores": list(self.taken),
            "fights": self.fights,
            "over": bool(self.winners),
            "winners": list(self.winners),
            "fighters": list(self.fighters),
        }
