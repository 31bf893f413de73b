"""District-Z's board corrected by the table (issue 24, "the board is the truth"): every public fact the table may
correct is offered where the board draws it, with the value the board shows; each kind of fact corrected through a
real Table changes the board and the game goes on to its end; an impossible board is refused in one line and changes
nothing; a correction is taken back by undo and kept in the save file. Games are played with random legal answers
and a cup of seeded dice, so that a failure happens again."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from seeded import SeededCup

from companion.catalogue import LANGUAGES, catalogue
from companion.contract import IllegalAction, Message
from companion.games import district_z as dz
from companion.simulate import random_answer
from companion.store import EventStore
from companion.table import Table

PLAYERS = ("red", "yellow", "blue", "green")


class Game:
    """A District-Z table played with random legal answers from one seed."""

    def __init__(self, seed: int, players: int = 2, store: EventStore | None = None, grid: str = "4x4") -> None:
        self.rng = random.Random(seed)
        self.table = Table(store, SeededCup(seed))
        self.table.new_game(dz.NAME, list(PLAYERS[:players]), {"grid": grid})

    @property
    def state(self) -> dz.State:
        return self.table.state

    def play(self, until: Callable[[dz.State], bool] = lambda state: False, most: int = 3000) -> Game:
        """Answer at random until `until` holds at a question, or the game is over."""
        for _ in range(most):
            if self.state.over or until(self.state):
                return self
            seat = dz.prompt(self.state).seats[0]
            self.table.answer(random_answer(dz, self.state, seat, self.rng))
        raise AssertionError(f"the game did not end after {most} answers")

    def to_end(self) -> None:
        self.play()
        assert self.state.over

    def edits(self) -> dict[str, dict]:
        return {edit["id"]: edit for edit in self.table.edits()}

    def board(self) -> dict:
        return self.table.view(None)["parts"]


def turn_from(round_: int) -> Callable[[dz.State], bool]:
    """The first question of a turn (where he goes), from this round on."""
    return lambda state: state.step == "turn" and state.round >= round_


def in_combat(state: dz.State) -> bool:
    return state.step == "pair"


def said(tree: object, key: str) -> Iterator[dict]:
    """The parameters of every message `key` in a board's JSON."""
    if isinstance(tree, dict):
        if tree.get("key") == key:
            yield tree.get("params", {})
        for value in tree.values():
            yield from said(value, key)
    elif isinstance(tree, list):
        for value in tree:
            yield from said(value, key)


def cells(board: dict) -> dict[str, dict]:
    (grid,) = [part for part in board["main"] if part["part"] == "grid"]
    return {cell["id"]: cell for cell in grid["cells"]}


def panels(board: dict) -> dict[str, dict]:
    (seats,) = [part for part in board["main"] if part["part"] == "seats"]
    return {panel["seat"]: panel for panel in seats["seats"]}


def one(tree: object, key: str) -> dict:
    (params,) = said(tree, key)
    return params


# (seed, players, moment): turns of several rounds, a combat's pairing, an event, two survivors meeting
MOMENTS = [(0, 1, turn_from(3)), (1, 1, in_combat), (2, 2, turn_from(2)), (3, 3, turn_from(4)), (4, 4, turn_from(3)),
           (5, 2, in_combat), (6, 3, in_combat), (7, 4, lambda state: state.step == "outcome"),
           (2, 3, lambda state: state.step == "meet")]


# -- what the table may correct is what the board shows ------------------------------------------------------------


@pytest.mark.parametrize(("seed", "players", "moment"), MOMENTS)
def test_every_fact_offered_is_where_the_board_draws_it_with_the_value_it_shows(seed, players, moment):
    game = Game(seed, players).play(moment)
    assert not game.state.over
    board, edits = game.board(), game.edits()
    grid, seats = cells(board), panels(board)
    survivors = game.table.view(None)["survivors"]
    assert edits["round"]["value"] == one(board["main"][0], "dz.board.round")["round"] == game.state.round
    assert edits["aside"]["value"] == one(board, "dz.board.stock")["aside"]
    if "turn" in edits:
        assert edits["turn"]["value"] == one(board["main"][0], "dz.board.turn")["colour"]
    for id_, edit in edits.items():
        kind, name = id_.split(".")[0], id_.split(".")[1] if "." in id_ else ""
        assert edit["at"] == {"round": "", "turn": "", "aside": ""}.get(kind, name)
        if kind in ("up", "zombies", "objectives"):
            shown = grid[name]
            stars = "".join(p["stars"] for p in said(shown["lying"], "dz.board.objectives_here"))
            assert edit["value"] == {"up": shown["up"], "zombies": shown["count"] or 0, "objectives": len(stars)}[kind]
        elif kind in ("cell", "attack", "health", "damage", "objective"):
            panel, survivor = seats[name], survivors[name]
            card = one(panel, "dz.board.survivor")
            items_health = sum(item["health"] for item in survivor["items"])
            if kind == "cell":
                assert edit["value"] == next((c for c, cell in grid.items() if name in cell["seats"]), None)
            elif kind == "health":
                assert edit["value"] + items_health == card["health"]  # the board shows the card's with its items
            elif kind == "objective":
                assert edit["value"] == bool(list(said(panel, "dz.board.objective_to")))
            else:
                assert edit["value"] == card[kind]
    for seat, panel in seats.items():
        if seat in dz.correction._holders(game.state):
            assert items(panel) == len([e for e in edits if e.startswith(f"item.{seat}.")])
    for name, cell in grid.items():
        lying = sum(p["count"] for p in said(cell["lying"], "dz.board.items_here"))
        assert f"up.{name}" not in edits or lying == len([e for e in edits if e.startswith(f"item.{name}.")])
    on_table = [seat for seat, s in survivors.items() if s["attack"] is not None and s["health"] is not None
                and not s["out"] and not s["won"]]
    assert {f"damage.{seat}" for seat in on_table} <= set(edits)
    assert all(not e["id"].startswith(("attack.", "damage.", "cell.")) or e["at"] in on_table for e in edits.values())


def test_while_a_combat_is_fought_its_district_and_its_survivor_keep_what_the_rules_are_doing():
    game = Game(5, 2).play(in_combat)
    state, edits = game.state, game.edits()
    here = state.name(state.me.pos)
    assert not {f"up.{here}", f"zombies.{here}", f"objectives.{here}", f"cell.{state.seat}",
                f"attack.{state.seat}", "turn"} & set(edits)
    assert {f"damage.{state.seat}", f"health.{state.seat}", "round"} <= set(edits)  # safe at any moment
    game.play(lambda s: s.step == "turn")  # the turn moves on: all of it is offered again
    assert not game.state.over
    assert {f"up.{here}", f"zombies.{here}", f"cell.{state.seat}", f"attack.{state.seat}", "turn"} <= set(game.edits())


def test_the_survivor_whose_turn_it_is_stands_on_the_board_and_a_waiting_one_may_be_off_it():
    game = Game(2, 2).play(turn_from(2))
    edits, seat = game.edits(), game.state.seat
    assert None not in [c["value"] for c in edits[f"cell.{seat}"]["choices"]]
    others = [s.seat for s in dz.correction._on_table(game.state) if s.seat != seat]
    for other in others:
        assert None in [c["value"] for c in edits[f"cell.{other}"]["choices"]]


def test_nothing_of_the_board_is_offered_once_the_game_is_over():
    game = Game(1, 1)
    game.to_end()
    assert game.table.edits() == [] and dz.edits(game.state) == ()


# -- each kind of fact corrected, and the game goes on -----------------------------------------------------------


def face_down_far(state: dz.State) -> str:
    """The first district still face down."""
    return next(state.name((x, y)) for y in range(state.height) for x in range(state.width)
                if not state.cell((x, y)).up)


def a_face_up_cell(state: dz.State) -> str:
    return next(state.name(s.pos) for s in state.survivors if s.pos is not None)


def other(state: dz.State) -> str:
    """A survivor on the table whose turn it is not."""
    return next(s.seat for s in dz.correction._on_table(state) if s.seat != state.seat)


def without_objective(state: dz.State) -> str:
    return next(s.seat for s in dz.correction._on_table(state) if not s.objective)


KINDS = {
    "a card turned face up": lambda s: {f"up.{face_down_far(s)}": True},
    "zombies put on a face-up district": lambda s: {f"zombies.{a_face_up_cell(s)}": 3},
    "an objective card lying on a district": lambda s: {f"objectives.{a_face_up_cell(s)}": 1},
    "a figure moved": lambda s: {f"up.{face_down_far(s)}": True, f"cell.{s.seat}": face_down_far(s)},
    "a figure taken off the board": lambda s: {f"cell.{other(s)}": None},
    "the attack on a survivor card": lambda s: {f"attack.{s.seat}": 6 if s.me.attack != 6 else 1},
    "the health on a survivor card": lambda s: {f"health.{s.seat}": 9 if s.me.health != 9 else 8},
    "damage tokens": lambda s: {f"damage.{s.seat}": 1 if s.me.damage != 1 else 0},
    "an objective card held": lambda s: {f"objective.{s.seat}": not s.me.objective},
    "the round": lambda s: {"round": s.round + 2},
    "whose turn it is": lambda s: {"turn": other(s)},
    # an objective card found and a set-aside district card put in its place
    "district cards set aside": lambda s: {f"objective.{without_objective(s)}": True, "aside": s.set_aside - 1},
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_of_fact_corrected_changes_the_board_and_the_game_goes_on_to_its_end(kind):
    game = Game(4, 4).play(turn_from(2))  # two objective cards still hidden, a survivor card not yet entered
    assert not game.state.over
    before = game.board()
    changes = KINDS[kind](game.state)
    game.table.correct(changes)
    edits, board = game.edits(), game.board()
    assert board != before
    for key, value in changes.items():
        assert edits[key]["value"] == value, key
    lines = [entry["key"] for entry in game.table.view(None)["narration"]]
    assert lines.count("correction.n.changed") == len(changes)
    game.to_end()


def test_a_card_turned_face_up_shows_on_the_grid_and_a_figure_moved_stands_there():
    game = Game(2, 3).play(turn_from(2))
    seat, cell = game.state.seat, face_down_far(game.state)
    game.table.correct({f"up.{cell}": True, f"cell.{seat}": cell, f"zombies.{cell}": 2})
    shown = cells(game.board())[cell]
    assert shown["up"] and shown["count"] == 2 and seat in shown["seats"] and shown["lit"]
    assert game.state.step == "turn" and game.state.me.pos == dz.correction._pos(cell)  # he goes on from there


def test_a_card_the_table_turned_face_up_is_a_district_and_never_the_objective_later():
    game = Game(2, 3).play(turn_from(2))
    state = game.state
    x, y = state.me.pos
    near = next((x + dx, y + dy) for dx, dy in dz.state.DIRECTIONS.values()
                if 0 <= x + dx < state.width and 0 <= y + dy < state.height and not state.cell((x + dx, y + dy)).up
                and not state.others_at((x + dx, y + dy), state.seat))
    name = state.name(near)
    game.table.correct({f"up.{name}": True})
    game.table.correct({f"up.{name}": False})  # turned back: the table saw a district
    direction = next(d for d, (dx, dy) in dz.state.DIRECTIONS.items() if (x + dx, y + dy) == near)
    game.table.answer({"seat": state.seat, "move": direction})
    assert game.state.step == "found"
    assert [c.action["found"] for c in dz.question(game.state, state.seat).choices] == ["district"]


def test_whose_turn_it_is_corrected_begins_that_players_turn():
    game = Game(3, 3).play(turn_from(2))
    seat = other(game.state)
    game.table.correct({"turn": seat})
    assert game.state.seat == seat and game.state.step == "turn"
    assert dz.prompt(game.state).seats == (seat,)
    assert one(game.board()["main"][0], "dz.board.turn")["colour"] == seat
    game.to_end()


def test_an_objective_card_the_companion_missed_is_no_longer_hidden_in_the_city():
    game = Game(4, 4).play(turn_from(2))
    hidden, seat = game.state.hidden_objectives, without_objective(game.state)
    game.table.correct({f"objective.{seat}": True})
    assert game.state.hidden_objectives == hidden - 1
    assert one(game.board(), "dz.board.stock")["hidden"] == hidden - 1
    assert list(said(panels(game.board())[seat], "dz.board.objective_to"))
    game.table.correct({f"objective.{seat}": False})  # the table looked again: it was a district
    assert game.state.hidden_objectives == hidden


def test_health_lowered_to_the_damage_keeps_the_survivor_alive_on_his_last_point():
    game = Game(2, 3).play(turn_from(2))
    seat = game.state.seat
    game.table.correct({f"damage.{seat}": 3, f"health.{seat}": 3})
    assert game.state.me.damage == 3 and game.state.me.health == 3 and not game.state.me.out
    assert panels(game.board())[seat]["tone"] == "danger"
    game.to_end()


def holding(hands: int) -> Callable[[dz.State], bool]:
    """The first question of a turn, where the survivors whose items may be corrected carry items for `hands`."""
    def moment(state: dz.State) -> bool:
        holders = dz.correction._holders(state)
        return state.step == "turn" and sum(state.of(seat).hands for seat in holders) >= hands
    return moment


def items(panel: dict) -> int:
    return sum(params["count"] for params in said(panel, "dz.board.items"))


def test_an_item_card_is_handed_over_dropped_on_a_district_or_out_of_the_game():
    game = Game(3, 3).play(holding(5))
    state = game.state
    assert [len(state.of(seat).items) for seat in ("red", "yellow")] == [3, 1] and state.seat == "yellow"
    dual, _, two_handed = state.of("red").items
    here = state.name(state.of("red").pos)
    game.table.correct({"item.red.0": "held:yellow", "item.red.1": "gone", "item.red.2": f"lying:{here}"})
    assert game.state.of("red").items == () and game.state.of("yellow").items == (state.of("yellow").items[0], dual)
    assert game.state.cell(state.of("red").pos).items == (two_handed,)
    board = game.board()
    assert items(panels(board)["red"]) == 0 and items(panels(board)["yellow"]) == 2
    assert one(cells(board)[here]["lying"], "dz.board.items_here")["count"] == 1
    assert game.edits()[f"item.{here}.0"]["value"] == f"lying:{here}"  # offered where it lies now
    game.to_end()


def test_a_survivor_carries_items_for_four_hands_at_most():
    game = Game(3, 3).play(holding(5))
    assert game.state.of("yellow").hands == 2
    assert refused(game, {"item.red.1": "held:yellow", "item.red.2": "held:yellow"}) == "dz.refuse.edit_hands"
    game.table.correct({"item.red.2": "held:yellow"})  # two-handed: four hands in all, as many as he has
    assert game.state.of("yellow").hands == 4


def test_an_item_that_gave_health_taken_away_never_leaves_more_damage_than_health():
    game = Game(3, 3).play(holding(5))
    yellow = game.state.of("yellow")
    game.table.correct({"damage.yellow": yellow.life})  # on his last point of health, the item's included
    assert refused(game, {"item.yellow.0": "gone"}) == "dz.refuse.edit_damage"


# -- an impossible board is refused, and nothing changes -------------------------------------------------------


def refused(game: Game, changes: dict) -> str:
    record, events = game.table.record(), len(game.table.events)
    with pytest.raises(IllegalAction) as refusal:
        game.table.correct(changes)
    assert game.table.record() == record and len(game.table.events) == events
    return refusal.value.code


def test_a_survivor_never_stands_on_a_face_down_card():
    game = Game(2, 3).play(turn_from(2))
    state = game.state
    assert refused(game, {f"cell.{state.seat}": face_down_far(state)}) == "dz.refuse.edit_figure_down"
    assert refused(game, {f"up.{state.name(other_pos(state))}": False}) == "dz.refuse.edit_figure_down"


def other_pos(state: dz.State) -> tuple[int, int]:
    return state.of(other(state)).pos or state.me.pos


def test_zombie_tokens_and_objective_cards_lie_only_on_a_face_up_district():
    game = Game(2, 3).play(turn_from(2))
    cell = face_down_far(game.state)
    assert refused(game, {f"zombies.{cell}": 2}) == "dz.refuse.edit_pieces_down"
    assert refused(game, {f"objectives.{cell}": 1}) == "dz.refuse.edit_pieces_down"
    game.table.correct({f"up.{cell}": True, f"zombies.{cell}": 2})  # turned face up at once: it may hold them
    assert refused(game, {f"up.{cell}": False}) == "dz.refuse.edit_pieces_down"


def test_more_damage_than_health_is_a_death_played_not_corrected():
    game = Game(2, 3).play(turn_from(2))
    seat = game.state.seat
    game.table.correct({f"damage.{seat}": 2})
    assert refused(game, {f"health.{seat}": 1}) == "dz.refuse.edit_damage"
    edits = game.edits()
    with pytest.raises(IllegalAction) as refusal:  # the tokens' own range stops at the health
        game.table.correct({f"damage.{seat}": edits[f"damage.{seat}"]["high"] + 1})
    assert refusal.value.code == "correction.value"


def test_the_box_has_one_objective_card_per_player():
    game = Game(1, 1).play(turn_from(2))
    assert not game.state.over
    seat, here = game.state.seat, game.state.name(game.state.me.pos)
    if not game.state.me.objective:
        game.table.correct({f"objective.{seat}": True})
    assert refused(game, {f"objectives.{here}": 1}) == "dz.refuse.edit_objectives"


def test_objective_cards_hidden_in_the_city_need_set_aside_district_cards_to_replace_them():
    game = Game(4, 4).play(turn_from(2))
    assert game.state.hidden_objectives == game.state.set_aside == 2
    assert refused(game, {"aside": game.state.hidden_objectives - 1}) == "dz.refuse.edit_aside"


# -- undo and the save file ---------------------------------------------------------------------------------------


def test_a_correction_taken_back_by_undo_gives_back_the_same_record(tmp_path):
    game = Game(2, 3, EventStore(tmp_path / "save.sqlite3")).play(turn_from(2))
    record = game.table.record()
    seat, cell = game.state.seat, face_down_far(game.state)
    game.table.correct({f"up.{cell}": True, f"cell.{seat}": cell, f"damage.{seat}": 1, "round": 9})
    assert game.table.record() != record
    game.table.undo()
    assert game.table.record() == record


def test_a_correction_is_kept_in_the_save_file_and_the_game_goes_on_after_a_restart(tmp_path):
    path = tmp_path / "save.sqlite3"
    game = Game(4, 4, EventStore(path)).play(turn_from(2))
    seat, cell = game.state.seat, face_down_far(game.state)
    game.table.correct({f"up.{cell}": True, f"zombies.{cell}": 4, f"objective.{seat}": True})
    record = game.table.record()
    game.table.store.close()
    again = Table(EventStore(path), SeededCup(4))
    again.resume()
    assert again.record() == record and again.events[-1] == {"correct": {f"up.{cell}": True, f"zombies.{cell}": 4,
                                                                         f"objective.{seat}": True}}
    game.table = again
    game.to_end()


# -- the words ----------------------------------------------------------------------------------------------------


def test_every_fact_and_each_of_its_values_is_named_in_every_language():
    game = Game(4, 4).play(turn_from(2))
    words = catalogue()
    for edit in dz.edits(game.state):
        for message in (edit.label, *(choice.label for choice in edit.choices)):
            for lang in LANGUAGES:
                text = words.text(message, lang)
                assert text and "{" not in text and message.key not in text, (message, lang)


def test_a_correction_is_said_with_the_games_names_for_the_figure_and_the_district():
    game = Game(4, 4).play(turn_from(2))
    seat, was = game.state.seat, game.state.name(game.state.me.pos)
    cell = face_down_far(game.state)
    game.table.correct({f"up.{cell}": True, f"cell.{seat}": cell})
    said_now = [catalogue().text(entry.message, "en") for entry in game.table.narration()][-2:]
    colour = catalogue().text(Message(f"colour.{seat}"), "en")
    assert said_now == [f"Corrected: The card at {cell} face down → face up",
                        f"Corrected: {colour}'s figure at {was} → at {cell}"]
