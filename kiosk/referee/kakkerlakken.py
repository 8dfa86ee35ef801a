"""The Kakkerlakkenpoker referee: one zone per seat for the face-up cards, the centre for the
card turned over at a judgement.

It runs :class:`~kiosk.games.kakkerlakken.Kakkerlakken` at the table. The camera cannot see the
card while it travels face down, so the players tell the kiosk each step with the buttons: who
gets the card, then the claimed species ("C'est une blatte" -> species picker), then
"vrai"/"faux" or a pass; the buttons offered are the engine's legal moves. The card seen face up
in the centre, or straight in front of the giver or the receiver, once "vrai"/"faux" was said is
the engine's :class:`~kiosk.games.kakkerlakken.Reveal`; the camera answers the species (``rat``)
since the 8 cards of a species share one artwork, and a full card id (``rat-3``) is accepted too.

What stays here is table bookkeeping: the seat picked before its claim, and the turned card that
must then be laid in front of the player who takes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games.base import Ruling
from kiosk.games.kakkerlakken import EmptyHand, Judge, Kakkerlakken, Pass, Reveal, Slide, species_of
from kiosk.referee.base import EngineReferee, Expect, InputSpec, Observation, seat_choices
from kiosk.referee.zones import Layout, seat_of, seats_layout


class KakkerlakkenReferee(EngineReferee[Kakkerlakken]):
    game_id = "kakkerlakken"
    engine_class = Kakkerlakken

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        super().__init__(players, options, seed)
        self.aim: tuple[str, int] | None = None  # ("offer" | "pass", seat) picked, waiting for its claim
        self.to_lay: int | None = None  # the seat the card turned over in the centre goes before

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players)

    # --- what the screen offers ------------------------------------------------------
    def _species_choices(self) -> dict[str, str]:
        return {sp: f"kakkerlakken.species.{sp}" for sp in self.engine.species}

    def inputs(self) -> list[InputSpec]:
        engine = self.engine
        if engine.over:
            return []
        player = {"player": (engine.to_act or 0) + 1}
        if self.aim is not None:
            return [InputSpec("claim", "kakkerlakken.input.claim", player, self._species_choices())]
        moves = engine.legal_moves()
        specs: list[InputSpec] = []
        slides = sorted({m.to for m in moves if isinstance(m, Slide)})
        if slides:
            specs.append(
                InputSpec("offer", "kakkerlakken.input.offer", player, seat_choices(slides, "kakkerlakken.seat_{n}"))
            )
        if EmptyHand() in moves:
            specs.append(InputSpec("empty_hand", "kakkerlakken.input.empty_hand", player))
        if Judge(True) in moves:
            specs += [
                InputSpec("judge", "kakkerlakken.input.true", {"says_true": True}),
                InputSpec("judge", "kakkerlakken.input.false", {"says_true": False}),
            ]
        passes = sorted({m.to for m in moves if isinstance(m, Pass)})
        if passes:
            specs.append(
                InputSpec("pass", "kakkerlakken.input.pass", player, seat_choices(passes, "kakkerlakken.seat_{n}"))
            )
        return specs

    def _expects(self) -> Expect | None:
        if self.to_lay is not None:
            return Expect("kakkerlakken.expect_lay", {"player": self.to_lay + 1})
        return super()._expects()

    def _details(self) -> Mapping[str, Any]:
        engine = self.engine
        return {
            "species": [engine.species_counts(s) for s in range(self.players)],
            "claim": engine.current.claim if engine.current else None,
        }

    # --- buttons -----------------------------------------------------------------------
    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        choice = str(params.get("choice", ""))
        spec = next((s for s in self.inputs() if s.action == action), None)
        if spec is None or (spec.choices and choice not in spec.choices):
            return [Ruling("kakkerlakken.input_not_now", {}, "reminder")]
        if action in ("offer", "pass"):
            self.aim = (action, int(choice))
            return []
        self.to_lay = None
        if action == "claim" and self.aim is not None:
            kind, to = self.aim
            self.aim = None
            return self._play(Slide(to, choice) if kind == "offer" else Pass(to, choice))
        if action == "judge":
            return self._play(Judge(bool(params.get("says_true"))))
        return self._play(EmptyHand())

    # --- camera ------------------------------------------------------------------------
    def observe(self, obs: Observation) -> list[Ruling]:
        """A card seen face up: the turned card (centre, or before the giver or the receiver once
        judged), or the turned card laid before its taker; any other sighting is a card already
        counted."""
        engine, cur = self.engine, self.engine.current
        if obs.kind == "removed" or species_of(obs.card_id) not in engine.species or engine.over:
            return []
        seat = seat_of(obs.zone)
        seat = seat if seat is not None and seat < self.players else None
        turned = cur is not None and (
            obs.zone == "centre" or (cur.says_true is not None and seat in (cur.giver, cur.receiver))
        )
        if turned:
            rulings = self._play(Reveal(obs.card_id))
            if engine.current is None:  # revealed: it goes before the taker, who starts next
                self.to_lay = engine.starter
        elif seat is None:
            return []
        else:
            rulings = []
        if seat is not None and self.to_lay is not None:
            if seat != self.to_lay:
                rulings.append(Ruling("kakkerlakken.wrong_seat", {"player": self.to_lay + 1}, "violation"))
            self.to_lay = None
        return rulings
