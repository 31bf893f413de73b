"""Lucky Die: a tiny game that exists only in the tests, to prove the table and every device know no game.

Two seats. Once, at the start, the first seat hands out the Sun and Moon tokens (an assignment). Each round both
seats vote in secret for who rolls (a tie: the first seat rolls); the roller names a number from 1 to 6; the cup
rolls one die for everyone. A right guess scores a point; the first to `target` points wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from companion.ballot import Ballot, BallotError
from companion.board import (
    Board,
    Cell,
    Chip,
    Edit,
    EditChoice,
    Grid,
    Heading,
    Label,
    Lines,
    Secret,
    Token,
    Zone,
    Zones,
    scores_by_total,
)
from companion.contract import (
    ASSIGN,
    BALLOT,
    NUMBER,
    Choice,
    CupRequest,
    IllegalAction,
    Item,
    Line,
    Narrated,
    Prompt,
    Question,
    RuleBook,
    Setup,
    TableOption,
    msg,
)

NAME = "lucky-die"
LOCALE = Path(__file__).parent / "locale"
TERMS = {"token": "toy.token"}
# Which rule is behind each question and line (its words: toy.rules.* in the catalogue), in the order of play.
RULES = RuleBook(
    family="toy",
    phases=(("round", ("tokens", "vote", "guess")), ("end", ("points",))),
    about={"toy.q.tokens": "tokens", "toy.n.token": "tokens", "toy.q.vote": "vote", "toy.n.roller": "vote",
           "toy.q.guess": "guess", "toy.n.guess": "guess", "toy.n.die": "guess", "toy.n.point": "points",
           "toy.n.winner": "points"},
    options={"points": ("target",)},
)
TOKENS = ("sun", "moon")
STATS = ("toy.stat.rolls",)  # what its statistics count: the rounds a seat was voted to roll
SETUP = Setup(
    title=msg("toy.title"), min_players=2, max_players=2, colours=("red", "blue", "green"),
    options=(TableOption("target", msg("toy.option.target"), (Item("1", msg("toy.option.target.1")),
                                                               Item("2", msg("toy.option.target.2"))), "2"),),
)


@dataclass(frozen=True)
class State(Narrated):
    players: tuple[str, ...]
    target: int
    round: int = 1
    step: str = "tokens"  # tokens, vote, guess, roll, over
    tokens: dict = field(default_factory=dict)
    ballot: Ballot | None = None
    roller: str | None = None
    guess: int | None = None
    scores: dict = field(default_factory=dict)
    winners: tuple[str, ...] = ()
    narration: tuple[Line, ...] = ()

    @property
    def over(self) -> bool:
        return self.step == "over"



def start(players: object, options: object = None, position: object = None) -> State:
    if not isinstance(players, list | tuple) or len(players) != 2 or not all(p in SETUP.colours for p in players) \
            or len(set(players)) != 2:
        raise IllegalAction("toy.refuse.players")
    options = options or {}
    if not isinstance(options, dict) or set(options) - {"target"} or str(options.get("target", "2")) not in "12":
        raise IllegalAction("toy.refuse.options")
    return State(tuple(players), int(options.get("target", 2)), scores=dict.fromkeys(players, 0))


def _vote(state: State) -> State:
    return replace(state, step="vote", ballot=Ballot(state.players, dict.fromkeys(state.players, 1)), roller=None,
                   guess=None)


def prompt(state: State) -> Prompt | None:
    key = (state.round, state.step)
    if state.step == "tokens":
        return Prompt(ASSIGN, {state.players[0]: []}, False, key, "tokens", msg("toy.q.tokens"))
    if state.step == "vote":
        return Prompt(BALLOT, {s: [{"seat": s, "vote": c} for c in state.players] for s in state.ballot.missing},
                      True, key, "vote", msg("toy.q.vote"))
    if state.step == "guess":
        return Prompt(NUMBER, {state.roller: []}, False, key, "guess", msg("toy.q.guess", colour=state.roller))
    return None


def question(state: State, seat: str) -> Question | None:
    current = prompt(state)
    if current is None:
        return None
    if state.step == "vote" and seat in state.players:
        choices = tuple(Choice({"seat": seat, "vote": c}, msg("toy.choice.vote", colour=c), i + 1)
                        for i, c in enumerate(state.players))
        return Question(current.id, seat, BALLOT, "vote", current.title, True, choices,
                        answered=seat in state.ballot.ballots)
    if seat not in current.seats:
        return None
    if state.step == "tokens":
        return Question(current.id, seat, ASSIGN, "tokens", current.title, answer={"seat": seat}, field="give",
                        items=tuple(Item(t, msg(f"toy.token.{t}")) for t in TOKENS),
                        targets=tuple(Item(p, msg(f"colour.{p}")) for p in state.players))
    return Question(current.id, seat, NUMBER, "guess", current.title, answer={"seat": seat}, field="number",
                    low=1, high=6)


def cup_request(state: State) -> CupRequest | None:
    return CupRequest("roll", 1) if state.step == "roll" else None


def decide(state: State, action: object) -> list[dict]:
    _check(state, action)
    return [action]


def logged(state: State, answer: object) -> dict:
    """A stored answer read back from the save file, checked as decide checks an answer."""
    _check(state, answer)
    return answer


def _check(state: State, action: object) -> None:
    if state.over:
        raise IllegalAction("toy.refuse.over")
    if not isinstance(action, dict):
        raise IllegalAction("toy.refuse.shape")
    if action == {"close": True} and state.step == "vote":
        return
    seat = action.get("seat")
    current = prompt(state)
    if seat not in state.players or current is None or (seat not in current.seats and state.step != "vote"):
        raise IllegalAction("toy.refuse.not_asked", colour=str(seat))
    if state.step == "tokens":
        given = action.get("give")
        if set(action) != {"seat", "give"} or not isinstance(given, dict) or set(given) != set(TOKENS) \
                or not all(v in state.players for v in given.values()):
            raise IllegalAction("toy.refuse.tokens")
    elif state.step == "vote":
        if set(action) != {"seat", "vote"}:
            raise IllegalAction("toy.refuse.shape")
        try:
            state.ballot.cast(seat, action["vote"])
        except (BallotError, TypeError):
            raise IllegalAction("toy.refuse.vote", colour=str(action["vote"])) from None
    elif state.step == "guess":
        number = action.get("number")
        if set(action) != {"seat", "number"} or type(number) is not int or not 1 <= number <= 6:
            raise IllegalAction("toy.refuse.number")


def apply(state: State, event: dict) -> State:
    if "roll" in event:
        return _rolled(state, event["roll"][0])
    seat = event.get("seat")
    if state.step == "tokens":
        for token in TOKENS:
            state = state.say("toy.n.token", act=True, token=token, colour=event["give"][token])
        return _vote(replace(state, tokens=dict(event["give"])))
    if state.step == "vote":
        ballot = state.ballot if "close" in event else state.ballot.cast(seat, event["vote"])
        if not ballot.complete and "close" not in event:
            return replace(state, ballot=ballot)
        leaders = ballot.leaders()
        roller = leaders[0] if len(leaders) == 1 else state.players[0]
        tally = ballot.tally()
        state = state.say("toy.n.roller", colour=roller, count=tally.get(roller, 0))
        return replace(state, ballot=None, roller=roller, step="guess")
    state = state.say("toy.n.guess", colour=seat, number=event["number"])
    return replace(state, guess=event["number"], step="roll")


def _rolled(state: State, die: int) -> State:
    state = state.say("toy.n.die", number=die)
    if die != state.guess:
        return _vote(replace(state, round=state.round + 1))
    scores = {**state.scores, state.roller: state.scores[state.roller] + 1}
    state = replace(state, scores=scores).say("toy.n.point", act=True, colour=state.roller)
    if scores[state.roller] >= state.target:
        return replace(state, step="over", winners=(state.roller,)).say("toy.n.winner", colour=state.roller)
    return _vote(replace(state, round=state.round + 1))


def dice_revealed(state: State) -> bool:
    return True  # the die is rolled in the open


def narration(state: State) -> tuple[Line, ...]:
    return state.narration


def view(state: State, seat: str | None = None) -> dict:
    out = {"players": list(state.players), "round": state.round, "over": state.over, "scores": dict(state.scores),
           "winners": list(state.winners), "tokens": dict(state.tokens), "roller": state.roller}
    if seat is not None and state.ballot is not None and seat in state.ballot.ballots:
        out["ballot"] = state.ballot.ballots[seat]
    return out


MARKS = {"sun": "★", "moon": "◆"}  # what each token shows on the touchscreen


def parts(state: State) -> Board:
    """The board as data: a zone per seat (its points, the tokens it holds), the six faces of the die as a grid
    (the guess lit, outlined in the roller's colour), and the scores at the end. Only parts every screen knows."""
    zones = tuple(Zone(seat, msg(f"colour.{seat}"), number=str(i + 1), count=state.scores[seat],
                       count_label=msg("board.points", count=state.scores[seat]), count_word=msg("toy.board.points"),
                       tokens=tuple(Token(seat, MARKS[t], msg(f"toy.token.{t}")) for t in TOKENS
                                    if state.tokens.get(t) == seat),
                       ring="act" if state.roller == seat else None, empty=msg("toy.board.no_token"))
                  for i, seat in enumerate(state.players))
    faces = tuple(Cell(str(n), str(n), up=state.guess == n, lit=state.guess == n,
                       outline=(state.roller,) if state.guess == n and state.roller else ())
                  for n in range(1, 7))
    main = (Heading((msg("toy.board.round", round=state.round),)), Zones(zones, columns=2),
            Grid(6, faces, label=msg("toy.board.faces")), Lines(((msg("toy.board.legend"),),), tone="hint"))
    over = (scores_by_total(msg("toy.board.over"), state.players, state.scores, state.winners),) if state.over else ()
    return Board(main=main, over=over, title=msg("toy.title"))


def secrets(state: State, seat: str) -> tuple[Secret, ...]:
    """A seat's own ballot, while the vote is open."""
    if state.ballot is None or seat not in state.ballot.ballots:
        return ()
    vote = (Label(msg("board.your_vote")), Chip(state.ballot.ballots[seat]))
    return (Secret(msg("board.secret.vote"), (vote,)),)


def record(state: State) -> dict:
    return {**view(state), "step": state.step, "guess": state.guess}


def table_options(state: State) -> dict:
    return {"target": state.target}


def scores(state: State) -> dict[str, int]:
    return dict(state.scores)


def statistics(state: State) -> dict[str, dict[str, int]]:
    """Each seat's rolls: the narration's lines naming the roller."""
    out = {seat: dict.fromkeys(STATS, 0) for seat in state.players}
    for said in state.narration:
        if said.message.key == "toy.n.roller":
            out[said.message.params["colour"]]["toy.stat.rolls"] += 1
    return out


# -- what the table may correct (companion/board.py: Edit) --------------------------------------------------------


def edits(state: State) -> tuple[Edit, ...]:
    """Each seat's points (short of the target: a win is played, not corrected), who holds each token once they are
    handed out, and the round."""
    out = [Edit(f"points.{seat}", seat, msg("toy.edit.points", colour=seat), state.scores[seat], 0, state.target - 1)
           for seat in state.players]
    if state.tokens:
        out += [Edit(f"token.{token}", state.tokens[token], msg("toy.edit.token", token=token), state.tokens[token],
                     choices=tuple(EditChoice(seat, msg(f"colour.{seat}")) for seat in state.players))
                for token in TOKENS]
    out.append(Edit("round", "", msg("toy.edit.round"), state.round, 1, 99))
    return tuple(out)


def correct(state: State, changes: dict) -> State:
    scores, tokens = dict(state.scores), dict(state.tokens)
    for key, value in changes.items():
        kind, _, name = key.partition(".")
        if kind == "points":
            scores[name] = value
        elif kind == "token":
            tokens[name] = value
    return replace(state, scores=scores, tokens=tokens, round=changes.get("round", state.round))
