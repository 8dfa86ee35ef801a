"""Fault injection, the slow cases: whole demos and commands run against broken state, a wrong
clock and hostile files, one line of measured result per case (the fast cases are
``tests/test_faults_*.py``).

    .venv/bin/python bench/bench_faults.py [--seconds 20] [--only NAME ...] [--json FILE]

Cases: ``garbage-queue``, ``zeroed-queue`` (a queue whose header is zeroed with stamps waiting in
it), ``read-only``, ``disk-full``, ``counters-1e999``, ``clock-back`` (two demos on one state, the
second with ``time.time`` a day back through a ``sitecustomize`` on ``PYTHONPATH``),
``png-20000`` and ``png-40000`` (``kiosk recognize`` under ``/usr/bin/time -v``),
``gallery-1gb`` (a gallery member inflating to 1 GB), ``escpos-tmp`` (processes that import the
printer, and the folders they leave in /tmp), ``config`` (``kiosk config check`` on values
that would break ``kiosk run``: fps 0, a NUL in the name, ...). Root makes the read-only and
full-disk cases real (a read-only bind mount, a small tmpfs); elsewhere read-only is a mode-555
folder and the full disk is skipped.

Measured 2026-12-06 (2 shared cores, 20 s demos): the lines of README's Reliability table.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.hostile import huge_png, inflating_gallery  # noqa: E402 - after the repository is on the path

PYTHON = sys.executable
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "GPIOZERO_PIN_FACTORY": "mock", "PYTHONPATH": str(REPO)}


def demo(state: Path, out: Path, seconds: float, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``kiosk demo`` on ``state``; its exit code, summary and storage lines."""
    started = time.monotonic()
    result = subprocess.run(
        [
            PYTHON,
            "-m",
            "kiosk",
            "demo",
            "--headless",
            "--seconds",
            str(seconds),
            "--out",
            str(out),
            "--state-dir",
            str(state),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**ENV, "KIOSK_STATE_DIR": str(state), **(env or {})},
        timeout=seconds + 300,
    )
    summary_path = out / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else {}
    return {
        "code": result.returncode,
        "summary": summary,
        "wall": time.monotonic() - started,
        "stderr": result.stderr,
        "stdout": result.stdout,
    }


def stamps_line(run: dict[str, Any]) -> str:
    s = run["summary"]
    refused = ", ".join(f"{k.rsplit('.', 1)[1]} {n}" for k, n in s.get("stamps_refused", {}).items()) or "none"
    return (
        f"exit {run['code']}; stamps requested {s.get('stamps_requested')}, printed {s.get('stamps_printed')}, "
        f"lost {s.get('stamps_lost')}, refused: {refused}; tracebacks {run['stderr'].count('Traceback')}"
    )


def storage_line(run: dict[str, Any]) -> str:
    storage = run["summary"].get("storage", {})
    notes = [*storage.get("failing", {}).values(), *storage.get("events", [])]
    return "; ".join(re.sub(r"/\S+/", "", n)[:140] for n in notes) or "no storage fault reported"


def case_garbage_queue(tmp: Path, seconds: float) -> str:
    state = tmp / "state"
    state.mkdir()
    (state / "stamps.sqlite3").write_bytes(os.urandom(64 * 1024))
    run = demo(state, tmp / "out", seconds)
    kept = len(list(state.glob("stamps.sqlite3.bad-*")))
    return f"{stamps_line(run)}; files set aside {kept}; summary: {storage_line(run)}"


def case_zeroed_queue(tmp: Path, seconds: float) -> str:
    """Stamps waiting in a queue whose header is then zeroed: the demo prints them all."""
    from kiosk.devices.queue import JobQueue
    from kiosk.devices.stamp import render_stamp, stamp_png

    state = tmp / "state"
    state.mkdir()
    waiting = ("3H", "KC", "7S")
    with JobQueue(state / "stamps.sqlite3") as q:
        for card in waiting:
            q.submit(card, stamp_png(render_stamp(card)))
    with open(state / "stamps.sqlite3", "r+b") as f:
        f.write(bytes(100))
    run = demo(state, tmp / "out", seconds)
    files = sorted(p.name.split("-", 1)[1].removesuffix(".png") for p in (tmp / "out" / "stamps").glob("*.png"))
    reprinted = sum(files.count(card) >= 1 for card in waiting)
    return f"{stamps_line(run)}; of the {len(waiting)} stamps waiting in the damaged file {reprinted} printed"


@contextlib.contextmanager
def read_only(state: Path) -> Iterator[str]:
    """``state`` made read-only: a read-only bind mount as root, else mode 555."""
    if os.geteuid() == 0 and shutil.which("mount"):
        subprocess.run(["mount", "--bind", str(state), str(state)], check=True)
        try:
            subprocess.run(["mount", "-o", "remount,ro,bind", str(state)], check=True)
            yield "read-only bind mount"
        finally:
            subprocess.run(["umount", str(state)], check=True)
    else:
        state.chmod(0o555)
        try:
            yield "mode 555"
        finally:
            state.chmod(0o755)


def case_read_only(tmp: Path, seconds: float) -> str:
    state = tmp / "state"
    state.mkdir()
    with read_only(state) as how:
        run = demo(state, tmp / "out", seconds)
    return f"({how}) {stamps_line(run)}; summary: {storage_line(run)}"


def case_disk_full(tmp: Path, seconds: float) -> str:
    if os.geteuid() != 0:
        return "skipped: needs root for a small tmpfs"
    state = tmp / "state"
    state.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(state)], check=True)
    try:
        with contextlib.suppress(OSError), open(state / "filler", "wb") as f:
            while True:
                f.write(bytes(4096))
                f.flush()
        run = demo(state, tmp / "out", seconds)
    finally:
        subprocess.run(["umount", str(state)], check=True)
    return f"(256 kB tmpfs, filled) {stamps_line(run)}; summary: {storage_line(run)}"


def case_counters_1e999(tmp: Path, seconds: float) -> str:
    state = tmp / "state"
    state.mkdir()
    (state / "counters.json").write_text('{"places": {"3H": 1e999}, "games": {}}')
    (state / "calibration.json").write_text("[" * 100_000 + "]" * 100_000)
    run = demo(state, tmp / "out", seconds)
    return f"(and calibration.json nested 100,000 deep) {stamps_line(run)}; summary: {storage_line(run)}"


SITE = """
import time
_wall = time.time
time.time = lambda: _wall() - 86400.0  # the wall clock a day back; monotonic time untouched
"""


def case_clock_back(tmp: Path, seconds: float) -> str:
    state = tmp / "state"
    state.mkdir()
    first = demo(state, tmp / "out1", seconds)
    site = tmp / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(textwrap.dedent(SITE))
    second = demo(state, tmp / "out2", seconds, env={"PYTHONPATH": f"{site}:{REPO}"})
    return f"first run: {stamps_line(first)} | second run, clock a day back: {stamps_line(second)}"


def time_v(argv: list[str], env: dict[str, str] | None = None) -> tuple[int, float, list[str], list[str]]:
    """``argv`` under /usr/bin/time -v: exit code, maximum resident memory (MB), stdout and
    stderr lines (time's own report left out)."""
    result = subprocess.run(
        ["/usr/bin/time", "-v", *argv],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**ENV, **(env or {})},
        timeout=600,
    )
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr)
    report = result.stderr.split("\tCommand being timed")[0].strip().splitlines()
    lines = [line for line in report if not line.startswith("Command exited with non-zero status")]
    return result.returncode, int(rss[1]) / 1024 if rss else float("nan"), result.stdout.splitlines(), lines


def case_png(tmp: Path, side: int) -> str:
    png = huge_png(tmp / f"{side}.png", side, side)
    card = tmp / "card.png"
    render = subprocess.run(
        [PYTHON, "-m", "kiosk", "render", "scene", "--deck", "standard-52", "--cards", "1", "-o", str(card)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=ENV,
    )
    argv = [PYTHON, "-m", "kiosk", "recognize", "--deck", "standard-52", str(png)]
    if render.returncode == 0:
        argv.append(str(card))
    code, rss, out, err = time_v(argv)
    rest = f"; the next image still read: {re.sub(r'.*/', '', out[0]) if out else 'nothing'}" if out else ""
    said = re.sub(r"/\S+/", "", err[0]) if err else ""
    return (
        f"{png.stat().st_size / 1024:.0f} kB file: exit {code}, {len(err)} line(s) on stderr ({said}), "
        f"max RSS {rss:.0f} MB{rest}"
    )


def case_gallery(tmp: Path, seconds: float) -> str:
    from kiosk.vision.gallery import gallery_path

    path = inflating_gallery(gallery_path("kakkerlakken-64", tmp / "state"), 1024)
    card = tmp / "card.png"
    subprocess.run(
        [PYTHON, "-m", "kiosk", "render", "scene", "--deck", "kakkerlakken-64", "--cards", "1", "-o", str(card)],
        capture_output=True,
        cwd=REPO,
        env=ENV,
    )
    code, rss, out, err = time_v(
        [PYTHON, "-m", "kiosk", "recognize", "--deck", "kakkerlakken-64", str(card)],
        env={"KIOSK_STATE_DIR": str(tmp / "state")},
    )
    warning = re.sub(r"/\S+/", "", next((e for e in err if "gallery" in e), "no warning"))[:160]
    return (
        f"{path.stat().st_size / 2**20:.1f} MB file inflating to 1 GB: exit {code}, max RSS {rss:.0f} MB, "
        f"{out[0] if out else 'no output'}; {warning}"
    )


def case_escpos_tmp(tmp: Path, seconds: float) -> str:
    scratch = tmp / "tmp"
    scratch.mkdir()
    code = "import kiosk.devices.printer, escpos.printer; escpos.printer.Dummy(profile='POS-5890')"
    runs = 20
    for _ in range(runs):
        subprocess.run([PYTHON, "-c", code], check=True, cwd=REPO, env={**ENV, "TMPDIR": str(scratch)})
    left = len(list(scratch.iterdir()))
    bare = tmp / "bare"
    bare.mkdir()
    for _ in range(runs):
        subprocess.run([PYTHON, "-c", "import escpos.printer"], check=True, env={**ENV, "TMPDIR": str(bare)})
    return (
        f"{runs} processes importing the printer leave {left} folder(s) in TMPDIR "
        f"(python-escpos imported alone: {len(list(bare.iterdir()))})"
    )


CONFIG_VALUES = [
    "[display]\nfps = 0",
    "[vision]\nconfirm_frames = 0",
    "[vision]\nconfirm_frames = -1",
    '[kiosk]\nname = "a\\u0000b"',
    "[display]\nwidth = 100000",
    "[printer]\nstrip_rows = 0",
    "[printer]\nretry_s = -1",
    '[kiosk]\nname = "' + "x" * 100_000 + '"',
    '[kiosk]\nadmin_pin = "１２３４"',
    "[lights]\npins = [99]",
    '[buttons]\nactions = ["jump"]',
]


def case_config(tmp: Path, seconds: float) -> str:
    refused = 0
    for n, text in enumerate(CONFIG_VALUES):
        path = tmp / f"{n}.toml"
        path.write_text(text + "\n", encoding="utf-8")
        result = subprocess.run(
            [PYTHON, "-m", "kiosk", "config", "check", "--file", str(path)],
            capture_output=True,
            text=True,
            cwd=REPO,
            env=ENV,
        )
        lines = result.stderr.strip().splitlines()
        key = text.split("]")[0][1:] + "." + text.split("\n")[1].split(" =")[0]
        refused += result.returncode == 1 and len(lines) == 1 and str(path) in lines[0] and key in lines[0]
    return f"{refused} of {len(CONFIG_VALUES)} bad values refused in one line naming file, key and range"


CASES: dict[str, Callable[[Path, float], str]] = {
    "garbage-queue": case_garbage_queue,
    "zeroed-queue": case_zeroed_queue,
    "read-only": case_read_only,
    "disk-full": case_disk_full,
    "counters-1e999": case_counters_1e999,
    "clock-back": case_clock_back,
    "png-20000": lambda tmp, s: case_png(tmp, 20_000),
    "png-40000": lambda tmp, s: case_png(tmp, 40_000),
    "gallery-1gb": case_gallery,
    "escpos-tmp": case_escpos_tmp,
    "config": case_config,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each demo (default 20)")
    parser.add_argument("--only", nargs="+", choices=list(CASES), default=list(CASES))
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args()
    results = {}
    for name in args.only:
        with tempfile.TemporaryDirectory(prefix=f"faults-{name}-") as tmp:
            started = time.monotonic()
            line = CASES[name](Path(tmp), args.seconds)
        results[name] = line
        print(f"{name:<15} {line}  [{time.monotonic() - started:.0f} s]", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
