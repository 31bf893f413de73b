"""Bad scripts of every game never crash: players, options and positions of every JSON type are refused in one line.

The valid scripts are random whole games of each of the four games (every player count, random table options),
cut anywhere; a mutation then hits the players, the options, the position (which a game may not take at all) or
the answers, more often than anything else. Each mutated script is played through a real Table, as `companion
replay` plays it: it plays, or it is refused with one line (ReplayError); any other exception is a traceback
and fails. FUZZ_EXAMPLES sets how many scripts (default 400; the issue's run: FUZZ_EXAMPLES=50000).
"""

from __future__ import annotations

import functools
import json
import random

from fuzzkit import DrawChooser, fuzz_settings, mutate, weird
from hypothesis import given
from hypothesis import strategies as st

from companion.cli import _record
from companion.games import GAMES
from companion.replay import ReplayError, play, read_script
from companion.simulate import random_game


def _options(rules, rng: random.Random) -> dict:
    values = {"true": True, "false": False}
    return {o.name: values.get(c.value, c.value) for o in rules.SETUP.options
            for c in [rng.choice(o.choices)] if rng.random() < 0.6}


@functools.cache
def bases() -> tuple[dict, ...]:
    """Whole random games of every game as scripts: (script, events) with every answer, die and pick."""
    out = []
    for name in sorted(GAMES):
        rules = GAMES[name]
        for seed in range(4):
            rng = random.Random(seed)
            high = min(rules.SETUP.max_players, len(rules.SETUP.colours))
            players = list(rules.SETUP.colours[:rng.randint(rules.SETUP.min_players, high)])
            options = _options(rules, rng)
            events, _ = random_game(rules, players, rng, options)
            out.append({"game": name, "players": players, "options": options, "events": events[:400]})
    return tuple(out)


def script_of(base: dict, cut: int) -> dict:
    events = base["events"][:cut]
    return {"game": base["game"], "players": base["players"], "options": base["options"],
            "dice": [e["roll"] for e in events if "roll" in e], "picks": [e["pick"] for e in events if "pick" in e],
            "actions": [e for e in events if "roll" not in e and "pick" not in e]}


def replay_in_process(text: str) -> str | None:
    """None if the script plays (and its record prints in every path); the one-line refusal otherwise."""
    try:
        table = play(read_script(text, "script.json"))
    except ReplayError as error:
        return str(error)
    json.dumps(_record(table, "zh-Hant"), ensure_ascii=False)
    return None


def mutated_script(c) -> str:
    base = c.pick(bases())
    script = script_of(base, c.integer(0, len(base["events"])))
    if c.integer(0, 3) == 0:
        script["position"] = weird(c)  # a position of any JSON type, whether the game takes one or not
    focus = [("players",), ("options",), ("position",), *[("actions", i) for i in range(len(script["actions"]))[-3:]]]
    return json.dumps(mutate(c, script, focus=focus))


def test_the_valid_scripts_of_every_game_play_to_their_end():
    assert {b["game"] for b in bases()} == set(GAMES)
    for base in bases():
        assert replay_in_process(json.dumps(script_of(base, len(base["events"])))) is None


@fuzz_settings(400)
@given(st.data())
def test_property_scripts_of_every_game_with_any_players_options_or_position_play_or_are_refused_in_one_line(data):
    refusal = replay_in_process(mutated_script(DrawChooser(data)))
    if refusal is not None:
        assert refusal and "\n" not in refusal and "\r" not in refusal


@fuzz_settings(200)
@given(game=st.sampled_from(sorted(GAMES)), data=st.data())
def test_property_any_json_as_players_or_options_of_any_game_is_refused_in_one_line(game, data):
    chooser = DrawChooser(data)
    script = {"game": game, "players": weird(chooser), "options": weird(chooser)}
    if data.draw(st.booleans()):
        script["players"] = [*GAMES[game].SETUP.colours[:2], weird(chooser)]  # one seat of a wrong type
    refusal = replay_in_process(json.dumps(script))
    assert refusal is None or "\n" not in refusal
