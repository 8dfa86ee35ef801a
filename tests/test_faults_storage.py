"""Storage faults: a stamp queue that is garbage, zeroed, truncated, read-only or on a full disk,
state files holding 1e999 or nested 100,000 deep, and saves that fail. The kiosk runs degraded,
sets a damaged file aside (never deletes it), keeps what still reads, and says so once."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from escpos.printer import Dummy

from kiosk.counters import Counters
from kiosk.devices.printer import PrinterSettings
from kiosk.devices.queue import UNAVAILABLE, JobQueue, open_queue, salvage
from kiosk.devices.service import StampPrinter
from kiosk.devices.state import FAULTS, json_depth, load_json, save_file
from kiosk.vision.calibration import Calibration, from_touches
from tests.test_printer_service import wait_for

REPO = Path(__file__).resolve().parents[1]
SETTINGS = PrinterSettings(backend="dummy", strip_pause_s=0.0, retry_s=0.05)


def _queue_with(path: Path, n: int, image_bytes: int = 3000) -> list[str]:
    """A queue file of ``n`` waiting stamps (distinct images), closed; their card ids."""
    with JobQueue(path) as q:
        for i in range(n):
            q.submit(f"c{i}", os.urandom(image_bytes))
    return [f"c{i}" for i in range(n)]


def _aside(path: Path) -> list[Path]:
    """The copies of ``path`` set aside (their journals, moved with them, left out)."""
    return sorted(p for p in path.parent.glob(path.name + ".bad-*") if not p.name.endswith(("-wal", "-shm")))


def test_a_garbage_queue_is_set_aside_and_a_fresh_one_started(tmp_path: Path) -> None:
    path = tmp_path / "stamps.sqlite3"
    garbage = os.urandom(20_000)
    path.write_bytes(garbage)
    with open_queue(path) as q:
        assert q.submit("3H", b"png").accepted and q.waiting() == 1
    (aside,) = _aside(path)
    assert aside.read_bytes() == garbage  # kept as it was, for a technician
    assert any("set aside" in e and aside.name in e for e in FAULTS.events())


def test_a_zeroed_header_loses_no_waiting_stamp(tmp_path: Path) -> None:
    path = tmp_path / "stamps.sqlite3"
    cards = _queue_with(path, 6)
    data = bytearray(path.read_bytes())
    data[:100] = bytes(100)
    path.write_bytes(bytes(data))
    with open_queue(path) as q:
        assert [job.card_id for job in q.jobs() if job.state == "waiting"] == cards
        job = q.next_job()
        assert job is not None and len(job.image) == 3000
    assert len(_aside(path)) == 1


@pytest.mark.parametrize("kept", [0.5, 0.8, 0.95])
def test_a_truncated_queue_keeps_the_stamps_that_still_read(tmp_path: Path, kept: float) -> None:
    path = tmp_path / "stamps.sqlite3"
    cards = _queue_with(path, 40)
    with open(path, "r+b") as f:
        f.truncate(int(path.stat().st_size * kept))
    with open_queue(path) as q:
        recovered = [job.card_id for job in q.jobs() if job.state == "waiting"]
    assert recovered and set(recovered) <= set(cards)
    assert len(recovered) >= int(len(cards) * (kept - 0.35))  # pages lost at the end, not everything
    assert len(_aside(path)) == 1


def test_salvage_only_reads_the_damaged_file(tmp_path: Path) -> None:
    path = tmp_path / "damaged.sqlite3"
    _queue_with(path, 3)
    data = bytearray(path.read_bytes())
    data[:100] = bytes(100)
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    jobs, counters = salvage(path)
    assert len(jobs) == 3 and counters["submitted"] == 3
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == [path.name]


@pytest.fixture
def readonly_dir() -> Iterator[Path]:
    """A state directory the kiosk may read but not write (root ignores the mode bits: the
    child process below drops to nobody for it)."""
    top = Path(tempfile.mkdtemp(prefix="kiosk-ro-"))
    top.chmod(0o755)
    state = top / "state"
    state.mkdir()
    _queue_with(state / "stamps.sqlite3", 2)
    (state / "stamps.sqlite3").chmod(0o644)
    state.chmod(0o555)
    yield state
    state.chmod(0o755)
    shutil.rmtree(top)


def _child(code: str, *, nobody: bool = False, max_file_bytes: int | None = None) -> dict:  # type: ignore[type-arg]
    """Run ``code`` (which prints one JSON line) in a fresh interpreter; once it has imported what
    it needs (the line ``# imported``) it goes on as the unprivileged user where we are root
    (``nobody``: root ignores the mode bits), or with a limit on file size (a full disk: writes
    past it fail with EFBIG, as they fail with ENOSPC on a full card)."""
    after = ["import os, resource, signal"]
    if max_file_bytes is not None:
        after += [
            "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)",
            f"resource.setrlimit(resource.RLIMIT_FSIZE, ({max_file_bytes}, "
            "resource.getrlimit(resource.RLIMIT_FSIZE)[1]))",
        ]
    if nobody:
        after += ["if os.geteuid() == 0:", "    os.setgid(65534)", "    os.setuid(65534)"]
    source = textwrap.dedent(code).replace("# imported\n", "\n".join(after) + "\n")
    result = subprocess.run(
        [sys.executable, "-c", source],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


_DEGRADED = """
    import json
    from pathlib import Path
    from kiosk.counters import Counters
    from kiosk.devices.printer import PrinterSettings
    from kiosk.devices.service import StampPrinter
    from kiosk.devices.state import FAULTS
    from kiosk.vision.calibration import identity
    # imported
    state = Path({state!r})
    printer = StampPrinter(PrinterSettings(backend="dummy", strip_pause_s=0.0), kiosk_name="K",
                           card_cooldown_s=0.0, queue_path=state / "stamps.sqlite3")
    answers = [printer.request(card, "fr") for card in ("3H", "4H")]
    counters = Counters(state / "counters.json")
    counters.stamp("3H"); counters.stamp("4H")
    saved = identity((640, 480)).save(state / "calibration.json")
    print(json.dumps({{"state": printer.state(), "reasons": [a.reason for a in answers],
                      "counted": printer.counters()["refused_unavailable"], "pending": printer.pending(),
                      "stamps": counters.summary()["stamps"], "saved": saved, "failing": FAULTS.current()}}))
    printer.close()
"""


def test_a_read_only_state_directory_runs_degraded(readonly_dir: Path) -> None:
    """No traceback: the stamps are unavailable (each refusal counted), the counts stay in
    memory, the calibration is not saved, and each file's fault is reported."""
    got = _child(_DEGRADED.format(state=str(readonly_dir)), nobody=True)
    assert got["state"] == "unavailable" and got["pending"] == 0
    assert got["reasons"] == [UNAVAILABLE, UNAVAILABLE] and got["counted"] == 2
    assert got["stamps"] == 2 and got["saved"] is False
    assert set(got["failing"]) == {"stamps.sqlite3", "counters.json", "calibration.json"}
    assert "stamps unavailable" in got["failing"]["stamps.sqlite3"]


def test_a_full_disk_at_start_runs_degraded(tmp_path: Path) -> None:
    got = _child(_DEGRADED.format(state=str(tmp_path)), max_file_bytes=0)
    assert got["state"] == "unavailable" and got["reasons"] == [UNAVAILABLE, UNAVAILABLE]
    assert got["stamps"] == 2 and got["saved"] is False


def test_a_disk_filling_up_refuses_stamps_as_not_stored(tmp_path: Path) -> None:
    """The queue opened, then the disk filled: a stamp that cannot be stored is refused with its
    own reason and counted, never shown as printed."""
    code = f"""
        import json, os, resource, signal
        from pathlib import Path
        from kiosk.devices.queue import JobQueue
        q = JobQueue(Path({str(tmp_path / "q.sqlite3")!r}))
        first = q.submit("3H", b"x")
        size = os.path.getsize({str(tmp_path / "q.sqlite3-wal")!r})
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
        full = q.submit("4H", os.urandom(200_000))
        print(json.dumps({{"first": first.accepted, "full": full.reason,
                          "counters": q.counters(), "waiting": q.waiting()}}))
    """
    got = _child(code)
    assert got["first"] is True and got["full"] == "devices.stamp.storage"
    assert got["counters"]["refused_storage"] == 1 and got["waiting"] == 1


def test_an_unavailable_queue_is_tried_again_later(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A directory in the queue file's place cannot be opened; once it is gone (a technician
    cleaned up), the next request after REOPEN_S opens the queue and prints."""
    import kiosk.devices.service as service

    path = tmp_path / "stamps.sqlite3"
    path.mkdir()
    printer = StampPrinter(
        SETTINGS, kiosk_name="K", card_cooldown_s=0.0, queue_path=path, connect=lambda: Dummy(profile="POS-5890")
    )
    try:
        assert printer.state() == "unavailable"
        assert printer.request("3H", "fr").reason == UNAVAILABLE
        path.rmdir()
        monkeypatch.setattr(service, "REOPEN_S", 0.0)
        assert printer.request("3H", "fr").accepted and printer.state() != "unavailable"
        assert printer.counters()["refused_unavailable"] == 1
    finally:
        printer.close()


@pytest.mark.parametrize(
    "text",
    [
        '{"places": {"3H": 1e999}}',
        '{"places": {"3H": NaN}}',
        '{"places": {"3H": -4}}',
        '{"places": {"3H": true}}',
        '{"places": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"places": {"3H": ' + "9" * 5000 + "}}",
        "\x00\x01garbage",
        '["not", "an", "object"]',
    ],
)
def test_a_bad_counters_file_is_set_aside_and_counting_starts_again(tmp_path: Path, text: str) -> None:
    path = tmp_path / "counters.json"
    path.write_text(text)
    counters = Counters(path)
    assert counters.summary()["stamps"] == 0
    (aside,) = _aside(path)
    assert aside.read_text() == text and not path.exists()
    counters.stamp("3H")
    assert Counters(path).summary()["places"] == {"3H": 1}


def test_an_oversized_state_file_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "counters.json"
    path.write_text('{"places": {}, "pad": "' + "x" * (2 << 20) + '"}')
    assert load_json(path, lambda data: data) is None and len(_aside(path)) == 1


@pytest.mark.parametrize(
    "text",
    [
        '{"homography": [[1e999, 0, 0], [0, 1, 0], [0, 0, 1]], "frame_size": [640, 480], "method": "touch"}',
        "[" * 100_000 + "]" * 100_000,
        '{"homography": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "frame_size": [1e300, 5], "method": "touch"}',
    ],
)
def test_a_bad_calibration_file_is_set_aside(tmp_path: Path, text: str) -> None:
    path = tmp_path / "calibration.json"
    path.write_text(text)
    assert Calibration.load(path) is None
    assert len(_aside(path)) == 1


def test_json_depth_skips_brackets_inside_strings() -> None:
    assert json_depth('{"a": "[[[[", "b": [[1]]}') == 3
    assert json_depth('"\\"[["') == 0


def test_a_failed_save_is_reported_once_and_clears_when_it_works(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every write of state is caught: a file standing where the folder should be makes every
    save fail; the warning is logged once, not once per save, and goes when a save works."""
    blocker = tmp_path / "state"
    blocker.write_text("a file, not a folder")
    path = blocker / "counters.json"
    counters = Counters(path)
    for _ in range(5):
        counters.stamp("3H")  # never raises
    cal = from_touches([(0, 0), (10, 0), (10, 10), (0, 10)], (10, 10))
    assert cal.save(blocker / "calibration.json") is False
    warnings = [r for r in caplog.records if r.getMessage().startswith("counters.json: not saved")]
    assert len(warnings) == 1 and "counters.json" in FAULTS.current()
    blocker.unlink()
    assert save_file(path, b"{}") and "counters.json" not in FAULTS.current()


def test_a_queue_from_before_the_parking_columns_opens_as_it_is(tmp_path: Path) -> None:
    """A queue file written before jobs could be parked gains the columns in place."""
    import sqlite3

    path = tmp_path / "stamps.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, card_id TEXT NOT NULL, "
        "created REAL NOT NULL, image BLOB, attempts INTEGER NOT NULL DEFAULT 0, done REAL);"
        "CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);"
        "INSERT INTO jobs (card_id, created, image) VALUES ('3H', 1.0, x'00');"
        "INSERT INTO counters VALUES ('submitted', 1);"
    )
    db.commit()
    db.close()
    with open_queue(path) as q:
        assert q.waiting() == 1 and q.counters()["submitted"] == 1 and not _aside(path)


def test_the_stamp_printer_prints_recovered_stamps(tmp_path: Path) -> None:
    """After a zeroed header the stamps still waiting in the old file print from the new one."""
    from PIL import Image

    from kiosk.devices.stamp import stamp_png

    path = tmp_path / "stamps.sqlite3"
    with JobQueue(path) as q:
        for card in ("3H", "4H"):
            q.submit(card, stamp_png(Image.new("1", (384, 48), 1)))
    data = bytearray(path.read_bytes())
    data[:100] = bytes(100)
    path.write_bytes(bytes(data))
    printed: list[str] = []
    printer = StampPrinter(
        replace(SETTINGS),
        kiosk_name="K",
        card_cooldown_s=0.0,
        queue_path=path,
        connect=lambda: Dummy(profile="POS-5890"),
        on_printed=lambda job: printed.append(job.card_id),
    )
    try:
        assert wait_for(lambda: len(printed) == 2)
        assert printed == ["3H", "4H"]
    finally:
        printer.close()


def test_doctor_checks_the_queues_integrity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk.doctor import CHECKS, FAIL, OK, WARN, run_checks

    monkeypatch.setenv("KIOSK_STATE_DIR", str(tmp_path))
    monkeypatch.setenv("KIOSK_CONFIG", str(tmp_path / "absent.toml"))

    def verdict() -> tuple[str, str]:
        result = run_checks({"stamp queue": CHECKS["stamp queue"]})[-1]
        return result.status, result.detail

    path = tmp_path / "stamps.sqlite3"
    with JobQueue(path) as q:
        q.submit("3H", b"x")
        q.fail(q.submit("4H", b"y").job_id, "boom", park_after=1)  # type: ignore[arg-type]
    assert verdict() == (WARN, f"{path}: 1 parked stamp(s) that failed to print (`kiosk queue list`), 1 waiting")
    with JobQueue(path) as q:
        q.clear()
    assert verdict()[0] == OK
    data = bytearray(path.read_bytes())
    data[:100] = bytes(100)
    path.write_bytes(bytes(data))
    status, detail = verdict()
    assert status == FAIL and "damaged" in detail and path.read_bytes() == bytes(data)  # only read
