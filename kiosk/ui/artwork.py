"""Card faces, region emblems and stamp previews as pygame surfaces, cached per card.

Everything here comes from the renderers (kiosk.render, kiosk.devices.stamp); a renderer that
fails leaves a blank space rather than a broken screen.
"""

from __future__ import annotations

import logging
from functools import lru_cache

import pygame
from PIL import Image

from kiosk.decks import load_deck
from kiosk.ui.images import from_pil

log = logging.getLogger(__name__)


@lru_cache(maxsize=128)
def card_face(deck_id: str, card_id: str, width: int) -> pygame.Surface | None:
    from kiosk.render.faces import render_face

    try:
        return from_pil(render_face(load_deck(deck_id)[card_id], width=width))
    except Exception:  # a missing face must not take the screen down
        log.exception("cannot render the face of %s/%s", deck_id, card_id)
        return None


@lru_cache(maxsize=16)
def emblem(region: str, size: int) -> pygame.Surface | None:
    from kiosk.render.emblems import draw_emblem

    try:
        img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        draw_emblem(img, region, (0, 0, size, size))
        return from_pil(img)
    except Exception:
        log.exception("cannot draw the %s emblem", region)
        return None


def stamp_surface(image: Image.Image | None) -> pygame.Surface | None:
    """A stamp preview (``kiosk.modes.previews``) as a surface, converted once per picture."""
    if image is None:
        return None
    key = id(image)
    if key not in _stamp_surfaces:
        _stamp_surfaces[key] = (image, from_pil(image))  # the image is kept so its id stays its own
        while len(_stamp_surfaces) > 16:
            _stamp_surfaces.pop(next(iter(_stamp_surfaces)))
    return _stamp_surfaces[key][1]


_stamp_surfaces: dict[int, tuple[Image.Image, pygame.Surface]] = {}
