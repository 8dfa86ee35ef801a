"""The renege prover: legality at a table where hands are unseen, proven from what was seen.

Proof, not suspicion: the camera never sees a hand, but in the trick-taking games no card is
ever drawn, so every card a player held is eventually played (or shown when a deal is stopped).
For each play the prover keeps the duties that bound it (``kiosk.games.tricks.Duty``) and the
cards the player is *known* to have been able to play then: the card itself, what was visible
(Manille pile tops) and every card he later plays or shows from his hand. A play is a renege as
soon as the known cards alone bind a duty the card does not meet. Because a duty list picks the
first duty some card fits, a play illegal for part of a hand is illegal for the whole hand: a
fair player is never accused, and once the whole hand is known every renege is proven.

An engine built ``at_table=True`` records every play here; the dealing engine, which sees the
hands, refuses a renege outright instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.games.base import Ruling
from kiosk.games.tricks import Duty, Trick, label


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
    """What an engine keeps of each finished deal: its tricks, the reneges proven in it (Manille:
    those refused on the spot too) and its score line (None for a deal redealt without points)."""

    tricks: tuple[Trick, ...]
    reneges: tuple[Renege, ...]
    result: Any
