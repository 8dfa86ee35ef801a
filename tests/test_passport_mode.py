"""Passport mode without a screen: table views in, places, surprises and stamp requests out."""

from __future__ import annotations

from kiosk.decks import load_deck
from kiosk.devices.queue import Admission
from kiosk.modes.passport import CardSeen, PassportMode, ShowPlace, Surprise
from kiosk.table import CardEvent, SeenCard, TableView

DECK = load_deck("affiche-belge")
CORNERS = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


def view(*events: tuple[str, str]) -> TableView:
    return TableView(
        frame_index=1,
        timestamp=0.0,
        events=tuple(CardEvent(kind, SeenCard(i, card, 0.99, CORNERS)) for i, (kind, card) in enumerate(events)),
    )


class Queue:
    """The stamp queue's answers, as ``kiosk.devices.service.StampPrinter`` gives them."""

    def __init__(self, refuse: str = "") -> None:
        self.refuse, self.asked = refuse, []

    def request(self, card_id: str, lang: str) -> Admission:
        self.asked.append((card_id, lang))
        return Admission(None, self.refuse) if self.refuse else Admission(len(self.asked))

    def job_state(self, job_id: int) -> str:
        return "waiting"

    def state(self) -> str:
        return "ready"


def test_a_place_is_shown_and_stamped_and_the_manneken_pis_opens_the_surprise() -> None:
    queue = Queue()
    mode = PassportMode(DECK, queue, stamps_allowed=True)  # type: ignore[arg-type]
    joker = next(c.id for c in DECK if c.kind == "joker")
    events = mode.on_view(view(("confirmed", "3H"), ("removed", "4H"), ("confirmed", joker)), "fr")
    assert events == [CardSeen("3H"), ShowPlace("3H", job=1), Surprise(joker)]
    assert queue.asked == [("3H", "fr")] and mode.requested == 1
    assert mode.stamp_status_key("", 1) == "app.stamp.printing"


def test_no_real_camera_means_no_stamp_and_a_reason_shown_and_counted() -> None:
    """A double never reaches a real box: without a camera the kiosk says so and prints nothing."""
    queue = Queue()
    mode = PassportMode(DECK, queue, stamps_allowed=False)  # type: ignore[arg-type]
    assert mode.on_view(view(("confirmed", "3H")), "nl") == [CardSeen("3H"), ShowPlace("3H", "app.stamp.no_camera")]
    assert queue.asked == [] and mode.refusals == {"app.stamp.no_camera": 1}
    assert mode.stamp_status_key("app.stamp.no_camera", None) == "app.stamp.no_camera"


def test_a_refusing_or_failing_queue_loses_the_request_visibly_not_the_kiosk() -> None:
    full = PassportMode(DECK, Queue(refuse="devices.stamp.cooldown"), stamps_allowed=True)  # type: ignore[arg-type]
    assert full.on_view(view(("confirmed", "3H")), "fr")[-1] == ShowPlace("3H", "devices.stamp.cooldown")

    class Broken(Queue):
        def request(self, card_id: str, lang: str) -> Admission:
            raise OSError("disk gone")

    broken = PassportMode(DECK, Broken(), stamps_allowed=True)  # type: ignore[arg-type]
    place = broken.on_view(view(("confirmed", "3H")), "fr")[-1]
    assert isinstance(place, ShowPlace) and place.refused and place.job is None
    assert broken.refusals[place.refused] == 1


def test_cards_of_another_deck_are_seen_but_show_no_place() -> None:
    mode = PassportMode(DECK, Queue(), stamps_allowed=True)  # type: ignore[arg-type]
    assert mode.on_view(view(("confirmed", "ZZ")), "fr") == [CardSeen("ZZ")]
