"""What the game waits for, the legal answers, and why an answer is refused.

`prompt(state)` names the seats asked now and their legal answers, written as complete actions. `check`
accepts an action only if it is one of those answers; otherwise it raises IllegalAction with a reason the
player understands ("Blue cannot choose Megatoys: all of Blue's characters are already there").
"""

from __future__ import annotations

from companion.ballot import BallotError
from companion.games.base import BALLOT, CARDS, PICK, Choice, CupRequest, IllegalAction, Message, Prompt, Question, msg

from .board import (
    CAMERA,
    CARD_KINDS,
    CARD_NAMES,
    CHARACTER_NAMES,
    COLOURS,
    DECK,
    HARDWARE,
    HIDDEN,
    LOCATION_NAMES,
    LOCATIONS,
    PARKING,
    SPRINT,
    THREAT,
    THREE_PLAYER_COLOURS,
    WEAPON,
    card_key,
)
from .state import State

ACTION_KEYS = {
    "seat": str, "vote": str, "go": int, "character": str, "move": str, "victim": str,
    "play": str, "kills": int, "pass": bool, "give": str, "close": bool,
}
CARD_ARGUMENTS = {THREAT: set(), CAMERA: set(), HARDWARE: set(), SPRINT: {"go"}, HIDDEN: {"character"},
                  WEAPON: {"kills"}}


def check_players(players: object) -> tuple[str, ...]:
    if not isinstance(players, list | tuple) or not all(isinstance(p, str) for p in players):
        raise IllegalAction("players must be a list of colours, e.g. [\"red\", \"blue\", \"yellow\"]")
    if not 3 <= len(players) <= 6:
        raise IllegalAction(f"Mall of Horror is for 3 to 6 players, not {len(players)}")
    for p in players:
        if p not in COLOURS:
            raise IllegalAction(f"{p!r} is not a colour of the game; choose from {', '.join(COLOURS)}")
    if len(set(players)) != len(players):
        raise IllegalAction("each player needs a different colour")
    if len(players) == 3 and set(players) != THREE_PLAYER_COLOURS:
        raise IllegalAction("a 3-player game uses red, yellow and blue")
    return tuple(players)


def name(colour: str) -> str:
    return colour.title()


def place(location: int) -> str:
    return LOCATION_NAMES.get(location, f"location {location}")


def who(kind: str) -> str:
    return CHARACTER_NAMES.get(kind, kind)


# -- the prompt -----------------------------------------------------------------------------------------------


def prompt(state: State) -> Prompt | None:
    """What the state waits for from players, or None (the cup rolls, or the game is over)."""
    cache = state.__dict__
    if "_prompt" not in cache:  # states never change, so the prompt is worked out once per state
        cache["_prompt"] = _prompt(state)
    return cache["_prompt"]


def _prompt(state: State) -> Prompt | None:
    step = state.step
    if state.over:
        return None
    if step == "vote":
        waiting = state.vote.ballot.missing
        return Prompt(BALLOT, {s: _options(state, s) for s in waiting}, True, question_key(state), step,
                      _title(state, None))
    if step == "secret":
        waiting = [p for p in state.players if p not in state.destinations]
        return Prompt(PICK, {s: _options(state, s) for s in waiting}, True, question_key(state), step,
                      _title(state, None))
    seat = _sequential_seat(state)
    if seat is None:
        return None
    return Prompt(_KINDS[step], {seat: _options(state, seat)}, False, question_key(state), step,
                  _title(state, seat))


# -- the question, as devices show it -------------------------------------------------------------------------


def question(state: State, seat: str) -> Question | None:
    """What `seat` is asked now: the title, and each legal answer with its label and pad button."""
    current = prompt(state)
    answers = options_for(state, seat)
    if current is None or not answers:
        return None
    answered = seat not in current.options  # a voter (or a secret destination) already in, still changeable
    choices = tuple(_choice(state, seat, action, i) for i, action in enumerate(answers))
    return Question(current.id, seat, current.kind, state.step, _title(state, seat), current.secret, choices,
                    answered=answered)


def _title(state: State, seat: str | None) -> Message:
    step = state.step
    if step == "vote":
        vote = state.vote
        key = f"mall.q.vote.{vote.purpose}" if vote.stage == 1 else f"mall.q.revote.{vote.purpose}"
        params = {"location": vote.location, "colours": list(vote.ballot.candidates)}
        if seat is not None and seat in vote.ballot.weights:
            params["count"] = vote.ballot.weights[seat]
            return Message(key + ".mine", params)
        return Message(key, params)
    if step == "place":
        return msg("mall.q.place", colour=seat, dice=list(state.dice or ()))
    if step == "chief":
        return msg("mall.q.chief_destination", colour=seat)
    if step == "secret":
        if seat is not None and seat in state.zombie_players:
            return msg("mall.q.zombie_destination", colour=seat)
        return msg("mall.q.destination") if seat is not None else msg("mall.q.destinations")
    if step == "move":
        return msg("mall.q.move", colour=seat, location=state.destinations.get(seat, 0))
    if step == "sprint":
        return msg("mall.q.sprint", colour=seat, location=state.sprint)
    if step == "victim":
        return msg("mall.q.victim", colour=seat, location=state.location)
    if step == "gift":
        return msg("mall.q.gift", colour=seat)
    if step == "window":
        if state.window.kind == "camera":
            return msg("mall.q.camera", colour=seat)
        return msg("mall.q.attack", colour=seat, location=state.window.location,
                   count=state.zombies[state.window.location - 1], defence=state.defence(state.window.location))
    return msg("mall.q.wait")


def _choice(state: State, seat: str, action: dict, index: int) -> Choice:
    players = state.players
    if "vote" in action:
        return Choice(action, msg("mall.choice.vote", colour=action["vote"]), players.index(action["vote"]) + 1)
    if "give" in action:
        return Choice(action, msg("mall.choice.give", colour=action["give"]), players.index(action["give"]) + 1)
    if "play" in action:
        card = card_key(action["play"], action.get("kills", 0))
        params = {k: v for k, v in action.items() if k in ("character", "go")}
        if "go" in params:
            params["location"] = params.pop("go")
        key = f"mall.choice.play.{card}"
        slot = index + 1 if state.step == "window" and index < 6 else None
        return Choice(action, Message(key, params), slot, "card", msg(f"mall.card_effect.{card}"))
    if "pass" in action:
        return Choice(action, msg("mall.choice.pass"), index + 1 if index < 6 else None)
    if "go" in action and "character" in action:
        return Choice(action, msg("mall.choice.place", character=action["character"], location=action["go"]),
                      action["go"])
    if "go" in action:
        return Choice(action, msg("mall.choice.go", location=action["go"]), action["go"])
    if "move" in action:
        if state.step == "sprint":
            return Choice(action, msg("mall.choice.sprinter", character=action["move"], location=state.sprint),
                          index + 1 if index < 6 else None)
        return Choice(action, msg("mall.choice.move", character=action["move"],
                                  location=state.destinations.get(seat, 0)), index + 1 if index < 6 else None)
    if "victim" in action:
        return Choice(action, msg("mall.choice.victim", character=action["victim"]), index + 1 if index < 6 else None)
    raise AssertionError(f"unlabelled answer {action}")


def question_key(state: State) -> tuple:
    """Where the game stands in its questions: unchanged while voters vote or change their ballots."""
    vote = state.vote
    window = state.window
    return (
        state.round, state.phase, state.step, state.turn, state.location,
        window.turn if window else "", vote.purpose if vote else "", vote.stage if vote else "",
        state.victim_colour or "", state.searcher or "", len(state.characters),
        sum(state.played.values()),  # after a card is played, "anything more?" is a new question
    )


_KINDS = {"place": PICK, "chief": PICK, "gift": PICK, "window": CARDS, "move": PICK, "sprint": PICK, "victim": PICK}


def _sequential_seat(state: State) -> str | None:
    step = state.step
    if step == "place":
        return state.clockwise()[state.turn % len(state.players)]
    if step == "chief":
        return state.chief
    if step == "gift":
        return state.searcher
    if step == "window":
        return state.window.seat
    if step in ("move", "sprint") and state.phase == "move" and state.turn < len(state.order):
        return state.order[state.turn]
    if step == "victim":
        return state.victim_colour
    return None


def answering_seats(state: State) -> tuple[str, ...]:
    """Seats whose answer is accepted now (voters may change their ballot until the reveal)."""
    if state.step == "vote":
        return tuple(state.vote.ballot.weights)
    if state.step == "secret":
        return tuple(p for p in state.players if not (state.elected and p == state.chief))
    seat = _sequential_seat(state)
    return (seat,) if seat else ()


def cup_request(state: State) -> CupRequest | None:
    if state.over:
        return None
    if state.phase == "placement":
        if state.step == "roll":
            return CupRequest("roll", 2)
        if state.step == "zombies":
            return CupRequest("roll", 4)
        return None
    if state.step == "roll":
        return CupRequest("roll", 4, public=False, visible_to=(state.chief,) if state.elected else ())
    if state.step == "pick":
        return CupRequest("pick", len(state.lottery))
    return None


def forced_action(state: State) -> dict | None:
    """The answer taken for a seat that has exactly one legal answer (a secret vote is never forced)."""
    if state.step in ("vote", "roll", "pick") or state.over:
        return None
    p = prompt(state)
    if p is None:
        return None
    for answers in p.options.values():
        if len(answers) == 1:
            return answers[0]
    return None


# -- legal answers --------------------------------------------------------------------------------------------


def options_for(state: State, seat: str) -> list[dict]:
    """The legal answers of `seat` now (none if it is not asked)."""
    if seat not in answering_seats(state):
        return []
    return _options(state, seat)


def _options(state: State, seat: str) -> list[dict]:
    step = state.step
    if step == "place":
        return placement_options(state, seat)
    if step == "vote":
        return [{"seat": seat, "vote": c} for c in state.vote.ballot.candidates]
    if step == "gift":
        return [{"seat": seat, "give": p} for p in state.clockwise(seat)[1:]]
    if step in ("chief", "secret"):
        return [{"seat": seat, "go": loc} for loc in destination_choices(state, seat)]
    if step == "move":
        moves = move_options(state, seat)
        if moves and _can_play(state, seat, SPRINT):
            moves += [{"seat": seat, "play": SPRINT, "go": loc} for loc in LOCATIONS if state.is_open(loc)]
        return moves
    if step == "sprint":
        return [{"seat": seat, "move": c.kind} for c in state.of(seat)]
    if step == "victim":
        return [{"seat": seat, "victim": c.kind} for c in state.of(seat)
                if c.location == state.location and not c.hidden]
    if step == "window":
        return window_options(state, seat)
    return []


def placement_options(state: State, seat: str) -> list[dict]:
    unplaced = [c.kind for c in state.of(seat) if not c.location]
    return [{"seat": seat, "go": loc, "character": kind} for loc in placement_locations(state) for kind in unplaced]


def placement_locations(state: State) -> list[int]:
    """A location shown by either die, if open with room; if neither can be used, any open location with room."""
    shown = sorted({d for d in state.dice or () if state.is_open(d) and state.has_room(d)})
    return shown or [loc for loc in LOCATIONS if state.is_open(loc) and state.has_room(loc)]


def destination_choices(state: State, seat: str) -> list[int]:
    mine = {c.location for c in state.of(seat)}
    if not mine:  # a zombie player: any open location
        return [loc for loc in LOCATIONS if state.is_open(loc)]
    return [loc for loc in LOCATIONS if state.is_open(loc) and mine != {loc}]


def move_options(state: State, seat: str) -> list[dict]:
    target = state.destinations.get(seat)
    return [{"seat": seat, "move": c.kind} for c in state.of(seat) if c.location != target]


def window_options(state: State, seat: str) -> list[dict]:
    window = state.window
    answers: list[dict] = [{"seat": seat, "pass": True}]
    if window.kind == "camera":
        if _can_play(state, seat, CAMERA) and seat not in state.lookers:
            answers.append({"seat": seat, "play": CAMERA})
        return answers
    loc = window.location
    if _can_play(state, seat, THREAT):
        answers.append({"seat": seat, "play": THREAT})
    if loc != PARKING and _can_play(state, seat, HARDWARE):
        answers.append({"seat": seat, "play": HARDWARE})
    if _can_play(state, seat, HIDDEN):
        answers += [{"seat": seat, "play": HIDDEN, "character": c.kind}
                    for c in state.of(seat) if c.location == loc and not c.hidden]
    for kills in (2, 1):
        if _can_play(state, seat, WEAPON, kills):
            answers.append({"seat": seat, "play": WEAPON, "kills": kills})
    return answers


def _can_play(state: State, seat: str, kind: str, kills: int = 0) -> bool:
    key = card_key(kind, kills)
    return state.hands[seat] > 0 and state.played[key] < DECK[key]


# -- refusing -------------------------------------------------------------------------------------------------


def check(state: State, action: object) -> dict:
    """The action if it is a legal answer now; otherwise IllegalAction with the reason."""
    if type(action) is dict and type(action.get("seat")) is str:  # the usual case: one of the listed answers
        current = prompt(state)
        legal = current.options.get(action["seat"]) if current else None
        if legal and action in legal:
            listed = legal[legal.index(action)]
            if all(type(value) is type(listed[key]) for key, value in action.items()):  # true is not 1
                return action
    action = _well_formed(action)
    if "close" in action:
        if state.step != "vote":
            raise IllegalAction("there is no vote to close")
        return action
    seat = action["seat"]
    if seat not in state.players:
        raise IllegalAction(f"{seat!r} is not playing; the players are {', '.join(state.players)}")
    current = prompt(state)
    legal = current.options.get(seat) if current else None
    if legal is None:
        legal = options_for(state, seat)  # a voter changing his ballot is no longer listed as waiting
    if action in legal:
        return action
    raise IllegalAction(explain(state, seat, action))


def _well_formed(action: object) -> dict:
    if not isinstance(action, dict):
        raise IllegalAction(f"an action must be an object such as {{\"seat\": \"red\", \"vote\": \"blue\"}}, "
                            f"not {action!r}")
    for key, value in action.items():
        if key not in ACTION_KEYS:
            raise IllegalAction(f"unknown field {key!r} in action; known fields: {', '.join(ACTION_KEYS)}")
        if type(value) is not ACTION_KEYS[key]:
            raise IllegalAction(f"field {key!r} must be a {ACTION_KEYS[key].__name__}, not {value!r}")
    if "close" in action:
        if action != {"close": True}:
            raise IllegalAction("closing a vote is written {\"close\": true}")
        return action
    if "seat" not in action:
        raise IllegalAction("an action must name its seat, e.g. {\"seat\": \"red\", ...}")
    if action.get("pass") is False:
        raise IllegalAction("\"pass\" must be true")
    verbs = [k for k in ("vote", "go", "move", "victim", "play", "pass", "give") if k in action]
    if not verbs:
        raise IllegalAction("an action must say what it does: vote, go, move, victim, play, pass or give")
    if "play" in action:
        kind = action["play"]
        if kind not in CARD_KINDS:
            raise IllegalAction(f"{kind!r} is not a card; the cards are {', '.join(CARD_KINDS)}")
        extra = set(action) - {"seat", "play"}
        if extra != CARD_ARGUMENTS[kind]:
            need = ", ".join(sorted(CARD_ARGUMENTS[kind])) or "nothing more"
            raise IllegalAction(f"playing {kind} takes {need}")
        if kind == WEAPON and action["kills"] not in (1, 2):
            raise IllegalAction("a Weapon kills 1 or 2 zombies")
        return action
    if len(verbs) > 1 or ("character" in action and verbs != ["go"]):
        raise IllegalAction(f"an action does one thing; this one says {', '.join(sorted(set(action) - {'seat'}))}")
    return action


def explain(state: State, seat: str, action: dict) -> str:
    """Why a well-formed action by a player is not a legal answer now."""
    actor = name(seat)
    if state.over:
        return "the game is over"
    asked = answering_seats(state)
    current = prompt(state)
    if seat not in asked:
        if current is None:
            return f"{actor} cannot act now: the table waits for the dice cup"
        waiting = ", ".join(name(s) for s in current.seats) or "nobody"
        return f"{actor} cannot act now: the table waits for {waiting} ({_describe(state)})"
    verb = next(k for k in ("play", "vote", "go", "move", "victim", "pass", "give") if k in action)
    expected = _expected_verbs(state)
    if verb not in expected:
        return f"{actor} cannot {verb} now: {actor} is asked to {_describe(state)}"
    step = state.step
    if verb == "vote":
        try:
            state.vote.ballot.cast(seat, action["vote"])
        except BallotError as refused:
            return f"{actor} cannot vote for {name(action['vote'])}: {refused}"
    if verb == "go" and step == "place":
        return _explain_placement(state, seat, action)
    if verb == "go":
        return _explain_destination(state, seat, action["go"])
    if verb == "move":
        kind = action["move"]
        mine = {c.kind: c for c in state.of(seat)}
        if kind not in mine:
            return f"{actor} has no {who(kind)} alive"
        return f"{actor}'s {who(kind)} is already at {place(mine[kind].location)}, {actor}'s destination"
    if verb == "victim":
        return f"{actor} has no {who(action['victim'])} that can be chosen at {place(state.location)}"
    if verb == "give":
        if action["give"] == seat:
            return f"{actor} must give the card to another player"
        return f"{action['give']!r} is not a player"
    if verb == "play":
        return _explain_card(state, seat, action)
    return f"{actor} cannot do that now"


def _expected_verbs(state: State) -> set[str]:
    return {"place": {"go"}, "vote": {"vote"}, "gift": {"give"}, "chief": {"go"}, "secret": {"go"},
            "move": {"move", "play"}, "sprint": {"move"}, "victim": {"victim"},
            "window": {"play", "pass"}}.get(state.step, set())


def _describe(state: State) -> str:
    return {
        "place": "place a character", "vote": "vote", "gift": "give a card from the truck",
        "chief": "choose a destination", "secret": "choose a destination", "move": "move a character",
        "sprint": "say which character sprints", "victim": "choose which character dies",
        "window": "play a card or pass",
    }.get(state.step, "wait")


def _explain_placement(state: State, seat: str, action: dict) -> str:
    actor, loc, kind = name(seat), action["go"], action.get("character")
    if kind is None:
        return f"{actor} must say which character goes to {place(loc)}"
    if not any(c.kind == kind and not c.location for c in state.of(seat)):
        return f"{actor} has no unplaced {who(kind)}"
    if loc not in LOCATIONS:
        return f"there is no location {loc}; locations are 1 to 6"
    if not state.is_open(loc):
        return f"{actor} cannot place at {place(loc)}: it is closed"
    if not state.has_room(loc):
        return f"{actor} cannot place at {place(loc)}: it is full"
    dice = " and ".join(str(d) for d in state.dice or ())
    return f"{actor} cannot place at {place(loc)}: the dice show {dice}"


def _explain_destination(state: State, seat: str, loc: int) -> str:
    actor = name(seat)
    if loc not in LOCATIONS:
        return f"there is no location {loc}; locations are 1 to 6"
    if not state.is_open(loc):
        return f"{actor} cannot choose {place(loc)}: it is closed"
    return f"{actor} cannot choose {place(loc)}: all of {actor}'s characters are already there"


def _explain_card(state: State, seat: str, action: dict) -> str:
    actor, kind = name(seat), action["play"]
    key = card_key(kind, action.get("kills", 0))
    if state.hands[seat] == 0:
        return f"{actor} has no card left"
    if state.played[key] >= DECK[key]:
        return f"all {DECK[key]} {CARD_NAMES[key]} cards have already been played"
    window = state.window
    if state.step == "move" and kind != SPRINT:
        return f"only Sprint can be played at {actor}'s move"
    if kind == SPRINT:
        if state.step != "move":
            return f"Sprint is played at {actor}'s own move"
        return f"{actor} cannot sprint to {place(action['go'])}: it is closed"
    if window is None:
        return f"{actor} cannot play {CARD_NAMES[key]} now"
    if window.kind == "camera":
        if kind != CAMERA:
            return f"only Security Camera can be played before the destinations are chosen, not {CARD_NAMES[key]}"
        return f"{actor} already sees the dice"
    if kind == CAMERA:
        return "Security Camera is played when the zombies arrive, not during an attack"
    if kind == HARDWARE:
        return "Hardware cannot be played in the Parking"
    if kind == HIDDEN:
        return f"{actor} has no visible {who(action['character'])} at {place(window.location)} to hide"
    return f"{actor} cannot play {CARD_NAMES[key]} now"
