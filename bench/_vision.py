"""Shared pieces of the vision benchmarks: the identifier (when a model is built), medians of
wall and CPU time, matching found quads to the renderer's truth, and the held-out scenes of a
foreign printing."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from kiosk.decks import load_deck
from kiosk.render.foreign import tilted
from kiosk.render.scenes import Scene, SceneCard, render_scene
from kiosk.vision.detect import Detection, Detector, DetectorConfig
from kiosk.vision.geometry import polygon_iou
from kiosk.vision.track import TrackerConfig


def load_identifier(deck_id: str, num_threads: int = 1) -> Any | None:
    """The shipped identifier, its models run on ``num_threads``, or None (with a line saying
    why) when no model is built yet."""
    try:
        from kiosk.vision.identify import Identifier

        return Identifier(deck_id, num_threads=num_threads)
    except Exception as exc:  # noqa: BLE001 - a bench still measures what it can
        print(f"identifier unavailable for {deck_id}: {exc}")
        return None


def add_oracle_option(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--oracle", action="store_true", help="name cards from the truth: detection and tracking alone")


def pick_identifier(deck_id: str, oracle: bool, num_threads: int = 1) -> tuple[Any | None, Oracle | None]:
    """(identifier, oracle): the truth-naming oracle when asked for, else the shipped model run
    on ``num_threads`` (None when it is not built)."""
    found = Oracle() if oracle else None
    return found or load_identifier(deck_id, num_threads), found


def add_detector_option(ap: argparse.ArgumentParser) -> None:
    ap.add_argument(
        "--detector",
        choices=("shipped", "model", "cues"),
        default="shipped",
        help="shipped: as the kiosk runs it; model: the outline model alone; "
        "cues: the hand-set whiteness and edge cues alone",
    )


def pick_detector(mode: str) -> Detector:
    """The detector a ``--detector`` choice names (an A/B of the outline model)."""
    if mode == "shipped":
        return Detector()
    return Detector(DetectorConfig(outline_model=mode == "model", hand_cues=mode == "cues"))


class Timer:
    """Collects wall-clock and process-CPU seconds of repeated calls (CPU time is what a busy
    shared machine does not distort; wall time is what a dedicated Pi core would see)."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __call__(self, fn: Callable[[], Any]) -> Any:
        w0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        self.cpu.append(time.process_time() - c0)
        self.wall.append(time.perf_counter() - w0)
        return out

    def plus(self, other: Timer) -> Timer:
        """Per-call sums of two timers that timed the same calls' two stages."""
        both = Timer()
        both.wall = [a + b for a, b in zip(self.wall, other.wall, strict=True)]
        both.cpu = [a + b for a, b in zip(self.cpu, other.cpu, strict=True)]
        return both

    def summary(self) -> str:
        if not self.wall:
            return "no samples"
        return (
            f"median {statistics.median(self.wall) * 1000:.1f} ms wall, "
            f"{statistics.median(self.cpu) * 1000:.1f} ms CPU (n={len(self.wall)})"
        )


def match_truth(found: Sequence[np.ndarray], truth: Sequence[np.ndarray], min_iou: float = 0.7) -> dict[int, int]:
    """Greedy one-to-one matching by polygon IoU: truth index -> found index."""
    pairs = sorted(
        ((polygon_iou(f, t), ti, fi) for ti, t in enumerate(truth) for fi, f in enumerate(found)), reverse=True
    )
    out: dict[int, int] = {}
    used: set[int] = set()
    for iou, ti, fi in pairs:
        if iou < min_iou:
            break
        if ti not in out and fi not in used:
            out[ti] = fi
            used.add(fi)
    return out


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance in pixels, over the four cyclic orders (either way up)."""
    return min(float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).max()) for k in range(4))


class Oracle:
    """A perfect identifier for rendered frames: names each detected quad after the true card it
    overlaps. Measures detection and tracking alone while no model is built; set ``truth``
    (the renderer's SceneCards) before each frame and pass ``detector`` to the pipeline."""

    def __init__(self) -> None:
        from kiosk.vision.detect import Detector

        outer = self

        class _Watching(Detector):
            def detect(self, frame: object) -> list:  # type: ignore[override]
                outer.last = super().detect(frame)
                return outer.last

        self.detector = _Watching()
        self.truth: list[Any] = []
        self.last: list[Any] = []

    def identify_cards(self, cards: Sequence[Any]) -> list[Any]:
        from kiosk.vision.reading import Identification

        # the detections of this frame answer once; a second look (alternates) learns nothing
        last, self.last = self.last, []
        m = match_truth([d.corners for d in last], [c.corners for c in self.truth], 0.5)
        names = {f: self.truth[t].card_id for t, f in m.items()}
        return [
            Identification(names.get(i), 0.99 if i in names else 0.0, None, 0.9 if i in names else 0.0)
            for i in range(len(cards))
        ]


def unconfirmable(answers: Sequence[Any]) -> int:
    """Names (identifications) the tracker would never confirm, too unsure or led too little:
    counted apart, as a bench that counts them as named overstates what the kiosk confirms."""
    tracker = TrackerConfig()
    return sum(a.card_id is not None and not tracker.counts(a.card_id, a.confidence, a.margin) for a in answers)


def foreign_sightings(
    style: str, scenes: int, first_seed: int, detector: Detector, deck: str = "standard-52", overlap: bool = True
) -> Iterator[tuple[Scene, SceneCard, Detection]]:
    """Held-out scenes of 6 cards of ``deck`` in printing ``style`` at 1920x1080 (the deck's cards
    in turn), lying apart or, with ``overlap``, partly over each other, each tilted up to 20
    degrees in a seeded direction: per card the detector outlines (IoU > 0.7), the scene as
    rendered before the tilt, the card and its detection."""
    ids, per_scene = load_deck(deck).ids, 6
    rng = np.random.default_rng(53)
    for s in range(scenes):
        chosen = [ids[(s * per_scene + k) % len(ids)] for k in range(per_scene)]
        flat = render_scene(
            deck,
            per_scene,
            first_seed + s,
            (1920, 1080),
            card_ids=chosen,
            styles=(style,),
            split="heldout",
            overlap=overlap,
        )
        scene = tilted(flat, rng.uniform(0, 20), rng.uniform(0, 2 * np.pi))
        found = detector.detect(scene.image)
        for card in scene.cards:
            match = [d for d in found if polygon_iou(d.corners, card.corners) > 0.7]
            if match:
                yield flat, card, match[0]
