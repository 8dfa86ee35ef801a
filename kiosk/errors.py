"""The kiosk's own exception family: every error a person can fix says what and where."""


class KioskError(Exception):
    """Base of all errors the CLI turns into one clear line instead of a traceback."""


class DeckError(KioskError):
    """A deck file is missing, unreadable or inconsistent."""


class ConfigError(KioskError):
    """A configuration file is wrong; the message names the file and the key."""


class UsageError(KioskError):
    """A command-line argument is out of range or malformed (exit code 2)."""
