"""Every game's start checks the types of its input (issue 25, point 6), for Zombiegeddon and Mall of Horror:
`start(players, options, position)` fed values of every JSON type (nested lists and objects, texts with lone
surrogates such as "\\ud800", numbers, booleans, null), and plausible ones with a wrong part, either starts a game
the rules can show, or refuses with an IllegalAction whose reason renders in every language: never a TypeError,
KeyError or AttributeError traceback."""

from __future__ import annotations

import json

import pytest
from fuzzkit import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from companion.catalogue import LANGUAGES
from companion.contract import IllegalAction
from companion.games import mall_of_horror as mall
from companion.games import zombiegeddon as zg

ODD_TEXT = ["\ud800", "red\udfff", "", " ", "{colour}", "{", "红", "🧟", "x" * 200, "true", "5", "null"]
COLOURS = ["red", "yellow", "blue", "green", "purple", "black"]

leaves = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(ODD_TEXT + COLOURS), st.text(max_size=6),
    st.text(alphabet=st.characters(codec=None, categories=None), max_size=4),  # lone surrogates too
)
keys = st.text(max_size=6) | st.sampled_from(ODD_TEXT)  # a JSON object's names are texts
json_values = st.recursive(
    leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4), max_leaves=10)


def some(*plausible):
    """A plausible value or a value of any JSON type."""
    return st.one_of(*plausible, json_values)


players = some(st.lists(some(st.sampled_from(COLOURS)), max_size=7), st.sampled_from([COLOURS[:2], COLOURS[:4]]))


def options_of(table: dict[str, list]):
    names = list(table)
    values = [v for vs in table.values() for v in vs]
    return st.one_of(st.none(), json_values, st.dictionaries(
        st.sampled_from(names) | keys, some(st.sampled_from(values)), max_size=3))


def positions_of(fields: dict):
    return st.one_of(st.none(), json_values, st.fixed_dictionaries(
        {}, optional={name: some(value) for name, value in fields.items()}))


def starts_or_refuses(rules, players, options, position) -> None:
    """Either a game the rules can show (prompt, view, record and narration in every language) or a refusal."""
    try:
        state = rules.start(players, options, position)
    except IllegalAction as refused:
        for lang in LANGUAGES:
            said = refused.text(lang)
            assert said and said != refused.code
            said.encode("utf-8")  # a lone surrogate never reaches a device as such
        return
    rules.prompt(state)
    rules.cup_request(state)
    json.dumps([rules.view(state), rules.record(state)])
    for seat in state.players:
        rules.question(state, seat)
        json.dumps(rules.view(state, seat))
    from companion.catalogue import text

    for line in rules.narration(state):
        text(line.message)


ZG_POSITION = {"phase": st.sampled_from(["pre", "post", "sheet", "largest", "over"]),
               "turn": st.sampled_from(COLOURS[:4]), "starter": st.sampled_from(COLOURS[:4])}


@fuzz_settings(400)
@given(players=players, options=options_of({"set_bonus": ["scoring_kinds", "printed_only", "every_kind",
                                                           "not_food_zombies"],
                                             "post_bomb_tie": ["reenter", "turn_order"]}),
       position=positions_of(ZG_POSITION))
def test_property_zombiegeddon_start_of_every_json_type_starts_or_refuses_never_a_traceback(players, options,
                                                                                            position):
    starts_or_refuses(zg, players, options, position)


locations = st.integers(0, 7)
kinds = st.sampled_from(["pinup", "tough", "gunman", "girl", "zombie"])
colour_maps = lambda values: st.dictionaries(st.sampled_from(COLOURS) | keys, values, max_size=4)  # noqa: E731
MALL_POSITION = {
    "round": st.integers(0, 30), "phase": st.sampled_from(["truck", "chief", "arrival", "destination", "move",
                                                          "attack", "placement", "over"]),
    "chief": st.sampled_from(COLOURS), "elected": st.booleans(),
    "characters": colour_maps(some(st.dictionaries(kinds | keys, some(locations), max_size=4))),
    "zombies": st.dictionaries(st.sampled_from(["1", "2", "3", "4", "5", "6", "7"]), some(st.integers(0, 40)),
                               max_size=6),
    "closed": st.lists(some(locations), max_size=6), "hands": colour_maps(some(st.integers(0, 25))),
    "deck": some(st.integers(0, 25)), "destinations": colour_maps(some(locations)),
    "cup": some(st.lists(st.integers(0, 7), min_size=4, max_size=4)),
    "played": st.dictionaries(st.sampled_from(["threat", "camera", "sprint", "hardware", "hidden", "weapon1",
                                               "weapon2"]) | keys, some(st.integers(0, 4)), max_size=4),
    "hidden": colour_maps(some(st.lists(some(kinds), max_size=3))),
}


@fuzz_settings(400)
@given(players=players, options=options_of({"threats_carry_to_revote": [True, False],
                                             "second_tie_victim": ["character", "colour"],
                                             "end_timing": ["immediate", "round_end"]}),
       position=positions_of(MALL_POSITION))
def test_property_mall_of_horror_start_of_every_json_type_starts_or_refuses_never_a_traceback(players, options,
                                                                                              position):
    starts_or_refuses(mall, players, options, position)


@pytest.mark.parametrize("rules", [zg, mall], ids=["zombiegeddon", "mall-of-horror"])
@pytest.mark.parametrize(("players", "options", "position"), [
    (["yellow", {}], None, None), (["red", "\ud800"], None, None), ("red", None, None), ({"red": 1}, None, None),
    (["red", "yellow", "blue"], ["end_timing"], None), (["red", "yellow", "blue"], {"set_bonus": [1]}, None),
    (["red", "yellow", "blue"], {"end_timing": {"a": 1}}, None), (["red", "yellow", "blue"], None, "post"),
    (["red", "yellow", "blue"], None, {"phase": {"x": 1}}), (["red", "yellow", "blue"], None, [1, 2]),
    ([True, False], None, None), ([None, 1.5], None, None), (["red", "yellow", "blue"], None, {"chief": ["red"]}),
])
def test_a_start_input_of_the_wrong_json_type_is_refused_in_clear_words(rules, players, options, position):
    with pytest.raises(IllegalAction) as refused:
        rules.start(players, options, position)
    for lang in LANGUAGES:
        said = refused.value.text(lang)
        assert said != refused.value.code and "{" not in said.replace('{"', "").replace("{'", "")


@pytest.mark.parametrize(("players", "options", "position", "reason"), [
    (["red", {}], None, None, "an object of fields is not a colour of the game; choose from Red, Yellow, Blue, "
                              "Green, Purple and Black"),
    (["red", "yellow", True], None, None, "true (a yes-or-no value) is not a colour of the game; choose from Red, "
                                          "Yellow, Blue, Green, Purple and Black"),
    (["red", "yellow", "blue"], {"end_timing": True}, None,
     'The table option "end_timing" is "immediate" or "round_end", not true (a yes-or-no value).'),
    (["red", "yellow", "blue"], {"threats_carry_to_revote": "true"}, None,
     'The table option "threats_carry_to_revote" is true or false, not the text "true".'),
    (["red", "yellow", "blue"], None, {"hands": {"red": True}},
     "hands.red must be a whole number of at least 0, not true (a yes-or-no value)"),
    (["red", "yellow", "blue"], None, {"hands": {"red": "5"}},
     "hands.red must be a whole number of at least 0, not '5'"),
    (["red", "yellow", "blue"], None, {"round": None},
     "round must be a whole number of at least 1, not nothing (null)"),
    (["red", "yellow", "blue"], None, {"phase": ["move"]},
     "position phase must be one of truck, chief, arrival, destination, move, attack, not a list"),
])
def test_a_mall_of_horror_start_type_error_says_what_was_expected_in_json_words(players, options, position, reason):
    with pytest.raises(IllegalAction) as refused:
        mall.start(players, options, position)
    assert str(refused.value) == reason
