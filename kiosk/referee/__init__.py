"""Referee adapters: table zones and the translation of table events into game moves."""
