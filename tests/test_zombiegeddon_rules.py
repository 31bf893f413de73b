"""Zombiegeddon as the rulebook says it (seed 002, ../shared/rules/other-games.md): two actions a turn, the switch to
post-bomb with its checklist, who starts post-bomb (ties under both table options), the score sheet (every scoring
rule, the set bonus at every count, both options), and no entry seen by another seat before its reveal, checked on
every message the Table sends."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from test_every_seat_asked_can_answer import accepted

from companion.catalogue import LANGUAGES, catalogue
from companion.contract import NUMBER, IllegalAction, Message
from companion.games import GAMES
from companion.games import zombiegeddon as zg
from companion.games.zombiegeddon.rules import Sheet, lines
from companion.simulate import random_answer, random_game
from companion.store import EventStore
from companion.table import Table

FOUR = ["red", "yellow", "blue", "green"]


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """The game in the registry and its words in the catalogue (also before its registry line exists)."""
    monkeypatch.setitem(GAMES, zg.NAME, zg)
    catalogue.cache_clear()
    yield
    catalogue.cache_clear()


def play(state, *actions):
    for action in actions:
        state = zg.apply(state, zg.decide(state, action)[0])
    return state


def keys(state, since=0):
    return [entry.message.key for entry in state.narration[since:]]


def turn(seat, act="action"):
    return {"seat": seat, "act": act}


def to_largest(players=FOUR, options=None):
    state = zg.start(players, options)
    return play(state, turn(players[0], "phase_end"))


def sheet(seat, food=0, food_points=0, zombies=0, zombie_points=0, tokens=0, hand_in=True):
    values = dict(food=food, food_points=food_points, zombies=zombies, zombie_points=zombie_points, tokens=tokens)
    out = [{"seat": seat, "line": line, "number": values.get(line, 0)} for line in lines()]
    return out + ([{"seat": seat, "sheet": "hand_in"}] if hand_in else [])


# -- turns ------------------------------------------------------------------------------------------------------


def test_two_actions_a_turn_counted_then_clockwise_from_the_youngest():
    state = zg.start(["blue", "red", "green"])
    q = zg.question(state, "blue")
    assert q.kind == "pick" and [c.slot for c in q.choices] == [1, 2, 6]
    assert (q.title.key, q.title.params) == ("zg.q.turn", {"colour": "blue", "number": 1})
    assert zg.question(state, "red") is None
    state = play(state, turn("blue"))
    assert state.turn == "blue" and state.actions == 1
    assert zg.question(state, "blue").title.params["number"] == 2
    state = play(state, turn("blue"))
    assert (state.turn, state.actions, state.round) == ("red", 0, 2)
    state = play(state, turn("red", "pass"), turn("green"), turn("green"))
    assert state.turn == "blue"
    assert keys(state)[-6:] == ["zg.n.turn", "zg.n.pass", "zg.n.turn", "zg.n.action", "zg.n.action", "zg.n.turn"]
    with pytest.raises(IllegalAction) as refused:
        play(state, turn("red"))
    assert str(refused.value) == "It is Blue's turn, not Red's."


def test_the_switch_says_the_checklist_as_things_to_do_with_the_pieces_then_asks_everyone_in_secret():
    state = zg.start(FOUR)
    state = play(state, turn("red"), turn("red"), turn("yellow", "phase_end"))
    told = state.narration[-7:]
    assert [e.message.key for e in told] == [
        "zg.n.pre_over", "zg.n.take_remaining", "zg.n.check.remove", "zg.n.check.shuffle", "zg.n.check.figures",
        "zg.n.check.tokens", "zg.n.largest_ask"]
    assert [e.act for e in told] == [False, True, True, True, True, True, False]
    english = [catalogue().text(e.message) for e in told[2:6]]
    assert english == ["Remove every disc no figure can reach, except barricades and sewers",
                       "Shuffle the 88 white post-bomb discs and place them face up at random on the board",
                       "Each player places his figures in the shelters holding his supply tokens",
                       "Everyone takes his supply tokens back"]
    prompt = zg.prompt(state)
    assert prompt.kind == "number" and prompt.secret and prompt.seats == tuple(FOUR)
    q = zg.question(state, "green")
    assert (q.kind, q.low, q.high, q.field, q.secret, dict(q.answer)) == ("number", 0, 20, "largest", True,
                                                                          {"seat": "green"})


# -- who starts post-bomb ---------------------------------------------------------------------------------------


def largest(seat, n):
    return {"seat": seat, "largest": n}


def test_the_largest_zombie_disc_starts_post_bomb_and_the_turns_go_clockwise_from_him():
    state = play(to_largest(), largest("red", 4), largest("yellow", 9))
    assert zg.question(state, "yellow").answered and not zg.question(state, "blue").answered
    state = play(state, largest("yellow", 3))  # changed before the reveal
    assert state.phase == "largest" and state.revealed == ()
    state = play(state, largest("blue", 7), largest("green", 2))
    assert state.revealed == ({"red": 4, "yellow": 3, "blue": 7, "green": 2},)
    assert (state.phase, state.starter, state.turn) == ("post", "blue", "blue")
    assert [(e.message.key, dict(e.message.params)) for e in state.narration[-3:]] == [
        ("zg.n.largest", {"colour": "green", "number": 2}), ("zg.n.starter", {"colour": "blue", "number": 7}),
        ("zg.n.post_start", {"colour": "blue"})]
    state = play(state, turn("blue"), turn("blue"))
    assert state.turn == "green"
    state = play(state, turn("green"), turn("green"))
    assert state.turn == "red"


def test_a_tie_with_the_re_entry_option_asks_only_the_tied_for_their_next_largest_until_one_is_larger():
    state = play(to_largest(), largest("red", 5), largest("yellow", 8), largest("blue", 8), largest("green", 1))
    assert state.phase == "largest" and state.asked == ("yellow", "blue") and state.below == 8
    assert keys(state)[-2:] == ["zg.n.tie", "zg.n.tie_reenter"]
    assert catalogue().text(state.narration[-2].message) == "A tie at 8: Yellow and Blue"
    assert zg.question(state, "red") is None and zg.question(state, "blue").high == 8
    with pytest.raises(IllegalAction, match="cannot be above the tie, 8"):
        play(state, largest("blue", 9))
    with pytest.raises(IllegalAction, match="only the tied do"):
        play(state, largest("red", 3))
    state = play(state, largest("yellow", 6), largest("blue", 6))  # tied again
    assert state.asked == ("yellow", "blue") and state.below == 6
    state = play(state, largest("blue", 2), largest("yellow", 4))
    assert state.starter == "yellow" and state.phase == "post"
    assert state.revealed[-1] == {"yellow": 4, "blue": 2}
    assert catalogue().text(state.narration[-2].message) == \
        "Yellow's next largest zombie disc is the larger (4): Yellow starts post-bomb"


def test_a_tie_with_nothing_left_to_compare_goes_to_the_earliest_in_turn_order():
    state = play(to_largest(), *(largest(s, 3 if s in ("yellow", "green") else 0) for s in FOUR))
    state = play(state, largest("green", 0), largest("yellow", 0))
    assert state.starter == "yellow" and keys(state)[-3:] == ["zg.n.tie", "zg.n.tie_none", "zg.n.post_start"]


def test_a_tie_with_the_turn_order_option_goes_to_the_earliest_of_the_tied_at_once():
    state = to_largest(["green", "blue", "red"], {"post_bomb_tie": "turn_order"})
    state = play(state, largest("green", 2), largest("blue", 6), largest("red", 6))
    assert state.starter == "blue" and keys(state)[-3:] == ["zg.n.tie", "zg.n.tie_order", "zg.n.post_start"]
    assert catalogue().text(state.narration[-2].message) == \
        "Blue, the earliest of them in turn order, starts post-bomb"


def test_the_table_may_close_the_entry_a_missing_player_counts_0():
    state = play(to_largest(["red", "blue"]), largest("blue", 1), {"close": True})
    assert state.starter == "blue" and "zg.n.no_entry" in keys(state)


# -- the score sheet --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "bonus"), [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 20), (7, 20),
                                              (12, 20)])
def test_the_set_bonus_at_every_count_for_each_kind_that_scores_on_top_of_its_printed_values(count, bonus):
    assert zg.set_bonus(count) == bonus
    assert zg.score({"food": count, "food_points": 2 * count})["total"] == 2 * count + bonus
    assert zg.score({"zombies": count, "zombie_points": count}, "scoring_kinds")["total"] == count + bonus


@pytest.mark.parametrize("count", [0, 1, 3, 6, 12])
def test_printed_values_only_gives_no_set_bonus_to_any_kind(count):
    assert zg.score({"food": count, "food_points": 2 * count}, "printed_only")["total"] == 2 * count
    assert zg.score({"zombies": count, "zombie_points": count}, "printed_only")["total"] == count
    assert zg.score({"food": count, "zombies": count, "tokens": 1}, "printed_only")["total"] == 5


@pytest.mark.parametrize("option", ["scoring_kinds", "printed_only"])
def test_weapons_left_at_the_end_score_nothing_neither_printed_value_nor_set_bonus(option):
    assert zg.score({"weapons": 3}, option)["total"] == 0
    assert "weapons" not in lines() and "weapons" not in zg.score({}, option)
    state = post_bomb(["red", "blue"], {"set_bonus": option})
    with pytest.raises(IllegalAction, match="Weapons left at the end score nothing") as refused:
        play(state, *sheet("red", food=1, food_points=2, zombies=1, zombie_points=3, hand_in=False)[:4],
             {"seat": "red", "line": "weapons", "number": 3})
    assert refused.value.text("zh-Hant").startswith("剩餘的武器不計算分數")
    assert [c.action["sheet"] for c in zg.question(play(state, *sheet("red", hand_in=False)), "red").choices] == [
        "hand_in", "food", "zombies", "tokens", "again"]


@pytest.mark.parametrize("option", ["scoring_kinds", "printed_only"])
def test_a_player_with_three_unused_weapons_does_not_beat_one_with_a_delivered_supply_token(option):
    state = post_bomb(["red", "blue"], {"set_bonus": option})
    # Red kept three weapons (no line for them on his sheet: they score nothing); Blue delivered one supply token.
    state = play(state, *sheet("red"), *sheet("blue", tokens=1))
    assert state.winners == ("blue",)
    assert (state.scores["red"]["total"], state.scores["blue"]["total"]) == (0, 5)


def test_every_scoring_rule_printed_values_tokens_set_bonus_per_kind_under_both_options():
    entries = {"food": 3, "food_points": 9, "zombies": 6, "zombie_points": 14, "tokens": 3}
    s = zg.score(entries, "scoring_kinds")
    assert (s["food_points"], s["food_bonus"], s["zombies_points"], s["zombies_bonus"], s["token_points"]) == (
        9, 6, 14, 20, 15)
    assert s["total"] == 9 + 6 + 14 + 20 + 15 == zg.score(entries)["total"]  # the ruling is the default
    printed_only = zg.score(entries, "printed_only")
    assert (printed_only["food_bonus"], printed_only["zombies_bonus"]) == (0, 0)
    assert printed_only["total"] == 9 + 14 + 15


def test_the_sheet_has_one_count_line_and_one_printed_line_per_kind_that_scores_then_the_tokens():
    assert zg.rules.KINDS == ("food", "zombies")
    assert lines() == ("food", "food_points", "zombies", "zombie_points", "tokens")
    assert zg.rules.groups() == {"food": ("food", "food_points"), "zombies": ("zombies", "zombie_points"),
                               "tokens": ("tokens",)}


@pytest.fixture
def water(monkeypatch):
    """A box whose discs show a third kind of supply, water: added where the rules keep the kinds, and nowhere else
    (its words are not in the catalogue)."""
    monkeypatch.setattr(zg.rules, "KINDS", (*zg.rules.KINDS, "water"))
    monkeypatch.setattr(zg.rules, "POINTS_OF", {**zg.rules.POINTS_OF, "water": "water_points"})


def messages_in(value):
    """Every message a view, a question or a board part carries (a {"key", "params"} object), however deep."""
    if isinstance(value, dict):
        if isinstance(value.get("key"), str) and isinstance(value.get("params"), dict):
            yield value
        for inner in value.values():
            yield from messages_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from messages_in(inner)


def test_a_further_kind_of_supply_takes_its_own_sheet_lines_after_the_others_then_the_tokens(water):
    assert zg.rules.lines() == ("food", "food_points", "zombies", "zombie_points", "water", "water_points", "tokens")
    assert zg.rules.groups()["water"] == ("water", "water_points")
    assert zg.rules.sheet_choices() == ("hand_in", "food", "zombies", "water", "tokens", "again")  # pad buttons 1-6
    state = play(post_bomb(["red", "blue"]), *sheet("red", food=1, food_points=2, zombies=1, zombie_points=3,
                                                     hand_in=False)[:4])
    q = zg.question(state, "red")
    assert (q.answer["line"], q.high) == ("water", 99)
    state = play(state, {"seat": "red", "line": "water", "number": 0})
    with pytest.raises(IllegalAction, match="no discs of"):  # no printed numbers without discs, as for food
        play(state, {"seat": "red", "line": "water_points", "number": 4})
    assert zg.question(state, "red").answer["line"] == "water_points" and zg.question(state, "red").high == 300


@pytest.mark.parametrize(("option", "bonus"), [("scoring_kinds", 6), ("printed_only", 0)])
def test_a_further_kind_of_supply_scores_its_printed_numbers_and_its_own_set_bonus_line(water, option, bonus):
    entries = {"food": 1, "food_points": 2, "water": 3, "water_points": 7, "tokens": 1}
    s = zg.score(entries, option)
    assert (s["water"], s["water_points"], s["water_bonus"]) == (3, 7, bonus)  # 3 discs: a set bonus of 6
    assert s["food_bonus"] == (1 if option == "scoring_kinds" else 0)
    assert s["total"] == 2 + s["food_bonus"] + 7 + bonus + 5
    state = post_bomb(["red", "blue"], {"set_bonus": option})
    red = [{"seat": "red", "line": line, "number": entries.get(line, 0)} for line in zg.rules.lines()]
    state = play(state, *red, {"seat": "red", "sheet": "hand_in"}, *sheet("blue", food=1, food_points=16))
    assert state.over and state.scores["red"] == s
    assert state.winners == (("red",) if bonus else ("blue",))  # water's set bonus decides: 21 to 17, or 14 to 16
    said = next(e.message for e in state.narration if e.message.key == "zg.n.score")
    assert [k["params"]["kind"] for k in said.params["kinds"]] == ["food", "zombies", "water"]
    assert said.params["kinds"][2]["params"] == {"kind": "water", "count": 3, "points": 7, "bonus": bonus}


def test_a_further_kind_with_no_words_in_the_catalogue_crashes_nothing_through_a_whole_game(water, tmp_path):
    with EventStore(tmp_path / "water.sqlite3") as store:
        table = Table(store)
        table.new_game(zg.NAME, ["red", "blue"])
        seen = []
        for _ in range(200):
            if table.state.over:
                break
            seen += [table.view(None), *(table.view(s) for s in table.state.players)]
            seen.append(zg.parts(table.state).to_json())
            seen += [[x.to_json() for x in zg.secrets(table.state, s)] for s in table.state.players]
            prompt = zg.prompt(table.state)
            seat = prompt.seats[0]
            if table.state.phase in ("pre", "post"):
                table.answer({"seat": seat, "act": "phase_end"})
            elif table.state.phase == "largest":
                table.answer({"seat": seat, "largest": 5 if seat == "red" else 3})
            elif (question := table.question(seat)).kind == NUMBER:  # water discs with printed numbers
                said = [{**question.answer, question.field: n} for n in (min(7, question.high), 0)]
                table.answer(next(a for a in said if accepted(zg, table.state, a)))
            else:
                table.answer({"seat": seat, "sheet": "hand_in"})
        seen += [table.view(None), zg.parts(table.state).to_json(), table.record()]
        assert table.state.over and table.state.scores["red"]["water"] > 0
        assert "water_bonus" in table.state.scores["blue"]
    books = catalogue()
    found = list(messages_in(seen))
    assert any(m["key"] == "zg.q.line.water" for m in found)  # asked, though the catalogue has no words for it
    for message in found:
        for lang in LANGUAGES:
            assert books.text(Message(message["key"], message["params"]), lang)  # a key at worst, never a crash


@pytest.mark.parametrize(("old", "new"), [("every_kind", "scoring_kinds"), ("not_food_zombies", "printed_only")])
def test_an_old_set_bonus_value_reads_as_the_value_it_now_is(old, new):
    assert zg.start(FOUR, {"set_bonus": old}).options["set_bonus"] == new
    assert zg.score({"food": 2, "food_points": 4}, old) == zg.score({"food": 2, "food_points": 4}, new)
    assert [c.value for c in zg.SETUP.options[0].choices] == ["scoring_kinds", "printed_only"]


def post_bomb(players=FOUR, options=None):
    state = to_largest(players, options)
    state = play(state, *(largest(s, i) for i, s in enumerate(players)))
    return play(state, turn(state.turn, "phase_end"))


def test_sheets_are_filled_in_secret_corrected_until_the_reveal_revealed_at_once_with_the_winner():
    state = post_bomb(["red", "blue"])
    assert keys(state)[-3:] == ["zg.n.post_over", "zg.n.take_remaining", "zg.n.sheet_ask"]
    q = zg.question(state, "red")
    assert (q.kind, q.secret, q.field, dict(q.answer), q.high) == ("number", True, "number",
                                                                   {"seat": "red", "line": "food"}, 99)
    state = play(state, *sheet("red", food=2, food_points=5, tokens=2))
    assert state.phase == "sheet" and state.scores == {}
    done = zg.question(state, "red")
    assert done.answered and done.kind == "pick" and [c.slot for c in done.choices] == [2, 3, 4, 5]
    assert zg.prompt(state).seats == ("blue",)
    # Red corrects his food while Blue is still filling in.
    state = play(state, {"seat": "red", "sheet": "food"})
    assert not state.sheets["red"].ready and zg.question(state, "red").answer["line"] == "food"
    state = play(state, {"seat": "red", "line": "food", "number": 3}, {"seat": "red", "line": "food_points",
                                                                         "number": 8})
    assert zg.question(state, "red").title.key == "zg.q.sheet_check"
    state = play(state, {"seat": "red", "sheet": "hand_in"})
    state = play(state, *sheet("blue", zombies=2, zombie_points=7, tokens=4))
    assert state.over and state.winners == ("blue",)
    assert state.scores["red"]["total"] == 8 + 6 + 10 and state.scores["blue"]["total"] == 7 + 3 + 20
    assert keys(state)[-4:] == ["zg.n.reveal", "zg.n.score", "zg.n.score", "zg.n.winner"]
    assert catalogue().text(state.narration[-1].message) == "Blue wins with 30 points"
    assert catalogue().text(state.narration[-3].message) == (
        "Red: 24 points (food 3 discs: 8 printed + 6 set bonus and zombies 0 discs: 0 printed + 0 set bonus; "
        "supply tokens 2 × 5 = 10)")


def test_a_tie_for_the_win_is_said_plainly_and_both_win():
    state = post_bomb(["red", "blue", "green"], {"set_bonus": "printed_only"})
    state = play(state, *sheet("red", food=2, food_points=6), *sheet("blue", zombies=1, zombie_points=6),
                 *sheet("green", food=1, food_points=1, tokens=1))
    assert state.winners == ("red", "blue", "green")
    assert catalogue().text(state.narration[-1].message) == "A tie for the win at 6 points: Red, Blue and Green"


def test_starting_a_sheet_again_and_what_a_sheet_refuses():
    state = post_bomb(["red", "blue"])
    with pytest.raises(IllegalAction, match="Your sheet asks for the number of food discs now, not the text "
                                            '"tokens"'):
        play(state, {"seat": "red", "line": "tokens", "number": 1})
    with pytest.raises(IllegalAction, match="from 0 to 4, not 5"):
        play(state, *sheet("red", tokens=5))
    state = play(state, {"seat": "red", "line": "food", "number": 0})
    with pytest.raises(IllegalAction, match="no discs of food"):
        play(state, {"seat": "red", "line": "food_points", "number": 3})
    with pytest.raises(IllegalAction, match="Fill in your sheet first: it asks for the printed numbers of your food"):
        play(state, {"seat": "red", "sheet": "hand_in"})  # not before every line is in
    state = play(state, *sheet("red", zombies=2, hand_in=False)[1:], {"seat": "red", "sheet": "again"})
    assert state.sheets["red"].queue == lines()
    state = play(state, *sheet("red", food=6), {"close": True})  # the table closes: Blue's empty sheet
    assert state.over and state.scores["red"]["total"] == 20 and state.scores["blue"]["total"] == 0
    assert "zg.n.sheets_closed" in keys(state)


SHEET_REFUSALS = [
    ({"close": 1}, 'To close the secret entries, send exactly {"close": true}.'),
    ({"close": True, "seat": "red"}, 'To close the secret entries, send exactly {"close": true}.'),
    ({"seat": "red", "line": "food", "number": True},
     "A line of the sheet is a whole number from 0 to 99, not true (a yes-or-no value)."),
    ({"seat": "red", "line": "food", "number": "5"},
     'A line of the sheet is a whole number from 0 to 99, not the text "5".'),
    ({"seat": "red", "line": "food", "number": 2.0},
     "A line of the sheet is a whole number from 0 to 99, not the number 2.0."),
    ({"seat": "red", "line": "food", "number": 100}, "Enter a whole number from 0 to 99, not 100."),
    ({"seat": "red", "line": "food"},
     'This answer needs number, such as {"seat": "red", "line": "food", "number": 3}.'),
    ({"seat": "red", "line": "food", "number": 1, "character": "x"},
     'This answer takes only seat, line, number (such as {"seat": "red", "line": "food", "number": 3}); '
     'the text "character" has no place in it.'),
    ({"seat": "red", "line": "bullets", "number": 1},
     'The sheet\'s lines are food, food_points, zombies, zombie_points, tokens, not the text "bullets".'),
    ({"seat": ["red"]}, "The seat must be one of Red and Blue, not a list."),
    ({"seat": "green", "line": "food", "number": 1}, 'The seat must be one of Red and Blue, not the text "green".'),
    ({"line": "food", "number": 1}, 'An answer names its seat, such as {"seat": "red", "line": "food", "number": 3}.'),
    ({"seat": "red"}, 'On your sheet, answer a line such as {"seat": "red", "line": "food", "number": 3}, or a choice '
                      'such as {"seat": "red", "sheet": "hand_in"}.'),
    ({"seat": "red", "sheet": {}}, "On a finished sheet, choose one of hand_in, food, zombies, tokens, again, not an "
                                   "object of fields."),
    ({"seat": "red", "sheet": "again"}, "Fill in your sheet first: it asks for the number of food discs now."),
    ({"seat": "red", "sheet": "weapons"}, "Weapons left at the end score nothing, neither printed numbers nor a set "
                                          "bonus: the sheet has no weapons line."),
    (["red"], 'An answer is an object such as {"seat": "red", "line": "food", "number": 3}, not a list.'),
]


@pytest.mark.parametrize(("answer", "reason"), SHEET_REFUSALS)
def test_every_sheet_refusal_names_its_real_reason(answer, reason):
    state = post_bomb(["red", "blue"])
    with pytest.raises(IllegalAction) as refused:
        play(state, answer)
    assert str(refused.value) == reason
    for lang in LANGUAGES:
        assert "{" not in refused.value.text(lang).replace('{"', "") and refused.value.text(lang)


def test_a_finished_sheet_names_the_choices_it_takes():
    state = play(post_bomb(["red", "blue"]), *sheet("red", hand_in=False))
    with pytest.raises(IllegalAction, match='choose one of hand_in, food, zombies, tokens, again, not the text "x"'):
        play(state, {"seat": "red", "sheet": "x"})
    with pytest.raises(IllegalAction, match="Every line of your sheet is in"):
        play(state, {"seat": "red", "line": "food", "number": 1})


TURN_REFUSALS = [
    ({"seat": "red", "act": "jump"}, 'On a turn, act is one of action, pass, phase_end, not the text "jump".'),
    ({"seat": "red", "act": 1}, "On a turn, act is one of action, pass, phase_end, not the number 1."),
    ({"seat": "red"}, 'This answer needs act, such as {"seat": "red", "act": "action"}.'),
    ({"seat": "red", "act": "action", "largest": 3},
     'This answer takes only seat, act (such as {"seat": "red", "act": "action"}); the text "largest" has no place '
     "in it."),
    ({"seat": "yellow", "act": "action"}, "It is Red's turn, not Yellow's."),
    ({"close": True}, "There is no secret entry to close now."),
    ("action", 'An answer is an object such as {"seat": "red", "act": "action"}, not the text "action".'),
]


@pytest.mark.parametrize(("answer", "reason"), TURN_REFUSALS)
def test_every_turn_refusal_names_its_real_reason(answer, reason):
    with pytest.raises(IllegalAction) as refused:
        play(zg.start(FOUR), answer)
    assert str(refused.value) == reason


LARGEST_REFUSALS = [
    ({"seat": "red", "largest": "5"}, 'Your largest zombie disc must be a whole number from 0 to 20, not the text '
                                      '"5".'),
    ({"seat": "red", "largest": True}, "Your largest zombie disc must be a whole number from 0 to 20, not true (a "
                                       "yes-or-no value)."),
    ({"seat": "red", "largest": None}, "Your largest zombie disc must be a whole number from 0 to 20, not nothing "
                                       "(null)."),
    ({"seat": "red", "largest": 21}, "Your largest zombie disc is a number from 0 to 20, not 21."),
    ({"seat": "red", "act": "action"},
     'This answer takes only seat, largest (such as {"seat": "red", "largest": 5}); the text "act" has no place in '
     "it."),
]


@pytest.mark.parametrize(("answer", "reason"), LARGEST_REFUSALS)
def test_every_largest_disc_refusal_names_its_real_reason(answer, reason):
    with pytest.raises(IllegalAction) as refused:
        play(to_largest(), answer)
    assert str(refused.value) == reason


def test_the_sheet_check_says_the_set_bonus_of_the_table_option():
    for option, key in (("scoring_kinds", "zg.fact.sheet_check"), ("printed_only", "zg.fact.sheet_check.printed_only")):
        state = play(post_bomb(["red", "blue"], {"set_bonus": option}), *sheet("red", hand_in=False))
        assert [f.key for f in zg.question(state, "red").facts] == [key]


START_REFUSALS = [
    (("red", "blue"), {}, None, None),  # a tuple is a list here: accepted
    ("red", None, None, 'The players must be a list of 2 to 4 colours, not the text "red".'),
    (["yellow", {}], None, None,
     "Each player is one of the colours Red, Yellow, Blue and Green, not an object of fields."),
    (["red", "purple"], None, None,
     'Each player is one of the colours Red, Yellow, Blue and Green, not the text "purple".'),
    (["red"], None, None, "Zombiegeddon is for 2 to 4 players, not 1."),
    (["red", "red"], None, None, "Each player needs his own colour: Red is given twice."),
    (["red", "blue"], ["set_bonus"], None, "The table options must be an object of names and values, not a list."),
    (["red", "blue"], {"bonus": 1}, None,
     'Zombiegeddon has no table option the text "bonus"; its options: set_bonus, post_bomb_tie.'),
    (["red", "blue"], {"set_bonus": "never"}, None,
     'The table option set_bonus is "scoring_kinds" or "printed_only", not the text "never".'),
    (["red", "blue"], {"set_bonus": True}, None,
     'The table option set_bonus is "scoring_kinds" or "printed_only", not true (a yes-or-no value).'),
    (["red", "blue"], {"post_bomb_tie": ["reenter"]}, None,
     'The table option post_bomb_tie is "reenter" or "turn_order", not a list.'),
    (["red", "blue"], None, "post", 'A position must be an object such as {"phase": "post", "turn": "red"}, not the '
                                    'text "post".'),
    (["red", "blue"], None, {"phase": "post", "round": 3}, 'A position has only phase, turn, starter, not the text '
                                                           '"round".'),
    (["red", "blue"], None, {"phase": ["post"]}, 'A position\'s phase is "pre", "post" or "sheet", not a list.'),
    (["red", "blue"], None, {"phase": "post", "turn": {"red": 1}},
     "A position's turn is a seat of this game (Red and Blue), not an object of fields."),
    (["red", "blue"], None, {"phase": "post", "turn": "red", "starter": "green"},
     'A position\'s starter is a seat of this game (Red and Blue), not the text "green".'),
]


@pytest.mark.parametrize(("players", "options", "position", "reason"), START_REFUSALS)
def test_the_start_checks_the_type_of_every_input_and_names_what_it_expected(players, options, position, reason):
    if reason is None:
        assert zg.start(players, options, position).players == tuple(players)
        return
    with pytest.raises(IllegalAction) as refused:
        zg.start(players, options, position)
    assert str(refused.value) == reason
    for lang in LANGUAGES:
        assert refused.value.text(lang) != refused.value.code


def test_setup_options_and_a_position():
    assert zg.start(FOUR, {"post_bomb_tie": "turn_order"}).options["post_bomb_tie"] == "turn_order"
    assert zg.start(FOUR).options == {"set_bonus": "scoring_kinds", "post_bomb_tie": "reenter"}
    state = zg.start(FOUR, position={"phase": "post", "turn": "blue", "starter": "blue"})
    assert (state.phase, state.turn, state.order) == ("post", "blue", ("blue", "green", "red", "yellow"))


# -- secrets, on every message ----------------------------------------------------------------------------------


def other_entries(state, seat):
    """The state with every other seat's secret entries changed: largest discs and score sheets."""
    entries = {s: n + 1 if s != seat else n for s, n in state.entries.items()}
    sheets = {s: sh if s == seat else replace(sh, entries={k: v + 1 for k, v in sh.entries.items()})
              for s, sh in state.sheets.items()}
    return replace(state, entries=entries, sheets=sheets)


def told(state, seat):
    """Everything the rules tell `seat` (None: the table screen and the host, who see every waiting question)."""
    prompt = zg.prompt(state)
    questions = [zg.question(state, s) for s in state.players] if seat is None else [zg.question(state, seat)]
    return json.dumps([zg.view(state, seat), prompt.public_json() if prompt else None,
                       [q.to_json() if q else None for q in questions]], sort_keys=True)


def test_no_seat_and_no_screen_sees_another_seats_entry_before_the_reveal_on_every_message(tmp_path):
    checked = 0
    for seed, players in ((1, FOUR), (2, ["red", "blue"]), (3, ["yellow", "green", "red"])):
        rng = random.Random(seed)
        with EventStore(tmp_path / f"z{seed}.sqlite3") as store:
            table = Table(store)
            received = []
            table.subscribe(lambda t=table, r=received: r.append(
                (t.state, {s: t.view(s) for s in [*t.state.players, None]})))
            table.new_game(zg.NAME, players, {"post_bomb_tie": rng.choice(["reenter", "turn_order"])})
            while not table.state.over:
                prompt = zg.prompt(table.state)
                seat = rng.choice(prompt.seats)
                if table.state.phase in ("pre", "post"):  # a long enough game
                    options = prompt.options[seat]
                    table.answer(rng.choice(options[:1] if rng.random() < 0.9 else options))
                else:
                    table.answer(random_answer(zg, table.state, seat, rng))
        for state, views in received:
            secret = state.phase in ("largest", "sheet")
            for seat, view in views.items():
                if secret:
                    assert told(other_entries(state, seat), seat) == told(state, seat), "an entry leaked"
                if seat is None:
                    assert "sheet" not in view and "largest" not in view and "question" not in view
                else:
                    text = json.dumps(view)
                    others = [s for s in state.players if s != seat]
                    assert view["question"] is None or view["question"]["seat"] == seat
                    if secret:
                        assert not any(f'"{o}": {{"food"' in text for o in others)
                checked += 1
    assert checked > 300


def test_every_message_renders_in_every_language_through_whole_games():
    found = []
    for seed in range(4):
        _events, state = random_game(zg, FOUR[:2 + seed % 3], random.Random(seed),
                                     {"post_bomb_tie": ("reenter", "turn_order")[seed % 2]})
        found += [e.message for e in state.narration]
        for seat in state.players:
            found += [state_q.title for state_q in [zg.question(state, seat)] if state_q]
    books = catalogue()
    assert len({m.key for m in found}) > 15
    for message in found:
        for lang in LANGUAGES:
            rendered = books.text(message, lang)
            assert books.has(message.key, lang) and "{" not in rendered, (lang, message, rendered)
    assert "核爆前" in books.text(found[0], "zh-Hant") and "核爆前" in books.text(found[0], "zh-Hans")


def test_a_sheet_is_the_owners_alone_in_the_seat_view():
    state = post_bomb(["red", "blue"])
    state = play(state, *sheet("red", food=2, food_points=5, hand_in=False))
    assert zg.view(state, "red")["sheet"]["food_points"] == 5 and zg.view(state, "red")["sheet_score"]["total"] == 8
    assert "sheet" not in zg.view(state, None) and zg.view(state, "blue")["sheet"] == {}
    assert state.sheets["blue"] == Sheet()


def test_through_the_table_a_turns_action_can_be_taken_back_a_secret_entry_cannot(tmp_path):
    with EventStore(tmp_path / "undo.sqlite3") as store:
        table = Table(store)
        table.new_game(zg.NAME, ["red", "blue"])
        table.answer({"seat": "red", "act": "action"}, question=table.view("red")["question"]["id"])
        assert table.can_undo == 1
        table.undo()
        assert table.state.actions == 0 and [e["key"] for e in table.view(None)["undone"]] == ["zg.n.action"]
        table.answer({"seat": "red", "act": "phase_end"})
        table.answer({"seat": "red", "largest": 5})
        assert table.can_undo == 0  # a secret entry is never taken back; its owner changes it until the reveal
        table.answer({"seat": "red", "largest": 3})
        table.answer({"seat": "blue", "largest": 4})
        assert table.state.starter == "blue" and table.state.revealed == ({"red": 3, "blue": 4},)
        again = Table(store)
        again.resume()
        assert again.record() == table.record()

