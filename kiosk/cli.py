"""The ``kiosk`` command: subcommands are the modules of ``kiosk/commands/``.

Each command module defines ``register(subparsers)`` which adds its parser and sets
``func=callable(args) -> int``. Errors a person can fix (:class:`KioskError`, bad arguments)
print one line on stderr; bad arguments exit with 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

from kiosk import __version__, commands
from kiosk.errors import KioskError, UsageError


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error (no usage dump) and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="kiosk", description="Belgian card kiosk: passport stamps and card-game referee.")
    parser.add_argument("--version", action="version", version=f"kiosk {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"kiosk.commands.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame's greeting is not ours to print
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # The reader went away (`kiosk decks --json | head`): that is not an error of ours.
        # Point stdout at /dev/null so that the interpreter's own flush at exit stays quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except UsageError as exc:
        print(f"kiosk: error: {exc}", file=sys.stderr)
        return 2
    except KioskError as exc:
        print(f"kiosk: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
