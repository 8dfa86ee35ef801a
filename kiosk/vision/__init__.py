"""Vision: frame sources, detection, identification, tracking."""
