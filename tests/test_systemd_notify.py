"""sd_notify over $NOTIFY_SOCKET, received on a real datagram socket as systemd would."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from kiosk.devices import notify


@pytest.fixture
def systemd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def test_ready_watchdog_status_and_stopping_reach_systemd(systemd: socket.socket) -> None:
    assert notify.ready("passport mode")
    assert systemd.recv(1024) == b"READY=1\nSTATUS=passport mode"
    assert notify.watchdog()
    assert systemd.recv(1024) == b"WATCHDOG=1"
    assert notify.status("paper out")
    assert systemd.recv(1024) == b"STATUS=paper out"
    assert notify.stopping()
    assert systemd.recv(1024) == b"STOPPING=1"


def test_abstract_namespace_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"kiosk-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert notify.watchdog()
        assert sock.recv(64) == b"WATCHDOG=1"


def test_outside_systemd_every_call_is_a_no_op(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert notify.ready() is False and notify.watchdog() is False
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone.sock"))
    assert notify.watchdog() is False  # systemd went away: no exception in the main loop


def test_watchdog_interval_is_half_of_watchdogsec(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert notify.watchdog_interval() == 15.0
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert notify.watchdog_interval() == 15.0
    monkeypatch.setenv("WATCHDOG_PID", "1")  # meant for another process
    assert notify.watchdog_interval() is None
    monkeypatch.delenv("WATCHDOG_USEC")
    assert notify.watchdog_interval() is None
