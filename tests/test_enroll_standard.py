"""Teaching the kiosk a standard deck it cannot read by its index (issue 53, item 2): a rendered
deck with a foreign index layout is enrolled from one uncropped photo per card on the table,
then other renders of it are named through the enrolled reader on the detector's cards."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.cli import main
from kiosk.decks import load_deck
from kiosk.render.faces import face_styles, render_face
from kiosk.render.foreign import foreign_look, foreign_styles, tilted
from kiosk.render.scenes import render_empty, render_scene
from kiosk.vision.detect import Detector
from kiosk.vision.enrolled import REFUSALS, CornerLook, EnrolledReader, Verdict
from kiosk.vision.face import FACE_SIZE
from kiosk.vision.gallery import Gallery, GalleryError, gallery_path
from kiosk.vision.geometry import polygon_iou
from kiosk.vision.glyphs import _boxes, _frame_lines, find_index, found_indices, glyph_patch
from kiosk.vision.identify import settle
from kiosk.vision.params import PARAMS
from kiosk.vision.pips import PIP_INPUT, PipReading, load_pip_reader, sign_patches
from kiosk.vision.reading import Identification
from kiosk.vision.teaching import Teaching, as_gallery, describe
from tests.blank_sheet import beside_a_blank

DECK = "standard-52"
STYLE = "foreign-narrow"  # no suit in the index: the index model cannot name these
SIZE = (1920, 1080)


def _photo(card_id: str, seed: int) -> np.ndarray:
    return render_scene(DECK, 1, seed, SIZE, card_ids=[card_id], styles=(STYLE,), table="grey").image


@pytest.fixture(scope="module")
def enrolled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A state dir where the foreign deck was enrolled through ``kiosk enroll``, one photo per card."""
    photos, state = tmp_path_factory.mktemp("photos"), tmp_path_factory.mktemp("state")
    for i, card_id in enumerate(load_deck(DECK).ids):
        cv2.imwrite(str(photos / f"{card_id}.jpg"), _photo(card_id, 100 + i), [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert main(["enroll", "--deck", DECK, "--state-dir", str(state), str(photos)]) == 0
    return state


@pytest.fixture(scope="module")
def readings(enrolled: Path) -> list[tuple[str, str | None]]:
    """(truth, answer) for every card the detector finds in 16 held-out scenes of 6 cards each,
    tilted up to 20 degrees, on other tables, light and positions than the enrolment photos."""
    reader = EnrolledReader.load(DECK, enrolled)
    assert reader is not None
    detector, ids = Detector(), load_deck(DECK).ids
    rng = np.random.default_rng(53)
    out = []
    for s in range(16):
        chosen = [ids[(s * 6 + k) % len(ids)] for k in range(6)]
        scene = render_scene(DECK, 6, 1000 + s, SIZE, card_ids=chosen, styles=(STYLE,), split="heldout", overlap=False)
        scene = tilted(scene, rng.uniform(0, 20), rng.uniform(0, 2 * np.pi))
        found = detector.detect(scene.image)
        for card in scene.cards:
            match = [d for d in found if polygon_iou(d.corners, card.corners) > 0.7]
            if match:
                answer = reader.read(match[0].face)
                out.append((card.card_id, None if answer is None else answer.card_id))
    assert len(out) >= 80  # the detector finds most of the 96 cards
    return out


def test_an_enrolled_foreign_deck_is_never_misnamed(readings: list[tuple[str, str | None]]) -> None:
    wrong = [(truth, answer) for truth, answer in readings if answer is not None and answer != truth]
    assert wrong == []


def test_an_enrolled_foreign_deck_names_its_number_cards_and_aces(readings: list[tuple[str, str | None]]) -> None:
    numbers = [(truth, answer) for truth, answer in readings if truth[:-1] not in ("J", "Q", "K")]
    right = sum(truth == answer for truth, answer in numbers)
    assert right >= 0.9 * len(numbers)


def test_an_enrolled_foreign_deck_names_its_courts_by_their_suit_signs(readings: list[tuple[str, str | None]]) -> None:
    """This printing shows a court's suit only in a ring cut out of its silhouette (15 of 19 here)."""
    courts = [(truth, answer) for truth, answer in readings if truth[:-1] in ("J", "Q", "K")]
    assert sum(truth == answer for truth, answer in courts) >= 0.6 * len(courts)


@pytest.mark.xfail(
    strict=True,
    reason="issue 53 bar (>= 99.5 % named): this printing's cards are named at about 91 % here, 0 wrong; "
    "a few courts and small ranks are refused; see docs/identification.md",
)
def test_an_enrolled_foreign_deck_is_named_at_issue_53s_bar(readings: list[tuple[str, str | None]]) -> None:
    right = sum(truth == answer for truth, answer in readings)
    assert right >= 0.995 * len(readings)


def test_a_photo_without_a_card_is_refused_by_name_and_the_rest_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "7H.jpg"), render_empty(5, SIZE, hands=False, distractors=False))
    cv2.imwrite(str(photos / "QS.jpg"), _photo("QS", 7))
    assert main(["enroll", "--deck", DECK, "--state-dir", str(tmp_path), str(photos)]) == 1
    out = capsys.readouterr().out
    assert (
        "refused 7H.jpg: no card found" in out and "enrolled 1 cards" in out and "7H" in out.split("still to enrol")[1]
    )
    gallery = Gallery.load(DECK, tmp_path)
    assert gallery is not None and set(gallery.answers) == {"QS"}
    assert (
        EnrolledReader.load(DECK, tmp_path) is None
    )  # a partial deck is not read: its gaps could pass for look-alikes


def test_a_blank_sheet_beside_the_card_does_not_make_two_cards(tmp_path: Path) -> None:
    photo = beside_a_blank(_photo("7H", 100))
    assert len(Detector().detect(photo)) == 2  # the sheet is outlined too
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "7H.png"), photo)
    assert main(["enroll", "--deck", DECK, "--state-dir", str(tmp_path), str(photos)]) == 0  # no photo refused
    gallery = Gallery.load(DECK, tmp_path)
    assert gallery is not None and gallery.answers[0] == "7H"


def test_two_cards_in_a_photo_are_still_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    two = render_scene(DECK, 2, 7, SIZE, card_ids=["AC", "9H"], styles=(STYLE,), table="grey", overlap=False).image
    cv2.imwrite(str(photos / "AC.png"), beside_a_blank(two))
    assert main(["enroll", "--deck", DECK, "--state-dir", str(tmp_path), str(photos)]) == 1
    assert "AC.png: 2 cards found" in capsys.readouterr().err


def test_enrolling_over_a_gallery_of_another_shape_teaches_afresh(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A gallery kept by an earlier version (other rows per card) is no stop to ``kiosk enroll``:
    it says so once and the photos are taught into a new one, the old cards not kept."""
    Gallery(DECK, ("AS",), np.ones((1, 16), np.float32)).save(tmp_path)
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "QS.png"), _photo("QS", 7))
    assert main(["enroll", "--deck", DECK, "--state-dir", str(tmp_path), str(photos)]) == 0
    assert "taught afresh" in caplog.text
    gallery = Gallery.load(DECK, tmp_path)
    assert gallery is not None and set(gallery.answers) == {"QS"}


def test_forget_removes_the_enrolled_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    faces = {c: describe(np.full((280, 200, 3), 200, np.uint8), None) for c in ("AS", "2S")}
    as_gallery(DECK, faces).save(tmp_path)
    assert gallery_path(DECK, tmp_path).is_file()
    assert main(["enroll", "--forget", DECK, "--state-dir", str(tmp_path)]) == 0
    assert not gallery_path(DECK, tmp_path).exists() and "forgotten" in capsys.readouterr().out
    assert main(["enroll", "--forget", DECK, "--state-dir", str(tmp_path)]) == 0
    assert "nothing enrolled" in capsys.readouterr().out


def test_in_order_needs_one_photo_per_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("photo-1.jpg", "photo-2.jpg"):
        cv2.imwrite(str(tmp_path / name), np.zeros((8, 8, 3), np.uint8))
    assert main(["enroll", "--deck", DECK, "--in-order", str(tmp_path)]) == 2
    assert "2 images for the 52 cards" in capsys.readouterr().err


def test_photos_not_named_by_card_id_are_named_in_the_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cv2.imwrite(str(tmp_path / "holiday.jpg"), np.zeros((8, 8, 3), np.uint8))
    assert main(["enroll", "--deck", DECK, str(tmp_path)]) == 2
    assert "holiday.jpg" in capsys.readouterr().err


def test_a_gallery_of_another_shape_is_refused_in_one_line(tmp_path: Path) -> None:
    Gallery(DECK, ("AS",), np.ones((1, 16), np.float32)).save(tmp_path)
    gallery = Gallery.load(DECK, tmp_path)
    assert gallery is not None
    with pytest.raises(GalleryError, match="kiosk enroll"):
        EnrolledReader(gallery, None)


@pytest.mark.parametrize("style", foreign_styles())
@pytest.mark.parametrize("card_id", ["AS", "7H", "10C", "QD", "KS"])
@pytest.mark.parametrize("blur", [0.0, 1.5, 2.5])
def test_the_index_is_found_where_each_layout_prints_its_rank(style: str, card_id: str, blur: float) -> None:
    """The rank found starts in its layout's rank box and reaches no further than the index, also
    seen blurred, where a suit printed beside the rank runs into a court's frame line."""
    face = cv2.cvtColor(np.asarray(render_face(load_deck(DECK)[card_id], style, FACE_SIZE[0])), cv2.COLOR_RGB2BGR)
    face = cv2.resize(face, FACE_SIZE, interpolation=cv2.INTER_AREA)
    if blur:
        face = cv2.GaussianBlur(face, (0, 0), blur)
    layout = foreign_look(style)[1]
    x0, y0, x1, y1 = layout.rank_box
    if layout.suit_box is not None:  # a suit printed against the rank is read with it
        x1, y1 = max(x1, layout.suit_box[2]), max(y1, layout.suit_box[3])
    w, h = FACE_SIZE
    for index in (find_index(face), find_index(np.ascontiguousarray(face[::-1, ::-1]))):
        assert index is not None
        x, y, bw, bh = index.rank
        assert x0 * w - 3 <= x and x + bw <= x1 * w + 3 and y0 * h - 3 <= y and y + bh <= y1 * h + 3


#: A face's corner region, where :func:`kiosk.vision.glyphs.find_index` looks (rows, columns).
CORNER = (round(PARAMS.glyphs.corner[1] * FACE_SIZE[1]), round(PARAMS.glyphs.corner[0] * FACE_SIZE[0]))


@st.composite
def corner_ink(draw: st.DrawFn) -> np.ndarray:
    """The ink mask of a corner region: glyph-sized blocks and thin lines, some running to its
    bottom or right side, some in line with one that does across a gap."""
    h, w = CORNER
    mask = np.zeros(CORNER, np.uint8)
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["glyph", "down", "across", "broken"]))
        if kind == "broken":  # a long stroke, a gap, then a line on to the bottom
            x, width, gap = draw(st.integers(0, w - 4)), draw(st.integers(1, 3)), draw(st.integers(2, 20))
            top = draw(st.integers(0, h - 90 - gap))
            mask[top : top + 45, x : x + width] = 1
            mask[top + 45 + gap :, x : x + width] = 1
        elif kind == "glyph":
            x, y = draw(st.integers(0, w - 4)), draw(st.integers(0, h - 4))
            mask[y : y + draw(st.integers(2, 24)), x : x + draw(st.integers(2, 16))] = 1
        elif kind == "down":
            x, y = draw(st.integers(0, w - 4)), draw(st.integers(0, h - 8))
            mask[y:, x : x + draw(st.integers(1, 4))] = 1
        else:
            x, y = draw(st.integers(0, w - 8)), draw(st.integers(0, h - 4))
            mask[y : y + draw(st.integers(1, 4)), x:] = 1
    return mask


@settings(max_examples=80, deadline=None)
@given(mask=corner_ink())
def test_frame_lines_part_only_the_ink_cut_by_the_corners_side(mask: np.ndarray) -> None:
    """Every ink component that reaches neither the bottom nor the right side of the corner is
    found as it was, whatever frame lines are taken out of the others."""
    kept = [b for b in _boxes(mask) if b[0] + b[2] < CORNER[1] and b[1] + b[3] < CORNER[0]]
    parted = set(_boxes(mask & (1 - _frame_lines(mask, FACE_SIZE))))
    assert all(b in parted for b in kept)


@pytest.mark.parametrize("style", foreign_styles())
def test_foreign_faces_are_deterministic_and_never_a_default_style(style: str) -> None:
    card = load_deck(DECK)["7H"]
    assert style not in face_styles(DECK)
    once = np.asarray(render_face.__wrapped__(card, style, 200))
    assert np.array_equal(once, np.asarray(render_face.__wrapped__(card, style, 200)))
    assert not np.array_equal(once, np.asarray(render_face.__wrapped__(card, f"{style}-4", 200)))
    with pytest.raises(ValueError, match="no face style"):
        render_face(load_deck("kakkerlakken-64").cards[0], style)


def test_the_kiosks_identifier_reads_with_the_enrolled_printing_once_a_deck_is_enrolled(
    enrolled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The camera pipeline's :class:`~kiosk.vision.identify.Identifier` reads an enrolled printing
    with its reader too: the cards the index model refuses are named, and the index model's wrong
    suits on a printing whose index shows none are overruled or refused."""
    from kiosk.vision.identify import Identifier

    detector, ids = Detector(), load_deck(DECK).ids
    cards, truths = [], []
    for s in range(4):
        chosen = [ids[(s * 13 + 5 * k) % len(ids)] for k in range(6)]
        scene = render_scene(DECK, 6, 2000 + s, SIZE, card_ids=chosen, styles=(STYLE,), split="heldout", overlap=False)
        for found in detector.detect(scene.image):
            truth = next((c.card_id for c in scene.cards if polygon_iou(found.corners, c.corners) > 0.7), None)
            if truth is not None:
                cards.append(found)
                truths.append(truth)
    monkeypatch.setenv("KIOSK_STATE_DIR", str(enrolled.parent / "nothing-enrolled"))
    before = [a.card_id for a in Identifier(DECK).identify_cards(cards)]
    monkeypatch.setenv("KIOSK_STATE_DIR", str(enrolled))
    after = [a.card_id for a in Identifier(DECK).identify_cards(cards)]

    def right_wrong(answers: list[str | None]) -> tuple[int, int]:
        named = [(a, t) for a, t in zip(answers, truths, strict=True) if a is not None]
        return sum(a == t for a, t in named), sum(a != t for a, t in named)

    (right_before, _), (right_after, wrong_after) = right_wrong(before), right_wrong(after)
    assert wrong_after == 0 and right_after > right_before


def _clean_face(card_id: str, style: str) -> np.ndarray:
    face = cv2.cvtColor(np.asarray(render_face(load_deck(DECK)[card_id], style, 2 * FACE_SIZE[0])), cv2.COLOR_RGB2BGR)
    return cv2.resize(face, FACE_SIZE, interpolation=cv2.INTER_AREA)


@lru_cache(maxsize=3)
def _enrolled_from_faces(style: str) -> EnrolledReader:
    """The reader of ``style`` enrolled from its clean rendered faces, one per card."""
    from kiosk.vision.identify import default_models_dir

    pips = load_pip_reader(default_models_dir())
    if pips is None:
        pytest.skip("no pip model or TFLite runtime")
    teaching = Teaching(DECK, pips)
    for card_id in load_deck(DECK).ids:
        teaching.teach(card_id, _clean_face(card_id, style))
    return EnrolledReader(teaching.gallery(), pips)


@pytest.mark.parametrize("style", ["foreign-side", "foreign-narrow"])
def test_a_court_is_named_by_its_suit_signs_either_way_up(style: str) -> None:
    """foreign-side courts carry their suit in the index and as emblems in the portrait's frame;
    foreign-narrow courts only in a ring cut out of a solid silhouette, the sign touching the
    ring. Each court is found at the spots where both courts of its rank and colour show a sign
    the printing's own pips read as their suits, and named, turned half round and blurred."""
    reader = _enrolled_from_faces(style)
    courts = [c for c in load_deck(DECK).ids if c[:-1] in ("J", "Q", "K")]
    answers = {}
    for card_id in courts:
        seen = cv2.GaussianBlur(np.ascontiguousarray(_clean_face(card_id, style)[::-1, ::-1]), (0, 0), 0.8)
        answer = reader.read(seen)
        answers[card_id] = None if answer is None else answer.card_id
    assert all(len(spots) for spots, _, _ in reader.spots.values())
    assert answers == {c: c for c in courts}


@settings(max_examples=40, deadline=None)
@given(x=st.floats(20, 180), y=st.floats(20, 260), side=st.floats(8, 40), shape=st.sampled_from(["disc", "square"]))
def test_a_sign_patch_centres_the_sign_at_four_fifths_of_the_patch(x: float, y: float, side: float, shape: str) -> None:
    """Wherever a sign sits and whatever its size, its patch holds it centred, its side four
    fifths of the patch, as the pip model was trained on pips."""
    rows, cols = np.indices((FACE_SIZE[1], FACE_SIZE[0])) + 0.5  # pixel i's centre lies at i + 0.5
    dx, dy = np.abs(cols - x), np.abs(rows - y)
    off = np.hypot(dx, dy) if shape == "disc" else np.maximum(dx, dy)
    ink = np.clip(side / 2 - off + 0.5, 0, 1).astype(np.float32)  # one pixel of soft edge
    patch = sign_patches(ink, np.array([[x, y, side]], np.float32))[0, :, :, 0]
    mass = patch.sum()
    rows, cols = np.indices(patch.shape) + 0.5
    assert abs((cols * patch).sum() / mass - PIP_INPUT / 2) < 0.5
    assert abs((rows * patch).sum() / mass - PIP_INPUT / 2) < 0.5
    inked = np.flatnonzero(patch.max(axis=0) > 0.5)
    assert abs(len(inked) - 0.8 * PIP_INPUT) <= 2


def _covered(face: np.ndarray, by: np.ndarray) -> np.ndarray:
    """``face`` with its bottom-right index corner under ``by`` (a card's face) as a card lying
    over it would leave it: ``by``'s middle there, a third of the width and height."""
    h, w = face.shape[:2]
    out = face.copy()
    out[2 * h // 3 :, 2 * w // 3 :] = by[h // 3 : h // 3 + h - 2 * h // 3, w // 3 : w // 3 + w - 2 * w // 3]
    return out


def test_cards_with_one_index_corner_covered_are_read_from_the_other() -> None:
    """Another card's body over one corner reads no rank: the other corner names the card, or it
    is refused, never misnamed. Its pips then count fewer than its rank, so the rank must lead
    on its own, which this printing's 6, 8 and 9 mostly do not, and an ace's one pip names no suit."""
    reader = _enrolled_from_faces("foreign-side")
    over = _clean_face("5C", "foreign-side")
    answers = {}
    for card_id in load_deck(DECK).ids:
        answer = reader.judge(_covered(_clean_face(card_id, "foreign-side"), over)).answer
        answers[card_id] = None if answer is None else answer.card_id
    assert [c for c, a in answers.items() if a is not None and a != c] == []
    assert sum(a == c for c, a in answers.items()) >= 0.6 * len(answers)
    assert all(answers[c] == c for c in ("3S", "7D", "10H", "QH", "KC"))


def test_corners_reading_two_ranks_are_refused_never_named() -> None:
    """A corner showing another card's index (a fanned card over it) reads another rank: the card
    is refused with that reason, whichever corner holds the true one."""
    reader = _enrolled_from_faces("foreign-side")
    face, other = _clean_face("4H", "foreign-side"), _clean_face("9H", "foreign-side")
    h, w = face.shape[:2]
    fanned = face.copy()
    fanned[h // 2 :, w // 2 :] = other[h // 2 :, w // 2 :]  # the 9's bottom-right index over the 4's
    verdict = reader.judge(fanned)
    assert verdict.answer is None and verdict.reason == "corners disagree" and verdict.reason in REFUSALS


@pytest.mark.parametrize(("style", "share"), [("foreign-side", 0.7), ("foreign-low", 0.25), ("foreign-narrow", 0.0)])
def test_index_suit_glyphs_are_read_only_where_the_printing_has_them(style: str, share: float) -> None:
    """A printing with a suit beside its rank has its index suits read against its own enrolled
    glyphs, never as another suit (a share of them: ``foreign-low``'s small suit is often not
    found beside its big rank); one without a suit in its index is not read that way at all."""
    reader = _enrolled_from_faces(style)
    assert reader.suit_glyphs.usable is (share > 0)
    read = {}
    for card_id in load_deck(DECK).ids:
        index = find_index(np.ascontiguousarray(cv2.GaussianBlur(_clean_face(card_id, style), (0, 0), 0.8)))
        read[card_id] = None if index is None else reader.suit_glyphs.read(index)
    assert all(suit is None or suit == card_id[-1] for card_id, suit in read.items())
    assert sum(suit == card_id[-1] for card_id, suit in read.items()) >= share * len(read)
    assert share or set(read.values()) == {None}


@pytest.mark.parametrize("glyph", ["S", "C", None])
def test_pips_counting_a_number_cards_rank_say_its_suit_whatever_its_index_glyph_says(glyph: str | None) -> None:
    """A number card's pips read surely, as many as its rank, say its suit alone; fewer pips (a
    card over part of the face) say it where those at the printing's pip places read it, with no
    suit glyph saying another; with none there, only with a corner's suit glyph saying the same."""
    reader = _enrolled_from_faces("foreign-side")
    face = _clean_face("6C", "foreign-side")
    h, w = face.shape[:2]
    bare = np.full_like(face, face[2, w // 2])  # all but its top-left index under another card
    bare[: h // 5, : w // 4] = face[: h // 5, : w // 4]
    looks = [CornerLook("6", 0.95, "9", 0.3, 0.0, glyph)]
    six, four = (PipReading(n, "C", 0.99, (0.99, 0.0, 0.0, 0.01)) for n in (6, 4))
    assert reader._suit(face, "6", False, six, looks, True) == "C"
    assert reader._suit(face, "6", False, four, looks, True) == ("C" if glyph != "S" else None)
    assert reader._suit(bare, "6", False, four, looks, True) == ("C" if glyph == "C" else None)


@pytest.mark.parametrize(("corners", "confidence", "named"), [(2, 0.99, "6C"), (2, 0.8, None), (1, 0.99, None)])
def test_a_rank_both_corners_read_best_and_the_pips_count_needs_no_lead(
    monkeypatch: pytest.MonkeyPatch, corners: int, confidence: float, named: str | None
) -> None:
    """A six both corners read best, its lead over an eight too small to tell them apart, whose
    pips count six surely: three looks agree, and it is named; pips unsure, or one corner only
    (the other under a card), and the lead is still needed."""
    reader = _enrolled_from_faces("foreign-side")
    face = _clean_face("6C", "foreign-side")
    seen = iter(range(2))
    monkeypatch.setattr(
        reader,
        "_look",
        lambda index: CornerLook("6", 0.95 if next(seen) < corners else 0.3, "8", 0.01, reader.black_mean, None),
    )
    monkeypatch.setattr(reader, "_read_pips", lambda face: PipReading(6, "C", confidence, (confidence, 0.0, 0.0, 0.0)))
    verdict = reader.judge(face)
    assert (verdict.answer.card_id if verdict.answer else verdict.reason) == (named or "rank unsure")


@settings(max_examples=40, deadline=None)
@given(x=st.integers(4, 60), y=st.integers(4, 80), w=st.integers(4, 30), h=st.integers(4, 30))
def test_a_glyph_patch_centres_its_box_at_four_fifths_of_the_patch(x: int, y: int, w: int, h: int) -> None:
    """Wherever a glyph sits and whatever its size, its patch holds its box centred, the longer
    side four fifths of the patch: the same patch for the same glyph at any size and place."""
    ink = np.zeros((120, 100), np.float32)
    ink[y : y + h, x : x + w] = 1.0
    patch = glyph_patch(ink, (x, y, w, h), 32)
    rows, cols = np.indices(patch.shape) + 0.5
    mass = patch.sum()
    assert abs((cols * patch).sum() / mass - 16) < 0.75 and abs((rows * patch).sum() / mass - 16) < 0.75
    inked = np.flatnonzero(patch.max(axis=0 if w >= h else 1) > 0.5)
    assert abs(len(inked) - 0.8 * 32) <= 2


def _faded(face: np.ndarray) -> np.ndarray:
    """``face`` with both index corners half way between their colours and grey."""
    h, w = face.shape[:2]
    grey = cv2.cvtColor(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    out = face.copy()
    for corner in (np.s_[: h // 4, : w // 4], np.s_[-(h // 4) :, -(w // 4) :]):
        out[corner] = cv2.addWeighted(face[corner], 0.5, grey[corner], 0.5, 0)
    return out


@pytest.mark.parametrize("card_id", ["9D", "7H", "4D"])
def test_an_index_neither_red_nor_black_takes_its_colour_from_pips_counting_its_rank(card_id: str) -> None:
    """Thin digits seen small lose their colour to the paper round them: an index whose ink is
    half way between red and grey reads as neither colour. A number card whose pips count its
    rank is still named, its colour from them; an ace's one pip is not enough."""
    reader = _enrolled_from_faces("foreign-side")
    faded = _faded(_clean_face(card_id, "foreign-side"))
    assert reader._red(float(np.mean([i.redness for _, i in found_indices(faded)]))) is None
    answer = reader.read(faded)
    assert answer is not None and answer.card_id == card_id
    assert reader.judge(_faded(_clean_face("AD", "foreign-side"))).reason == "colour unsure"


@settings(max_examples=60, deadline=None)
@given(
    rank=st.sampled_from(["A", *map(str, range(2, 11)), "J", "Q", "K"]),
    suit=st.sampled_from("CDHS"),
    count=st.integers(0, 12),
    pip_suit=st.sampled_from("CDHS"),
    confidence=st.floats(0.5, 1.0),
)
def test_where_suits_are_not_told_the_models_answer_stands_only_with_pips_counting_it(
    rank: str, suit: str, count: int, pip_suit: str, confidence: float
) -> None:
    """On a printing whose index shows no suit its reader tells apart, the index model's answer
    for a card the enrolled reader refused stands only where the card's pips count its rank (2 to
    10) in its suit, surely; else it is refused too."""
    card_id = rank + suit
    model = Identification(card_id, 0.99, None, 0.9, card_id)
    pips = PipReading(count, pip_suit, confidence, (0.25, 0.25, 0.25, 0.25))
    answer = settle(model, Verdict(None, "rank unsure", pips), suits_told=False).card_id
    counted = rank not in ("A", "J", "Q", "K") and count == int(rank) and pip_suit == suit and confidence >= 0.9
    assert answer == (card_id if counted else None)
    assert settle(model, Verdict(None, "rank unsure", pips), suits_told=True).card_id == card_id


@settings(max_examples=60, deadline=None)
@given(
    rank=st.sampled_from(["A", *map(str, range(2, 11)), "J", "Q", "K"]),
    corners=st.sampled_from([None, "A", *map(str, range(2, 11)), "J", "Q", "K"]),
    suits_told=st.booleans(),
)
def test_the_models_answer_never_stands_against_the_rank_the_printings_corners_agree_on(
    rank: str, corners: str | None, suits_told: bool
) -> None:
    """The enrolled reader refused a card (its lead too small, its suit unsure) whose counted
    corners agree on a rank: the index model's answer of another rank is refused too; of that
    rank, or with no rank agreed on, it stands as before (its pips counting it where the
    printing's suits are not told)."""
    card_id = rank + "D"
    model = Identification(card_id, 0.99, None, 0.9, card_id)
    pips = PipReading(int(rank) if rank.isdigit() else 1, "D", 0.99, (0.0, 0.99, 0.01, 0.0))
    answer = settle(model, Verdict(None, "rank unsure", pips, corners), suits_told).card_id
    stands = corners in (None, rank) and (suits_told or rank.isdigit())
    assert answer == (card_id if stands else None)


def test_a_gallery_whose_cards_show_no_index_gives_a_reader_that_names_nothing() -> None:
    """Cards taught with nothing found in their corners (blank faces) leave the reader no index to
    compare: it is built, and refuses every card for want of an index."""
    blank = np.full((280, 200, 3), 220, np.uint8)
    reader = EnrolledReader(as_gallery(DECK, {c: describe(blank, None) for c in load_deck(DECK).ids}), None)
    assert reader.judge(_clean_face("7H", "foreign-side")).reason == "no index"
