"""The demo's autopilot: its passport screenshots wait for the card they are named after."""

from types import SimpleNamespace

from kiosk.demo import PASSPORT_CARDS, Step, _which_shown, build_script
from kiosk.render.timeline import FPS


def _app(screen: str, card_id: str | None = None) -> SimpleNamespace:
    card = SimpleNamespace(id=card_id) if card_id else None
    return SimpleNamespace(screen=SimpleNamespace(name=screen, card=card))


def test_a_step_waits_for_ready_within_its_patience() -> None:
    step = Step(2.0, lambda app: None, "shot", ready=lambda app: app.screen.name == "passport", patience=1.0)
    attract = _app("attract")
    assert not step.due(attract, 1.9)  # not yet its time
    assert not step.due(attract, 2.5)  # its time, but the screen is not there yet
    assert step.due(_app("passport", "3H"), 2.5)
    assert step.due(attract, 3.0)  # patience spent: the shot is taken anyway


def test_a_plain_step_is_due_at_its_time() -> None:
    step = Step(2.0, lambda app: None, "shot")
    assert not step.due(_app("attract"), 1.99)
    assert step.due(_app("attract"), 2.0)


def test_passport_shots_wait_for_their_own_card() -> None:
    shots = [s for s in build_script(60).steps if s.shot and s.shot.startswith("passport-")]
    assert len(shots) == 5
    for step, card_id in zip(shots, PASSPORT_CARDS, strict=False):
        assert step.shot.startswith(f"passport-{card_id}-")
        assert step.ready is not None
        assert not step.ready(_app("passport", "KD" if card_id != "KD" else "AD"))  # the card before
        assert step.ready(_app("passport", card_id))


def test_a_confirmation_is_matched_to_the_card_shown_then() -> None:
    """The summary counts cards shown and confirmed: a card confirmed again as the looping film
    shows it again is one card (``kiosk demo --seconds 40`` said 6 shown, 7 confirmed), and a
    confirmation of no card in view at that moment is a false one."""
    shown = [("3H", 100, 200), ("3C", 300, 400), ("3H", 500, 600)]
    assert _which_shown("3H", 150, shown) == 0
    assert _which_shown("3H", 150, shown) == _which_shown("3H", 190, shown)  # the loop's frame numbers
    assert _which_shown("3H", 550, shown) == 2  # shown twice by the script: two cards
    assert _which_shown("3H", 100 - FPS // 2, shown) == 0 and _which_shown("3H", 200 + FPS, shown) == 0
    assert _which_shown("3H", 350, shown) is None  # the 3C lay there
    assert _which_shown("3H", 200 + FPS + 1, shown) is None


def test_the_attract_shot_goes_to_the_attract_screen_first() -> None:
    """The demo's ``NN-attract-fr.png`` showed the passport screen of the card before it."""
    steps = [s for s in build_script(60).steps if s.shot and s.shot.startswith("attract")]
    assert steps
    for step in steps:
        went: list[str] = []
        app = SimpleNamespace(set_language=lambda lang: None, goto=went.append)
        step.action(app)  # type: ignore[arg-type]
        assert went == ["attract"], step.shot
