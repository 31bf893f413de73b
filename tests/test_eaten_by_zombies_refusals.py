"""Eaten by Zombies!: every refusal names the rule's real reason in the reader's language, type errors say what was
expected, and the start and every answer field take any JSON value and refuse it with a code, never a traceback
(../shared/rules/other-games.md, seed 001)."""

from __future__ import annotations

import json
import random
import re

import pytest
from fuzzkit import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st
from test_eaten_by_zombies import BOOKS, act, begin, choose_answer, to_choose, with_power, zombie_turn

from companion.contract import IllegalAction, Refusal
from companion.games import eaten_by_zombies as ebz

LANGS = ("en", "zh-Hans", "zh-Hant", "vi")


def refusal(state: ebz.State, action: object) -> IllegalAction:
    """The refusal of `action`, its text in four languages with every placeholder filled and no raw key."""
    with pytest.raises(IllegalAction) as caught:
        ebz.decide(state, action)
    for lang in LANGS:
        text = BOOKS.text(caught.value.message, lang)
        assert "{" not in text and "ebz." not in text and "checks.got" not in text, (lang, text)
        text.encode("utf-8")
    return caught.value


def english(refused: IllegalAction) -> str:
    return BOOKS.text(refused.message, "en")


def test_a_bonus_after_a_lost_fight_is_refused_because_a_lost_fight_buys_nothing():
    state = to_choose(begin(), (4, 3))
    state = act(state, {"seat": "red", "fight": True}, {"seat": "red", "value": 1})  # lost: 1 < 4
    refused = refusal(state, {"seat": "red", "bonus": 2})
    assert refused.code == "ebz.refuse.bonus_lost" and english(refused).startswith("Red lost: only a won fight")


def test_a_bonus_before_any_fight_is_refused_as_not_now():
    assert refusal(begin(), {"seat": "red", "bonus": 2}).code == "ebz.refuse.bonus_not_now"


def test_drawing_5_without_power_6_is_refused_naming_power_6():
    state = zombie_turn(begin())
    assert state.step == "zdraw"
    refused = refusal(state, {"seat": "red", "draw": 5})
    assert refused.code == "ebz.refuse.draw_power6" and "Power 6" in english(refused)
    assert refusal(state, {"seat": "red", "draw": 0}).code == "ebz.refuse.draw"
    assert refusal(state, {"seat": "red", "draw": "3"}).code == "ebz.refuse.draw"
    state = with_power(state, 6, seat="blue")
    assert ebz.decide(state, {"seat": "red", "draw": 5})  # with Power 6 in force


def test_stuck_with_no_zombie_player_yet_is_refused_because_no_one_would_win():
    state = to_choose(begin(), (2, 2))
    refused = refusal(state, {"seat": "red", "stuck": True})
    assert refused.code == "ebz.refuse.stuck_no_zombies" and english(refused).startswith("No zombie player yet")


def test_fight_and_run_in_one_answer_is_refused_as_one_or_the_other():
    state = to_choose(begin(), (2, 2))
    refused = refusal(state, {"seat": "red", "fight": True, "run": True})
    assert refused.code == "ebz.refuse.fight_or_run" and english(refused) == "Fight or run: one of them, not both."
    assert refusal(state, {"seat": "red", "fight": False}).code == "ebz.refuse.true"
    assert refusal(state, {"seat": "red"}).code == "ebz.refuse.no_answer"
    assert refusal(state, {"seat": "red", "flee": True}).code == "ebz.refuse.field_unknown"


@pytest.mark.parametrize(("value", "text"), [
    ("5", 'Enter a whole number from 0 to 60, not the text "5".'),
    (True, "Enter a whole number from 0 to 60, not true (a yes-or-no value)."),
    (4.0, "Enter a whole number from 0 to 60, not the number 4.0."),
    (None, "Enter a whole number from 0 to 60, not nothing (null)."),
    ({"n": 5}, "Enter a whole number from 0 to 60, not an object of fields."),
])
def test_a_fight_value_of_the_wrong_type_says_a_whole_number_and_what_came(value, text):
    state = act(to_choose(begin(), (2, 2)), {"seat": "red", "fight": True})
    assert english(refusal(state, {"seat": "red", "value": value})) == text


@pytest.mark.parametrize(("value", "code", "text"), [
    (True, "ebz.refuse.level_type", "The level must be a whole number (1, 2, 4, 6 or 8), not true (a yes-or-no "
                                    "value)."),
    ("5", "ebz.refuse.level_type", 'The level must be a whole number (1, 2, 4, 6 or 8), not the text "5".'),
    ("\ud800", "ebz.refuse.level_type", 'The level must be a whole number (1, 2, 4, 6 or 8), not the text "\ufffd".'),
    (3, "ebz.refuse.level_unknown", "3 is not a zombie level: levels are 1, 2, 4, 6 and 8."),
    (1.0, "ebz.refuse.level_type", "The level must be a whole number (1, 2, 4, 6 or 8), not the number 1.0."),
])
def test_a_level_of_the_wrong_type_says_what_was_expected(value, code, text):
    refused = refusal(begin(), {"seat": "red", "level": value})
    assert refused.code == code and english(refused) == text


def test_a_speed_of_the_wrong_type_says_what_was_expected():
    state = act(begin(), {"seat": "red", "level": 1})
    assert state.step == "flip_speed"
    for value in ("\ud800", True, [2], 2.5):
        assert refusal(state, {"seat": "red", "speed": value}).code == "ebz.refuse.speed_type"
    assert refusal(state, {"seat": "red", "speed": 7}).code == "ebz.refuse.speed_unknown"


def test_an_answer_that_is_not_an_object_or_names_no_seat_of_the_game_says_so():
    state = begin()
    assert refusal(state, [1]).code == "ebz.refuse.answer_object"
    assert refusal(state, {"seat": {}, "level": 1}).code == "ebz.refuse.seat_unknown"
    assert refusal(state, {"seat": "green", "level": 1}).code == "ebz.refuse.seat_unknown"
    assert refusal(state, {"seat": "\ud800", "level": 1}).code == "ebz.refuse.seat_unknown"


@pytest.mark.parametrize(("players", "options", "code"), [
    (["yellow", {}], None, "ebz.refuse.player_type"),
    ({"red": 1}, None, "ebz.refuse.players_list"),
    (["red", "blue"], [], "ebz.refuse.options"),
    (["red", "blue"], {"run_rounding": ["up"]}, "ebz.refuse.rounding"),
    (["red", "blue"], {"market": "\u00b2"}, "ebz.refuse.market"),
    (["red", "blue"], {"market": "9" * 5000}, "ebz.refuse.market"),
    (["red", "blue"], {"\ud800": 1}, "ebz.refuse.option_unknown"),
])
def test_a_start_of_the_wrong_types_is_refused_with_a_code(players, options, code):
    with pytest.raises(IllegalAction) as caught:
        ebz.start(players, options)
    assert caught.value.code == code
    for lang in LANGS:
        BOOKS.text(caught.value.message, lang).encode("utf-8")


# -- every JSON type, never a traceback ----------------------------------------------------------------------------

TEXT = st.one_of(st.text(max_size=8), st.sampled_from(["\ud800", "red", "blue", "5", "", "up", "true"]))
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.integers(), st.floats(allow_nan=True), TEXT)
JSON = st.recursive(SCALAR, lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(TEXT, inner, max_size=3), max_leaves=6)
FIELDS = ["level", "speed", "pass", "fight", "run", "stuck", "value", "bonus", "refilled", "dies", "draw", "x"]


@fuzz_settings(300)
@given(JSON, st.one_of(st.none(), JSON), st.one_of(st.none(), JSON))
def test_property_the_start_takes_any_json_and_refuses_with_a_code(players, options, position):
    try:
        ebz.start(players, options, position)
    except IllegalAction as refused:
        for lang in LANGS:
            BOOKS.text(refused.message, lang).encode("utf-8")


@fuzz_settings(200)
@given(st.sampled_from([["red", "blue"], ["red", "yellow", "blue"]]), st.sampled_from(["run_rounding", "market"]),
       JSON)
def test_property_the_start_takes_any_json_option_value(players, name, value):
    try:
        ebz.start(players, {name: value})
    except IllegalAction as refused:
        assert refused.code in ("ebz.refuse.rounding", "ebz.refuse.market")


def reachable(seed: int, steps: int) -> ebz.State:
    rng = random.Random(seed)
    state = ebz.start(["red", "yellow", "blue"][:2 + seed % 2])
    for _ in range(steps):
        if state.over:
            break
        state = ebz.apply(state, choose_answer(state, rng, death=0.3))
    return state


@fuzz_settings(400)
@given(st.integers(0, 40), st.integers(0, 150), st.sampled_from(FIELDS), JSON, st.booleans(), st.data())
def test_property_any_json_value_in_any_answer_field_is_played_or_refused_with_a_code(seed, steps, field, value,
                                                                                       own_seat, data):
    state = reachable(seed, steps)
    prompt = ebz.prompt(state)
    seat = prompt.seats[0] if own_seat and prompt else data.draw(JSON)
    try:
        events = ebz.decide(state, {"seat": seat, field: value})
    except Refusal as refused:
        assert isinstance(refused, IllegalAction)
        for lang in LANGS:
            text = BOOKS.text(refused.message, lang)
            assert not re.search(r"\{[a-z_]+\}", text), text  # every placeholder filled (a value may hold "{")
            text.encode("utf-8")
        return
    for event in events:
        state = ebz.apply(state, event)
    json.dumps(ebz.record(state))


@fuzz_settings(100)
@given(st.integers(0, 40), st.integers(0, 30), JSON)
def test_property_any_json_cup_pick_is_played_or_refused_with_a_code(seed, steps, pick):
    state = reachable(seed, steps)
    try:
        ebz.apply(state, {"pick": pick})
    except Refusal as refused:
        assert isinstance(refused, IllegalAction)
