"""Mall of Horror's words that misled a real table (issue 29), each said right in the four languages, and the rules
fix behind one of them:
- a placement where neither die can be used says so, and that any open location with room may be chosen;
- a re-vote names the voters in the location apart from the players who join from outside;
- a victim whose owner has one character there is said as such: nobody "chooses" before an automatic removal;
- a played card is a physical step (discard it): an act line;
- once a Weapon (or Hardware) ends the breach, nobody is asked to play cards against it again (rules f2: a card
  window opens only against a breach);
- the end says nothing moot once the game is over (who is out, where the badge goes);
- "Blue did not vote and abstains" (one), "… abstain" (several);
- the dice peek names only where zombies will go, never a closed location;
- the revealed ballot carries the round and the step it was cast in, into the next round;
- the end's scores part holds each score's parts: the living characters with their points, and the total.
Unless a test says otherwise the game has four players (red, blue, yellow, green; Cachou closed), Red is Chief.
"""

from __future__ import annotations

import pytest
from mall import ATTACK, FOUR, act, asked, game, passes, roll, vote, waiting

from companion.catalogue import LANGUAGES, catalogue
from companion.contract import Message
from companion.games import mall_of_horror as mall
from companion.games.mall_of_horror.board import CACHOU

# Yellow and Green wait with all six of their characters in the Supermarket: that crowd draws both attraction
# zombies, which never breach it; the attack is decided where the tests put Red and Blue.
CROWD = {"yellow": {"pinup": 6, "tough": 6, "gunman": 6}, "green": {"pinup": 6, "tough": 6, "gunman": 6}}


def text(message: Message | dict, lang: str = "en") -> str:
    if isinstance(message, dict):
        message = Message(message["key"], message.get("params", {}))
    said = catalogue().text(message, lang)
    assert "{" not in said and "mall." not in said, (lang, message, said)
    return said


def everywhere(message: Message) -> dict[str, str]:
    """The message in each language (each rendered whole: no placeholder, no key left)."""
    return {lang: text(message, lang) for lang in LANGUAGES}


def lines_between(before, after) -> list:
    return list(mall.narration(after)[len(mall.narration(before)):])


def keys(lines) -> list[str]:
    return [entry.message.key for entry in lines]


def attack(characters: dict, zombies: dict, **position):
    position.setdefault("destinations", dict.fromkeys(FOUR, 3))
    return game(phase="attack", characters={**CROWD, **characters},
                zombies={str(loc): n for loc, n in zombies.items()}, **position)


# -- placement ----------------------------------------------------------------------------------------------------


def test_a_placement_where_neither_die_can_be_used_says_any_open_location_with_room_may_be_chosen():
    closed = roll(mall.start(list(FOUR)), 2, 2)  # both dice on the closed Cachou
    title = mall.question(closed, "red").title
    assert title.key == "mall.q.place.free" and title.params["dice"] == [2, 2]
    assert "pick any open location with room" in text(title)
    assert {c.action["go"] for c in mall.question(closed, "red").choices} == {1, 3, 4, 5, 6}
    for said in everywhere(title).values():
        assert "2" in said  # the dice are still said
    usable = roll(mall.start(list(FOUR)), 2, 5)  # one die usable: only its location, said as the dice
    assert mall.question(usable, "red").title.key == "mall.q.place"
    assert {c.action["go"] for c in mall.question(usable, "red").choices} == {5}


# -- votes --------------------------------------------------------------------------------------------------------

PARKING_PAIR = {"red": {"pinup": 4, "tough": 1, "gunman": 3}, "blue": {"pinup": 4, "tough": 6, "gunman": 6},
                "yellow": {"pinup": 1, "tough": 3, "gunman": 5}, "green": {"pinup": 6, "tough": 5, "gunman": 1}}


def test_a_re_vote_names_the_voters_in_the_location_apart_from_the_players_joining_from_outside():
    state = game(characters=PARKING_PAIR, deck=17)  # the truck search: Red and Blue in the Parking
    first = mall.question(state, "red").facts
    assert [f.key for f in first[:1]] == ["mall.fact.voters"] and "mall.fact.voters.joined" not in \
        [f.key for f in first]
    revote = vote(state, red="red", blue="blue")  # a tie: Yellow and Green join from outside with 1 vote each
    assert waiting(revote) == ("red", "blue", "yellow", "green")
    facts = {f.key: f for f in mall.question(revote, "yellow").facts}
    inside = text(facts["mall.fact.voters"])
    assert "Red" in inside and "Blue" in inside and "Yellow" not in inside and "Green" not in inside
    joined = facts["mall.fact.voters.joined"]
    assert joined.params == {"location": 4, "colours": ["yellow", "green"]}
    assert text(joined) == "Joining from outside 4 Parking, 1 vote each: Yellow and Green"
    for said in everywhere(joined).values():
        assert said


def test_closing_a_vote_says_one_abstainer_abstains_and_several_abstain():
    one = act(vote(game(**ATTACK), red="blue"), {"close": True})
    closed = next(e for e in mall.narration(one) if e.message.key.startswith("mall.n.vote.closed"))
    assert text(closed.message) == "The table closes the vote: Blue did not vote and abstains"
    three = {**PARKING_PAIR, "yellow": {"pinup": 4, "tough": 3, "gunman": 5}}
    two = act(vote(game(characters=three, deck=17), red="red"), {"close": True})
    closed = next(e for e in mall.narration(two) if e.message.key.startswith("mall.n.vote.closed"))
    assert text(closed.message) == "The table closes the vote: Blue and Yellow did not vote and abstain"
    for message in (closed.message, next(e for e in mall.narration(one) if "closed" in e.message.key).message):
        everywhere(message)


# -- the victim ---------------------------------------------------------------------------------------------------


def test_a_victim_with_one_character_there_is_said_as_eaten_not_as_chosen():
    # Red's Pin-up alone in the Restroom with a zombie: only Red can be chosen, and only that Pin-up.
    state = attack({"red": {"pinup": 1, "tough": 3, "gunman": 3}, "blue": {"pinup": 3, "tough": 3, "gunman": 5}},
                   {1: 1})
    said = [e for e in mall.narration(state) if e.message.params.get("location") == 1]
    decided = next(e for e in said if e.message.key.startswith("mall.n.vote.alone"))
    assert decided.message.key == "mall.n.vote.alone.victim_one"
    assert text(decided.message) == "Only Red can be chosen at 1 Restroom, and Red has only the Pin-up there"
    assert "choose" not in text(decided.message)
    after = said[said.index(decided) + 1]
    assert after.message.key == "mall.n.kill.alone" and after.act  # removed at once: nobody was asked
    everywhere(decided.message)


def test_a_victim_with_two_characters_there_chooses_and_is_asked():
    state = attack({"red": {"pinup": 1, "tough": 1, "gunman": 3}, "blue": {"pinup": 3, "tough": 3, "gunman": 5}},
                   {1: 3})
    assert keys(mall.narration(state))[-1] == "mall.n.vote.alone.victim"
    assert "Red chooses who is eaten" in text(mall.narration(state)[-1].message)
    assert asked(state) == ("pick", "victim") and waiting(state) == ("red",)


def test_a_lost_vote_and_a_colour_drawn_say_the_one_character_there_too():
    lost = vote(game(**ATTACK), red="blue", blue="blue")  # Blue's Pin-up is his only character in the Restroom
    decided = next(e for e in mall.narration(lost) if e.message.key.startswith("mall.n.vote.won"))
    assert decided.message.key == "mall.n.vote.won.victim_one" and decided.message.params["character"] == "pinup"
    assert "chooses" not in text(decided.message)
    tied = vote(vote(game(options={"second_tie_victim": "colour"}, **ATTACK), red="blue", blue="red"),
                red="blue", blue="red", yellow="red", green="blue")
    drawn = mall.apply(tied, {"pick": 0})
    said = next(e for e in lines_between(tied, drawn) if e.message.key.startswith("mall.n.vote.drawn"))
    assert said.message.key == "mall.n.vote.drawn_one"
    assert text(said.message) == "The cup draws Red, who has only the Pin-up at 1 Restroom"
    for message in (decided.message, said.message):
        everywhere(message)


# -- cards --------------------------------------------------------------------------------------------------------


def test_every_played_card_is_a_physical_step_discard_it():
    state = game(**{**ATTACK, "hands": {"red": 4, "blue": 0, "yellow": 0, "green": 0}, "deck": 13})
    played = act(state, {"seat": "red", "play": "threat"}, {"seat": "red", "play": "hardware"},
                 {"seat": "red", "play": "weapon", "kills": 1}, {"seat": "red", "play": "hidden", "character": "pinup"})
    cards = [e for e in lines_between(state, played) if e.message.params.get("colour") == "red"
             and e.message.key.split(".")[2] in ("card", "remove")]
    assert keys(cards) == ["mall.n.card.threat", "mall.n.card.hardware", "mall.n.remove.weapon", "mall.n.card.hidden"]
    camera = roll(game(phase="arrival", characters=PARKING_PAIR, hands={"green": 1}), 6, 6, 6, 6)
    looked = act(camera, {"seat": "green", "play": "camera"})
    sprint = game(phase="move", characters=PARKING_PAIR, cup=[2, 2, 2, 2], hands={"red": 1},
                  destinations={"red": 5, "blue": 1, "yellow": 3, "green": 3})
    sprinted = act(sprint, {"seat": "red", "play": "sprint", "go": 6})
    cards += [lines_between(camera, looked)[0], lines_between(sprint, sprinted)[0]]
    assert keys(cards[-2:]) == ["mall.n.card.camera", "mall.n.card.sprint"]
    for entry in cards:
        assert entry.act and not entry.seats, entry
        assert "discard" in text(entry.message), text(entry.message)
        everywhere(entry.message)


def test_a_weapon_that_kills_the_last_zombie_in_the_parking_asks_for_no_more_cards():
    state = attack({"red": {"pinup": 4, "tough": 3, "gunman": 3}, "blue": {"pinup": 4, "tough": 5, "gunman": 5}},
                   {4: 1}, hands={"red": 2, "blue": 1}, deck=14)
    assert asked(state) == ("cards", "window") and state.window.location == 4 and state.window.seat == "red"
    played = act(state, {"seat": "red", "play": "weapon", "kills": 2})
    said = lines_between(state, played)
    assert keys(said)[:2] == ["mall.n.remove.weapon", "mall.n.repelled.parking"]
    assert "mall.n.pass" not in keys(said)  # neither Red again nor Blue was asked
    assert played.hands["blue"] == 1 and played.zombies[3] == 0


def test_a_weapon_that_ends_a_breach_closes_the_card_window_for_every_seat_after_it():
    state = game(**{**ATTACK, "zombies": {"1": 2}, "hands": {"red": 2, "blue": 1, "yellow": 0, "green": 0},
                    "deck": 14})
    assert asked(state) == ("cards", "window") and state.window.seats == ("red", "blue")
    there, defence = state.zombies[0], state.defence(1)
    assert there >= defence > there - 2  # breached now; a Weapon that kills 2 ends the breach
    played = act(state, {"seat": "red", "play": "weapon", "kills": 2})
    said = lines_between(state, played)
    assert keys(said)[:2] == ["mall.n.remove.weapon", "mall.n.repelled"]
    assert "mall.n.pass" not in keys(said) and played.hands == {**state.hands, "red": 1}  # nobody else was asked
    still = act(state, {"seat": "red", "play": "weapon", "kills": 1})  # one zombie fewer: still breached
    assert asked(still) == ("cards", "window") and still.window.seat == "red"  # "anything more?"
    assert passes(still).vote is not None  # the victim vote follows


# -- the end ------------------------------------------------------------------------------------------------------

# Red, the Chief, has only his Pin-up left, alone with a zombie in the Restroom; Blue is already out. Red's Pin-up
# eaten leaves four characters: rescue at once.
LAST = {"phase": "attack", "chief": "red", "characters": {"red": {"pinup": 1}, "yellow": {"pinup": 3, "gunman": 3},
                                                          "green": {"pinup": 6, "tough": 6}},
        "zombies": {"1": 1}, "destinations": {"red": 3, "blue": 3, "yellow": 6, "green": 5}}


def test_the_end_says_nothing_moot_who_is_out_or_where_the_badge_goes():
    state = game(**LAST)
    assert state.over
    end = keys(mall.narration(state))
    assert "mall.n.out" not in end and "mall.n.badge.passes" not in end
    assert end[end.index("mall.n.kill.alone"):] == [
        "mall.n.kill.alone", "mall.n.remove.feast", "mall.n.rescue.few", *["mall.n.score"] * 4, "mall.n.winner"]


def test_when_the_game_goes_on_to_the_rounds_end_who_is_out_and_the_badge_are_said():
    state = game(options={"end_timing": "round_end"}, **LAST)
    said = keys(mall.narration(state))
    assert "mall.n.out" in said and "mall.n.badge.passes" in said


def test_the_end_holds_each_scores_parts_the_living_characters_their_points_and_the_total():
    state = game(**LAST)
    over = mall.parts(state).to_json()["over"][0]
    assert [text(c) for c in over["columns"]] == ["Survivors", "Score"]
    rows = {r["seat"]: r for r in over["rows"]}
    assert [r["seat"] for r in over["rows"]][0] == "green" and rows["green"]["winner"]

    def said(cell: list) -> str:
        return " ".join(text(b["t"]) if "t" in b else str(b["n"]) for b in cell)

    assert [said(c) for c in rows["green"]["cells"]] == ["Pin-up 7 + Tough Guy 5", "12 points"]
    assert [said(c) for c in rows["yellow"]["cells"]] == ["Pin-up 7 + Gunman 3", "10 points"]
    assert [said(c) for c in rows["blue"]["cells"]] == ["no character left", "0 points"]
    for lang in LANGUAGES:
        for c in over["columns"]:
            text(c, lang)


def test_a_tie_on_points_adds_the_cards_in_hand_and_the_rule_under_the_scores():
    tie = game(phase="move", characters={"red": {"pinup": 6}, "blue": {"pinup": 3}, "yellow": {"tough": 6},
                                         "green": {"gunman": 6}},
               cup=[2, 2, 2, 2], destinations={"red": 6, "blue": 6, "yellow": 6, "green": 6},
               hands={"red": 1, "blue": 2})
    assert tie.over and tie.winners == ("blue",)
    over = mall.parts(tie).to_json()["over"][0]
    assert [text(c) for c in over["columns"]] == ["Survivors", "Cards in hand", "Score"]
    assert [r["seat"] for r in over["rows"]][:2] == ["blue", "red"]  # the cards broke the tie: Blue first
    assert over["rows"][0]["cells"][1] == [{"n": 2}]
    assert text(over["footer"][0]["t"]).startswith("A tie on points goes to the most action cards")


# -- the dice peek ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [(4, 2, 6, 6), (2, 2, 2, 2), (1, 2, 3, 2)])
def test_the_dice_peek_names_only_where_zombies_will_go(dice):
    elected = vote(game(phase="chief", characters={"red": {"pinup": 5, "tough": 1}, "blue": {"pinup": 5},
                                                    "yellow": {"pinup": 6}, "green": {"pinup": 6}}),
                   red="red", blue="red")
    rolled = roll(elected, *dice)
    peek = next(e for e in mall.narration(rolled) if e.seats == ("red",))
    going = sorted({d for d in dice if d != CACHOU})
    assert [a["params"].get("location") for a in peek.message.params["arrivals"]] == (going or [None])
    secret = mall.secrets(rolled, "red")[0]
    named = [bit.params.get("location") for line in secret.lines[1:] for bit in line if isinstance(bit, Message)]
    assert named == (going or [None])
    for lang in LANGUAGES:
        cachou = text(Message("mall.location.2"), lang)
        assert cachou not in text(peek.message, lang)
        assert all(cachou not in text(bit, lang) for line in secret.lines[1:] for bit in line)
    if not going:
        assert text(peek.message).endswith("no zombie arrives, every die shows a closed location")


# -- the revealed ballot ------------------------------------------------------------------------------------------


def test_the_revealed_ballot_carries_the_round_and_step_it_was_cast_in_into_the_next_round():
    state = game(**ATTACK)
    voted = vote(state, red="blue", blue="blue")  # round 2's victim vote in the Restroom, the round's last step
    assert state.round == 2 and voted.round == 3  # the round ended with it: round 3 waits for the zombie dice
    assert mall.cup_request(voted).kind == "roll"
    title = mall.parts(voted).revealed[0].title
    assert title.key == "mall.board.ballot_round" and title.params["round"] == 2  # not the new round's
    assert text(title) == "Round 2 · victim vote at 1 Restroom"
    assert mall.view(voted)["revealed"]["round"] == 2
    everywhere(title)
