"""The two Manneken-Pis of the L'Affiche Belge deck print one corner index (``JK``) but are two
cards with two posters (the costumed statue and the one in its niche); a card shown must show its
own place (000_de7fdf0eefacbd60.txt: "passe une carte du jeu devant : le lieu s'affiche"). The
kiosk names each by its poster, and refuses a joker it cannot tell rather than show the other."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from kiosk.decks import load_deck
from kiosk.render.faces import render_face
from kiosk.render.scenes import render_scene
from kiosk.vision.art import ArtMatcher
from kiosk.vision.face import FACE_SIZE, index_crops, warp_face
from kiosk.vision.identify import Identifier
from kiosk.vision.poster_reader import PosterReader, twin_cards
from kiosk.vision.reading import Identification


@cache
def identifier() -> Identifier:
    return Identifier("affiche-belge")


@cache
def art() -> ArtMatcher:
    return ArtMatcher(twin_cards(load_deck("affiche-belge")))


def poster(card_id: str) -> np.ndarray:
    card = load_deck("affiche-belge")[card_id]
    return cv2.cvtColor(np.asarray(render_face(card, width=FACE_SIZE[0])), cv2.COLOR_RGB2BGR)


def test_only_decks_whose_cards_share_an_index_have_twins() -> None:
    assert [c.id for c in twin_cards(load_deck("affiche-belge"))] == ["JK1", "JK2"]
    assert twin_cards(load_deck("standard-52")) == ()
    assert twin_cards(load_deck("piquet-32")) == ()


@pytest.mark.parametrize("seed", range(6))
def test_each_manneken_pis_on_a_table_is_named_by_its_poster(seed: int) -> None:
    """Both jokers among other cards on a held-out table, at any angle (either way up), their
    outlines a couple of pixels off as the detector finds them."""
    scene = render_scene(
        "affiche-belge", 4, 7000 + seed, card_ids=["JK1", "JK2", "7H", "QD"], split="heldout", overlap=False
    )
    rng = np.random.default_rng(seed)
    faces = [warp_face(scene.image, c.corners + rng.normal(0, 2, (4, 2)).astype(np.float32)) for c in scene.cards]
    answers = identifier().identify(faces)
    assert [a.card_id for a in answers] == [c.card_id for c in scene.cards]


def test_a_joker_turned_half_round_is_still_told() -> None:
    faces = [cv2.rotate(poster(i), cv2.ROTATE_180) for i in ("JK1", "JK2")]
    assert [a.card_id for a in identifier().identify(faces)] == ["JK1", "JK2"]


def test_a_joker_whose_poster_matches_neither_clearly_is_refused() -> None:
    """Half of each poster: the index reads a joker, the art leads neither twin, so no stamp
    is given (the guess stays a joker for the tracker's hints)."""
    blend = cv2.addWeighted(poster("JK1"), 0.5, poster("JK2"), 0.5, 0)
    scores = art().scores(blend, ("JK1", "JK2"))
    assert abs(scores[0] - scores[1]) < 0.1
    (answer,) = identifier().identify([blend])
    assert answer.card_id is None
    assert answer.guess in ("JK1", "JK2")


def test_a_corner_crop_alone_names_no_manneken_pis() -> None:
    """A corner shows only the index the twins share."""
    crops = [index_crops(poster("JK2"))[0], index_crops(poster("7H"))[0]]
    answers = identifier().identify_index(crops)
    assert [a.card_id for a in answers] == [None, "7H"]
    assert answers[0].guess == "JK1"


@cache
def reader() -> PosterReader:
    deck = load_deck("affiche-belge")
    return PosterReader(Identifier("affiche-belge"), deck)


def refused(guess: str, confidence: float = 0.4) -> Identification:
    return Identification(None, confidence, None, 0.0, guess=guess)


@pytest.mark.parametrize("card_id", ["5S", "3H", "8D", "10C", "QH", "AS"])
def test_a_card_whose_index_is_unsure_is_named_by_its_poster_among_its_suit(card_id: str) -> None:
    """A blurred card the index model guesses the wrong rank of, but the right suit: its poster
    is its own (each card of the deck is one place)."""
    face = cv2.GaussianBlur(poster(card_id), (0, 0), 3)
    wrong_rank = next(c.id for c in load_deck("affiche-belge") if c.suit == card_id[-1] and c.id != card_id)
    assert reader().settle(refused(wrong_rank), face).card_id == card_id


def test_a_refusal_stays_where_the_art_is_not_the_guessed_suit() -> None:
    """The seven of spades' poster among the hearts matches none well: no heart is named."""
    answer = reader().settle(refused("7H"), poster("7S"))
    assert answer.card_id is None


def test_a_refusal_stays_where_the_guess_is_too_unsure() -> None:
    assert reader().settle(refused("6S", confidence=0.1), poster("5S")).card_id is None


def test_a_card_of_another_deck_is_not_named_by_a_poster() -> None:
    standard = load_deck("standard-52")["5S"]
    face = cv2.cvtColor(np.asarray(render_face(standard, width=FACE_SIZE[0])), cv2.COLOR_RGB2BGR)
    assert reader().settle(refused("6S"), face).card_id is None


def test_a_name_read_from_one_corner_gives_way_to_a_sure_poster() -> None:
    """One corner cut off or glared: the index misreads the rank, the poster is the card's own."""
    one_corner = Identification("10D", 0.86, None, 0.78, "10D", (True, False))
    assert reader().settle(one_corner, poster("JD")).card_id == "JD"


def test_a_name_read_from_both_corners_is_not_read_again() -> None:
    both = Identification("10D", 0.99, None, 0.98, "10D", (True, True))
    (answer,) = reader()._settled([both], lambda k: poster("JD"))
    assert answer == both
