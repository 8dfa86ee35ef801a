"""The seed's promise, as a test: "Les images de la caméra sont analysées sur ton appareil
uniquement : rien n'est enregistré ni envoyé." (000_de7fdf0eefacbd60.txt)

An end-to-end demo runs in a child process under a Python audit hook that records every file
opened for writing and every socket created. Only the state directory (queue, counters,
calibration) and the requested outputs may be written, and no network socket may be opened:
the hook makes any attempt fail loudly.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import demo_args

from tests.quotes import AFFICHE_SEED, source_text

PROBE = textwrap.dedent(
    """
    import json, os, socket, sys
    written, sockets = set(), []
    report = sys.argv[1]

    def hook(event, args):
        if event == "open" and args[0] is not None and not isinstance(args[0], int):
            mode, flags = args[1], args[2]
            if (mode and any(c in mode for c in "wax+")) or (flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)):
                path = os.path.realpath(os.fsdecode(args[0]))
                if path != report:
                    written.add(path)
        elif event == "socket.__new__":
            family = args[1]
            if family not in (socket.AF_UNIX, -1):
                sockets.append(int(family))
                raise RuntimeError(f"privacy: a network socket (family {family}) was opened")
        elif event in ("socket.connect", "socket.bind", "socket.sendto"):
            address = args[1]
            if not isinstance(address, (str, bytes)):
                sockets.append(str(address))
                raise RuntimeError(f"privacy: network traffic to {address!r}")

    sys.addaudithook(hook)
    from kiosk.cli import main
    try:
        code = main(sys.argv[2:])
    finally:
        with open(report, "w") as f:
            json.dump({"written": sorted(written), "sockets": sockets}, f)
    sys.exit(code)
    """
)


def test_privacy_line_is_the_seeds_own():
    from kiosk.i18n import translate

    assert translate("app.privacy", "fr") in source_text(AFFICHE_SEED)


def test_demo_writes_only_state_and_outputs_and_opens_no_socket(tmp_path: Path):
    out, state, report = tmp_path / "out", tmp_path / "state", tmp_path / "report.json"
    scratch = tmp_path / "tmp"  # libraries' caches (python-escpos pickles its printer profiles)
    scratch.mkdir()
    env_home = tmp_path / "home"
    env_home.mkdir()
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE,
            str(report.resolve()),
            *demo_args(12, out, state),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={
            "HOME": str(env_home),
            "PATH": "/usr/bin:/bin",
            "SDL_VIDEODRIVER": "dummy",
            "GPIOZERO_PIN_FACTORY": "mock",
            "KIOSK_STATE_DIR": str(state),
            "PYTHONDONTWRITEBYTECODE": "1",
            "TMPDIR": str(scratch),
        },
        cwd=tmp_path,
    )
    data = json.loads(report.read_text())
    assert data["sockets"] == [], result.stderr[-2000:]
    allowed = (str(out.resolve()), str(state.resolve()), str(scratch.resolve()))
    stray = [p for p in data["written"] if not p.startswith(allowed) and not p.startswith("/dev/")]
    assert stray == [], f"files written outside the state directory and the outputs: {stray}"
    for folder in (state, scratch):  # camera images never reach the disk, not even as a cache
        images = [p for p in folder.rglob("*") if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".bmp", ".npy")]
        assert images == []
        large = [p for p in folder.rglob("*") if p.is_file() and p.stat().st_size > 2_000_000]
        assert large == []  # a 1280x720 frame is 2.7 MB raw
    assert result.returncode in (0, 1), result.stderr[-2000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["frames"] > 0
