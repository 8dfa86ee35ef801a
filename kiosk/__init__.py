"""Card kiosk: recognises Belgian playing cards, prints passport stamps, referees card games."""

__version__ = "0.1.0"
