"""Real photos (``../shared/data/real-cards/edje-tfod``): share of boxed cards detected and,
when the identifier is available, share named with the right rank; per-set figures and the
rank confusions. Usage: ``python bench/bench_real_photos.py [--deck standard-52] [--limit N]
[--thorough] [--detector shipped|model|cues]``. Cards are found and named as the kiosk does on
camera frames (:func:`kiosk.vision.naming.look`: at a glance first); ``--thorough`` looks at
every photo as ``kiosk recognize`` does (:func:`kiosk.vision.recognize.read_still`: every cue,
then other views of a photo that names no card: zoomed out, turned, zoomed in).

A boxed card counts as detected when a detected quad's bounding box overlaps the labelled box
with IoU >= 0.5 (each detection matches at most one box), and as named with the right rank when
a quad named that rank does, among the named quads only (a refused outline is not shown, and
must not take the box from the named one: counted so, 3 to 5 right ranks fewer). The
labels box only the visible part of a partly hidden card, so a second figure also counts a
completed card whose bounding box holds the label box (see :func:`covers`). Rank only: the
labels carry no suit. Cards named where no labelled card of that rank lies are counted too
(:func:`named_elsewhere`): on a kiosk's table such a name, seen in frame after frame, is a
wrong card confirmed. The labels are counted as given, errors included: ``train/IMG_2396`` is
labelled nine and shows the ten of diamonds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
from _vision import add_detector_option, pick_detector, unconfirmable

from kiosk.vision.naming import look
from kiosk.vision.reading import Identification
from kiosk.vision.recognize import read_still

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "real-cards" / "edje-tfod"
RANKS = {"nine": "9", "ten": "10", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}


def load_boxes(xml_path: Path) -> list[tuple[str, tuple[int, int, int, int]]]:
    root = ET.parse(xml_path).getroot()
    out = []
    for obj in root.iter("object"):
        b = obj.find("bndbox")
        box = tuple(int(float(b.find(k).text)) for k in ("xmin", "ymin", "xmax", "ymax"))  # type: ignore[union-attr,arg-type]
        out.append((RANKS[obj.findtext("name", "").strip()], box))
    return out  # type: ignore[return-value]


def box_iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def covers(box: tuple[float, ...], qb: tuple[float, ...]) -> float:
    """For a partly hidden card the label boxes only its visible part: a found card whose
    bounding box holds >= 80 % of the label box, and is not over three times its size, covers it.
    Returns the box IoU when it does, else 0."""
    ix = max(0.0, min(box[2], qb[2]) - max(box[0], qb[0]))
    iy = max(0.0, min(box[3], qb[3]) - max(box[1], qb[1]))
    box_area = (box[2] - box[0]) * (box[3] - box[1])
    q_area = (qb[2] - qb[0]) * (qb[3] - qb[1])
    if box_area <= 0 or ix * iy < 0.8 * box_area or q_area > 3 * box_area:
        return 0.0
    return box_iou(box, qb)


def _frame_box(quad: np.ndarray, shape: tuple[int, ...]) -> tuple[float, float, float, float]:
    """The quad's bounding box clipped to a photo of ``shape``, as the label boxes are: a card
    running off the photo is boxed up to its edge."""
    h, w = shape[:2]
    return (
        max(0.0, quad[:, 0].min()),
        max(0.0, quad[:, 1].min()),
        min(float(w), quad[:, 0].max()),
        min(float(h), quad[:, 1].max()),
    )


def match(
    boxes: list[tuple[int, int, int, int]],
    quads: list[np.ndarray],
    shape: tuple[int, ...],
    thr: float = 0.5,
    visible: bool = False,
) -> dict[int, int]:
    """Greedy best-IoU matching: box index -> detection index (IoU >= ``thr``, or with
    ``visible`` the :func:`covers` rule); ``shape`` is the photo's array shape."""
    pairs = []
    for i, box in enumerate(boxes):
        for j, q in enumerate(quads):
            qb = _frame_box(q, shape)
            iou = box_iou(box, qb)
            if iou >= thr or (visible and covers(box, qb) > 0):
                pairs.append((iou, i, j))
    used_b, used_d, out = set(), set(), {}
    for _, i, j in sorted(pairs, reverse=True):
        if i not in used_b and j not in used_d:
            out[i] = j
            used_b.add(i)
            used_d.add(j)
    return out


def named_elsewhere(
    labels: list[tuple[str, tuple[int, int, int, int]]],
    quads: list[np.ndarray],
    ranks: list[str],
    shape: tuple[int, ...],
) -> int:
    """Detections named a rank that no labelled card they overlap (box IoU >= 0.2) has: cards
    named where there is none of that rank, what would confirm a wrong card on a real table."""
    wrong = 0
    for quad, rank in zip(quads, ranks, strict=True):
        if rank == "none":
            continue
        qb = _frame_box(quad, shape)
        wrong += not any(r == rank and box_iou(b, qb) >= 0.2 for r, b in labels)
    return wrong


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="standard-52")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--no-identify", action="store_true", help="detection only")
    ap.add_argument(
        "--thorough", action="store_true", help="as kiosk recognize: every cue, other views where nothing is named"
    )
    ap.add_argument("--misses", type=Path, help="write annotated missed photos here (a tmp dir)")
    add_detector_option(ap)
    args = ap.parse_args()
    if not REAL.is_dir():
        print(f"skipped: {REAL} not found")
        return 0
    cv2.setNumThreads(1)
    identifier = None
    if not args.no_identify:
        try:
            from kiosk.vision.identify import Identifier

            identifier = Identifier(args.deck)
        except Exception as exc:  # noqa: BLE001 - the bench still measures detection
            print(f"identifier unavailable ({exc}); detection only")
    detector = pick_detector(args.detector)
    for split in ("train", "test"):
        photos = sorted(p for p in (REAL / split).iterdir() if p.suffix.lower() == ".jpg")
        if args.limit:
            photos = photos[: args.limit]
        boxed = found = covered = right = right_seen = extra = elsewhere = unsure = 0
        times: list[float] = []
        confusion: Counter[tuple[str, str]] = Counter()
        for photo in photos:
            img = cv2.imread(str(photo))
            labels = load_boxes(photo.with_suffix(".xml"))
            t0 = time.perf_counter()
            names: list[Identification] = []
            if identifier is not None and not args.thorough:  # as the kiosk does: at a glance first
                named = look(identifier, detector, img).named
                quads, names = [d.corners for d, _ in named], [i for _, i in named]
            elif identifier is not None:  # as kiosk recognize does
                read = read_still(img, identifier, detector)
                quads, names = [q for q, _ in read], [i for _, i in read]
            else:
                quads = [d.corners for d in detector.detect(img)]
            times.append(time.perf_counter() - t0)
            m = match([b for _, b in labels], quads, img.shape)
            seen = match([b for _, b in labels], quads, img.shape, visible=True)
            covered += len(seen)
            boxed += len(labels)
            found += len(m)
            extra += len(quads) - len(m)
            if identifier is not None:
                unsure += unconfirmable(names)
                ranks = [n.card_id[:-1] if n.card_id else "none" for n in names]
                elsewhere += named_elsewhere(labels, quads, ranks, img.shape)
                # the cards named are what the kiosk shows: a refused outline overlapping a
                # label more than the named one must not take the label from it
                named = [j for j, n in enumerate(names) if n.card_id]
                boxes, named_quads = [b for _, b in labels], [quads[j] for j in named]
                right_seen += sum(
                    ranks[named[j]] == labels[i][0]
                    for i, j in match(boxes, named_quads, img.shape, visible=True).items()
                )
                m_named = {i: named[j] for i, j in match(boxes, named_quads, img.shape).items()}
                right += sum(ranks[j] == labels[i][0] for i, j in m_named.items())
                for i in m:  # a card detected and not named right: named otherwise, or not at all
                    want, got = labels[i][0], ranks[m_named[i]] if i in m_named else "none"
                    if got != want:
                        confusion[(want, got)] += 1
            if args.misses and len(m) < len(labels):
                args.misses.mkdir(parents=True, exist_ok=True)
                for _, (x0, y0, x1, y1) in labels:
                    cv2.rectangle(img, (x0, y0), (x1, y1), (255, 0, 0), 2)
                for q in quads:
                    cv2.polylines(img, [q.astype(np.int32)], True, (0, 255, 0), 2)
                cv2.imwrite(str(args.misses / f"{split}-{photo.stem}.png"), img)
        print(
            f"edje-tfod/{split}: {len(photos)} photos, {boxed} boxed cards, "
            f"detected {found / boxed:.1%} ({found}) by box IoU >= 0.5, "
            f"{covered / boxed:.1%} ({covered}) counting completed hidden cards, "
            f"unmatched detections {extra}, "
            f"{'detect' if identifier is None else 'detect and name'} median "
            f"{statistics.median(times) * 1000:.1f} ms"
        )
        if identifier is not None:
            print(
                f"  right rank {right / boxed:.1%} of boxed ({right}), "
                f"{right / max(found, 1):.1%} of detected; {right_seen / boxed:.1%} ({right_seen}) "
                f"counting completed hidden cards; named where no card of that rank lies: {elsewhere}; "
                f"named without the lead or confidence the tracker needs to confirm them: {unsure}"
            )
            for (want, got), n in confusion.most_common(12):
                print(f"  confusion {want} -> {got}: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
