"""game id -> referee adapter class; a game whose adapter is not present is refereed by nobody."""

from __future__ import annotations

from kiosk.plugins import load_optional
from kiosk.referee.base import RefereeAdapter

BUILTIN: dict[str, str] = {
    "compromis": "kiosk.referee.compromis:CompromisReferee",
    "choux": "kiosk.referee.choux:ChouxReferee",
    "bataille": "kiosk.referee.bataille:BatailleReferee",
    "huit": "kiosk.referee.huit:HuitReferee",
    "president": "kiosk.referee.president:PresidentReferee",
    "patience": "kiosk.referee.patience:PatienceReferee",
    "klaverjassen": "kiosk.referee.klaverjassen:KlaverjassenReferee",
    "manille": "kiosk.referee.manille:ManilleReferee",
    "kakkerlakken": "kiosk.referee.kakkerlakken:KakkerlakkenReferee",
    "pouilleux": "kiosk.referee.pouilleux:PouilleuxReferee",
    "cache-cache": "kiosk.referee.cache_cache:CacheCacheReferee",
    "recto-verso": "kiosk.referee.recto_verso:RectoVersoReferee",
    "memory": "kiosk.referee.memory:MemoryReferee",
}


def available_referees() -> dict[str, type[RefereeAdapter]]:
    out: dict[str, type[RefereeAdapter]] = {}
    for game_id, target in BUILTIN.items():
        cls = load_optional(target)
        if cls is not None:
            out[game_id] = cls
    return out
