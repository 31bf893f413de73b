"""The board is the truth, in Zombiegeddon: the table corrects the phase, whose turn it is and the actions done in
it, who starts post-bomb, and, once revealed, each line of the score sheets (companion/games/zombiegeddon/edits.py).
Each fact the table may correct is what the board shows; a correction changes the board and the game goes on to its
end; an impossible board is refused in one line; no secret (a largest zombie disc or a sheet line entered, not yet
revealed) is ever a fact to correct; undo gives back the same record and a save file read again keeps it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.catalogue import LANGUAGES, catalogue
from companion.contract import IllegalAction
from companion.correction import corrected
from companion.games import zombiegeddon as zg
from companion.games.zombiegeddon.rules import KINDS, POINTS_OF, lines
from companion.simulate import random_answer
from companion.store import EventStore
from companion.table import Table, TableError

SCRIPT = json.loads((Path(__file__).parent / "scripts" / "zombiegeddon.json").read_text())
THREE = ["red", "yellow", "blue"]


@pytest.fixture(autouse=True, scope="module")
def fresh_catalogue():
    """Read afresh by the modules after this one (a game only the tests know adds its words to it)."""
    yield
    catalogue.cache_clear()


def table_of(path: Path | None = None, players=THREE, options=None, position=None) -> Table:
    table = Table(EventStore(path) if path else None)
    table.new_game(zg.NAME, list(players), options, position)
    return table


def play(table: Table, *actions: dict) -> Table:
    for action in actions:
        table.answer(action)
    return table


def turn(seat: str, act: str = "action") -> dict:
    return {"seat": seat, "act": act}


def script_until(path: Path | None, stop: str) -> Table:
    """The script's game (tests/scripts/zombiegeddon.json) played until its phase is `stop`."""
    table = table_of(path, SCRIPT["players"], SCRIPT["options"])
    for action in SCRIPT["actions"]:
        if table.state.phase == stop:
            break
        table.answer(action)
    assert table.state.phase == stop
    return table


def to_the_end(table: Table, seed: int = 1) -> None:
    """Random legal answers until the game is over (the sheets handed in, the winner said)."""
    rng = random.Random(seed)
    for _ in range(500):
        if table.state.over:
            return
        seat = rng.choice(zg.prompt(table.state).seats)
        table.answer(random_answer(zg, table.state, seat, rng))
    raise AssertionError("the game did not end")


def edit_values(table: Table) -> dict:
    return {edit["id"]: edit["value"] for edit in table.edits()}


def messages(node) -> list[dict]:
    """Every message ({key, params}) in a part of the board, in the order it is drawn."""
    if isinstance(node, dict):
        if set(node) == {"key", "params"}:
            return [node]
        return [m for value in node.values() for m in messages(value)]
    if isinstance(node, list):
        return [m for value in node for m in messages(value)]
    return []


def shown(parts: dict) -> tuple[dict, set[str]]:
    """What the board shows of each fact the table may correct, read from the board parts alone, and the ids of
    the seat panels (where a fact of a seat is drawn)."""
    main = {part["part"]: part for part in parts["main"]}
    panels = {panel["seat"]: panel for panel in main["seats"]["seats"]}
    facts: dict = {"phase": messages(main["heading"])[0]["key"].removeprefix("zg.phase.")}
    turns = [m["params"]["colour"] for m in messages(main["focus"]) if m["key"] == "zg.board.turn"]
    if turns:
        (facts["turn"],) = turns
        assert [seat for seat, panel in panels.items() if panel["lit"]] == turns  # the lit panel is his
        (count,) = [m["params"]["count"] for m in messages(panels[facts["turn"]]) if m["key"] == "zg.board.actions"]
        facts["actions"] = count
    starters = [m["params"]["colour"] for m in messages(main["lines"]) if m["key"] == "zg.board.starter"]
    if starters:
        (facts["starter"],) = starters
    for part in parts["over"]:
        for row in part["rows"]:
            cells = [messages(cell)[0]["params"] for cell in row["cells"]]
            for kind, cell in zip(KINDS, cells, strict=False):
                facts[f"sheet.{row['seat']}.{kind}"] = cell["count"]
                facts[f"sheet.{row['seat']}.{POINTS_OF[kind]}"] = cell["points"]
            facts[f"sheet.{row['seat']}.tokens"] = cells[len(KINDS)]["count"]
    return facts, set(panels)


def check_edits_are_the_board(table: Table) -> None:
    state = table.state
    facts, panels = shown(table.view(None)["parts"])
    for edit in zg.edits(state):  # the game's own: the table offers none once the game is over
        assert edit.at == "" or edit.at in panels, (edit.id, edit.at)
        assert facts[edit.id] == edit.value, (state.phase, edit.id, edit.value, facts.get(edit.id))
    if not state.over:
        assert table.edits() == [edit.to_json() for edit in zg.edits(state)]


def test_every_fact_to_correct_is_what_the_board_shows_at_every_moment_of_a_game():
    table = table_of(None, SCRIPT["players"], SCRIPT["options"])
    for action in SCRIPT["actions"]:
        check_edits_are_the_board(table)
        table.answer(action)
    check_edits_are_the_board(table)
    seen = {edit.id.split(".")[0] for edit in zg.edits(table.state)}
    assert table.state.over and seen == {"sheet"}
    for seed, players, tie in [(3, ["red", "blue"], "turn_order"), (4, ["red", "yellow", "blue", "green"],
                                                                      "reenter")]:
        table = table_of(None, players, {"post_bomb_tie": tie})
        rng = random.Random(seed)
        while not table.state.over:
            check_edits_are_the_board(table)
            seat = rng.choice(zg.prompt(table.state).seats)
            table.answer(random_answer(zg, table.state, seat, rng))
        check_edits_are_the_board(table)


def test_the_facts_of_each_moment_pre_and_post_bomb_the_largest_disc_the_sheets_and_the_end():
    table = table_of()
    pre = {edit.id: edit for edit in zg.edits(table.state)}
    assert list(pre) == ["phase", "turn", "actions"] and pre["actions"].at == "red"
    assert [c.value for c in pre["phase"].choices] == ["pre", "largest", "post", "sheet"]
    assert (pre["actions"].low, pre["actions"].high) == (0, 1)  # a second action ends the turn: it is played
    post = script_until(None, "post")
    assert [edit.id for edit in zg.edits(post.state)] == ["phase", "turn", "actions", "starter"]
    assert [edit.id for edit in zg.edits(script_until(None, "largest").state)] == ["phase"]
    assert [edit.id for edit in zg.edits(script_until(None, "sheet").state)] == ["phase"]
    for edit in zg.edits(post.state):
        for lang in LANGUAGES:
            assert catalogue().text(edit.label, lang)


def test_whose_turn_and_its_actions_corrected_the_turn_goes_on_from_there(tmp_path):
    table = play(table_of(tmp_path / "zg.sqlite3"), turn("red"))  # red has done one action
    table.correct({"turn": "yellow", "actions": 0})  # the board: it is yellow's turn, nothing done yet
    assert (table.state.turn, table.state.actions) == ("yellow", 0)
    facts, _ = shown(table.view(None)["parts"])
    assert (facts["turn"], facts["actions"]) == ("yellow", 0)
    said = [entry.message for entry in table.narration()[-2:]]
    assert [catalogue().text(m, "en") for m in said] == ["Corrected: Whose turn Red → Yellow",
                                                         "Corrected: Actions done this turn 1 → 0"]
    assert catalogue().text(said[0], "zh-Hant") == "已更正：輪到誰 紅 → 黃"
    answered = table.question("yellow").id
    play(table, turn("yellow"))
    table.correct({"actions": 0})  # that action was not played after all: asked again, as a new question
    assert table.state.actions == 0 and table.question("yellow").id != answered
    play(table, turn("yellow"), turn("yellow"))  # yellow's second action ends his turn: blue's turn
    assert (table.state.turn, table.state.actions) == ("blue", 0)
    to_the_end(table)
    assert table.state.winners


def test_post_bomb_entered_by_correction_the_turn_going_on_is_the_starters():
    table = table_of()  # a game in progress entered at the table: set up, then corrected to the board
    table.correct({"phase": "post", "turn": "yellow", "actions": 1})
    state = table.state
    assert (state.phase, state.turn, state.actions, state.starter) == ("post", "yellow", 1, "yellow")
    facts, _ = shown(table.view(None)["parts"])
    assert (facts["phase"], facts["turn"], facts["starter"]) == ("post", "yellow", "yellow")
    table.correct({"starter": "blue"})  # blue opened post-bomb: the turn order runs from blue
    assert table.state.order == ("blue", "red", "yellow") and shown(table.view(None)["parts"])[0]["starter"] == "blue"
    play(table, turn("yellow"))  # yellow's turn ends: after yellow, blue in the post-bomb order
    assert table.state.turn == "blue"
    play(table, turn("blue", "phase_end"))  # the game is over: the sheets
    assert table.state.phase == "sheet"
    to_the_end(table)


def test_back_to_pre_bomb_forgets_the_reveal_and_the_starter_and_the_bomb_comes_again():
    table = script_until(None, "post")
    assert table.state.starter == "blue" and table.view(None)["parts"]["revealed"]
    table.correct({"phase": "pre"})  # the bomb went off by mistake: the board is still pre-bomb
    state = table.state
    assert (state.phase, state.turn, state.starter, state.revealed) == ("pre", "blue", None, ())
    parts = table.view(None)["parts"]
    assert not parts["revealed"] and "starter" not in shown(parts)[0]
    play(table, turn("blue", "phase_end"))  # now the bomb: everyone enters his largest zombie disc again
    assert table.state.phase == "largest" and table.state.asked == tuple(SCRIPT["players"])
    assert [edit["id"] for edit in table.edits()] == ["phase"]  # nobody has entered yet: the board may be corrected
    table.correct({"phase": "pre"})  # back to pre-bomb from the largest discs: the youngest's turn
    assert (table.state.turn, table.state.actions) == ("red", 0)
    play(table, turn("red", "phase_end"), {"seat": "red", "largest": 7})
    assert table.edits() == []  # a disc is entered, secret until all are: nothing to correct
    with pytest.raises(TableError) as refused:
        table.correct({"phase": "pre"})
    assert refused.value.code == "table.correct_secret"
    play(table, {"seat": "yellow", "largest": 2}, {"seat": "blue", "largest": 3})
    assert (table.state.phase, table.state.starter) == ("post", "red")
    to_the_end(table)


def test_the_largest_disc_asked_again_by_correction_is_asked_of_everyone_under_new_questions():
    table = play(table_of(), turn("red", "phase_end"))
    asked = {seat: table.question(seat).id for seat in THREE}
    play(table, {"seat": "red", "largest": 3}, {"seat": "yellow", "largest": 2}, {"seat": "blue", "largest": 1})
    assert (table.state.phase, table.state.starter) == ("post", "red")
    table.correct({"phase": "largest"})  # the starter was chosen wrong: everyone enters his largest disc again
    state = table.state
    assert (state.phase, state.asked, state.turn, state.starter) == ("largest", tuple(THREE), "", None)
    panels = next(part for part in table.view(None)["parts"]["main"] if part["part"] == "seats")["seats"]
    assert all(panel["lit"] for panel in panels)  # everyone is awaited
    assert all(table.question(seat).id != asked[seat] for seat in THREE)  # not the questions answered before
    table.correct({"phase": "pre"})  # nobody has entered: the board may still be corrected
    play(table, turn("red", "phase_end"))
    play(table, {"seat": "red", "largest": 1}, {"seat": "yellow", "largest": 9}, {"seat": "blue", "largest": 2})
    assert (table.state.phase, table.state.starter, table.state.turn) == ("post", "yellow", "yellow")
    to_the_end(table)


def test_the_score_sheets_entered_by_correction_and_back_while_no_line_is_entered():
    table = table_of()
    table.correct({"phase": "sheet"})  # the game ended at the table: everyone fills in his sheet
    assert table.state.phase == "sheet" and set(zg.prompt(table.state).seats) == set(THREE)
    table.correct({"phase": "post"})  # not yet: post-bomb goes on, the youngest's turn and starter
    assert (table.state.phase, table.state.turn, table.state.starter) == ("post", "red", "red")
    table.correct({"phase": "sheet"})
    play(table, {"seat": "red", "line": "food", "number": 2})
    assert table.edits() == []  # a line is entered in secret: the sheets are not corrected away
    with pytest.raises(TableError) as refused:
        table.correct({"phase": "post"})
    assert refused.value.code == "table.correct_secret"
    to_the_end(table)
    assert table.state.over


def test_sheet_lines_are_facts_once_revealed_and_the_scores_and_winner_follow_them():
    table = script_until(None, "sheet")
    for action in SCRIPT["actions"][len(table.events):]:
        table.answer(action)
    state = table.state
    assert state.over and state.winners == ("blue",)
    edits = {edit.id: edit for edit in zg.edits(state)}
    assert set(edits) == {f"sheet.{seat}.{line_}" for seat in state.players for line_ in lines()}
    assert edits["sheet.red.food"].at == "red" and (edits["sheet.red.tokens"].low, edits["sheet.red.tokens"].high) \
        == (0, 4)
    after = corrected(zg, state, {"sheet.red.food_points": edits["sheet.red.food_points"].value + 40})
    assert after.scores["red"]["total"] == state.scores["red"]["total"] + 40 and after.winners == ("red",)
    assert zg.scores(after)["red"] == after.scores["red"]["total"]
    facts, _ = shown(zg.parts(after).to_json())
    assert facts["sheet.red.food_points"] == edits["sheet.red.food_points"].value + 40
    assert after.narration[-1].message.key == "correction.n.changed"
    # The table offers no correction once the game is over: the final sheets stand as revealed.
    assert table.edits() == []
    with pytest.raises(TableError) as refused:
        table.correct({"sheet.red.food_points": 0})
    assert refused.value.code == "table.correct_over"


def test_an_impossible_board_is_refused_in_one_line_and_nothing_changes(tmp_path):
    table = script_until(tmp_path / "zg.sqlite3", "post")
    before, events = table.record(), len(table.events)
    for changes, key in [({"phase": "sheet", "turn": "red"}, "zg.refuse.edit.no_turn"),
                         ({"phase": "largest", "actions": 1}, "zg.refuse.edit.no_turn"),
                         ({"phase": "pre", "starter": "red"}, "zg.refuse.edit.no_starter"),
                         ({"phase": "sheet", "starter": "red"}, "zg.refuse.edit.no_starter")]:
        with pytest.raises(IllegalAction) as refused:
            table.correct(changes)
        assert refused.value.code == key
        for lang in LANGUAGES:
            assert refused.value.text(lang)
    assert table.record() == before and len(table.events) == events
    assert refused.value.text() == \
        "Only post-bomb has a starter, not “Score sheets”: correct the phase alone."
    over = script_until(None, "sheet")
    for action in SCRIPT["actions"][len(over.events):]:
        over.answer(action)
    with pytest.raises(IllegalAction) as refused:
        corrected(zg, over.state, {"sheet.red.food": 0})  # red's food discs show 11 printed: he has some
    assert refused.value.code == "zg.refuse.edit.points_without_discs"
    assert refused.value.text() == "Red's sheet has no food discs: their printed total is 0."


@pytest.mark.parametrize("phase", ["pre", "largest", "post", "sheet"])
def test_a_correction_then_undo_gives_back_the_same_record(tmp_path, phase):
    table = script_until(tmp_path / "zg.sqlite3", phase)
    before = table.record()
    edit = next(edit for edit in zg.edits(table.state) if edit.id == "phase")
    table.correct({"phase": next(c.value for c in edit.choices if c.value != phase)})
    assert table.record() != before
    table.undo()
    assert table.record() == before


def test_a_correction_survives_a_reload_of_the_save_file(tmp_path):
    path = tmp_path / "zg.sqlite3"
    table = script_until(path, "post")
    table.correct({"starter": "red", "turn": "yellow", "actions": 1})
    record = table.record()
    table.store.close()
    again = Table(EventStore(path))
    again.resume()
    assert again.record() == record and edit_values(again)["starter"] == "red"
    again.undo()  # the correction is taken back like a public answer
    assert (again.state.starter, again.state.turn, again.state.actions) == ("blue", "blue", 0)
    again.correct({"turn": "yellow"})
    to_the_end(again)
    assert again.state.over


def random_changes(edits: list[dict], rng: random.Random) -> dict:
    """Some of the facts on offer, each set to a value it may take."""
    picked = rng.sample(edits, rng.randint(1, len(edits)))
    return {edit["id"]: rng.choice([c["value"] for c in edit["choices"]] if "choices" in edit else
                                   list(range(edit["low"], edit["high"] + 1))) for edit in picked}


@pytest.mark.parametrize("seed", range(6))
def test_any_correction_at_any_moment_is_taken_or_refused_whole_and_the_game_plays_to_its_end(seed):
    rng = random.Random(seed)
    players = ["red", "yellow", "blue", "green"][:rng.randint(2, 4)]
    table = table_of(None, players, {"post_bomb_tie": rng.choice(["reenter", "turn_order"])})
    corrections = 0
    for _ in range(1000):
        if table.state.over:
            break
        if table.edits() and rng.random() < 0.5:
            before = table.record()
            try:
                table.correct(random_changes(table.edits(), rng))
                corrections += 1
                check_edits_are_the_board(table)
            except IllegalAction as refused:
                assert refused.code.startswith(("zg.refuse.edit.", "correction.nothing")), refused.code
                assert table.record() == before
            continue
        seat = rng.choice(zg.prompt(table.state).seats)
        table.answer(random_answer(zg, table.state, seat, rng))
    assert table.state.over and corrections
