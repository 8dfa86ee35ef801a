"""``kiosk config init|show|check [--config PATH]``: write, print (as TOML) and check the configuration;
``kiosk config get KEY [--default]`` and ``kiosk config set KEY VALUE``: one key (``kiosk.admin_pin``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from kiosk.config import default_path, dump_toml, load_config, template
from kiosk.devices.state import atomic_write
from kiosk.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("config", help="write, show, check the configuration file, or get or set one key")
    p.add_argument("action", choices=["init", "show", "check", "get", "set"])
    p.add_argument("key", nargs="?", help="get, set: section.key, such as kiosk.admin_pin")
    p.add_argument("value", nargs="?", help="set: the new value")
    p.add_argument("--default", action="store_true", help="get: the documented default, not the file's value")
    p.add_argument(
        "--config",
        type=Path,
        default=None,
        dest="file",
        help="configuration file (default: $KIOSK_CONFIG, /etc/kiosk/kiosk.toml, ~/.config/kiosk/kiosk.toml)",
    )
    p.add_argument("--file", type=Path, dest="file", help=argparse.SUPPRESS)  # the name it had before
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
    if args.action in ("get", "set"):
        return _one_key(args, path)
    config = load_config(path, required=args.action == "check")
    if args.action == "show":
        print(f"# {config.path or 'defaults (no file at ' + str(path) + ')'}")
        print(dump_toml(config.as_dict()), end="")
    else:
        print(f"{path}: OK")
    return 0


def _one_key(args: argparse.Namespace, path: Path) -> int:
    from kiosk.config_edit import get_value, set_value, shown

    if not args.key or (args.action == "set") != (args.value is not None):
        raise UsageError(f"usage: kiosk config {args.action} SECTION.KEY" + (" VALUE" if args.action == "set" else ""))
    if args.action == "get":
        print(shown(get_value(None if args.default else load_config(path), args.key, default=args.default)))
    else:
        value = set_value(path, args.key, args.value)
        print(f"{path}: {args.key} = {shown(value)}")
    return 0
