"""District-Z's rules, line by line of the rulebook (../shared/rules/other-games.md, seed 004), played through the
game's own interface: answers as a device sends them, dice and picks as the table's cup gives them."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.catalogue import catalogue
from companion.contract import ASSIGN, NUMBER, PICK, IllegalAction
from companion.cup import DiceCup
from companion.games import GAMES
from companion.games import district_z as dz
from companion.simulate import random_game
from companion.table import Table


@pytest.fixture
def registered(monkeypatch):
    """District-Z in the registry (and its words in the catalogue) for one test, registered or not yet."""
    if dz.NAME not in GAMES:
        monkeypatch.setitem(GAMES, dz.NAME, dz)
    catalogue.cache_clear()
    yield dz
    catalogue.cache_clear()


class Play:
    """A game driven as the table drives it: answers from the asked seat, dice and picks from the cup."""

    def __init__(self, players=("red",), **options):
        self.state = dz.start(list(players), options or None)

    @property
    def seat(self) -> str:
        return dz.prompt(self.state).seats[0]

    @property
    def step(self) -> str:
        return self.state.step

    def answer(self, **fields) -> Play:
        action = {"seat": self.seat, **fields}
        for event in dz.decide(self.state, action):
            self.state = dz.apply(self.state, event)
        return self

    def roll(self, *dice: int) -> Play:
        request = dz.cup_request(self.state)
        assert request is not None and request.kind == "roll" and request.count == len(dice), (request, dice)
        self.state = dz.apply(self.state, {"roll": list(dice)})
        return self

    def pick(self, index: int) -> Play:
        request = dz.cup_request(self.state)
        assert request is not None and request.kind == "pick"
        self.state = dz.apply(self.state, {"pick": index})
        return self

    def survivor(self, attack: int, health: int) -> Play:
        return self.answer(attack=attack).answer(health=health)

    def keys(self) -> list[str]:
        return [entry.message.key for entry in self.state.narration]

    def acts(self) -> list[str]:
        return [entry.message.key for entry in self.state.narration if entry.act]

    def me(self, seat: str | None = None):
        return self.state.of(seat or self.state.seat)


def solo(attack: int = 2, health: int = 5, **options) -> Play:
    """Solo, the top-left corner flipped: a district card; the survivor waits to move."""
    game = Play(**options).survivor(attack, health)
    return game.answer(found="district")


def force(game: Play, seat: str | None = None, **changes) -> Play:
    """Put the table in a position the rules could reach (tests start where the rule they check begins)."""
    game.state = game.state.with_survivor(seat or game.state.seat, **changes)
    return game


# -- the seed's combat example and the best pairing ------------------------------------------------------------


def test_the_seeds_combat_example_hope_with_a_gun_against_four_zombies():
    game = solo(attack=2, health=5)  # HOPE: base attack 2
    game.answer(move="e").answer(found="district").roll(3).answer(outcome="item")  # a gun: one-handed, +1
    game.answer(kind="one").answer(bonus=1).answer(bonus=0)
    assert game.me().items == (dz.state.Gear("one", 1, 0),)
    game.answer(move="e").answer(found="district").roll(5).answer(outcome="zombies").answer(zombies=4)
    assert game.step == "weapon"
    game.answer(use=[0])  # attack 3: base 2 + gun 1
    game.roll(2, 3, 4).roll(1, 3, 3, 5)
    question = dz.question(game.state, "red")
    assert question.kind == ASSIGN and [i.value for i in question.items] == ["r1", "r2", "r3"]
    assert [t.value for t in question.targets] == ["b1", "b2", "b3", "b4", "none"]
    seeds = {"r1": "b1", "r2": "b2", "r3": "b3"}  # red 2 on black 1, red 3 on black 3, red 4 on black 3
    proposed = question.answer["pairs"]
    seed_result = dz.outcome((2, 3, 4), (1, 3, 3, 5), {0: 0, 1: 1, 2: 2})
    assert seed_result == (2, 1)  # 2 kills, 1 damage (the black 5 left unpaired)
    red, black = (2, 3, 4), (1, 3, 3, 5)
    mine = dz.outcome(red, black, {int(r[1:]) - 1: None if b == "none" else int(b[1:]) - 1
                                   for r, b in proposed.items()})
    assert mine[0] >= seed_result[0] and (mine[0] > seed_result[0] or mine[1] <= seed_result[1])
    game.answer(pairs=seeds)
    assert game.state.cell((2, 0)).zombies == 2 and game.me().damage == 1
    assert game.keys()[-2:] == ["dz.n.kill", "dz.n.hurt"]
    # Round 2: three red dice against the two zombies left.
    game.roll(3, 5, 6).roll(3, 5)
    assert dz.outcome((3, 5, 6), (3, 5), dz.best_pairing((3, 5, 6), (3, 5))) == (2, 0)
    game.answer(pairs=dz.question(game.state, "red").answer["pairs"])
    assert game.state.cell((2, 0)).zombies == 0 and "dz.n.cleared" in game.keys()
    assert game.step == "used"  # the gun was used: its card may say it ran out of ammo
    game.answer(keep=True)
    assert game.step == "turn" and game.state.round == 3


def brute_force(red, black) -> tuple[int, int]:
    """The best (kills, -damage) over every pairing: each red die on a distinct black die or on none."""
    def pairings(i: int, free: frozenset):
        if i == len(red):
            yield ()
            return
        for target in [None, *sorted(free)]:
            for rest in pairings(i + 1, free - {target}):
                yield (target, *rest)

    return max((lambda k, d: (k, -d))(*dz.outcome(red, black, dict(enumerate(targets))))
               for targets in pairings(0, frozenset(range(len(black)))))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=6), st.lists(st.integers(1, 6), min_size=1, max_size=6))
def test_the_proposed_pairing_is_never_worse_than_any_other(red, black):
    kills, damage = dz.outcome(red, black, dz.best_pairing(red, black))
    assert (kills, -damage) == brute_force(red, black)


def test_the_pairing_rules_red_higher_kills_black_higher_hurts_equal_nothing_unpaired_black_hurts():
    assert dz.outcome((5,), (3,), {0: 0}) == (1, 0)
    assert dz.outcome((3,), (5,), {0: 0}) == (0, 1)
    assert dz.outcome((4,), (4,), {0: 0}) == (0, 0)
    assert dz.outcome((6,), (1, 2), {0: 0}) == (1, 1)  # the black 2 unpaired deals 1 damage
    assert dz.outcome((6, 6), (1,), {0: None, 1: 0}) == (1, 0)  # a red die may stay unpaired
    with pytest.raises(ValueError):
        dz.outcome((6, 6), (1,), {0: 0, 1: 0})  # one black die, two red dice: not a pairing


# -- setup: players, the grid, corners -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [["red"], ["red", "blue"], ["red", "yellow", "blue"],
                                     ["red", "yellow", "blue", "green"]])
def test_solo_or_two_to_four_players_one_objective_card_each(players):
    state = dz.start(players)
    assert len(state.cells) == 30 and state.hidden_objectives == len(players) == state.set_aside
    assert state.spare_survivors == 6 - len(players)
    assert state.narration[0].act and state.narration[0].message.params["count"] == len(players)


@pytest.mark.parametrize(("players", "code"), [
    ([], "dz.refuse.players"), (["red"] * 2, "dz.refuse.seat_twice"),
    (["red", "yellow", "blue", "green", "red"], "dz.refuse.seat_twice"), (["pink"], "dz.refuse.colour_unknown"),
    ("red", "dz.refuse.players_list"), (["yellow", {}], "dz.refuse.player_type")])
def test_other_player_counts_and_seats_are_refused(players, code):
    with pytest.raises(IllegalAction) as refused:
        dz.start(players)
    assert refused.value.code == code


@pytest.mark.parametrize(("grid", "cells"), [("6x5", 30), ("4x4", 16), ("5x5", 25)])
def test_the_grid_size_is_a_table_option(grid, cells):
    game = Play(grid=grid).survivor(2, 3)
    assert len(game.state.cells) == cells
    width, height = (int(v) for v in grid.split("x"))
    assert dz.view(game.state)["grid"] == {"width": width, "height": height}
    assert dz.view(game.state)["survivors"]["red"]["target"] == f"{chr(ord('A') + width - 1)}{height}"


@pytest.mark.parametrize(("options", "code"), [
    ({"grid": "7x6"}, "dz.refuse.option_value"), ({"face_up_event": "maybe"}, "dz.refuse.option_value"),
    ({"colour": 1}, "dz.refuse.option_unknown"), ({"play_on": 2}, "dz.refuse.option_value"),
    ({"box_dice": "six"}, "dz.refuse.option_value"), (["grid", "6x5"], "dz.refuse.options_object")])
def test_unknown_options_are_refused(options, code):
    with pytest.raises(IllegalAction) as refused:
        dz.start(["red"], options)
    assert refused.value.code == code


def test_solo_starts_at_the_top_left_and_aims_for_the_diagonally_opposite_corner():
    game = Play()
    assert game.step == "attack" and dz.question(game.state, "red").kind == NUMBER
    game.survivor(2, 5)
    assert game.me().pos == (0, 0) and game.acts()[-2:] == ["dz.n.place", "dz.n.flip"]
    assert dz.view(game.state)["survivors"]["red"]["target"] == "F5"
    game.answer(found="district")
    assert game.step == "turn"  # the starting corner is flipped without an event


def test_with_several_players_each_chooses_a_corner_in_turn_and_starts_there_at_his_first_turn():
    game = Play(("red", "blue"))
    assert game.step == "corner" and game.seat == "red"
    question = dz.question(game.state, "red")
    assert [c.slot for c in question.choices] == [1, 2, 3, 4]
    game.answer(corner="se")
    assert [c.action["corner"] for c in dz.question(game.state, "blue").choices] == ["nw", "ne", "sw"]
    game.answer(corner="nw")
    assert game.seat == "red" and game.step == "attack"
    game.survivor(3, 4).answer(found="district")
    assert game.me("red").pos == (5, 4)
    assert dz.view(game.state)["survivors"]["red"]["target"] == "A1"


# -- a turn: heal or move, flip, objective or event -------------------------------------------------------------


def test_the_turn_is_a_pick_with_pad_slots_north_east_south_west_and_heal_only_when_hurt():
    game = solo()
    game = force(game, pos=(2, 2))
    question = dz.question(game.state, "red")
    assert question.kind == PICK
    assert [(c.action.get("move"), c.slot) for c in question.choices] == [("n", 1), ("e", 2), ("s", 3), ("w", 4)]
    force(game, damage=2)
    choices = dz.question(game.state, "red").choices
    assert choices[-1].action == {"seat": "red", "heal": True} and choices[-1].slot == 5


def test_moving_off_the_city_is_not_offered_and_is_refused():
    game = solo()
    assert [c.action["move"] for c in dz.question(game.state, "red").choices] == ["e", "s"]
    before = game.state
    with pytest.raises(IllegalAction) as refused:
        game.answer(move="n")
    assert refused.value.code == "dz.refuse.off_city" and game.state is before


def test_heal_skips_the_move_and_takes_one_damage_off():
    game = force(solo(), damage=2)
    game.answer(heal=True)
    assert game.me().damage == 1 and game.me().pos == (0, 0)
    assert game.acts()[-1] == "dz.n.heal" and game.step == "turn" and game.state.round == 2


def test_an_event_is_one_die_rolled_on_the_districts_table_then_the_players_entry():
    game = solo().answer(move="s").answer(found="district")
    request = dz.cup_request(game.state)
    assert request.kind == "roll" and request.count == 1 and request.public
    game.roll(4)
    question = dz.question(game.state, "red")
    assert question.title.params["die"] == 4
    assert [c.action["outcome"] for c in question.choices] == ["nothing", "item", "zombies", "special"]
    game.answer(outcome="nothing")
    assert game.keys()[-2:] == ["dz.n.nothing", "dz.n.round"] and game.step == "turn"


def test_a_special_event_is_done_as_the_card_says_and_may_bring_an_item_or_zombies():
    game = solo().answer(move="s").answer(found="district").roll(6).answer(outcome="special")
    assert game.step == "special" and "dz.n.special" in game.keys()
    game.answer(outcome="zombies").answer(zombies=1)
    assert game.step == "roll_red"


def test_leaving_a_district_turns_it_face_down_unless_zombies_or_items_stay():
    game = solo()
    game.answer(move="e")
    assert not game.state.cell((0, 0)).up and "dz.n.flip_back" in game.acts()
    game.answer(found="district").roll(2).answer(outcome="nothing")
    game.state = game.state.with_cell((1, 0), zombies=1)
    game.answer(move="s")
    assert game.state.cell((1, 0)).up  # the zombie token keeps the card face up


def test_a_face_up_district_fights_its_zombies_first_then_rolls_its_event_as_usual():
    game = solo()
    game.state = game.state.with_cell((1, 0), up=True, zombies=2)
    game.answer(move="e")
    assert game.keys()[-2:] == ["dz.n.zombies_there", "dz.n.bare"] and game.step == "roll_red"
    game.roll(6, 6).roll(1, 1).answer(pairs={"r1": "b1", "r2": "b2"})
    assert game.keys()[-1] == "dz.n.cleared" and game.step == "roll_event"  # the event after the fight
    assert dz.cup_request(game.state).count == 1
    game.roll(3).answer(outcome="nothing")
    assert game.step == "turn"


def test_a_face_up_district_with_no_zombies_rolls_its_event_as_usual():
    game = solo()
    game.state = game.state.with_cell((1, 0), up=True)
    game.answer(move="e")
    assert game.step == "roll_event" and dz.cup_request(game.state).count == 1
    assert "dz.n.face_up" not in game.keys()


def test_leaving_the_items_of_a_face_up_district_does_not_skip_its_event():
    game = solo()
    game.state = game.state.with_cell((1, 0), up=True, items=(dz.state.Gear("one", 2),))
    game.answer(move="e").answer(take=False)
    assert game.step == "roll_event" and game.me().items == ()
    assert len(game.state.cell((1, 0)).items) == 1


def fought_into_a_district_with_zombies_and_items(face_up_event: str) -> Play:
    """A face-up district holding 2 zombie tokens and a dropped item: the survivor enters and kills both."""
    game = solo(face_up_event=face_up_event)
    game.state = game.state.with_cell((1, 0), up=True, zombies=2, items=(dz.state.Gear("one", 2),))
    game.answer(move="e")
    assert game.keys()[-2:] == ["dz.n.zombies_there", "dz.n.bare"] and game.step == "roll_red"  # the zombies first
    game.roll(6, 6).roll(1, 1).answer(pairs={"r1": "b1", "r2": "b2"})
    assert game.keys()[-1] == "dz.n.cleared" and game.step == "pickup"  # then the items lying there
    return game


def test_zombies_and_items_on_a_face_up_district_fight_first_then_picking_the_items_up_skips_the_event_roll():
    game = fought_into_a_district_with_zombies_and_items("roll").answer(take=True)
    assert game.me().items == (dz.state.Gear("one", 2),) and game.state.cell((1, 0)).items == ()
    assert game.keys()[-3:] == ["dz.n.pickup", "dz.n.no_event", "dz.n.round"] and game.step == "turn"
    assert dz.cup_request(game.state) is None  # no event die


def test_zombies_and_items_on_a_face_up_district_fight_first_then_leaving_the_items_rolls_the_event_as_usual():
    game = fought_into_a_district_with_zombies_and_items("roll").answer(take=False)
    assert game.me().items == () and len(game.state.cell((1, 0)).items) == 1
    assert game.step == "roll_event" and dz.cup_request(game.state).count == 1
    game.roll(3).answer(outcome="nothing")
    assert game.step == "turn"


@pytest.mark.parametrize("take", [True, False])
def test_the_translators_note_option_fights_the_zombies_then_rolls_no_event_whether_the_items_are_taken_or_not(take):
    game = fought_into_a_district_with_zombies_and_items("skip").answer(take=take)
    assert game.me().items == ((dz.state.Gear("one", 2),) if take else ())
    assert game.keys()[-2] == ("dz.n.no_event" if take else "dz.n.face_up") and game.step == "turn"
    assert dz.cup_request(game.state) is None  # no event die either way


def test_the_translators_note_option_rolls_no_event_on_a_face_up_district_after_its_zombies():
    game = solo(face_up_event="skip")
    game.state = game.state.with_cell((1, 0), up=True)
    game.answer(move="e")
    assert "dz.n.face_up" in game.keys() and game.step == "turn"
    game.state = game.state.with_cell((2, 0), up=True, zombies=2)
    game.answer(move="e")
    assert game.keys()[-2:] == ["dz.n.zombies_there", "dz.n.bare"] and game.step == "roll_red"
    game.roll(6, 6).roll(1, 1).answer(pairs={"r1": "b1", "r2": "b2"})
    assert game.keys()[-3:] == ["dz.n.cleared", "dz.n.face_up", "dz.n.round"]  # then no event


def test_an_objective_card_found_is_taken_and_replaced_by_a_random_set_aside_district_then_resolved():
    game = Play(("red", "blue")).answer(corner="nw").answer(corner="se").survivor(2, 4).answer(found="district")
    game.answer(move="e").answer(found="objective")
    assert game.me().objective and game.state.hidden_objectives == 1 and "dz.n.objective" in game.acts()
    request = dz.cup_request(game.state)
    assert request.kind == "pick" and request.count == 2
    game.pick(1)
    line = game.state.narration[-1]
    assert line.act and line.message.key == "dz.n.aside" and line.message.params["number"] == 2
    assert game.state.set_aside == 1 and game.step == "roll_event"  # the new district is flipped and resolved


def test_a_second_objective_card_stays_where_it_was_found():
    game = force(Play(("red", "blue")).answer(corner="nw").answer(corner="se").survivor(2, 4)
                 .answer(found="district"), objective=True)
    game.answer(move="e").answer(found="objective")
    assert game.state.cell((1, 0)).objectives == 1 and "dz.n.objective_left" in game.acts()
    assert game.seat == "blue"  # no event: the turn is over


def test_no_more_objective_cards_than_were_shuffled_in():
    game = solo()
    game.state = replace(game.state, hidden_objectives=0)
    game.answer(move="e")
    assert [c.action["found"] for c in dz.question(game.state, "red").choices] == ["district"]


def test_reaching_the_target_corner_with_an_objective_and_finishing_the_event_wins():
    game = force(solo(), pos=(5, 3), objective=True)
    game.answer(move="s").answer(found="district").roll(1)
    assert not game.state.over  # the event is finished first
    game.answer(outcome="nothing")
    assert game.state.over and game.state.winners == ("red",) and game.keys()[-2:] == ["dz.n.win", "dz.n.over"]


def test_reaching_the_target_corner_without_an_objective_does_not_win():
    game = force(solo(), pos=(5, 3))
    game.answer(move="s").answer(found="district").roll(1).answer(outcome="nothing")
    assert not game.state.over


def two_players(**options) -> Play:
    game = Play(("red", "blue"), **options).answer(corner="nw").answer(corner="se")
    game.survivor(2, 4).answer(found="district").answer(move="e").answer(found="district").roll(1)
    game.answer(outcome="nothing")
    return game.survivor(2, 4).answer(found="district")  # blue at F5, his turn


@pytest.mark.parametrize(("play_on", "over"), [(False, True), (True, False)])
def test_the_first_winner_ends_the_game_unless_the_others_play_on(play_on, over):
    game = force(two_players(play_on=play_on), "blue", pos=(0, 1), objective=True)
    game.answer(move="n").answer(found="district").roll(2).answer(outcome="nothing")
    assert game.state.winners == ("blue",) and game.state.over is over
    if play_on:
        assert game.seat == "red" and "dz.n.play_on" in game.keys()
        assert dz.view(game.state)["survivors"]["blue"]["won"]


# -- items -------------------------------------------------------------------------------------------------------


def item(game: Play, kind: str, attack: int = 0, health: int = 0) -> Play:
    return game.answer(outcome="item").answer(kind=kind).answer(bonus=attack).answer(bonus=health)


def test_an_item_is_entered_as_how_it_is_held_and_what_it_adds_and_counts_in_health():
    game = solo(health=3).answer(move="e").answer(found="district").roll(2)
    game.answer(outcome="item")
    assert [c.slot for c in dz.question(game.state, "red").choices] == [1, 2, 3, 4]
    game.answer(kind="two")
    question = dz.question(game.state, "red")
    assert question.kind == NUMBER and (question.low, question.high, question.field) == (0, 5, "bonus")
    game.answer(bonus=2).answer(bonus=1)
    assert game.me().items == (dz.state.Gear("two", 2, 1),) and game.me().life == 4
    assert game.acts()[-1] == "dz.n.item"


def test_at_most_four_hands_of_items_the_extra_one_stays_in_the_district():
    game = solo()
    force(game, items=(dz.state.Gear("two", 1), dz.state.Gear("one", 1), dz.state.Gear("free", 0, 1)))
    game.answer(move="e").answer(found="district").roll(2)
    item(game, "two", 2)
    assert game.step == "drop" and len(dz.question(game.state, "red").choices) == 4
    game.answer(drop=0)
    assert game.me().hands == 3 and len(game.state.cell((1, 0)).items) == 1 and "dz.n.drop" in game.acts()
    assert game.step == "turn"


def test_one_item_per_combat_unless_both_are_dual_wieldable():
    game = solo()
    force(game, items=(dz.state.Gear("one", 1), dz.state.Gear("dual", 1), dz.state.Gear("dual", 2)))
    game.answer(move="e").answer(found="district").roll(5).answer(outcome="zombies").answer(zombies=1)
    uses = [c.action["use"] for c in dz.question(game.state, "red").choices]
    assert uses == [[], [0], [1], [2], [1, 2]]  # never the one-handed item with another
    with pytest.raises(IllegalAction):
        game.answer(use=[0, 1])
    game.answer(use=[1, 2])
    assert dz.cup_request(game.state).count == 5  # attack 2 + 1 + 2


def test_items_lying_in_a_district_may_be_equipped_and_then_the_event_roll_is_skipped():
    game = solo(face_up_event="roll")
    game.state = game.state.with_cell((1, 0), up=True, items=(dz.state.Gear("one", 2),))
    game.answer(move="e")
    assert game.step == "pickup"
    game.answer(take=True)
    assert game.me().items == (dz.state.Gear("one", 2),) and "dz.n.no_event" in game.keys()
    assert game.step == "turn"


def test_an_item_that_broke_in_the_fight_goes_back_to_the_deck():
    game = force(solo(), items=(dz.state.Gear("one", 1),))
    game.answer(move="e").answer(found="district").roll(5).answer(outcome="zombies").answer(zombies=1)
    game.answer(use=[0]).roll(6, 6, 6).roll(1).answer(pairs={"r1": "b1", "r2": "none", "r3": "none"})
    assert [c.action for c in dz.question(game.state, "red").choices][1] == {"seat": "red", "discard": 0}
    game.answer(discard=0)
    assert game.me().items == () and game.acts()[-1] == "dz.n.discard"


# -- combat: dice, rounds, death ---------------------------------------------------------------------------------


def test_the_cup_rolls_one_red_die_per_attack_point_items_included_and_one_black_die_per_zombie():
    game = solo(attack=6)
    force(game, items=(dz.state.Gear("one", 2),))
    game.answer(move="e").answer(found="district").roll(5).answer(outcome="zombies").answer(zombies=8)
    game.answer(use=[0])
    assert dz.cup_request(game.state).count == 8  # attack 6 + the item's 2
    game.roll(6, 6, 6, 6, 6, 6, 6, 6)
    assert dz.cup_request(game.state).count == 8  # 8 zombies
    game.roll(1, 1, 1, 1, 1, 1, 1, 1)
    assert len(game.state.combat.red) == 8 and len(game.state.combat.black) == 8
    game.answer(pairs=dz.question(game.state, "red").answer["pairs"])
    assert game.state.cell((1, 0)).zombies == 0 and game.me().damage == 0


def test_the_box_dice_option_rolls_at_most_six_dice_of_each_colour():
    game = solo(attack=6, box_dice=True)
    force(game, items=(dz.state.Gear("one", 2),))
    game.answer(move="e").answer(found="district").roll(5).answer(outcome="zombies").answer(zombies=8)
    game.answer(use=[0])
    assert dz.cup_request(game.state).count == 6
    game.roll(1, 1, 1, 1, 1, 1)
    assert dz.cup_request(game.state).count == 6


def test_more_dice_than_the_cup_holds_are_rolled_in_several_goes():
    game = solo(attack=6)
    force(game, items=(dz.state.Gear("dual", 5), dz.state.Gear("dual", 5)))
    game.answer(move="e").answer(found="district").roll(5).answer(outcome="zombies").answer(zombies=9)
    game.state = game.state.with_cell((1, 0), zombies=12)  # zombies left by earlier fights add up
    game.answer(use=[0, 1])
    assert dz.cup_request(game.state).count == 10  # attack 16: 10 dice, then 6
    game.roll(*[6] * 10)
    assert dz.cup_request(game.state).count == 6 and game.step == "roll_red"
    game.roll(*[6] * 6)
    assert len(game.state.combat.red) == 16 and dz.cup_request(game.state).count == 10  # 12 zombies: 10, then 2
    game.roll(*[1] * 10).roll(1, 1)
    assert len(game.state.combat.black) == 12 and game.step == "pair"
    game.answer(pairs=dz.question(game.state, "red").answer["pairs"])
    assert game.state.cell((1, 0)).zombies == 0


def test_rounds_repeat_until_the_zombies_are_dead():
    game = solo().answer(move="e").answer(found="district").roll(5).answer(outcome="zombies").answer(zombies=3)
    game.roll(6, 1).roll(2, 2, 2).answer(pairs={"r1": "b1", "r2": "b2"})
    assert game.state.cell((1, 0)).zombies == 2 and game.me().damage == 2 and game.step == "roll_red"
    assert dz.cup_request(game.state).count == 2  # black dice = zombies left
    game.roll(6, 6).roll(1, 1).answer(pairs={"r1": "b1", "r2": "b2"})
    assert game.state.cell((1, 0)).zombies == 0 and game.step == "turn"


def test_a_pairing_that_is_not_one_is_refused_and_changes_nothing():
    game = solo().answer(move="e").answer(found="district").roll(5).answer(outcome="zombies").answer(zombies=2)
    game.roll(6, 6).roll(1, 1)
    before = game.state
    for pairs, code in (({"r1": "b1", "r2": "b1"}, "dz.refuse.pairs"), ({"r1": "b1"}, "dz.refuse.pairs_dice"),
                        ({"r1": "b9", "r2": "none"}, "dz.refuse.pairs_target"), ("b1", "dz.refuse.pairs_type"),
                        ({"r1": 1, "r2": "b2"}, "dz.refuse.pairs_target"),
                        ({"r1": "b\u00b2", "r2": "b2"}, "dz.refuse.pairs_target")):
        with pytest.raises(IllegalAction) as refused:
            game.answer(pairs=pairs)
        assert refused.value.code == code and game.state is before
    game.answer(pairs={"r1": "none", "r2": "b2"})  # a worse pairing is the player's to choose
    assert game.keys()[game.keys().index("dz.n.paired_own")] and game.me().damage == 1


def test_damage_above_health_kills_solo_the_game_is_lost():
    game = solo(health=1).answer(move="e").answer(found="district").roll(5).answer(outcome="zombies")
    game.answer(zombies=2).roll(1, 1).roll(5, 5).answer(pairs={"r1": "b1", "r2": "b2"})
    assert game.me().damage == 2 and game.state.over and game.state.lost and game.state.winners == ()
    assert "dz.n.death" in game.keys() and "dz.n.lost" in game.keys()


def test_a_solo_survivor_who_dies_holding_the_objective_and_items_leaves_them_where_he_fell_only():
    game = solo(health=1)
    force(game, items=(dz.state.Gear("one", 0),), objective=True)
    game.answer(move="e").answer(found="district").roll(5).answer(outcome="zombies")
    game.answer(zombies=2).roll(1, 1).roll(5, 5).answer(pairs={"r1": "b1", "r2": "b2"})
    assert game.state.over and game.state.lost
    cell, red = game.state.cell((1, 0)), game.me("red")
    assert len(cell.items) == 1 and cell.objectives == 1  # dropped where he fell...
    assert red.items == () and not red.objective and red.pos is None  # ...and no longer in his hands
    assert {"dz.n.drop_all", "dz.n.drop_objective"} <= set(game.acts())


def test_damage_equal_to_health_does_not_kill():
    game = solo(health=2).answer(move="e").answer(found="district").roll(5).answer(outcome="zombies")
    game.answer(zombies=2).roll(1, 1).roll(5, 5).answer(pairs={"r1": "b1", "r2": "b2"})
    assert game.me().damage == 2 and not game.state.over


def test_a_dead_survivor_drops_his_items_and_objective_and_restarts_at_his_corner_as_a_new_survivor():
    game = Play(("red", "blue")).answer(corner="nw").answer(corner="se").survivor(2, 1).answer(found="district")
    force(game, items=(dz.state.Gear("one", 0),), objective=True)
    game.answer(move="e").answer(found="district").roll(5).answer(outcome="zombies").answer(zombies=2)
    game.roll(1, 1).roll(5, 5).answer(pairs={"r1": "b1", "r2": "b2"})
    cell = game.state.cell((1, 0))
    assert len(cell.items) == 1 and cell.objectives == 1 and cell.up
    assert {"dz.n.drop_all", "dz.n.drop_objective", "dz.n.remove_figure"} <= set(game.acts())
    red = game.me("red")
    assert red.pos is None and red.number == 2 and red.attack is None and game.state.spare_survivors == 3
    assert game.seat == "blue"
    game.survivor(2, 4).answer(found="district")
    game.answer(move="n").answer(found="district").roll(1).answer(outcome="nothing")
    assert game.seat == "red" and game.step == "attack"  # a new survivor card: its attack and health
    game.survivor(3, 3)
    assert game.me("red").pos == (0, 0) and game.me("red").number == 2


def test_with_no_unused_survivor_card_left_a_dead_player_is_out():
    game = Play(("red", "blue")).answer(corner="nw").answer(corner="se").survivor(2, 1).answer(found="district")
    game.state = replace(game.state, spare_survivors=0)
    game.answer(move="e").answer(found="district").roll(5).answer(outcome="zombies").answer(zombies=2)
    game.roll(1, 1).roll(5, 5).answer(pairs={"r1": "b1", "r2": "b2"})
    assert game.me("red").out and "dz.n.out" in game.keys()


# -- survivor against survivor -----------------------------------------------------------------------------------


def meeting() -> Play:
    game = two_players(face_up_event="skip")  # no event where red stands: the meeting at once
    force(game, "red", pos=(4, 4), items=(dz.state.Gear("one", 1),))
    force(game, "blue", objective=True)
    game.state = game.state.with_cell((4, 4), up=True)
    return game  # blue's turn at F5; red stands next door at E5


def test_survivors_in_one_district_may_fight_one_round_the_higher_sum_chooses():
    game = meeting()
    game.answer(move="w")
    assert game.step == "meet"
    assert [c.action["fight"] for c in dz.question(game.state, "blue").choices if "fight" in c.action] == ["", "red"]
    game.answer(fight="red")
    assert dz.cup_request(game.state).count == 2  # blue's attack: 2
    game.roll(1, 1)
    assert dz.cup_request(game.state).count == 3  # red's attack value: 2 + his item's 1
    game.roll(3, 2, 1)
    assert game.seat == "red" and game.step == "spoils"
    actions = [c.action["spoils"] for c in dz.question(game.state, "red").choices]
    assert actions == ["damage", "objective"]  # blue has no item; he has an objective card
    game.answer(spoils="objective")
    assert game.me("red").objective and not game.me("blue").objective and "dz.n.steal_objective" in game.acts()
    assert game.seat == "red" and game.step == "turn"  # blue fought the only one there: his turn is over


def test_a_fight_between_survivors_can_steal_an_item_or_deal_one_damage():
    game = meeting()
    game.answer(move="w").answer(fight="red").roll(6, 6).roll(1, 1, 1)
    assert game.seat == "blue"
    assert [c.action["spoils"] for c in dz.question(game.state, "blue").choices] == ["damage", "item:0"]
    game.answer(spoils="item:0")
    assert game.me("blue").items == (dz.state.Gear("one", 1),) and game.me("red").items == ()
    game2 = meeting()
    game2.answer(move="w").answer(fight="red").roll(6, 6).roll(1, 1, 1).answer(spoils="damage")
    assert game2.me("red").damage == 1 and game2.acts()[-1] == "dz.n.hurt"


def test_a_tie_between_survivors_is_said_and_nothing_happens():
    game = meeting()
    game.answer(move="w").answer(fight="red").roll(2, 2).roll(1, 2, 1)
    assert game.keys()[-3:] == ["dz.n.fight_dice", "dz.n.tie", "dz.n.round"]
    assert game.me("red").damage == 0 and game.me("blue").objective


def test_survivors_may_trade_any_items_they_agree_on_then_go_on():
    game = meeting()
    force(game, "blue", items=(dz.state.Gear("two", 0, 2),))
    game.answer(move="w")
    gives = [c.action["give"] for c in dz.question(game.state, "blue").choices if "give" in c.action]
    assert gives == ["blue:0:red", "red:0:blue"]
    game.answer(give="red:0:blue").answer(give="blue:0:red")
    assert game.me("blue").items == (dz.state.Gear("one", 1),) and game.me("red").items == (dz.state.Gear("two", 0, 2),)
    assert game.acts()[-2:] == ["dz.n.give", "dz.n.give"] and game.step == "meet"
    game.answer(fight="")
    assert game.seat == "red"


def test_survivors_may_just_greet():
    game = meeting()
    game.answer(move="w").answer(fight="")
    assert game.seat == "red" and game.step == "turn"


# -- the interface: refusals, the table, the cup, views ----------------------------------------------------------


def test_bad_answers_are_refused_with_a_reason_and_change_nothing():
    game = Play()
    before = game.state
    for action, code in (({"seat": "red", "attack": 7}, "dz.refuse.number"),
                         ({"seat": "red", "attack": "3"}, "dz.refuse.number"),
                         ({"seat": "blue", "attack": 3}, "dz.refuse.seat_unknown"),
                         ("attack", "dz.refuse.answer_object")):
        with pytest.raises(IllegalAction) as refused:
            dz.decide(game.state, action)
        assert refused.value.code == code
    assert game.state is before
    with pytest.raises(IllegalAction):
        dz.start(["red"], position={"round": 3})


def test_every_prompt_lists_legal_answers_and_every_question_its_kind(registered):
    state = dz.start(["red", "blue"])
    rolls = 0
    while not state.over and len(state.narration) < 150:
        request = dz.cup_request(state)
        if request is not None:
            rolls += 1
            state = dz.apply(state, {"roll": [(rolls + i) % 6 + 1 for i in range(request.count)]}
                             if request.kind == "roll" else {"pick": 0})
            continue
        prompt = dz.prompt(state)
        seat = prompt.seats[0]
        question = dz.question(state, seat)
        assert question.kind == prompt.kind and question.id == prompt.id
        assert dz.question(state, "red" if seat == "blue" else "blue") is None
        if question.kind == NUMBER:  # its range is in its question; the prompt lists no answers for it
            assert prompt.options[seat] == [] and question.low <= question.high
            answer = {**question.answer, question.field: question.high}
        elif question.kind == ASSIGN:
            assert prompt.options[seat] == [] and question.field in question.answer
            answer = dict(question.answer)  # the proposal
        else:
            answer = prompt.options[seat][-1]
        state = dz.apply(state, dz.decide(state, answer)[0])


def test_played_through_a_real_table_with_the_cup_its_narration_in_four_languages(registered):
    events, final = random_game(dz, ["red", "yellow"], random.Random(9))  # a short game that someone wins
    table = Table(cup=DiceCup(scripted=[tuple(e["roll"]) for e in events if "roll" in e],
                              picks=[e["pick"] for e in events if "pick" in e]))
    table.new_game("district-z", ["red", "yellow"])
    for event in events:
        if "roll" not in event and "pick" not in event:
            table.answer(event)
    assert table.state.over and table.state.winners == final.winners
    books = catalogue()
    for entry in table.narration():
        for lang in ("en", "zh-Hans", "zh-Hant", "vi"):
            text = books.text(entry.message, lang)
            assert "{" not in text and not text.startswith("dz."), (lang, text)
    view = table.view("red")
    assert view["game"] == "district-z" and "board" not in view and len(view["cells"]) == 30
    assert any(entry.act for entry in table.narration())
    record = table.record()
    assert record["table_options"] == {"grid": "6x5", "face_up_event": "roll", "play_on": False, "box_dice": False}


def test_the_seeds_words_are_in_the_chinese_catalogue(registered):
    books = catalogue()
    hant = "\n".join(v for k, v in books.messages["zh-Hant"].items() if k.startswith("dz.") and isinstance(v, str))
    hans = "\n".join(v for k, v in books.messages["zh-Hans"].items() if k.startswith("dz.") and isinstance(v, str))
    plural = "\n".join(v[0] for k, v in books.messages["zh-Hant"].items() if k.startswith("dz.")
                       and isinstance(v, tuple))
    for word in ("地區卡", "地區目標卡", "殭屍指示物", "黑骰", "紅骰", "傷害", "治療", "倖存者卡", "物品卡", "可雙持"):
        assert word in hant + plural, word
    for word in ("地区卡", "丧尸", "黑骰", "红骰", "伤害", "治疗", "幸存者卡"):
        assert word in hans, word


def reference_best(red, black) -> tuple[int, int]:
    """(kills, -damage) of the best pairing by a plain search over which black dice are used (no shortcut)."""
    from functools import cache

    @cache
    def best(i: int, used: int) -> tuple[int, int]:
        if i == len(red):
            return (0, 0)
        top = best(i + 1, used)
        for b, value in enumerate(black):
            if not used & (1 << b) and red[i] >= value:
                kills, held = best(i + 1, used | (1 << b))
                top = max(top, (kills + (red[i] > value), held + 1))
        return top

    kills, held = best(0, 0)
    return kills, -(len(black) - held)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=16), st.lists(st.integers(1, 6), min_size=1, max_size=9))
def test_the_proposed_pairing_of_many_dice_has_the_most_kills_then_the_least_damage(red, black):
    kills, damage = dz.outcome(red, black, dz.best_pairing(red, black))
    assert (kills, -damage) == reference_best(tuple(red), tuple(black))


def test_the_proposed_pairing_of_twenty_dice_a_side_is_found():
    red, black = [6, 5, 4, 3, 2, 1] * 3 + [6, 6], [1, 2, 3, 4, 5, 6] * 3 + [1, 1]
    # 17 kills at most (each red die above the lowest black die left); a red 6 tying a black 6 would cost a kill,
    # so the three black 6s deal their damage
    assert dz.outcome(red, black, dz.best_pairing(red, black)) == (17, 3)


def bot_answer(question, rng: random.Random) -> dict:
    """What a simple bot sends from its phone's question: a random choice, number or pairing of the dice."""
    if question.kind == NUMBER:
        return {**question.answer, question.field: rng.randint(question.low, question.high)}
    if question.kind == ASSIGN:
        blacks = [t.value for t in question.targets if t.value != "none"]
        rng.shuffle(blacks)
        pairs = {item.value: blacks.pop() if blacks and rng.random() < 0.8 else "none" for item in question.items}
        return {**question.answer, "pairs": pairs}
    return dict(rng.choice(question.choices).action)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4), st.sampled_from(["4x4", "6x5"]), st.booleans(),
       st.sampled_from(["roll", "skip"]), st.booleans())
def test_property_bots_answering_their_phones_question_never_wait_on_a_question_asked_twice(
        seed, players, grid, box_dice, face_up_event, play_on):
    """Each state asks one seat (with a legal answer), asks the cup or is over, and every asking has its own id
    (a bot drops an id it has answered: an id asked again would stall the table)."""
    rng = random.Random(seed)
    state = dz.start(["red", "yellow", "blue", "green"][:players],
                     {"grid": grid, "box_dice": box_dice, "face_up_event": face_up_event, "play_on": play_on})
    answered: set[str] = set()
    for _ in range(5000):
        if state.over:
            break
        request, prompt = dz.cup_request(state), dz.prompt(state)
        assert (request is None) != (prompt is None), state.step
        if request is not None:
            assert 1 <= request.count <= 10
            state = dz.apply(state, {"roll": [rng.randint(1, 6) for _ in range(request.count)]}
                             if request.kind == "roll" else {"pick": rng.randrange(request.count)})
            continue
        assert len(prompt.seats) == 1 and prompt.id not in answered, (prompt.id, state.step)
        question = dz.question(state, prompt.seats[0])
        assert question.kind != PICK or question.choices
        state = dz.apply(state, bot_answer(question, rng))
        answered.add(prompt.id)
