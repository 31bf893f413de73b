"""Random legal games, for property tests and benchmarks: random answers to every prompt, random dice."""

from __future__ import annotations

import random
from types import ModuleType

from companion.contract import CupRequest


def cup_event(request: CupRequest, rng: random.Random) -> dict:
    if request.kind == "roll":
        return {"roll": [rng.randint(1, 6) for _ in range(request.count)]}
    return {"pick": rng.randrange(request.count)}


def random_game(rules: ModuleType, players: list[str], rng: random.Random, options: dict | None = None,
                max_events: int = 20_000, close_chance: float = 0.0):
    """Play a whole game with random legal answers; return (events, final state)."""
    state = rules.start(players, options)
    events: list[dict] = []
    while not state.over:
        if len(events) >= max_events:
            raise RuntimeError(f"the game did not end after {max_events} events")
        request = rules.cup_request(state)
        if request is not None:
            event = cup_event(request, rng)
        else:
            prompt = rules.prompt(state)
            if prompt.kind == "ballot" and close_chance and rng.random() < close_chance:
                action = {"close": True}
            else:
                seat = rng.choice(prompt.seats)
                action = rng.choice(prompt.options[seat])
            (event,) = rules.decide(state, action)  # as a table plays it: the rules check the answer once
        state = rules.apply(state, event)
        events.append(event)
    return events, state
