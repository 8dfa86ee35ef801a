"""Names of ruling parameters that hold a seat number (shown as the player's name)."""

SEAT_PARAM_NAMES = frozenset(
    {
        "player",
        "seat",
        "winner",
        "loser",
        "taker",
        "spotter",
        "target",
        "by",
        "leader",
        "receiver",
        "giver",
        "next",
        "author",
        "caller",
        "dealer",
    }
)
