"""The games' secret seeds, kept in this process while a game is played.

Every random draw of a game comes from its seed and the sequence number it is drawn at
(``games.base.derive_rng``), so the log is the same whoever decides the step. The seed is
read from the store once and dropped when the game is archived. Where players committed to
secrets and revealed them, the draws come from the mix of the seed and those secrets
(``events.entropy.mix_seed``), which the game's record holds from the reveals on.
"""

from __future__ import annotations

import random

from events.entropy import mix_seed
from events.store import EventStore
from games.base import derive_rng
from projections.record import Record


class Seeds:
    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._seeds: dict[str, str] = {}

    def rng(self, record: Record, seq: int, purpose: str = "") -> random.Random:
        """The game's generator for the draws at ``seq`` (``purpose`` names a stream of its own),
        from the server's seed mixed with the secrets ``record`` holds."""
        return derive_rng(mix_seed(self.seed(record["id"]), record.get("secrets")), seq, purpose)

    def seed(self, game_id: str) -> str:
        """The game's seed (``KeyError`` once it is archived)."""
        seed = self._seeds.get(game_id)
        if seed is None:
            seed = self._seeds[game_id] = self.store.seed(game_id)
        return seed

    def keep(self, game_id: str, seed: str) -> None:
        self._seeds[game_id] = seed

    def drop(self, game_id: str) -> None:
        self._seeds.pop(game_id, None)

    def at_hand(self, game_id: str) -> bool:
        """Fetch the game's seed for a worker's step; False if the game was archived since it was loaded.

        Only archiving drops a seed. A worker can load a step that another one is already
        taking (the sweep asks again for steps whose time has come while a drain runs them);
        when that other step ends the game and it is archived before this one reads the seed,
        nothing is left to do. Had the seed been read, the append's version check would refuse
        this late step all the same.
        """
        try:
            self.seed(game_id)  # kept in memory for the step's draws
        except KeyError:
            if self.store.is_archived(game_id):
                return False
            raise
        return True
