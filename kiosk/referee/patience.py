"""The Patience referee: the camera watches the tableau, the waste and the foundations.

It runs :class:`~kiosk.games.patience.Patience` at the table, where every card starts unknown. A
card confirmed in a zone is the engine's :class:`~kiosk.games.patience.Landed`: a move checked
against the rules (legal, or the reason it is not; the player puts it back), the face-down card
of a cleared column turned up, or a turn of the stock (after one pass the kiosk knows the stock).
Removals are ignored: a card covered by another one disappears from view without moving, and
nothing lands face up on the stock.

A hint is given on request: the solver's next move of a winning line when every card is known
(the player can tell the face-down cards and the stock with the ``tell`` input), else a move that
turns up a hidden card, else an honest "no win found".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.decks import SUITS
from kiosk.games.base import Ruling
from kiosk.games.patience import COLUMNS, Draw, GiveUp, Landed, Patience, Recycle, Tell
from kiosk.games.solver import Advisor
from kiosk.referee.base import EngineReferee, InputSpec, Observation
from kiosk.referee.zones import Layout, Zone


class PatienceReferee(EngineReferee[Patience]):
    game_id = "patience"
    engine_class = Patience

    def __init__(self, players: int = 1, options: Mapping[str, Any] | None = None, seed: int = 0):
        super().__init__(players, options, seed)
        self.advisor = Advisor()

    @classmethod
    def layout(cls, players: int = 1) -> Layout:
        zones = [Zone("stock", (0.02, 0.03, 0.14, 0.30)), Zone("waste", (0.16, 0.03, 0.30, 0.30))]
        zones += [Zone(f"found{i}", (0.44 + i * 0.14, 0.03, 0.56 + i * 0.14, 0.30)) for i in range(4)]
        zones += [Zone(f"col{i}", (0.02 + i * 0.14, 0.34, 0.14 + i * 0.14, 0.98)) for i in range(COLUMNS)]
        return Layout(tuple(zones))

    def observe(self, obs: Observation) -> list[Ruling]:
        zone = obs.zone or ""
        if obs.kind != "confirmed" or zone in ("", "stock") or self.engine.over:
            return []
        return self._play(Landed(obs.card_id, "found" if zone.startswith("found") else zone))

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        if action == "hint" and not self.engine.over:
            return [self._hint()]
        if action == "tell":
            return self._play(Tell(str(params.get("place", "")), tuple(params.get("cards", ()))))
        if action == "give_up":
            return self._play(GiveUp())
        return [Ruling("patience.input_not_now", {}, "reminder")]

    def _hint(self) -> Ruling:
        tableau = self.engine.tableau
        result = self.advisor.hint(tableau)
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
        card = tableau.moving(move)[0]
        if move.dst == "found":
            return Ruling(prefix + "home", {"card": card}, "info")
        return Ruling(prefix + "move", {"card": card, "column": int(move.dst[3:]) + 1}, "info")

    def inputs(self) -> list[InputSpec]:
        if self.engine.over:
            return []
        specs = [InputSpec("hint", "patience.input_hint")]
        if GiveUp() in self.engine.legal_moves():
            specs.append(InputSpec("give_up", "patience.input_give_up"))
        return specs

    def _details(self) -> Mapping[str, Any]:
        return {"foundations": {s: len(self.engine.tableau.foundations[s]) for s in SUITS}}
