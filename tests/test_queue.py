"""The durable stamp queue: flood limits, counters, and no job lost when the process is killed
at any step (stored, started, mid-print, printed, marked done)."""

from __future__ import annotations

import io
import os
import signal
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from escpos.printer import Dummy
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from kiosk.devices.printer import PrinterSettings, PrinterWorker, print_stamp
from kiosk.devices.queue import JobQueue


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_jobs_come_out_oldest_first_and_leave_when_done(tmp_path: Path) -> None:
    q = JobQueue(tmp_path / "q.sqlite3")
    a, b = q.submit("2H", b"png-a"), q.submit("3C", b"png-b")
    assert a.accepted and b.accepted and q.waiting() == 2
    job = q.next_job()
    assert job is not None and (job.id, job.card_id, job.image) == (a.job_id, "2H", b"png-a")
    q.begin(job.id)
    assert q.next_job().id == a.job_id  # type: ignore[union-attr]  # in flight is still waiting
    q.finish(job.id)
    assert q.next_job().id == b.job_id  # type: ignore[union-attr]
    counters = q.counters()
    assert (counters["submitted"], counters["printed"], counters["waiting"]) == (2, 1, 1)
    assert counters["reprinted"] == counters["discarded"] == counters["parked_now"] == 0
    assert not any(v for k, v in counters.items() if k.startswith("refused_"))


def test_jobs_and_counters_survive_reopening(tmp_path: Path) -> None:
    with JobQueue(tmp_path / "q.sqlite3") as q:
        q.submit("2H", b"a")
        q.begin(q.next_job().id)  # type: ignore[union-attr]
    with JobQueue(tmp_path / "q.sqlite3") as q:
        job = q.next_job()
        assert job is not None and job.attempts == 1
        q.begin(job.id)
        assert q.counters()["reprinted"] == 1


def test_the_same_card_is_refused_during_its_cooldown(tmp_path: Path) -> None:
    clock = Clock()
    q = JobQueue(tmp_path / "q.sqlite3", card_cooldown_s=30, clock=clock, monotonic=clock)
    assert q.submit("2H", b"a").accepted
    clock.now += 29
    refused = q.submit("2H", b"a")
    assert not refused.accepted and refused.reason == "devices.stamp.cooldown"
    assert q.submit("3H", b"b").accepted
    clock.now += 2
    assert q.submit("2H", b"a").accepted
    assert q.counters()["refused_cooldown"] == 1


def test_stamps_per_minute_are_limited(tmp_path: Path) -> None:
    clock = Clock()
    q = JobQueue(tmp_path / "q.sqlite3", max_per_minute=3, clock=clock, monotonic=clock)
    for card in ("2H", "3H", "4H"):
        assert q.submit(card, b"x").accepted
        clock.now += 10
    refused = q.submit("5H", b"x")
    assert refused.reason == "devices.stamp.rate"
    clock.now += 31  # the first stamp is now more than a minute old
    assert q.submit("5H", b"x").accepted
    assert q.counters()["refused_rate"] == 1


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["submit", "begin", "finish", "crash"]), max_size=20))
def test_no_submitted_job_is_lost_whatever_the_order_of_crashes(
    tmp_path_factory: pytest.TempPathFactory, ops: list[str]
) -> None:
    """Model: a crash anywhere loses nothing; a job prints twice only if a crash caught it
    in flight."""
    path = tmp_path_factory.mktemp("q") / "q.sqlite3"
    q = JobQueue(path)
    submitted, printed = [], []
    in_flight, interrupted = None, 0
    for op in ops + ["crash"]:  # the end of the list is a power cut too
        job = q.next_job()
        if op == "submit":
            submitted.append(q.submit(f"c{len(submitted)}", b"x").job_id)
        elif op == "begin" and job and in_flight is None:
            q.begin(job.id)
            printed.append(job.id)
            in_flight = job.id
        elif op == "finish" and in_flight is not None:
            q.finish(in_flight)
            in_flight = None
        elif op == "crash":
            interrupted += in_flight is not None
            in_flight = None
            q.close()
            q = JobQueue(path)
    while (job := q.next_job()) is not None:  # drain after the restart
        q.begin(job.id)
        printed.append(job.id)
        q.finish(job.id)
    assert q.counters()["reprinted"] == interrupted
    q.close()
    assert sorted(set(printed)) == submitted
    assert len(printed) - len(set(printed)) == interrupted


# --- Kill the printing process at every step --------------------------------------------------

ROWS, JOBS = 16, 2
SETTINGS = PrinterSettings(backend="file", strip_rows=ROWS, strip_pause_s=0.0, feed_lines=2)


class Fragile(JobQueue):
    """A queue whose process dies (SIGKILL: no cleanup, no flush, like a power cut) at one named
    step of one job."""

    def __init__(self, path: Path, step: str, victim: int) -> None:
        super().__init__(path)
        self.step, self.victim = step, victim

    def die_at(self, step: str, job_id: int) -> None:
        if (step, job_id) == (self.step, self.victim):
            os.kill(os.getpid(), signal.SIGKILL)

    def begin(self, job_id: int) -> None:
        self.die_at("before_begin", job_id)
        super().begin(job_id)
        self.die_at("after_begin", job_id)

    def finish(self, job_id: int) -> None:
        self.die_at("before_finish", job_id)
        super().finish(job_id)
        self.die_at("after_finish", job_id)


def victim(db: Path, paper: Path, step: str, job: int, late_image: bytes) -> None:
    """The printing process: a worker sending to a File printer until its queue kills it."""
    queue = Fragile(db, step, job)
    if step == "after_submit":
        queue.submit("late", late_image)
        queue.die_at(step, job)
    settings = replace(SETTINGS, file_path=str(paper))
    worker = PrinterWorker(
        settings,
        queue,
        on_progress=lambda j, done, total: queue.die_at("mid_print", j.id) if done == 1 else None,
    )
    while worker.step():
        pass


STEPS = ["before_begin", "after_begin", "mid_print", "before_finish", "after_finish"]


def stamp(n: int) -> Image.Image:
    """Job n's image: a bar at a different place, so each job's bytes are unique."""
    a = np.full((3 * ROWS, 384), 255, np.uint8)
    a[:, n * 40 : (n + 1) * 40] = 0
    return Image.fromarray(a).convert("1")


def job_bytes(img: Image.Image) -> bytes:
    dev = Dummy(profile="POS-5890")
    print_stamp(dev, img, SETTINGS)
    return dev.output


def png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def run_victim(tmp_path: Path, step: str, job: int, late_image: bytes = b"") -> bytes:
    """Fork (the child shares the imported modules, so this is quick), let the child die."""
    paper = tmp_path / "paper.bin"
    pid = os.fork()
    if pid == 0:  # the child never returns into pytest
        try:
            victim(tmp_path / "q.sqlite3", paper, step, job, late_image)
        finally:
            os._exit(3)  # not killed: the step was never reached
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    return paper.read_bytes() if paper.exists() else b""


def drain(path: Path) -> bytes:
    """Restart after the kill: a fresh worker prints whatever the queue still holds."""
    dev = Dummy(profile="POS-5890")
    with JobQueue(path) as q:
        worker = PrinterWorker(SETTINGS, q, connect=lambda: dev)
        while worker.step():
            pass
        assert q.waiting() == 0
    return dev.output


@pytest.mark.parametrize("victim", range(1, JOBS + 1))
@pytest.mark.parametrize("step", STEPS)
def test_killed_worker_loses_no_job_and_repeats_only_the_one_in_flight(tmp_path: Path, step: str, victim: int) -> None:
    images = [stamp(n) for n in range(JOBS)]
    with JobQueue(tmp_path / "q.sqlite3") as q:
        for n, img in enumerate(images):
            q.submit(f"card{n}", png(img))
    paper = run_victim(tmp_path, step, victim) + drain(tmp_path / "q.sqlite3")
    counts = [paper.count(job_bytes(img)) for img in images]
    # Killed after the whole stamp went out but before "done" was stored: that job (only)
    # comes out twice; a job killed mid-print is on paper half, then whole once.
    expected = [2 if (step == "before_finish" and n + 1 == victim) else 1 for n in range(JOBS)]
    assert counts == expected


def test_a_job_is_on_disk_as_soon_as_submit_returns(tmp_path: Path) -> None:
    JobQueue(tmp_path / "q.sqlite3").close()
    img = stamp(5)
    run_victim(tmp_path, "after_submit", 0, late_image=png(img))
    assert drain(tmp_path / "q.sqlite3").count(job_bytes(img)) == 1


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["2H", "3C", "KS"]), st.floats(0, 40, allow_nan=False)),
        max_size=25,
    ),
    st.integers(1, 5),
    st.sampled_from([0.0, 30.0]),
)
def test_accepted_stamps_respect_both_flood_limits(
    requests: list[tuple[str, float]], per_minute: int, cooldown: float
) -> None:
    clock = Clock()
    q = JobQueue(Path(":memory:"), card_cooldown_s=cooldown, max_per_minute=per_minute, clock=clock, monotonic=clock)
    accepted: list[tuple[str, float]] = []
    for card, gap in requests:
        clock.now += gap
        if q.submit(card, b"x").accepted:
            accepted.append((card, clock.now))
    for card, t in accepted:
        in_window = [u for _, u in accepted if t - 60 < u <= t]
        assert len(in_window) <= per_minute
        same = [u for c, u in accepted if c == card and u < t]
        assert all(t - u >= cooldown for u in same)
    refused = q.counters()["refused_rate"] + q.counters()["refused_cooldown"]
    assert len(accepted) + refused == len(requests)
    q.close()
