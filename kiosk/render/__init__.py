"""Pillow/OpenCV renderers: card faces, table scenes, the mat, printable sheets."""
