"""The how-to-play pictures as pygame surfaces, drawn in a worker thread and cached: opening the
screen or turning a page never stalls the 30 fps loop; a picture not drawn yet is simply absent
for a frame or two."""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from functools import lru_cache

import pygame
from PIL import Image

from kiosk.decks import load_deck
from kiosk.howto import GUIDES
from kiosk.modes.games import game_info
from kiosk.render.howto import render_picture
from kiosk.ui.images import from_pil

log = logging.getLogger(__name__)
_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="howto-art")


def draw_picture(game_id: str, page: int, size: tuple[int, int]) -> Image.Image:
    """Page ``page`` of the game's guide (0: its setup) drawn with its deck on its mat layout."""
    guide, game = GUIDES[game_id], game_info(game_id)
    return render_picture(guide.picture(page), load_deck(game.deck_id), game.layout(guide.players), size)


@lru_cache(maxsize=48)
def _job(game_id: str, page: int, size: tuple[int, int]) -> Future[Image.Image]:
    def report(done: Future[Image.Image]) -> None:
        if done.exception() is not None:
            log.error("cannot draw how-to picture %d of %s", page, game_id, exc_info=done.exception())

    job = _WORKER.submit(draw_picture, game_id, page, size)
    job.add_done_callback(report)
    return job


@lru_cache(maxsize=16)
def _surface(game_id: str, page: int, size: tuple[int, int]) -> pygame.Surface:
    return from_pil(_job(game_id, page, size).result())


def prepare(game_id: str, page: int, size: tuple[int, int]) -> None:
    """Start drawing a picture the screen will soon show (the next page), if the guide has it."""
    if 0 <= page < GUIDES[game_id].pages:
        _job(game_id, page, size)


def picture(game_id: str, page: int, size: tuple[int, int], wait: float = 0.0) -> pygame.Surface | None:
    """The picture if it is drawn (waiting up to ``wait`` seconds for it), else None; a picture
    that failed stays None (logged once)."""
    job = _job(game_id, page, size)
    try:
        if job.exception(timeout=wait) is not None:
            return None
    except FutureTimeout:
        return None
    return _surface(game_id, page, size)
