"""Mall of Horror's questions describe themselves, and its refusals are codes with parameters.

Every question met in random whole games has a title and labelled choices whose keys exist in all four
catalogues and render with every placeholder filled; the pad slots follow one rule (a location on its own
button, a colour on its seat's button, otherwise the k-th choice on button k); a refused answer carries the code
and the parameters that say why, in any language.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from mall import ATTACK, FOUR, MOVE, act, game, refusal, roll, vote

from companion.catalogue import LANGUAGES, catalogue, folder, placeholders
from companion.contract import BALLOT, CARDS, PICK, IllegalAction, Message, msg
from companion.games import mall_of_horror as mall
from companion.games.mall_of_horror import prompts
from companion.simulate import cup_event

PACKAGE = Path(mall.__file__).parent
OWN_FILES = ("terms", "prompts", "refusals", "setup")
PLAYERS = {3: ["red", "yellow", "blue"], 4: list(FOUR), 5: ["red", "yellow", "blue", "green", "purple"],
           6: ["red", "yellow", "blue", "green", "purple", "black"]}


def rendered(message: Message) -> dict[str, str]:
    """The message in every language; each must exist there and leave no placeholder or term key unrendered."""
    words = catalogue()
    out = {}
    for lang in LANGUAGES:
        assert words.has(message.key, lang), f"{message.key} is missing in {lang}"
        text = words.text(message, lang)
        assert not re.search(r"\{\w*\}", text), f"{lang}: a placeholder left in {text}"
        assert not re.search(r"\b(mall|colour)\.[a-z_]+\.", text), f"{lang}: a term without its word: {text}"
        out[lang] = text
    return out


def played_states(count: int, seed: int, options: dict | None = None):
    """Every state of a random whole game that waits for players."""
    rng = random.Random(seed)
    state = mall.start(PLAYERS[count], options)
    while not state.over:
        request = mall.cup_request(state)
        if request is not None:
            state = mall.apply(state, cup_event(request, rng))
            continue
        yield state
        current = mall.prompt(state)
        seat = rng.choice(current.seats)
        state = mall.apply(state, rng.choice(current.options[seat]))


def expected_slot(state, seat: str, action: dict, index: int) -> int | None:
    if "vote" in action or "give" in action:
        return state.players.index(action.get("vote") or action["give"]) + 1
    if "play" in action and state.step != "window":
        return None  # a Sprint at a move is folded away from the pad
    if "go" in action and "play" not in action:
        return action["go"]
    return index + 1 if index < 6 else None


GAMES = [(3, 1, None), (4, 2, {"second_tie_victim": "colour"}), (5, 3, None), (6, 4, {"end_timing": "round_end"}),
         (4, 5, {"threats_carry_to_revote": False}), (5, 6, {"second_tie_victim": "colour"})]


@pytest.mark.parametrize(("count", "seed", "options"), GAMES)
def test_every_question_of_a_random_game_has_a_title_labels_and_slots(count, seed, options):
    seen_steps = set()
    for state in played_states(count, seed, options):
        current = mall.prompt(state)
        rendered(current.title)  # the table's own line
        for seat in state.players:
            question = mall.question(state, seat)
            answers = prompts.options_for(state, seat)
            if not answers:
                assert question is None
                continue
            seen_steps.add(state.step)
            assert (question.id, question.kind, question.step, question.secret) == (
                current.id, current.kind, current.step, current.secret)
            assert question.kind in (PICK, BALLOT, CARDS)
            assert question.answered == (seat not in current.options)
            rendered(question.title)
            assert [choice.action for choice in question.choices] == answers
            for index, choice in enumerate(question.choices):
                rendered(choice.label)
                assert choice.slot == expected_slot(state, seat, choice.action, index), choice
                if "play" in choice.action:
                    card = choice.action["play"] + (str(choice.action["kills"]) if "kills" in choice.action else "")
                    assert choice.group == "card" and choice.note == msg(f"mall.card_effect.{card}")
                else:
                    assert choice.group is None
                if choice.note is not None:
                    rendered(choice.note)
            assert question.to_json()["title"] == question.title.to_json()
    assert {"place", "vote", "secret", "move"} <= seen_steps


def test_pads_find_a_location_on_its_own_button_and_a_candidate_on_his_seats_button():
    state = game(**MOVE)  # Red moves first, to the Supermarket: any of his three characters
    move = mall.question(state, "red")
    moves = [(c.action["move"], c.slot) for c in move.choices if "move" in c.action]
    assert moves == [("pinup", 1), ("tough", 2), ("gunman", 3)]
    assert {c.slot for c in move.choices if "play" in c.action} == {None}  # his Sprint is folded away
    attack = game(**ATTACK)  # Red and Blue vote for the victim in the Restroom
    ballot = mall.question(attack, "blue")
    assert {c.action["vote"]: c.slot for c in ballot.choices} == {"red": 1, "blue": 2}
    assert ballot.choice_for(2).action == {"seat": "blue", "vote": "blue"}


def test_a_voter_already_in_is_still_asked_and_told_so():
    state = game(**ATTACK)
    assert mall.question(state, "red").answered is False
    state = vote(state, red="blue")
    mine = mall.question(state, "red")
    assert mine is not None and mine.answered is True  # he may change his ballot until the reveal
    assert mine.title == Message("mall.q.vote.victim.mine", {"location": 1, "colours": ["red", "blue"], "count": 1})
    assert rendered(mine.title)["en"] == "Secret vote: whose character is eaten at 1 Restroom? You have 1 vote"
    assert mall.question(state, "yellow") is None  # not a voter


def test_an_eliminated_player_is_told_he_is_a_zombie_player_and_what_his_choice_does():
    state = game(phase="destination", cup=[1, 1, 3, 5],
                 characters={"red": {"pinup": 1, "tough": 3, "gunman": 3}, "yellow": {"pinup": 6, "tough": 5}})
    question = mall.question(state, "blue")
    assert question.title == msg("mall.q.zombie_destination", colour="blue")
    assert rendered(question.title)["en"] == (
        "Blue, you are a zombie player now: choose a location in secret; "
        "at the end of the round one more zombie comes there")
    assert [(c.action["go"], c.slot) for c in question.choices] == [(loc, loc) for loc in (1, 3, 4, 5, 6)]
    assert mall.question(state, "red").title == msg("mall.q.destination", colour="red")


@pytest.mark.parametrize(("where", "key", "english"), [
    (1, "mall.q.attack", "Zombie attack at 1 Restroom: {count} zombies against defence {defence}. "
                         "Red: play cards or pass"),
    (4, "mall.q.attack.parking", "Zombie attack at 4 Parking: {count} zombies, each eats one character "
                                 "(a victim vote each). Red: play cards or pass"),
    (6, "mall.q.attack.supermarket", "Zombie attack at 6 Supermarket: {count} zombies against defence {defence} "
                                     "(4 zombies or more always break in). Red: play cards or pass"),
])
def test_the_attack_window_says_zombies_against_defence_there(where, key, english):
    characters = {"red": {"pinup": where, "tough": where if where != 1 else 3, "gunman": where},
                  "blue": {"pinup": where if where != 6 else 3}, "yellow": {"pinup": 5}, "green": {"pinup": 5}}
    if where == 1:
        characters["red"]["gunman"] = 5
    state = game(phase="attack", characters=characters, zombies={str(where): 4}, hands={"red": 1},
                 destinations={p: 5 for p in FOUR}, deck=16)
    question = mall.question(state, "red")
    assert question.kind == CARDS and question.title.key == key
    loc = state.window.location  # attraction may have brought one more zombie
    assert question.title.params == {"colour": "red", "location": loc, "count": state.zombies[loc - 1],
                                     **({} if loc == 4 else {"defence": state.defence(loc)})}
    assert rendered(question.title)["en"] == english.format(count=state.zombies[loc - 1], defence=state.defence(loc))
    assert question.choices[0].label == msg("mall.choice.pass") and question.choices[0].slot == 1
    for choice in question.choices[1:]:
        assert choice.group == "card" and rendered(choice.note)


def test_a_move_into_a_full_location_says_it_ends_in_the_parking():
    characters = {"red": {"pinup": 3, "tough": 6}, "blue": {"pinup": 1, "tough": 1, "gunman": 1},
                  "yellow": {"pinup": 6}, "green": {"pinup": 6}}
    state = game(phase="move", chief="red", characters=characters, destinations={p: 1 for p in FOUR},
                 cup=[2, 2, 2, 2], hands=dict.fromkeys(FOUR, 0), deck=17)
    choice = mall.question(state, "red").choices[0]
    assert choice.label == msg("mall.choice.move", character="pinup", from_location=3, location=1)
    assert choice.note == msg("mall.choice.note.full", location=1, to_location=4)
    assert rendered(choice.note)["en"] == "1 Restroom is full: goes to 4 Parking"


# -- refusals -------------------------------------------------------------------------------------------------


def code_of(call) -> IllegalAction:
    with pytest.raises(IllegalAction) as error:
        call()
    for text in rendered(error.value.message).values():
        assert text
    return error.value


@pytest.mark.parametrize(("players", "code", "params"), [
    ("red", "mall.refuse.players_list", {"example": '["red", "blue", "yellow"]'}),
    (["red", "blue"], "mall.refuse.player_count", {"count": 2, "low": 3, "high": 6}),
    (["red", "pink", "blue"], "mall.refuse.not_a_colour",
     {"value": "'pink'", "colours": ["red", "yellow", "blue", "green", "purple", "black"]}),
    (["red", "red", "blue", "green"], "mall.refuse.same_colour", {}),
    (["red", "yellow", "green"], "mall.refuse.three_colours", {"colours": ["red", "yellow", "blue"]}),
])
def test_a_setup_is_refused_with_a_code(players, code, params):
    refused = code_of(lambda: mall.start(players))
    assert (refused.code, refused.params) == (code, params)


@pytest.mark.parametrize(("options", "code", "params"), [
    ([1], "mall.refuse.options_object",
     {"example": '{"end_timing": "round_end"}', "got": {"key": "checks.got.list", "params": {}}}),
    ({"undo": True}, "mall.refuse.unknown_option",
     {"name": "undo", "options": ["threats_carry_to_revote", "second_tie_victim", "end_timing"]}),
    ({"end_timing": "later"}, "mall.refuse.option_value",
     {"option": "end_timing", "first": '"immediate"', "second": '"round_end"',
      "got": {"key": "checks.got.text", "params": {"text": "later"}}}),
    ({"threats_carry_to_revote": "yes"}, "mall.refuse.option_value",
     {"option": "threats_carry_to_revote", "first": "true", "second": "false",
      "got": {"key": "checks.got.text", "params": {"text": "yes"}}}),
    ({"threats_carry_to_revote": 1}, "mall.refuse.option_value",
     {"option": "threats_carry_to_revote", "first": "true", "second": "false",
      "got": {"key": "checks.got.number", "params": {"number": "1"}}}),
    ({"end_timing": None}, "mall.refuse.option_value",
     {"option": "end_timing", "first": '"immediate"', "second": '"round_end"',
      "got": {"key": "checks.got.null", "params": {}}}),
])
def test_table_options_are_refused_with_a_code(options, code, params):
    refused = code_of(lambda: mall.start(list(FOUR), options))
    assert (refused.code, refused.params) == (code, params)
    rendered(refused.message)  # in all four languages, every placeholder filled


def test_a_table_option_refusal_says_its_values_in_json_words_as_the_other_games_do():
    said = rendered(code_of(lambda: mall.start(list(FOUR), {"end_timing": "later"})).message)
    assert said["en"] == 'The table option "end_timing" is "immediate" or "round_end", not the text "later".'
    assert "'" not in said["en"]  # no Python quoting: 'later', 'immediate'
    said = rendered(code_of(lambda: mall.start(list(FOUR), {"threats_carry_to_revote": None})).message)
    assert said["en"] == 'The table option "threats_carry_to_revote" is true or false, not nothing (null).'
    said = rendered(code_of(lambda: mall.start(list(FOUR), {"undo": True})).message)
    assert said["en"] == ('Mall of Horror has no table option "undo": its options are threats_carry_to_revote, '
                          'second_tie_victim and end_timing.')
    assert "喪屍商場" in said["zh-Hant"] and "丧尸商场" in said["zh-Hans"] and "undo" in said["vi"]



@pytest.mark.parametrize(("action", "code", "params"), [
    ("red moves pinup", "mall.refuse.not_an_object",
     {"example": '{"seat": "red", "vote": "blue"}', "value": "'red moves pinup'"}),
    ({"seat": "red", "fly": "pinup"}, "mall.refuse.unknown_field",
     {"field": "'fly'", "fields": "seat, vote, go, character, move, victim, play, kills, pass, give, close"}),
    ({"seat": "red", "move": 3}, "mall.refuse.field_type",
     {"field": '"move"', "type": {"key": "check.type.text", "params": {}},
      "value": {"key": "checks.got.number", "params": {"number": "3"}}}),
    ({"move": "pinup"}, "mall.refuse.no_seat", {"example": '{"seat": "red", ...}'}),
    ({"seat": "red", "pass": False}, "mall.refuse.must_be", {"field": '"pass"', "value": "true"}),
    ({"seat": "red"}, "mall.refuse.no_verb", {"verbs": "vote, go, move, victim, play, pass, give"}),
    ({"seat": "red", "play": "rocket"}, "mall.refuse.not_a_card",
     {"value": "'rocket'", "cards": "threat, camera, sprint, hardware, hidden, weapon"}),
    ({"seat": "red", "play": "sprint"}, "mall.refuse.card_takes", {"card": "sprint", "fields": "go"}),
    ({"seat": "red", "play": "threat", "go": 3}, "mall.refuse.card_takes_nothing", {"card": "threat"}),
    ({"seat": "red", "play": "weapon", "kills": 3}, "mall.refuse.weapon_kills", {}),
    ({"seat": "red", "move": "pinup", "go": 3}, "mall.refuse.one_thing", {"fields": "go, move"}),
    ({"close": False}, "mall.refuse.close_form", {"example": '{"close": true}'}),
    ({"close": True}, "mall.refuse.no_vote", {}),
    ({"seat": "purple", "move": "pinup"}, "mall.refuse.not_playing", {"value": "'purple'", "colours": list(FOUR)}),
])
def test_a_malformed_answer_is_refused_with_a_code(action, code, params):
    refused = refusal(game(**MOVE), action)
    assert (refused.code, refused.params) == (code, params)
    rendered(refused.message)


def test_an_answer_out_of_turn_says_who_is_asked_and_to_do_what():
    state = game(**MOVE)
    refused = refusal(state, {"seat": "blue", "move": "pinup"})
    assert (refused.code, refused.params) == (
        "mall.refuse.wait_for", {"colour": "blue", "colours": ["red"], "task": {"key": "mall.refuse.task.move",
                                                                                 "params": {}}})
    assert rendered(refused.message) == {
        "en": "Blue cannot act now: the table waits for Red (move a character)",
        "zh-Hans": "蓝现在不能行动：正在等待红（移动一个人物）",
        "zh-Hant": "藍現在不能行動：正在等待紅（移動一個人物）",
        "vi": "Xanh dương chưa thể hành động: bàn chơi đang chờ Đỏ (di chuyển một nhân vật)",
    }
    refused = refusal(state, {"seat": "red", "vote": "red"})
    assert (refused.code, refused.params["verb"]["key"], refused.params["task"]["key"]) == (
        "mall.refuse.wrong_verb", "mall.refuse.verb.vote", "mall.refuse.task.move")
    waiting_for_dice = game(phase="arrival", characters=MOVE["characters"])
    assert refusal(waiting_for_dice, {"seat": "red", "pass": True}).code == "mall.refuse.wait_cup"


def test_an_answer_the_rules_forbid_carries_what_it_names():
    placing = roll(mall.start(list(FOUR)), 5, 1)
    refused = refusal(placing, {"seat": "red", "go": 3, "character": "tough"})
    assert (refused.code, refused.params) == (
        "mall.refuse.place_dice", {"colour": "red", "location": 3, "dice": [5, 1]})
    assert rendered(refused.message)["en"] == "Red cannot place at 3 Megatoys: the dice show 5 and 1"
    assert refusal(placing, {"seat": "red", "go": 9, "character": "tough"}).params == {"value": "9"}
    assert refusal(placing, {"seat": "red", "go": 5, "character": "dog"}).code == "mall.refuse.unknown_character"

    moving = game(**MOVE)
    moving = act(moving, {"seat": "red", "move": "gunman"})  # Blue's turn: his Pin-up is not in the Restroom
    refused = refusal(moving, {"seat": "blue", "move": "girl"})
    assert (refused.code, refused.params) == ("mall.refuse.not_alive", {"colour": "blue", "character": "girl"})
    to_security = game(**{**MOVE, "destinations": {**MOVE["destinations"], "red": 5}})
    refused = refusal(to_security, {"seat": "red", "move": "gunman"})
    assert (refused.code, refused.params) == ("mall.refuse.already_at_destination",
                                              {"colour": "red", "character": "gunman", "location": 5})

    voting = game(**ATTACK)
    refused = refusal(voting, {"seat": "blue", "vote": "yellow"})
    assert (refused.code, refused.params) == ("mall.refuse.not_candidate",
                                              {"colour": "blue", "candidate": "yellow", "colours": ["red", "blue"]})
    assert refusal(voting, {"seat": "blue", "vote": "pink"}).code == "mall.refuse.not_candidate_value"


def test_a_card_refused_names_the_card():
    spent = game(**{**MOVE, "played": {"sprint": 3}, "deck": 7})
    refused = refusal(spent, {"seat": "red", "play": "sprint", "go": 4})
    assert (refused.code, refused.params) == ("mall.refuse.cards_gone", {"count": 3, "card": "sprint"})
    assert rendered(refused.message)["en"] == "all 3 Sprint cards have already been played"
    parking = game(phase="attack", characters={"red": {"pinup": 4, "tough": 3, "gunman": 3},
                                               "blue": {"gunman": 4, "pinup": 5, "tough": 5}},
                   zombies={"4": 1}, hands={"red": 1}, destinations=dict.fromkeys(FOUR, 4), deck=16)
    refused = refusal(parking, {"seat": "red", "play": "hardware"})
    assert (refused.code, refused.params) == ("mall.refuse.hardware_parking", {"location": 4})


def test_the_cup_is_refused_with_a_code():
    state = mall.start(list(FOUR))
    refused = code_of(lambda: roll(state, 1, 2, 3))
    assert (refused.code, refused.params) == ("mall.refuse.bad_roll", {"count": 2, "value": "[1, 2, 3]"})
    assert str(refused) == "the cup must roll 2 dice with values 1 to 6, not [1, 2, 3]"
    assert code_of(lambda: mall.apply(state, {"pick": 0})).code == "mall.refuse.no_pick"
    assert code_of(lambda: roll(roll(state, 1, 3), 1, 3)).code == "mall.refuse.no_roll"
    assert code_of(lambda: mall.apply(state, "roll")).code == "mall.refuse.event_not_object"


@pytest.mark.parametrize(("position", "code", "params"), [
    ([], "mall.position.not_object", {}),
    ({"phase": "lunch"}, "mall.position.phase",
     {"phases": "truck, chief, arrival, destination, move, attack", "value": "'lunch'"}),
    ({"closed": [4]}, "mall.position.parking_closed", {"location": 4}),
    ({"characters": {"red": {"pinup": 1}}, "hidden": {"red": [["pinup"]]}}, "mall.position.hidden_list",
     {"field": "hidden"}),
    ({"hands": {"red": -1}}, "mall.position.not_a_number",
     {"field": "hands.red", "minimum": 0, "value": {"key": "checks.got.number", "params": {"number": "-1"}}}),
    ({"characters": {"red": {"pinup": 1, "tough": 1, "gunman": 1}, "blue": {"pinup": 1}}},
     "mall.position.over_capacity", {"location": 1, "count": 3, "present": 4}),
    ({"chief": "red", "characters": {"blue": {"pinup": 1}}}, "mall.position.chief_out", {"colour": "red"}),
    ({"phase": "move", "destinations": {"red": 1}, "cup": [1, 1, 1, 1]}, "mall.position.missing_destinations",
     {"phase_name": "move", "colours": ["blue", "yellow", "green"]}),
    ({"phase": "attack", "characters": {"red": {"pinup": 1, "tough": 3}, "yellow": {"tough": 3},
                                        "green": {"gunman": 5, "pinup": 5}}, "destinations": {"red": 3}},
     "mall.position.missing_zombie_destinations", {"colours": ["blue"]}),
])
def test_a_position_is_refused_with_a_code(position, code, params):
    refused = code_of(lambda: mall.start(list(FOUR), None, position))
    assert (refused.code, refused.params) == (code, params)


# -- the catalogue files ----------------------------------------------------------------------------------------


def test_every_refusal_code_in_the_rules_is_in_every_catalogue():
    source = "\n".join(path.read_text(encoding="utf-8") for path in PACKAGE.glob("*.py"))
    codes = set(re.findall(r'IllegalAction\(\s*"(mall\.[a-z_.]+)"', source))
    codes |= {f"mall.refuse.{kind}.{step}" for kind in ("task",) for step in prompts._EXPECTED_VERBS}
    codes |= {f"mall.refuse.verb.{verb}" for verb in ("vote", "go", "move", "victim", "play", "pass", "give")}
    assert len(codes) > 60
    words = catalogue()
    for code in codes:
        for lang in LANGUAGES:
            assert words.has(code, lang), f"{code} is missing in {lang}"


def test_the_games_catalogue_files_agree_across_languages():
    words = catalogue()
    english = {}
    for name in OWN_FILES:
        for lang in LANGUAGES:
            path = PACKAGE / "locale" / folder(lang) / f"{name}.po"
            keys = re.findall(r'^msgid "(mall\.[^"]+)"', path.read_text(encoding="utf-8"), re.M)
            if lang == "en":
                english[name] = keys
            assert keys == english[name], f"{path}: not the same keys as English"
    for key in (k for keys in english.values() for k in keys):
        base = words.messages["en"][key]
        forms = base if isinstance(base, tuple) else (base,)
        wanted = set().union(*(placeholders(f) for f in forms))
        for lang in LANGUAGES:
            found = words.messages[lang][key]
            theirs = found if isinstance(found, tuple) else (found,)
            assert len(theirs) == (len(forms) if lang == "en" else 1), (key, lang)
            for form in theirs:
                assert placeholders(form) == wanted, f"{key} in {lang}: {form}"
            if lang.startswith("zh"):
                assert not re.search(r"\b(the|and|or|is|of|to|at|cannot|must)\b", " ".join(theirs)), (key, lang)


def test_terms_read_as_the_players_say_them():
    say = catalogue().text
    assert say(msg("mall.choice.place", character="tough", location=4), "en") == "Tough Guy to 4 Parking"
    assert say(msg("mall.choice.place", character="tough", location=4), "zh-Hant") == "壯漢放到 4 停車場"
    assert say(msg("mall.choice.play.weapon2"), "vi") == "vũ khí: diệt 2 zombie"
    assert say(msg("mall.choice.go", location=2), "zh-Hans") == "2 Cachou 服装店"
    assert say(mall.SETUP.note, "en") == "3 players: Red, Yellow and Blue. 4 to 6 players: any colours."
