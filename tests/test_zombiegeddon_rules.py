"""Zombiegeddon as the rulebook says it (seed 002, ../shared/rules/other-games.md): two actions a turn, the switch to
post-bomb with its checklist, who starts post-bomb (ties under both table options), the score sheet (every scoring
rule, the set bonus at every count, both options), and no entry seen by another seat before its reveal, checked on
every message the Table sends."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from companion.catalogue import LANGUAGES, catalogue
from companion.games import GAMES
from companion.games import zombiegeddon as zg
from companion.games.base import IllegalAction
from companion.games.zombiegeddon.rules import LINES, Sheet
from companion.simulate import random_game
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


def sheet(seat, food=0, food_points=0, zombies=0, zombie_points=0, weapons=0, tokens=0, hand_in=True):
    values = dict(food=food, food_points=food_points, zombies=zombies, zombie_points=zombie_points, weapons=weapons,
                  tokens=tokens)
    out = [{"seat": seat, "line": line, "number": values[line]} for line in LINES]
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
def test_the_set_bonus_at_every_count(count, bonus):
    assert zg.set_bonus(count) == bonus
    assert zg.score({"weapons": count})["total"] == bonus  # weapons: no printed value, the set bonus only
    assert zg.score({"weapons": count}, "not_food_zombies")["total"] == bonus
    assert zg.score({"food": count, "food_points": 2 * count})["total"] == 2 * count + bonus
    assert zg.score({"food": count, "food_points": 2 * count}, "not_food_zombies")["total"] == 2 * count
    assert zg.score({"zombies": count, "zombie_points": count}, "not_food_zombies")["total"] == count


def test_every_scoring_rule_printed_values_tokens_set_bonus_per_kind():
    entries = {"food": 3, "food_points": 9, "zombies": 6, "zombie_points": 14, "weapons": 2, "tokens": 3}
    s = zg.score(entries)
    assert (s["food_points"], s["food_bonus"], s["zombies_points"], s["zombies_bonus"], s["weapons_points"],
            s["weapons_bonus"], s["token_points"]) == (9, 6, 14, 20, 0, 3, 15)
    assert s["total"] == 9 + 6 + 14 + 20 + 3 + 15
    printed_only = zg.score(entries, "not_food_zombies")
    assert (printed_only["food_bonus"], printed_only["zombies_bonus"], printed_only["weapons_bonus"]) == (0, 0, 3)
    assert printed_only["total"] == 9 + 14 + 3 + 15


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
    state = play(state, *sheet("red", food=2, food_points=5, weapons=1, tokens=2))
    assert state.phase == "sheet" and state.scores == {}
    done = zg.question(state, "red")
    assert done.answered and done.kind == "pick" and [c.slot for c in done.choices] == [2, 3, 4, 5, 6]
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
    assert state.scores["red"]["total"] == 8 + 6 + 1 + 10 and state.scores["blue"]["total"] == 7 + 3 + 20
    assert keys(state)[-4:] == ["zg.n.reveal", "zg.n.score", "zg.n.score", "zg.n.winner"]
    assert catalogue().text(state.narration[-1].message) == "Blue wins with 30 points"
    assert catalogue().text(state.narration[-3].message) == (
        "Red: 25 points. Food 3 discs: 8 printed + 6 set bonus; zombies 0 discs: 0 printed + 0 set bonus; "
        "weapons 1 discs: 1 set bonus; supply tokens 2 × 5 = 10")


def test_a_tie_for_the_win_is_said_plainly_and_both_win():
    state = post_bomb(["red", "blue", "green"], {"set_bonus": "not_food_zombies"})
    state = play(state, *sheet("red", food=2, food_points=6), *sheet("blue", zombies=1, zombie_points=6),
                 *sheet("green", weapons=3))
    assert state.winners == ("red", "blue", "green")
    assert catalogue().text(state.narration[-1].message) == "A tie for the win at 6 points: Red, Blue and Green"


def test_starting_a_sheet_again_and_what_a_sheet_refuses():
    state = post_bomb(["red", "blue"])
    with pytest.raises(IllegalAction, match="not the line of your sheet"):
        play(state, {"seat": "red", "line": "tokens", "number": 1})
    with pytest.raises(IllegalAction, match="from 0 to 4"):
        play(state, *sheet("red", tokens=5))
    state = play(state, {"seat": "red", "line": "food", "number": 0})
    with pytest.raises(IllegalAction, match="no discs of food"):
        play(state, {"seat": "red", "line": "food_points", "number": 3})
    with pytest.raises(IllegalAction, match="not the line"):
        play(state, {"seat": "red", "sheet": "hand_in"})  # not before every line is in
    state = play(state, *sheet("red", weapons=2, hand_in=False)[1:], {"seat": "red", "sheet": "again"})
    assert state.sheets["red"].queue == LINES
    for odd in ({"close": 1}, {"close": True, "seat": "red"}, {"seat": "red", "line": "food", "number": True},
                {"seat": "red", "line": "food", "number": 2.0}, {"seat": ["red"]}, {"seat": "red", "sheet": {}}):
        with pytest.raises(IllegalAction):
            play(state, odd)
    state = play(state, *sheet("red", weapons=6), {"close": True})  # the table closes: Blue's empty sheet
    assert state.over and state.scores["red"]["total"] == 20 and state.scores["blue"]["total"] == 0
    assert "zg.n.sheets_closed" in keys(state)


def test_setup_refusals_and_options():
    for players in (["red"], ["red", "red"], ["red", "purple"], FOUR + ["black"]):
        with pytest.raises(IllegalAction):
            zg.start(players)
    with pytest.raises(IllegalAction, match="Unknown table option"):
        zg.start(FOUR, {"set_bonus": "never"})
    assert zg.start(FOUR, {"post_bomb_tie": "turn_order"}).options["post_bomb_tie"] == "turn_order"
    state = zg.start(FOUR, position={"phase": "post", "turn": "blue", "starter": "blue"})
    assert (state.phase, state.turn, state.order) == ("post", "blue", ("blue", "green", "red", "yellow"))
    with pytest.raises(IllegalAction):
        zg.start(FOUR, position={"phase": "nowhere"})


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
                options = prompt.options[seat]
                if table.state.phase in ("pre", "post"):  # a long enough game
                    options = options[:1] if rng.random() < 0.9 else options
                table.answer(rng.choice(options))
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
