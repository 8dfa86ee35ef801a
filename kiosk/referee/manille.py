"""The Manille à deux referee: each player has a pile row at his edge of the mat (4 double piles,
the visible tops face up) and a seat zone nearer the centre where he lays his card.

The camera sees the visible pile tops, so it knows at every trick what each player could play
from the table; his hand it learns card by card. A renege the visible tops already prove is
refused on the spot: the card goes back and the position is restored (rules-decisions). One
proven only later, by a card from the hand, stops the deal: both players lay their remaining
hand cards face up so every play is checked, and the deal is redealt without points.

A hidden card turned before its trick is over is not part of that trick ("recachez"): the
referee reminds the player and counts the card from the next trick on.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from kiosk.decks import SUITS
from kiosk.games.base import Ruling
from kiosk.games.manille import (
    PLAYERS,
    RULES,
    TRICKS,
    Boam,
    Manille,
    check_options,
    deal_cards,
    deal_rulings,
    doubles_ruling,
    duties,
    stake_factor,
    trick_ruling,
    trump_ruling,
)
from kiosk.games.tricks import TrickTable, allowed, label
from kiosk.referee.base import InputSpec, Observation
from kiosk.referee.tricks import FinishedDeal, Renege, TrickReferee, breach
from kiosk.referee.zones import Layout, Zone

HAND = 8
NO_TRUMP = "none"

LAYOUT = Layout(
    (
        Zone("piles1", (0.05, 0.0, 0.95, 0.2)),
        Zone("seat1", (0.3, 0.22, 0.7, 0.44)),
        Zone("seat0", (0.3, 0.56, 0.7, 0.78)),
        Zone("piles0", (0.05, 0.8, 0.95, 1.0)),
    )
)


def pile_seat(zone: str | None) -> int | None:
    return int(zone[5:]) if zone in ("piles0", "piles1") else None


class ManilleReferee(TrickReferee):
    game_id = "manille"
    engine = Manille

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        super().__init__(players, options, seed)
        check_options(self.options)
        self.boam = Boam(self.options["target"])
        self.dealer = 0
        self._reset_deal()

    def _reset_deal(self) -> None:
        self.trump: str | None = None
        self.doubles = 0
        self.visible: list[set[str]] = [set(), set()]  # pile tops face up now
        self.covering: list[set[str]] = [set(), set()]  # tops dealt on a hidden card
        self.early: list[set[str]] = [set(), set()]  # turned before their trick was over
        self.due = [0, 0]  # hidden cards freed and not yet turned
        self.from_hand = [0, 0]  # hand cards played or shown this deal
        self.restored: list[Renege] = []

    @classmethod
    def layout(cls, players: int = PLAYERS) -> Layout:
        return LAYOUT

    @property
    def over(self) -> bool:
        return self.boam.over

    def _start_deal(self) -> None:
        self._new_deal()
        self._reset_deal()
        self.phase = "trump"

    # --- the piles -----------------------------------------------------------------------------

    def _elsewhere(self, obs: Observation) -> list[Ruling]:
        seat = pile_seat(obs.zone)
        card = obs.card_id
        if seat is None or card in self.seen or card in self.visible[seat]:
            return []
        if self.phase in ("dealer", "trump", "contre", "surcontre"):  # the deal's visible cards
            self.visible[seat].add(card)
            self.covering[seat].add(card)
            return []
        if self.phase != "play":
            return []
        if self.due[seat]:
            self.due[seat] -= 1
            self.visible[seat].add(card)
            return []
        self.early[seat].add(card)
        return [Ruling("manille.hide_again", {"player": seat + 1, "card": label(card)}, "reminder")]

    def _trick_over(self, plays: tuple[tuple[int, str], ...]) -> None:
        """Freed hidden cards may now be turned; those turned too early count from now on."""
        for seat, card in plays:
            if card in self.covering[seat]:
                self.due[seat] += 1
        for seat in range(PLAYERS):
            for card in sorted(self.early[seat]):
                if self.due[seat]:
                    self.due[seat] -= 1
                    self.visible[seat].add(card)
            self.early[seat].clear()

    # --- the cards laid ------------------------------------------------------------------------

    def _accept(self, seat: int, card: str) -> list[Ruling]:
        assert self.table is not None
        from_pile = card in self.visible[seat]
        rules = duties(self.table.plays[0][1], self.trump) if self.table.plays else []
        shown = self.visible[seat] | {card}
        found = breach(card, shown, rules)
        if found is not None:  # the table itself proves it: take the card back
            renege = Renege(self.table.trick_number, seat, card, found[0].rule, found[1])
            self.restored.append(renege)
            return [
                renege.ruling(self.game_id),
                Ruling("manille.take_back", {"player": seat + 1, "card": label(card)}, "violation"),
            ]
        new = self.prover.record(self.table.trick_number, seat, card, rules, shown, not from_pile)
        self.seen.add(card)
        if from_pile:
            self.visible[seat].discard(card)
        else:
            self.from_hand[seat] += 1
        trick = self.table.play(card)
        out = [r.ruling(self.game_id) for r in new]
        if trick is not None:
            out.append(trick_ruling(trick))
            self._trick_over(trick.plays)
            if len(self.table.tricks) == TRICKS:
                return out + self._end_deal()
        if new:
            self.phase = "showdown"
            out += self._show_pending()
            if self.phase == "showdown":
                if self.from_hand == [HAND, HAND]:  # nothing left in the hands to show
                    return out + self._end_deal()
                out.append(Ruling("manille.show_hands", {}, "violation"))
        return out

    def _show(self, seat: int, card: str) -> list[Ruling]:
        self.seen.add(card)
        self.from_hand[seat] += 1
        out = [r.ruling(self.game_id) for r in self.prover.reveal(seat, card)]
        return out + self._end_deal() if self.from_hand == [HAND, HAND] else out

    def _end_deal(self) -> list[Ruling]:
        assert self.table is not None
        reneges = tuple(self.restored + self.prover.proven)
        offender = self.prover.first_offender()
        if offender is not None:
            self.log.append(FinishedDeal(tuple(self.table.tricks), reneges, None))
            self._start_deal()  # same dealer, no points
            return [Ruling("manille.redeal", {"player": offender + 1}, "violation")]
        points = (self.table.card_points([0]), self.table.card_points([1]))
        tricks = (self.table.taken_by(0), self.table.taken_by(1))
        row = self.boam.add(points, tricks, stake_factor(self.doubles, self.trump))
        self.log.append(FinishedDeal(tuple(self.table.tricks), reneges, row))
        out = deal_rulings(row, self.boam)
        if self.boam.over:
            self.phase = "over"
        else:
            self.dealer = 1 - self.dealer
            self._start_deal()
        return out

    # --- buttons -------------------------------------------------------------------------------

    def inputs(self) -> list[InputSpec]:
        if self.phase == "dealer":
            return [self._dealer_spec()]
        if self.phase == "trump":
            choices = {s: f"manille.suit_{s}" for s in SUITS} | {NO_TRUMP: "manille.suit_none"}
            return [InputSpec("trump", "manille.input_trump", {"player": self.dealer + 1}, choices)]
        if self.phase in ("contre", "surcontre"):
            player = {"player": self._doubler() + 1}
            return [
                InputSpec("double", f"manille.input_{self.phase}", player),
                InputSpec("decline", "manille.input_decline", player),
            ]
        return []

    def _doubler(self) -> int:
        return 1 - self.dealer if self.phase == "contre" else self.dealer

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        if action == "dealer" and self.phase == "dealer":
            if not self._set_dealer(params):
                return self._refuse_input(action)
            self.phase = "trump"
            return [Ruling("manille.dealer", {"player": self.dealer + 1})]
        if action == "trump" and self.phase == "trump":
            value = self._choice(params, (*SUITS, NO_TRUMP))
            if value is None:
                return self._refuse_input(action)
            self.trump = None if value == NO_TRUMP else value
            self.phase = "contre"
            return [trump_ruling(self.dealer, self.trump)]
        if action in ("double", "decline") and self.phase in ("contre", "surcontre"):
            seat, yes = self._doubler(), action == "double"
            self.doubles += yes
            self.phase = "surcontre" if yes and self.phase == "contre" else "play"
            if self.phase == "play":
                self.table = TrickTable(PLAYERS, 1 - self.dealer, self.trump, RULES)
            return [doubles_ruling(self.doubles, seat, yes)]
        return self._refuse_input(action)

    def status(self) -> Mapping[str, Any]:
        to_act = None
        if self.phase == "trump":
            to_act = self.dealer
        elif self.phase in ("contre", "surcontre"):
            to_act = self._doubler()
        elif self.phase == "play" and self.table is not None:
            to_act = self.table.to_play
        return {
            "phase": self.phase,
            "to_act": to_act,
            "dealer": self.dealer,
            "trump": self.trump,
            "factor": stake_factor(self.doubles, self.trump),
            "double_pending": self.boam.double_pending,
            "visible": [sorted(v) for v in self.visible],
            "trick": list(self.table.plays) if self.table else [],
            "tricks_played": len(self.table.tricks) if self.table else 0,
            "scores": list(self.boam.totals),
            "sheet": [asdict(r) for r in self.boam.rows],
            "reneges": [asdict(r) for r in self.restored + self.prover.proven],
            "over": self.over,
            "winners": self.boam.winners(),
        }

    # --- the cheating-bot simulation -----------------------------------------------------------

    def _simulate_deal(self, rng: random.Random, cheat_rate: float) -> set[tuple[int, int, str]]:
        """One deal of a boam: the piles' visible cards, trump, doubling, then the play."""
        dealt = deal_cards(rng, self.dealer)
        for seat in range(PLAYERS):
            for card in dealt["visible"][seat]:
                self.observe(Observation("confirmed", card, f"piles{seat}"))
        self.on_input("trump", choice=rng.choice((*SUITS, NO_TRUMP)))
        while self.phase in ("contre", "surcontre"):
            self.on_input("double" if rng.random() < 0.2 else "decline")
        return _play_deal(self, dealt, rng, cheat_rate)

    def _points_add_up(self, deal: FinishedDeal) -> bool:
        return len(deal.tricks) != TRICKS or sum(t.points for t in deal.tricks) == 60


def _play_deal(
    ref: ManilleReferee, dealt: dict[str, list[list[str]]], rng: random.Random, cheat_rate: float
) -> set[tuple[int, int, str]]:
    """Play one deal before the referee (piles, reveals, take-backs); returns the reneges made."""
    hands = [set(h) for h in dealt["hand"]]
    piles = [[[h, v] for h, v in zip(dealt["hidden"][s], dealt["visible"][s], strict=True)] for s in range(PLAYERS)]
    face_down = {c for s in range(PLAYERS) for c in dealt["hidden"][s]}
    made: set[tuple[int, int, str]] = set()
    deals = len(ref.log)
    refused = False
    while len(ref.log) == deals:
        if ref.phase == "showdown":
            for seat, hand in enumerate(hands):
                for card in sorted(hand):
                    ref.observe(Observation("confirmed", card, f"seat{seat}"))
            break
        assert ref.table is not None
        seat = ref.table.to_play
        tops = [p[-1] for p in piles[seat] if p and p[-1] not in face_down]
        available = sorted(hands[seat]) + tops
        plays = ref.table.plays
        legal = allowed(available, duties(plays[0][1], ref.trump))[1] if plays else available
        illegal = [c for c in available if c not in legal]
        cheat = bool(illegal) and not refused and rng.random() < cheat_rate
        card = rng.choice(illegal if cheat else legal)
        key = (ref.table.trick_number, seat, card)
        tricks = len(ref.table.tricks)
        ref.observe(Observation("confirmed", card, f"seat{seat}"))
        if cheat:
            made.add(key)
        if len(ref.log) > deals:
            break
        if card not in ref.seen:  # refused: the card goes back where it was
            ref.observe(Observation("removed", card, f"seat{seat}"))
            refused = True
            continue
        refused = False
        if card in hands[seat]:
            hands[seat].discard(card)
        else:
            next(p for p in piles[seat] if p and p[-1] == card).pop()
        if ref.table is not None and len(ref.table.tricks) > tricks and ref.phase == "play":
            for s in range(PLAYERS):
                for pile in piles[s]:
                    if pile and pile[-1] in face_down:
                        face_down.discard(pile[-1])
                        ref.observe(Observation("confirmed", pile[-1], f"piles{s}"))
    return made
