"""Eaten by Zombies!: the board is the truth. The table corrects the field's zombies, the zombie discard, each
human's zombie cards, each zombie player's Powers, and, as a turn begins, whose turn it is, the flips a turn and who
plays as a zombie; the zombie deck holds the rest of the box. Each correction goes through a real Table, shows on the
board, and the game goes on to its end; an impossible board is refused and changes nothing; a zombie player's hand
stays his own.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.contract import IllegalAction
from companion.cup import DiceCup
from companion.games import GAMES
from companion.simulate import random_answer, random_game
from companion.store import EventStore
from companion.table import Table

ebz = GAMES["eaten-by-zombies"]
SCRIPT = json.loads((Path(__file__).parent / "scripts" / "eaten-by-zombies.json").read_text(encoding="utf-8"))
# Moments of the script (red, yellow, blue; the number of its answers given), each named by what the table sees.
RED_BEGINS = 0  # turn 1: red flips first, the field is empty
RED_FLIPPED_A_LEVEL = 1  # red's level is entered, its speed is asked
RED_FACES_ONE = 2  # red chooses: fight or run one zombie (level 2, speed 3)
RED_WON = 4  # red killed it: his bonus is asked, he holds a level-2 zombie
YELLOW_BEGINS = 6
RED_ADDS = 8  # red is asked whether to add a zombie to yellow's field
YELLOW_ESCAPED = 12  # two zombies wait in the field for the next player
RED_BEGINS_BLUE_DEAD = 19  # blue has died: a zombie player with no Power
BLUE_DRAWS = 33  # blue's zombie turn begins: how many zombies he draws
BLUE_DREW_ONE = 35  # blue drew a level 8 in secret and draws his second
BLUE_KEEPS = 36  # blue keeps one of his hand as a Power
RED_BEGINS_POWER_8 = 40  # blue keeps Power 8 and holds a level 2 in hand; one zombie waits for red


def table_at(moment: int, path: Path | None = None) -> Table:
    table = Table(EventStore(path) if path else None, DiceCup(picks=SCRIPT["picks"]))
    table.new_game(ebz.NAME, SCRIPT["players"], SCRIPT["options"])
    for action in SCRIPT["actions"][:moment]:
        table.answer(action)
    return table


def edits(table: Table) -> dict[str, dict]:
    return {edit["id"]: edit for edit in table.edits()}


def part(table: Table, name: str) -> dict:
    return next(p for p in table.view(None)["parts"]["main"] if p["part"] == name)


def seat_lines(table: Table, seat: str) -> list[dict]:
    panel = next(s for s in part(table, "seats")["seats"] if s["seat"] == seat)
    return [item["t"] for line in panel["lines"] for item in line if "t" in item]


def side(table: Table) -> dict[str, int]:
    """The heading's counts: the zombie deck and the zombie discard."""
    return {row[0]["label"]["key"]: row[1]["n"] for row in part(table, "heading")["side"] if "label" in row[0]}


def played_to_the_end(table: Table, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(5000):
        if table.state.over:
            return
        seat = ebz.prompt(table.state).seats[0]
        table.answer(random_answer(ebz, table.state, seat, rng))
    pytest.fail("the game did not end")


# -- what the table may correct is what the board shows ----------------------------------------------------------


def shown_value(shown: dict, edit_id: str):
    """What the board's view says of the fact an edit names."""
    kind, _, rest = edit_id.partition(".")
    if kind in ("round", "active", "flips"):
        return shown[kind]
    if kind == "discard":
        return shown["discard_levels"][rest]
    if kind == "field":
        number, what = rest.split(".")
        field = shown["field"]
        return field[int(number) - 1][what] if int(number) <= len(field) else None
    if kind == "cards":
        seat, level = rest.split(".")
        return shown["levels_held"][seat][level]
    if kind == "power":
        seat, number = rest.split(".")
        kept = shown["powers"][seat]
        return kept[int(number) - 1] if int(number) <= len(kept) else None
    assert kind == "zombie"
    return rest in shown["zombie_players"]


def check_edits_are_the_board(state) -> None:
    shown = ebz.view(state)
    panels = {panel.seat for p in ebz.parts(state).main if type(p).__name__ == "Seats" for panel in p.seats}
    found = ebz.edits(state)
    assert len({edit.id for edit in found}) == len(found)
    for edit in found:
        assert edit.value == shown_value(shown, edit.id), edit.id
        assert edit.allows(edit.value), edit.id
        assert edit.at == "" or edit.at in panels, edit.id
        json.dumps(edit.to_json())
    for seat in state.dead:  # a zombie player's hand is his own
        assert not [edit for edit in found if edit.id.startswith(f"cards.{seat}.")]


def test_every_fact_offered_is_what_the_board_shows_at_every_moment_of_the_script():
    table = table_at(0)
    for action in SCRIPT["actions"]:
        check_edits_are_the_board(table.state)
        table.answer(action)
    assert table.state.over and table.edits() == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_fact_offered_is_what_the_board_shows_in_random_games(players):
    seats = ["red", "yellow", "blue", "green"][:players]
    for seed in range(6):
        events, _ = random_game(ebz, seats, random.Random(seed))
        state = ebz.start(seats)
        for event in events:
            state = ebz.apply(state, event)
            check_edits_are_the_board(state)


def test_as_a_turn_begins_whose_turn_the_flips_and_who_is_a_zombie_player_are_offered_and_not_later():
    begins = edits(table_at(YELLOW_BEGINS))
    assert {"active", "flips", "zombie.red", "zombie.yellow", "zombie.blue"} <= set(begins)
    assert [c["value"] for c in begins["active"]["choices"]] == ["red", "yellow", "blue"]
    assert begins["zombie.red"]["at"] == "red" and begins["cards.red.2"]["at"] == "red"
    assert begins["field.1.level"]["at"] == begins["discard.1"]["at"] == begins["round"]["at"] == ""
    later = edits(table_at(RED_FACES_ONE))
    assert not {"active", "flips", "zombie.red"} & set(later) and "field.1.speed" in later
    assert "active" in edits(table_at(BLUE_DRAWS))  # a zombie player's turn begins with his draw


def test_while_a_level_or_an_addition_is_entered_only_the_turn_number_may_be_corrected():
    for moment in (RED_FLIPPED_A_LEVEL, RED_ADDS, RED_ADDS + 1):
        assert list(edits(table_at(moment))) == ["round"]


def test_a_zombie_players_hand_is_never_offered_nor_told_by_what_is_offered():
    table = table_at(BLUE_KEEPS)
    assert sum(table.state.held("blue")) == 2
    offered = table.edits()
    assert not [e for e in offered if e["id"].startswith("cards.blue")]
    assert {e["id"] for e in offered if e["at"] == "blue"} == {"power.blue.1", "power.blue.2", "power.blue.3"}
    # The same board with another hand (the deck holding the difference) offers exactly the same facts.
    state = table.state
    other = type(state)(**{**state.__dict__, "cards": {**state.cards, "blue": (1, 0, 1, 0, 0)},
                           "deck": (state.deck[0] - 1, state.deck[1] + 1, state.deck[2] - 1, state.deck[3],
                                    state.deck[4] + 1)})
    assert other.by_level() == state.by_level()
    assert [e.to_json() for e in ebz.edits(other)] == offered


# -- each kind of fact corrected through the table: the board shows it, and the game goes on ----------------------


def test_the_fields_zombies_are_corrected_by_level_and_speed_and_one_is_added_from_the_zombie_deck():
    table = table_at(RED_FACES_ONE)
    deck = table.state.deck
    table.correct({"field.1.speed": 5, "field.2.level": 4, "field.2.speed": 6})
    assert [(z.level, z.speed) for z in table.state.field] == [(2, 5), (4, 6)]
    assert table.state.deck == (deck[0], deck[1], deck[2] - 1, deck[3], deck[4])  # it came from the deck
    cards = part(table, "cards")
    assert [(c["big"], c["small"][0]["t"]["params"]["speed"]) for c in cards["cards"]] == [("2", 5), ("4", 6)]
    assert cards["footer"][0]["t"]["params"] == {"level_sum": 6, "speed_sum": 11}
    assert side(table)["ebz.board.deck"] == 18
    keys = [entry["key"] for entry in table.view(None)["narration"]]
    assert keys[-3:] == ["correction.n.changed"] * 3
    table.answer({"seat": "red", "fight": True})
    table.answer({"seat": "red", "value": 6})  # the corrected field's level sum, 6, is what a fight needs
    assert table.state.last.result == "won" and table.state.held("red") == (0, 1, 1, 0, 0)
    played_to_the_end(table, 1)


def test_a_zombie_of_the_field_taken_away_goes_back_to_the_zombie_deck():
    table = table_at(YELLOW_ESCAPED + 2)  # blue's turn begins with the two zombies yellow escaped
    assert len(table.state.field) == 2
    deck = sum(table.state.deck)
    table.correct({"field.1.level": None, "field.1.speed": None})
    assert [(z.level, z.speed) for z in table.state.field] == [(2, 5)]
    assert sum(table.state.deck) == deck + 1 and len(part(table, "cards")["cards"]) == 1
    played_to_the_end(table, 2)


def test_the_zombie_discard_is_corrected_by_level():
    table = table_at(RED_BEGINS_BLUE_DEAD)
    assert table.state.discard == (1, 1, 1, 0, 0)
    table.correct({"discard.1": 0, "discard.6": 2})
    assert table.state.discard == (0, 1, 1, 2, 0) and side(table)["ebz.board.discard"] == 4
    assert table.view(None)["discard_levels"] == {"1": 0, "2": 1, "4": 1, "6": 2, "8": 0}
    assert table.state.zombie_count == table.state.total == 20
    played_to_the_end(table, 3)


def test_a_humans_zombie_cards_are_corrected_by_level_on_his_seat():
    table = table_at(YELLOW_BEGINS)
    assert table.state.held("red") == (0, 1, 0, 0, 0)
    table.correct({"cards.red.2": 0, "cards.red.8": 1, "cards.yellow.1": 2})
    assert table.state.held("red") == (0, 0, 0, 0, 1) and table.state.held("yellow") == (2, 0, 0, 0, 0)
    assert {"key": "ebz.board.held", "params": {"count": 2}} in seat_lines(table, "yellow")
    # red holds a level 8 now: with speed rule and all, he is asked whether to add it to yellow's field
    table.answer({"seat": "yellow", "level": 4})
    table.answer({"seat": "yellow", "speed": 2})
    assert ebz.prompt(table.state).seats == ("red",) and {"seat": "red", "level": 8} in ebz.prompt(
        table.state).options["red"]
    played_to_the_end(table, 4)


def test_a_zombie_players_powers_are_corrected_oldest_first_and_are_in_force_at_once():
    table = table_at(RED_BEGINS_POWER_8)
    assert table.state.powers["blue"] == (8,)
    table.correct({"power.blue.1": 4, "power.blue.2": 8})
    assert table.state.powers["blue"] == (4, 8) and table.state.in_force == (4, 8)
    assert {"key": "ebz.board.powers", "params": {"levels": "4 8"}} in seat_lines(table, "blue")
    in_force = [p for p in table.view(None)["parts"]["main"] if p["part"] == "lines" and p["tone"] == "warning"]
    assert [row[1]["t"]["key"] for row in in_force[0]["lines"]] == ["ebz.power.4", "ebz.power.8"]
    table.correct({"power.blue.1": None})  # the oldest taken away: the next moves up
    assert table.state.powers["blue"] == (8,)
    played_to_the_end(table, 5)


def test_while_a_zombie_player_draws_in_secret_the_public_piles_are_corrected_and_his_draw_goes_on():
    table = table_at(BLUE_DREW_ONE)
    assert table.state.step == "zlevel" and table.state.drawn_left == 1
    table.correct({"discard.1": 0, "cards.yellow.6": 0})
    assert table.state.discard == (0, 1, 1, 0, 0) and table.state.held("yellow") == (1, 0, 0, 0, 0)
    assert table.state.held("blue") == (0, 0, 0, 0, 1)  # his hand as he drew it
    table.answer({"seat": "blue", "level": 2})  # his second draw, as the script has it
    assert table.state.step == "zpower" and table.state.held("blue") == (0, 1, 0, 0, 1)
    played_to_the_end(table, 9)


def test_whose_turn_the_turn_number_and_the_flips_a_turn_are_corrected_as_a_turn_begins():
    table = table_at(YELLOW_BEGINS)
    table.correct({"active": "blue", "round": 5, "flips": 2})
    state = table.state
    assert (state.active, state.round, state.reshuffles, state.flips_left, state.flips_total) == ("blue", 5, 1, 2, 2)
    assert part(table, "heading")["line"][0]["t"]["params"] == {"round": 5, "colour": "blue"}
    assert {"t": {"key": "ebz.board.flips", "params": {"flips": 2}}} in part(table, "heading")["side"][2]
    assert ebz.prompt(state).seats == ("blue",) and state.step == "flip"
    table.answer({"seat": "blue", "level": 1})
    table.answer({"seat": "blue", "speed": 1})
    assert table.state.step == "flip" and table.state.flips_left == 1  # the second flip of the two
    played_to_the_end(table, 6)


def test_a_human_corrected_to_a_zombie_player_discards_his_zombies_and_begins_his_zombie_turn():
    table = table_at(YELLOW_BEGINS)
    discard = table.state.discard
    table.correct({"zombie.red": True, "active": "red"})
    state = table.state
    assert state.dead == ("red",) and state.held("red") == (0, 0, 0, 0, 0) and state.powers["red"] == ()
    assert state.discard == (discard[0], discard[1] + 1, *discard[2:])  # his level 2, as a dying human's
    assert state.step == "zdraw" and ebz.prompt(state).seats == ("red",)
    assert {"key": "ebz.board.zombie_player", "params": {}} in seat_lines(table, "red")
    assert "zombie.red" not in edits(table) and "power.red.1" in edits(table)
    played_to_the_end(table, 7)


# -- an impossible board is refused, and nothing changes -------------------------------------------------------


@pytest.mark.parametrize(("moment", "changes", "key", "params"), [
    (RED_BEGINS, {"field.1.level": 8, "field.1.speed": 2, "discard.8": 2}, "ebz.refuse.edit_box",
     {"count": 2, "level": 8}),  # 3 players: the box has 2 level-8 zombies
    (RED_BEGINS, {"discard.1": 6, "discard.2": 5, "discard.4": 4, "discard.6": 3, "discard.8": 2},
     "ebz.refuse.edit_deck_empty", {}),
    (RED_BEGINS, {"field.1.level": 4}, "ebz.refuse.edit_zombie_half", {"number": 1}),
    (RED_FACES_ONE, {"field.1.speed": None}, "ebz.refuse.edit_zombie_half", {"number": 1}),
    (RED_FACES_ONE, {"field.1.level": None, "field.1.speed": None}, "ebz.refuse.edit_field_empty",
     {"colour": "red"}),
    (RED_BEGINS_BLUE_DEAD, {"zombie.yellow": True}, "ebz.refuse.edit_last_human", {}),
    (RED_BEGINS, {"zombie.yellow": True, "zombie.blue": True}, "ebz.refuse.edit_last_human", {}),
])
def test_an_impossible_board_is_refused_in_one_line_and_nothing_changes(moment, changes, key, params):
    table = table_at(moment)
    record, events = table.record(), len(table.events)
    with pytest.raises(IllegalAction) as refused:
        table.correct(changes)
    assert (refused.value.code, refused.value.params) == (key, params)
    assert table.record() == record and len(table.events) == events


def test_the_box_refusal_says_the_box_and_never_how_many_a_zombie_player_holds():
    table = table_at(BLUE_KEEPS)  # blue holds a level 8 in secret; the other level 8 is still in the deck
    table.correct({"discard.8": 1})  # the deck's one
    with pytest.raises(IllegalAction) as refused:
        table.correct({"discard.8": 2})
    assert refused.value.params == {"count": 2, "level": 8}


def test_a_fact_not_offered_now_is_refused():
    table = table_at(RED_FLIPPED_A_LEVEL)
    with pytest.raises(IllegalAction) as refused:
        table.correct({"discard.1": 1})
    assert refused.value.code == "correction.unknown"


# -- undo and the save file ----------------------------------------------------------------------------------


def test_a_correction_then_undo_gives_back_the_same_record(tmp_path):
    table = table_at(RED_BEGINS_POWER_8, tmp_path / "save.sqlite3")
    before = table.record()
    table.correct({"field.1.level": 6, "cards.yellow.8": 1, "power.blue.2": 2, "round": 9, "active": "yellow"})
    assert table.record() != before
    table.undo()
    assert table.record() == before


def test_a_correction_survives_a_reload_of_the_save_file(tmp_path):
    path = tmp_path / "save.sqlite3"
    table = table_at(YELLOW_BEGINS, path)
    table.correct({"zombie.blue": True, "field.1.level": 2, "field.1.speed": 4, "discard.4": 1, "flips": 3})
    record = table.record()
    table.store.close()
    again = Table(EventStore(path), DiceCup())
    again.resume()
    assert again.record() == record and again.state.dead == ("blue",) and again.state.flips_total == 3
    again.undo()  # the resumed table takes the correction back like a public answer
    assert again.state.dead == () and again.state.flips_total == 1
    assert [entry.message.key for entry in again.undone] == ["correction.n.changed"] * 5
    again.correct({"zombie.blue": True})
    played_to_the_end(again, 8)

