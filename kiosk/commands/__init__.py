"""One module per ``kiosk`` subcommand; each defines ``register(subparsers)``."""
