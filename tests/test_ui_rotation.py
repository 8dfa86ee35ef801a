"""A turned panel (``[display] rotate``, Touch Display 2 mounted landscape): the upright picture is
turned onto it, and a tap on the panel lands on the pixel of the picture shown under it."""

from __future__ import annotations

import pygame
from hypothesis import given
from hypothesis import strategies as st

from kiosk.ui.rotation import ROTATIONS, onto_panel, panel_size, to_picture

RED = (255, 0, 0)


@given(st.sampled_from(ROTATIONS), st.integers(1, 9), st.integers(1, 9), st.data())
def test_a_tap_on_the_panel_lands_on_the_pixel_shown_there(rotate: int, w: int, h: int, data: st.DataObject) -> None:
    x, y = data.draw(st.integers(0, w - 1)), data.draw(st.integers(0, h - 1))
    picture = pygame.Surface((w, h))
    picture.fill((0, 0, 0))
    picture.set_at((x, y), RED)
    panel = onto_panel(picture, rotate)
    assert panel.get_size() == panel_size((w, h), rotate)
    ((u, v),) = [
        (u, v) for u in range(panel.get_width()) for v in range(panel.get_height()) if panel.get_at((u, v))[:3] == RED
    ]
    assert to_picture((u, v), panel.get_size(), rotate) == (x, y)


def test_the_picture_turns_clockwise() -> None:
    """rotate = 90: the picture's top edge runs down the panel's right edge (the panel's own
    top-left shows the picture's bottom-left)."""
    picture = pygame.Surface((4, 2))
    picture.fill((0, 0, 0))
    picture.set_at((0, 0), RED)
    panel = onto_panel(picture, 90)
    assert panel.get_size() == (2, 4) and panel.get_at((1, 0))[:3] == RED


def test_a_tap_off_the_panel_is_clamped_to_it() -> None:
    assert to_picture((-5, 1500), (720, 1280), 90) == (1279, 719)
