"""Card faces, region emblems and stamp previews as pygame surfaces, cached per card.

Everything here comes from the renderers (kiosk.render, kiosk.devices.stamp); a renderer that
fails leaves a blank space rather than a broken screen.
"""

from __future__ import annotations

import logging
from datetime import date
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


def stamp_preview(card_id: str, lang: str, name: str, width: int) -> pygame.Surface | None:
    """The stamp as it prints now: dated today, or undated while the clock cannot be trusted (the
    day is part of the cache key, so a preview follows midnight and a clock that becomes trusted)."""
    from kiosk.clock import trusted_today

    return _stamp_preview(card_id, lang, name, width, trusted_today())


@lru_cache(maxsize=64)
def _stamp_preview(card_id: str, lang: str, name: str, width: int, day: date | None) -> pygame.Surface | None:
    from kiosk.devices.stamp import render_stamp

    try:
        img = render_stamp(load_deck("affiche-belge")[card_id], day=day, lang=lang, kiosk_name=name)
        img = img.convert("RGB")
        height = int(img.height * width / img.width)
        return from_pil(img.resize((width, height), Image.Resampling.LANCZOS))
    except Exception:
        log.exception("cannot render the stamp of %s", card_id)
        return None
