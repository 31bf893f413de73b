"""The narration of Mall of Horror: every public answer and every automatic step says what happened, and the
lines marked act say what the table must do with the physical pieces. One test per kind of step, named after the
rule, asserting the exact lines (key, parameters, act flag, round, private seats).

Then, over random whole games: folding the act lines over an empty board gives the companion's board at every
step; no public line tells a secret before its reveal (checked by non-interference: change the secret, the
public lines stay the same until the reveal); every key is in the four narration catalogues.

Unless a test says otherwise the game has four players (red, blue, yellow, green; Cachou closed), Red is
Chief and nobody holds a card.
"""

from __future__ import annotations

import ast
import json
import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mall import FOUR, act, game, options, pick, roll, vote, waiting, where, zombies

from companion.catalogue import catalogue, placeholders
from companion.contract import Line, line
from companion.games import mall_of_horror as mall
from companion.games.mall_of_horror import engine, prompts
from companion.games.mall_of_horror.narration import ACT_FAMILIES
from companion.games.mall_of_horror.state import evolve, remembered
from companion.simulate import random_game

FIVE = ("red", "yellow", "blue", "green", "purple")
PLAYERS = {3: ["red", "yellow", "blue"], 4: list(FOUR), 5: list(FIVE),
           6: ["red", "yellow", "blue", "green", "purple", "black"]}
# Yellow and Green wait with all six of their characters in the Supermarket: that crowd (most characters, two
# Pin-ups) draws both attraction zombies, which never breach it (defence 8).
CROWD = {"yellow": {"pinup": 6, "tough": 6, "gunman": 6}, "green": {"pinup": 6, "tough": 6, "gunman": 6}}


def told(state) -> tuple[Line, ...]:
    """The game's whole narration, as the table reads it."""
    return mall.narration(state)


ANSWERED = {"mall.n.voted", "mall.n.chose", "mall.n.pass"}  # who answered: tested on their own below


def said_all(before, after) -> list[Line]:
    """The lines `after` added to the narration of `before`."""
    assert told(after)[:len(told(before))] == told(before), "the narration only grows"
    return list(told(after)[len(told(before)):])


def said(before, after) -> list[Line]:
    """What the steps said, beside who answered."""
    return [entry for entry in said_all(before, after) if entry.message.key not in ANSWERED]


def keys(lines) -> list[str]:
    return [entry.message.key for entry in lines]


def nest(key: str, **params) -> dict:
    return {"key": key, "params": params}


def attack(characters: dict, zombies_at: dict | None = None, *, crowd: bool = True, **position):
    """The game at the start of the zombie attack (phase f), everyone having chosen Megatoys."""
    position.setdefault("destinations", dict.fromkeys(FOUR, 3))
    return game(phase="attack", characters={**(CROWD if crowd else {}), **characters},
                zombies={str(loc): n for loc, n in (zombies_at or {}).items()}, **position)


def place_all(state):
    """Placement with the dice always on the Parking: each player puts his first character there."""
    while state.phase == "placement" and mall.cup_request(state).count == 2:
        state = roll(state, 4, 4)
        if waiting(state):  # the last character of each player is put without asking
            state = act(state, options(state, waiting(state)[0])[0])
    return state


# ---------------------------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------------------------


def test_setup_the_oldest_player_takes_the_badge_cachou_closes_at_four_players_and_cards_are_dealt():
    assert told(mall.start(list(FOUR))) == (
        line(0, "mall.n.badge.setup", True, to_seat="red"),
        line(0, "mall.n.close.setup", True, location=2),
        line(0, "mall.n.deck.setup", True, count=17),
    )
    assert keys(told(mall.start(list(FIVE)))) == ["mall.n.badge.setup", "mall.n.deck.setup"]


def test_placement_the_player_puts_a_character_where_a_die_shows_and_the_line_says_the_dice():
    rolled = roll(mall.start(list(FOUR)), 3, 5)
    placed = act(rolled, {"seat": "red", "go": 5, "character": "gunman"})
    assert said(rolled, placed) == [line(0, "mall.n.place.dice", True, colour="red", character="gunman", location=5,
                                         dice=[3, 5])]


def test_placement_when_neither_die_can_be_used_is_a_free_choice():
    rolled = roll(mall.start(list(FOUR)), 2, 2)  # both dice on the closed Cachou
    placed = act(rolled, {"seat": "red", "go": 1, "character": "pinup"})
    assert said(rolled, placed) == [line(0, "mall.n.place.free", True, colour="red", character="pinup", location=1,
                                         dice=[2, 2])]


def test_initial_zombies_one_per_die_none_on_a_closed_location_then_round_one():
    placed = place_all(mall.start(list(FOUR)))
    assert all(c.location == 4 for c in placed.characters)
    started = roll(placed, 6, 4, 2, 4)
    assert said(placed, started)[:5] == [
        line(0, "mall.n.setup.zombies", dice=[6, 4, 2, 4]),
        line(0, "mall.n.dice.on_closed", count=1, location=2),
        line(0, "mall.n.put.dice", True, count=2, location=4),
        line(0, "mall.n.put.dice", True, count=1, location=6),
        line(1, "mall.n.round", round=1),
    ]


# ---------------------------------------------------------------------------------------------------------------
# a) Truck search
# ---------------------------------------------------------------------------------------------------------------

ELSEWHERE = {"red": {"pinup": 1, "tough": 3, "gunman": 6}, "blue": {"pinup": 3, "tough": 6, "gunman": 1},
             "yellow": {"pinup": 6, "tough": 1, "gunman": 3}, "green": {"pinup": 6, "tough": 6, "gunman": 6}}


def at(location: int, who: dict[str, list[str]]) -> dict:
    """ELSEWHERE, with the named characters moved to `location`."""
    return {p: {k: location if k in who.get(p, ()) else loc for k, loc in kinds.items()}
            for p, kinds in ELSEWHERE.items()}


def test_truck_vote_ballots_only_at_the_reveal_with_their_weights_then_the_winner_searches_and_gives():
    state = game(characters=at(4, {"red": ["pinup", "tough"], "blue": ["pinup"]}), deck=17)
    assert told(state) == (line(1, "mall.n.vote.start.truck", location=4, colours=["red", "blue"]),)
    red = vote(state, red="red")
    assert said_all(state, red) == [line(1, "mall.n.voted", colour="red")]  # who voted, never for whom
    changed = vote(red, red="blue")
    assert said_all(red, changed) == []  # a changed ballot says nothing: that he changed it is his secret too
    both = vote(changed, red="red", blue="blue")
    assert said_all(changed, both) == [
        line(1, "mall.n.voted", colour="blue"),
        line(1, "mall.n.vote.ballots", ballots=[nest("mall.n.ballot", voter="red", count=2, candidate="red"),
                                                nest("mall.n.ballot", voter="blue", count=1, candidate="blue")]),
        line(1, "mall.n.vote.won.truck", colour="red", location=4, count=2, against=1),
        line(1, "mall.n.deck.search3", True, colour="red"),
    ]
    given = act(both, {"seat": "red", "give": "yellow"})
    assert said(both, given)[:2] == [
        line(1, "mall.n.deck.gift", True, colour="red", to_seat="yellow"),  # who gives to whom, never which card
        line(1, "mall.n.chief.empty", colour="red", location=5),
    ]


def test_truck_single_player_in_parking_searches_without_a_vote():
    state = game(characters=at(4, {"yellow": ["pinup", "tough"]}))
    assert told(state) == (line(1, "mall.n.vote.alone.truck", colour="yellow", location=4),
                               line(1, "mall.n.deck.search3", True, colour="yellow"))


@pytest.mark.parametrize(("deck", "key"), [(2, "mall.n.deck.search2"), (1, "mall.n.deck.search1")])
def test_truck_with_fewer_than_three_cards_left(deck, key):
    state = game(characters=at(4, {"red": ["pinup"]}), deck=deck)
    assert told(state)[1] == line(1, key, True, colour="red")


def test_truck_search_skipped_when_nobody_in_parking_or_the_deck_is_empty():
    assert told(game(characters=ELSEWHERE))[0] == line(1, "mall.n.truck.nobody", location=4)
    empty = game(characters=at(4, {"red": ["pinup"]}), deck=0, hands={"red": 2})
    assert told(empty)[0] == line(1, "mall.n.truck.empty")


def test_truck_tie_re_vote_then_second_tie_nobody_searches():
    state = game(characters=at(4, {"red": ["pinup"], "blue": ["pinup"]}))
    tied = vote(state, red="red", blue="blue")
    assert said(state, tied)[1] == line(1, "mall.n.vote.tie", location=4, colours=["red", "blue"], count=1)
    again = vote(tied, red="red", blue="blue", yellow="red", green="blue")
    assert said(tied, again)[1:3] == [line(1, "mall.n.vote.tie2.truck", location=4),
                                       line(1, "mall.n.chief.empty", colour="red", location=5)]


# ---------------------------------------------------------------------------------------------------------------
# b) Chief election
# ---------------------------------------------------------------------------------------------------------------


def test_chief_elected_takes_the_badge():
    state = game(phase="chief", chief="yellow", characters=at(5, {"red": ["pinup"], "blue": ["tough", "gunman"]}))
    assert told(state) == (line(1, "mall.n.vote.start.chief", location=5, colours=["red", "blue"]),)
    elected = vote(state, red="red", blue="red")
    assert said(state, elected)[1:3] == [line(1, "mall.n.vote.won.chief", colour="red", location=5, count=4, against=0),
                                         line(1, "mall.n.badge.elected", True, to_seat="red")]


def test_chief_alone_in_security_hq_is_elected_without_a_vote_and_keeps_a_badge_he_holds():
    green = game(phase="chief", chief="yellow", characters=at(5, {"green": ["pinup"]}))
    assert told(green)[:2] == (line(1, "mall.n.vote.alone.chief", colour="green", location=5),
                                   line(1, "mall.n.badge.elected", True, to_seat="green"))
    yellow = game(phase="chief", chief="yellow", characters=at(5, {"yellow": ["pinup"]}))
    assert told(yellow) == (line(1, "mall.n.vote.alone.chief", colour="yellow", location=5),)


def test_chief_not_elected_when_security_hq_is_empty_or_closed_or_on_a_second_tie():
    empty = game(phase="chief", chief="yellow", characters=ELSEWHERE)
    assert told(empty) == (line(1, "mall.n.chief.empty", colour="yellow", location=5),)
    closed = game(phase="chief", chief="yellow", characters=ELSEWHERE, closed=[2, 5])
    assert told(closed) == (line(1, "mall.n.chief.closed", colour="yellow", location=5),)
    state = game(phase="chief", chief="yellow", characters=at(5, {"red": ["pinup"], "blue": ["tough"]}))
    tied = vote(state, red="red", blue="blue")
    twice = vote(tied, red="red", blue="blue", yellow="red", green="blue")
    assert said(tied, twice)[1] == line(1, "mall.n.vote.tie2.chief", colour="yellow", location=5)


# ---------------------------------------------------------------------------------------------------------------
# c) Zombie arrival, d) destination
# ---------------------------------------------------------------------------------------------------------------


def test_the_elected_chief_alone_is_told_where_the_dice_bring_zombies_never_a_closed_location():
    state = game(phase="arrival", chief="blue", elected=True, characters=ELSEWHERE)
    rolled = roll(state, 1, 4, 4, 2)
    assert said(state, rolled) == [
        line(1, "mall.n.arrival.roll_chief", colour="blue"),
        line(1, "mall.n.dice.seen", seats=("blue",), dice=[1, 4, 4, 2], arrivals=[
            nest("mall.n.dice.to", count=1, location=1), nest("mall.n.dice.to", count=2, location=4)]),
    ]
    nowhere = roll(state, 2, 2, 2, 2)  # every die on the closed Cachou: no zombie comes
    assert said(state, nowhere)[1] == line(1, "mall.n.dice.seen", seats=("blue",), dice=[2, 2, 2, 2],
                                           arrivals=[nest("mall.n.dice.nowhere")])


def test_security_camera_lets_its_player_alone_see_what_the_dice_bring():
    before = game(phase="arrival", characters=ELSEWHERE, hands={"green": 1})
    state = roll(before, 6, 6, 6, 6)
    assert said(before, state) == [line(1, "mall.n.arrival.roll")]  # nobody was elected: nobody looks
    looked = act(state, {"seat": "green", "play": "camera"})
    assert said(state, looked)[:2] == [
        line(1, "mall.n.card.camera", True, colour="green"),
        line(1, "mall.n.dice.seen", seats=("green",), dice=[6, 6, 6, 6],
             arrivals=[nest("mall.n.dice.to", count=4, location=6)]),
    ]


def test_a_pass_in_a_card_window_is_said():
    state = roll(game(phase="arrival", characters=ELSEWHERE, hands={"green": 1}), 6, 6, 6, 6)
    passed = act(state, {"seat": "green", "pass": True})
    assert said_all(state, passed)[0] == line(1, "mall.n.pass", colour="green")


def test_elected_chief_destination_is_public_the_others_say_only_that_they_chose_before_the_reveal():
    state = game(phase="destination", chief="blue", elected=True, characters=ELSEWHERE, cup=[1, 1, 1, 1])
    chief = act(state, {"seat": "blue", "go": 3})
    assert said(state, chief) == [line(1, "mall.n.destination.chief", colour="blue", location=3)]
    red = act(chief, {"seat": "red", "go": 5}, {"seat": "red", "go": 6})
    assert said_all(chief, red) == [line(1, "mall.n.chose", colour="red")]  # who chose; where: the reveal
    # (and not that he changed his mind: a changed choice says nothing)


# ---------------------------------------------------------------------------------------------------------------
# e) Reveal and move
# ---------------------------------------------------------------------------------------------------------------

BOARD = {  # Restroom 2, Megatoys 3, Security HQ 2, Supermarket 5: room everywhere
    "red": {"pinup": 1, "tough": 3, "gunman": 6},
    "blue": {"pinup": 3, "tough": 6, "gunman": 1},
    "yellow": {"pinup": 6, "tough": 5, "gunman": 3},
    "green": {"pinup": 5, "tough": 6, "gunman": 6},
}
EMPTY_RESTROOM = {
    "red": {"pinup": 3, "tough": 3, "gunman": 6},
    "blue": {"pinup": 5, "tough": 6, "gunman": 6},
    "yellow": {"pinup": 6, "tough": 5, "gunman": 3},
    "green": {"pinup": 3, "tough": 6, "gunman": 5},
}


def reveal(cup=(2, 2, 2, 2), characters=BOARD, **position):
    position.setdefault("destinations", {"red": 5, "blue": 5, "yellow": 1, "green": 1})
    return game(phase="move", characters=characters, cup=list(cup), **position)


def test_reveal_says_every_destination_and_the_dice_and_puts_one_zombie_per_die():
    state = reveal(cup=(1, 5, 2, 1))
    assert told(state) == (
        line(1, "mall.n.reveal.destinations", destinations=[
            nest("mall.n.destination", colour="red", location=5), nest("mall.n.destination", colour="blue", location=5),
            nest("mall.n.destination", colour="yellow", location=1),
            nest("mall.n.destination", colour="green", location=1)]),
        line(1, "mall.n.reveal.dice", dice=[1, 5, 2, 1]),
        line(1, "mall.n.put.dice", True, count=2, location=1),
        line(1, "mall.n.dice.on_closed", count=1, location=2),
        line(1, "mall.n.put.dice", True, count=1, location=5),
    )


def test_zombie_players_destinations_are_revealed_as_zombie_players():
    characters = {"red": {"pinup": 1, "tough": 3, "gunman": 6}, "blue": {"pinup": 3, "tough": 6, "gunman": 1},
                  "yellow": {"pinup": 6, "tough": 5, "gunman": 3}}
    state = reveal(characters=characters, destinations={"red": 5, "blue": 5, "yellow": 1, "green": 3})
    assert told(state)[0].message.params["destinations"][3] == nest("mall.n.destination.zombie",
                                                                         colour="green", location=3)


def test_empty_location_with_eight_zombies_falls_its_zombies_leave_and_it_closes():
    state = reveal(cup=(1, 2, 2, 2), characters=EMPTY_RESTROOM, zombies={"1": 7},
                   destinations={"red": 5, "blue": 3, "yellow": 3, "green": 6})
    assert told(state)[2:] == (
        line(1, "mall.n.put.dice", True, count=1, location=1),
        line(1, "mall.n.dice.on_closed", count=3, location=2),
        line(1, "mall.n.remove.fall", True, location=1, count=8, limit=8),
        line(1, "mall.n.close.fall", True, location=1),
    )


def test_each_move_says_from_where_to_where():
    state = reveal(destinations={"red": 3, "blue": 5, "yellow": 1, "green": 1})
    moved = act(state, {"seat": "red", "move": "gunman"})
    assert said(state, moved) == [line(1, "mall.n.move.go", True, colour="red", character="gunman", from_location=6,
                                       to_location=3)]


def test_a_move_to_a_full_location_goes_to_the_parking_and_says_why():
    state = reveal(destinations={"red": 1, "blue": 1, "yellow": 5, "green": 1})
    red = act(state, {"seat": "red", "move": "tough"})  # the Restroom is full now
    blue = act(red, {"seat": "blue", "move": "pinup"})
    assert said(red, blue) == [line(1, "mall.n.move.full", True, colour="blue", character="pinup", from_location=3,
                                    to_location=4, location=1)]


def test_a_move_to_a_location_that_just_fell_goes_to_the_parking_and_says_why():
    state = reveal(cup=(1, 2, 2, 2), characters=EMPTY_RESTROOM, zombies={"1": 7},
                   destinations={"red": 1, "blue": 3, "yellow": 3, "green": 6})
    moved = act(state, {"seat": "red", "move": "gunman"})
    assert said(state, moved) == [line(1, "mall.n.move.fallen", True, colour="red", character="gunman",
                                       from_location=6, to_location=4, location=1)]


def test_a_character_in_the_parking_stays_there_when_his_destination_is_full():
    characters = {"red": {"pinup": 1, "tough": 1, "gunman": 1}, "blue": {"pinup": 4, "tough": 6, "gunman": 6},
                  "yellow": {"pinup": 6, "tough": 5, "gunman": 3}, "green": {"pinup": 5, "tough": 6, "gunman": 6}}
    state = reveal(characters=characters, destinations={"red": 1, "blue": 1, "yellow": 5, "green": 5})
    assert told(state)[-1] == line(1, "mall.n.stay.none", colour="red", location=1)  # nothing of Red's to move
    stayed = act(state, {"seat": "blue", "move": "pinup"})
    assert said(state, stayed) == [line(1, "mall.n.stay.full", colour="blue", character="pinup", location=1,
                                        to_location=4)]
    assert where(stayed, "blue")["pinup"] == 4


def test_sprint_is_said_then_the_move_anywhere_or_staying_put():
    state = reveal(hands={"red": 2})
    sprint = act(state, {"seat": "red", "play": "sprint", "go": 6})
    assert said(state, sprint) == [line(1, "mall.n.card.sprint", True, colour="red", location=6)]  # discard it
    moved = act(sprint, {"seat": "red", "move": "pinup"})
    assert said(sprint, moved) == [line(1, "mall.n.move.sprint", True, colour="red", character="pinup",
                                        from_location=1, to_location=6)]
    stay = act(state, {"seat": "red", "play": "sprint", "go": 1}, {"seat": "red", "move": "pinup"})
    assert said(state, stay)[1] == line(1, "mall.n.stay.sprint", colour="red", character="pinup", location=1)


# ---------------------------------------------------------------------------------------------------------------
# f) Zombie attack
# ---------------------------------------------------------------------------------------------------------------


def test_attraction_most_characters_gets_one_zombie_and_a_pinup_tie_gives_nothing():
    state = attack({"red": {"pinup": 1, "tough": 3, "gunman": 3}, "blue": {"pinup": 5, "tough": 3, "gunman": 5},
                    "yellow": {"pinup": 6, "tough": 3, "gunman": 6}, "green": {"pinup": 4, "tough": 1, "gunman": 6}},
                   crowd=False)
    assert told(state)[:2] == (line(1, "mall.n.put.crowd", True, location=3, count=1, most=4),
                                   line(1, "mall.n.attraction.tie_pinups", locations=[1, 4, 5, 6], most=1))


def test_attraction_most_pinups_gets_one_zombie_and_a_crowd_tie_gives_nothing():
    state = game(**mall_attack())
    assert told(state)[:2] == (line(2, "mall.n.attraction.tie_crowd", locations=[3, 6], most=3),
                                   line(2, "mall.n.put.pinups", True, location=1, count=1, most=2))


def mall_attack(**changes) -> dict:
    """tests/mall.py's ATTACK: Red and Blue in the Restroom, which is breached (5 zombies, defence 2)."""
    from mall import ATTACK

    return {**ATTACK, **changes}


def test_no_breach_says_the_zombies_against_the_defence():
    state = attack({"red": {"pinup": 1, "tough": 1, "gunman": 3}, "blue": {"pinup": 3, "tough": 3, "gunman": 5}},
                   {1: 2})
    assert line(1, "mall.n.hold", location=1, count=2, defence=3) in told(state)


def test_supermarket_is_breached_at_four_zombies_whatever_its_defence():
    state = attack({"red": {"pinup": 3, "tough": 3, "gunman": 3}, "blue": {"pinup": 3, "tough": 5, "gunman": 5},
                    "yellow": {"pinup": 6, "tough": 6, "gunman": 1}, "green": {"pinup": 6, "tough": 6, "gunman": 1}},
                   {6: 4}, crowd=False)
    assert line(1, "mall.n.breach.supermarket", location=6, count=4, limit=4, defence=6) in told(state)


def test_victim_vote_tie_re_vote_the_loser_chooses_the_victim_and_the_zombies_leave_after_the_feast():
    state = game(**mall_attack())
    assert told(state)[2:] == (line(2, "mall.n.breach.defence", location=1, count=5, defence=2),
                                   line(2, "mall.n.vote.start.victim", location=1, colours=["red", "blue"]))
    tied = vote(state, red="blue", blue="red")
    assert said(state, tied) == [
        line(2, "mall.n.vote.ballots", ballots=[nest("mall.n.ballot", voter="red", count=1, candidate="blue"),
                                                nest("mall.n.ballot", voter="blue", count=1, candidate="red")]),
        line(2, "mall.n.vote.tie", location=1, colours=["red", "blue"], count=1),
    ]
    eaten = vote(tied, red="blue", blue="red", yellow="blue", green="blue")
    assert said(tied, eaten)[:4] == [
        line(2, "mall.n.vote.ballots", ballots=[nest("mall.n.ballot", voter="red", count=1, candidate="blue"),
                                                nest("mall.n.ballot", voter="blue", count=1, candidate="red"),
                                                nest("mall.n.ballot", voter="yellow", count=1, candidate="blue"),
                                                nest("mall.n.ballot", voter="green", count=1, candidate="blue")]),
        line(2, "mall.n.vote.won.victim_one", colour="blue", location=1, count=3, against=1, character="pinup"),
        line(2, "mall.n.kill.vote", True, colour="blue", character="pinup", location=1, count=3, against=1),
        line(2, "mall.n.remove.feast", True, location=1, count=5),
    ]


def test_a_single_candidate_is_chosen_without_a_vote_and_chooses_his_victim():
    state = attack({"red": {"pinup": 1, "tough": 1, "gunman": 3}, "blue": {"pinup": 3, "tough": 3, "gunman": 5}},
                   {1: 5})
    assert line(1, "mall.n.vote.alone.victim", colour="red", location=1) in told(state)
    eaten = act(state, {"seat": "red", "victim": "tough"})
    assert said(state, eaten)[:2] == [
        line(1, "mall.n.kill.alone", True, colour="red", character="tough", location=1),
        line(1, "mall.n.remove.feast", True, location=1, count=5),
    ]


def test_closing_a_vote_says_who_abstained():
    state = game(**mall_attack())
    closed = act(vote(state, red="blue"), {"close": True})
    assert said(state, closed)[:4] == [
        line(2, "mall.n.vote.closed.one", colours=["blue"]),  # "Blue did not vote and abstains"
        line(2, "mall.n.vote.ballots", ballots=[nest("mall.n.ballot", voter="red", count=1, candidate="blue"),
                                                nest("mall.n.ballot.none", voter="blue", count=1)]),
        line(2, "mall.n.vote.won.victim_one", colour="blue", location=1, count=1, against=0, character="pinup"),
        line(2, "mall.n.kill.vote", True, colour="blue", character="pinup", location=1, count=1, against=0),
    ]


def test_second_tie_the_cup_draws_a_random_character():
    state = vote(game(**mall_attack()), red="blue", blue="red")
    tied = vote(state, red="blue", blue="red", yellow="red", green="blue")
    assert said(state, tied)[-1] == line(2, "mall.n.vote.tie2.victim", location=1, colours=["red", "blue"])
    drawn = pick(tied, 1)  # the lottery lists Red's Pin-up, then Blue's
    assert said(tied, drawn)[:2] == [line(2, "mall.n.kill.random", True, colour="blue", character="pinup", location=1),
                                     line(2, "mall.n.remove.feast", True, location=1, count=5)]


def test_second_tie_with_the_colour_option_the_cup_draws_a_colour_whose_owner_chooses():
    state = vote(game(options={"second_tie_victim": "colour"}, **mall_attack()), red="blue", blue="red")
    tied = vote(state, red="blue", blue="red", yellow="red", green="blue")
    assert said(state, tied)[-1] == line(2, "mall.n.vote.tie2.victim_colour", location=1, colours=["red", "blue"])
    drawn = pick(tied, 0)
    assert said(tied, drawn)[:2] == [line(2, "mall.n.vote.drawn_one", colour="red", location=1, character="pinup"),
                                     line(2, "mall.n.kill.drawn", True, colour="red", character="pinup", location=1)]


def test_cards_played_in_an_attack_say_their_effect():
    state = game(**mall_attack(hands={"red": 4, "blue": 0, "yellow": 0, "green": 0}, deck=13))
    played = act(state, {"seat": "red", "play": "threat"}, {"seat": "red", "play": "hardware"},
                 {"seat": "red", "play": "weapon", "kills": 2}, {"seat": "red", "play": "hidden", "character": "pinup"})
    assert said(state, played)[:5] == [
        line(2, "mall.n.card.threat", True, colour="red", location=1),  # each card: discard it
        line(2, "mall.n.card.hardware", True, colour="red", location=1),
        line(2, "mall.n.remove.weapon", True, colour="red", location=1, count=2, kills=2),
        line(2, "mall.n.card.hidden", True, colour="red", character="pinup", location=1),
        # Red's Pin-up hid: only Blue is seen, and only his Pin-up is there: nobody chooses
        line(2, "mall.n.vote.alone.victim_one", colour="blue", location=1, character="pinup"),
    ]


def test_everyone_there_hidden_nobody_dies_and_the_zombies_stay():
    state = game(**mall_attack(hands={"red": 1, "blue": 1, "yellow": 0, "green": 0}, deck=15))
    hidden = act(state, {"seat": "red", "play": "hidden", "character": "pinup"},
                 {"seat": "blue", "play": "hidden", "character": "pinup"})
    assert line(2, "mall.n.all_hidden", location=1, count=5) in said(state, hidden)
    assert zombies(hidden)[1] == 5


def test_parking_each_zombie_eats_one_it_leaves_after_eating_and_the_rest_leave_at_the_end():
    state = attack({"red": {"pinup": 4, "tough": 3, "gunman": 4}, "blue": {"pinup": 4, "tough": 3, "gunman": 5}},
                   {4: 3})
    assert line(1, "mall.n.parking.eats", location=4, count=3) in told(state)
    first = vote(state, red="blue", blue="red")  # Red's Pin-up and Gunman: 3 votes to 1
    assert said(state, first)[2:6] == [
        line(1, "mall.n.kill.vote", True, colour="blue", character="pinup", location=4, count=3, against=1),
        line(1, "mall.n.remove.ate", True, location=4, count=1),
        line(1, "mall.n.parking.eats", location=4, count=2),
        line(1, "mall.n.vote.alone.victim", colour="red", location=4),  # his Gunman or his Pin-up: he chooses
    ]
    second = act(first, {"seat": "red", "victim": "gunman"})
    assert said(first, second)[:5] == [
        line(1, "mall.n.kill.alone", True, colour="red", character="gunman", location=4),
        line(1, "mall.n.remove.ate", True, location=4, count=1),
        line(1, "mall.n.parking.eats", location=4, count=1),
        line(1, "mall.n.vote.alone.victim_one", colour="red", location=4, character="pinup"),  # his last one there
        line(1, "mall.n.kill.alone", True, colour="red", character="pinup", location=4),
    ]


def test_parking_zombies_that_ate_nobody_leave_at_the_end_of_its_attack():
    state = attack({"red": {"pinup": 4, "tough": 3, "gunman": 3}, "blue": {"pinup": 3, "tough": 5, "gunman": 5}},
                   {4: 3})
    index = told(state).index(line(1, "mall.n.remove.ate", True, location=4, count=1))
    assert told(state)[index + 1] == line(1, "mall.n.remove.parking", True, location=4, count=2)


def test_a_weapon_that_kills_the_last_zombie_in_the_parking_ends_its_card_window():
    state = attack({"red": {"pinup": 4, "tough": 3, "gunman": 3}, "blue": {"pinup": 3, "tough": 5, "gunman": 5}},
                   {4: 1}, hands={"red": 2}, deck=15)
    played = act(state, {"seat": "red", "play": "weapon", "kills": 2})
    assert said(state, played)[:2] == [
        line(1, "mall.n.remove.weapon", True, colour="red", location=4, count=1, kills=2),
        line(1, "mall.n.repelled.parking", location=4),  # nobody is asked for more cards at 0 zombies
    ]
    assert "mall.n.pass" not in keys(said_all(state, played))  # not asked again, so no pass either


def test_hardware_that_stops_a_breach_says_the_location_holds():
    state = game(**mall_attack(zombies={"1": 1}, hands={"red": 1, "blue": 0, "yellow": 0, "green": 0}, deck=16))
    # Attraction: one more zombie for the two Pin-ups: 2 zombies against defence 2.
    held = act(state, {"seat": "red", "play": "hardware"})
    assert said(state, held)[:2] == [line(2, "mall.n.card.hardware", True, colour="red", location=1),
                                     line(2, "mall.n.repelled", location=1, count=2, defence=3)]


# ---------------------------------------------------------------------------------------------------------------
# Zombie players, the badge, a new round
# ---------------------------------------------------------------------------------------------------------------


def test_the_last_character_dies_the_player_is_out_the_badge_passes_and_zombie_players_add_zombies():
    # Red, the Chief, has only his Pin-up left, alone with a zombie in the Restroom; Blue is already out.
    state = game(phase="attack", chief="red", characters={
        "red": {"pinup": 1}, "yellow": {"pinup": 3, "tough": 3, "gunman": 6},
        "green": {"pinup": 6, "tough": 6, "gunman": 6},
    }, zombies={"1": 1}, destinations={"red": 3, "blue": 3, "yellow": 6, "green": 5})
    assert told(state)[:12] == (
        line(1, "mall.n.put.crowd", True, location=6, count=1, most=4),
        line(1, "mall.n.attraction.tie_pinups", locations=[1, 3, 6], most=1),
        line(1, "mall.n.breach.defence", location=1, count=1, defence=1),
        line(1, "mall.n.vote.alone.victim_one", colour="red", location=1, character="pinup"),
        line(1, "mall.n.kill.alone", True, colour="red", character="pinup", location=1),
        line(1, "mall.n.remove.feast", True, location=1, count=1),
        line(1, "mall.n.out", colour="red"),
        line(1, "mall.n.badge.passes", True, colour="red", to_seat="yellow"),  # Blue, next clockwise, is out too
        line(1, "mall.n.hold", location=3, count=0, defence=3),
        line(1, "mall.n.hold", location=6, count=1, defence=5),
        line(1, "mall.n.put.zombie_player", True, colour="blue", location=3, count=1),
        line(2, "mall.n.round", round=2),
    )


def test_a_zombie_player_whose_location_fell_adds_no_zombie():
    state = game(phase="attack", characters={"red": {"pinup": 3, "tough": 3, "gunman": 5},
                                             "yellow": {"pinup": 6, "tough": 6, "gunman": 6},
                                             "green": {"pinup": 5, "tough": 6, "gunman": 6}},
                 closed=[1, 2], destinations={"red": 3, "blue": 1, "yellow": 3, "green": 3})
    assert line(1, "mall.n.zombie_player.closed", colour="blue", location=1) in told(state)


# ---------------------------------------------------------------------------------------------------------------
# The end
# ---------------------------------------------------------------------------------------------------------------


def test_rescue_when_few_live_the_scores_the_tie_break_on_cards_and_the_winner():
    state = attack({"red": {"pinup": 1, "tough": 3}, "blue": {"pinup": 5}, "yellow": {"pinup": 6},
                    "green": {"gunman": 6}}, {3: 2}, crowd=False, hands={"blue": 1}, deck=16)
    assert state.over
    assert told(state)[-12:] == (
        line(1, "mall.n.kill.alone", True, colour="red", character="tough", location=3),
        line(1, "mall.n.remove.feast", True, location=3, count=2),
        line(1, "mall.n.rescue.few", count=4, limit=4),
        line(1, "mall.n.score", colour="red", count=7),
        line(1, "mall.n.score", colour="blue", count=7),
        line(1, "mall.n.score", colour="yellow", count=7),
        line(1, "mall.n.score", colour="green", count=3),
        line(1, "mall.n.tiebreak", colours=["red", "blue", "yellow"], count=7),
        line(1, "mall.n.cards", colour="red", count=0),
        line(1, "mall.n.cards", colour="blue", count=1),
        line(1, "mall.n.cards", colour="yellow", count=0),
        line(1, "mall.n.winner", colour="blue"),
    )


def test_rescue_when_everyone_stands_together_and_a_shared_win():
    characters = {"red": {"pinup": 6, "tough": 6}, "blue": {"pinup": 6}, "yellow": {"pinup": 6}, "green": {"pinup": 3}}
    state = game(phase="move", characters=characters, cup=[2, 2, 2, 2],
                 destinations={"red": 6, "blue": 6, "yellow": 6, "green": 6})
    assert state.over
    assert told(state)[3:] == (
        line(1, "mall.n.stay.none", colour="red", location=6),
        line(1, "mall.n.stay.none", colour="blue", location=6),
        line(1, "mall.n.stay.none", colour="yellow", location=6),
        line(1, "mall.n.move.go", True, colour="green", character="pinup", from_location=3, to_location=6),
        line(1, "mall.n.rescue.together", location=6),
        line(1, "mall.n.score", colour="red", count=12),
        line(1, "mall.n.score", colour="blue", count=7),
        line(1, "mall.n.score", colour="yellow", count=7),
        line(1, "mall.n.score", colour="green", count=7),
        line(1, "mall.n.winner", colour="red"),
    )
    tie = game(phase="move", characters={**characters, "red": {"pinup": 6}}, cup=[2, 2, 2, 2],
               destinations={"red": 6, "blue": 6, "yellow": 6, "green": 6}, hands={"red": 1, "blue": 1})
    assert told(tie)[-1] == line(1, "mall.n.winners", colours=["red", "blue"])


# ---------------------------------------------------------------------------------------------------------------
# Whole random games
# ---------------------------------------------------------------------------------------------------------------

table_options = st.fixed_dictionaries({
    "threats_carry_to_revote": st.booleans(),
    "second_tie_victim": st.sampled_from(["character", "colour"]),
    "end_timing": st.sampled_from(["immediate", "round_end"]),
})
slow = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Board:
    """The physical board as the table keeps it by following only the act lines."""

    def __init__(self):
        self.figures: dict[tuple[str, str], int] = {}
        self.zombies = [0] * 6
        self.closed: set[int] = set()
        self.chief: str | None = None

    def follow(self, entry: Line) -> None:
        key, p = entry.message.key, entry.message.params
        family = key.split(".")[2]
        if not entry.act:
            assert family not in ACT_FAMILIES, f"{key} names a physical effect but is not marked act"
            return
        assert not entry.seats, f"{key}: a physical instruction is for the whole table"
        if family == "put":
            self.zombies[p["location"] - 1] += p["count"]
        elif family == "remove":
            self.zombies[p["location"] - 1] -= p["count"]
            assert self.zombies[p["location"] - 1] >= 0, entry
        elif family == "place":
            assert (p["colour"], p["character"]) not in self.figures, entry
            self.figures[p["colour"], p["character"]] = p["location"]
        elif family == "move":
            assert self.figures[p["colour"], p["character"]] == p["from_location"], entry
            self.figures[p["colour"], p["character"]] = p["to_location"]
        elif family == "kill":
            assert self.figures.pop((p["colour"], p["character"])) == p["location"], entry
        elif family == "close":
            assert p["location"] not in self.closed, entry
            self.closed.add(p["location"])
        elif family == "badge":
            self.chief = p["to_seat"]
        else:  # cards: dealt, drawn, given, or played and discarded
            assert family in ("deck", "card"), f"{key}: an act line of no known family"

    def matches(self, state) -> bool:
        figures = {(c.colour, c.kind): c.location for c in state.characters if c.location}
        assert self.figures == figures
        assert tuple(self.zombies) == state.zombies
        assert self.closed == set(state.closed)
        assert self.chief == state.chief
        return True


def every_state(players, options, events):
    """Every intermediate state of the game, automatic steps included."""
    state = mall.start(players, options)
    yield state
    for event in events:
        for step in engine.steps(engine.apply_one(state, event)):
            yield step
            state = step


@pytest.mark.parametrize("count", [3, 4, 5, 6])
@given(seed=st.integers(0, 2**32 - 1), options=table_options, close=st.sampled_from([0.0, 0.2]))
@slow
def test_folding_the_act_lines_over_an_empty_board_gives_the_companions_board_at_every_step(count, seed, options,
                                                                                          close):
    events, final = random_game(mall, PLAYERS[count], random.Random(seed), options, close_chance=close)
    board, known = Board(), ()
    for state in every_state(PLAYERS[count], options, events):
        assert told(state)[:len(known)] == known, "the narration only grows"
        for entry in told(state)[len(known):]:
            board.follow(entry)
            assert entry.round in (state.round, state.round - 1)  # the round it happened in (a round's end)
        known = told(state)
        assert board.matches(state)
    assert told(final)[-1].message.key in ("mall.n.winner", "mall.n.winners")


# -- secrets ----------------------------------------------------------------------------------------------------


def public(state) -> list[Line]:
    return [entry for entry in told(state) if not entry.seats]


def alternative(state, event: dict) -> dict | None:
    """The same kind of answer with another secret: other dice, another ballot, another destination."""
    if "roll" in event and not mall.cup_request(state).public:
        return {"roll": [7 - d for d in event["roll"]]}
    if "vote" in event:
        others = [c for c in state.vote.ballot.candidates if c != event["vote"]]
        return {**event, "vote": others[0]}
    if "go" in event and state.step == "secret":
        others = [a for a in options(state, event["seat"]) if a != event]
        return others[0] if others else None
    return None


def revealed(before, after, event: dict) -> bool:
    """The secret changed in `event` (taken in `before`) is on the table in `after`."""
    if "vote" in event:
        return after.revealed is not before.revealed
    return after.phase in ("move", "attack", "over") or after.round != before.round


@pytest.mark.parametrize("count", [3, 4, 5, 6])
@given(seed=st.integers(0, 2**32 - 1), options=table_options, which=st.integers(0, 10**6))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_no_public_line_tells_a_secret_before_its_reveal(count, seed, options, which):
    """Change one secret (the zombie dice, a ballot, a secret destination): until its reveal the public lines are
    the same, word for word; only the seats allowed to look at the dice get a line of their own."""
    players = PLAYERS[count]
    events, _ = random_game(mall, players, random.Random(seed), options)
    states = [mall.start(players, options)]
    for event in events:
        states.append(mall.apply(states[-1], event))
    secrets = [i for i, event in enumerate(events) if alternative(states[i], event) is not None]
    i = secrets[which % len(secrets)]
    changed = mall.apply(states[i], alternative(states[i], events[i]))
    original = states[i + 1]
    for later in events[i + 1:]:
        if revealed(states[i], original, events[i]):
            break
        assert public(changed) == public(original), f"event {i} {events[i]} shows before its reveal"
        for entry in told(changed):
            if entry.seats and entry.round == changed.round:  # this round's dice, told to who may look only
                assert entry.message.key == "mall.n.dice.seen" and set(entry.seats) <= changed.lookers
        if revealed(states[i], original, events[i]):
            break
        original, changed = mall.apply(original, later), mall.apply(changed, later)


def test_dice_reach_only_the_lookers_before_the_reveal_and_everyone_at_it():
    state = game(phase="arrival", chief="blue", elected=True, characters=ELSEWHERE, hands={"red": 1})
    rolled = act(roll(state, 1, 3, 5, 6), {"seat": "red", "play": "camera"})
    private = [entry for entry in told(rolled) if entry.seats]
    assert [entry.seats for entry in private] == [("blue",), ("red",)]
    assert not any("dice" in entry.message.params for entry in public(rolled))
    moved = act(rolled, {"seat": "blue", "go": 3}, {"seat": "red", "go": 3}, {"seat": "yellow", "go": 3},
                {"seat": "green", "go": 3})
    assert line(1, "mall.n.reveal.dice", dice=[1, 3, 5, 6]) in public(moved)


# -- the catalogue ----------------------------------------------------------------------------------------------

LOCALE = Path(mall.LOCALE)
PACKAGE = Path(engine.__file__).parent
VIEW_MODULE = "companion.games.mall_of_horror.view"


def narration_catalogue(lang: str) -> dict[str, tuple[str, ...]]:
    from babel.messages.pofile import read_po

    with (LOCALE / lang / "narration.po").open("rb") as handle:
        found = {}
        for message in read_po(handle):
            if message.id:
                key = message.id[0] if isinstance(message.id, tuple) else message.id
                found[key] = message.string if isinstance(message.string, tuple) else (message.string,)
    return found


# The calls that make a line (the state's `say`, narration's `line`) or a message inside a parameter (`nested`),
# and which of their arguments is the key.
SAYING = {"say": 0, "line": 1, "nested": 0}
NESTED_KEYS = {"mall.n.ballot", "mall.n.ballot.none", "mall.n.destination", "mall.n.destination.zombie",
               "mall.n.dice.to", "mall.n.dice.nowhere"}  # messages found only inside another line's parameters


def _keys(node: ast.expr, place: str) -> list[tuple[str, str]]:
    """The keys a call's key argument may be: ("key", a key) for a string (or either branch of a conditional),
    ("pattern", a regular expression) for an f-string, each {hole} any word."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [("key", node.value)]
    if isinstance(node, ast.IfExp):
        return _keys(node.body, place) + _keys(node.orelse, place)
    if isinstance(node, ast.JoinedStr):
        return [("pattern", "".join(re.escape(part.value) if isinstance(part, ast.Constant) else "[a-z0-9_]*"
                                    for part in node.values))]
    raise AssertionError(f"{place}: a line's key is written where it is said (a string, a conditional, an f-string)")


def said_in_source() -> list[tuple[str, str, list[tuple[str, str]], frozenset[str], bool]]:
    """Every call in the game's modules that says a line or nests a message: where, which call, the keys it may
    say, the names of the parameters it gives, its act flag (named, and written as it is, where it is said)."""
    calls = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name not in SAYING:
                continue
            place = f"{path.name}:{node.lineno}"
            assert len(node.args) == SAYING[name] + 1, f"{place}: the key (after the round), then names only"
            names, marked = set(), False
            for keyword in node.keywords:
                assert keyword.arg is not None, f"{place}: every parameter is named where the line is said"
                if keyword.arg == "act":
                    assert isinstance(keyword.value, ast.Constant), f"{place}: act is written True where it is said"
                    marked = keyword.value.value
                elif keyword.arg != "seats":
                    names.add(keyword.arg)
            calls.append((place, name, _keys(node.args[SAYING[name]], place), frozenset(names), marked))
    return calls


def described() -> dict[str, frozenset[str]]:
    """Each key the game says (its narration lines and the messages nested in them) and the names of its
    parameters, read from the source where it is said, checking as it reads: the key is in the narration catalogue
    and said with the same names wherever it is said; a line is marked act exactly when its key's family is in
    ACT_FAMILIES; a nested message is said with `nested`, and a line never is. An f-string stands for the
    catalogue's keys it matches that no string names."""
    calls = said_in_source()
    catalogue_keys = set(narration_catalogue("en"))
    named = {key for _, _, keys, _, _ in calls for kind, key in keys if kind == "key"}
    found: dict[str, frozenset[str]] = {}
    for place, call, keys, names, marked in calls:
        for kind, key in keys:
            matched = [key] if kind == "key" else [k for k in catalogue_keys - named if re.fullmatch(key, k)]
            assert matched and set(matched) <= catalogue_keys, f"{place}: {key} is no key of the narration catalogue"
            for one in matched:
                assert found.setdefault(one, names) == names, (place, one, sorted(names), sorted(found[one]))
                assert (call == "nested") == (one in NESTED_KEYS), f"{place}: {one} said with {call}"
                assert marked == (call != "nested" and one.split(".")[2] in ACT_FAMILIES), f"{place}: {one} act"
    return found


SAID = described()


def test_every_key_is_said_with_its_parameters_named_and_its_act_flag_is_its_family():
    """`described` checks as it reads the source; here, that it reads what the game says."""
    assert len(SAID) > 90
    assert NESTED_KEYS < set(SAID)
    assert SAID["mall.n.move.full"] == {"colour", "character", "from_location", "to_location", "location"}
    assert SAID["mall.n.dice.seen"] == {"dice", "arrivals"}
    assert SAID["mall.n.kill.drawn"] == SAID["mall.n.kill.eaten"] == {"colour", "character", "location"}


@pytest.mark.parametrize("lang", ["en", "zh_Hans", "zh_Hant", "vi"])
def test_every_narration_key_is_in_the_four_catalogues_with_the_same_placeholders(lang):
    english, other = narration_catalogue("en"), narration_catalogue(lang)
    assert set(other) == set(SAID), sorted(set(other) ^ set(SAID))  # no key unsaid, none said without its words
    for key, forms in other.items():
        wanted = set().union(*(placeholders(f) for f in english[key]))
        assert wanted <= SAID[key], (key, wanted - SAID[key])  # every placeholder is given
        assert all(f and placeholders(f) == wanted for f in forms), (lang, key, forms)
        if lang != "en":
            assert len(forms) == 1, (lang, key)
        elif len(forms) > 1:
            assert all("{count}" in f for f in forms), key


def test_every_line_of_random_games_renders_in_every_language_and_is_json():
    books = catalogue()
    found: dict[str, object] = {}
    for seed, count in enumerate((3, 4, 5, 6, 4, 5)):
        options = {"second_tie_victim": "colour"} if seed % 2 else None
        _, final = random_game(mall, PLAYERS[count], random.Random(seed), options, close_chance=0.1)
        for entry in told(final):
            assert json.loads(json.dumps(entry.to_json())) == entry.to_json()
            key = entry.message.key
            assert set(entry.message.params) == SAID[key], key
            assert entry.act == (key.split(".")[2] in ACT_FAMILIES), key
            assert not entry.seats or key == "mall.n.dice.seen", key  # only the dice a seat looked at are private
            for value in entry.message.params.values():
                assert type(value) is not tuple, key  # JSON values: lists
            found.setdefault(key, entry.message)
    assert len(found) > 40
    for message in found.values():
        for lang in ("en", "zh-Hans", "zh-Hant", "vi"):
            text = books.text(message, lang)
            assert "{" not in text and "mall." not in text, (lang, message, text)


def test_no_cache_rides_in_a_state():
    state = game(**mall_attack())
    asked = [state, vote(state, red="blue"), vote(state, red="red")]
    for one in asked:
        mall.narration(one), mall.prompt(one), mall.view(one), mall.view(one, "red"), mall.parts(one)
        mall.question(one, "red"), mall.secrets(one, "red"), mall.record(one)
        assert set(one.__dict__) == set(type(one).__dataclass_fields__)  # its fields, nothing worked out from them
    later = evolve(asked[-1], turn=1)
    assert set(later.__dict__) == set(type(later).__dataclass_fields__)
    with pytest.raises(TypeError, match="_prompt"):
        evolve(state, _prompt=None)
    assert mall.prompt(asked[0]) == prompts.prompt.__wrapped__(asked[0])  # what is remembered is what is worked out


def test_what_is_remembered_beside_the_states_is_worked_out_once_for_each_of_the_last_two_and_never_grows():
    worked: list = []
    work = remembered(lambda state: worked.append(state) or len(worked))
    one, two, three = (game(**mall_attack(deck=deck)) for deck in (15, 16, 17))
    assert [work(one), work(one), work(two), work(one), work(two)] == [1, 1, 2, 1, 2]
    assert work(three) == 3 and work(one) == 4  # three pushed the older of the two out
    assert worked == [one, two, three, one]
    kept = [cell.cell_contents for cell in work.__closure__ if isinstance(cell.cell_contents, tuple)]
    assert [entry[0] for entry in kept] in ([one, three], [three, one])  # two entries, holding their states
    equal = evolve(one)  # an equal state is another state: worked out for itself
    assert equal == one and work(equal) == 5
    assert all(hasattr(asked, "__wrapped__") for asked in (prompts.prompt, sys.modules[VIEW_MODULE]._public))


def test_the_lines_of_a_state_are_the_lines_of_the_state_it_evolved_from_and_then_its_own():
    state = game(**mall_attack())
    first = told(state)
    later = vote(state, red="blue", blue="red")
    assert told(later)[:len(first)] == first
    assert list(told(later)[len(first):]) == said_all(state, later) != []
    assert all(entry.round == later.round for entry in later.narration)  # this round's lines: `say` adds to them
    assert told(later) == later.earlier + later.narration


def test_the_issues_examples_read_as_asked():
    books = catalogue()
    assert books.text(line(1, "mall.n.put.pinups", True, location=4, count=1, most=2).message) == (
        "Put 1 zombie on 4 Parking: most Pin-ups (2)")
    assert books.text(line(1, "mall.n.kill.vote", True, colour="blue", character="tough", location=4, count=3,
                           against=2).message) == "Remove Blue's Tough Guy from 4 Parking: eaten (vote 3 to 2)"
    assert books.text(line(1, "mall.n.breach.supermarket", location=6, count=4, limit=4, defence=6).message) == (
        "6 Supermarket is breached: 4 zombies ≥ 4, whatever its defence (6)")
    assert books.text(line(1, "mall.n.deck.search3", True, colour="red").message) == (
        "Red searches the truck: draw 3, keep 1, give 1, put 1 at the bottom of the deck")
    assert books.text(line(1, "mall.n.dice.seen", seats=("red",), dice=[4, 4, 6, 1], arrivals=[
        nest("mall.n.dice.to", count=1, location=1), nest("mall.n.dice.to", count=2, location=4),
        nest("mall.n.dice.to", count=1, location=6)]).message) == (
        "You see the dice (4, 4, 6 and 1): 1 zombie to 1 Restroom, 2 zombies to 4 Parking and 1 zombie to "
        "6 Supermarket")
