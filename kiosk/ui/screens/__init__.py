"""One module per screen; :class:`Screen` is their common shape (pibooth's enter/do/exit)."""
