"""The game contract, kept by every registered game and the toy: played whole through a real Table with random
legal answers, at every step the public view has the keys and types of contract.PublicView, each seat's view those
of a seat, the record those of contract.Record (one shape for every game), and the record's legal answers agree
with the questions the seats are shown; a question a seat answered, once closed, is never asked of it again
(a phone drops an id it has answered: an id asked again would stall the table); and an answer is checked once
(decide), a stored one once more when the save file is read back (logged), never by apply."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from test_every_seat_asked_can_answer import accepted, shown_answers

from companion.contract import (
    BALLOT,
    CARDS,
    PICK,
    PUBLIC_VIEW_KEYS,
    RECORD_KEYS,
    SEAT_VIEW_KEYS,
    Game,
    PublicView,
    Record,
)
from companion.cup import DiceCup
from companion.games import GAMES
from companion.store import EventStore
from companion.table import Table

sys.path.insert(0, str(Path(__file__).parent))
import toy_game  # noqa: E402

NAMES = [*GAMES, toy_game.NAME]
TYPES = {"game": str, "players": list, "round": int, "over": bool, "winners": list, "scores": dict,
         "prompt": (dict, type(None)), "narration": list, "undone": list, "cup_rolls": list, "can_undo": int,
         "parts": dict, "rules": dict, "first": list, "table_options": dict, "waiting": list, "options": dict,
         "question": (dict, type(None)), "narration_mine": list, "secrets": list, "state": dict,
         "undo_why": (dict, type(None)), "names": dict,
         "revealing": (dict, type(None))}


def test_the_typed_view_and_record_name_every_key_they_check():
    assert set(PublicView.__annotations__) == PUBLIC_VIEW_KEYS and set(Record.__annotations__) == RECORD_KEYS
    assert (PUBLIC_VIEW_KEYS | RECORD_KEYS) <= set(TYPES)


@pytest.mark.parametrize("name", NAMES)
def test_every_game_has_every_function_and_name_of_the_contract(name, lucky_die):
    rules = GAMES[name]
    for member in [*Game.__annotations__, *(n for n in vars(Game) if not n.startswith("_"))]:
        assert hasattr(rules, member), f"{name} lacks {member}"


def check_keys(what: str, out: dict, keys: frozenset) -> None:
    missing = keys - set(out)
    assert not missing, f"{what} lacks {sorted(missing)}"
    for key in keys:
        assert isinstance(out[key], TYPES[key]), f"{what}[{key!r}] is {out[key]!r}"
    json.dumps(out)  # every key, the game's own ones too, is JSON


def check_moment(table: Table, name: str) -> None:
    state = table.state
    public = table.view(None)
    check_keys("the public view", public, PUBLIC_VIEW_KEYS)
    assert public["game"] == name and public["players"] == list(state.players)
    assert public["over"] == state.over and public["winners"] == list(state.winners)
    assert set(public["scores"]) <= set(state.players)
    assert all(type(points) is int for points in public["scores"].values())
    for seat in state.players:
        check_keys(f"{seat}'s view", table.view(seat), SEAT_VIEW_KEYS)

    record = table.record()
    check_keys("the record", record, RECORD_KEYS)
    assert record["game"] == name and record["players"] == public["players"]
    assert (record["over"], record["winners"], record["scores"]) == (public["over"], public["winners"],
                                                                   public["scores"])
    shown_prompt = {k: v for k, v in public["prompt"].items() if k not in ("rule", "now")} if public["prompt"] else None
    assert record["prompt"] == shown_prompt  # the view's adds the rule behind it (companion/rulebook.py)
    assert record["waiting"] == (public["prompt"]["waiting"] if public["prompt"] else [])
    assert set(record["options"]) == set(record["waiting"])
    shown_lines = [{k: v for k, v in line.items() if k not in ("rule", "now")} for line in public["narration"]]
    assert record["narration"][-len(shown_lines):] == shown_lines or not shown_lines
    assert all(line["rule"] in public["rules"] for line in public["narration"])  # "Why?": its words are there
    for seat in record["waiting"]:
        question = table.question(seat)
        assert question is not None and question.seat == seat, f"{seat} waits with no question"
        if question.kind in (PICK, BALLOT, CARDS):  # the legal answers, written once: the choices label them
            shown = [dict(choice.action) for choice in question.choices]
            assert record["options"][seat] == shown, (seat, question.kind)
        else:  # a number or an assignment: its question says the range; the legal answers list none
            assert record["options"][seat] == [], (seat, question.kind)


class AskedOnce:
    """Each seat's answered question ids. After its answer a question stays open only as a secret answer the seat
    may still change (shown `answered`); otherwise it is closed, and its id is never asked of the seat again."""

    def __init__(self) -> None:
        self.open: dict[str, str] = {}  # seat -> the id of the question it answered, still open
        self.closed: dict[str, set[str]] = {}

    def answered(self, seat: str, question_id: str) -> None:
        self.open[seat] = question_id

    def check(self, table: Table, name: str, step: int) -> None:
        for seat in table.state.players:
            question = table.question(seat)
            if seat in self.open and not (question is not None and question.id == self.open[seat]
                                          and question.answered):
                self.closed.setdefault(seat, set()).add(self.open.pop(seat))
            asked = question.id if question is not None else None
            assert asked not in self.closed.get(seat, ()), \
                f"{name}: {seat} is asked {asked!r} again at step {step}, answered and closed before"


@pytest.mark.parametrize("name", NAMES)
def test_a_random_game_keeps_the_contract_at_every_step(name, lucky_die):
    rules = GAMES[name]
    rng = random.Random(name)
    setup = rules.SETUP
    for _game in range(2):
        count = rng.randint(setup.min_players, min(setup.max_players, len(setup.colours)))
        options = {o.name: rng.choice(o.choices).value for o in setup.options}
        options = {k: {"true": True, "false": False}.get(v, v) for k, v in options.items()}
        table = Table(None, DiceCup())
        table.new_game(name, list(setup.colours[:count]), options)
        resolved = table.record()["table_options"]
        assert set(options) <= set(resolved)  # every option the game was started with, by its name
        steps, once = 0, AskedOnce()
        while not table.state.over:
            check_moment(table, name)
            once.check(table, name, steps)
            prompt = rules.prompt(table.state)
            assert prompt is not None, f"{name} waits for nobody"
            seat = rng.choice(prompt.seats)
            once.answered(seat, table.question(seat).id)
            answers = list(prompt.options[seat]) or shown_answers(table.question(seat), rng)  # a number, a sheet
            rng.shuffle(answers)
            table.answer(next(a for a in answers if accepted(rules, table.state, a)))
            steps += 1
            assert steps < 5000, f"{name} did not end"
        check_moment(table, name)
        once.check(table, name, steps)
        again = Table(None, DiceCup())
        again.new_game(name, list(table.state.players), resolved)  # the record's options start the same game
        assert again.record()["table_options"] == resolved


class Checks:
    """Counts the calls of a game's answer check (its `check`, the toy's `_check`) while a block runs."""

    def __init__(self, rules) -> None:
        self.code = (getattr(rules, "check", None) or rules._check).__code__
        self.count = 0

    def __enter__(self) -> Checks:
        sys.setprofile(self._seen)
        return self

    def __exit__(self, *_exc) -> None:
        sys.setprofile(None)

    def _seen(self, frame, event, _arg) -> None:
        if event == "call" and frame.f_code is self.code:
            self.count += 1


@pytest.mark.parametrize("name", NAMES)
def test_an_answer_is_checked_once_and_a_stored_one_once_more_when_read_back(name, lucky_die, tmp_path):
    """decide checks an answer and apply trusts it; a save file read back is checked once on the way in (logged)."""
    rules = GAMES[name]
    rng = random.Random(name)
    setup = rules.SETUP
    players = list(setup.colours[:setup.min_players])
    table = Table(EventStore(tmp_path / "game.sqlite3"), DiceCup())
    table.new_game(name, players)
    answers = 0
    while not table.state.over and answers < 60:
        prompt = rules.prompt(table.state)
        seat = rng.choice(prompt.seats)
        choices = list(prompt.options[seat]) or shown_answers(table.question(seat), rng)
        rng.shuffle(choices)
        action = next(a for a in choices if accepted(rules, table.state, a))
        with Checks(rules) as checks:
            table.answer(action)
        assert checks.count == 1, f"{name}: one answer was checked {checks.count} times"
        answers += 1
    table.store.close()

    stored = sum("answer" in event for event in table.events)
    again = Table(EventStore(tmp_path / "game.sqlite3"), DiceCup())
    with Checks(rules) as checks:
        record = again.store.unfinished() or again.store.history()[0]
        again.load(record)
    assert checks.count == stored and again.record() == table.record()
    again.store.close()


def test_a_line_made_by_contract_line_is_the_line_the_dataclass_makes():
    """`line` (and so every game's `say`) builds a Line without the dataclasses' __init__, for speed: the same Line."""
    from companion.contract import Line, Message, line

    made = line(3, "toy.n.die", act=True, seats=["red"], number=5)
    built = Line(Message("toy.n.die", {"number": 5}), 3, True, ("red",))
    assert made == built and made.to_json() == built.to_json()
    assert made.seats == ("red",) and type(made.seats) is tuple
    assert line(1, "toy.n.die") == Line(Message("toy.n.die", {}), 1)
