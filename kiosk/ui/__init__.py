"""The pygame user interface: one app loop, one module per screen."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
