"""The Président referee: combos are laid face up in the centre of the mat.

The camera proves a combo's count and value and whether it beats the previous one (same count,
equal or higher value, 2 high). A follower's combo is judged as soon as it has the count of the
one it answers; a leader's combo is closed by the next event: a card of another value, a pass,
the "done" button, or its fourth card. Passes are buttons (a pass shows nothing on the table).
Hands are hidden: the kiosk counts them from the deal and the cards laid, so it knows who goes
out, the Président and the Balayeur, and reminds the Balayeur to give his best card (it cannot
see which card is given).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.decks import parse_standard_id
from kiosk.games.base import Ruling
from kiosk.games.bataille import seats_text
from kiosk.games.president import President, combo_problem, value
from kiosk.referee.base import InputSpec, Observation, RefereeAdapter
from kiosk.referee.zones import Layout, seats_layout


class PresidentReferee(RefereeAdapter):
    game_id = "president"

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        super().__init__(players, options, seed)
        self.options = {**President.default_options, **self.options}
        self.titles = [0] * players
        self.round = 0
        self.over = False
        self._new_round(dealer=players - 1)

    def _new_round(self, dealer: int) -> None:
        n = self.players
        self.counts = [52 // n + (1 if (s - dealer - 1) % n < 52 % n else 0) for s in range(n)]
        self.current = (dealer + 1) % n
        self.previous: tuple[str, ...] | None = None
        self.pending: list[str] = []
        self.last_player: int | None = None
        self.passes = 0
        self.finished: list[int] = []
        self.played: set[str] = set()  # cards laid this round (a re-sighting is not a new card)

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players)

    def observe(self, obs: Observation) -> list[Ruling]:
        card = obs.card_id
        if obs.kind != "confirmed" or obs.zone != "centre" or self.over or card in self.pending or card in self.played:
            return []
        if card.startswith("JK"):
            return [Ruling("president.manneken_out", {"card": card}, "violation")]
        rulings: list[Ruling] = []
        if self.pending and value(card) != value(self.pending[0]):
            if self.previous is not None:
                self.pending = []
                return [Ruling("president.mixed_values", {"count": 2}, "violation")]
            rulings = self._close()
        self.pending.append(card)
        if len(self.pending) == (len(self.previous) if self.previous else 4):
            rulings += self._close()
        return rulings

    def _close(self) -> list[Ruling]:
        """Judge the pending combo of the player to act."""
        cards, self.pending = tuple(self.pending), []
        seat = self.current
        problem = combo_problem(cards, self.previous)
        if problem:
            return [Ruling(problem[0], {"player": seat + 1, **problem[1]}, "violation")]
        self.previous, self.last_player, self.passes = cards, seat, 0
        self.played.update(cards)
        self.counts[seat] -= len(cards)
        rulings = [
            Ruling(
                "president.combo_ok",
                {"player": seat + 1, "count": len(cards), "value": parse_standard_id(cards[0])[0]},
                "ok",
            )
        ]
        if self.counts[seat] <= 0:
            self.finished.append(seat)
            rulings.append(Ruling("president.out", {"player": seat + 1, "place": len(self.finished)}, "info"))
            if len(self.finished) == self.players - 1:
                return rulings + self._end_round()
        self.current = self._next_in(seat)
        return rulings

    def _next_in(self, seat: int) -> int:
        for k in range(1, self.players + 1):
            nxt = (seat + k) % self.players
            if self.counts[nxt] > 0:
                return nxt
        return seat

    def _end_round(self) -> list[Ruling]:
        balayeur = next(s for s in range(self.players) if s not in self.finished)
        president = self.finished[0]
        self.titles[president] += 1
        self.round += 1
        rulings = [Ruling("president.roles", {"president": president + 1, "balayeur": balayeur + 1}, "score")]
        if self.round >= self.options["rounds"]:
            self.over = True
            best = max(self.titles)
            winners = [s for s in range(self.players) if self.titles[s] == best]
            return rulings + [Ruling("president.game_over", {"players": seats_text(winners)}, "game_over")]
        self._new_round(dealer=balayeur)
        rulings.append(Ruling("president.give_best_card", {"player": balayeur + 1, "to": president + 1}, "reminder"))
        if self.options["president_gives_back"]:
            rulings.append(
                Ruling("president.give_back_reminder", {"player": president + 1, "to": balayeur + 1}, "reminder")
            )
        return rulings

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        if self.over:
            return [Ruling("president.input_not_now", {}, "reminder")]
        if action == "done" and self.pending and self.previous is None:
            return self._close()
        if action != "pass":
            return [Ruling("president.input_not_now", {}, "reminder")]
        rulings = self._close() if self.pending and self.previous is None else []
        if self.previous is None:
            return rulings + [Ruling("president.must_lead", {"player": self.current + 1}, "violation")]
        seat = self.current
        self.pending = []
        self.passes += 1
        rulings.append(Ruling("president.passes", {"player": seat + 1}, "info"))
        others = sum(1 for s in range(self.players) if self.counts[s] > 0 and s != self.last_player)
        if self.passes < others:
            self.current = self._next_in(seat)
            return rulings
        leader = self.last_player
        assert leader is not None
        self.previous, self.passes = None, 0
        self.current = leader if self.counts[leader] > 0 else self._next_in(leader)
        return rulings + [Ruling("president.trick_won", {"player": leader + 1, "next": self.current + 1}, "info")]

    def inputs(self) -> list[InputSpec]:
        if self.over:
            return []
        player = {"player": self.current + 1}
        specs = [InputSpec("pass", "president.input_pass", player)] if self.previous else []
        if self.pending and self.previous is None:
            specs.append(InputSpec("done", "president.input_done", player))
        return specs

    def status(self) -> Mapping[str, Any]:
        return {
            "to_act": None if self.over else self.current,
            "scores": list(self.titles),
            "over": self.over,
            "winners": [s for s in range(self.players) if self.over and self.titles[s] == max(self.titles)],
            "hand_counts": list(self.counts),
            "round": self.round + 1,
        }
