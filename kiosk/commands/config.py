"""``kiosk config init|show|check [--file PATH]``: write, print and check the configuration."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from kiosk.config import default_path, load_config, template
from kiosk.devices.state import atomic_write
from kiosk.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("config", help="write, show or check the configuration file")
    p.add_argument("action", choices=["init", "show", "check"])
    p.add_argument("--file", type=Path, default=None, help="configuration file (default: %(default)s)")
    p.add_argument("--force", action="store_true", help="init: overwrite an existing file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path: Path = args.file or default_path()
    if args.action == "init":
        if path.exists() and not args.force:
            raise UsageError(f"{path} exists; use --force to overwrite it (nothing was changed)")
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, template().encode("utf-8"))
        print(f"wrote {path}")
        return 0
    config = load_config(path, required=args.action == "check")
    if args.action == "show":
        print(f"# {config.path or 'defaults (no file at ' + str(path) + ')'}")
        print(json.dumps(config.as_dict(), indent=2, ensure_ascii=False))
    else:
        print(f"{path}: OK")
    return 0
