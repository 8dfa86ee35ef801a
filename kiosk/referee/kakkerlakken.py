"""The Kakkerlakkenpoker referee: one zone per seat for the face-up cards, the centre for the
card turned over at a judgement.

The camera cannot see the card while it travels face down, so the players tell the kiosk each
step with the buttons: who gets the card and the claimed species ("C'est une blatte" ->
species picker), then "vrai"/"faux" or a pass. The kiosk offers a pass only to players who have
not seen the card, and only "vrai"/"faux" to the last one. Once the card is turned over (seen
in the centre or straight in a seat zone) it says who was right and who takes the card, counts
each player's face-up species, warns at one card from the loss and announces the loser at once.

The camera answers the species (``rat``) since the 8 cards of a species share one artwork; a
full card id (``rat-3``) is accepted too. Not checked: the two-player rule "every card of a
species still in play" (the cards set aside stay face down), so only five of a species loses
there; an empty hand is declared with a button.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kiosk.games.base import Ruling
from kiosk.games.kakkerlakken import (
    Kakkerlakken,
    all_species,
    losing_species,
    loss_limit,
    pass_targets,
    species_of,
    taker,
)
from kiosk.referee.base import InputSpec, Observation, RefereeAdapter
from kiosk.referee.zones import Layout, seats_layout

_SEAT = re.compile(r"seat(\d+)$")


@dataclass
class _Flight:
    """The face-down card on its way: last giver, receiver, claim, who has seen it."""

    giver: int
    receiver: int | None = None
    claim: str | None = None
    seen: set[int] = field(default_factory=set)
    says_true: bool | None = None  # set at the judgement, until the card is turned over


class KakkerlakkenReferee(RefereeAdapter):
    game_id = "kakkerlakken"

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        if not Kakkerlakken.min_players <= players <= Kakkerlakken.max_players:
            raise ValueError(f"kakkerlakken: {players} players; this game takes 2 to 6")
        unknown = set(options or {}) - set(Kakkerlakken.default_options)
        if unknown:
            raise ValueError(f"kakkerlakken: unknown option(s) {sorted(unknown)}")
        self.players = players
        self.species = all_species()
        self.limit = loss_limit(players)
        self.front: list[Counter[str]] = [Counter() for _ in range(players)]
        self.starter: int = {**Kakkerlakken.default_options, **(options or {})}["starter"]
        self.flight: _Flight | None = None
        self.taker: int | None = None  # who must lay the turned card in front of him
        self.loser: int | None = None

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players)

    # --- what the screen offers ------------------------------------------------------
    def _species_choices(self) -> dict[str, str]:
        return {sp: f"kakkerlakken.species.{sp}" for sp in self.species}

    def _seat_choices(self, seats: list[int]) -> dict[str, str]:
        return {str(s): f"kakkerlakken.seat_{s + 1}" for s in seats}

    def inputs(self) -> list[InputSpec]:
        f = self.flight
        if self.loser is not None or self.taker is not None:
            return []
        if f is None:
            others = [s for s in range(self.players) if s != self.starter]
            return [
                InputSpec(
                    "offer", "kakkerlakken.input.offer", {"player": self.starter + 1}, self._seat_choices(others)
                ),
                InputSpec("empty_hand", "kakkerlakken.input.empty_hand", {"player": self.starter + 1}),
            ]
        if f.receiver is None or f.claim is None:
            return [InputSpec("claim", "kakkerlakken.input.claim", {"player": f.giver + 1}, self._species_choices())]
        if f.says_true is not None:
            return []  # waiting for the card to be turned over
        specs = [
            InputSpec("judge", "kakkerlakken.input.true", {"says_true": True}),
            InputSpec("judge", "kakkerlakken.input.false", {"says_true": False}),
        ]
        targets = pass_targets(self.players, f.seen, f.receiver)
        if targets:
            specs.append(
                InputSpec("pass", "kakkerlakken.input.pass", {"player": f.receiver + 1}, self._seat_choices(targets))
            )
        return specs

    def _to_act(self) -> int | None:
        f = self.flight
        if self.loser is not None:
            return None
        if self.taker is not None:
            return self.taker
        if f is None:
            return self.starter
        return f.receiver if f.claim is not None and f.receiver is not None else f.giver

    def status(self) -> Mapping[str, Any]:
        over = self.loser is not None
        winners = [s for s in range(self.players) if s != self.loser] if over else []
        return {
            "to_act": self._to_act(),
            "scores": [1 if s in winners else 0 for s in range(self.players)],
            "over": over,
            "winners": winners,
            "species": [dict(c) for c in self.front],
            "claim": self.flight.claim if self.flight else None,
        }

    # --- buttons -----------------------------------------------------------------------
    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        f = self.flight
        choice = str(params.get("choice", ""))
        offered = {spec.action for spec in self.inputs()}
        if action not in offered:
            return [Ruling("kakkerlakken.input_not_now", {}, "reminder")]
        if action == "offer" and choice.isdigit() and int(choice) != self.starter:
            self.flight = _Flight(giver=self.starter, receiver=int(choice), seen={self.starter})
            return []
        if action == "claim" and f is not None and choice in self.species:
            f.claim = choice
            return [
                Ruling(
                    "kakkerlakken.offered",
                    {"player": f.giver + 1, "receiver": (f.receiver or 0) + 1, "species": choice},
                )
            ]
        if (
            action == "pass"
            and f is not None
            and f.receiver is not None
            and choice.isdigit()
            and int(choice) in pass_targets(self.players, f.seen, f.receiver)
        ):
            f.seen.add(f.receiver)
            f.giver, f.receiver, f.claim = f.receiver, int(choice), None
            return []
        if action == "judge" and f is not None:
            f.says_true = bool(params.get("says_true"))
            return [Ruling("kakkerlakken.turn_card", {"player": (f.receiver or 0) + 1}, "reminder")]
        if action == "empty_hand":
            self.loser = self.starter
            return [Ruling("kakkerlakken.loses_empty_hand", {"player": self.starter + 1}, "game_over")]
        return [Ruling("kakkerlakken.input_not_now", {}, "reminder")]

    # --- camera ------------------------------------------------------------------------
    def observe(self, obs: Observation) -> list[Ruling]:
        species = species_of(obs.card_id)
        if species not in self.species or self.loser is not None:
            return []
        match = _SEAT.match(obs.zone or "")
        seat = int(match.group(1)) if match and int(match.group(1)) < self.players else None
        if obs.kind == "removed":
            if seat is not None and self.front[seat][species] > 0:
                self.front[seat][species] -= 1
            return []
        out: list[Ruling] = []
        f = self.flight
        if f is not None and f.claim is not None and f.says_true is None and obs.zone == "centre":
            # turned over before "vrai"/"faux" was said
            return [Ruling("kakkerlakken.judge_first", {"player": (f.receiver or 0) + 1}, "violation")]
        # the turned card shows up in the centre or in front of one of the two possible takers
        if f is not None and f.says_true is not None and (obs.zone == "centre" or seat in (f.giver, f.receiver)):
            out += self._reveal(f, species)
        if seat is not None:
            out += self._lay(seat, species)
        return out

    def _reveal(self, f: _Flight, species: str) -> list[Ruling]:
        assert f.receiver is not None and f.claim is not None and f.says_true is not None
        who = taker(f.giver, f.receiver, f.says_true, f.claim, species)
        right = who == f.giver
        self.flight, self.taker = None, who
        params = {"player": f.receiver + 1, "species": species, "claim": f.claim, "taker": who + 1}
        return [
            Ruling(
                "kakkerlakken.judged_right" if right else "kakkerlakken.judged_wrong", params, "ok" if right else "info"
            )
        ]

    def _lay(self, seat: int, species: str) -> list[Ruling]:
        out: list[Ruling] = []
        if self.taker is not None:
            if seat != self.taker:
                out.append(Ruling("kakkerlakken.wrong_seat", {"player": self.taker + 1}, "violation"))
            self.starter, self.taker = self.taker, None
        self.front[seat][species] += 1
        count = self.front[seat][species]
        cards = [sp for sp, n in self.front[seat].items() for _ in range(n)]
        lost = losing_species(cards, self.limit)
        if lost is not None:
            self.loser = seat
            return out + [
                Ruling(
                    "kakkerlakken.loses_species",
                    {"player": seat + 1, "species": lost, "count": self.front[seat][lost]},
                    "game_over",
                )
            ]
        if count == self.limit - 1:
            out.append(
                Ruling("kakkerlakken.warning", {"player": seat + 1, "species": species, "count": count}, "reminder")
            )
        return out
