"""A fault-injecting printer for the demo and the reliability tests: python-escpos' own Dummy
printer whose transport answers status queries with real ESC/POS status bytes and, on a seeded
schedule, runs out of paper, goes offline, fails a write in the middle of a job, or crawls.

Only the transport is simulated: the kiosk's probe, worker and queue run unchanged on top of it,
exactly as they would on a serial printer that misbehaves.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from escpos.constants import RT_STATUS_ONLINE, RT_STATUS_PAPER
from escpos.printer import Dummy

FAULTS: tuple[str, ...] = ("paper_out", "offline", "write_error", "slow")
_ONLINE, _OFFLINE = b"\x12", b"\x1a"  # DLE EOT 1: bit 3 set = offline
_PAPER_OK, _PAPER_OUT = b"\x12", b"\x7e"  # DLE EOT 4: bits 5/6 (0x60) set = paper end


@dataclass
class FaultLog:
    """What was injected, and what the kiosk recovered from (a job printed after the fault)."""

    injected: Counter[str] = field(default_factory=Counter)
    recovered: Counter[str] = field(default_factory=Counter)
    open_faults: list[str] = field(default_factory=list)

    def inject(self, kind: str) -> None:
        self.injected[kind] += 1
        self.open_faults.append(kind)

    def printed(self) -> None:
        """A job went out whole: every fault before it has been recovered from."""
        self.recovered.update(self.open_faults)
        self.open_faults.clear()

    def summary(self) -> dict[str, dict[str, int]]:
        return {kind: {"injected": self.injected[kind], "recovered": self.recovered[kind]} for kind in FAULTS}


class FlakyPrinter(Dummy):
    """A Dummy whose faults follow a seeded schedule: every ``every`` seconds one fault, in turn
    paper out, offline, a write error mid-job, a slow link, each lasting ``duration`` seconds."""

    def __init__(
        self,
        seed: int = 0,
        every: float = 9.0,
        duration: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
        log: FaultLog | None = None,
    ) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.every = every
        self.duration = duration
        self.clock = clock
        self.log = log or FaultLog()
        self._lock = threading.Lock()
        self._start = clock()
        self._next = self._start + every
        self._fault: str | None = None
        self._until = 0.0
        self._turn = self.rng.randrange(len(FAULTS))
        self._pending_status: bytes = b""
        self._written_in_job = 0

    def fault(self) -> str | None:
        """The fault in force now (starting and ending them as the schedule says)."""
        with self._lock:
            now = self.clock()
            if self._fault and now >= self._until:
                self._fault = None
            if self._fault is None and now >= self._next:
                self._fault = FAULTS[self._turn % len(FAULTS)]
                self._turn += 1
                self._until = now + self.duration
                self._next = now + self.every * self.rng.uniform(0.7, 1.3)
                self._written_in_job = 0
                self.log.inject(self._fault)
            return self._fault

    def _raw(self, msg: bytes) -> None:
        fault = self.fault()
        if msg in (RT_STATUS_ONLINE, RT_STATUS_PAPER):
            if msg == RT_STATUS_ONLINE:
                self._pending_status = _OFFLINE if fault == "offline" else _ONLINE
            else:
                self._pending_status = _PAPER_OUT if fault == "paper_out" else _PAPER_OK
            return
        if fault == "offline":
            raise OSError("flaky printer: not answering")
        if fault == "write_error":
            self._written_in_job += len(msg)
            if self._written_in_job > 2000:  # part of a stamp went out, then the line broke
                with self._lock:
                    self._fault = None
                raise OSError("flaky printer: write error in the middle of a job")
        if fault == "slow":
            time.sleep(min(0.05, len(msg) / 19200 * 10))
        super()._raw(msg)

    def _read(self) -> bytes:
        status, self._pending_status = self._pending_status, b""
        return status

    def close(self) -> None:
        """Keeps its state across reconnects: the same flaky device comes back."""
