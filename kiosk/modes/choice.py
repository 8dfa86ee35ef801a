"""Which mode the table's cards go to: the passport on its own screens in passport mode; the game
being refereed otherwise (its screen forwards them to its :class:`~kiosk.modes.referee.RefereeMode`)."""

from __future__ import annotations

#: The screens of passport mode's loop: the attract screen and a place shown.
PASSPORT_SCREENS = frozenset({"attract", "passport"})


def cards_go_to_passport(kiosk_mode: str, screen: str) -> bool:
    """Whether a confirmed card asks for a place and its stamp (else the screen gets the view)."""
    return kiosk_mode == "passport" and screen in PASSPORT_SCREENS
