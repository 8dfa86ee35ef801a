"""Import "module:attr" targets whose module may be absent (a game or adapter not built yet)."""

from __future__ import annotations

import importlib
from typing import Any


def load_optional(target: str) -> Any | None:
    """The object named by ``module:attr``, or None when that module does not exist.

    An ImportError raised *inside* an existing module is a real bug and propagates.
    """
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None
        raise
    return getattr(module, attr)
