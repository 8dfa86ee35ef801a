"""Turn per-frame guesses into certain cards: confirm, keep, move, remove.

A single frame may misname a card (blur, glare, a finger on the index). A card is therefore
*confirmed* only when, among the last ``window`` frames, at least ``confirm_frames`` named it
the same at the same place, each with a clear margin over the second guess, and no other name
competes. A confirmed card stays while it is out of sight for fewer than ``remove_after``
frames, so a hand passing over the table neither removes nor re-confirms it (no second stamp).
Track ids are stable for the life of a card on the table; a confirmed card slid to another
place keeps its id (no events), and a card replaced by another at the same place is removed
the moment the new one is confirmed, at once if the new one reads surely, else once the old one
has been out of sight long enough.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from kiosk.table import CardEvent, Point, SeenCard
from kiosk.vision.geometry import polygon_iou


@dataclass(frozen=True, eq=False)
class Sighting:
    """One detected and identified quad in one frame (``card_id`` None: not sure / not a card)."""

    corners: np.ndarray  # (4, 2) TL, TR, BR, BL in frame pixels
    card_id: str | None
    confidence: float = 0.0
    runner_up: str | None = None
    margin: float = 0.0


@dataclass(frozen=True)
class TrackerConfig:
    """Counts are in frames; at 15 fps the defaults confirm in 3 of 4 frames (0.2 s) and remove
    after 15 frames out of sight (1 s), longer than a hand takes to pass over."""

    confirm_frames: int = 3
    window: int = 4
    min_margin: float = 0.3
    min_confidence: float = 0.6
    remove_after: int = 15
    forget_after: int = 4  # an unconfirmed track out of sight this long is dropped
    max_shift: float = 0.6  # centre move per frame, as a fraction of the card's diagonal
    replace_confidence: float = 0.9  # mean confidence to take a confirmed card's place at once

    def counts(self, card_id: str | None, confidence: float, margin: float) -> bool:
        """Whether an answer is sure enough to be a vote for its card (the benchmarks count the
        names that are not: a name the tracker can never confirm)."""
        return card_id is not None and margin >= self.min_margin and confidence >= self.min_confidence

    def __post_init__(self) -> None:
        if not 1 <= self.confirm_frames <= self.window:
            raise ValueError("need 1 <= confirm_frames <= window")
        if self.remove_after < 1 or self.forget_after < 1:
            raise ValueError("remove_after and forget_after must be at least 1")


@dataclass(eq=False)
class _Track:
    id: int
    corners: np.ndarray
    votes: deque[tuple[str | None, float]]
    card_id: str | None = None  # set once confirmed
    missed: int = 0
    seen: SeenCard | None = field(default=None)

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @property
    def diagonal(self) -> float:
        return float(np.linalg.norm(self.corners[0] - self.corners[2]))


Locator = Callable[[np.ndarray], Point | None]


class Tracker:
    """Feed it the sightings of each frame; it answers with the confirm/remove events.

    ``locate`` maps a quad's corners to table coordinates (SeenCard.mat_xy), if calibrated.
    """

    def __init__(self, config: TrackerConfig | None = None, locate: Locator | None = None) -> None:
        self.config = config or TrackerConfig()
        self.locate = locate
        self._tracks: list[_Track] = []
        self._next_id = 1

    @property
    def cards(self) -> tuple[SeenCard, ...]:
        """The confirmed cards, in track-id order."""
        return tuple(t.seen for t in self._tracks if t.card_id is not None and t.seen is not None)

    @property
    def out_of_sight(self) -> frozenset[int]:
        """Track ids of the confirmed cards missed by the last update (kept until ``remove_after``)."""
        return frozenset(t.id for t in self._tracks if t.card_id is not None and t.missed > 0)

    @property
    def settled(self) -> bool:
        """Nothing is left to decide: every track is a confirmed card seen in the last update, or
        an outline never named (clutter). Until a frame shows something new, more updates with
        the same sightings could not change a thing, and the frame may be skipped; a card being
        confirmed, or out of sight, needs every frame."""
        return all(t.missed == 0 if t.card_id is not None else all(v is None for v, _ in t.votes) for t in self._tracks)

    def misses(self, sightings: list[Sighting]) -> bool:
        """Whether a card it holds (confirmed, or voted for in a track's window) is named by none
        of ``sightings``: a card under a hand, taken away, or one that only some cues outline."""
        named = {vote for s in sightings if (vote := self._vote(s)) is not None}
        for track in self._tracks:
            card = track.card_id or next((v for v, _ in reversed(track.votes) if v is not None), None)
            if card is not None and card not in named:
                return True
        return False

    def reset(self) -> list[CardEvent]:
        """Forget everything (new game); confirmed cards are reported removed."""
        events = [CardEvent("removed", c) for c in self.cards]
        self._tracks = []
        return events

    def update(self, sightings: list[Sighting]) -> list[CardEvent]:
        """Advance one frame. Removals come before confirmations in the returned list."""
        cfg = self.config
        matched = self._associate(sightings)
        fresh: list[_Track] = []
        for s, track in zip(sightings, matched, strict=True):
            if track is None:
                track = _Track(self._next_id, np.asarray(s.corners, np.float32), deque(maxlen=cfg.window))
                self._next_id += 1
                fresh.append(track)
            corners = np.asarray(s.corners, np.float32)
            vote = self._vote(s)
            if (
                track.card_id is None
                or vote == track.card_id
                or (vote is None and polygon_iou(corners, track.corners) > 0.6)
            ):
                track.missed = 0  # the card, or the same outline unsure (a finger on the index)
                track.corners = corners
            else:  # something else lies near its place (a box, a marker, another card)
                track.missed += 1
            track.votes.append((vote, s.confidence))
        self._tracks.extend(fresh)
        seen_now = {id(t) for t in matched if t is not None} | {id(t) for t in fresh}
        for track in self._tracks:
            if id(track) not in seen_now:
                track.missed += 1
                track.votes.append((None, 0.0))

        removed: list[CardEvent] = []
        confirmed: list[CardEvent] = []
        for track in list(self._tracks):
            if track.card_id is None:
                if track.missed >= cfg.forget_after:
                    self._tracks.remove(track)
                    continue
                winner = self._winner(track)
                if winner is not None:
                    confirmed.extend(self._confirm(track, winner, removed))
            elif track.missed >= cfg.remove_after:
                self._tracks.remove(track)
                removed.append(CardEvent("removed", track.seen))  # type: ignore[arg-type]
            elif track.missed == 0:
                track.seen = self._seen(track, track.card_id)
        return removed + confirmed

    def _vote(self, s: Sighting) -> str | None:
        return s.card_id if self.config.counts(s.card_id, s.confidence, s.margin) else None

    def _winner(self, track: _Track) -> str | None:
        counts = Counter(v for v, _ in track.votes if v is not None)
        if not counts:
            return None
        (best, n), *rest = counts.most_common()
        if n >= self.config.confirm_frames and (not rest or n > 2 * rest[0][1]):
            return best
        return None

    def _confirm(self, track: _Track, card_id: str, removed: list[CardEvent]) -> list[CardEvent]:
        """Confirm ``track``; a confirmed card of the same id elsewhere moved here (keeps its id,
        no event); a confirmed card under this one was replaced (removed).

        Replacing needs sure readings (``replace_confidence``): a card half hidden by a resting
        hand, outlined a little off, can be misread at 0.7-0.8 for a few frames, and taking
        that for a new card would remove the card, stamp a wrong one and stamp the first again
        when the hand lifts. Less sure, the newcomer waits until the card under it has been out
        of sight for ``remove_after`` frames, as any card does."""
        for other in self._tracks:
            if other is track or other.card_id is None:
                continue
            if other.card_id == card_id:
                other.corners, other.missed, other.votes = track.corners, 0, track.votes
                other.seen = self._seen(other, card_id)
                self._tracks.remove(track)
                return []
        under = [o for o in self._tracks if o is not track and o.card_id is not None and _overlap(o, track)]
        if under and _mean_confidence(track, card_id) < self.config.replace_confidence:
            return []
        for other in under:
            self._tracks.remove(other)
            removed.append(CardEvent("removed", other.seen))  # type: ignore[arg-type]
        track.card_id = card_id
        track.seen = self._seen(track, card_id)
        return [CardEvent("confirmed", track.seen)]

    def _seen(self, track: _Track, card_id: str) -> SeenCard:
        corners = tuple((float(x), float(y)) for x, y in track.corners)
        return SeenCard(
            track.id,
            card_id,
            _mean_confidence(track, card_id),
            corners,  # type: ignore[arg-type]  # four corners, as the detector gives
            self.locate(track.corners) if self.locate else None,
        )

    def _associate(self, sightings: list[Sighting]) -> list[_Track | None]:
        """Nearest free track within reach whose identity does not contradict the sighting; a
        confirmed card the sighting names before any other (a newcomer read as another card
        beside it must not take its reading, and the card be removed while in view)."""
        pairs = []
        for i, s in enumerate(sightings):
            c = np.asarray(s.corners, np.float32).mean(axis=0)
            vote = self._vote(s)
            for track in self._tracks:
                if track.card_id is not None and vote is not None and vote != track.card_id:
                    continue
                d = float(np.linalg.norm(track.centre - c))
                if d <= self.config.max_shift * max(track.diagonal, 1.0):
                    pairs.append((vote is None or vote != track.card_id, d, i, track))
        out: list[_Track | None] = [None] * len(sightings)
        taken: set[int] = set()
        for _, _, i, track in sorted(pairs, key=lambda p: p[:2]):
            if out[i] is None and id(track) not in taken:
                out[i] = track
                taken.add(id(track))
        return out


def _mean_confidence(track: _Track, card_id: str) -> float:
    confs = [c for v, c in track.votes if v == card_id]
    return float(np.mean(confs)) if confs else 0.0


def _overlap(a: _Track, b: _Track) -> bool:
    """Centres closer than a third of a card diagonal: the same spot on the table."""
    return float(np.linalg.norm(a.centre - b.centre)) < 0.33 * max(a.diagonal, b.diagonal, 1.0)
