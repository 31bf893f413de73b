"""Random legal games, for property tests and benchmarks: random answers to every prompt, random dice."""

from __future__ import annotations

import random
from types import ModuleType

from companion.contract import ASSIGN, NUMBER, CupRequest, IllegalAction, Question


def cup_event(request: CupRequest, rng: random.Random) -> dict:
    if request.kind == "roll":
        return {"roll": [rng.randint(1, 6) for _ in range(request.count)]}
    return {"pick": rng.randrange(request.count)}


def random_game(rules: ModuleType, players: list[str], rng: random.Random, options: dict | None = None,
                max_events: int = 20_000, close_chance: float = 0.0):
    """Play a whole game with random legal answers; return (events, final state)."""
    state = rules.start(players, options)
    events: list[dict] = []
    while not state.over:
        if len(events) >= max_events:
            raise RuntimeError(f"the game did not end after {max_events} events")
        request = rules.cup_request(state)
        if request is not None:
            event = cup_event(request, rng)
        else:
            prompt = rules.prompt(state)
            if prompt.kind == "ballot" and close_chance and rng.random() < close_chance:
                action = {"close": True}
            else:
                action = random_answer(rules, state, rng.choice(prompt.seats), rng)
            (event,) = rules.decide(state, action)  # as a table plays it: the rules check the answer once
        state = rules.apply(state, event)
        events.append(event)
    return events, state


def in_range(question: Question, rng: random.Random, guesses: int = 20) -> list[dict]:
    """Answers to a number or an assignment, from the question alone (its range, its items and targets): every
    number in order, or the rules' proposal first and then `guesses` random assignments."""
    if question.kind == NUMBER:
        if question.low is None or question.high is None:
            return []
        return [{**question.answer, question.field: n} for n in range(question.low, question.high + 1)]
    if question.kind != ASSIGN or not question.items or not question.targets:
        return []
    proposals = [dict(question.answer)] if question.field in question.answer else []
    targets = [t.value for t in question.targets]
    return proposals + [{**question.answer, question.field: {i.value: rng.choice(targets) for i in question.items}}
                        for _ in range(guesses)]


def random_answer(rules: ModuleType, state: object, seat: str, rng: random.Random) -> dict:
    """A random legal answer of `seat`: one of the prompt's legal answers, or a number (or an assignment) its
    question allows that the rules accept (some numbers are refused at some lines: a kind said to be 0 before)."""
    options = rules.prompt(state).options[seat]
    if options:
        return rng.choice(options)
    question = rules.question(state, seat)
    answers = in_range(question, rng)
    rng.shuffle(answers)
    for answer in answers:
        try:
            rules.decide(state, answer)
        except IllegalAction:
            continue
        return answer
    raise RuntimeError(f"no answer in the range of {question.id} is accepted")


def play_table(table, game: str, players: list[str], rng: random.Random, names: dict[str, str] | None = None,
               max_answers: int = 20_000) -> int | None:
    """A whole game through `table` (a companion.table.Table: its cup rolls when asked, its save file keeps the
    game), random legal answers from random seats; the game's id in the save file."""
    table.new_game(game, players, {}, names=names)
    for _ in range(max_answers):
        if table.state.over:
            return table.game_id
        seat = rng.choice(table.rules.prompt(table.state).seats)
        table.answer(random_answer(table.rules, table.state, seat, rng))
    raise RuntimeError(f"the game did not end after {max_answers} answers")
