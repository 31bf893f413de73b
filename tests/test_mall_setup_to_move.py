"""Mall of Horror rules, from the components through phase e) Reveal and move: one test per rule or ruling.

The rules are /work/shared/rules/mall-of-horror.md. Each test sets up the board a group would see, gives the
answers the players would give, and checks what a player would notice: where the characters stand, who is
asked what, how many zombies and cards there are, and the message a refused answer gets.
"""

from __future__ import annotations

import pytest
from mall import FOUR, act, asked, game, options, roll, vote, waiting, where, zombies

from companion.catalogue import text
from companion.contract import Message
from companion.games import mall_of_horror as mall
from companion.games.mall_of_horror import IllegalAction

THREE = ("red", "yellow", "blue")
FIVE = ("red", "yellow", "blue", "green", "purple")
SIX = ("red", "yellow", "blue", "green", "purple", "black")
NO_ZOMBIE_DICE = [2, 2, 2, 2]  # at 3-4 players every die shows the closed Cachou: no zombie arrives


def refused(state, action: dict) -> str:
    """The message a player reads when the rules refuse his answer."""
    with pytest.raises(IllegalAction) as error:
        mall.decide(state, action)
    return str(error.value)


def prompt_of(state):
    return mall.prompt(state)


def place_next(state):
    """The player asked places his first legal choice (the dice always show the Parking)."""
    while mall.cup_request(state) is not None and mall.cup_request(state).count == 2:
        state = roll(state, 4, 4)
        if mall.prompt(state) is not None:
            seat = waiting(state)[0]
            state = act(state, options(state, seat)[0])
    return state


# -- Components -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["red", "blue"], "Mall of Horror is for 3 to 6 players, not 2"),
        (["red", "yellow", "blue", "green", "purple", "black", "red"], "Mall of Horror is for 3 to 6 players, not 7"),
        (["red", "blue", "pink", "green"], "'pink' is not a colour of the game"),
        (["red", "blue", "blue", "green"], "each player needs a different colour"),
    ],
)
def test_three_to_six_players_each_a_different_colour(players, message):
    with pytest.raises(IllegalAction, match=message):
        mall.start(players)


def test_three_player_game_uses_red_yellow_and_blue_only():
    with pytest.raises(IllegalAction, match="a 3-player game uses Red, Yellow and Blue"):
        mall.start(["red", "yellow", "green"])
    assert mall.start(["blue", "red", "yellow"]).players == ("blue", "red", "yellow")


def test_six_player_game_uses_all_six_colours():
    state = mall.start(list(SIX))
    assert mall.record(state)["unplaced"] == {p: ["pinup", "tough", "gunman"] for p in SIX}


def test_each_player_has_pinup_tough_guy_and_gunman():
    state = mall.start(list(FOUR))
    assert mall.record(state)["unplaced"] == {p: ["pinup", "tough", "gunman"] for p in FOUR}


def test_little_girl_joins_only_at_three_players():
    three = mall.record(mall.start(list(THREE)))["unplaced"]
    assert three == {p: ["pinup", "tough", "gunman", "girl"] for p in THREE}
    with pytest.raises(IllegalAction, match="'girl' is not a character here"):
        game(characters={"red": {"girl": 1}})


def test_pinup_scores_7_tough_guy_5_gunman_3():
    state = game(characters={
        "red": {"pinup": 1, "tough": 3, "gunman": 6},
        "blue": {"pinup": 3},
        "yellow": {"tough": 5},
        "green": {"gunman": 6, "tough": 6},
    })
    assert mall.record(state)["scores"] == {"red": 15, "blue": 7, "yellow": 5, "green": 8}


def test_little_girl_is_worth_one_point():
    state = game(THREE, characters={
        "red": {"pinup": 1, "tough": 3, "gunman": 6, "girl": 5},
        "yellow": {"girl": 3, "gunman": 5},
        "blue": {"pinup": 6, "girl": 6},
    })
    assert mall.record(state)["scores"] == {"red": 16, "yellow": 4, "blue": 8}


# A board for the attack phase: the Restroom holds only Red's LONER; the other locations are safe and
# nothing is attracted there (no location has strictly the most characters; Megatoys has the most Pin-ups).
def loner_in_the_restroom(loner: str, restroom_zombies: int):
    others = [k for k in ("pinup", "tough", "gunman") if k != loner]
    return game(
        phase="attack",
        characters={
            "red": {loner: 1, others[0]: 6, others[1]: 6},
            "blue": {"pinup": 3, "tough": 6, "gunman": 3},
            "yellow": {"pinup": 5, "tough": 3, "gunman": 5},
            "green": {"pinup": 3, "tough": 5, "gunman": 6},
        },
        zombies={"1": restroom_zombies},
        destinations={"red": 1, "blue": 3, "yellow": 5, "green": 6},
    )


def test_tough_guy_counts_two_for_defence():
    tough_alone = loner_in_the_restroom("tough", restroom_zombies=1)
    gunman_alone = loner_in_the_restroom("gunman", restroom_zombies=1)
    assert where(tough_alone, "red")["tough"] == 1  # 1 zombie < defence 2: no breach
    assert zombies(tough_alone)[1] == 1  # the zombie stays
    assert "gunman" not in where(gunman_alone, "red")  # 1 zombie >= defence 1: eaten
    assert zombies(gunman_alone)[1] == 0


def test_gunman_has_two_votes():
    state = game(phase="chief", characters={
        "red": {"gunman": 5, "pinup": 1, "tough": 3},
        "blue": {"pinup": 5, "tough": 6, "gunman": 6},
        "yellow": {"pinup": 6, "tough": 1, "gunman": 3},
        "green": {"pinup": 3, "tough": 6, "gunman": 1},
    }, chief="blue")
    state = vote(state, red="red", blue="blue")  # 2 votes to 1, not a tie
    assert (state.chief, state.elected) == ("red", True)


def test_pinups_attract_zombies():
    # Megatoys holds 2 of the 4 Pin-ups, strictly the most: one more zombie comes.
    state = loner_in_the_restroom("tough", restroom_zombies=0)
    assert zombies(state)[3] == 1


def test_more_than_thirty_zombies_on_the_board_warns_but_keeps_counting():
    board = {
        "red": {"pinup": 1, "tough": 3, "gunman": 6},
        "blue": {"pinup": 3, "tough": 6, "gunman": 1},
        "yellow": {"pinup": 6, "tough": 5, "gunman": 3},
        "green": {"pinup": 5, "tough": 6, "gunman": 6},
    }
    thirty = {"1": 7, "3": 7, "4": 2, "5": 7, "6": 7}
    before = game(phase="chief", characters=board, zombies=thirty)
    assert "warnings" not in mall.record(before)
    after = game(phase="move", characters=board, zombies=thirty, cup=[1, 6, 2, 2],
                 destinations={"red": 5, "blue": 5, "yellow": 1, "green": 1})
    assert sum(zombies(after).values()) == 32
    assert [text(Message(w["key"], w["params"])) for w in mall.record(after)["warnings"]] == [
        "32 zombies on the board: the box has only 30 figures"]


@pytest.mark.parametrize("players", [THREE, FOUR, FIVE, SIX])
def test_twenty_one_action_cards_one_dealt_to_each_player_the_rest_is_the_truck_deck(players):
    record = mall.record(mall.start(list(players)))
    assert record["hands"] == dict.fromkeys(players, 1)
    assert record["deck"] == 21 - len(players)
    assert set(record["played"].values()) == {0}


# A breach in the Restroom (2 zombies against 2 characters): Red, who holds a card, is asked first.
def breach_in_the_restroom(played=None, hands=None):
    return game(
        phase="attack",
        characters={
            "red": {"pinup": 1, "tough": 3, "gunman": 6},
            "blue": {"gunman": 1, "pinup": 3, "tough": 6},
            "yellow": {"pinup": 6, "tough": 5, "gunman": 3},
            "green": {"pinup": 5, "tough": 6, "gunman": 3},
        },
        zombies={"1": 2},
        destinations={"red": 1, "blue": 1, "yellow": 6, "green": 5},
        hands=hands or {"red": 1},
        played=played or {},
    )


def test_a_fourth_threat_is_rejected():
    fresh = breach_in_the_restroom()
    assert {"seat": "red", "play": "threat"} in options(fresh, "red")
    spent = breach_in_the_restroom(played={"threat": 3})
    assert {"seat": "red", "play": "threat"} not in options(spent, "red")
    assert refused(spent, {"seat": "red", "play": "threat"}) == "all 3 Threat cards have already been played"


def test_weapons_are_three_that_kill_two_and_three_that_kill_one():
    state = breach_in_the_restroom(played={"weapon2": 3, "weapon1": 2})
    assert {"seat": "red", "play": "weapon", "kills": 1} in options(state, "red")
    assert {"seat": "red", "play": "weapon", "kills": 2} not in options(state, "red")
    assert refused(state, {"seat": "red", "play": "weapon", "kills": 2}).startswith(
        "all 3 Weapon (Shotgun, Chainsaw or Grenades) cards have already been played")
    assert refused(state, {"seat": "red", "play": "weapon", "kills": 3}) == "a Weapon kills 1 or 2 zombies"


def test_a_player_with_no_card_left_cannot_play_one():
    state = game(phase="move", characters={
        "red": {"pinup": 1, "tough": 3, "gunman": 6},
        "blue": {"pinup": 3, "tough": 6, "gunman": 1},
        "yellow": {"pinup": 6, "tough": 5, "gunman": 3},
        "green": {"pinup": 5, "tough": 6, "gunman": 6},
    }, cup=NO_ZOMBIE_DICE, destinations={"red": 5, "blue": 5, "yellow": 1, "green": 1}, hands={"blue": 2})
    assert waiting(state) == ("red",)
    assert all("play" not in answer for answer in options(state, "red"))
    assert refused(state, {"seat": "red", "play": "sprint", "go": 5}) == "Red has no card left"


def test_cards_are_secret_the_companion_counts_them():
    state = breach_in_the_restroom(hands={"red": 2})
    state = act(state, {"seat": "red", "play": "weapon", "kills": 1})
    record = mall.record(state)
    assert record["hands"]["red"] == 1
    assert record["played"]["weapon1"] == 1


def test_the_cup_rolls_only_the_dice_it_is_asked_for():
    state = mall.start(list(FOUR))
    with pytest.raises(IllegalAction, match="the cup must roll 2 dice with values 1 to 6"):
        roll(state, 1, 2, 3)
    with pytest.raises(IllegalAction, match="the cup must roll 2 dice with values 1 to 6"):
        roll(state, 0, 7)
    state = roll(state, 1, 3)
    with pytest.raises(IllegalAction, match="the cup was not asked to roll now"):
        roll(state, 1, 3)


@pytest.mark.parametrize(("location", "capacity"), [(1, 3), (2, 4), (3, 4), (5, 3), (6, 6)])
def test_location_capacities(location, capacity):
    """Red (the Chief, moving first) heads for a location holding capacity-1, then capacity, characters."""
    others = [(p, k) for p in SIX[1:] for k in ("pinup", "tough", "gunman")]

    def red_moves_in_with(present: int) -> int:
        characters = {"red": {"pinup": 4, "tough": 4, "gunman": 4}}
        for i, (p, k) in enumerate(others):
            characters.setdefault(p, {})[k] = location if i < present else 4
        state = game(SIX, phase="move", characters=characters, cup=[4, 4, 4, 4],
                     destinations=dict.fromkeys(SIX, 4) | {"red": location})
        return where(act(state, {"seat": "red", "move": "pinup"}), "red")["pinup"]

    assert red_moves_in_with(capacity - 1) == location
    assert red_moves_in_with(capacity) == 4  # full: the Pin-up runs to the Parking


def test_parking_is_unlimited():
    characters = {p: {"pinup": 4, "tough": 4, "gunman": 4} for p in SIX[1:]}
    characters["red"] = {"pinup": 1, "tough": 1, "gunman": 3}
    state = game(SIX, phase="move", characters=characters, cup=[3, 3, 3, 3],
                 destinations=dict.fromkeys(SIX, 1) | {"red": 4})
    state = act(state, {"seat": "red", "move": "pinup"})
    assert where(state, "red")["pinup"] == 4
    assert len(state.at(4)) == 16


# -- Setup ----------------------------------------------------------------------------------------------------


def test_seating_order_is_clockwise_as_listed_and_the_first_is_the_oldest_and_chief():
    state = mall.start(["green", "red", "yellow", "blue"])
    assert state.chief == "green"
    asked = []
    for _ in range(8):
        state = roll(state, 1, 3)
        asked.append(waiting(state)[0])
        state = act(state, options(state, waiting(state)[0])[0])
    assert asked == ["green", "red", "yellow", "blue"] * 2


@pytest.mark.parametrize("players", [THREE, FOUR])
def test_cachou_is_closed_at_three_and_four_players(players):
    state = mall.start(list(players))
    assert mall.record(state)["closed"] == [2]


@pytest.mark.parametrize("players", [FIVE, SIX])
def test_cachou_is_open_at_five_and_six_players(players):
    state = roll(mall.start(list(players)), 2, 2)
    assert mall.record(state)["closed"] == []
    assert {a["go"] for a in options(state, "red")} == {2}


def test_placement_rolls_two_public_dice():
    request = mall.cup_request(mall.start(list(FOUR)))
    assert (request.kind, request.count, request.public) == ("roll", 2, True)


def test_placement_goes_clockwise_from_the_chief_one_character_at_a_time():
    state = mall.start(list(FOUR))
    for seat in FOUR:
        state = roll(state, 1, 3)
        assert waiting(state) == (seat,)
        assert len(state.at(1)) + len(state.at(3)) == FOUR.index(seat)
        state = act(state, {"seat": seat, "go": 3, "character": "pinup"})
    assert refused(roll(state, 1, 3), {"seat": "blue", "go": 3, "character": "tough"}) == (
        "Blue cannot act now: the table waits for Red (place a character)")


def test_placement_uses_either_die():
    state = roll(mall.start(list(FOUR)), 5, 1)
    assert {a["go"] for a in options(state, "red")} == {1, 5}
    assert where(act(state, {"seat": "red", "go": 5, "character": "tough"}), "red")["tough"] == 5
    assert where(act(state, {"seat": "red", "go": 1, "character": "tough"}), "red")["tough"] == 1
    assert refused(state, {"seat": "red", "go": 3, "character": "tough"}) == (
        "Red cannot place at 3 Megatoys: the dice show 5 and 1")


def test_placement_puts_any_one_of_his_unplaced_characters():
    state = roll(mall.start(list(FOUR)), 5, 1)
    assert {a["character"] for a in options(state, "red")} == {"pinup", "tough", "gunman"}
    state = act(state, {"seat": "red", "go": 5, "character": "gunman"})
    for seat in ("blue", "yellow", "green"):
        state = act(roll(state, 6, 6), {"seat": seat, "go": 6, "character": "pinup"})
    state = roll(state, 5, 1)
    assert {a["character"] for a in options(state, "red")} == {"pinup", "tough"}
    assert refused(state, {"seat": "red", "go": 5, "character": "gunman"}) == "Red has no unplaced Gunman"


def test_placement_die_on_a_closed_location_cannot_be_used():
    state = roll(mall.start(list(FOUR)), 2, 6)
    assert {a["go"] for a in options(state, "red")} == {6}
    assert refused(state, {"seat": "red", "go": 2, "character": "pinup"}) == (
        "Red cannot place at 2 Cachou: it is closed")


def restroom_filled_by_red_blue_yellow():
    state = mall.start(list(FOUR))
    for seat in ("red", "blue", "yellow"):
        state = act(roll(state, 1, 1), {"seat": seat, "go": 1, "character": "pinup"})
    return state


def test_placement_die_on_a_full_location_cannot_be_used():
    state = roll(restroom_filled_by_red_blue_yellow(), 1, 3)
    assert {a["go"] for a in options(state, "green")} == {3}
    assert refused(state, {"seat": "green", "go": 1, "character": "pinup"}) == (
        "Green cannot place at 1 Restroom: it is full")


def test_placement_when_neither_die_can_be_used_any_open_location_with_room():
    state = roll(restroom_filled_by_red_blue_yellow(), 1, 2)  # Restroom full, Cachou closed
    assert {a["go"] for a in options(state, "green")} == {3, 4, 5, 6}
    state = act(state, {"seat": "green", "go": 5, "character": "tough"})
    assert where(state, "green")["tough"] == 5


def test_doubles_give_no_free_choice():
    state = roll(mall.start(list(FOUR)), 3, 3)
    assert {a["go"] for a in options(state, "red")} == {3}
    assert refused(state, {"seat": "red", "go": 5, "character": "pinup"}) == (
        "Red cannot place at 5 Security HQ: the dice show 3 and 3")


@pytest.mark.parametrize(("players", "characters"), [(THREE, 12), (FOUR, 12), (FIVE, 15), (SIX, 18)])
def test_placement_repeats_until_all_characters_are_placed(players, characters):
    state = mall.start(list(players))
    placements = 0
    while mall.cup_request(state).count == 2:
        assert state.phase == "placement"
        state = roll(state, 4, 4)
        if mall.prompt(state) is not None:
            state = act(state, options(state, waiting(state)[0])[0])
        placements += 1
    assert placements == characters
    assert mall.record(state).get("unplaced", {}) == {}
    assert all(c.location == 4 for c in state.characters)
    assert len(state.characters) == characters


def all_placed(players=FOUR):
    """Every character placed (the dice always showed the Parking); the cup is asked for the zombies."""
    return place_next(mall.start(list(players)))


def test_initial_zombies_four_public_dice_one_zombie_at_each_location_shown():
    state = all_placed()
    request = mall.cup_request(state)
    assert (request.kind, request.count, request.public) == ("roll", 4, True)
    state = roll(state, 1, 3, 3, 6)
    assert zombies(state) == {1: 1, 2: 0, 3: 2, 4: 0, 5: 0, 6: 1}
    assert (state.round, state.phase) == (1, "truck")


def test_initial_zombies_ignore_dice_on_a_closed_location():
    state = roll(all_placed(), 2, 2, 4, 5)
    assert zombies(state) == {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 0}


def test_initial_zombies_at_cachou_when_it_is_open():
    state = roll(all_placed(FIVE), 2, 2, 4, 5)
    assert zombies(state) == {1: 0, 2: 2, 3: 0, 4: 1, 5: 1, 6: 0}


# -- a) Truck search ------------------------------------------------------------------------------------------


def truck(parking: dict[str, list[str]], **position):
    """A round starting at the truck; PARKING names who stands in the Parking, the others stand elsewhere."""
    elsewhere = {"red": {"pinup": 1, "tough": 3, "gunman": 6}, "blue": {"pinup": 3, "tough": 6, "gunman": 1},
                 "yellow": {"pinup": 6, "tough": 1, "gunman": 3}, "green": {"pinup": 6, "tough": 6, "gunman": 6}}
    characters = {p: {k: 4 if k in parking.get(p, ()) else loc for k, loc in kinds.items()}
                  for p, kinds in elsewhere.items()}
    position.setdefault("hands", dict.fromkeys(FOUR, 1))
    position.setdefault("deck", 17)
    return game(characters=position.pop("characters", characters), **position)


def test_truck_search_skipped_when_nobody_in_parking():
    state = truck({})
    assert state.phase == "arrival"  # the truck and then the empty Security HQ were skipped
    assert (state.deck, dict(state.hands)) == (17, dict.fromkeys(FOUR, 1))


def test_truck_search_skipped_when_the_deck_is_empty():
    state = truck({"red": ["pinup"], "blue": ["pinup"]}, deck=0, hands={"red": 2})
    assert state.phase == "arrival"
    assert dict(state.hands) == {"red": 2, "blue": 0, "yellow": 0, "green": 0}


def test_players_with_characters_in_parking_vote_for_the_truck():
    state = truck({"red": ["pinup"], "green": ["tough", "gunman"]})
    assert (state.phase, asked(state), prompt_of(state).secret) == ("truck", ("ballot", "vote"), True)
    assert set(waiting(state)) == {"red", "green"}
    assert options(state, "red") == [{"seat": "red", "vote": "red"}, {"seat": "red", "vote": "green"}]
    assert refused(state, {"seat": "blue", "vote": "red"}).startswith("Blue cannot act now")


def test_truck_single_player_in_parking_searches_without_a_vote():
    state = truck({"yellow": ["pinup", "tough"]})
    assert (asked(state), waiting(state)) == (("pick", "gift"), ("yellow",))


def test_truck_searcher_keeps_one_gives_one_and_puts_one_under_the_deck():
    state = truck({"red": ["pinup", "tough"], "blue": ["pinup"]})
    state = vote(state, red="red", blue="blue")  # Red's 2 votes beat Blue's 1
    assert (asked(state), waiting(state)) == (("pick", "gift"), ("red",))
    assert state.hands["red"] == 2  # kept one
    state = act(state, {"seat": "red", "give": "yellow"})
    assert dict(state.hands) == {"red": 2, "blue": 1, "yellow": 2, "green": 1}
    assert state.deck == 15  # 3 drawn, 1 back under the deck
    assert state.phase != "truck"


def test_truck_gift_to_any_other_player_inside_parking_or_not_alive_or_not():
    characters = {"red": {"pinup": 4, "tough": 3, "gunman": 6}, "blue": {"pinup": 4},
                  "yellow": {"pinup": 6, "tough": 1, "gunman": 3}}  # Green is out
    state = truck({}, characters=characters)
    state = vote(state, red="red", blue="red")
    assert {a["give"] for a in options(state, "red")} == {"blue", "yellow", "green"}
    state = act(state, {"seat": "red", "give": "green"})
    assert state.hands["green"] == 2


def test_truck_searcher_cannot_give_the_card_to_himself():
    state = truck({"red": ["pinup"]})
    assert refused(state, {"seat": "red", "give": "red"}) == "Red must give the card to another player"


@pytest.mark.parametrize(("deck", "gift"), [(2, True), (1, False)])
def test_truck_with_fewer_than_three_cards_left(deck, gift):
    """Two cards: keep one, give one, none goes back. One card: the searcher keeps it."""
    state = truck({"red": ["pinup"]}, deck=deck)
    if gift:
        assert waiting(state) == ("red",)
        state = act(state, {"seat": "red", "give": "blue"})
    assert state.deck == 0
    assert dict(state.hands) == {"red": 2, "blue": 2 if gift else 1, "yellow": 1, "green": 1}


def test_truck_tie_is_voted_again_with_the_players_outside_the_parking():
    state = truck({"red": ["pinup"], "blue": ["pinup"]})
    state = vote(state, red="red", blue="blue")
    assert (state.phase, asked(state)) == ("truck", ("ballot", "vote"))
    assert set(waiting(state)) == set(FOUR)


def test_truck_second_tie_nobody_searches():
    state = truck({"red": ["pinup"], "blue": ["pinup"]})
    state = vote(state, red="red", blue="blue")
    state = vote(state, red="red", blue="blue", yellow="red", green="blue")
    assert state.phase != "truck"
    assert (state.deck, dict(state.hands)) == (17, dict.fromkeys(FOUR, 1))


def test_truck_search_skipped_for_the_rest_of_the_game_once_deck_is_empty():
    state = truck({"red": ["pinup"]}, deck=1, hands={}, characters={
        "red": {"pinup": 4, "tough": 1, "gunman": 1},
        "blue": {"pinup": 3, "tough": 3, "gunman": 6},
        "yellow": {"pinup": 6, "tough": 6, "gunman": 1},
        "green": {"pinup": 3, "tough": 6, "gunman": 6},
    })
    assert (state.deck, state.hands["red"]) == (0, 1)  # Red drew the last card and kept it
    state = roll(state, *NO_ZOMBIE_DICE)
    state = act(state, {"seat": "red", "pass": True})  # Red holds a card: the camera window asks him
    state = act(state, {"seat": "red", "go": 1}, {"seat": "blue", "go": 6}, {"seat": "yellow", "go": 3},
                {"seat": "green", "go": 3})
    # Red's Pin-up cannot enter the full Restroom and stays in the Parking.
    state = act(state, {"seat": "red", "move": "pinup"}, {"seat": "blue", "move": "pinup"},
                {"seat": "yellow", "move": "gunman"}, {"seat": "green", "move": "tough"})
    assert where(state, "red")["pinup"] == 4
    assert (state.round, state.phase) == (2, "arrival")  # no truck search, and nobody in the Security HQ
    assert (state.deck, dict(state.hands)) == (0, {"red": 1, "blue": 0, "yellow": 0, "green": 0})


# -- b) Chief election ----------------------------------------------------------------------------------------


def chief_vote(hq: dict[str, list[str]], **position):
    """A round starting at the Chief election; HQ names who stands in the Security HQ."""
    elsewhere = {"red": {"pinup": 1, "tough": 3, "gunman": 6}, "blue": {"pinup": 3, "tough": 6, "gunman": 1},
                 "yellow": {"pinup": 6, "tough": 1, "gunman": 3}, "green": {"pinup": 6, "tough": 6, "gunman": 6}}
    characters = {p: {k: 5 if k in hq.get(p, ()) else loc for k, loc in kinds.items()}
                  for p, kinds in elsewhere.items()}
    position.setdefault("chief", "yellow")
    return game(phase="chief", characters=characters, **position)


def test_players_with_characters_in_hq_vote_for_chief():
    state = chief_vote({"red": ["pinup"], "blue": ["tough"]})
    assert (state.phase, asked(state), prompt_of(state).secret) == ("chief", ("ballot", "vote"), True)
    assert set(waiting(state)) == {"red", "blue"}


def test_chief_election_winner_becomes_chief_and_is_elected():
    state = chief_vote({"red": ["pinup"], "blue": ["tough", "gunman"]})
    state = vote(state, red="red", blue="red")
    assert (state.chief, state.elected) == ("red", True)
    assert state.phase == "arrival"


def test_chief_election_single_player_in_hq_becomes_chief_without_a_vote():
    state = chief_vote({"green": ["pinup", "gunman"]})
    assert (state.chief, state.elected, state.phase) == ("green", True, "arrival")


def test_chief_unchanged_and_not_elected_when_hq_empty():
    state = chief_vote({})
    assert (state.chief, state.elected, state.phase) == ("yellow", False, "arrival")


def test_chief_unchanged_and_not_elected_when_hq_closed():
    state = chief_vote({}, closed=[2, 5])
    assert (state.chief, state.elected, state.phase) == ("yellow", False, "arrival")


def test_chief_unchanged_and_not_elected_on_second_tie():
    state = chief_vote({"red": ["pinup"], "blue": ["tough"]})
    state = vote(state, red="red", blue="blue")
    assert (state.phase, asked(state)) == ("chief", ("ballot", "vote"))
    state = vote(state, red="red", blue="blue", yellow="red", green="blue")
    assert (state.chief, state.elected, state.phase) == ("yellow", False, "arrival")


def test_chief_elected_last_round_is_not_elected_this_round_when_hq_empty():
    state = game(phase="truck", chief="blue", elected=True, characters={
        "red": {"pinup": 1, "tough": 3, "gunman": 6}, "blue": {"pinup": 3, "tough": 6, "gunman": 1},
        "yellow": {"pinup": 6, "tough": 1, "gunman": 3}, "green": {"pinup": 6, "tough": 6, "gunman": 6}})
    assert (state.chief, state.elected) == ("blue", False)
    assert mall.cup_request(state).visible_to == ()


def test_badge_passes_to_next_living_player_clockwise_when_chief_is_eliminated():
    # Red, the Chief, has only his Pin-up left, alone with a zombie in the Restroom; Blue is already out.
    state = game(phase="attack", chief="red", characters={
        "red": {"pinup": 1},
        "yellow": {"pinup": 3, "tough": 3, "gunman": 6},
        "green": {"pinup": 6, "tough": 6, "gunman": 6},
    }, zombies={"1": 1}, destinations={"red": 3, "blue": 3, "yellow": 6, "green": 5})
    assert not state.alive("red")
    assert state.chief == "yellow"  # Blue, next clockwise, is out too
    assert (state.round, state.phase, state.elected) == (2, "arrival", False)


def test_position_with_an_eliminated_chief_is_refused():
    with pytest.raises(IllegalAction, match="the Chief Red has no character left"):
        game(chief="red", characters={"blue": {"pinup": 1}, "yellow": {"pinup": 3}, "green": {"pinup": 5}})


# -- c) Zombie arrival ----------------------------------------------------------------------------------------


def arrival(**position):
    position.setdefault("characters", {
        "red": {"pinup": 1, "tough": 3, "gunman": 6}, "blue": {"pinup": 3, "tough": 6, "gunman": 1},
        "yellow": {"pinup": 6, "tough": 1, "gunman": 3}, "green": {"pinup": 6, "tough": 6, "gunman": 6}})
    return game(phase="arrival", **position)


def test_zombie_dice_are_four_rolled_in_secret():
    request = mall.cup_request(arrival())
    assert (request.kind, request.count, request.public) == ("roll", 4, False)


def test_only_elected_chief_may_look_at_the_dice():
    elected = arrival(chief="blue", elected=True)
    assert mall.cup_request(elected).visible_to == ("blue",)
    assert roll(elected, 1, 3, 5, 6).lookers == {"blue"}
    not_elected = arrival(chief="blue", elected=False)
    assert mall.cup_request(not_elected).visible_to == ()
    assert roll(not_elected, 1, 3, 5, 6).lookers == frozenset()


def test_security_camera_asked_clockwise_from_chief_to_players_with_cards():
    hands = {"red": 1, "blue": 2, "yellow": 0, "green": 1}
    state = roll(arrival(chief="yellow", hands=hands), 1, 3, 5, 6)
    in_turn = []
    while state.phase == "arrival":
        in_turn.append(waiting(state))
        assert asked(state) == ("cards", "window")
        state = act(state, {"seat": waiting(state)[0], "pass": True})
    assert in_turn == [("green",), ("red",), ("blue",)]  # Yellow, the Chief, has no card


def test_elected_chief_is_not_asked_for_a_security_camera():
    hands = {"red": 1, "blue": 1, "yellow": 1, "green": 1}
    state = roll(arrival(chief="yellow", elected=True, hands=hands), 1, 3, 5, 6)
    assert waiting(state) == ("green",)  # Yellow already sees the dice


def test_security_camera_lets_its_player_look_at_the_dice():
    hands = {"red": 1, "blue": 1, "yellow": 0, "green": 0}
    state = roll(arrival(hands=hands), 1, 3, 5, 6)
    assert options(state, "red") == [{"seat": "red", "pass": True}, {"seat": "red", "play": "camera"}]
    state = act(state, {"seat": "red", "play": "camera"}, {"seat": "blue", "pass": True})
    assert state.lookers == {"red"}  # Blue passed and does not see
    assert (state.hands["red"], state.played["camera"]) == (0, 1)
    assert state.phase == "destination"


def test_only_security_camera_is_played_when_the_zombies_arrive():
    state = roll(arrival(hands={"red": 1}), 1, 3, 5, 6)
    assert refused(state, {"seat": "red", "play": "threat"}) == (
        "only Security Camera can be played before the destinations are chosen, not Threat")


def test_nobody_is_asked_for_a_camera_once_all_three_are_played():
    state = roll(arrival(hands={"red": 1, "blue": 1}, played={"camera": 3}), 1, 3, 5, 6)
    assert state.phase == "destination"
    assert state.lookers == frozenset()


# -- d) Destination -------------------------------------------------------------------------------------------


def destination(**position):
    position.setdefault("characters", {
        "red": {"pinup": 1, "tough": 3, "gunman": 6}, "blue": {"pinup": 3, "tough": 6, "gunman": 1},
        "yellow": {"pinup": 6, "tough": 1, "gunman": 3}, "green": {"pinup": 5, "tough": 5, "gunman": 5}})
    position.setdefault("cup", [1, 3, 5, 6])
    return game(phase="destination", **position)


def test_elected_chief_chooses_destination_first_and_publicly():
    state = destination(chief="blue", elected=True)
    assert (asked(state), waiting(state), prompt_of(state).secret) == (("pick", "chief"), ("blue",), False)
    assert refused(state, {"seat": "red", "go": 6}).startswith("Red cannot act now: the table waits for Blue")
    state = act(state, {"seat": "blue", "go": 5})
    assert state.destinations == {"blue": 5}  # public: everyone may know it
    assert (set(waiting(state)), prompt_of(state).secret) == ({"red", "yellow", "green"}, True)
    assert refused(state, {"seat": "blue", "go": 6}).startswith("Blue cannot act now")  # no second thoughts


def test_all_choose_in_secret_at_once_when_nobody_was_elected():
    state = destination(chief="blue", elected=False)
    assert (asked(state), set(waiting(state)), prompt_of(state).secret) == (("pick", "secret"), set(FOUR), True)


def test_destination_cannot_be_closed_or_hold_all_living_characters():
    state = destination()
    assert {a["go"] for a in options(state, "green")} == {1, 3, 4, 6}
    assert refused(state, {"seat": "green", "go": 2}) == "Green cannot choose 2 Cachou: it is closed"
    assert refused(state, {"seat": "green", "go": 5}) == (
        "Green cannot choose 5 Security HQ: all of Green's characters are already there")
    assert refused(state, {"seat": "green", "go": 7}) == "there is no location 7; locations are 1 to 6"


def test_destination_may_hold_some_of_his_characters():
    state = destination()
    assert {a["go"] for a in options(state, "red")} == {1, 3, 4, 5, 6}


def test_full_location_may_be_chosen():
    state = destination(characters={
        "red": {"pinup": 1, "tough": 1, "gunman": 6}, "blue": {"pinup": 1, "tough": 6, "gunman": 3},
        "yellow": {"pinup": 6, "tough": 3, "gunman": 3}, "green": {"pinup": 5, "tough": 5, "gunman": 5}})
    assert len(state.at(1)) == 3
    assert {"seat": "yellow", "go": 1} in options(state, "yellow")
    state = act(state, {"seat": "yellow", "go": 1})
    assert state.destinations == {"yellow": 1}


def test_eliminated_players_choose_any_open_location():
    state = destination(characters={
        "red": {"pinup": 1, "tough": 3, "gunman": 6}, "blue": {"pinup": 3, "tough": 6, "gunman": 1},
        "yellow": {"pinup": 6, "tough": 1, "gunman": 3}})
    assert "green" in waiting(state)
    assert {a["go"] for a in options(state, "green")} == {1, 3, 4, 5, 6}
    assert refused(state, {"seat": "green", "go": 2}) == "Green cannot choose 2 Cachou: it is closed"


def test_sprint_is_played_at_the_move_not_with_the_destination():
    state = destination(hands={"red": 1})
    assert refused(state, {"seat": "red", "play": "sprint", "go": 5}) == (
        "Red cannot play now: Red is asked to choose a destination")


# -- e) Reveal and move ---------------------------------------------------------------------------------------


BOARD = {  # Restroom 2, Megatoys 3, Security HQ 2, Supermarket 5: room everywhere
    "red": {"pinup": 1, "tough": 3, "gunman": 6},
    "blue": {"pinup": 3, "tough": 6, "gunman": 1},
    "yellow": {"pinup": 6, "tough": 5, "gunman": 3},
    "green": {"pinup": 5, "tough": 6, "gunman": 6},
}


def reveal(cup=NO_ZOMBIE_DICE, characters=BOARD, **position):
    """The destinations and dice revealed; the moves about to start."""
    position.setdefault("destinations", {"red": 5, "blue": 5, "yellow": 1, "green": 1})
    return game(phase="move", characters=characters, cup=cup, **position)


def test_dice_are_revealed_after_all_destinations():
    state = destination(characters=BOARD, cup=[1, 3, 6, 6])
    state = act(state, {"seat": "red", "go": 5}, {"seat": "blue", "go": 5}, {"seat": "yellow", "go": 1})
    assert set(zombies(state).values()) == {0}
    state = act(state, {"seat": "green", "go": 1})
    assert state.phase == "move"
    assert zombies(state) == {1: 1, 2: 0, 3: 1, 4: 0, 5: 0, 6: 2}


def test_one_zombie_per_die_at_reveal_not_four():
    state = reveal(cup=[1, 1, 3, 4])
    assert zombies(state) == {1: 2, 2: 0, 3: 1, 4: 1, 5: 0, 6: 0}


def test_reveal_ignores_dice_on_a_closed_location():
    state = reveal(cup=[2, 2, 5, 2])
    assert zombies(state) == {1: 0, 2: 0, 3: 0, 4: 0, 5: 1, 6: 0}


EMPTY_RESTROOM = {
    "red": {"pinup": 3, "tough": 3, "gunman": 6},
    "blue": {"pinup": 5, "tough": 6, "gunman": 6},
    "yellow": {"pinup": 6, "tough": 5, "gunman": 3},
    "green": {"pinup": 3, "tough": 6, "gunman": 5},
}


def test_empty_location_with_eight_zombies_falls():
    state = reveal(cup=[1, 2, 2, 2], characters=EMPTY_RESTROOM, zombies={"1": 7},
                   destinations={"red": 5, "blue": 3, "yellow": 3, "green": 6})
    assert 1 in state.closed
    assert zombies(state)[1] == 0  # its zombies leave the board
    assert mall.record(state)["closed"] == [1, 2]


def test_empty_location_with_seven_zombies_does_not_fall():
    state = reveal(cup=[3, 2, 2, 2], characters=EMPTY_RESTROOM, zombies={"1": 7},
                   destinations={"red": 5, "blue": 3, "yellow": 3, "green": 6})
    assert 1 not in state.closed
    assert zombies(state)[1] == 7


def test_location_with_a_character_does_not_fall():
    state = reveal(cup=[1, 1, 2, 2], zombies={"1": 8})
    assert 1 not in state.closed
    assert zombies(state)[1] == 10


def test_parking_never_falls():
    state = reveal(cup=[4, 4, 2, 2], zombies={"4": 7})
    assert state.phase == "move"
    assert 4 not in state.closed
    assert zombies(state)[4] == 9


def test_character_heading_for_a_location_that_just_fell_goes_to_parking():
    state = reveal(cup=[1, 2, 2, 2], characters=EMPTY_RESTROOM, zombies={"1": 7},
                   destinations={"red": 1, "blue": 3, "yellow": 3, "green": 6})
    state = act(state, {"seat": "red", "move": "gunman"})
    assert where(state, "red")["gunman"] == 4


def test_moves_go_clockwise_from_chief():
    state = reveal(chief="yellow", destinations={"red": 4, "blue": 4, "yellow": 4, "green": 4})
    movers = []
    while state.phase == "move":
        assert asked(state) == ("pick", "move")
        seat = waiting(state)[0]
        movers.append(seat)
        state = act(state, options(state, seat)[0])
    assert movers == ["yellow", "green", "red", "blue"]


def test_each_player_moves_one_character_not_already_in_his_destination():
    state = reveal(destinations={"red": 3, "blue": 5, "yellow": 1, "green": 1})
    assert options(state, "red") == [{"seat": "red", "move": "pinup"}, {"seat": "red", "move": "gunman"}]
    assert refused(state, {"seat": "red", "move": "tough"}) == (
        "Red's Tough Guy is already at 3 Megatoys, Red's destination")
    state = act(state, {"seat": "red", "move": "gunman"})
    assert where(state, "red") == {"pinup": 1, "tough": 3, "gunman": 3}
    assert waiting(state) == ("blue",)


def test_capacity_checked_at_move_time_full_goes_to_parking():
    # The Restroom holds 2; Red (the Chief) moves in first and fills it, Blue finds it full.
    state = reveal(destinations={"red": 1, "blue": 1, "yellow": 5, "green": 1})
    state = act(state, {"seat": "red", "move": "tough"}, {"seat": "blue", "move": "pinup"})
    assert where(state, "red")["tough"] == 1
    assert where(state, "blue")["pinup"] == 4
    assert len(state.at(1)) == 3


def test_place_freed_by_an_earlier_move_can_be_taken():
    characters = {
        "red": {"pinup": 1, "tough": 3, "gunman": 6},
        "blue": {"pinup": 3, "tough": 6, "gunman": 6},
        "yellow": {"pinup": 6, "tough": 1, "gunman": 3},
        "green": {"pinup": 5, "tough": 6, "gunman": 1},
    }
    state = reveal(characters=characters, destinations={"red": 6, "blue": 1, "yellow": 5, "green": 5})
    state = act(state, {"seat": "red", "move": "pinup"})  # leaves the full Restroom
    state = act(state, {"seat": "blue", "move": "gunman"})
    assert where(state, "blue")["gunman"] == 1


def test_character_already_in_parking_stays():
    characters = {  # the Restroom is full
        "red": {"pinup": 1, "tough": 3, "gunman": 6},
        "blue": {"pinup": 4, "tough": 6, "gunman": 3},
        "yellow": {"pinup": 6, "tough": 1, "gunman": 5},
        "green": {"pinup": 5, "tough": 1, "gunman": 6},
    }
    state = reveal(characters=characters, destinations={"red": 5, "blue": 1, "yellow": 5, "green": 5})
    state = act(state, {"seat": "red", "move": "gunman"}, {"seat": "blue", "move": "pinup"})
    assert where(state, "blue") == {"pinup": 4, "tough": 6, "gunman": 3}
    assert waiting(state) == ("yellow",)


def test_tough_guy_takes_one_place():
    characters = {
        "red": {"pinup": 3, "tough": 1, "gunman": 6},
        "blue": {"pinup": 1, "tough": 6, "gunman": 3},
        "yellow": {"pinup": 6, "tough": 5, "gunman": 3},
        "green": {"pinup": 5, "tough": 6, "gunman": 6},
    }
    # The Restroom (3 places) holds the Tough Guy and a Pin-up: one place is left, not none.
    state = reveal(characters=characters, destinations={"red": 5, "blue": 5, "yellow": 1, "green": 1})
    state = act(state, {"seat": "red", "move": "pinup"}, {"seat": "blue", "move": "gunman"})
    state = act(state, {"seat": "yellow", "move": "gunman"})
    assert where(state, "yellow")["gunman"] == 1
    state = act(state, {"seat": "green", "move": "gunman"})
    assert where(state, "green")["gunman"] == 4  # now it is full


def test_sprint_is_played_at_his_move_before_saying_which_character_moves():
    state = reveal(hands={"red": 1})
    assert {a["go"] for a in options(state, "red") if a.get("play") == "sprint"} == {1, 3, 4, 5, 6}
    state = act(state, {"seat": "red", "play": "sprint", "go": 4})
    assert (asked(state), waiting(state)) == (("pick", "sprint"), ("red",))
    assert {a["move"] for a in options(state, "red")} == {"pinup", "tough", "gunman"}
    assert (state.hands["red"], state.played["sprint"]) == (0, 1)
    state = act(state, {"seat": "red", "move": "gunman"})
    assert where(state, "red") == {"pinup": 1, "tough": 3, "gunman": 4}


def test_sprint_to_any_open_location_even_where_he_stands():
    state = reveal(hands={"red": 1}, destinations={"red": 1, "blue": 5, "yellow": 1, "green": 1})
    state = act(state, {"seat": "red", "play": "sprint", "go": 3}, {"seat": "red", "move": "tough"})
    assert where(state, "red") == {"pinup": 1, "tough": 3, "gunman": 6}  # nobody had to move
    assert waiting(state) == ("blue",)


def test_sprint_cannot_go_to_a_closed_location():
    state = reveal(hands={"red": 1})
    assert refused(state, {"seat": "red", "play": "sprint", "go": 2}) == "Red cannot sprint to 2 Cachou: it is closed"


def test_full_sprint_destination_sends_to_parking():
    characters = {
        "red": {"pinup": 6, "tough": 3, "gunman": 6},
        "blue": {"pinup": 1, "tough": 1, "gunman": 3},
        "yellow": {"pinup": 6, "tough": 1, "gunman": 3},
        "green": {"pinup": 5, "tough": 6, "gunman": 6},
    }
    state = reveal(characters=characters, hands={"red": 1})
    state = act(state, {"seat": "red", "play": "sprint", "go": 1}, {"seat": "red", "move": "pinup"})
    assert where(state, "red")["pinup"] == 4


def test_forced_choice_taken_automatically():
    # Only Red's Pin-up is away from the Restroom and Red has no card: the companion moves it for him.
    characters = {
        "red": {"pinup": 6, "tough": 1, "gunman": 1},
        "blue": {"pinup": 3, "tough": 6, "gunman": 5},
        "yellow": {"pinup": 6, "tough": 5, "gunman": 3},
        "green": {"pinup": 5, "tough": 6, "gunman": 6},
    }
    forced = reveal(characters=characters, destinations={"red": 1, "blue": 1, "yellow": 1, "green": 1})
    assert where(forced, "red")["pinup"] == 1
    assert waiting(forced) == ("blue",)
    # With a card in hand he might Sprint instead: then he is asked.
    asked = reveal(characters=characters, hands={"red": 1},
                   destinations={"red": 1, "blue": 1, "yellow": 1, "green": 1})
    assert waiting(asked) == ("red",)
    assert where(asked, "red")["pinup"] == 6


def test_eliminated_players_do_not_move():
    characters = {k: v for k, v in BOARD.items() if k != "blue"}
    state = reveal(characters=characters, destinations={"red": 5, "blue": 1, "yellow": 1, "green": 1})
    movers = []
    while state.phase == "move":
        movers.append(waiting(state)[0])
        state = act(state, options(state, waiting(state)[0])[0])
    assert movers == ["red", "yellow", "green"]


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"seat": "blue", "move": "pinup"}, "Blue cannot act now: the table waits for Red (move a character)"),
        ({"seat": "purple", "move": "pinup"}, "'purple' is not playing; the players are Red, Blue, Yellow and Green"),
        ({"seat": "red", "vote": "red"}, "Red cannot vote now: Red is asked to move a character"),
        ({"seat": "red", "move": "girl"}, "Red has no Little Girl alive"),
        ({"seat": "red", "move": 3}, 'field "move" must be a text, not the number 3'),
        ({"seat": "red", "fly": "pinup"}, "unknown field 'fly' in action"),
        ({"seat": "red"}, "an action must say what it does"),
        ({"move": "pinup"}, "an action must name its seat"),
        ({"seat": "red", "move": "pinup", "go": 3}, "an action does one thing"),
        ("red moves pinup", "an action must be an object"),
        ({"close": True}, "there is no vote to close"),
    ],
)
def test_impossible_actions_are_rejected_with_a_clear_message(action, message):
    state = reveal()
    assert message in refused(state, action)
    assert waiting(state) == ("red",)


def test_no_action_is_taken_once_the_game_is_over():
    # Everyone's characters run into the Supermarket: rescue comes at once.
    characters = {"red": {"pinup": 6, "tough": 4}, "blue": {"pinup": 6}, "yellow": {"pinup": 6},
                  "green": {"pinup": 6}}
    state = reveal(characters=characters, destinations={"red": 6, "blue": 1, "yellow": 1, "green": 1})
    assert state.over
    assert refused(state, {"seat": "blue", "move": "pinup"}) == "the game is over"
