"""Eaten by Zombies!, rule by rule: one test per line of the section in ../shared/rules/other-games.md (seed 001),
named after it, then the Powers, the refusals, the secrets and the books (zombie cards conserved, hypothesis)."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.catalogue import CORE_TERMS, LANGUAGES, LOCALE, Catalogue
from companion.contract import KINDS, NUMBER, PICK, IllegalAction
from companion.games import eaten_by_zombies as ebz
from companion.games.eaten_by_zombies.state import EMPTY, LEVELS, Zombie, pile_add

BOOKS = Catalogue([LOCALE, ebz.LOCALE], {**CORE_TERMS, **ebz.TERMS})


def en(line_or_message) -> str:
    message = getattr(line_or_message, "message", line_or_message)
    return BOOKS.text(message, "en")


@contextmanager
def refused_with(text: str):
    """The rules refuse, saying `text` (in English) among their reason."""
    with pytest.raises(IllegalAction) as refused:
        yield
    assert re.search(text, en(refused.value)), en(refused.value)


def begin(players=("red", "yellow", "blue"), options=None, picks=None) -> ebz.State:
    """A new game with the market drawn (the cup's picks: the first kinds left unless given)."""
    state = ebz.start(list(players), options)
    picks = list(picks or [])
    while ebz.cup_request(state) is not None:
        state = ebz.apply(state, {"pick": picks.pop(0) if picks else 0})
    return state


def act(state: ebz.State, *actions: dict) -> ebz.State:
    for action in actions:
        for event in ebz.decide(state, action):
            state = ebz.apply(state, event)
    return state


def said(state: ebz.State, since: int = 0) -> list[str]:
    return [en(entry) for entry in state.narration[since:] if not entry.seats]


def acts(state: ebz.State, since: int = 0) -> list[str]:
    return [en(entry) for entry in state.narration[since:] if entry.act]


def flip(state, level, speed):
    seat = state.active
    return act(state, {"seat": seat, "level": level}, {"seat": seat, "speed": speed})


def arrange(state: ebz.State, **changes) -> ebz.State:
    """A position the rules could reach, set up directly; the zombie cards must still all be in the books."""
    out = replace(state, **changes)
    assert out.zombie_count == out.total
    return out


def move_from_deck(state: ebz.State, seat: str, *levels: int, power: bool = False) -> ebz.State:
    """Deal zombies from the deck to a seat's cards (or to its Powers)."""
    deck, cards, powers = state.deck, dict(state.cards), dict(state.powers)
    for level in levels:
        deck = pile_add(deck, level, -1)
        if power:
            powers[seat] = powers.get(seat, ()) + (level,)
        else:
            cards[seat] = pile_add(cards.get(seat, EMPTY), level)
    return arrange(state, deck=deck, cards=cards, powers=powers)


def to_choose(state, *zombies):
    """Flip the given (level, speed) zombies and let nobody add: the active player's choice is next."""
    state = replace(state, flips_left=len(zombies), flips_total=len(zombies))
    for level, speed in zombies:
        state = flip(state, level, speed)
    while state.step == "add":
        state = act(state, {"seat": state.adders[0], "pass": True})
    assert state.step == "choose"
    return state


# -- 2–4 players. Each starts with 12 cards (5 Heavy Stick, 5 Hide, 2 Sandwich); hand size 6. ------------------


def test_2_to_4_players_each_starts_with_12_cards_5_heavy_stick_5_hide_2_sandwich_hand_size_6():
    for n in (2, 3, 4):
        state = begin(["red", "yellow", "blue", "green"][:n])
        assert state.players == ("red", "yellow", "blue", "green")[:n]
        assert "Each player takes a starting deck of 12 cards (5 HEAVY STICK, 5 HIDE, 2 SANDWICH), shuffles it and " \
               "draws 6" in acts(state)
    for wrong, code in ((["red"], "players"), (["red", "yellow", "blue", "green", "red"], "seat_twice"),
                        (["red", "red"], "seat_twice"), (["red", "purple"], "colour_unknown"), ("red", "players_list"),
                        (["yellow", {}], "player_type")):
        with pytest.raises(IllegalAction) as refused:
            ebz.start(wrong)
        assert refused.value.code == f"ebz.refuse.{code}"
    assert (ebz.SETUP.min_players, ebz.SETUP.max_players) == (2, 4)
    state = to_choose(begin(), (1, 1))
    state = act(state, {"seat": "red", "fight": True}, {"seat": "red", "value": 1}, {"seat": "red", "bonus": 0})
    assert ebz.question(state, "red").title.params["hand"] == 6  # refill to 6
    assert "Red, refill your hand to 6 cards (discard down to 6 if you hold more)" in acts(state)


# -- Market: Binoculars, A Good Book, Rifle (5 each) plus 2 × players other action types chosen at random. -------


def test_market_binoculars_a_good_book_rifle_5_each_plus_2_x_players_kinds_chosen_at_random_by_the_cup():
    state = ebz.start(["red", "yellow", "blue"])
    assert ebz.prompt(state) is None
    requests = []
    while (request := ebz.cup_request(state)) is not None:
        requests.append(request.count)
        state = ebz.apply(state, {"pick": request.count - 1})  # the last kind left each time
    assert requests == [12, 11, 10, 9, 8, 7]  # six kinds drawn from the twelve, each from those left
    assert sorted(state.market) == [7, 8, 9, 10, 11, 12]
    lines = acts(state)
    assert "Put the BINOCULARS, A GOOD BOOK and RIFLE piles (5 each, face up) in the market" in lines
    assert "Lay the other action kinds' piles in a row and number them 1 to 12 from the left" in lines
    assert any(line.startswith("Add these 6 action kinds to the market, drawn at random: action kind no. 7, ")
               for line in lines)


def test_the_market_list_is_the_tables_to_edit():
    names = ["Chainsaw", "Crowbar", "Molotov", "Pistol", "Shotgun"]
    state = begin(["red", "blue"], {"market": names}, picks=[4, 0, 0, 0])
    assert state.market == ("Shotgun", "Chainsaw", "Crowbar", "Molotov")
    assert "Add these 4 action kinds to the market, drawn at random: Chainsaw, Crowbar, Molotov and Shotgun" \
        in acts(state)
    for bad in (["Chainsaw"], 3, [1, 2, 3, 4], "lots", ["x"] * 5):
        with pytest.raises(IllegalAction) as refused:
            ebz.start(["red", "blue"], {"market": bad})
        assert refused.value.code == "ebz.refuse.market"
    assert begin(["red", "blue"], {"market": 4}).market == (1, 2, 3, 4)
    with refused_with("Unknown table option"):
        ebz.start(["red", "blue"], {"rounding": "up"})


# -- Zombie deck by level: 5/4/3/2/1 = 15; 3 players one more of each = 20; 4 players two more = 25. -------------


@pytest.mark.parametrize(("n", "deck", "total"), [(2, (5, 4, 3, 2, 1), 15), (3, (6, 5, 4, 3, 2), 20),
                                                  (4, (7, 6, 5, 4, 3), 25)])
def test_zombie_deck_by_level_15_20_25_cards_each_with_a_level_and_a_speed(n, deck, total):
    state = begin(["red", "yellow", "blue", "green"][:n])
    assert state.deck == deck and state.total == total == sum(deck)
    assert ebz.view(state)["deck"] == total
    assert any(line.startswith(f"Zombie deck: {deck[0]} of level 1, {deck[1]} of level 2") and
               line.endswith(f"shuffle the {total} cards face down") for line in acts(state))
    # each flip is entered in two taps, on the pad's buttons: the level (1/2/4/6/8 on 1..5), then the speed
    question = ebz.question(state, "red")
    assert question.kind == PICK and [c.action["level"] for c in question.choices] == list(LEVELS)
    assert [c.slot for c in question.choices] == [1, 2, 3, 4, 5]
    state = act(state, {"seat": "red", "level": 8})
    question = ebz.question(state, "red")
    assert [c.action["speed"] for c in question.choices] == [1, 2, 3, 4, 5, 6]
    assert [c.slot for c in question.choices] == [1, 2, 3, 4, 5, 6]
    state = act(state, {"seat": "red", "speed": 2})
    assert ebz.view(state)["field"] == [{"level": 8, "speed": 2, "by": None}]
    assert ebz.view(state)["deck"] == total - 1
    assert f"Red flips a zombie: level 8, speed 2 ({total - 1} left in the zombie deck)" in said(state)


# -- Turn: flip zombies from the zombie deck (1, plus 1 more for every time the zombie deck has been reshuffled). --


def test_turn_flips_1_zombie_plus_1_more_for_every_reshuffle_of_the_zombie_deck():
    state = begin(["red", "blue"])
    assert "Red, flip 1 zombie from the zombie deck into the field" in acts(state)
    # the deck down to its last card, the rest in the zombie discard
    state = arrange(state, deck=(1, 0, 0, 0, 0), discard=(4, 4, 3, 2, 1))
    state = flip(state, 1, 2)
    assert state.reshuffles == 1 and sum(state.deck) == 14 and sum(state.discard) == 0
    assert ("The zombie deck is empty: shuffle the zombie discard (14 cards) into a new zombie deck; from now on each "
            "turn flips 2") in acts(state)
    state = act(state, {"seat": "red", "fight": True}, {"seat": "red", "value": 0}, {"seat": "red", "refilled": True})
    assert state.active == "blue" and "Blue, flip 2 zombies from the zombie deck into the field" in acts(state)
    state = flip(state, 2, 6)
    assert state.step == "flip" and ebz.question(state, "blue").title.params == {"colour": "blue", "number": 2,
                                                                                  "total": 2}
    state = flip(state, 4, 6)
    assert len(state.field) == 2 and state.step == "choose"  # Blue holds no zombie to add
    assert ebz.view(state)["flips"] == 2


def test_a_flip_of_a_level_the_zombie_deck_no_longer_holds_is_refused():
    state = arrange(begin(["red", "blue"]), deck=(5, 4, 3, 2, 0), discard=(0, 0, 0, 0, 1))
    assert 8 not in [c.action["level"] for c in ebz.question(state, "red").choices]
    with pytest.raises(IllegalAction) as refused:
        act(state, {"seat": "red", "level": 8})
    assert en(refused.value) == "No level-8 zombie is left in the zombie deck: check the card."
    with refused_with("3 is not a zombie level"):
        act(state, {"seat": "red", "level": 3})
    with refused_with("9 is not a speed"):
        act(state, {"seat": "red", "level": 1}, {"seat": "red", "speed": 9})


# -- Each other player may add one zombie from hand, only if its speed is greater than the zombies in play. --------


def test_each_other_player_may_add_one_zombie_whose_speed_is_greater_than_the_zombies_in_play():
    state = move_from_deck(begin(), "yellow", 4, 2)
    state = move_from_deck(state, "blue", 6)
    state = flip(state, 1, 1)
    assert state.step == "add" and state.adders == ("yellow", "blue")  # from the active player's left
    assert "May add one zombie each from the hand, speed greater than 1: Yellow and Blue" in said(state)
    question = ebz.question(state, "yellow")
    assert question.title.params == {"colour": "yellow", "to_seat": "red"}
    assert [c.action.get("level") for c in question.choices] == [2, 4, None]  # what Yellow holds, or none
    state = act(state, {"seat": "yellow", "level": 4})
    assert [c.action["speed"] for c in ebz.question(state, "yellow").choices] == [2, 3, 4, 5, 6]
    with pytest.raises(IllegalAction) as refused:
        act(state, {"seat": "yellow", "speed": 1})
    assert en(refused.value) == "A zombie added now needs a speed greater than 1, the zombies in play."
    state = act(state, {"seat": "yellow", "speed": 3})
    assert "Yellow adds a zombie to Red's field: level 4, speed 3" in said(state)
    assert state.adders == ("blue",)  # one each: Yellow is not asked again
    state = act(state, {"seat": "blue", "level": 6})
    assert [c.action["speed"] for c in ebz.question(state, "blue").choices] == [3, 4, 5, 6]
    state = act(state, {"seat": "blue", "speed": 3})
    assert state.step == "choose" and state.level_sum == 11 and state.speed_sum == 7
    assert state.held("yellow") == (0, 1, 0, 0, 0) and state.held("blue") == EMPTY


def test_so_a_speed_1_zombie_can_never_be_added():
    state = flip(move_from_deck(begin(["red", "blue"]), "blue", 1), 2, 2)
    state = act(state, {"seat": "blue", "level": 1})
    assert 1 not in [c.action["speed"] for c in ebz.question(state, "blue").choices]
    with refused_with("speed greater than 1"):
        act(state, {"seat": "blue", "speed": 1})


def test_a_player_may_add_nothing_once_the_field_is_as_fast_as_any_zombie():
    state = move_from_deck(begin(), "yellow", 2)
    state = arrange(state, field=tuple(Zombie(1, 6) for _ in range(5)), deck=pile_add(state.deck, 1, -5))
    state = flip(state, 1, 6)  # six zombies in play: no speed is greater
    assert state.step == "choose" and "Nobody may add a zombie now" in said(state)
    with refused_with("speed greater than 6"):
        act(state, {"seat": "yellow", "level": 2})


# -- with 2 players there is no limit on how many are added ---------------------------------------------------------


def test_with_2_players_there_is_no_limit_on_how_many_zombies_are_added():
    state = flip(move_from_deck(begin(["red", "blue"]), "blue", 2, 2, 4), 1, 1)
    for n, level in enumerate((2, 2, 4)):
        assert state.step == "add" and state.adders == ("blue",)
        state = act(state, {"seat": "blue", "level": level}, {"seat": "blue", "speed": 2 + n})
    assert len(state.field) == 4 and state.step == "choose"  # nothing left in Blue's hand to add
    three = flip(move_from_deck(begin(), "yellow", 2, 2), 1, 1)
    three = act(three, {"seat": "yellow", "level": 2}, {"seat": "yellow", "speed": 5})
    assert three.adders == ()


# -- Fight: sum of fight values ≥ level sum → win: buy with budget = fight value (+ diamonds), stop at 6 cards;
#    the killed zombies go to the player's discard. ------------------------------------------------------------------


def test_fight_won_at_the_level_sum_buys_with_fight_value_plus_diamonds_killed_zombies_to_the_players_discard():
    state = to_choose(begin(), (4, 2))
    state = act(state, {"seat": "red", "fight": True})
    question = ebz.question(state, "red")
    assert question.kind == NUMBER and (question.low, question.high) == (0, 60) and question.field == "value"
    assert en(question.facts[-1]) == "Win with 4 or more (the level sum)"
    state = act(state, {"seat": "red", "value": 4})  # equal is enough
    assert state.last.result == "won" and state.step == "bonus"
    state = act(state, {"seat": "red", "bonus": 2})
    lines = acts(state)
    assert "Put the 1 zombie in Red's discard: it joins Red's deck" in lines
    assert ("Red, buy cards from the market for up to 6 (4 + 2 from diamonds); the new cards go to your hand, stop "
            "at 6") in lines
    assert state.field == () and state.held("red") == (0, 0, 1, 0, 0) and state.last.budget == 6
    assert not any(line.startswith("Red, remove") for line in lines)


# -- Lose: remove cards equal to the sum of the zombies' speeds; the zombies go to the zombie discard. ---------------


def test_fight_lost_removes_the_speed_sum_of_cards_and_the_zombies_go_to_the_zombie_discard():
    state = to_choose(begin(), (4, 2), (2, 5))
    state = act(state, {"seat": "red", "fight": True}, {"seat": "red", "value": 5})
    assert state.last.result == "lost" and state.last.remove == 7 and state.step == "refill"
    lines = acts(state)
    assert ("Red, remove 7 cards from the top of your deck or your hand (no zombie card from the hand) and return "
            "them to the market") in lines
    assert "Put the 2 zombies in the zombie discard (now 2 there)" in lines
    assert state.field == () and state.discard == (0, 1, 1, 0, 0)
    assert not any("buy" in line for line in lines)  # a lost fight buys nothing


# -- Run: flee values ≥ speed sum → escape, still remove half the speed sum (rounded down; option up); the zombies
#    stay for the next player. --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rounding", "removed"), [(None, 3), ("down", 3), ("up", 4)])
def test_run_escaped_still_removes_half_the_speed_sum_rounded_by_the_table_option_and_the_zombies_stay(rounding,
                                                                                                     removed):
    options = {"run_rounding": rounding} if rounding else None
    state = to_choose(begin(options=options), (4, 2), (2, 5))  # speed sum 7
    state = act(state, {"seat": "red", "run": True})
    assert en(ebz.question(state, "red").facts[-1]) == "Escape with 7 or more (the speed sum)"
    state = act(state, {"seat": "red", "run": True} if False else {"seat": "red", "value": 7})
    assert state.last.result == "escaped" and state.last.remove == removed
    state = act(state, {"seat": "red", "bonus": 0})
    lines = acts(state)
    assert (f"Red, remove {removed} cards from the top of your deck, your discard or your hand (no zombie card from "
            "the hand or the discard) and return them to the market") in lines
    assert any(line.startswith("Red, buy cards from the market for up to 7 (7 + 0") for line in lines)
    assert "The 2 zombies stay in the field for Yellow" in said(state)
    state = act(state, {"seat": "red", "refilled": True})
    assert state.active == "yellow" and len(state.field) == 2
    assert "2 zombies are already waiting in the field for Yellow" in said(state)
    state = flip(state, 1, 1)  # Yellow faces the two and a new one
    assert len(state.field) == 3


def test_the_rounding_option_is_on_the_new_game_form():
    (option,) = ebz.SETUP.options
    assert option.name == "run_rounding" and option.default == "down"
    assert [c.value for c in option.choices] == ["down", "up"]
    with refused_with("rounding"):
        ebz.start(["red", "blue"], {"run_rounding": "sideways"})


# -- Fail: remove the full speed sum; the zombies are discarded. --------------------------------------------------


def test_run_failed_removes_the_full_speed_sum_and_the_zombies_are_discarded():
    state = to_choose(begin(options={"run_rounding": "up"}), (4, 2), (2, 5))
    state = act(state, {"seat": "red", "run": True}, {"seat": "red", "value": 6})
    assert state.last.result == "failed" and state.last.remove == 7
    assert "Put the 2 zombies in the zombie discard (now 2 there)" in acts(state)
    assert any(line.startswith("Red, remove 7 cards from the top of your deck or your hand") for line in acts(state))
    assert state.step == "refill" and state.field == ()


def test_a_zombie_removed_from_the_deck_goes_to_the_zombie_discard():
    state = to_choose(move_from_deck(begin(), "red", 2, 6), (1, 3))
    state = act(state, {"seat": "red", "fight": True}, {"seat": "red", "value": 0})
    question = ebz.question(state, "red")
    assert state.step == "removed" and [c.action.get("level") for c in question.choices] == [2, 6, None]
    state = act(state, {"seat": "red", "level": 6})
    assert "A level-6 zombie was among Red's removed cards: put it in the zombie discard" in acts(state)
    assert state.step == "removed" and state.remove_left == 2  # 3 removed: at most 3 said
    state = act(state, {"seat": "red", "pass": True})
    assert state.step == "refill" and state.held("red") == (0, 1, 0, 0, 0)
    assert state.discard == (1, 0, 0, 1, 0)


# -- Deck exhausted with no discard to reshuffle → all living humans win. ------------------------------------------


def test_zombie_deck_exhausted_with_no_discard_to_reshuffle_all_living_humans_win():
    state = begin(["red", "yellow", "blue"])
    deck = state.deck
    state = arrange(state, deck=(1, 0, 0, 0, 0), cards={"red": EMPTY, "yellow": pile_add(deck, 1, -1), "blue": EMPTY},
                    dead=("blue",))
    state = flip(state, 1, 1)
    assert state.over and state.winners == ("red", "yellow")
    assert said(state)[-2:] == ["The zombie deck is empty and the zombie discard too: the city's zombies are wiped out",
                                "All living humans win: Red and Yellow"]


# -- A player who must draw with no deck and no discard dies and becomes a zombie player. ---------------------------


def test_a_player_who_must_draw_with_no_deck_and_no_discard_dies_and_becomes_a_zombie_player():
    state = to_choose(move_from_deck(begin(), "red", 2, 4), (1, 1))
    state = act(state, {"seat": "red", "fight": True}, {"seat": "red", "value": 1}, {"seat": "red", "bonus": 0})
    choices = ebz.question(state, "red").choices
    assert [en(c.label) for c in choices] == ["Done: 6 in hand", "Cannot draw: no deck, no discard"]
    state = act(state, {"seat": "red", "dies": True})
    assert state.dead == ("red",) and state.humans == ("yellow", "blue")
    assert "Red must draw with no deck and no discard: Red dies and becomes a zombie player" in said(state)
    assert "Red, return your cards to the market and put your 3 zombies in the zombie discard" in acts(state)
    assert state.held("red") == EMPTY and state.discard == (1, 1, 1, 0, 0)
    assert state.active == "yellow" and not state.over
    state = to_choose(state, (1, 2))
    state = act(state, {"seat": "yellow", "run": True}, {"seat": "yellow", "value": 0},
                {"seat": "yellow", "refilled": True})
    state = to_choose(state, (1, 2))
    state = act(state, {"seat": "blue", "run": True}, {"seat": "blue", "value": 0}, {"seat": "blue", "refilled": True})
    assert state.active == "red" and state.step == "zdraw"  # his next turn: a zombie player's
    assert "Turn 4: Red, zombie player" in said(state)


def test_a_zombie_player_draws_1_to_4_zombies_and_must_keep_one_as_a_power():
    state = zombie_turn(begin(["red", "yellow", "blue"]))
    question = ebz.question(state, "red")
    assert [c.action["draw"] for c in question.choices] == [1, 2, 3, 4]
    state = act(state, {"seat": "red", "draw": 3})
    assert "Red draws 3 zombies from the zombie deck" in acts(state)
    state = act(state, {"seat": "red", "level": 2}, {"seat": "red", "level": 6}, {"seat": "red", "level": 6})
    assert ebz.question(state, "red").secret is False and state.step == "zpower"
    assert [c.action["level"] for c in ebz.question(state, "red").choices] == [2, 6]  # one of those drawn
    state = act(state, {"seat": "red", "level": 6})
    assert state.powers["red"] == (6,) and state.held("red") == (0, 1, 0, 1, 0)
    assert "Red keeps a level-6 zombie face up as a Power" in acts(state)
    assert "Powers in force: 6" in said(state)
    # he may put any of the rest back on top of the deck, in secret, then flips like any player
    assert state.step == "zback" and ebz.question(state, "red").secret
    state = act(state, {"seat": "red", "level": 2}, {"seat": "red", "pass": True})
    assert state.held("red") == (0, 0, 0, 1, 0) and state.step == "flip"
    assert "Red, flip 1 zombie from the zombie deck into the field" in acts(state)
    state = flip(state, 2, 4)
    assert state.active == "yellow" and state.field == (Zombie(2, 4),)
    assert "The 1 zombie stays in the field for Yellow" in said(state)


def test_a_zombie_player_keeps_at_most_3_powers_the_oldest_is_dropped():
    state = zombie_turn(begin(["red", "yellow", "blue"]))
    state = move_from_deck(state, "red", 1, 2, 4, power=True)
    state = act(state, {"seat": "red", "draw": 1}, {"seat": "red", "level": 8}, {"seat": "red", "level": 8})
    assert state.powers["red"] == (2, 4, 8)
    assert "Red has more than 3 Powers: put the oldest (level 1) in the zombie discard" in acts(state)
    assert state.discard == (1, 0, 0, 0, 0)


def test_a_zombie_player_may_add_zombies_only_to_his_left_or_right_neighbour():
    state = begin(["red", "yellow", "blue", "green"])
    state = move_from_deck(arrange(state, dead=("yellow",)), "yellow", 4)
    state = flip(state, 1, 1)  # Red's turn: Yellow sits beside him
    assert state.adders == ("yellow",)
    state = act(state, {"seat": "yellow", "pass": True}, {"seat": "red", "run": True}, {"seat": "red", "value": 0},
                {"seat": "red", "refilled": True})
    assert state.active == "yellow" and state.step == "zdraw"
    state = arrange(state, active="blue", step="flip", round=state.round)
    state = flip(state, 1, 1)  # Blue's turn: Yellow is his neighbour too
    assert state.adders == ("yellow",)
    state = act(state, {"seat": "yellow", "pass": True}, {"seat": "blue", "run": True}, {"seat": "blue", "value": 0},
                {"seat": "blue", "refilled": True})
    assert state.active == "green"
    state = flip(state, 1, 1)  # Green's turn: Yellow is two seats away
    assert state.step == "choose" and state.adders == ()
    with pytest.raises(IllegalAction) as refused:
        act(state, {"seat": "yellow", "level": 4})
    assert en(refused.value) == ("Yellow, a zombie player, adds zombies only to a neighbour, and Green is not one "
                                  "(unless Power 4).")


def zombie_turn(state: ebz.State) -> ebz.State:
    """Red (the first seat) is a zombie player whose turn begins."""
    state = arrange(state, dead=("red",))
    return ebz.engine.begin_turn(state, "red")


# -- Powers by level ----------------------------------------------------------------------------------------------


def with_power(state: ebz.State, level: int, seat: str = "blue") -> ebz.State:
    return move_from_deck(arrange(state, dead=state.dead + (seat,)), seat, level, power=True)


def test_power_1_humans_discard_2_non_zombie_cards_before_refilling():
    state = to_choose(with_power(begin(), 1), (2, 2))
    state = act(state, {"seat": "red", "fight": True}, {"seat": "red", "value": 9}, {"seat": "red", "bonus": 0})
    lines = acts(state)
    assert lines[-2:] == ["Power 1 is in force: Red, discard 2 non-zombie cards before refilling",
                          "Red, refill your hand to 6 cards (discard down to 6 if you hold more)"]
    assert any(en(f) == "Powers in force: 1: humans discard 2 non-zombie cards before refilling"
               for f in ebz.question(state, "red").facts)
    assert ebz.view(state)["in_force"] == [1]


def test_power_2_zombie_players_ignore_the_speed_rule():
    state = move_from_deck(with_power(begin(), 2, "yellow"), "yellow", 4)
    state = move_from_deck(state, "blue", 4)
    state = flip(state, 1, 1)
    assert state.adders == ("yellow", "blue")
    state = act(state, {"seat": "yellow", "level": 4})
    assert [c.action["speed"] for c in ebz.question(state, "yellow").choices] == [1, 2, 3, 4, 5, 6]
    state = act(state, {"seat": "yellow", "speed": 1})  # speed 1 added: the speed rule does not hold him
    state = act(state, {"seat": "blue", "level": 4})
    assert [c.action["speed"] for c in ebz.question(state, "blue").choices] == [3, 4, 5, 6]  # a human: it holds


def test_power_4_zombies_may_be_added_on_any_players_turn():
    state = begin(["red", "yellow", "blue", "green"])
    state = move_from_deck(arrange(state, dead=("blue",)), "blue", 6, 6)
    state = flip(state, 1, 1)  # Red's turn: Blue is not his neighbour
    assert state.adders == ()
    state = arrange(state, powers={"blue": (4,)}, deck=pile_add(state.deck, 4, -1))
    state = ebz.engine.begin_adding(replace(state, narration=state.narration))
    assert state.adders == ("blue",)
    state = act(state, {"seat": "blue", "level": 6}, {"seat": "blue", "speed": 5})
    assert "Blue adds a zombie to Red's field: level 6, speed 5" in said(state)


def test_power_6_zombie_players_may_draw_up_to_6():
    state = zombie_turn(begin(["red", "yellow", "blue"]))
    assert [c.action["draw"] for c in ebz.question(state, "red").choices] == [1, 2, 3, 4]
    state = zombie_turn(with_power(begin(["red", "yellow", "blue"]), 6))
    assert [c.action["draw"] for c in ebz.question(state, "red").choices] == [1, 2, 3, 4, 5, 6]
    assert ebz.question(state, "red").title.params["count"] == 6


def test_power_8_humans_may_not_add_zombies():
    state = move_from_deck(with_power(begin(), 8, "blue"), "yellow", 6)
    state = flip(state, 1, 1)
    assert state.adders == () and "Power 8 is in force: humans may not add zombies" in said(state)
    with pytest.raises(IllegalAction) as refused:
        act(state, {"seat": "yellow", "level": 6})
    assert en(refused.value) == "Power 8 is in force: Yellow, a human, may not add zombies."


def test_the_powers_in_force_are_every_level_any_zombie_player_keeps():
    state = with_power(with_power(begin(["red", "yellow", "blue", "green"]), 8, "blue"), 2, "green")
    assert state.in_force == (2, 8) and ebz.view(state)["powers"] == {"blue": [8], "green": [2]}
    assert any(en(f) == "Powers in force: 2: zombie players ignore the speed rule and 8: humans may not add zombies"
               for f in ebz.question(state, "red").facts)


# -- End: one human left → he wins; deck and discard empty → all humans win; only zombies → zombie players win. ----


def test_end_one_human_left_wins():
    state = to_choose(arrange(begin(), dead=("blue",)), (1, 1))
    state = act(state, {"seat": "red", "run": True}, {"seat": "red", "value": 0}, {"seat": "red", "dies": True})
    assert state.over and state.winners == ("yellow",)
    assert said(state)[-1] == "Yellow is the last human: Yellow wins!"
    with refused_with("The game is over"):
        act(state, {"seat": "yellow", "level": 1})


def test_end_a_human_who_cannot_play_and_holds_only_zombies_the_zombie_players_win():
    state = to_choose(begin(), (1, 1))
    assert "stuck" not in str([c.action for c in ebz.question(state, "red").choices])  # no zombie player yet
    state = to_choose(arrange(begin(), dead=("blue",)), (1, 1))
    choices = ebz.question(state, "red").choices
    assert [en(c.label) for c in choices] == ["Fight", "Run", "I cannot play: only zombies in hand"]
    assert [c.slot for c in choices] == [1, 2, 6]
    state = act(state, {"seat": "red", "stuck": True})
    assert state.over and state.winners == ("blue",)
    assert said(state)[-2:] == ["Red cannot play a card and shows a hand of zombies only",
                                "The zombie players win: Blue"]


def test_a_zombie_players_draw_that_empties_deck_and_discard_makes_the_humans_win_at_once():
    state = zombie_turn(begin(["red", "yellow", "blue"]))
    deck = state.deck
    state = arrange(state, deck=(0, 1, 0, 0, 0), cards={**state.cards, "yellow": pile_add(deck, 2, -1)})
    state = act(state, {"seat": "red", "draw": 2}, {"seat": "red", "level": 2})
    assert state.over and state.winners == ("yellow", "blue")


# -- prompts, secrets, refusals -----------------------------------------------------------------------------------


def test_every_question_is_of_a_closed_kind_with_labels_and_every_choice_a_legal_answer():
    rng = random.Random(3)
    for seed in range(15):
        state, _ = play_random(random.Random(seed), ["red", "yellow", "blue", "green"][: 2 + seed % 3])
    state = begin()
    for _ in range(300):
        if state.over:
            break
        prompt = ebz.prompt(state)
        seat = prompt.seats[0]
        question = ebz.question(state, seat)
        assert question.kind in KINDS and question.id == prompt.id
        assert all(BOOKS.has(c.label.key) for c in question.choices)
        assert [dict(c.action) for c in question.choices] == prompt.options[seat] or question.kind == NUMBER
        assert all(c.slot is None or 1 <= c.slot <= 6 for c in question.choices)
        assert len({c.slot for c in question.choices}) == len(question.choices)
        state = ebz.apply(state, choose_answer(state, rng))


def test_an_answer_from_a_seat_not_asked_or_not_among_the_answers_is_refused_and_changes_nothing():
    state = begin()
    for action, text in [({"seat": "blue", "level": 1}, "Blue is not asked anything now."),
                         ("fight", 'An answer names its seat and what it chooses as named fields, not the text '
                                   '"fight".'),
                         ({"seat": "red", "fight": True},
                          'The question asked now takes no "fight": pick one of the answers shown.')]:
        with pytest.raises(IllegalAction) as refused:
            ebz.decide(state, action)
        assert en(refused.value) == text
    for sly in ({"seat": "red", "level": True}, {"seat": "red", "level": 1.0}, {"seat": "red", "level": [1]},
                {"seat": "red", "level": 1, "speed": 2}, {"seat": ["red"], "level": 1}):
        with pytest.raises(IllegalAction):
            ebz.decide(state, sly)
    state = to_choose(state, (1, 1))
    state = act(state, {"seat": "red", "fight": True})
    for sly in ({"seat": "red", "value": 4.0}, {"seat": "red", "value": "4"}, {"seat": "red", "value": -1}):
        with pytest.raises(IllegalAction):
            ebz.decide(state, sly)
    with pytest.raises(IllegalAction) as refused:
        ebz.decide(state, {"seat": "red", "value": 61})
    assert en(refused.value) == "Enter a whole number from 0 to 60, not the number 61."
    assert BOOKS.text(refused.value.message, "vi") == "Hãy nhập số nguyên từ 0 đến 60, không phải số 61."
    with refused_with("starts from the beginning, or from a record"):
        ebz.start(["red", "blue"], None, {"round": 3})


def test_a_zombie_players_hand_is_his_alone_and_his_draws_are_told_only_to_him():
    state = zombie_turn(begin(["red", "yellow", "blue"]))
    state = act(state, {"seat": "red", "draw": 2}, {"seat": "red", "level": 8}, {"seat": "red", "level": 1})
    assert ebz.question(state, "red").secret is False  # the Power is kept face up
    assert ebz.view(state, "red")["hand"] == {"1": 1, "2": 0, "4": 0, "6": 0, "8": 1}
    for seat in (None, "yellow", "blue"):
        shown = ebz.view(state, seat)
        assert "hand" not in shown and "red" not in shown["levels_held"]
        assert shown["zombies_held"]["red"] == 2
    private = [entry for entry in state.narration if entry.seats]
    assert [en(e) for e in private] == ["Your zombie no. 1: level 8", "Your zombie no. 2: level 1"]
    assert all(e.seats == ("red",) for e in private)


def test_every_line_telling_the_table_to_move_cards_is_marked_act():
    state, _ = play_random(random.Random(11), ["red", "yellow", "blue", "green"])
    keys = {entry.message.key for entry in state.narration if entry.act}
    assert {"ebz.n.setup.deck", "ebz.n.flips", "ebz.n.refill"} <= keys
    assert not keys & {"ebz.n.flipped", "ebz.n.turn", "ebz.n.field", "ebz.n.fights", "ebz.n.runs"}


def test_every_word_met_in_random_games_is_in_the_four_languages():
    found = []
    for seed in range(12):
        state, questions = play_random(random.Random(seed), ["red", "yellow", "blue", "green"][: 2 + seed % 3])
        found += [entry.message for entry in state.narration] + questions
    found += [ebz.SETUP.title, ebz.SETUP.note, ebz.SETUP.options[0].label,
              *[c.label for c in ebz.SETUP.options[0].choices]]
    for message in {(m.key, repr(sorted(m.params.items()))): m for m in found}.values():
        for lang in LANGUAGES:
            assert BOOKS.has(message.key, lang), (message.key, lang)
            text = BOOKS.text(message, lang)
            assert "{" not in text and message.key not in text, (lang, text)
    assert BOOKS.text(ebz.question(to_choose(begin(), (1, 1)), "red").choices[0].label, "zh-Hans") == "战斗"
    assert BOOKS.text(ebz.question(to_choose(begin(), (1, 1)), "red").choices[1].label, "zh-Hant") == "逃跑"


# -- the books: zombie cards are conserved -------------------------------------------------------------------------


def choose_answer(state: ebz.State, rng: random.Random, death: float = 0.06) -> dict:
    """A legal answer, as a table might give: rarely a death, values near what is needed."""
    request = ebz.cup_request(state)
    if request is not None:
        return {"pick": rng.randrange(request.count)}
    prompt = ebz.prompt(state)
    seat = prompt.seats[0]
    options = prompt.options[seat]
    if state.step == "refill":
        return options[1] if rng.random() < death else options[0]
    if state.step == "choose":
        return options[-1] if len(options) > 2 and rng.random() < 0.02 else options[rng.randrange(2)]
    if state.step == "value":
        need = state.level_sum if state.how == "fight" else state.speed_sum
        return {"seat": seat, "value": max(0, min(60, need + rng.randint(-5, 3)))}
    if state.step == "bonus":
        return {"seat": seat, "bonus": rng.randint(*ebz.prompts.number_range("bonus"))}
    return rng.choice(options)


def play_random(rng: random.Random, players: list[str], options: dict | None = None, limit: int = 3000):
    state = ebz.start(players, options)
    questions = []
    for _ in range(limit):
        if state.over:
            break
        if ebz.prompt(state) is not None:
            seat = ebz.prompt(state).seats[0]
            question = ebz.question(state, seat)
            questions += [question.title, *question.facts, *[c.label for c in question.choices]]
            questions += [c.note for c in question.choices if c.note]
        state = ebz.apply(state, choose_answer(state, rng))
        assert state.zombie_count == state.total
    return state, questions


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]), death=st.sampled_from([0.0, 0.05, 0.3]),
       rounding=st.sampled_from(["down", "up"]))
def test_zombie_cards_are_conserved_across_any_sequence_of_flips_additions_fights_runs_reshuffles_and_zombie_turns(
        seed, players, death, rounding):
    rng = random.Random(seed)
    state = ebz.start(["red", "yellow", "blue", "green"][:players], {"run_rounding": rounding})
    total = {2: 15, 3: 20, 4: 25}[players]
    for _ in range(600):
        if state.over:
            break
        state = ebz.apply(state, choose_answer(state, rng, death))
        assert state.zombie_count == total  # deck + discard + field + players' cards + Powers
        assert all(n >= 0 for n in state.by_level()) and state.by_level() == tuple(
            n + players - 2 for n in (5, 4, 3, 2, 1))
        assert all(len(kept) <= 3 for kept in state.powers.values())
        shown = ebz.view(state)
        assert shown["deck"] + shown["discard"] + len(shown["field"]) + sum(shown["zombies_held"].values()) + sum(
            len(p) for p in shown["powers"].values()) == total


def test_random_games_reach_every_kind_of_end_reshuffles_and_zombie_turns():
    ends, seen = set(), set()
    for seed in range(40):
        state, _ = play_random(random.Random(seed), ["red", "yellow", "blue", "green"][: 2 + seed % 3])
        assert state.over
        ends.add(state.narration[-1].message.key)
        seen |= {entry.message.key for entry in state.narration}
    assert ends == {"ebz.n.win_last", "ebz.n.win_humans", "ebz.n.win_zombies"}
    assert {"ebz.n.reshuffle", "ebz.n.zdraw", "ebz.n.power", "ebz.n.put_back", "ebz.n.added"} <= seen


# -- companion replay ------------------------------------------------------------------------------------------

SCRIPT = Path(__file__).parent / "scripts" / "eaten-by-zombies.json"


def replay(*args: str) -> subprocess.CompletedProcess:
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "companion", "replay", *args], capture_output=True, text=True,
                          env=env, timeout=120, cwd=root)


def test_companion_replay_plays_the_script_of_a_whole_game(tmp_path):
    done = replay(str(SCRIPT), "--lang", "zh-Hans")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    book = json.loads(done.stdout)
    assert book["over"] and book["winners"] == ["yellow"] and book["zombie_players"] == ["blue", "red"]
    assert book["zombie_count"] == book["total"] == 20 and book["powers"] == {"blue": [8], "red": []}
    texts = [entry["text"] for entry in book["narration"]]
    assert "红选择战斗：战斗力 4，对上等级总和 2" in texts and "黄选择逃跑：逃跑值 7，对上速度总和 7" in texts
    assert "黄，从你的牌库顶／弃牌堆／或手牌中移除 4 张牌（禁止从手牌或弃牌堆中移除殭屍卡），放回购买区" in texts  # up
    assert "蓝将一只等级 8 的殭屍面向上放在面前，成为殭屍威能" in texts
    assert texts[-1] == "黄是最后一位人类玩家：黄获胜！"
    assert not any("等级 8" in t and "抽到" in t for t in texts)  # what a zombie player drew stays his
    # an addition the speed rule forbids stops the script at that action, in one line
    script = json.loads(SCRIPT.read_text(encoding="utf-8"))
    index = script["actions"].index({"seat": "red", "speed": 5})
    script["actions"][index] = {"seat": "red", "speed": 1}
    (tmp_path / "bad.json").write_text(json.dumps(script), encoding="utf-8")
    done = replay(str(tmp_path / "bad.json"))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == (f'companion replay: action {index} {{"seat": "red", "speed": 1}}: '
                                   "A zombie added now needs a speed greater than 1, the zombies in play.")


# -- devices know no game -----------------------------------------------------------------------------------------

EBZ_WORDS = re.compile(r"ebz\.|eaten[ _-]by|heavy stick|sandwich|binoculars|good book|level_sum|speed_sum|in_force|"
                       r"zombie_players|zombies_held", re.IGNORECASE)
EBZ_VERBS = re.compile(r"""["'](fight|run|refilled|stuck|dies|bonus)["']""")


def test_no_device_knows_a_word_or_an_action_of_eaten_by_zombies():
    from test_toy_game import device_files

    found = []
    for path in device_files():
        for number, source in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if EBZ_WORDS.search(source) or EBZ_VERBS.search(source):
                found.append(f"{path.name}:{number}: {source.strip()}")
    assert not found, "\n".join(found)
    assert EBZ_WORDS.search('view["level_sum"]') and EBZ_VERBS.search('{"seat": s, "fight": True}')


def test_a_six_button_pad_holds_the_flips_and_the_choices():
    from companion.pads.buttons import button_actions

    state = begin()
    assert [a and a["level"] for a in button_actions(ebz.question(state, "red"))] == [1, 2, 4, 6, 8, None]
    state = act(state, {"seat": "red", "level": 4})
    assert [a["speed"] for a in button_actions(ebz.question(state, "red"))] == [1, 2, 3, 4, 5, 6]
    state = act(state, {"seat": "red", "speed": 2})
    actions = button_actions(ebz.question(state, "red"))
    assert actions[0] == {"seat": "red", "fight": True} and actions[1] == {"seat": "red", "run": True}
