"""Mall of Horror: the board is the truth. The table corrects the companion's board (mall_of_horror.edits and
correct, through a real Table): where each figure stands or that it was eaten, the zombies at each location, a
closed location, the cards in hand and in the truck deck, the Chief, the round and the phase; the board shows it at
once, the rules go on from it to the end, undo takes it back and a restart keeps it. An impossible board is refused
in one line and nothing changes; a secret is never offered; a vote nobody has voted in yet follows the board.
"""

from __future__ import annotations

import random

import pytest
from mall import ATTACK
from seeded import SeededCup

from companion.catalogue import catalogue
from companion.contract import IllegalAction, Message
from companion.games import mall_of_horror as mall
from companion.simulate import random_answer, random_game
from companion.store import EventStore
from companion.table import Table, TableError

NAME = "mall-of-horror"
FOUR = ["red", "blue", "yellow", "green"]

# Round 2 begins (Cachou is closed at four players): Red (Chief), Blue, Yellow's and Green's Gunmen are in the
# Parking, so the truck search is a vote among the four (Red 1, Blue 1, Yellow 2, Green 2); the three Tough Guys
# fill the Restroom; nobody is in the Supermarket, where 2 zombies wait.
TRUCK = {
    "round": 2, "phase": "truck", "chief": "red",
    "characters": {"red": {"pinup": 4, "tough": 1, "gunman": 5}, "blue": {"pinup": 4, "tough": 3, "gunman": 3},
                   "yellow": {"pinup": 3, "tough": 1, "gunman": 4}, "green": {"pinup": 5, "tough": 1, "gunman": 4}},
    "zombies": {"1": 1, "3": 2, "6": 2}, "hands": {"red": 1, "blue": 1, "yellow": 0, "green": 2}, "deck": 12,
}


def table_at(tmp_path, position: dict, options: dict | None = None, seed: int = 1) -> Table:
    table = Table(EventStore(tmp_path / "save.sqlite3"), SeededCup(seed))
    table.new_game(NAME, list(FOUR), options, dict(position))
    return table


def edits_of(table: Table) -> dict[str, dict]:
    return {edit["id"]: edit for edit in table.edits()}


def play_to_the_end(table: Table, seed: int = 7) -> None:
    """Random legal answers, the table's cup rolling, until rescue comes."""
    rng = random.Random(seed)
    for _ in range(3000):
        if table.state.over:
            return
        asked = table.rules.prompt(table.state)
        assert all(asked.options[seat] for seat in asked.seats), "a seat is asked with nothing to answer"
        table.answer(random_answer(table.rules, table.state, rng.choice(asked.seats), rng))
    pytest.fail("the game did not end")


def refused(table: Table, changes: dict) -> IllegalAction:
    """The correction is refused, and nothing changes: not the record, not the log."""
    record, events = table.record(), list(table.events)
    with pytest.raises(IllegalAction) as caught:
        table.correct(changes)
    assert table.record() == record and table.events == events
    return caught.value


# -- what the board shows -------------------------------------------------------------------------------------


def shown(parts: dict) -> dict:
    """The facts the public board draws (parts JSON): the heading, each zone, the cards line."""
    main = parts["main"]
    heading = next(p for p in main if p["part"] == "heading")
    line = heading["line"][0]["t"]
    facts = {"round": line["params"].get("round", 0), "phase": line["params"]["phase"]["key"].rpartition(".")[2]}
    chips = [bit["chip"] for side in heading["side"] for bit in side if "chip" in bit]
    facts["chief"] = chips[0] if chips else None
    for zone in next(p for p in main if p["part"] == "zones")["zones"]:
        facts[f"zombies.{zone['id']}"] = zone["count"]
        facts[f"closed.{zone['id']}"] = zone["closed"]
        for token in zone["tokens"]:
            kind = token["name"]["key"].rpartition(".")[2]
            facts[f"figure.{token['seat']}.{kind}"] = int(zone["id"])
    hands = next(line for p in main if p["part"] == "lines" for line in p["lines"]
                 if line and line[0].get("label", {}).get("key") == "mall.board.hands")
    for bit, after in zip(hands, hands[1:], strict=False):
        if "chip" in bit:  # a seat's chip, then its cards
            facts[f"hand.{bit['chip']}"] = after["n"]
    deck = hands[-1]["t"]
    assert deck["key"] == "mall.board.deck"
    facts["deck"] = deck["params"]["count"]
    return facts


KINDS = {"round", "phase", "chief", "zombies", "closed", "figure", "hand", "deck"}


@pytest.mark.parametrize("players, seed", [(["red", "yellow", "blue"], 3), (FOUR, 5),
                                           (["red", "yellow", "blue", "green", "purple", "black"], 8)])
def test_every_edit_is_what_the_board_shows_where_it_shows_it_at_every_moment(players, seed):
    events, _ = random_game(mall, players, random.Random(seed), close_chance=0.1)
    state, offered = mall.start(players), 0
    for event in events:
        state = mall.apply(state, event)
        if state.over:
            break
        parts = mall.parts(state).to_json()
        board = shown(parts)
        zones = {zone["id"] for p in parts["main"] if p["part"] == "zones" for zone in p["zones"]}
        for edit in mall.edits(state):
            offered += 1
            kind = edit.id.partition(".")[0]
            assert kind in KINDS  # a fact of the board: never a ballot, a die or a destination
            if kind == "figure" and edit.value == 0:  # during placement, a figure not yet placed: on no zone
                assert state.phase == "placement" and edit.at == "0" and edit.id not in board
                continue
            if kind in ("round", "phase") and state.phase == "placement":  # a game may be entered in progress
                assert (edit.value, edit.at) == ((0, "") if kind == "round" else ("placement", ""))
                continue
            assert board[edit.id] == edit.value, edit
            assert edit.allows(edit.value) or kind in ("round", "zombies"), edit
            if kind in ("zombies", "closed"):  # offered where the board draws the location
                assert edit.at == edit.id.split(".")[1] and edit.at in zones
            elif kind == "figure":  # where the figure stands
                assert edit.at == str(edit.value) and edit.at in zones
            else:
                assert edit.at == ""  # the heading and the line of the cards: the board as a whole
    assert offered > 1000


def test_during_placement_a_placed_figure_may_move_and_the_placement_goes_on():
    events, _ = random_game(mall, FOUR, random.Random(2))
    state = mall.start(FOUR)
    for event in events[:5]:  # the dice, a figure placed, the dice, a figure placed, the dice
        state = mall.apply(state, event)
    assert state.phase == "placement"
    edits = {edit.id: edit for edit in mall.edits(state)}
    placed = [c for c in state.characters if c.location]
    assert len(placed) == 2
    # Every figure is offered, placed or not (a game may be entered in progress), with the round and the phase.
    assert sorted(k for k in edits if k.startswith("figure.")) == sorted(
        f"figure.{c.colour}.{c.kind}" for c in state.characters)
    assert {"round", "phase"} <= set(edits) and edits["phase"].value == "placement"
    first = f"figure.{placed[0].colour}.{placed[0].kind}"
    assert [choice.value for choice in edits[first].choices] == [1, 3, 4, 5, 6, "eaten"]  # Cachou is closed
    free = next(loc for loc in (1, 3, 4, 5, 6) if loc != placed[0].location)
    from companion.correction import corrected

    after = corrected(mall, state, {first: free})
    assert next(c for c in after.characters if (c.colour, c.kind) == (placed[0].colour, placed[0].kind)).location \
        == free
    assert mall.prompt(after).seats == mall.prompt(state).seats  # the placement goes on
    unplaced = next(f"figure.{c.colour}.{c.kind}" for c in state.characters if not c.location)
    for changes in ({unplaced: 3}, {first: "eaten"}, {"round": 3}):  # a game entered: it needs its phase
        with pytest.raises(IllegalAction) as refused:
            corrected(mall, state, changes)
        assert refused.value.code == "mall.edit.refuse.enter_phase"


def test_a_game_in_progress_is_entered_from_placement_its_round_phase_figures_and_zombies_at_once(tmp_path):
    table = Table(EventStore(tmp_path / "save.sqlite3"), SeededCup(3))
    table.new_game(NAME, list(FOUR))
    assert table.state.phase == "placement"
    where = {"red": {"pinup": 1, "tough": 4, "gunman": "eaten"}, "blue": {"pinup": 3, "tough": 3, "gunman": 5},
             "yellow": {"pinup": 6, "tough": 6, "gunman": 4}, "green": {"pinup": 5, "tough": 1, "gunman": "eaten"}}
    figures = {f"figure.{colour}.{kind}": place for colour, kinds in where.items() for kind, place in kinds.items()}
    with pytest.raises(IllegalAction) as refused:  # a phase chosen, yet figures left off the board
        table.correct({"phase": "truck", "round": 3, **dict(list(figures.items())[:5])})
    assert refused.value.code == "mall.edit.refuse.unplaced" and refused.value.params["count"] == 7
    assert "7 figures are not on the board yet" in refused.value.text("en")
    table.correct({"phase": "truck", "round": 3, "zombies.1": 2, "zombies.6": 1, **figures})
    state = table.state
    assert (state.round, state.phase) == (3, "truck")
    assert sorted((c.colour, c.kind, c.location) for c in state.characters) == sorted(
        (colour, kind, place) for colour, kinds in where.items() for kind, place in kinds.items() if place != "eaten")
    assert state.zombies[0] == 2 and state.zombies[5] == 1
    keys = [line.message.key for line in table.narration()]
    assert keys.count("correction.n.changed") == 4 + len(figures)  # the phase, the round, two zombie counts
    play_to_the_end(table)
    assert table.state.over


# -- each fact corrected, and the game goes on ---------------------------------------------------------------


def test_a_figure_moved_to_the_parking_joins_the_truck_search_vote_nobody_has_voted_in_yet(tmp_path):
    table = table_at(tmp_path, TRUCK)
    assert table.view(None)["vote"]["weights"] == {"red": 1, "blue": 1, "yellow": 2, "green": 2}
    assert edits_of(table)["figure.red.tough"]["at"] == "1"
    table.correct({"figure.red.tough": 4})  # Red's Tough Guy was in the Parking all along
    assert table.view(None)["vote"]["weights"] == {"red": 2, "blue": 1, "yellow": 2, "green": 2}
    zones = {z["id"]: z for p in table.view(None)["parts"]["main"] if p["part"] == "zones" for z in p["zones"]}
    assert ("red", "mall.character.tough") in {(t["seat"], t["name"]["key"]) for t in zones["4"]["tokens"]}
    assert ("red", "mall.character.tough") not in {(t["seat"], t["name"]["key"]) for t in zones["1"]["tokens"]}
    said = [catalogue().text(line.message) for line in table.narration()[-2:]]
    assert said == ["Corrected: Red's Tough Guy 1 Restroom → 4 Parking",  # the correction first,
                    "Truck search: Red, Blue, Yellow and Green vote in 4 Parking"]  # then the vote asked anew
    play_to_the_end(table)


def test_figures_eaten_leave_one_colour_in_the_parking_who_searches_the_truck_alone(tmp_path):
    table = table_at(tmp_path, TRUCK)
    table.correct({"figure.blue.pinup": "eaten", "figure.yellow.gunman": 6, "figure.green.gunman": 6})
    state = table.state
    assert not any((c.colour, c.kind) == ("blue", "pinup") for c in state.characters)
    assert state.step == "gift" and state.searcher == "red"  # Red alone in the Parking: no vote, he searches
    assert state.deck == 10 and state.hands["red"] == 2
    assert shown(table.view(None)["parts"])["figure.yellow.gunman"] == 6
    assert "figure.blue.pinup" not in edits_of(table)  # an eaten figure is off the board for good
    corrections = [line for line in table.narration() if line.message.key == "correction.n.changed"]
    assert catalogue().text(corrections[-3].message, "en") == \
        "Corrected: Blue's Pin-up 4 Parking → eaten (off the board)"
    play_to_the_end(table)


def test_zombies_corrected_below_the_defence_end_the_victim_vote_before_anyone_voted(tmp_path):
    table = table_at(tmp_path, ATTACK)
    assert table.view(None)["vote"]["purpose"] == "victim" and table.state.zombies[0] == 5
    table.correct({"zombies.1": 1})
    said = [line.message for line in table.narration()]
    opened = max(i for i, message in enumerate(said) if message.key == "mall.n.vote.start.victim")
    after = said[opened + 1:]
    assert any(m.key == "mall.n.repelled" and m.params["location"] == 1 for m in after)  # it holds: no vote
    assert not any(m.key.startswith("mall.n.kill") for m in after)  # nobody is eaten in the Restroom
    assert {(c.colour, c.location) for c in table.state.characters if c.kind == "pinup"} >= {("red", 1), ("blue", 1)}
    assert table.state.zombies[0] == 1 and shown(table.view(None)["parts"])["zombies.1"] == 1  # they stay
    play_to_the_end(table)


def test_an_attacks_card_window_opens_again_on_the_corrected_board(tmp_path):
    table = table_at(tmp_path, {**ATTACK, "hands": {"red": 1, "blue": 1, "yellow": 0, "green": 0}, "deck": 15})
    assert table.state.window.location == 1 and table.state.window.seats == ("red", "blue")
    table.correct({"figure.blue.pinup": 4})  # Blue's Pin-up ran to the Parking: Red alone is there, with a card
    assert table.state.window.location == 1 and table.state.window.seats == ("red",)
    assert table.rules.prompt(table.state).seats == ("red",)
    table.correct({"zombies.1": 0})  # no zombie came in after all: the Restroom holds, nobody plays a card there
    assert table.state.window is None or table.state.window.location != 1
    play_to_the_end(table)


def test_a_threat_played_before_a_victim_vote_still_counts_when_the_vote_opens_again(tmp_path):
    table = table_at(tmp_path, {**ATTACK, "hands": {"red": 1, "blue": 0, "yellow": 0, "green": 0}, "deck": 16})
    table.answer({"seat": "red", "play": "threat"})  # his last card: the window closes, the vote opens
    assert table.view(None)["vote"]["weights"] == {"red": 2, "blue": 1}
    table.correct({"figure.blue.gunman": 1})  # Blue's Gunman stood in the Restroom too: two more votes for Blue
    assert table.view(None)["vote"]["weights"] == {"red": 2, "blue": 3}
    play_to_the_end(table)


def test_a_location_closes_once_its_zombies_have_left_and_a_closed_one_opens(tmp_path):
    table = table_at(tmp_path, TRUCK)
    table.correct({"zombies.6": 0, "closed.6": True})  # the Supermarket fell: its zombies left, it is closed
    assert 6 in table.state.closed and "zombies.6" not in edits_of(table)
    assert shown(table.view(None)["parts"])["closed.6"] is True
    table.correct({"closed.2": False})  # Cachou is open after all
    assert 2 not in table.state.closed and shown(table.view(None)["parts"])["closed.2"] is False
    assert edits_of(table)["zombies.2"]["value"] == 0
    play_to_the_end(table)


def test_the_cards_in_hand_and_in_the_truck_deck(tmp_path):
    table = table_at(tmp_path, TRUCK)
    table.correct({"hand.yellow": 3, "deck": 9})
    assert table.state.hands["yellow"] == 3 and table.state.deck == 9
    board = shown(table.view(None)["parts"])
    assert (board["hand.yellow"], board["deck"]) == (3, 9)
    play_to_the_end(table)


def test_an_empty_truck_deck_ends_the_search_vote_nobody_has_voted_in(tmp_path):
    table = table_at(tmp_path, TRUCK)
    table.correct({"deck": 0})
    assert table.state.vote is None or table.state.vote.purpose != "truck"
    assert "mall.n.truck.empty" in [line.message.key for line in table.narration()]
    play_to_the_end(table)


def test_the_chief_and_the_round(tmp_path):
    table = table_at(tmp_path, TRUCK)
    chief = edits_of(table)["chief"]
    assert chief["value"] == "red" and [c["value"] for c in chief["choices"]] == FOUR
    table.correct({"chief": "green", "round": 3})
    assert (table.state.chief, table.state.round) == ("green", 3)
    board = shown(table.view(None)["parts"])
    assert (board["chief"], board["round"]) == ("green", 3)
    assert table.view(None)["round"] == 3
    play_to_the_end(table)


def test_the_phase_starts_as_a_position_starts_it_and_never_goes_back_before_the_dice(tmp_path):
    table = table_at(tmp_path, TRUCK)
    phase = edits_of(table)["phase"]
    # Before the dice: any phase of the round a position may start at (the moves need every destination).
    assert [c["value"] for c in phase["choices"]] == ["truck", "chief", "arrival", "destination", "attack"]
    table.correct({"phase": "arrival"})  # the truck was searched, the Chief kept his badge: the dice are rolled
    assert table.state.phase == "arrival" and table.state.cup is not None and table.state.vote is None
    assert "cup" not in table.view(None) and table.view(None)["cup_rolled"] is True  # secret, as rolled
    assert shown(table.view(None)["parts"])["phase"] == "arrival"
    assert [c["value"] for c in edits_of(table)["phase"]["choices"]] == ["arrival", "destination", "attack"]
    play_to_the_end(table)


def test_who_looked_at_the_secret_dice_still_may_when_the_phase_is_corrected(tmp_path):
    table = table_at(tmp_path, TRUCK)
    table.correct({"phase": "arrival"})
    assert table.rules.prompt(table.state).seats == ("red",)  # the Security Camera window, from the Chief
    table.answer({"seat": "red", "play": "camera"})
    seen = table.view("red")["cup_seen"]
    table.correct({"phase": "destination"})  # the others passed on the board
    assert table.state.phase == "destination"
    assert table.view("red")["cup_seen"] == seen and "cup_seen" not in table.view("blue")
    play_to_the_end(table)


def test_a_player_whose_last_figure_is_eaten_chooses_where_his_zombie_goes(tmp_path):
    table = table_at(tmp_path, {**TRUCK, "phase": "destination", "cup": [1, 3, 5, 6]})
    assert table.question("green").title.key == "mall.q.destination"
    table.correct({"figure.green.pinup": "eaten", "figure.green.tough": "eaten", "figure.green.gunman": "eaten"})
    assert table.question("green").title.key == "mall.q.zombie_destination"
    assert "green" in table.state.zombie_players  # his zombie comes at the end of the round
    play_to_the_end(table)


def test_after_the_reveal_the_phase_only_goes_on(tmp_path):
    move = {**TRUCK, "phase": "move", "cup": [1, 3, 5, 6], "destinations": {"red": 6, "blue": 6, "yellow": 6,
                                                                             "green": 6}}
    table = table_at(tmp_path, move)
    assert table.state.phase == "move"
    assert [c["value"] for c in edits_of(table)["phase"]["choices"]] == ["move", "attack"]
    before = len(table.narration())
    table.correct({"phase": "attack"})  # the moves are made on the board already
    said = [line.message.key for line in table.narration()[before:]]
    assert table.state.phase == "attack" and shown(table.view(None)["parts"])["phase"] == "attack"
    assert "mall.n.put.crowd" in said and not any(key.startswith("mall.n.move") for key in said)
    assert "phase" not in edits_of(table)  # the attack is the round's last phase: nothing after it to set
    play_to_the_end(table)


def test_a_correction_that_brings_the_rescue_ends_the_game(tmp_path):
    table = table_at(tmp_path, {**TRUCK, "phase": "move", "cup": [1, 3, 5, 6],
                                "destinations": {"red": 6, "blue": 6, "yellow": 6, "green": 6}})
    assert table.state.step == "move"
    eaten = {"figure.blue.tough": "eaten", "figure.blue.gunman": "eaten", "figure.yellow.pinup": "eaten",
             "figure.yellow.tough": "eaten", "figure.yellow.gunman": "eaten", "figure.green.tough": "eaten",
             "figure.green.gunman": "eaten", "figure.red.tough": "eaten"}
    table.correct(eaten)  # four characters live: rescue comes at once (the default timing)
    assert table.state.over and len(table.state.characters) == 4
    assert table.view(None)["winners"] == ["red"]  # Pin-up and Gunman: 10 points


PLAYERS = {3: ["red", "yellow", "blue"], 4: FOUR, 5: ["red", "yellow", "blue", "green", "purple"],
           6: ["red", "yellow", "blue", "green", "purple", "black"]}


@pytest.mark.parametrize("seed", range(12))
def test_whatever_the_table_corrects_at_any_moment_the_rules_play_on_to_the_end(seed):
    """Random games, corrected at random moments with a few facts set to values their edits allow: a correction is
    refused in one line, or the game goes on with every seat asked able to answer, the zombies never negative and
    no location over its capacity, until rescue comes."""
    from companion.correction import corrected
    from companion.games.mall_of_horror.board import CAPACITY, LOCATIONS
    from companion.simulate import cup_event

    rng = random.Random(seed)
    players = PLAYERS[3 + seed % 4]
    options = {"end_timing": rng.choice(["immediate", "round_end"]),
               "second_tie_victim": rng.choice(["character", "colour"])}
    events, _ = random_game(mall, players, rng, options, close_chance=0.1)
    state, went_on = mall.start(players, options), 0
    for event in events:
        state = mall.apply(state, event)
        offered = mall.edits(state)
        if state.over or not offered or rng.random() > 0.4:
            continue
        changes = {}
        for edit in rng.sample(offered, min(2, len(offered))):
            values = [c.value for c in edit.choices] if edit.choices else range(edit.low, min(edit.high, 6) + 1)
            changes[edit.id] = rng.choice(list(values))
        try:
            game = corrected(mall, state, changes)
        except IllegalAction as refusal:
            assert "\n" not in refusal.text()
            continue
        for _ in range(3000):
            assert all(n >= 0 for n in game.zombies)
            assert all(CAPACITY[loc] is None or len(game.at(loc)) <= CAPACITY[loc] for loc in LOCATIONS)
            if game.over:
                break
            request = mall.cup_request(game)
            if request is not None:
                game = mall.apply(game, cup_event(request, rng))
                continue
            asked = mall.prompt(game)
            assert all(asked.options[seat] for seat in asked.seats), (changes, game.phase, game.step)
            action = random_answer(mall, game, rng.choice(asked.seats), rng)
            game = mall.apply(game, mall.decide(game, action)[0])
        assert game.over
        went_on += 1
    assert went_on >= 3


# -- impossible boards ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("changes, key", [
    ({"figure.red.pinup": 1}, "mall.position.over_capacity"),  # a fourth character in the Restroom
    ({"figure.red.pinup": 2}, "correction.value"),  # Cachou is closed at four players: not even offered
    ({"closed.4": True}, "correction.unknown"),  # the Parking never closes: not even offered
    ({"closed.6": True}, "mall.edit.refuse.closed_zombies"),  # its 2 zombies are still there
    ({"deck": 21}, "mall.edit.refuse.cards"),  # 21 + 4 in hands: more action cards than the box has
    ({"hand.red": 14}, "mall.edit.refuse.cards"),
    ({"figure.red.pinup": "eaten", "figure.red.tough": "eaten", "figure.red.gunman": "eaten"},
     "mall.position.chief_out"),  # the badge first
])
def test_an_impossible_board_is_refused_in_one_line_and_nothing_changes(tmp_path, changes, key):
    table = table_at(tmp_path, TRUCK)
    refusal = refused(table, changes)
    assert refusal.code == key
    for lang in ("en", "zh-Hans", "zh-Hant", "vi"):
        words = refusal.text(lang)
        assert words and "\n" not in words and "{" not in words and refusal.code not in words


def test_a_figure_cannot_be_in_two_places_each_has_one_edit_with_one_value(tmp_path):
    table = table_at(tmp_path, TRUCK)
    figures = [edit for edit in table.edits() if edit["id"].startswith("figure.")]
    assert len(figures) == len({e["id"] for e in figures}) == len(table.state.characters) == 12
    assert all(type(e["value"]) is int for e in figures)


# -- secrets, and steps that read the board -------------------------------------------------------------------


def test_a_cast_ballot_holds_every_correction_until_the_reveal(tmp_path):
    table = table_at(tmp_path, TRUCK)
    table.answer({"seat": "yellow", "vote": "yellow"})
    assert table.edits() == []
    with pytest.raises(TableError) as caught:
        table.correct({"zombies.6": 3})
    assert caught.value.code == "table.correct_secret"


def test_a_secret_destination_chosen_holds_every_correction_and_none_names_it(tmp_path):
    table = table_at(tmp_path, {**TRUCK, "phase": "destination", "elected": True, "cup": [1, 1, 3, 6]})
    assert table.state.step == "chief"
    assert "chief" not in edits_of(table)  # the elected Chief saw the dice and chooses first: his badge waits
    table.answer({"seat": "red", "go": 6})  # the elected Chief's choice is public
    assert edits_of(table)  # nobody has chosen in secret yet
    table.answer({"seat": "blue", "go": 5})
    assert table.edits() == []


def test_while_the_loser_chooses_his_victim_the_figures_and_the_zombies_there_wait(tmp_path):
    victim = {**ATTACK, "characters": {**ATTACK["characters"], "blue": {"pinup": 1, "tough": 6, "gunman": 1}}}
    table = table_at(tmp_path, victim)
    table.answer({"seat": "red", "vote": "blue"})
    table.answer({"seat": "blue", "vote": "blue"})
    assert table.state.step == "victim" and table.state.victim_colour == "blue"  # his Pin-up or his Gunman?
    edits = edits_of(table)
    assert not any(key.startswith("figure.") for key in edits) and "zombies.1" not in edits
    assert "zombies.3" in edits and "hand.blue" in edits and "chief" in edits
    table.correct({"zombies.3": 1})  # elsewhere, the board is corrected
    assert table.state.step == "victim" and table.state.zombies[2] == 1
    play_to_the_end(table)


def test_a_sprinter_s_own_figures_wait_while_he_chooses_which_runs(tmp_path):
    move = {**TRUCK, "phase": "move", "cup": [1, 3, 5, 6], "hands": {"red": 1, "blue": 0, "yellow": 0, "green": 0},
            "played": {"threat": 0, "camera": 3, "hardware": 3, "hidden": 3, "weapon2": 3, "weapon1": 3},
            "deck": 2, "destinations": {"red": 6, "blue": 6, "yellow": 6, "green": 6}}
    table = table_at(tmp_path, move)
    assert table.rules.prompt(table.state).seats == ("red",)
    table.answer({"seat": "red", "play": "sprint", "go": 3})
    assert table.state.step == "sprint"
    figures = {key.split(".")[1] for key in edits_of(table) if key.startswith("figure.")}
    assert figures == {"blue", "yellow", "green"}


# -- undo, a restart, the words ------------------------------------------------------------------------------


def test_a_correction_then_undo_gives_back_the_same_record(tmp_path):
    table = table_at(tmp_path, TRUCK)
    before = table.record()
    table.correct({"figure.red.tough": 4, "zombies.3": 4, "closed.6": True, "zombies.6": 0})
    assert table.record() != before
    table.undo()
    assert table.record() == before


def test_a_correction_survives_a_restart(tmp_path):
    table = table_at(tmp_path, TRUCK)
    table.correct({"figure.yellow.gunman": 5, "phase": "chief"})
    record = table.record()
    table.store.close()
    again = Table(EventStore(tmp_path / "save.sqlite3"), SeededCup(2))
    again.resume()
    assert again.record() == record
    assert again.state.phase == "chief" and any((c.colour, c.kind, c.location) == ("yellow", "gunman", 5)
                                                for c in again.state.characters)
    play_to_the_end(again)


def test_every_fact_and_its_values_are_named_in_the_four_languages(tmp_path):
    table = table_at(tmp_path, TRUCK)
    names = [Message(e["label"]["key"], e["label"]["params"]) for e in table.edits()]
    names += [Message(c["label"]["key"], c["label"]["params"]) for e in table.edits() for c in e.get("choices", [])]
    for lang in ("en", "zh-Hans", "zh-Hant", "vi"):
        for name in names:
            assert catalogue().has(name.key, lang) and "{" not in catalogue().text(name, lang), (name, lang)
    words = {lang: catalogue().text(Message("mall.edit.zombies", {"location": 4}), lang)
             for lang in ("en", "zh-Hans", "zh-Hant", "vi")}
    assert words == {"en": "Zombies at 4 Parking", "zh-Hans": "4 停车场的丧尸", "zh-Hant": "4 停車場的殭屍",
                     "vi": "Zombie ở 4 Parking Lot (khu đỗ xe)"}
