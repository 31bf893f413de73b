"""The benchmarks, in one place: each prints its figures (tests never time anything) and takes `--game`.

- rules.py   `bench rules`: random legal games of the rules alone, on one core; `bench table`: the same answers
             through a Table into a save file on disk
- phones.py  `bench phones`: simulated phones against `companion serve` in another process, spectators coming
             and going; the page's bytes on the wire per game
- pads.py    `bench pads`: a press (a mock GPIO edge, a PRESS line on a pty) to its answer stored
- flood.py   `bench pads --flood`: a stuck button's 1,000 presses a second during play, felt by the phones or not
- soak.py    `bench soak`: a whole night of whole games back to back
- ui.py      `bench ui`: the touchscreen app beside a bare Kivy window
- stats.py   `bench stats`: the statistics of many finished games: folded, read from the kept summaries, in memory

A bench knows no game: it plays the one named (`--game`, Mall of Horror by default) through the contract, as a
table would.
"""

from __future__ import annotations

from companion.contract import Game

DEFAULT_GAME = "mall-of-horror"  # the game the benches play unless told: the box's first game


def rules_of(game: str) -> Game:
    from companion.games import get_game  # the registry is loaded only where a game is played

    return get_game(game)


def seats_for(rules: Game, wanted: int | None = None) -> list[str]:
    """The first seats of the game's seating order for `wanted` players (its most when None), within its limits."""
    setup = rules.SETUP
    count = min(wanted or setup.max_players, setup.max_players, len(setup.colours))
    return list(setup.colours[:max(count, setup.min_players)])
