"""The Pouilleux referee: the kiosk is the seed's "calculatrice".

Each player lays his pairs face up in his seat zone; the camera sees the two cards land and the
kiosk says at once whether they pair, naming the calculation and both values of a wrong pair.
Who spotted it first is told with a button: a spotter already out scores 1, one still in the
game gives a card to the author, who takes back his two cards. Players going out are told with
a button (the camera cannot see hands) and score 4, 3, 2 in that order; when one player is left
he holds the Pouilleux and scores 0. A round that cannot end goes to the error search of the
seed with buttons for who found the error and whose it was. Scoring rules come from
:mod:`kiosk.games.pouilleux`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from kiosk.games import mathpairs
from kiosk.games.base import Ruling
from kiosk.games.pouilleux import Pouilleux, finishing_points, search_points
from kiosk.referee.base import InputSpec, Observation, RefereeAdapter
from kiosk.referee.zones import Layout, seats_layout

_SEAT = re.compile(r"seat(\d+)$")


class PouilleuxReferee(RefereeAdapter):
    game_id = "pouilleux"

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        if not Pouilleux.min_players <= players <= Pouilleux.max_players:
            raise ValueError(f"pouilleux: {players} players; this game takes 2 to 4")
        unknown = set(options or {}) - set(Pouilleux.default_options)
        if unknown:
            raise ValueError(f"pouilleux: unknown option(s) {sorted(unknown)}")
        self.players = players
        self.options = {**Pouilleux.default_options, **(options or {})}
        self.watcher = mathpairs.PairWatcher()
        self.totals = [0] * players
        self.rounds_played = 0
        self._new_round()

    def _new_round(self) -> None:
        self.watcher.clear()
        self.round_points = [0] * self.players
        self.out: list[int] = []
        self.error: tuple[int, str, str] | None = None  # (author, a, b) flagged, not yet settled
        self.finder: int | None = None  # in the error search: who found it (None: the calculator)
        self.phase = "play"  # play | search | author | over

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players, centre=())

    # --- camera ------------------------------------------------------------------------
    def observe(self, obs: Observation) -> list[Ruling]:
        match = _SEAT.match(obs.zone or "")
        if match is None or obs.card_id not in mathpairs.math_deck() or self.phase == "over":
            return []
        seat = int(match.group(1))
        if obs.kind == "removed":
            self.watcher.removed(obs.zone or "", obs.card_id)
            return []
        check = self.watcher.confirmed(obs.zone or "", obs.card_id)
        if check is None:
            return []
        params = {"player": seat + 1, **check.params}
        if check.ok:
            return [Ruling("pouilleux.pair_ok", params, "ok")]
        a, b = self.watcher.laid(obs.zone or "")[-1]
        self.error = (seat, a, b)
        return [Ruling("pouilleux.wrong_pair", params, "violation")]

    # --- buttons -----------------------------------------------------------------------
    def _seats(self, seats: list[int]) -> dict[str, str]:
        return {str(s): f"mathpairs.seat_{s + 1}" for s in seats}

    def inputs(self) -> list[InputSpec]:
        everyone = list(range(self.players))
        if self.phase == "play" and self.error is not None:
            author = self.error[0]
            return [
                InputSpec(
                    "spotted",
                    "pouilleux.input.spotted",
                    {"player": author + 1},
                    self._seats([s for s in everyone if s != author]),
                ),
                InputSpec("unspotted", "pouilleux.input.unspotted", {"player": author + 1}),
            ]
        if self.phase == "play":
            return [
                InputSpec("out", "pouilleux.input.out", {}, self._seats([s for s in everyone if s not in self.out])),
                InputSpec("unfinishable", "pouilleux.input.unfinishable"),
            ]
        if self.phase == "search":
            return [
                InputSpec("found", "pouilleux.input.found", {}, self._seats(everyone)),
                InputSpec("calculator", "pouilleux.input.calculator"),
            ]
        if self.phase == "author":
            return [InputSpec("author", "pouilleux.input.author", {}, self._seats(everyone))]
        return []

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        if action not in {spec.action for spec in self.inputs()}:
            return [Ruling("pouilleux.input_not_now", {}, "reminder")]
        choice = str(params.get("choice", ""))
        seat = int(choice) if choice.isdigit() and int(choice) < self.players else None
        if action == "unspotted":
            return self._take_back()
        if action == "unfinishable":
            self.phase, self.round_points = "search", [0] * self.players
            return [Ruling("pouilleux.unfinishable", {}, "violation")]
        if action == "calculator":
            self.finder = None
            return self._ask_author()
        if seat is None:
            return [Ruling("pouilleux.input_not_now", {}, "reminder")]
        if action == "spotted":
            return self._spotted(seat)
        if action == "out":
            return self._out(seat)
        if action == "found":
            self.finder = seat
            return self._ask_author()
        return self._settle_search(seat)  # author

    def _take_back(self) -> list[Ruling]:
        assert self.error is not None
        author = self.error[0]
        self.error = None
        return [Ruling("pouilleux.take_back", {"player": author + 1}, "reminder")]

    def _spotted(self, spotter: int) -> list[Ruling]:
        assert self.error is not None
        author = self.error[0]
        if spotter in self.out:
            self.round_points[spotter] += 1
            out = [Ruling("pouilleux.spot_bonus", {"player": spotter + 1}, "score")]
        else:
            out = [Ruling("pouilleux.card_given", {"spotter": spotter + 1, "player": author + 1})]
        return out + self._take_back()

    def _out(self, seat: int) -> list[Ruling]:
        self.out.append(seat)
        points = finishing_points(len(self.out))
        self.round_points[seat] += points
        out = [Ruling("pouilleux.out", {"player": seat + 1, "rank": len(self.out), "points": points}, "score")]
        if len(self.out) < self.players - 1:
            return out
        holder = next(s for s in range(self.players) if s not in self.out)
        out.append(Ruling("pouilleux.round_over", {"player": holder + 1}, "score"))
        return out + self._close_round(self.round_points)

    def _ask_author(self) -> list[Ruling]:
        wrong = [
            (zone, p)
            for zone in sorted(self.watcher.pairs)
            for p in self.watcher.laid(zone)
            if not mathpairs.is_pair(*p)
        ]
        if self.finder is None and wrong:  # the calculator points at a wrong pair it sees
            zone, _ = wrong[0]
            return self._settle_search(int(zone.removeprefix("seat")))
        self.phase = "author"
        return []

    def _settle_search(self, author: int) -> list[Ruling]:
        if self.finder is None:
            key, params = "pouilleux.calculator_found", {"player": author + 1}
        elif self.finder == author:
            key, params = "pouilleux.own_error_found", {"player": author + 1}
        else:
            key, params = "pouilleux.error_found", {"player": author + 1, "finder": self.finder + 1}
        points = search_points(self.players, author, self.finder)
        return [Ruling(key, params, "score")] + self._close_round(points)

    def _close_round(self, points: list[int]) -> list[Ruling]:
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        self.rounds_played += 1
        if self.rounds_played >= self.options["rounds"]:
            self.phase = "over"
            self.round_points = [0] * self.players
            return [
                Ruling("pouilleux.match_over", {"players": " ".join(str(w + 1) for w in self._winners())}, "game_over")
            ]
        self._new_round()
        dealer = (self.options["dealer"] + self.rounds_played) % self.players
        return [Ruling("pouilleux.new_round", {"dealer": dealer + 1})]

    # --- screen ------------------------------------------------------------------------
    def _winners(self) -> list[int]:
        best = max(self.totals)
        return [s for s, t in enumerate(self.totals) if t == best]

    def status(self) -> Mapping[str, Any]:
        over = self.phase == "over"
        return {
            "to_act": None,  # draws happen hand to hand, out of the camera's sight
            "scores": [t + p for t, p in zip(self.totals, self.round_points, strict=True)],
            "over": over,
            "winners": self._winners() if over else [],
            "out": list(self.out),
            "phase": self.phase,
        }
