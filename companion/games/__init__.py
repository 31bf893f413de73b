"""The registry: one line per game. Each game is a package offering the interface in `companion.contract.Game`."""

from __future__ import annotations

from companion.contract import Game, IllegalAction
from companion.games import district_z, eaten_by_zombies, mall_of_horror, zombiegeddon

GAMES: dict[str, Game] = {mall_of_horror.NAME: mall_of_horror}
GAMES[zombiegeddon.NAME] = zombiegeddon
GAMES[eaten_by_zombies.NAME] = eaten_by_zombies
GAMES[district_z.NAME] = district_z


def get_game(name: object) -> Game:
    if not isinstance(name, str) or name not in GAMES:
        raise IllegalAction("game.unknown", game=str(name), games=", ".join(GAMES))
    return GAMES[name]
