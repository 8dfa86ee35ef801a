"""Passport stamps: every place's stamp exactly as wide as the printer's line, 1-bit, distinct,
with the right emblem, names and date; ``kiosk stamp`` writes the preview."""

from __future__ import annotations

import hashlib
import itertools
from datetime import date
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from kiosk.cli import main
from kiosk.decks import load_deck
from kiosk.devices.stamp import place_lines, render_stamp, stamp_date, stamp_layout, stamp_motif
from kiosk.render.emblems import emblem_mask
from kiosk.render.landmarks import LANDMARKS
from tests.quotes import seed_says

DAY = date(2026, 11, 29)
DECK = load_deck("affiche-belge")


@pytest.mark.parametrize("width", [384, 576])
def test_every_place_has_a_distinct_1bit_stamp_of_the_printer_width(width: int) -> None:
    digests = set()
    for card in DECK:
        img = render_stamp(card.id, day=DAY, width=width)
        assert img.mode == "1" and img.width == width
        digests.add(hashlib.sha256(img.tobytes()).hexdigest())
    assert len(digests) == len(DECK) == 54


@pytest.mark.parametrize(("card_id", "region"), [("2H", "flanders"), ("4C", "wallonia"), ("7S", "brussels")])
def test_the_stamp_carries_its_region_emblem(card_id: str, region: str) -> None:
    """Seed 000_de7fdf0eefacbd60.txt: « flamand s'il porte un lion, wallon s'il porte un coq »."""
    seed_says("flamand s’il porte un lion, wallon s’il porte un coq")
    left, right = stamp_layout(384).emblems
    stamp = render_stamp(card_id, day=DAY)
    paper = np.asarray(stamp.crop(left)) == 1  # white on the kiosk-name band
    mirrored = np.asarray(stamp.crop(right))[:, ::-1] == 1  # the right one faces the left one
    for other in ("flanders", "wallonia", "brussels"):
        shape = np.asarray(emblem_mask(other, (left[2] - left[0], left[3] - left[1]))) >= 128
        if other == region:
            assert paper[shape].all() and mirrored[shape].all()  # every dot of the emblem
            assert paper[~shape].mean() < 0.02  # and the band's ink round it
        else:
            assert not paper[shape].all()


def test_a_place_of_no_region_shows_be_in_place_of_the_emblems() -> None:
    left, _ = stamp_layout(384).emblems
    paper = np.asarray(render_stamp("JC", day=DAY).crop(left)) == 1
    assert 0.05 < paper.mean() < 0.5  # white letters on the band
    for region in ("flanders", "wallonia", "brussels"):
        shape = np.asarray(emblem_mask(region, (left[2] - left[0], left[3] - left[1]))) >= 128
        assert not paper[shape].all()


@pytest.mark.parametrize("width", [384, 576])
def test_every_card_has_its_own_landmark_on_its_stamp(width: int) -> None:
    """54 collectible stamps: no two motifs share most of their ink (intersection over union)."""
    lay = stamp_layout(width)
    motifs = {}
    for card in DECK:
        motif = np.asarray(stamp_motif(card.id, width))
        assert 0.05 < motif.mean() < 0.8  # a silhouette, not a blank or a blot
        printed = np.asarray(render_stamp(card.id, day=DAY, width=width).crop(lay.motif)) == 0
        assert printed[motif].all()  # printed as drawn, in ink
        motifs[card.id] = motif
    assert set(LANDMARKS) == set(motifs) and len(motifs) == 54  # a drawing of its own for each
    worst = max(
        ((motifs[a] & motifs[b]).sum() / (motifs[a] | motifs[b]).sum(), a, b)
        for a, b in itertools.combinations(motifs, 2)
    )
    assert worst[0] < 0.8, worst


def test_brussels_places_are_named_in_french_and_dutch() -> None:
    """Seed 000_de7fdf0eefacbd60.txt: « Bruxelles est bilingue : Laeken (7) et le
    Cinquantenaire (5) … »."""
    seed_says("Bruxelles est bilingue : Laeken (7) et le Cinquantenaire (5)")
    assert place_lines(DECK["7S"], "en", bilingual=False) == ["Laeken", "Laken"]
    assert place_lines(DECK["5H"], "de", bilingual=False) == ["Cinquantenaire", "Jubelpark"]
    assert place_lines(DECK["2H"], "nl", bilingual=False) == ["Gent"]
    assert place_lines(DECK["2H"], "en", bilingual=True) == ["Gand", "Gent"]
    assert place_lines(DECK["KS"], "fr", bilingual=True) == ["Eupen"]  # same name: once


def test_the_date_reads_like_a_rubber_date_stamp() -> None:
    assert stamp_date(DAY) == "29·XI·2026"
    assert stamp_date(date(2027, 4, 1)) == "1·IV·2027"


def test_date_language_and_kiosk_name_all_show_on_the_stamp() -> None:
    base = render_stamp("3S", day=DAY, lang="fr").tobytes()
    assert render_stamp("3S", day=date(2026, 11, 30), lang="fr").tobytes() != base
    assert render_stamp("3S", day=DAY, lang="nl").tobytes() != base  # Ieper, BEZOCHT
    assert render_stamp("3S", day=DAY, lang="fr", kiosk_name="Musée L").tobytes() != base
    assert render_stamp(DECK["3S"], day=DAY, lang="fr").tobytes() == base  # a Card works as its id


def test_the_emblem_disc_is_dithered_halftone_and_the_rest_is_clean() -> None:
    lay = stamp_layout(384)
    img = np.asarray(render_stamp("4C", day=DAY)) == 0
    (cx, cy), r = lay.disc_centre, lay.disc_radius
    ring = img[cy - r + 6 : cy - r + 16, cx - 5 : cx + 5]  # inside the disc, above the temple
    assert 0.2 < ring.mean() < 0.8  # grey made of dots
    gutter = img[lay.mid_top : lay.mid_bottom, cx + r + 3 : cx + r + 8]  # between disc and text
    assert not gutter.any()


def test_kiosk_stamp_writes_the_preview(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KIOSK_CONFIG", str(tmp_path / "none.toml"))
    out = tmp_path / "qd.png"
    assert (
        main(
            [
                "stamp",
                "QD",
                "-o",
                str(out),
                "--lang",
                "nl",
                "--width",
                "576",
                "--date",
                "2026-11-29",
            ]
        )
        == 0
    )
    img = Image.open(out)
    assert (img.mode, img.width) == ("1", 576)
    assert img.tobytes() == render_stamp("QD", day=DAY, lang="nl", width=576).tobytes()
    assert "576x" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["stamp", "ZZ", "-o", "x.png"], ["stamp", "7H", "-o", "x.png", "--width", "390"]])
def test_kiosk_stamp_rejects_bad_arguments_with_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    monkeypatch.setenv("KIOSK_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert not (tmp_path / "x.png").exists()


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from(DECK.ids),
    st.sampled_from(["fr", "nl", "de", "en"]),
    st.dates(date(2000, 1, 1), date(2099, 12, 31)),
    st.sampled_from([384, 448, 576]),
    st.booleans(),
)
def test_any_stamp_is_1bit_at_exactly_the_width(
    card_id: str, lang: str, day: date, width: int, bilingual: bool
) -> None:
    img = render_stamp(card_id, day=day, lang=lang, width=width, bilingual=bilingual)
    assert img.mode == "1" and img.width == width and img.height == stamp_layout(width).height
