"""The operator screen's line on the camera: how wide the cards are in its picture, and what to
do when they are too small to read every suit sign."""

from __future__ import annotations

import pytest

from kiosk.i18n import LANGUAGES, translate
from kiosk.ui.screens.operator import card_width_line
from kiosk.vision.identify import SMALL_CARD_PX


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_operator_sees_how_wide_the_cards_are_and_when_that_is_too_small(lang: str) -> None:
    def t(key: str, **params: object) -> str:
        return translate(key, lang, **params)

    assert card_width_line(t, None) is None  # no card on the table: nothing to say
    wide = card_width_line(t, 145.4)
    small = card_width_line(t, 72.0)
    assert wide is not None and "145" in wide and "CAMERA.md" not in wide
    assert small is not None and "72" in small and str(round(SMALL_CARD_PX)) in small and "CAMERA.md" in small
