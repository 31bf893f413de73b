"""District-Z: the objective only on a card's first turn, and every refusal naming its real reason in the reader's
language (../shared/rules/other-games.md, seed 004); the start and every answer field take any JSON value and
refuse it with a code, never a traceback."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest
from fuzzkit import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st
from test_district_z import Play, force, solo, two_players

from companion.catalogue import catalogue
from companion.contract import IllegalAction, Refusal
from companion.games import district_z as dz
from companion.simulate import cup_event, random_answer

LANGS = ("en", "zh-Hans", "zh-Hant", "vi")
Gear = dz.state.Gear


def refused(game: Play, **fields) -> IllegalAction:
    """The refusal of an answer from the seat asked; the state is unchanged, the reason renders in four languages."""
    before = game.state
    with pytest.raises(IllegalAction) as caught:
        game.answer(**fields)
    assert game.state is before
    for lang in LANGS:
        text = caught.value.text(lang)
        assert "{" not in text and not text.startswith("dz.") and "checks.got" not in text, (lang, text)
    return caught.value


# -- the objective: only on a card's first turn ------------------------------------------------------------------


def test_the_first_turn_of_a_card_may_find_the_objective_the_starting_corner_at_setup_included():
    game = Play(("red", "blue")).answer(corner="nw").answer(corner="se").survivor(2, 4)
    assert game.step == "found"
    assert [c.action["found"] for c in dz.question(game.state, "red").choices] == ["district", "objective"]
    game.answer(found="objective").pick(0)
    assert game.me().objective and game.step == "turn"  # the corner's flip has no event
    game.answer(move="e")
    assert [c.action["found"] for c in dz.question(game.state, "red").choices] == ["district", "objective"]


def test_a_district_turned_face_down_and_entered_again_is_never_the_objective():
    game = solo()  # A1 seen as a district at setup
    game.answer(move="e").answer(found="district").roll(1).answer(outcome="nothing")
    assert not game.state.cell((0, 0)).up and game.state.cell((0, 0)).seen  # turned face down when left
    game.answer(move="w")
    assert game.step == "found" and "dz.n.flip" in game.acts()
    assert [c.action["found"] for c in dz.question(game.state, "red").choices] == ["district"]
    refusal = refused(game, found="objective")
    assert refusal.code == "dz.refuse.objective_seen" and refusal.params["cell"] == "A1"
    assert game.state.hidden_objectives == 1
    game.answer(found="district")
    assert game.step == "roll_event"  # a district entered again rolls its event as usual


def test_the_starting_corner_a_new_survivor_restarts_on_is_not_the_objective():
    game = Play(("red", "blue")).answer(corner="nw").answer(corner="se").survivor(2, 1).answer(found="district")
    game.answer(move="e").answer(found="district").roll(5).answer(outcome="zombies").answer(zombies=2)
    game.roll(1, 1).roll(5, 5).answer(pairs={"r1": "b1", "r2": "b2"})  # red dies at B1
    assert game.me("red").pos is None and not game.state.cell((0, 0)).up
    game.survivor(2, 4).answer(found="district").answer(move="n").answer(found="district").roll(1)
    game.answer(outcome="nothing")
    game.survivor(3, 3)  # red's second survivor card restarts at A1, turned face up again
    assert game.me("red").pos == (0, 0) and game.step == "found"
    assert [c.action["found"] for c in dz.question(game.state, "red").choices] == ["district"]
    assert refused(game, found="objective").code == "dz.refuse.objective_seen"


def test_with_every_objective_found_an_objective_answer_is_refused_with_that_reason():
    game = solo()
    game.state = replace(game.state, hidden_objectives=0)
    game.answer(move="e")
    assert refused(game, found="objective").code == "dz.refuse.objective_none"


# -- refusals: the reason the rules give ---------------------------------------------------------------------------


def test_healing_while_unhurt_is_refused_as_unhurt():
    refusal = refused(solo(), heal=True)
    assert refusal.code == "dz.refuse.unhurt" and refusal.text() == "Red has no damage to heal."


def test_moving_off_the_city_names_the_direction_and_the_district():
    refusal = refused(solo(), move="n")
    assert refusal.code == "dz.refuse.off_city"
    assert refusal.text() == "Going north from A1 leaves the city: move onto a district card."
    assert refused(solo(), move="up").code == "dz.refuse.value"


def test_a_corner_already_taken_is_refused_naming_whose_start_it_is():
    game = Play(("red", "blue")).answer(corner="se")
    refusal = refused(game, corner="se")
    assert refusal.code == "dz.refuse.corner_taken" and "Red" in refusal.text()
    assert refused(game, corner="middle").code == "dz.refuse.value"


def fight_with(*items: Gear) -> Play:
    game = force(solo(), items=items)
    return game.answer(move="e").answer(found="district").roll(5).answer(outcome="zombies").answer(zombies=1)


def test_a_one_handed_item_with_a_dual_wieldable_one_is_refused_as_one_item_per_fight():
    game = fight_with(Gear("one", 1), Gear("dual", 1), Gear("dual", 2))
    refusal = refused(game, use=[0, 1])
    assert refusal.code == "dz.refuse.dual" and "dual-wieldable" in refusal.text()
    assert refused(game, use=[1, 2, 0]).code == "dz.refuse.dual"
    assert refused(game, use=[1, 1]).code == "dz.refuse.same_item"
    assert refused(game, use=[7]).code == "dz.refuse.item"
    assert refused(game, use=[True]).code == "dz.refuse.item"  # true is not item 1
    game.answer(use=[1, 2])


def test_an_item_that_adds_no_attack_is_not_a_weapon():
    game = fight_with(Gear("one", 1), Gear("free", 0, 2))
    assert refused(game, use=[1]).code == "dz.refuse.no_attack"


def test_only_an_item_used_in_the_fight_can_be_spent():
    game = fight_with(Gear("one", 1), Gear("one", 2))
    game.answer(use=[0]).roll(6, 6, 6).roll(1).answer(pairs={"r1": "b1", "r2": "none", "r3": "none"})
    assert game.step == "used"
    assert refused(game, discard=1).code == "dz.refuse.not_used"
    assert refused(game, discard=0.0).code == "dz.refuse.item"  # 0.0 is not item 0 (a traceback before)
    game.answer(discard=0)


def test_meeting_refusals_name_who_is_not_here_and_who_was_fought():
    game = two_players(face_up_event="skip")
    force(game, "red", pos=(4, 4))
    game.state = game.state.with_cell((4, 4), up=True)
    game.answer(move="w")
    assert game.step == "meet"
    assert refused(game, fight="yellow").code == "dz.refuse.value"  # not a player of this game
    game.state = game.state.with_survivor("red", pos=(4, 3))
    assert refused(game, fight="red").code == "dz.refuse.not_here"
    game.state = replace(game.state.with_survivor("red", pos=(4, 4)), fought=("red",))
    assert refused(game, fight="red").code == "dz.refuse.fought"
    assert refused(game, give="red:9:blue").code == "dz.refuse.give"


def test_the_spoils_refuse_an_objective_the_loser_lacks_or_the_winner_already_holds():
    game = two_players(face_up_event="skip")
    force(game, "red", pos=(4, 4))
    game.state = game.state.with_cell((4, 4), up=True)
    game.answer(move="w").answer(fight="red").roll(6, 6).roll(1, 1)
    assert game.step == "spoils" and game.seat == "blue"
    assert refused(game, spoils="objective").code == "dz.refuse.no_objective"
    force(game, "red", objective=True)
    force(game, "blue", objective=True)
    assert refused(game, spoils="objective").code == "dz.refuse.one_objective"
    assert refused(game, spoils="item:0").code == "dz.refuse.item"


def test_two_answers_at_once_an_unknown_field_or_no_answer_are_each_said():
    game = force(solo(), damage=1)
    assert refused(game, move="e", heal=True).code == "dz.refuse.one_answer"
    assert refused(game, fly="e").code == "dz.refuse.field_unknown"
    assert refused(game).code == "dz.refuse.no_answer"


@pytest.mark.parametrize(("value", "english"), [
    ("5", 'Enter a whole number from 1 to 6, not the text "5".'),
    (True, "Enter a whole number from 1 to 6, not true (a yes-or-no value)."),
    (4.0, "Enter a whole number from 1 to 6, not the number 4.0."),
    (None, "Enter a whole number from 1 to 6, not nothing (null)."),
    ([3], "Enter a whole number from 1 to 6, not a list."),
    (7, "Enter a whole number from 1 to 6, not the number 7."),
    ("\ud800", 'Enter a whole number from 1 to 6, not the text "\ufffd".'),
])
def test_a_number_of_the_wrong_type_says_what_was_expected_and_what_came(value, english):
    refusal = refused(Play(), attack=value)
    assert refusal.code == "dz.refuse.number" and refusal.text() == english
    refusal.text("vi").encode("utf-8")  # a lone surrogate is never repeated


def test_an_answer_that_is_not_an_object_or_names_no_seat_of_the_game_says_so():
    game = Play()
    for action, code in (([1], "dz.refuse.answer_object"), ({"seat": 3, "attack": 2}, "dz.refuse.seat_unknown"),
                         ({"seat": "\ud800", "attack": 2}, "dz.refuse.seat_unknown")):
        with pytest.raises(IllegalAction) as caught:
            dz.decide(game.state, action)
        assert caught.value.code == code
        json.dumps(caught.value.text("zh-Hant"), ensure_ascii=False).encode("utf-8")


def test_a_cup_event_the_game_did_not_ask_for_is_refused():
    game = solo().answer(move="e").answer(found="district")
    for event in ({"roll": [7]}, {"roll": [1, 2]}, {"roll": ["3"]}, {"roll": 3}, {"pick": 0}, {"roll": [True]}):
        with pytest.raises(IllegalAction) as caught:
            dz.apply(game.state, event)
        assert caught.value.code == "dz.refuse.cup"


def test_the_start_refusals_name_the_option_and_its_values():
    with pytest.raises(IllegalAction) as caught:
        dz.start(["red"], {"box_dice": "six"})
    assert caught.value.text() == 'The table option "box_dice" takes one of "false" and "true", not the text "six".'
    with pytest.raises(IllegalAction) as caught:
        dz.start(["red"], {"dice": 6})
    assert '"dice"' in caught.value.text() and '"box_dice"' not in caught.value.text()


# -- every JSON type, never a traceback ----------------------------------------------------------------------------

TEXT = st.one_of(st.text(max_size=8), st.sampled_from(["\ud800", "red", "nw", "e", "6x5", "true", "5", "", "r1"]))
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.integers(), st.floats(allow_nan=True), TEXT)
JSON = st.recursive(SCALAR, lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(TEXT, inner, max_size=3), max_leaves=6)
FIELDS = ["corner", "attack", "health", "move", "heal", "found", "outcome", "zombies", "kind", "bonus", "drop",
          "take", "use", "pairs", "keep", "discard", "fight", "give", "spoils", "seat", "x"]


@fuzz_settings(300)
@given(JSON, st.one_of(st.none(), JSON), st.one_of(st.none(), JSON))
def test_property_the_start_takes_any_json_and_refuses_with_a_code(players, options, position):
    try:
        dz.start(players, options, position)
    except IllegalAction as refusal:
        for lang in LANGS:
            refusal.text(lang).encode("utf-8")


@fuzz_settings(200)
@given(st.lists(st.sampled_from(["red", "yellow", "blue", "green"]), min_size=1, max_size=4, unique=True),
       st.fixed_dictionaries({"grid": st.sampled_from(["4x4", "5x5", "6x5"]), "box_dice": st.booleans(),
                              "face_up_event": st.sampled_from(["roll", "skip"])}),
       st.data())
def test_property_the_start_takes_any_json_option_value(players, options, data):
    name = data.draw(st.sampled_from(sorted(options)))
    options = {**options, name: data.draw(JSON)}
    try:
        dz.start(players, options)
    except IllegalAction as refusal:
        assert refusal.code == "dz.refuse.option_value"


def reachable(seed: int, steps: int):
    """A state some way into a random game (the cup and random legal answers)."""
    rng = random.Random(seed)
    state = dz.start(["red", "yellow", "blue"][:1 + seed % 3], {"grid": "4x4"})
    for _ in range(steps):
        if state.over:
            break
        request = dz.cup_request(state)
        if request is not None:
            state = dz.apply(state, cup_event(request, rng))
            continue
        prompt = dz.prompt(state)
        state = dz.apply(state, random_answer(dz, state, prompt.seats[0], rng))
    return state


@fuzz_settings(400)
@given(st.integers(0, 40), st.integers(0, 120), st.sampled_from(FIELDS), JSON, st.booleans(), st.data())
def test_property_any_json_value_in_any_answer_field_is_played_or_refused_with_a_code(seed, steps, field, value,
                                                                                       own_seat, data):
    state = reachable(seed, steps)
    seat = dz.prompt(state).seats[0] if own_seat and dz.prompt(state) else data.draw(JSON)
    action = {"seat": seat, field: value}
    try:
        events = dz.decide(state, action)
    except Refusal as refusal:
        assert isinstance(refusal, IllegalAction)
        for lang in LANGS:
            text = refusal.text(lang)
            assert not re.search(r"\{[a-z_]+\}", text), text  # every placeholder filled (a value may hold "{")
            text.encode("utf-8")
        return
    after = state
    for event in events:
        after = dz.apply(after, event)
    json.dumps(dz.record(after))


def test_every_refusal_code_is_in_the_catalogue():
    books = catalogue()
    source = (dz.engine.__file__)
    import re
    codes = set(re.findall(r'"(dz\.refuse\.[a-z_]+)"', open(source, encoding="utf-8").read()))
    assert len(codes) >= 30
    for code in codes:
        for lang in LANGS:
            assert books.has(code, lang), (code, lang)


def test_a_choice_sent_as_something_other_than_true_says_to_send_true():
    game = force(solo(), damage=1)
    refusal = refused(game, heal=1)
    assert refusal.code == "dz.refuse.true" and refusal.text() == '"heal" is chosen by sending true, not the number 1.'
