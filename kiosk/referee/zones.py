"""Table layouts: named zones on the printed mat, in mat coordinates (0..1 on both axes).

Each game's referee declares its layout with these helpers, the mat renderer prints it, and the
referee finds the zone of a card from its ``mat_xy``. The mat is landscape; the kiosk stands at
the top edge (y = 0), so seat 0 sits at the bottom centre and seats go clockwise.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_SEAT_ZONE = re.compile(r"seat(\d+)$")


def seat_of(zone: str | None) -> int | None:
    """``seat2`` -> 2; any other zone (or none) -> None."""
    match = _SEAT_ZONE.match(zone or "")
    return int(match.group(1)) if match else None


@dataclass(frozen=True, slots=True)
class Zone:
    """A rectangle ``(x0, y0, x1, y1)`` on the mat with a name (``seat0``, ``discard``, ``centre``)."""

    name: str
    rect: tuple[float, float, float, float]

    def contains(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.rect
        return x0 <= x <= x1 and y0 <= y <= y1

    @property
    def centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.rect
        return ((x0 + x1) / 2, (y0 + y1) / 2)


@dataclass(frozen=True, slots=True)
class Layout:
    """The zones of one game; earlier zones win where two overlap."""

    zones: tuple[Zone, ...]

    def zone_at(self, xy: tuple[float, float] | None) -> str | None:
        if xy is None:
            return None
        for zone in self.zones:
            if zone.contains(*xy):
                return zone.name
        return None

    def __getitem__(self, name: str) -> Zone:
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise KeyError(name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(z.name for z in self.zones)


def seat_positions(players: int) -> list[tuple[float, float]]:
    """Centres of ``players`` seats on an ellipse around the mat centre, seat 0 at the bottom."""
    out = []
    for seat in range(players):
        angle = math.pi / 2 + 2 * math.pi * seat / players  # clockwise seen from above
        out.append((0.5 + 0.38 * math.cos(angle), 0.5 + 0.36 * math.sin(angle)))
    return out


def seats_layout(
    players: int, centre: tuple[str, ...] = ("centre",), seat_size: tuple[float, float] | None = None
) -> Layout:
    """One zone per seat around the mat, plus named zones side by side in the middle.

    ``centre=("draw", "discard")`` splits the middle into a draw pile and a discard pile. Seat
    zones are as large as the seats allow: a card is 15% of an A3 mat's width, so two players
    get zones across the whole mat, where six cards of a government lie side by side.
    """
    if seat_size is None:
        seat_size = (0.96, 0.30) if players <= 2 else (0.26, 0.26)
    half_w, half_h = seat_size[0] / 2, seat_size[1] / 2
    zones: list[Zone] = []
    for seat, (cx, cy) in enumerate(seat_positions(players)):
        zones.append(
            Zone(
                f"seat{seat}",
                (max(0.0, cx - half_w), max(0.0, cy - half_h), min(1.0, cx + half_w), min(1.0, cy + half_h)),
            )
        )
    n = len(centre)
    width = 0.36 / max(n, 1)
    for i, name in enumerate(centre):
        x0 = 0.32 + i * width
        zones.append(Zone(name, (x0, 0.36, x0 + width, 0.64)))
    return Layout(tuple(zones))
