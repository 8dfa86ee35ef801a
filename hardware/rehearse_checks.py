"""The checks `hardware/rehearse.sh` runs inside its arm64 root, one subcommand each.

Each prints what it saw and exits 0 when the check holds, 1 when it does not. Standard library
only: it runs under the root's python3 and under the kiosk's venv python alike.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

#: Where Debian's python3-* packages put their modules.
APT_SITE = "/usr/lib/python3/dist-packages/"


def doctor_entries(report: object) -> list[dict[str, object]]:
    """The entries of `kiosk doctor --json`: a list of checks, or an object holding one under ``checks``."""
    if isinstance(report, dict):
        report = report.get("checks")
    if not isinstance(report, list) or not all(isinstance(e, dict) and "name" in e for e in report):
        raise ValueError("doctor --json: expected a list of {name, status, detail} objects")
    return report


def _entry(entries: list[dict[str, object]], pattern: str) -> dict[str, object] | None:
    return next((e for e in entries if re.search(pattern, str(e["name"]), re.I)), None)


def _fact(entry: dict[str, object], name: str) -> object:
    """A doctor entry's machine-readable fact (under ``facts``), None where it has none."""
    facts = entry.get("facts")
    return facts.get(name) if isinstance(facts, dict) else None


def sdl_drivers_named(entry: dict[str, object]) -> list[str]:
    """SDL's video drivers as a doctor entry lists them, in lower case: its ``drivers`` fact, or the
    names after "drivers:" in its detail."""
    listed = _fact(entry, "drivers")
    if isinstance(listed, list):
        return [str(d).lower() for d in listed]
    found = re.search(r"drivers?\b[^:;]*:\s*([\w\- ,]+)", str(entry.get("detail", "")), re.I)
    return [d.lower() for d in re.findall(r"[\w\-]+", found.group(1))] if found else []


def check_doctor(report: object, what: str | None) -> tuple[bool, str]:
    """One item of the doctor's report: ``models`` found, ``sdl`` has kmsdrm, ``numpy`` is apt's;
    with no item, every entry (holds when the report is well formed)."""
    entries = doctor_entries(report)
    if what is None:
        return True, "\n".join(f"{e.get('status')}: {e['name']}: {e.get('detail', '')}" for e in entries)
    if what == "models":
        entry = _entry(entries, r"model")
        ok = entry is not None and entry.get("status") == "ok"
    elif what == "sdl":
        entry = _entry(entries, r"sdl|video")
        ok = entry is not None and "kmsdrm" in sdl_drivers_named(entry)
    elif what == "numpy":
        entry = _entry(entries, r"numpy")
        origin = (_fact(entry, "origin") or entry.get("detail", "")) if entry else ""
        from_apt = bool(re.search(r"\bapt\b|dist-packages", str(origin)))
        ok = entry is not None and entry.get("status") == "ok" and from_apt
    else:
        raise ValueError(f"unknown doctor item {what!r} (models, sdl, numpy)")
    return ok, json.dumps(entry) if entry else f"no {what} entry among: {', '.join(str(e['name']) for e in entries)}"


def sdl_video_drivers() -> tuple[str, list[str]]:
    """The SDL library pygame loaded and the video drivers compiled into it (no display needed)."""
    import pygame  # noqa: F401  (loads its SDL)

    maps = Path("/proc/self/maps").read_text().split()
    libs = sorted({p for p in maps if p.startswith("/") and re.match(r"libSDL2[-.]", os.path.basename(p))})
    if not libs:
        raise RuntimeError("pygame is imported but no libSDL2 is mapped")
    lib = ctypes.CDLL(libs[0])
    lib.SDL_GetVideoDriver.restype = ctypes.c_char_p
    return libs[0], [lib.SDL_GetVideoDriver(i).decode() for i in range(lib.SDL_GetNumVideoDrivers())]


def recognized_all(truth: dict[str, object], reading: dict[str, object]) -> tuple[bool, str]:
    """Every card of the rendered scene named, and nothing else (``kiosk recognize --json``'s object)."""
    wanted = sorted(str(c["id"]) for c in truth["cards"])  # type: ignore[attr-defined]
    named = sorted(str(c["id"]) for c in reading["cards"])  # type: ignore[attr-defined]
    return named == wanted, f"scene {' '.join(wanted)}; named {' '.join(named) or 'nothing'}"


def demo_held(summary: dict[str, object], min_confirmed: int = 1) -> tuple[bool, str]:
    """A demo run whose vision read frames and confirmed at least ``min_confirmed`` cards, with no
    error, no false card and no stamp lost."""
    keys = (
        "frames",
        "vision_frames",
        "errors",
        "cards_shown",
        "cards_confirmed",
        "false_confirmations",
        "stamps_requested",
        "stamps_printed",
        "stamps_lost",
    )
    counts = {k: int(summary[k]) for k in keys}  # type: ignore[call-overload]
    ok = (
        counts["errors"] == counts["false_confirmations"] == counts["stamps_lost"] == 0
        and counts["vision_frames"] >= 1
        and counts["cards_confirmed"] >= min_confirmed
    )
    return ok, ", ".join(f"{k} {v}" for k, v in counts.items())


def queued_stamps(db: Path) -> int:
    """How many stamps the kiosk's queue took: its jobs, printed or not, or its ``submitted``
    counter if that is more (0 when there is no queue)."""
    if not db.exists():
        return 0
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        jobs = conn.execute("SELECT COUNT(*) FROM jobs").fetchone()[0] if "jobs" in tables else 0
        submitted = 0
        if "counters" in tables:
            row = conn.execute("SELECT value FROM counters WHERE name = 'submitted'").fetchone()
            submitted = row[0] if row else 0
    return max(int(jobs), int(submitted))


def run_as_service(
    cmd: Sequence[str],
    seconds: float,
    start_limit: float,
    log: Path,
    notify: Path = Path("/run/kiosk-rehearsal.notify"),
) -> tuple[bool, str]:
    """Run ``cmd`` as systemd would with ``Type=notify``: wait for READY=1 on the ``notify`` socket
    (at most ``start_limit`` seconds), let it run ``seconds`` more, then stop it with SIGTERM. Holds
    when it became ready and was still running; its output goes to ``log``."""
    notify.unlink(missing_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    notify.chmod(0o666)  # the service's user sends to it
    sock.settimeout(0.5)
    start = time.monotonic()
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env={**os.environ, "NOTIFY_SOCKET": str(notify)}, stdout=out, stderr=out)
        ready: float | None = None
        while proc.poll() is None:
            now = time.monotonic()
            if (ready is None and now - start > start_limit) or (ready is not None and now - ready > seconds):
                break
            try:
                message = sock.recv(4096).decode(errors="replace").split("\n")
            except TimeoutError:
                continue
            if ready is None and "READY=1" in message:
                ready = time.monotonic()
        alive = proc.poll() is None
        if alive:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    sock.close()
    notify.unlink(missing_ok=True)
    started = f"READY=1 after {ready - start:.0f} s" if ready is not None else f"no READY=1 within {start_limit:.0f} s"
    state = f"still running after {seconds:.0f} s more" if alive else f"exited with status {proc.returncode}"
    return ready is not None and alive, f"{started}; {state}"


def _installed(prefix: str) -> tuple[bool, str]:
    """The kiosk imported from its venv's site-packages, not from a source tree (editable)."""
    import importlib.metadata

    import kiosk

    dist = importlib.metadata.distribution("kiosk")
    url = json.loads(dist.read_text("direct_url.json") or "{}")
    editable = bool(url.get("dir_info", {}).get("editable"))
    inside = str(kiosk.__file__).startswith(f"{prefix}/.venv/lib/")
    how = "editable" if editable else "not editable"
    return inside and not editable, f"kiosk {dist.version} from {kiosk.__file__}, {how} ({url.get('url', '?')})"


def _numpy_origin() -> tuple[bool, str]:
    import numpy

    return numpy.__file__.startswith(APT_SITE), f"numpy {numpy.__version__} from {numpy.__file__}"


def _c_extension(module: str) -> tuple[bool, str]:
    import importlib

    import numpy

    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        return False, f"import {module} failed under numpy {numpy.__version__}: {exc}"
    ok = mod.__file__ is not None and mod.__file__.startswith(APT_SITE)
    if module == "numexpr":  # exercise its C interpreter, which uses numpy's C API
        values = mod.evaluate("2 * a + 1", {"a": numpy.arange(4)}).tolist()
        ok = ok and values == [1, 3, 5, 7]
    return ok, f"{module} {getattr(mod, '__version__', '?')} from {mod.__file__} on numpy {numpy.__version__}"


def _sdl() -> tuple[bool, str]:
    lib, drivers = sdl_video_drivers()  # SDL 2.26 names it "KMSDRM", later ones "kmsdrm"
    return "kmsdrm" in (d.lower() for d in drivers), f"{lib}: {', '.join(drivers)}"


def _load(path: str) -> dict[str, object]:
    """A JSON file, or the first line of a file of JSON lines."""
    text = Path(path).read_text()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = json.loads(text.splitlines()[0])
    if not isinstance(data, dict | list):
        raise ValueError(f"{path}: not a JSON object")
    return data  # type: ignore[return-value]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="check", required=True)
    p = sub.add_parser("doctor", help="an item of `kiosk doctor --json`'s report")
    p.add_argument("report")
    p.add_argument("item", nargs="?", choices=("models", "sdl", "numpy"))
    p = sub.add_parser("installed", help="the kiosk is installed in PREFIX/.venv, not editable")
    p.add_argument("prefix")
    sub.add_parser("sdl", help="pygame's SDL has the kmsdrm video driver")
    sub.add_parser("numpy", help="numpy is imported from Debian's python3-numpy")
    p = sub.add_parser("c-extension", help="a Debian module built on numpy's C API imports")
    p.add_argument("module")
    p = sub.add_parser("recognize", help="kiosk recognize named every card of a rendered scene")
    p.add_argument("truth")
    p.add_argument("reading")
    p = sub.add_parser("demo", help="a kiosk demo summary")
    p.add_argument("--min-confirmed", type=int, default=1)
    p.add_argument("summary")
    p = sub.add_parser("queue", help="the stamp queue holds no job")
    p.add_argument("db", type=Path)
    p = sub.add_parser("service", help="run a command as a Type=notify service for a while")
    p.add_argument("--seconds", type=float, required=True)
    p.add_argument("--start-limit", type=float, default=180.0)
    p.add_argument("--log", type=Path, required=True)
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    cmd = getattr(args, "cmd", [])
    cmd = cmd[1:] if cmd[:1] == ["--"] else cmd

    checks: dict[str, Callable[[], tuple[bool, str]]] = {
        "doctor": lambda: check_doctor(_load(args.report), args.item),
        "installed": lambda: _installed(args.prefix),
        "sdl": _sdl,
        "numpy": _numpy_origin,
        "c-extension": lambda: _c_extension(args.module),
        "recognize": lambda: recognized_all(_load(args.truth), _load(args.reading)),
        "demo": lambda: demo_held(_load(args.summary), args.min_confirmed),
        "queue": lambda: (queued_stamps(args.db) == 0, f"{queued_stamps(args.db)} stamp(s) queued in {args.db}"),
        "service": lambda: run_as_service(cmd, args.seconds, args.start_limit, args.log),
    }
    try:
        ok, seen = checks[args.check]()
    except Exception as exc:  # a check that cannot run has failed; say why
        ok, seen = False, f"{type(exc).__name__}: {exc}"
    print(seen)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
