"""Mall of Horror rules, from "f) Zombie attack" to the end: attack, Parking, zombie players, voting, card
limits, the end and the score, and the table options both ways. One test per rule or ruling, named after it.

Unless a test says otherwise the game has four players (red, blue, yellow, green; Cachou closed), Red is
Chief, nobody holds a card, and Yellow and Green wait with all six of their characters in the Supermarket:
that crowd (most characters, two Pin-ups) draws both attraction zombies, which never breach it.
"""

from __future__ import annotations

import pytest
from mall import FOUR, act, asked, game, options, passes, pick, vote, waiting, where, zombies

from companion.contract import IllegalAction, msg
from companion.games import mall_of_horror as mall
from companion.games.mall_of_horror.state import State

CROWD = {"yellow": {"pinup": 6, "tough": 6, "gunman": 6}, "green": {"pinup": 6, "tough": 6, "gunman": 6}}
FIVE = ("red", "blue", "yellow", "green", "purple")
SIX = ("red", "blue", "yellow", "green", "purple", "black")


def attack(characters: dict, zombies_at: dict | None = None, *, crowd: bool = True, players=FOUR,
           hands: dict | None = None, played: dict | None = None, destinations: dict | None = None,
           options: dict | None = None, **position) -> State:
    """The game at the start of the zombie attack (phase f), after every player chose `destinations`."""
    hands = hands or {}
    played = played or {}
    position.setdefault("deck", 21 - sum(hands.values()) - sum(played.values()))
    return game(
        players, options,
        phase="attack",
        characters={**(CROWD if crowd else {}), **characters},
        zombies={str(loc): n for loc, n in (zombies_at or {}).items()},
        hands=hands,
        played=played,
        destinations={**dict.fromkeys(players, 3), **(destinations or {})},
        **position,
    )


def record(state: State) -> dict:
    return mall.record(state)


def alive(state: State, colour: str, character: str) -> bool:
    return character in where(state, colour)


def play(state: State, seat: str, card: str, **args) -> State:
    return act(state, {"seat": seat, "play": card, **args})


def rejected(state: State, action: dict) -> str:
    with pytest.raises(IllegalAction) as refused:
        mall.decide(state, action)
    return str(refused.value)


# ---------------------------------------------------------------------------------------------------------------
# f) 1. Attraction
# ---------------------------------------------------------------------------------------------------------------


def test_attraction_most_characters_gets_one_zombie():
    # Megatoys holds 4 characters, no other location more than 3; one Pin-up in each of four places (a tie).
    state = attack({
        "red": {"pinup": 1, "tough": 3, "gunman": 3},
        "blue": {"pinup": 5, "tough": 3, "gunman": 5},
        "yellow": {"pinup": 6, "tough": 3, "gunman": 6},
        "green": {"pinup": 4, "tough": 1, "gunman": 6},
    }, crowd=False)
    assert zombies(state) == {1: 0, 2: 0, 3: 1, 4: 0, 5: 0, 6: 0}


def test_attraction_tie_gives_nothing():
    # Megatoys and the Supermarket both hold 3 characters; the Pin-ups are spread one to a place.
    state = attack({
        "red": {"pinup": 1, "tough": 3, "gunman": 3},
        "blue": {"pinup": 5, "tough": 3, "gunman": 6},
        "yellow": {"pinup": 6, "tough": 1, "gunman": 6},
        "green": {"pinup": 4, "tough": 5, "gunman": 5},
    }, crowd=False)
    assert zombies(state) == {1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0}


def test_attraction_most_pinups_gets_one_zombie():
    # Two Pin-ups in the Restroom; Megatoys has the most characters (4).
    state = attack({
        "red": {"pinup": 1, "tough": 3, "gunman": 3},
        "blue": {"pinup": 1, "tough": 3, "gunman": 5},
        "yellow": {"pinup": 6, "tough": 3, "gunman": 6},
        "green": {"pinup": 5, "tough": 5, "gunman": 6},
    }, crowd=False)
    assert zombies(state) == {1: 1, 2: 0, 3: 1, 4: 0, 5: 0, 6: 0}


def test_attraction_pinup_tie_gives_nothing():
    # Two Pin-ups in the Restroom and two in the Security HQ; Megatoys has the most characters.
    state = attack({
        "red": {"pinup": 1, "tough": 3, "gunman": 3},
        "blue": {"pinup": 1, "tough": 3, "gunman": 6},
        "yellow": {"pinup": 5, "tough": 3, "gunman": 6},
        "green": {"pinup": 5, "tough": 6, "gunman": 4},
    }, crowd=False)
    assert zombies(state) == {1: 0, 2: 0, 3: 1, 4: 0, 5: 0, 6: 0}


def test_both_attractions_may_hit_the_same_location():
    state = attack({"red": {"pinup": 1, "tough": 3, "gunman": 3}, "blue": {"pinup": 5, "tough": 3, "gunman": 5}})
    assert zombies(state) == {1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 2}


def test_parking_counts_for_attraction():
    # The Parking holds the most characters (4) and the most Pin-ups (2): two zombies, and a victim vote.
    state = attack({
        "red": {"pinup": 4, "tough": 4, "gunman": 3},
        "blue": {"pinup": 4, "tough": 4, "gunman": 5},
        "yellow": {"pinup": 6, "tough": 6, "gunman": 6},
        "green": {"pinup": 3, "tough": 3, "gunman": 5},
    }, crowd=False)
    assert zombies(state)[4] == 2
    assert (asked(state), waiting(state)) == (("ballot", "vote"), ("red", "blue"))


# ---------------------------------------------------------------------------------------------------------------
# f) 2. Resolving the locations: defence, breach, the card window, the victim
# ---------------------------------------------------------------------------------------------------------------


def test_locations_resolve_in_order_one_to_six_parking_in_its_turn():
    # Blue is chosen in the Security HQ, the Parking and Megatoys; the order of his losses is the order played.
    state = attack({"red": {"pinup": 5, "tough": 4, "gunman": 3}, "blue": {"pinup": 3, "tough": 4, "gunman": 5}},
                   {3: 2, 4: 1, 5: 2})
    lost = []
    while asked(state) == ("ballot", "vote"):
        before = set(where(state, "blue"))
        state = vote(state, red="blue", blue="blue")
        lost += sorted(before - set(where(state, "blue")))
    assert lost == ["pinup", "tough", "gunman"]  # Megatoys (3), Parking (4), Security HQ (5)


def test_defence_is_characters_present():
    # Two characters in the Restroom hold one zombie: no breach, no card window, nobody dies.
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}},
                   {1: 1}, hands={"red": 1, "blue": 1})
    assert record(state)["round"] == 2
    assert alive(state, "red", "pinup") and alive(state, "blue", "gunman")
    assert zombies(state)[1] == 1


def test_breach_when_zombies_equal_defence():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}}, {1: 2})
    assert (asked(state), waiting(state)) == (("ballot", "vote"), ("red", "blue"))


@pytest.mark.parametrize(("outside", "breach"), [(3, False), (4, True)])
def test_tough_guy_counts_two_for_defence(outside, breach):
    # The rulebook: 2 Pin-ups and 1 Tough Guy hold 3 zombies, not 4 (here in Megatoys).
    state = attack({"red": {"pinup": 3, "tough": 3, "gunman": 1}, "blue": {"pinup": 3, "tough": 1, "gunman": 5}},
                   {3: outside})
    assert (asked(state) == ("ballot", "vote")) is breach
    assert (record(state)["round"] == 2) is not breach


@pytest.mark.parametrize(("outside", "breach"), [(3, False), (4, True)])
def test_supermarket_breached_by_four_zombies_whatever_the_defence(outside, breach):
    # Red's Tough Guy and Gunman and Blue's Tough Guy: defence 5. Four zombies break in all the same.
    state = attack({
        "red": {"pinup": 1, "tough": 6, "gunman": 6},
        "blue": {"pinup": 5, "tough": 6, "gunman": 3},
        "yellow": {"pinup": 3, "tough": 3, "gunman": 3},
        "green": {"pinup": 4, "tough": 5, "gunman": 5},
    }, {6: outside}, crowd=False)
    assert zombies(state)[6] == outside  # Megatoys draws the crowd zombie; the Pin-ups tie
    assert (asked(state) == ("ballot", "vote")) is breach
    assert (waiting(state) == ("red", "blue")) is breach


def test_weapon_can_bring_the_supermarket_below_four():
    # Defence 5 in the Supermarket: 4 zombies breach it, 3 do not. Red's Gun kills one.
    state = attack({
        "red": {"pinup": 1, "tough": 6, "gunman": 6},
        "blue": {"pinup": 5, "tough": 6, "gunman": 3},
        "yellow": {"pinup": 3, "tough": 3, "gunman": 3},
        "green": {"pinup": 4, "tough": 5, "gunman": 5},
    }, {6: 4}, crowd=False, hands={"red": 1})
    state = play(state, "red", "weapon", kills=1)
    assert record(state)["round"] == 2
    assert zombies(state)[6] == 3 and len(where(state, "red")) == 3


def test_hardware_adds_one_defence():
    # The rulebook: 3 Pin-ups with 1 Hardware hold 3 zombies. Here the Pin-ups draw the third zombie.
    state = attack({
        "red": {"pinup": 3, "tough": 1, "gunman": 1},
        "blue": {"pinup": 3, "tough": 5, "gunman": 5},
        "yellow": {"pinup": 3, "tough": 6, "gunman": 6},
        "green": {"pinup": 6, "tough": 6, "gunman": 4},
    }, {3: 2}, crowd=False, hands={"red": 1})
    assert zombies(state)[3] == 3
    assert (asked(state), waiting(state)) == (("cards", "window"), ("red",))  # 3 zombies against 3 Pin-ups: a breach
    state = play(state, "red", "hardware")
    assert record(state)["round"] == 2  # held: nobody died, the zombies stay
    assert zombies(state)[3] == 3
    assert all(alive(state, p, "pinup") for p in ("red", "blue", "yellow"))


def supermarket_of_three(outside: int, hands: dict) -> State:
    """Red's Pin-up and Gunman and Blue's Gunman in the Supermarket (defence 3); Megatoys draws the crowd."""
    return attack({
        "red": {"pinup": 6, "tough": 3, "gunman": 6},
        "blue": {"pinup": 5, "tough": 3, "gunman": 6},
        "yellow": {"pinup": 3, "tough": 3, "gunman": 5},
        "green": {"pinup": 1, "tough": 5, "gunman": 1},
    }, {6: outside}, crowd=False, hands=hands)


def test_hardware_helps_in_the_supermarket_below_four():
    state = supermarket_of_three(3, {"red": 1})
    assert asked(state) == ("cards", "window")  # 3 zombies against 3 characters
    state = play(state, "red", "hardware")
    assert record(state)["round"] == 2
    assert zombies(state)[6] == 3 and len(where(state, "red")) == 3


def test_hardware_does_not_help_against_supermarkets_four():
    state = supermarket_of_three(4, {"red": 2})
    state = play(state, "red", "hardware")
    state = play(state, "red", "hardware")  # defence 5 against 4: still breached
    assert (asked(state), waiting(state)) == (("ballot", "vote"), ("red", "blue"))


def test_hardware_not_allowed_in_parking():
    state = attack({"red": {"pinup": 4, "tough": 3, "gunman": 3}, "blue": {"gunman": 4, "pinup": 5, "tough": 5}},
                   {4: 1}, hands={"red": 1})
    assert (asked(state), waiting(state)) == (("cards", "window"), ("red",))
    assert {"seat": "red", "play": "hardware"} not in options(state, "red")
    assert rejected(state, {"seat": "red", "play": "hardware"}) == "Hardware cannot be played at 4 Parking"


@pytest.mark.parametrize("kills", [1, 2])
def test_weapon_removes_one_or_two_zombies(kills):
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}},
                   {1: 6}, hands={"red": 1})
    state = play(state, "red", "weapon", kills=kills)
    assert zombies(state)[1] == 6 - kills


def test_weapon_can_end_the_breach_and_the_rest_stay():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}},
                   {1: 3}, hands={"blue": 1})
    state = play(state, "blue", "weapon", kills=2)
    assert record(state)["round"] == 2
    assert zombies(state)[1] == 1
    assert alive(state, "red", "pinup") and alive(state, "blue", "gunman")


def test_weapon_never_leaves_fewer_than_no_zombies():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 5, "pinup": 3, "tough": 3}},
                   {1: 1}, hands={"red": 1})
    state = play(state, "red", "weapon", kills=2)
    assert zombies(state)[1] == 0 and alive(state, "red", "pinup")


def test_card_window_opens_only_where_there_is_a_breach():
    # Red and Blue hold cards in the Restroom, which holds its one zombie: nobody is asked for a card.
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}},
                   {1: 1}, hands={"red": 2, "blue": 2})
    assert record(state)["round"] == 2
    assert record(state)["hands"] == {"red": 2, "blue": 2, "yellow": 0, "green": 0}


def test_card_window_asks_clockwise_from_chief_only_players_present_with_cards():
    # Yellow is Chief: clockwise Yellow, Green, Red, Blue. Green (no card) and Blue (not there) are not asked.
    state = attack({
        "red": {"pinup": 3, "tough": 6, "gunman": 6},
        "blue": {"pinup": 6, "tough": 6, "gunman": 6},
        "yellow": {"pinup": 5, "tough": 3, "gunman": 5},
        "green": {"pinup": 1, "tough": 3, "gunman": 1},
    }, {3: 5}, crowd=False, chief="yellow", hands={"red": 1, "blue": 1, "yellow": 1})
    in_turn = []
    while asked(state) == ("cards", "window"):
        in_turn += waiting(state)
        state = act(state, {"seat": waiting(state)[0], "pass": True})
    assert in_turn == ["yellow", "red"]
    assert asked(state) == ("ballot", "vote")


def test_card_window_any_number_of_cards_in_one_pass():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}},
                   {1: 6}, hands={"red": 3, "blue": 1})
    state = play(state, "red", "threat")
    state = play(state, "red", "weapon", kills=1)
    assert waiting(state) == ("red",)  # still Red's turn until he passes
    state = act(state, {"seat": "red", "pass": True})
    assert waiting(state) == ("blue",)
    state = act(state, {"seat": "blue", "pass": True})
    assert asked(state) == ("ballot", "vote")  # one pass round: Red, who still holds a card, is not asked again
    assert record(state)["hands"]["red"] == 1


def test_player_whose_hand_empties_passes_automatically():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}},
                   {1: 6}, hands={"red": 1, "blue": 1})
    state = play(state, "red", "weapon", kills=1)
    assert (asked(state), waiting(state)) == (("cards", "window"), ("blue",))


def test_camera_and_sprint_cannot_be_played_in_an_attack():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}},
                   {1: 6}, hands={"red": 1})
    rejected(state, {"seat": "red", "play": "camera"})
    rejected(state, {"seat": "red", "play": "sprint", "go": 5})
    assert record(state)["hands"]["red"] == 1


def test_hidden_character_cannot_vote_or_be_chosen():
    # Supermarket: Red's Tough Guy and Gunman (3 votes), Blue's three characters (4 votes). Blue hides his
    # Gunman: Blue has 2 votes left, loses the vote, and cannot give up the hidden Gunman.
    state = attack({
        "red": {"pinup": 1, "tough": 6, "gunman": 6},
        "blue": {"pinup": 6, "tough": 6, "gunman": 6},
        "yellow": {"pinup": 3, "tough": 3, "gunman": 3},
        "green": {"pinup": 5, "tough": 5, "gunman": 1},
    }, {6: 3}, crowd=False, hands={"blue": 1})
    assert zombies(state)[6] == 4
    state = play(state, "blue", "hidden", character="gunman")
    state = vote(state, red="blue", blue="red")
    assert (asked(state), waiting(state)) == (("pick", "victim"), ("blue",))
    assert options(state, "blue") == [{"seat": "blue", "victim": "pinup"}, {"seat": "blue", "victim": "tough"}]
    assert "Gunman" in rejected(state, {"seat": "blue", "victim": "gunman"})


def test_player_with_every_character_there_hidden_is_no_candidate():
    # Megatoys: Red's Gunman, Blue's Gunman and Tough Guy. Blue hides both: Red is the only one left to choose.
    state = attack({"red": {"pinup": 1, "tough": 5, "gunman": 3}, "blue": {"gunman": 3, "tough": 3, "pinup": 5}},
                   {3: 5}, hands={"blue": 2})
    state = play(state, "blue", "hidden", character="gunman")
    state = play(state, "blue", "hidden", character="tough")
    assert not alive(state, "red", "gunman")  # a single candidate with a single character there: no question
    assert alive(state, "blue", "gunman") and alive(state, "blue", "tough")


def test_hidden_character_counts_for_defence():
    # As in the rulebook's example: Megatoys holds 4 characters and a Tough Guy, defence 5. Red hides his Pin-up,
    # Blue's Grenades leave 4 zombies: no breach, which there would be if the hidden Pin-up did not count.
    state = attack({"red": {"pinup": 3, "gunman": 3, "tough": 1}, "blue": {"gunman": 3, "tough": 3, "pinup": 5}},
                   {3: 6}, hands={"red": 1, "blue": 1})
    state = play(state, "red", "hidden", character="pinup")
    state = play(state, "blue", "weapon", kills=2)
    assert zombies(state)[3] == 4
    assert record(state)["round"] == 2
    assert len(where(state, "red")) == 3 and len(where(state, "blue")) == 3


def test_hidden_lasts_for_the_rest_of_the_round():
    # Two zombies in the Parking: Red's Pin-up, hidden before the first vote, is still hidden at the second.
    state = attack({"red": {"pinup": 4, "tough": 4, "gunman": 3}, "blue": {"pinup": 5, "tough": 4, "gunman": 4}},
                   {4: 2}, hands={"red": 1, "blue": 1})
    state = play(state, "red", "hidden", character="pinup")
    state = act(state, {"seat": "blue", "pass": True})
    state = vote(state, red="blue", blue="red")  # Blue's 3 votes against Red's 1: Red loses his Tough Guy
    assert not alive(state, "red", "tough")
    state = act(state, {"seat": "blue", "pass": True})  # the window before the second vote
    # Red's hidden Pin-up is no candidate: Blue, alone, chooses which of his characters dies.
    assert (asked(state), waiting(state)) == (("pick", "victim"), ("blue",))
    state = act(state, {"seat": "blue", "victim": "gunman"})
    assert alive(state, "red", "pinup")
    assert record(state)["round"] == 2 and "hidden" not in record(state)  # the next round: nobody hidden


def test_threat_adds_one_vote_for_this_vote_only():
    # The Parking holds the most characters and draws a zombie (2 in all). Red, Blue and Yellow weigh 2 each.
    state = attack({
        "red": {"pinup": 4, "tough": 4, "gunman": 1},
        "blue": {"pinup": 1, "tough": 3, "gunman": 4},
        "yellow": {"pinup": 5, "tough": 6, "gunman": 4},
        "green": {"pinup": 6, "tough": 6, "gunman": 3},
    }, {4: 1}, crowd=False, hands={"red": 1})
    assert zombies(state)[4] == 2
    state = play(state, "red", "threat")
    state = vote(state, red="blue", blue="red", yellow="yellow")  # Blue 3 (the Threat), Red 2, Yellow 2
    assert not alive(state, "blue", "gunman")
    state = vote(state, red="yellow", yellow="red")  # 2 to 2 now: the Threat is spent
    assert asked(state) == ("ballot", "vote")
    assert set(waiting(state)) == {"red", "yellow", "blue", "green"}  # the re-vote
    assert alive(state, "red", "pinup") and alive(state, "yellow", "gunman")


def test_several_threats_add_up():
    # Megatoys: Red's Gunman (2) with two Threats against Blue's Gunman and Tough Guy (3): 4 to 3.
    state = attack({"red": {"pinup": 1, "tough": 5, "gunman": 3}, "blue": {"pinup": 5, "tough": 3, "gunman": 3}},
                   {3: 5}, hands={"red": 2})
    state = play(state, "red", "threat")
    state = play(state, "red", "threat")
    state = vote(state, red="blue", blue="red")
    assert (asked(state), waiting(state)) == (("pick", "victim"), ("blue",))


def test_wasted_card_still_leaves_the_game():
    # The rulebook's example: Red hides a character; then Blue's Grenades leave fewer zombies than the defence.
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}},
                   {1: 3}, hands={"red": 1, "blue": 1})
    state = play(state, "red", "hidden", character="pinup")
    state = play(state, "blue", "weapon", kills=2)
    after = record(state)
    assert after["round"] == 2  # no breach: the Hidden card was of no use
    assert after["hands"]["red"] == 0 and after["hands"]["blue"] == 0
    assert after["played"]["hidden"] == 1 and after["played"]["weapon2"] == 1
    assert after["deck"] == 19  # neither card went back to the truck


def test_fourth_threat_rejected():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}},
                   {1: 6}, hands={"red": 1}, played={"threat": 3})
    assert {"seat": "red", "play": "threat"} not in options(state, "red")
    assert "3 Threat" in rejected(state, {"seat": "red", "play": "threat"})
    assert record(state)["hands"]["red"] == 1


def test_fourth_two_zombie_weapon_rejected():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}},
                   {1: 6}, hands={"red": 1}, played={"weapon2": 3})
    assert "already been played" in rejected(state, {"seat": "red", "play": "weapon", "kills": 2})
    state = play(state, "red", "weapon", kills=1)  # a one-zombie weapon is still in the game
    assert zombies(state)[1] == 5


def test_no_card_left_rejected():
    # Blue stands in the breached Restroom with no card: he is not asked, and a card from him is refused.
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}},
                   {1: 6}, hands={"red": 1})
    assert waiting(state) == ("red",)
    assert "Blue cannot act now" in rejected(state, {"seat": "blue", "play": "weapon", "kills": 2})
    state = play(state, "red", "weapon", kills=2)
    rejected(state, {"seat": "red", "play": "threat"})
    assert record(state)["hands"] == {"red": 0, "blue": 0, "yellow": 0, "green": 0}
    assert zombies(state)[1] == 4


def test_victim_owner_chooses_which_character_dies():
    state = attack({"red": {"pinup": 3, "gunman": 1}, "blue": {"gunman": 3, "pinup": 1, "tough": 3}}, {3: 4})
    state = vote(state, red="blue", blue="blue")
    assert (asked(state), waiting(state)) == (("pick", "victim"), ("blue",))
    assert options(state, "blue") == [{"seat": "blue", "victim": "tough"}, {"seat": "blue", "victim": "gunman"}]
    rejected(state, {"seat": "red", "victim": "pinup"})  # only the chosen colour's owner answers
    state = act(state, {"seat": "blue", "victim": "tough"})
    assert not alive(state, "blue", "tough")
    assert alive(state, "blue", "gunman") and alive(state, "red", "pinup")


def test_all_zombies_leave_after_the_feast():
    state = attack({"red": {"pinup": 3, "gunman": 1}, "blue": {"gunman": 3, "pinup": 1, "tough": 3}}, {3: 7})
    state = vote(state, red="blue", blue="blue")
    state = act(state, {"seat": "blue", "victim": "tough"})
    assert zombies(state)[3] == 0


def test_every_character_hidden_nobody_dies_and_zombies_stay():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}},
                   {1: 5}, hands={"red": 1, "blue": 1})
    state = play(state, "red", "hidden", character="pinup")
    state = play(state, "blue", "hidden", character="gunman")
    assert record(state)["round"] == 2
    assert alive(state, "red", "pinup") and alive(state, "blue", "gunman")
    assert zombies(state)[1] == 5


def test_no_breach_zombies_stay():
    state = attack({"red": {"pinup": 3, "gunman": 1}, "blue": {"gunman": 3, "pinup": 1, "tough": 3}}, {3: 3})
    assert record(state)["round"] == 2
    assert zombies(state)[3] == 3


def test_nobody_there_zombies_stay():
    # Nobody in the Security HQ: its 9 zombies neither attack nor leave (a location falls only at the reveal).
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}}, {5: 9})
    assert record(state)["round"] == 2
    assert zombies(state)[5] == 9 and 5 not in record(state)["closed"]


# ---------------------------------------------------------------------------------------------------------------
# f) 3. The Parking
# ---------------------------------------------------------------------------------------------------------------


def test_parking_each_zombie_kills_one_vote_per_zombie():
    # Two zombies against four characters with two Tough Guys: two votes, two victims.
    state = attack({"red": {"pinup": 4, "tough": 4, "gunman": 3}, "blue": {"gunman": 4, "tough": 4, "pinup": 5}},
                   {4: 2})
    state = vote(state, red="blue", blue="blue")
    assert (asked(state), waiting(state)) == (("pick", "victim"), ("blue",))
    state = act(state, {"seat": "blue", "victim": "gunman"})
    assert zombies(state)[4] == 1
    assert asked(state) == ("ballot", "vote")  # the second vote, after the first victim is gone
    state = vote(state, red="red", blue="red")
    state = act(state, {"seat": "red", "victim": "pinup"})
    assert where(state, "red") == {"tough": 4, "gunman": 3}
    assert where(state, "blue") == {"pinup": 5, "tough": 4}


def test_parking_ignores_tough_guys_and_numbers():
    # One zombie against three characters and a Tough Guy: in a shop that would hold; here it eats.
    state = attack({"red": {"pinup": 4, "tough": 4, "gunman": 3}, "blue": {"gunman": 4, "tough": 1, "pinup": 5}},
                   {4: 1})
    assert (asked(state), waiting(state)) == (("ballot", "vote"), ("red", "blue"))


def test_parking_card_window_before_each_vote():
    state = attack({"red": {"pinup": 4, "tough": 4, "gunman": 3}, "blue": {"gunman": 4, "tough": 4, "pinup": 5}},
                   {4: 2}, hands={"red": 2, "blue": 1})
    assert (asked(state), waiting(state)) == (("cards", "window"), ("red",))
    state = passes(state)
    state = vote(state, red="blue", blue="blue")
    state = act(state, {"seat": "blue", "victim": "gunman"})
    assert (asked(state), waiting(state)) == (("cards", "window"), ("red",))  # a new window before the second vote
    state = act(state, {"seat": "red", "pass": True})
    assert (asked(state), waiting(state)) == (("cards", "window"), ("blue",))


def test_parking_window_asks_only_players_still_there():
    # Blue loses his only character in the Parking to the first zombie: his card is no use there any more.
    state = attack({"red": {"pinup": 4, "tough": 4, "gunman": 3}, "blue": {"gunman": 4, "tough": 1, "pinup": 5}},
                   {4: 2}, hands={"red": 1, "blue": 1})
    state = passes(state)
    state = vote(state, red="blue", blue="blue")
    assert not alive(state, "blue", "gunman")
    assert (asked(state), waiting(state)) == (("cards", "window"), ("red",))
    state = act(state, {"seat": "red", "pass": True})
    assert (asked(state), waiting(state)) == (("pick", "victim"), ("red",))  # Red alone: no vote, Red chooses


def test_parking_weapons_reduce_the_count():
    state = attack({"red": {"pinup": 4, "tough": 4, "gunman": 3}, "blue": {"gunman": 4, "tough": 4, "pinup": 5}},
                   {4: 2}, hands={"red": 1})
    state = play(state, "red", "weapon", kills=1)
    state = vote(state, red="blue", blue="blue")
    state = act(state, {"seat": "blue", "victim": "gunman"})
    assert record(state)["round"] == 2  # one zombie left, one victim, no second vote
    assert len(where(state, "red")) + len(where(state, "blue")) == 5


def test_parking_zombies_leave_even_if_they_ate_nobody():
    # Red hides his only character in the Parking: three zombies eat nobody, and leave all the same.
    state = attack({"red": {"pinup": 4, "tough": 3, "gunman": 3}, "blue": {"gunman": 1, "tough": 1, "pinup": 5}},
                   {4: 3}, hands={"red": 1})
    state = play(state, "red", "hidden", character="pinup")
    assert record(state)["round"] == 2
    assert alive(state, "red", "pinup")
    assert zombies(state)[4] == 0


def test_parking_zombies_leave_when_nobody_is_there():
    # Ruling: the Parking's own rule holds when it is empty too; its zombies do not pile up.
    state = attack({"red": {"pinup": 1, "tough": 3, "gunman": 3}, "blue": {"gunman": 1, "tough": 5, "pinup": 5}},
                   {4: 3})
    assert record(state)["round"] == 2
    assert zombies(state)[4] == 0


def test_parking_stops_when_no_visible_character_remains():
    # Three zombies, two characters in the Parking: both die, the third zombie leaves with the others.
    state = attack({"red": {"pinup": 4, "tough": 3, "gunman": 3}, "blue": {"gunman": 4, "tough": 1, "pinup": 5}},
                   {4: 3})
    state = vote(state, red="blue", blue="blue")
    assert not alive(state, "blue", "gunman")
    assert not alive(state, "red", "pinup")  # the second zombie: one candidate, one character, no question
    assert record(state)["round"] == 2
    assert zombies(state)[4] == 0


# ---------------------------------------------------------------------------------------------------------------
# f) 4. and Zombie players
# ---------------------------------------------------------------------------------------------------------------


def test_zombie_player_places_a_zombie_where_he_chose():
    # Blue is out; in phase d he chose the Restroom.
    state = attack({"red": {"pinup": 1, "tough": 3, "gunman": 3}, "yellow": {"pinup": 5, "tough": 6, "gunman": 6},
                    "green": {"pinup": 6, "tough": 6, "gunman": 6}}, crowd=False, destinations={"blue": 1})
    assert record(state)["round"] == 2
    assert zombies(state)[1] == 1


def test_player_eliminated_this_round_places_no_zombie_this_round():
    # Blue's last character dies in the Restroom; Blue had chosen Megatoys in phase d.
    state = attack({"red": {"pinup": 5, "tough": 5, "gunman": 3}, "blue": {"gunman": 1}},
                   {1: 1}, destinations={"blue": 3})
    assert not state.alive("blue")
    assert record(state)["round"] == 2
    assert zombies(state)[3] == 0


def test_zombie_player_chooses_any_open_location_in_secret_with_the_others():
    state = game(phase="destination", characters={"red": {"pinup": 1, "tough": 3, "gunman": 3}, **CROWD},
                 cup=[1, 1, 3, 5])
    prompt = mall.prompt(state)
    assert (prompt.kind, prompt.step) == ("pick", "secret") and prompt.secret
    assert set(prompt.seats) == set(FOUR)
    assert mall.question(state, "blue").title == msg("mall.q.zombie_destination", colour="blue")  # he is told
    assert options(state, "blue") == [{"seat": "blue", "go": loc} for loc in (1, 3, 4, 5, 6)]


def test_zombie_player_chooses_in_phase_d_and_his_zombie_arrives_at_round_end():
    # A whole round: Blue, out, chooses the Restroom with the others; his zombie arrives after the attack.
    state = game(phase="destination", characters={"red": {"pinup": 1, "tough": 3, "gunman": 3}, **CROWD},
                 cup=[5, 5, 5, 5])
    state = act(state, {"seat": "red", "go": 1}, {"seat": "blue", "go": 1}, {"seat": "yellow", "go": 3},
                {"seat": "green", "go": 3})
    assert zombies(state)[1] == 0
    state = act(state, {"seat": "red", "move": "tough"}, {"seat": "yellow", "move": "tough"},
                {"seat": "green", "move": "tough"})
    assert record(state)["round"] == 2
    assert zombies(state)[1] == 1


# ---------------------------------------------------------------------------------------------------------------
# Voting
# ---------------------------------------------------------------------------------------------------------------


def test_only_players_with_a_visible_character_there_vote():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}}, {1: 2})
    assert set(waiting(state)) == {"red", "blue"}
    assert "Yellow cannot act now" in rejected(state, {"seat": "yellow", "vote": "red"})


def test_vote_weight_is_one_per_character_there():
    # Megatoys: Red's Pin-up and Tough Guy (2 votes) against Blue's Tough Guy (1 vote).
    state = attack({"red": {"pinup": 3, "tough": 3, "gunman": 1}, "blue": {"tough": 3, "pinup": 1, "gunman": 5}},
                   {3: 5})
    state = vote(state, red="blue", blue="red")
    assert not alive(state, "blue", "tough")


def test_gunman_has_two_votes():
    # Megatoys: Red's Gunman (2 votes) against Blue's Tough Guy (1 vote).
    state = attack({"red": {"pinup": 1, "tough": 1, "gunman": 3}, "blue": {"gunman": 1, "tough": 3, "pinup": 5}},
                   {3: 3})
    state = vote(state, red="blue", blue="red")
    assert not alive(state, "blue", "tough") and alive(state, "red", "gunman")


def test_hidden_gunman_gives_no_vote():
    # Megatoys: Red's Tough Guy and Gunman (3 votes) against Blue's Tough Guy and Pin-up (2). Red hides the
    # Gunman: 1 vote against 2.
    state = attack({"red": {"pinup": 1, "tough": 3, "gunman": 3}, "blue": {"gunman": 5, "tough": 3, "pinup": 3}},
                   {3: 6}, hands={"red": 1})
    state = play(state, "red", "hidden", character="gunman")
    state = vote(state, red="blue", blue="red")
    assert not alive(state, "red", "tough")


def test_voter_may_vote_for_himself():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}}, {1: 2})
    state = vote(state, red="red", blue="red")
    assert not alive(state, "red", "pinup")


def test_ballots_are_secret_and_revealed_at_once():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}}, {1: 2})
    assert mall.prompt(state).secret
    state = vote(state, red="blue")
    assert (asked(state), waiting(state)) == (("ballot", "vote"), ("blue",))  # nothing decided before the last ballot
    assert alive(state, "blue", "gunman")
    state = vote(state, blue="blue")
    assert not alive(state, "blue", "gunman")


def test_single_candidate_wins_without_a_vote():
    # Only Blue is in the breached Restroom: no ballot, Blue chooses which of his two characters dies.
    state = attack({"red": {"pinup": 3, "gunman": 3}, "blue": {"gunman": 1, "pinup": 1, "tough": 5}}, {1: 2})
    assert (asked(state), waiting(state)) == (("pick", "victim"), ("blue",))


def test_first_tie_revote_among_tied_with_outsiders_and_eliminated_joining_with_one_vote():
    # Five players. Megatoys: Red's Gunman (2), Blue's Gunman (2), Yellow's Tough Guy (1). Green is out;
    # Purple stands elsewhere.
    state = attack({
        "red": {"pinup": 1, "tough": 5, "gunman": 3},
        "blue": {"pinup": 5, "tough": 6, "gunman": 3},
        "yellow": {"tough": 3, "pinup": 6, "gunman": 6},
        "purple": {"pinup": 6, "tough": 1, "gunman": 6},
    }, {3: 4}, crowd=False, players=FIVE, hands={"red": 1})
    state = act(state, {"seat": "red", "pass": True})  # the card window, before the first vote only
    state = vote(state, red="blue", blue="red", yellow="yellow")  # 2, 2 and 1: Red and Blue tie
    assert asked(state) == ("ballot", "vote")  # straight to the re-vote: no new card window
    assert set(waiting(state)) == {"red", "blue", "yellow", "green", "purple"}
    assert options(state, "yellow") == [{"seat": "yellow", "vote": "red"}, {"seat": "yellow", "vote": "blue"}]
    assert "not a candidate" in rejected(state, {"seat": "yellow", "vote": "yellow"})
    # Red's 2 to Blue, Blue's 2 to Red, then Yellow, Green and Purple with 1 vote each: Blue 4, Red 3.
    state = vote(state, red="blue", blue="red", yellow="blue", green="red", purple="blue")
    assert not alive(state, "blue", "gunman")


def test_player_hidden_there_does_not_join_the_revote():
    # Ruling: a player whose characters there are all hidden still has a character there, so he is no
    # outsider; and hidden, he cannot vote. Yellow hides his Tough Guy in Megatoys; Red and Blue tie.
    state = attack({
        "red": {"pinup": 1, "tough": 5, "gunman": 3},
        "blue": {"pinup": 5, "tough": 1, "gunman": 3},
        "yellow": {"pinup": 6, "tough": 3, "gunman": 6},
        "green": {"pinup": 6, "tough": 6, "gunman": 6},
    }, {3: 4}, crowd=False, hands={"yellow": 1})
    state = play(state, "yellow", "hidden", character="tough")
    state = vote(state, red="blue", blue="red")
    assert set(waiting(state)) == {"red", "blue", "green"}
    assert "Yellow cannot act now" in rejected(state, {"seat": "yellow", "vote": "red"})


def threat_tie(options: dict | None = None) -> State:
    """Megatoys: Red's Gunman and a Threat (3) against Blue's Gunman and Tough Guy (3): a first tie. In the
    re-vote Yellow votes Blue and Green votes Red."""
    state = attack({"red": {"pinup": 1, "tough": 5, "gunman": 3}, "blue": {"pinup": 5, "tough": 3, "gunman": 3}},
                   {3: 5}, hands={"red": 1}, options=options)
    state = play(state, "red", "threat")
    state = vote(state, red="blue", blue="red")
    assert asked(state) == ("ballot", "vote")
    return vote(state, red="blue", blue="red", yellow="blue", green="red")


def test_threats_carry_to_revote_by_default():
    state = threat_tie()  # Red still weighs 3: 4 to 4, a second tie
    assert mall.cup_request(state).kind == "pick"


def test_threats_carry_to_revote_with_option_on():
    state = threat_tie({"threats_carry_to_revote": True})
    assert mall.cup_request(state).kind == "pick"


def test_threats_do_not_carry_when_option_off():
    state = threat_tie({"threats_carry_to_revote": False})  # Red weighs 2: Blue 3, Red 4
    assert mall.cup_request(state) is None
    assert not alive(state, "red", "gunman")


def tied_twice(options: dict | None = None) -> State:
    """Megatoys: Red's and Blue's Tough Guy and Gunman (3 votes each) tie, then tie again (Yellow votes Red,
    Green votes Blue). Both Pin-ups stand elsewhere."""
    state = attack({"red": {"pinup": 1, "tough": 3, "gunman": 3}, "blue": {"pinup": 5, "tough": 3, "gunman": 3}},
                   {3: 6}, options=options)
    state = vote(state, red="blue", blue="red")
    return vote(state, red="blue", blue="red", yellow="red", green="blue")


def test_second_tie_victim_random_character():
    state = tied_twice()
    request = mall.cup_request(state)
    assert (request.kind, request.count) == ("pick", 4)  # one lot per character of Red and Blue there
    victims = set()
    for index in range(4):
        after = pick(state, index)
        gone = {(p, c) for p in ("red", "blue") for c in where(state, p) if not alive(after, p, c)}
        assert len(gone) == 1 and asked(after) != ("pick", "victim")  # the lot chose the character: nobody is asked
        victims |= gone
    assert victims == {("red", "tough"), ("red", "gunman"), ("blue", "tough"), ("blue", "gunman")}


def test_second_tie_victim_lots_skip_hidden_characters():
    # Supermarket: Red and Blue each hide their Pin-up, then tie twice with 3 votes each.
    state = attack({
        "red": {"pinup": 6, "tough": 6, "gunman": 6},
        "blue": {"pinup": 6, "tough": 6, "gunman": 6},
        "yellow": {"pinup": 1, "tough": 3, "gunman": 3},
        "green": {"pinup": 5, "tough": 5, "gunman": 3},
    }, {6: 2}, crowd=False, hands={"red": 1, "blue": 1})
    state = play(state, "red", "hidden", character="pinup")
    state = play(state, "blue", "hidden", character="pinup")
    state = vote(state, red="blue", blue="red")
    state = vote(state, red="blue", blue="red", yellow="red", green="blue")
    assert mall.cup_request(state).count == 4  # the Tough Guys and Gunmen; the hidden Pin-ups draw no lot
    for index in range(4):
        after = pick(state, index)
        assert alive(after, "red", "pinup") and alive(after, "blue", "pinup")


def test_second_tie_victim_random_character_with_option():
    request = mall.cup_request(tied_twice({"second_tie_victim": "character"}))
    assert (request.kind, request.count) == ("pick", 4)


def test_second_tie_victim_random_colour_owner_chooses():
    state = tied_twice({"second_tie_victim": "colour"})
    request = mall.cup_request(state)
    assert (request.kind, request.count) == ("pick", 2)  # Red or Blue, with equal odds
    owners = set()
    for index in range(2):
        after = pick(state, index)
        assert asked(after) == ("pick", "victim")
        (owner,) = waiting(after)
        assert options(after, owner) == [{"seat": owner, "victim": "tough"}, {"seat": owner, "victim": "gunman"}]
        owners.add(owner)
    assert owners == {"red", "blue"}


def test_second_tie_nobody_searches_the_truck():
    # Parking: Red's Gunman against Blue's Gunman; the re-vote ties again.
    state = game(phase="truck", characters={
        "red": {"pinup": 1, "tough": 3, "gunman": 4},
        "blue": {"pinup": 3, "tough": 1, "gunman": 4},
        **CROWD,
    })
    state = vote(state, red="blue", blue="red")
    state = vote(state, red="blue", blue="red", yellow="blue", green="red")
    after = record(state)
    assert after["hands"] == dict.fromkeys(FOUR, 0) and after["deck"] == 17
    assert after["phase"] == "arrival"


def test_second_tie_chief_unchanged_and_not_elected():
    # Security HQ: Red's Gunman against Blue's Gunman; Yellow holds the badge.
    state = game(phase="chief", chief="yellow", characters={
        "red": {"pinup": 1, "tough": 3, "gunman": 5},
        "blue": {"pinup": 3, "tough": 1, "gunman": 5},
        **CROWD,
    })
    state = vote(state, red="blue", blue="red")
    state = vote(state, red="blue", blue="red", yellow="blue", green="red")
    assert record(state)["chief"] == "yellow" and record(state)["elected"] is False
    request = mall.cup_request(state)
    assert request.kind == "roll" and request.visible_to == ()  # nobody may look at the dice


def test_vote_for_non_candidate_rejected_and_voter_may_vote_again():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}}, {1: 2})
    message = rejected(state, {"seat": "blue", "vote": "yellow"})
    assert message == "Blue cannot vote for Yellow: Yellow is not a candidate; vote for one of Red and Blue"
    state = vote(state, blue="red", red="red")
    assert not alive(state, "red", "pinup")


def test_ballot_may_change_until_reveal():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}}, {1: 2})
    state = vote(state, red="blue")
    state = vote(state, red="red")  # Red changes his mind before Blue has voted
    state = vote(state, blue="red")
    assert not alive(state, "red", "pinup") and alive(state, "blue", "gunman")


def test_table_may_close_a_vote_missing_voter_abstains():
    # Megatoys: Red's Gunman (2), Blue's Tough Guy (1), Yellow's Tough Guy (1). Yellow never votes.
    state = attack({
        "red": {"pinup": 1, "tough": 5, "gunman": 3},
        "blue": {"pinup": 5, "tough": 3, "gunman": 6},
        "yellow": {"pinup": 6, "tough": 3, "gunman": 6},
        "green": {"pinup": 6, "tough": 6, "gunman": 1},
    }, {3: 5}, crowd=False)
    state = vote(state, red="blue", blue="red")
    assert waiting(state) == ("yellow",)
    state = act(state, {"close": True})
    assert not alive(state, "blue", "tough")  # Red's 2 votes against Blue's 1
    assert alive(state, "yellow", "tough")


def test_closing_is_refused_when_there_is_no_vote():
    state = attack({"red": {"pinup": 1, "gunman": 3}, "blue": {"gunman": 1, "pinup": 3, "tough": 3}},
                   {1: 2}, hands={"red": 1})
    assert asked(state) == ("cards", "window")
    assert "no vote" in rejected(state, {"close": True})


# ---------------------------------------------------------------------------------------------------------------
# The Chief's badge
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("blue", "new_chief"), [
    ({"pinup": 3, "tough": 3, "gunman": 3}, "blue"),  # Blue is next clockwise
    ({}, "yellow"),  # Blue is already out: the badge skips him
])
def test_chief_badge_passes_clockwise_when_chief_eliminated(blue, new_chief):
    # Red is Chief and loses his last character in the Restroom.
    state = attack({"red": {"gunman": 1}, "blue": blue, "yellow": {"pinup": 6, "tough": 6, "gunman": 3},
                    "green": {"pinup": 6, "tough": 6, "gunman": 6}}, {1: 1}, crowd=False)
    assert not state.alive("red")
    assert record(state)["chief"] == new_chief
    assert record(state)["round"] == 2  # nobody stands in the Security HQ: no election changes it


# ---------------------------------------------------------------------------------------------------------------
# End and score
# ---------------------------------------------------------------------------------------------------------------


def test_table_options_exist_with_their_defaults():
    assert mall.Options().to_json() == {
        "threats_carry_to_revote": True, "second_tie_victim": "character", "end_timing": "immediate",
    }
    chosen = {"threats_carry_to_revote": False, "second_tie_victim": "colour", "end_timing": "round_end"}
    assert mall.start(list(FOUR), chosen).options.to_json() == chosen


@pytest.mark.parametrize("options", [
    {"end_timing": "later"}, {"second_tie_victim": "player"}, {"threats_carry_to_revote": "yes"}, {"undo": True},
])
def test_table_option_with_a_bad_value_is_refused(options):
    with pytest.raises(IllegalAction):
        mall.start(list(FOUR), options)


def test_rescue_when_all_living_in_one_location_not_parking():
    # Five characters in the Supermarket; Blue's Gunman dies in the Restroom: everyone left is in one place.
    state = attack({"red": {"pinup": 6, "tough": 6}, "blue": {"gunman": 1},
                    "yellow": {"pinup": 6, "tough": 6}, "green": {"gunman": 6}}, {1: 1}, crowd=False)
    assert record(state)["over"] is True


def test_no_rescue_when_all_in_parking():
    everyone = {p: {"pinup": 4, "tough": 4, "gunman": 4} for p in FOUR}
    state = attack(everyone, crowd=False)
    assert record(state)["over"] is False
    assert asked(state) == ("ballot", "vote")  # the Parking draws two zombies and the attack goes on


@pytest.mark.parametrize(("players", "characters", "over"), [
    # Blue's Gunman dies in the Restroom; the others stand in different places.
    (FOUR, {"red": {"pinup": 3, "tough": 3}, "yellow": {"tough": 5}, "green": {"tough": 6}}, True),
    (FOUR, {"red": {"pinup": 3, "tough": 3}, "yellow": {"tough": 5}, "green": {"tough": 6, "gunman": 6}}, False),
    (FIVE, {"red": {"pinup": 3, "tough": 3}, "yellow": {"tough": 5}, "purple": {"tough": 6}}, True),
    (FIVE, {"red": {"pinup": 3, "tough": 3}, "yellow": {"tough": 5}, "purple": {"tough": 6, "gunman": 6}}, False),
    (SIX, {"red": {"pinup": 3, "tough": 3}, "yellow": {"tough": 5}, "green": {"tough": 6},
           "purple": {"tough": 2}, "black": {"gunman": 2}}, True),
    (SIX, {"red": {"pinup": 3, "tough": 3}, "yellow": {"tough": 5}, "green": {"tough": 6, "gunman": 6},
           "purple": {"tough": 2}, "black": {"gunman": 2}}, False),
], ids=["4p-4-left", "4p-5-left", "5p-4-left", "5p-5-left", "6p-6-left", "6p-7-left"])
def test_rescue_at_four_characters_or_six_in_six_player_game(players, characters, over):
    state = attack({"blue": {"gunman": 1}, **characters}, {1: 1}, crowd=False, players=players)
    assert not state.alive("blue")
    assert record(state)["over"] is over


def two_breaches(options: dict | None = None) -> State:
    """Five characters: Blue's Gunman dies in the Restroom (4 left), then the Security HQ is breached."""
    return attack({"red": {"pinup": 3, "tough": 3}, "blue": {"gunman": 1}, "yellow": {"tough": 5},
                   "green": {"tough": 5}}, {1: 1, 5: 4}, crowd=False, options=options)


def test_game_ends_at_once_by_default():
    state = two_breaches()
    assert record(state)["over"] is True
    assert zombies(state)[5] == 4  # the Security HQ was never resolved
    assert alive(state, "yellow", "tough") and alive(state, "green", "tough")


def test_game_ends_at_once_with_option():
    state = two_breaches({"end_timing": "immediate"})
    assert record(state)["over"] is True and zombies(state)[5] == 4


def test_game_ends_at_round_end_with_option():
    state = two_breaches({"end_timing": "round_end"})
    assert record(state)["over"] is False
    assert (asked(state), waiting(state)) == (("ballot", "vote"), ("yellow", "green"))  # the attack goes on
    state = vote(state, yellow="green", green="green")
    assert not alive(state, "green", "tough")
    after = record(state)
    assert after["over"] is True and after["round"] == 1  # over at the end of the round, not a new round
    assert after["winners"] == ["red"]


def ending(hands: dict) -> State:
    """Three players: Blue's Gunman dies in the Restroom and everyone left stands in the Supermarket."""
    return attack({
        "red": {"pinup": 6, "girl": 6},  # 7 + 1
        "yellow": {"tough": 6, "gunman": 6},  # 5 + 3
        "blue": {"pinup": 6, "gunman": 1},  # 7, once the Gunman is eaten
    }, {1: 1}, crowd=False, players=("red", "yellow", "blue"), hands=hands)


def test_score_is_points_of_living_characters():
    state = attack({
        "red": {"pinup": 6, "girl": 6},
        "yellow": {"tough": 6, "gunman": 6, "girl": 6},
        "blue": {"pinup": 6, "gunman": 1},
    }, {1: 1}, crowd=False, players=("red", "yellow", "blue"))
    after = record(state)
    assert after["over"] is True
    assert after["scores"] == {"red": 8, "yellow": 9, "blue": 7}
    assert after["winners"] == ["yellow"]


@pytest.mark.parametrize(("hands", "winners"), [
    ({"red": 1, "yellow": 2, "blue": 3}, ["yellow"]),  # 8 and 8: Yellow holds more cards (Blue's 7 loses)
    ({"red": 2, "yellow": 1}, ["red"]),
    ({"red": 1, "yellow": 1, "blue": 2}, ["red", "yellow"]),  # still tied: the win is shared
])
def test_score_tie_most_cards_wins_then_shared(hands, winners):
    after = record(passes(ending(hands)))  # Blue, with cards, passes in the Restroom
    assert after["over"] is True
    assert after["scores"] == {"red": 8, "yellow": 8, "blue": 7}
    assert after["winners"] == winners


def test_more_than_thirty_zombies_is_a_warning_not_a_crash():
    # 30 zombies before the three empty shops; the crowd draws two more: 32 are counted, with a warning.
    state = attack({"red": {"pinup": 4, "tough": 4, "gunman": 4}, "blue": {"tough": 4, "gunman": 4}},
                   {1: 10, 3: 10, 5: 10})
    assert sum(zombies(state).values()) == 32
    warnings = record(state)["warnings"]
    assert warnings == [{"key": "mall.warning.figures", "params": {"count": 32, "figures": 30}}]
    assert asked(state) is not None  # the game goes on


def test_thirty_zombies_give_no_warning():
    state = attack({"red": {"pinup": 4, "tough": 4, "gunman": 4}, "blue": {"tough": 4, "gunman": 4}},
                   {1: 10, 3: 10, 5: 8})
    assert sum(zombies(state).values()) == 30
    assert "warnings" not in record(state)
