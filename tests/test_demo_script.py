"""The demo's autopilot: its passport screenshots wait for the card they are named after."""

from types import SimpleNamespace

from kiosk.demo import PASSPORT_CARDS, Step, build_script


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
