"""``kiosk queue list | reprint ID | clear``: the stamp queue for a technician.

``list`` shows every stamp still to print (waiting or parked, with why it was parked), the
latest printed ones, and the counters, refusals by reason included. ``reprint ID`` puts a parked
stamp back in line, or queues a printed one again (rendered anew with its original date).
``clear`` drops every stamp not yet printed. The kiosk may run meanwhile: it prints what the
queue holds at its next look.
"""

from __future__ import annotations

import argparse
from datetime import date, datetime

from kiosk.config import load_config
from kiosk.devices.queue import COUNTERS, JobQueue, open_queue
from kiosk.devices.service import QUEUE_FILE, TEST_PAGE_ID
from kiosk.devices.state import state_dir
from kiosk.errors import KioskError, UsageError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("queue", help="list, reprint or clear the stamps in the print queue")
    p.add_argument("action", choices=("list", "reprint", "clear"))
    p.add_argument("job", nargs="?", type=int, help="reprint: the job's number (from `kiosk queue list`)")
    p.add_argument("--done", type=int, default=10, help="list: how many printed stamps to show (default 10)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if (args.action == "reprint") != (args.job is not None):
        raise UsageError("a job number goes with reprint, and only with it: kiosk queue reprint ID")
    if not 0 <= args.done <= 10_000:
        raise UsageError("--done must be between 0 and 10000")
    path = state_dir() / QUEUE_FILE
    with open_queue(path) as queue:
        if args.action == "list":
            print("\n".join(listing(queue, args.done)))
        elif args.action == "clear":
            print(f"{queue.clear()} stamp(s) not yet printed were cleared")
        else:
            print(reprint(queue, args.job))
    return 0


def listing(queue: JobQueue, done: int) -> list[str]:
    """The lines of ``kiosk queue list``."""
    counters = queue.counters()
    lines = [f"{queue.path}: {counters['waiting']} waiting, {counters['parked_now']} parked"]
    for job in queue.jobs(done):
        when = datetime.fromtimestamp(job.created).strftime("%Y-%m-%d %H:%M")
        tries = f"{job.attempts} tr{'y' if job.attempts == 1 else 'ies'}"
        note = f"  {job.note}" if job.note and job.state != "done" else ""
        lines.append(f"  #{job.id:<6} {job.card_id:<10} {when}  {job.state:<8} {tries}{note}")
    refused = [name for name in COUNTERS if name.startswith("refused_")]
    lines.append("counters: " + ", ".join(f"{name} {counters[name]}" for name in COUNTERS if name not in refused))
    lines.append("refused:  " + ", ".join(f"{name.removeprefix('refused_')} {counters[name]}" for name in refused))
    return lines


def reprint(queue: JobQueue, job_id: int) -> str:
    """Put a parked or waiting job back in line, or queue a printed stamp again."""
    found = queue.image(job_id)
    if found is None:
        raise KioskError(f"no stamp job #{job_id} (see `kiosk queue list`)")
    if queue.release(job_id):
        return f"stamp job #{job_id} is back in line"
    card_id, created, _ = found
    if card_id == TEST_PAGE_ID:
        raise KioskError(f"job #{job_id} was a test page: print a new one from the operator menu")
    from kiosk.devices.stamp import render_stamp, stamp_png

    config = load_config()
    image = render_stamp(
        card_id,
        day=date.fromtimestamp(created),
        lang=config.kiosk.language,
        width=config.printer.width,
        kiosk_name=config.kiosk.name,
    )
    admission = queue.submit(card_id, stamp_png(image), cooldown=False, rate=False)
    if not admission.accepted:
        raise KioskError(f"job #{job_id} could not be queued again ({admission.reason})")
    return f"stamp job #{job_id} ({card_id}) queued again as #{admission.job_id}"
