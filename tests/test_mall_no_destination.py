"""Mall of Horror, rule d) as ../shared/rules/mall-of-horror.md says it now: a living player left with no legal
destination (every open location already holds all his characters: late in a game, everything but the Parking
closed) is not asked, chooses nothing and does not move at e3, and the narration says so; the game never waits on
a seat with no legal answer. A destination answer names a location only: one that carries a `character` (or any
field of another answer) is refused with that reason, never "all of Red's characters are already there"."""

from __future__ import annotations

from mall import FOUR, asked, game, options, refusal, waiting

from companion.catalogue import LANGUAGES, text
from companion.games import mall_of_horror as mall
from companion.games.mall_of_horror import prompts
from companion.games.mall_of_horror.position import from_position
from companion.games.mall_of_horror.state import Options

ALL_BUT_PARKING = [1, 2, 3, 5, 6]


def late(**position):
    """Destination step, everything but the Parking closed; Red and Blue live (all in the Parking), Yellow and
    Green are zombie players."""
    position.setdefault("characters", {"red": {"pinup": 4, "tough": 4, "gunman": 4},
                                       "blue": {"pinup": 4, "tough": 4, "gunman": 4}})
    position.setdefault("closed", ALL_BUT_PARKING)
    position.setdefault("cup", [1, 2, 3, 5])
    return game(phase="destination", **position)


def keys(state) -> list[str]:
    return [line.message.key for line in mall.narration(state)]


def every_seat_asked_has_an_answer(state) -> bool:
    current = prompts.prompt(state)
    return current is None or all(current.options[seat] for seat in current.seats)


def on_the_way(**position) -> list:
    """Every state the game passes through from the position to its next decision (forced answers included)."""
    players = position.pop("players", FOUR)
    position.setdefault("characters", {"red": {"pinup": 4, "tough": 4, "gunman": 4},
                                       "blue": {"pinup": 4, "tough": 4, "gunman": 4}})
    position.setdefault("closed", ALL_BUT_PARKING)
    position.setdefault("cup", [1, 2, 3, 5])
    return list(mall.steps(from_position(tuple(players), Options(), {"phase": "destination", **position})))


def test_a_living_player_with_no_legal_destination_is_not_asked_and_the_narration_says_so():
    passed = on_the_way()
    secret = [s for s in passed if s.phase == "destination" and s.step == "secret"]
    assert secret and all(set(waiting(s)) <= {"yellow", "green"} for s in secret)  # only the zombie players
    assert all(every_seat_asked_has_an_answer(s) for s in passed)
    said = [line for line in mall.narration(passed[-1]) if line.message.key == "mall.n.destination.none"]
    assert [line.message.params["colour"] for line in said] == ["red", "blue"]
    assert text(said[0].message) == (
        "Red has no destination to choose: every open location already holds all of Red's characters "
        "(4 Parking); Red is not asked and does not move this round")
    for lang in LANGUAGES:
        assert "{" not in text(said[0].message, lang)


def test_a_player_with_no_legal_destination_chooses_nothing_and_does_not_move_at_e3():
    state = late()  # the zombie players' one open location is taken for them: nobody waits at the destination
    assert state.phase == "attack" and asked(state) == ("ballot", "vote")  # the Parking's zombies eat
    assert "red" not in state.destinations and "blue" not in state.destinations
    assert state.destinations == {"yellow": 4, "green": 4}
    narration = mall.narration(state)
    stays = [line for line in narration if line.message.key == "mall.n.stay.no_destination"]
    assert [line.message.params["colour"] for line in stays] == ["red", "blue"]
    assert text(stays[0].message) == "Red does not move: Red had no destination to choose"
    assert not any(line.message.key.startswith("mall.n.move.") for line in narration)
    assert {c.location for c in state.characters} == {4}
    assert every_seat_asked_has_an_answer(state)


def test_an_elected_chief_with_no_legal_destination_is_not_asked_first():
    passed = on_the_way(chief="red", elected=True)
    assert not any(s.step == "chief" for s in passed)
    assert "mall.n.destination.chief" not in keys(passed[-1])


def test_with_nobody_to_ask_the_round_goes_on_without_waiting():
    state = late(characters={"red": {"pinup": 4, "tough": 4}, "blue": {"pinup": 4, "tough": 4},
                             "yellow": {"pinup": 4}, "green": {"gunman": 4}})
    assert keys(state).count("mall.n.destination.none") == 4 and keys(state).count("mall.n.stay.no_destination") == 4
    assert state.phase != "destination" and every_seat_asked_has_an_answer(state)
    assert prompts.prompt(state) is not None or mall.cup_request(state) is not None or state.over


def test_a_player_with_no_legal_destination_who_answers_is_told_why():
    secret = next(s for s in on_the_way() if s.step == "secret")
    refused = refusal(secret, {"seat": "red", "go": 4})
    assert str(refused) == ("Red has no destination to choose: every open location already holds all of Red's "
                            "characters (4 Parking); Red does not move this round")


def test_a_move_position_may_leave_out_who_had_no_legal_destination():
    state = game(phase="move", closed=ALL_BUT_PARKING, destinations={"yellow": 4, "green": 4}, cup=[1, 2, 3, 5],
                 characters={"red": {"pinup": 4, "tough": 4, "gunman": 4}, "blue": {"pinup": 4, "tough": 4}})
    assert "mall.n.stay.no_destination" in keys(state)


def destination():
    return game(phase="destination", cup=[1, 3, 5, 6], characters={
        "red": {"pinup": 1, "tough": 3, "gunman": 6}, "blue": {"pinup": 3, "tough": 6, "gunman": 1},
        "yellow": {"pinup": 6, "tough": 1, "gunman": 3}, "green": {"pinup": 5, "tough": 5, "gunman": 5}})


def test_a_destination_answer_naming_a_character_is_refused_with_the_true_reason():
    state = destination()
    for go in (3, 5, 4):  # legal, all his characters there, and another: the same reason each time
        refused = refusal(state, {"seat": "green", "go": go, "character": "pinup"})
        assert refused.code == "mall.refuse.destination_location_only"
        assert str(refused) == ('a destination answer names only a location, such as {"seat": "green", "go": 3}: '
                                "the character who moves is chosen at the move")
        for lang in LANGUAGES:
            assert "{colour}" not in refused.text(lang)


def test_a_destination_answer_with_a_field_of_another_answer_is_refused_naming_the_field():
    state = destination()
    refused = refusal(state, {"seat": "green", "go": 3, "kills": 2})
    assert str(refused) == 'an answer with "go" takes no field "kills"'
    assert str(refusal(state, {"seat": "green", "vote": "red", "kills": 1})) == (
        'an answer with "vote" takes no field "kills"')
    assert [a["go"] for a in options(state, "green")] == [1, 3, 4, 6]  # the legal answers are unchanged


def test_every_seat_asked_has_a_legal_answer_through_random_games_and_late_positions():
    import random

    from companion.simulate import cup_event

    starts = [mall.start(list(FOUR[:3]) if seed % 3 == 0 else list(FOUR), None) for seed in range(6)]
    starts += [late(chief=("red", "blue")[seed % 2], elected=seed % 3 == 0, hands={"red": 1, "blue": 1})
               for seed in range(24)]
    stuck = 0
    for seed, state in enumerate(starts):
        rng = random.Random(seed)
        while not state.over:
            assert every_seat_asked_has_an_answer(state), (seed, state.step)
            request = mall.cup_request(state)
            if request is not None:
                event = cup_event(request, rng)
            else:
                current = prompts.prompt(state)
                assert current is not None and current.seats, (seed, state.phase, state.step)
                event = rng.choice(current.options[rng.choice(current.seats)])
            state = mall.apply(state, event)
        stuck += keys(state).count("mall.n.destination.none")
    assert stuck >= 24  # the late games had players with no legal destination, and none of them was waited on
