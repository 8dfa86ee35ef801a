"""The renege prover and the table-watching part the trick-taking referees share.

Proof, not suspicion: the camera never sees a hand, but in these games no card is ever drawn,
so every card a player held is eventually played (or shown when a deal is stopped). For each
play the prover keeps the duties that bound it (``kiosk.games.tricks.Duty``) and the cards the
player is *known* to have been able to play then: the card itself, what was visible (Manille pile
tops) and every card he later plays or shows from his hand. A play is a renege as soon as the
known cards alone bind a duty the card does not meet. Because a duty list picks the first duty
some card fits, a play illegal for part of a hand is illegal for the whole hand: a fair player is
never accused, and once the whole hand is known every renege is proven.
"""

from __future__ import annotations

import random
import re
from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from kiosk.games.base import GameEngine, Ruling
from kiosk.games.tricks import Duty, Trick, TrickTable, label
from kiosk.referee.base import InputSpec, Observation, RefereeAdapter

_SEAT_ZONE = re.compile(r"seat(\d+)$")


@dataclass(frozen=True, slots=True)
class Renege:
    """A proven renege: trick number, seat, the card laid, the duty broken and the cards the
    player could have laid to meet it (the proof)."""

    trick: int
    seat: int
    card: str
    rule: str
    proof: tuple[str, ...]

    def ruling(self, game_id: str) -> Ruling:
        return Ruling(
            f"{game_id}.renege_{self.rule}",
            {
                "trick": self.trick,
                "player": self.seat + 1,
                "card": label(self.card),
                "proof": " ".join(label(c) for c in self.proof),
            },
            "violation",
        )


def breach(card: str, known: Iterable[str], duties: Sequence[Duty]) -> tuple[Duty, tuple[str, ...]] | None:
    """The duty ``card`` breaks when the player certainly held ``known`` (card included), with
    the cards that prove it; None when the known cards do not prove a renege."""
    known = tuple(known)
    for duty in duties:
        if duty.allows(card):
            return None  # no earlier duty bound him: the card meets the duty that does
        fit = tuple(sorted(c for c in known if duty.allows(c)))
        if fit:
            return duty, fit
    return None


@dataclass(slots=True)
class _Play:
    """A play not (yet) proven wrong; only the duties before the one its card meets matter:
    a card shown later that fits one of them proves the renege."""

    trick: int
    seat: int
    card: str
    binding: Sequence[Duty]


class RenegeProver:
    """Every play of one deal, re-examined each time a player reveals another card he held."""

    def __init__(self) -> None:
        self._open: dict[int, list[_Play]] = {}  # seat -> plays not yet proven reneges
        self._order: dict[str, int] = {}  # card -> its place in the deal's play order
        self.proven: list[Renege] = []

    def record(
        self,
        trick: int,
        seat: int,
        card: str,
        duties: Sequence[Duty],
        shown: Iterable[str] = (),
        from_hand: bool = True,
    ) -> list[Renege]:
        """``seat`` lays ``card`` under ``duties`` while also able to play ``shown`` (visible
        cards). A card from the hand was held at every earlier trick too, so it can prove
        earlier reneges; a card from a table pile cannot. Returns the reneges proven now."""
        new = self.reveal(seat, card) if from_hand else []
        self._order[card] = len(self._order)
        found = breach(card, shown, duties)
        if found is not None:
            renege = Renege(trick, seat, card, found[0].rule, found[1])
            self.proven.append(renege)
            return new + [renege]
        met = next((i for i, d in enumerate(duties) if d.allows(card)), len(duties))
        if met:
            self._open.setdefault(seat, []).append(_Play(trick, seat, card, duties[:met]))
        return new

    def reveal(self, seat: int, card: str) -> list[Renege]:
        """``seat`` shows ``card``, which he held in his hand since the deal."""
        new = []
        still = []
        for play in self._open.get(seat, ()):
            duty = next((d for d in play.binding if d.allows(card)), None)
            if duty is None:
                still.append(play)
            else:
                new.append(Renege(play.trick, seat, play.card, duty.rule, (card,)))
        if new:
            self._open[seat] = still
            self.proven.extend(new)
        return new

    def first_offender(self) -> int | None:
        """The seat of the earliest proven renege in play order (it decides the penalty)."""
        if not self.proven:
            return None
        return min(self.proven, key=lambda r: self._order[r.card]).seat


@dataclass(frozen=True)
class FinishedDeal:
    """What the referee keeps of a finished deal: its tricks, the reneges and its score line."""

    tricks: tuple[Trick, ...]
    reneges: tuple[Renege, ...]
    result: Any


def seat_of(zone: str | None) -> int | None:
    """``seat2`` -> 2; any other zone -> None."""
    match = _SEAT_ZONE.match(zone or "")
    return int(match.group(1)) if match else None


class TrickReferee(RefereeAdapter):
    """The table side of a trick-taking referee: cards laid in seat zones become plays in turn
    order; a card laid out of turn waits on the table until its player's turn; during a
    ``showdown`` (a renege proven before the deal's end) laid cards are shown hands.

    Subclasses own the deal: ``table`` (a :class:`TrickTable` while cards are played) and the
    hooks :meth:`_accept`, :meth:`_show` and :meth:`_elsewhere`.
    """

    game_id: ClassVar[str]
    #: Phases in which a card laid in turn is a play.
    play_phases: ClassVar[tuple[str, ...]] = ("play",)

    #: The game's engine: its player count and options are the referee's too.
    engine: ClassVar[type[GameEngine]]

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        engine = self.engine
        if not engine.min_players <= players <= engine.max_players:
            raise ValueError(f"{self.game_id} is played by {engine.min_players}, not {players}")
        unknown = set(options or {}) - set(engine.default_options)
        if unknown:
            raise ValueError(f"{self.game_id}: unknown option(s) {sorted(unknown)}")
        super().__init__(players, {**engine.default_options, **(options or {})}, seed)
        self.phase = "dealer"
        self.table: TrickTable | None = None
        self.prover = RenegeProver()
        self.seen: set[str] = set()  # cards played or shown this deal
        self.pending: dict[int, str] = {}  # seat -> card laid out of turn, still on the table
        self.log: list[FinishedDeal] = []

    @property
    def over(self) -> bool:
        """Whether the match is decided: each game's referee says by its own rule."""
        raise NotImplementedError

    def observe(self, obs: Observation) -> list[Ruling]:
        seat = seat_of(obs.zone)
        if obs.kind == "removed":
            if seat is not None and self.pending.get(seat) == obs.card_id:
                del self.pending[seat]
            return []
        if seat is None:
            return self._elsewhere(obs)
        if obs.card_id in self.seen:
            return []  # seen again (the tracker lost and found it): nothing new
        if self.phase == "showdown":
            return self._show(seat, obs.card_id)
        if self.phase not in self.play_phases or self.table is None:
            return [Ruling(f"{self.game_id}.not_playing_now", {"player": seat + 1}, "reminder")]
        if seat != self.table.to_play:
            self.pending[seat] = obs.card_id
            return [
                Ruling(
                    f"{self.game_id}.out_of_turn",
                    {"player": seat + 1, "expected": self.table.to_play + 1},
                    "violation",
                )
            ]
        out = self._accept(seat, obs.card_id)
        while self.phase in self.play_phases and self.table is not None and self.table.to_play in self.pending:
            nxt = self.table.to_play
            out += self._accept(nxt, self.pending.pop(nxt))
        return out

    @classmethod
    def simulate_cheating(
        cls, players: int, seed: int, options: Mapping[str, Any], cheat_rate: float
    ) -> dict[str, Any]:
        """Play one match before the referee with bots that renege with ``cheat_rate`` when they
        can (``kiosk simulate --cheat``): ``deals``, ``reneges`` made, ``flagged`` (proven),
        ``false_accusations`` and ``card_points_ok`` (every complete deal holds all points)."""
        rng = random.Random(seed)
        ref = cls(players, options)
        ref.on_input("dealer", choice=str(rng.randrange(ref.players)))
        report = {"deals": 0, "reneges": 0, "flagged": 0, "false_accusations": 0, "card_points_ok": True}
        while not ref.over:
            made = ref._simulate_deal(rng, cheat_rate)
            deal = ref.log[-1]
            proven = {(r.trick, r.seat, r.card) for r in deal.reneges}
            report["deals"] += 1
            report["reneges"] += len(made)
            report["flagged"] += len(made & proven)
            report["false_accusations"] += len(proven - made)
            report["card_points_ok"] &= ref._points_add_up(deal)
        return report

    @abstractmethod
    def _simulate_deal(self, rng: random.Random, cheat_rate: float) -> set[tuple[int, int, str]]:
        """Deal, bid and play one deal before the referee with cheating bots; returns the
        reneges made as (trick, seat, card)."""

    @abstractmethod
    def _points_add_up(self, deal: FinishedDeal) -> bool:
        """A deal played to its last trick holds all the card points of the game."""

    @abstractmethod
    def _accept(self, seat: int, card: str) -> list[Ruling]:
        """``seat`` lays ``card`` in turn (the subclass records it, may refuse it)."""

    @abstractmethod
    def _show(self, seat: int, card: str) -> list[Ruling]:
        """``seat`` shows ``card`` of his hand during a showdown."""

    def _elsewhere(self, obs: Observation) -> list[Ruling]:
        """A card confirmed outside the seat zones (the centre, Manille's piles)."""
        return []

    def _show_pending(self) -> list[Ruling]:
        """At the start of a showdown, cards laid out of turn count as shown."""
        out: list[Ruling] = []
        for seat, card in list(self.pending.items()):
            if self.phase != "showdown":
                break
            del self.pending[seat]
            out += self._show(seat, card)
        return out

    def _new_deal(self) -> None:
        self.table = None
        self.prover = RenegeProver()
        self.seen = set()
        self.pending = {}

    def _dealer_spec(self) -> InputSpec:
        """The picker of who deals: the camera cannot see it."""
        return InputSpec(
            "dealer",
            f"{self.game_id}.input_dealer",
            choices={str(s): f"{self.game_id}.seat_{s + 1}" for s in range(self.players)},
        )

    def _set_dealer(self, params: Mapping[str, Any]) -> bool:
        """Take the dealer the picker sent; False (nothing changed) for anything else."""
        value = self._choice(params, (str(s) for s in range(self.players)))
        if value is None:
            return False
        self.dealer = int(value)
        return True

    def _choice(self, params: Mapping[str, Any], choices: Iterable[str]) -> str | None:
        """The picker value the UI sent (``choice=``), if it is one of ``choices``."""
        value = str(params.get("choice", ""))
        return value if value in set(choices) else None

    def _refuse_input(self, action: str) -> list[Ruling]:
        return [Ruling(f"{self.game_id}.input_not_now", {"action": action}, "reminder")]
