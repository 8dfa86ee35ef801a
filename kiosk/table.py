"""What the vision hands to the modes: immutable snapshots of the table and card events.

The vision worker publishes a new :class:`TableView` after every frame; the UI thread reads the
latest one without locking (it is immutable). Modes react to :class:`CardEvent` (confirmed /
removed), never to raw frames.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class SeenCard:
    """A confirmed card: stable ``track_id``, identity, confidence, where it lies.

    ``corners`` are the card's four corners in camera pixels (clockwise from the top-left of
    the face); ``mat_xy`` is its centre in mat coordinates (0..1 on both axes, origin at the
    mat's top-left as seen from the kiosk) when the table is calibrated, else None.
    """

    track_id: int
    card_id: str
    confidence: float
    corners: tuple[Point, Point, Point, Point]
    mat_xy: Point | None = None


@dataclass(frozen=True, slots=True)
class CardEvent:
    """``confirmed`` when a card becomes certain, ``removed`` when it has been gone long enough."""

    kind: str
    card: SeenCard


@dataclass(frozen=True, slots=True)
class TableView:
    """One snapshot: the confirmed cards and the events since the previous snapshot."""

    frame_index: int
    timestamp: float
    cards: tuple[SeenCard, ...] = ()
    events: tuple[CardEvent, ...] = ()
    frame_size: tuple[int, int] = (0, 0)
    camera_ok: bool = True
    detections: int = field(default=0)
    #: The median width in camera pixels of the confirmed cards (None without any): under
    #: ``kiosk.vision.identify.SMALL_CARD_PX`` the camera is too far or too coarse for the
    #: smallest suit signs (hardware/CAMERA.md), which the operator screen says.
    card_width: float | None = None
    #: Track ids of the confirmed cards not seen in this frame (under a hand, or taken away and
    #: not yet removed): the live view draws no box where such a card was.
    out_of_sight: frozenset[int] = frozenset()
