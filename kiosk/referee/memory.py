"""The Memory referee: cards face down in the centre, kept pairs in front of each player.

The camera sees the two cards a player turns face up in the centre and the kiosk says at once
whether they pair (with the calculation and both values). A pair taken from the centre scores
two cards and the player plays again; two cards that do not pair must go back face down and the
turn passes. If either of them shows up in a seat zone, the player kept a false pair: the kiosk
flags it and asks who spotted it (the spotter gets all the author's cards, the false pair
included, and the partners of those two cards can no longer be paired), or, if nobody did,
cancels the game as the seed says. The game ends when every pair that can still be found is. A
face-down card is not recognised, so "turned back" and "taken" look alike from the centre: the
seat zones decide.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from kiosk.games import mathpairs
from kiosk.games.base import Ruling
from kiosk.games.memory import Memory
from kiosk.referee.base import InputSpec, Observation, RefereeAdapter
from kiosk.referee.zones import Layout, seats_layout

_SEAT = re.compile(r"seat(\d+)$")


class MemoryReferee(RefereeAdapter):
    game_id = "memory"

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        if not Memory.min_players <= players <= Memory.max_players:
            raise ValueError(f"memory: {players} players; this game takes 2 to 6")
        unknown = set(options or {}) - set(Memory.default_options)
        if unknown:
            raise ValueError(f"memory: unknown option(s) {sorted(unknown)}")
        self.players = players
        self.options = {**Memory.default_options, **(options or {})}
        self.total = len(mathpairs.options_pairs(self.options, 10))
        self.found = 0
        self.lost: set[int] = set()  # values of the pairs a spotted false pair broke
        self.cards = [0] * players
        self.player = (self.options["dealer"] + 1) % players
        self.face_up: list[str] = []  # cards turned in the centre this turn
        self.verdict: bool | None = None  # do the two face-up cards pair?
        self.turned: tuple[str, str] | None = None  # the two cards of that verdict
        self.no_pair: tuple[str, str] | None = None  # the last two that did not pair
        self.error: tuple[int, str, str] | None = None  # a false pair kept, not yet settled
        self.result: str | None = None  # finished | cancelled

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players)

    def observe(self, obs: Observation) -> list[Ruling]:
        if self.result or obs.card_id not in mathpairs.math_deck():
            return []
        if obs.zone == "centre":
            return self._centre(obs)
        match = _SEAT.match(obs.zone or "")
        if obs.kind == "confirmed" and match and self.no_pair and obs.card_id in self.no_pair:
            a, b = self.no_pair
            author = (self.player - 1) % self.players  # the turn passed when they left the centre
            self.error, self.no_pair = (author, a, b), None
            return [
                Ruling("memory.false_pair_kept", {"player": author + 1, **mathpairs.pair_params(a, b)}, "violation")
            ]
        return []

    def _centre(self, obs: Observation) -> list[Ruling]:
        if obs.kind == "confirmed":
            if obs.card_id in self.face_up or len(self.face_up) == 2:
                return []
            self.face_up.append(obs.card_id)
            if len(self.face_up) < 2:
                return []
            a, b = self.face_up
            self.verdict = mathpairs.is_pair(a, b)
            self.turned = (a, b)
            params = {"player": self.player + 1, **mathpairs.pair_params(a, b)}
            return [
                Ruling("memory.pair" if self.verdict else "memory.no_pair", params, "ok" if self.verdict else "info")
            ]
        if obs.card_id not in self.face_up:
            return []
        self.face_up.remove(obs.card_id)
        if self.face_up or self.verdict is None:
            return []
        return self._turn_done()

    def _turn_done(self) -> list[Ruling]:
        """Both face-up cards have left the centre: kept (a pair) or turned back (no pair)."""
        if self.verdict:
            self.verdict = None
            self.cards[self.player] += 2
            self.found += 1
            return self._game_over() or [Ruling("memory.play_again", {"player": self.player + 1})]
        self.verdict, self.no_pair = None, self.turned
        self.player = (self.player + 1) % self.players
        return [Ruling("memory.next_player", {"player": self.player + 1})]

    def inputs(self) -> list[InputSpec]:
        if self.result or self.error is None:
            return []
        author = self.error[0]
        return [
            InputSpec(
                "spotted",
                "memory.input.spotted",
                {"player": author + 1},
                {str(s): f"mathpairs.seat_{s + 1}" for s in range(self.players) if s != author},
            ),
            InputSpec("unspotted", "memory.input.unspotted", {"player": author + 1}),
        ]

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        choice = str(params.get("choice", ""))
        if self.error is None or action not in ("spotted", "unspotted"):
            return [Ruling("memory.input_not_now", {}, "reminder")]
        author, a, b = self.error
        if action == "unspotted":
            self.result = "cancelled"
            return [Ruling("memory.cancelled", {"cards": 2}, "game_over")]
        if not choice.isdigit() or int(choice) == author or int(choice) >= self.players:
            return [Ruling("memory.input_not_now", {}, "reminder")]
        spotter = int(choice)
        self.cards[spotter] += self.cards[author] + 2  # the false pair goes with the rest
        self.cards[author] = 0
        self.lost |= {mathpairs.card(a).value or 0, mathpairs.card(b).value or 0}
        self.error = None
        return [
            Ruling(
                "memory.error_spotted",
                {"spotter": spotter + 1, "player": author + 1, **mathpairs.pair_params(a, b)},
                "violation",
            )
        ] + self._game_over()

    def _game_over(self) -> list[Ruling]:
        """The end, once every pair not broken by a spotted false pair is found."""
        if self.found + len(self.lost) < self.total:
            return []
        self.result = "finished"
        return [
            Ruling("memory.game_over_cards", {"players": " ".join(str(w + 1) for w in self._winners())}, "game_over")
        ]

    def _winners(self) -> list[int]:
        best = max(self.cards)
        return [s for s, n in enumerate(self.cards) if n == best]

    def status(self) -> Mapping[str, Any]:
        return {
            "to_act": None if self.result else self.player,
            "scores": list(self.cards),
            "over": self.result is not None,
            "winners": self._winners() if self.result == "finished" else [],
        }
