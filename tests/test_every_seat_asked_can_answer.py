"""Never a seat asked with no answer: in every game, each state asks seats that can answer, asks the cup, or is over.

Random whole games of the four games and the toy game, with random table options, answered as bots on phones
would: only from what each seat's question shows (its choices, its number range, its assignment). At every state:
- the game is over, or it asks the cup, or it asks at least one seat (never a prompt with nobody in it);
- every seat asked has a question with at least one answer to give, and one of them is accepted by the rules;
- the prompt's legal answers and the question agree: every action the prompt lists is one the question offers.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.contract import ASSIGN, BALLOT, CARDS, NUMBER, PICK, IllegalAction, Question
from companion.games import GAMES
from companion.simulate import cup_event, in_range

sys.path.insert(0, str(Path(__file__).parent))
import toy_game  # noqa: E402

RULES = {**GAMES, toy_game.NAME: toy_game}


def shown_answers(question: Question, rng: random.Random) -> list[dict]:
    """The answers a seat can give from its question alone, as a phone's buttons, number field or sheet offer."""
    if question.kind in (PICK, BALLOT, CARDS):
        return [dict(choice.action) for choice in question.choices]
    assert question.kind in (NUMBER, ASSIGN), question.kind
    return in_range(question, rng)


def random_options(rules, rng: random.Random) -> dict:
    return {o.name: _json_value(rng.choice(o.choices).value) for o in rules.SETUP.options if rng.random() < 0.7}


def _json_value(value: str):
    return {"true": True, "false": False}.get(value, value)


def accepted(rules, state, answer: dict) -> bool:
    try:
        rules.decide(state, answer)
    except IllegalAction:
        return False
    return True


def late_mall_position(rng: random.Random, players: list[str]) -> dict:
    """A Mall of Horror game late in the evening: most locations closed, the figures crowded into the rest."""
    closed = rng.sample([1, 2, 3, 5, 6], rng.randint(3, 5))
    open_ = [loc for loc in (1, 2, 3, 4, 5, 6) if loc not in closed]
    figures = ["pinup", "tough", "gunman", "girl"] if len(players) == 3 else ["pinup", "tough", "gunman"]
    characters = {p: {f: rng.choice(open_) for f in figures if rng.random() < 0.7} for p in players}
    characters[players[0]] = characters[players[0]] or {"tough": 4}
    return {"round": rng.randint(3, 9), "phase": "truck", "chief": rng.choice(players), "closed": closed,
            "characters": characters, "hands": dict.fromkeys(players, 0), "deck": rng.randint(0, 10)}


def play_and_check(name: str, seed: int, limit: int = 4000, late: bool = False) -> int:
    """Plays one random game of `name`, checking every state; returns the number of questions asked."""
    rules, rng = RULES[name], random.Random(seed)
    count = rng.randint(rules.SETUP.min_players, min(rules.SETUP.max_players, len(rules.SETUP.colours)))
    players = list(rules.SETUP.colours[:count])
    if late:
        try:
            state = rules.start(players, random_options(rules, rng), late_mall_position(rng, players))
        except IllegalAction:
            return 0  # over capacity, say: the position is refused, as it should be
    else:
        state = rules.start(players, random_options(rules, rng))
    asked = 0
    for step in range(limit):
        if state.over:
            assert rules.prompt(state) is None, f"{name} seed {seed}: the game is over but still asks"
            return asked
        request = rules.cup_request(state)
        if request is not None:
            state = rules.apply(state, cup_event(request, rng))
            continue
        prompt = rules.prompt(state)
        where = f"{name} seed {seed} step {step} ({getattr(state, 'step', getattr(state, 'phase', '?'))})"
        assert prompt is not None, f"{where}: not over, no cup request, and nobody asked: the table would wait forever"
        assert prompt.seats, f"{where}: a prompt that asks nobody"
        answers = {}
        for seat in prompt.seats:
            question = rules.question(state, seat)
            assert question is not None, f"{where}: {seat} is asked but has no question"
            shown = shown_answers(question, rng)
            assert shown, f"{where}: {seat} is asked ({question.kind}) with no answer to give"
            listed = [dict(a) for a in prompt.options[seat]]
            if question.kind in (PICK, BALLOT, CARDS):  # the legal answers, written once: the choices label them
                assert listed == shown, f"{where}: the prompt's legal answers are not {seat}'s question's choices"
            else:  # a number or an assignment: its question says the range, the prompt lists nothing
                assert listed == [], f"{where}: the prompt lists answers to {seat}'s {question.kind}"
            answers[seat] = shown
        asked += 1
        seat = rng.choice(prompt.seats)
        choices = answers[seat]
        rng.shuffle(choices)
        answer = next((a for a in choices if accepted(rules, state, a)), None)
        assert answer is not None, f"{where}: none of the answers {seat}'s question shows is accepted"
        state = rules.apply(state, answer)
    raise AssertionError(f"{name} seed {seed}: no end after {limit} steps")


@pytest.mark.parametrize("name", sorted(RULES))
def test_every_game_asks_only_seats_that_can_answer(name):
    asked = sum(play_and_check(name, seed) for seed in range(6))
    assert asked > 20  # the games were really played


@settings(max_examples=40, deadline=None, database=None)
@given(name=st.sampled_from(sorted(RULES)), seed=st.integers(0, 10**9))
def test_property_every_state_asks_a_seat_with_an_answer_asks_the_cup_or_is_over(name, seed):
    play_and_check(name, seed)


def test_a_mall_of_horror_player_left_with_no_legal_destination_is_not_asked():
    """Everything but the Parking closed and all of Red's figures in it: the game goes on without asking Red."""
    position = {"round": 6, "phase": "truck", "chief": "red", "closed": [1, 2, 3, 5, 6],
                "characters": {"red": {"pinup": 4, "tough": 4, "gunman": 4}, "blue": {"tough": 4},
                               "yellow": {"gunman": 4}},
                "hands": {"red": 0, "blue": 0, "yellow": 0}, "deck": 5}
    rules, rng = RULES["mall-of-horror"], random.Random(1)
    state = rules.start(["red", "blue", "yellow"], None, position)
    for _ in range(200):
        if state.over:
            return
        request = rules.cup_request(state)
        if request is not None:
            state = rules.apply(state, cup_event(request, rng))
            continue
        prompt = rules.prompt(state)
        assert prompt is not None and prompt.seats
        for seat in prompt.seats:
            question = rules.question(state, seat)
            assert question is not None and shown_answers(question, rng), f"{seat} asked with no answer"
        seat = prompt.seats[0]
        answer = next(a for a in shown_answers(rules.question(state, seat), rng) if accepted(rules, state, a))
        state = rules.apply(state, answer)


@settings(max_examples=60, deadline=None, database=None)
@given(seed=st.integers(0, 10**9))
def test_property_late_mall_of_horror_games_ask_only_seats_that_can_answer(seed):
    play_and_check("mall-of-horror", seed, late=True)
