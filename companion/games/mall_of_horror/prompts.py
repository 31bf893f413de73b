"""What the game waits for, the legal answers, and why an answer is refused.

`prompt(state)` names the seats asked now and their legal answers, written as complete actions; `question`
says it for one seat as devices show it (a title, each answer's label and pad button). `check` accepts an action
only if it is one of those answers; otherwise it raises IllegalAction with a code and parameters that the
catalogue turns into a reason the player understands, in his language ("mall.refuse.destination_all_there",
colour "blue", location 3: "Blue cannot choose 3 Megatoys: all of Blue's characters are already there").
"""

from __future__ import annotations

from companion.contract import BALLOT, CARDS, PICK, Choice, CupRequest, IllegalAction, Message, Prompt, Question, msg
from companion.games.checks import described, expected, sent

from .board import (
    CAMERA,
    CAPACITY,
    CARD_KINDS,
    COLOURS,
    DECK,
    GIRL,
    GUNMAN,
    HARDWARE,
    HIDDEN,
    LOCATIONS,
    PARKING,
    PINUP,
    SPRINT,
    SUPERMARKET,
    THREAT,
    THREE_PLAYER_COLOURS,
    TOUGH,
    WEAPON,
    card_key,
)
from .state import Phase, State, Step, remembered

ACTION_KEYS = {
    "seat": str, "vote": str, "go": int, "character": str, "move": str, "victim": str,
    "play": str, "kills": int, "pass": bool, "give": str, "close": bool,
}
CARD_ARGUMENTS = {THREAT: set(), CAMERA: set(), HARDWARE: set(), SPRINT: {"go"}, HIDDEN: {"character"},
                  WEAPON: {"kills"}}


def check_players(players: object) -> tuple[str, ...]:
    if not isinstance(players, list | tuple):
        raise IllegalAction("mall.refuse.players_list", example='["red", "blue", "yellow"]')
    for p in players:
        if not isinstance(p, str):
            raise IllegalAction("mall.refuse.not_a_colour", value=described(p), colours=list(COLOURS))
    if not 3 <= len(players) <= 6:
        raise IllegalAction("mall.refuse.player_count", count=len(players), low=3, high=6)
    for p in players:
        if p not in COLOURS:
            raise IllegalAction("mall.refuse.not_a_colour", value=repr(p), colours=list(COLOURS))
    if len(set(players)) != len(players):
        raise IllegalAction("mall.refuse.same_colour")
    if len(players) == 3 and set(players) != THREE_PLAYER_COLOURS:
        raise IllegalAction("mall.refuse.three_colours", colours=[c for c in COLOURS if c in THREE_PLAYER_COLOURS])
    return tuple(players)


# -- the prompt -----------------------------------------------------------------------------------------------


# One answer asks for its state's prompt three times (the advance that reached the state, whoever answers, the
# check of the answer), and a table asks once more for the state before the answer: it is remembered.
@remembered
def prompt(state: State) -> Prompt | None:
    """What the state waits for from players, or None (the cup rolls, or the game is over)."""
    step = state.step
    if state.over:
        return None
    if step == Step.VOTE:
        waiting = state.vote.ballot.missing
        return Prompt(BALLOT, {s: _options(state, s) for s in waiting}, True, question_key(state), step,
                      _title(state, None))
    if step == Step.SECRET:
        waiting = [p for p in state.players if p not in state.destinations and not no_destination(state, p)]
        return Prompt(PICK, {s: _options(state, s) for s in waiting}, True, question_key(state), step,
                      _title(state, None))
    seat = _sequential_seat(state)
    if seat is None:
        return None
    return Prompt(_KINDS[step], {seat: _options(state, seat)}, False, question_key(state), step,
                  _title(state, seat))


# -- the question, as devices show it -------------------------------------------------------------------------


def question(state: State, seat: str) -> Question | None:
    """What `seat` is asked now: the title, and each legal answer with its label and pad button.

    Only views ask for it (never the rules' hot path), so it may take its time to say things well.
    """
    current = prompt(state)
    answers = options_for(state, seat)
    if current is None or not answers:
        return None
    answered = seat not in current.options  # a voter (or a secret destination) already in, still changeable
    choices = tuple(_choice(state, seat, action, i) for i, action in enumerate(answers))
    return Question(current.id, seat, current.kind, state.step, _title(state, seat), current.secret, choices,
                    facts=facts(state, seat), answered=answered)


# -- the facts of a decision, beside the question ---------------------------------------------------------------
# Each is a message; lists of nested messages ({"key", "params"}) are joined in the reader's language.


def _nested_list(items: list[tuple[str, dict]]) -> list[dict]:
    return [{"key": key, "params": params} for key, params in items]


def _yours(state: State, seat: str) -> Message:
    """The seat's own state that matters: his characters and where they are, his cards in hand."""
    mine = sorted(state.of(seat), key=lambda c: (c.location or 9, CHARACTERS.index(c.kind)))
    if not mine:
        return msg("mall.fact.yours.none", count=state.hands.get(seat, 0))
    return msg("mall.fact.yours", count=state.hands.get(seat, 0), characters=_nested_list(
        [("mall.fact.at", {"character": c.kind, "location": c.location}) if c.location
         else ("mall.fact.unplaced", {"character": c.kind}) for c in mine]))


def _room(state: State, loc: int) -> dict:
    people = len(state.at(loc))
    capacity = CAPACITY[loc]
    if capacity is None:
        return {"key": "mall.fact.room.unlimited", "params": {"people": people}}
    return {"key": "mall.fact.room", "params": {"people": people, "capacity": capacity}}


def _who(state: State, loc: int) -> dict:
    present = {c.colour for c in state.at(loc)}
    colours = [p for p in state.players if p in present]
    if not colours:
        return {"key": "mall.fact.nobody", "params": {}}
    return {"key": "mall.fact.who", "params": {"colours": colours}}


def place_note(state: State, loc: int) -> Message:
    """A location as a destination: its zombies, how full it is, whose characters are there."""
    if not state.is_open(loc):
        return msg("mall.fact.closed", location=loc)
    return msg("mall.note.place", count=state.zombies[loc - 1], room=_room(state, loc), who=_who(state, loc))


def place_fact(state: State, loc: int) -> Message:
    """The same, naming the location."""
    if not state.is_open(loc):
        return msg("mall.fact.closed", location=loc)
    return msg("mall.fact.place", location=loc, count=state.zombies[loc - 1], room=_room(state, loc),
               who=_who(state, loc))


def _attacked(state: State, loc: int) -> list[Message]:
    """An attacked location: its zombies against its defence, and every character there."""
    there = [c for p in state.clockwise() for c in state.at(loc) if c.colour == p]
    key = "mall.fact.defence.supermarket" if loc == SUPERMARKET else "mall.fact.defence"
    out = [msg(key, location=loc, count=state.zombies[loc - 1], defence=state.defence(loc))]
    if loc == PARKING:
        out = [msg("mall.fact.parking", location=loc, count=state.zombies[loc - 1])]
    out.append(msg("mall.fact.there", characters=_nested_list(
        [("mall.fact.whose.hidden" if c.hidden else "mall.fact.whose", {"colour": c.colour, "character": c.kind})
         for c in there])))
    return out


def facts(state: State, seat: str) -> tuple[Message, ...]:
    """What `seat` needs to know to decide now, beside the question (the whole board is one tap away)."""
    step = state.step
    out: list[Message] = []
    if step == Step.VOTE:
        vote = state.vote
        present = {c.colour for c in state.at(vote.location)}
        joined = [p for p in vote.ballot.weights if p not in present]  # a re-vote's players from outside
        if vote.purpose == "victim":
            out += _attacked(state, vote.location)
        else:
            out.append(msg("mall.fact.voters", location=vote.location, voters=_nested_list(
                [("mall.fact.votes", {"colour": p, "count": w}) for p, w in vote.ballot.weights.items()
                 if p in present])))
        if joined:
            out.append(msg("mall.fact.voters.joined", location=vote.location, colours=joined))
    elif step == Step.MOVE:
        target = state.destinations.get(seat, 0)
        if target:
            out.append(place_fact(state, target))
    elif step == Step.SPRINT:
        out.append(place_fact(state, state.sprint))
    elif step == Step.VICTIM:
        out += _attacked(state, state.location)
    elif step == Step.WINDOW and state.window.kind != "camera":
        out += _attacked(state, state.window.location)[1:]  # the title says the zombies and the defence
    elif step == Step.SECRET and not state.of(seat):
        out.append(msg("mall.fact.zombie_player"))
    out.append(_yours(state, seat))
    return tuple(out)


def _title(state: State, seat: str | None) -> Message:
    """The question as a sentence: the seat's own (`seat`), or the table's (None, for a question put to many)."""
    step = state.step
    if step == Step.VOTE:
        vote = state.vote
        key = f"mall.q.vote.{vote.purpose}" if vote.stage == 1 else f"mall.q.revote.{vote.purpose}"
        params = {"location": vote.location, "colours": list(vote.ballot.candidates)}
        if seat is not None and seat in vote.ballot.weights:
            params["count"] = vote.ballot.weights[seat]
            return Message(key + ".mine", params)
        return Message(key, params)
    if step == Step.PLACE:  # when neither die can be used, the title says the free choice the rules give
        key = "mall.q.place" if usable_dice(state) else "mall.q.place.free"
        return msg(key, colour=seat, dice=list(state.dice or ()))
    if step == Step.CHIEF:
        return msg("mall.q.chief_destination", colour=seat)
    if step == Step.SECRET:
        if seat is None:
            return msg("mall.q.destinations")
        if seat in state.zombie_players:
            return msg("mall.q.zombie_destination", colour=seat)
        return msg("mall.q.destination", colour=seat)
    if step == Step.MOVE:
        return msg("mall.q.move", colour=seat, location=state.destinations.get(seat, 0))
    if step == Step.SPRINT:
        return msg("mall.q.sprint", colour=seat, location=state.sprint)
    if step == Step.VICTIM:
        return msg("mall.q.victim", colour=seat, location=state.location)
    if step == Step.GIFT:
        return msg("mall.q.gift" if state.drawn >= 3 else "mall.q.gift.two", colour=seat)
    if step == Step.WINDOW:
        window = state.window
        if window.kind == "camera":
            return msg("mall.q.camera", colour=seat)
        loc = window.location
        count = state.zombies[loc - 1]
        if loc == PARKING:
            return msg("mall.q.attack.parking", colour=seat, location=loc, count=count)
        key = "mall.q.attack.supermarket" if loc == SUPERMARKET else "mall.q.attack"
        return msg(key, colour=seat, location=loc, count=count, defence=state.defence(loc))
    return msg("mall.q.wait")


def _slot(index: int) -> int | None:
    """The k-th choice on pad button k, for the first six."""
    return index + 1 if index < 6 else None


def _choice(state: State, seat: str, action: dict, index: int) -> Choice:
    players = state.players
    if "vote" in action:  # a candidate on his seat's button
        return Choice(action, msg("mall.choice.vote", colour=action["vote"]), players.index(action["vote"]) + 1)
    if "give" in action:
        return Choice(action, msg("mall.choice.give", colour=action["give"]), players.index(action["give"]) + 1,
                      note=msg("mall.note.hand", count=state.hands.get(action["give"], 0)))
    if "play" in action:
        card = card_key(action["play"], action.get("kills", 0))
        params = {}
        if "character" in action:
            params["character"] = action["character"]
        if "go" in action:  # a Sprint: where, with that location's zombies, room and who is there
            params["location"] = action["go"]
            params["place"] = place_note(state, action["go"]).to_json()
        # In a card window the cards share the pad with "pass"; at a move they are folded away from the pad.
        slot = _slot(index) if state.step == Step.WINDOW else None
        return Choice(action, Message(f"mall.choice.play.{card}", params), slot, "card",
                      msg(f"mall.card_effect.{card}"))
    if "pass" in action:
        return Choice(action, msg("mall.choice.pass"), _slot(index))
    if "go" in action and "character" in action:
        return Choice(action, msg("mall.choice.place", character=action["character"], location=action["go"]),
                      action["go"], note=place_note(state, action["go"]))
    if "go" in action:
        return Choice(action, msg("mall.choice.go", location=action["go"]), action["go"],
                      note=place_note(state, action["go"]))
    if "move" in action:
        target = state.sprint if state.step == Step.SPRINT else state.destinations.get(seat, 0)
        mover = next(c for c in state.of(seat) if c.kind == action["move"])
        key = "mall.choice.sprinter" if state.step == Step.SPRINT else "mall.choice.move"
        label = msg(key, character=mover.kind, from_location=mover.location, location=target)
        return Choice(action, label, _slot(index), note=_landing(state, mover.location, target))
    if "victim" in action:
        return Choice(action, msg("mall.choice.victim", character=action["victim"]), _slot(index))
    raise AssertionError(f"unlabelled answer {action}")


def _landing(state: State, start: int, target: int) -> Message | None:
    """Where a move ends when it cannot end at its target: a full or fallen location sends it to the Parking."""
    if start == target or (state.is_open(target) and state.has_room(target)):
        return None
    if not state.is_open(target):
        return msg("mall.choice.note.closed", location=target, to_location=PARKING)
    return msg("mall.choice.note.full", location=target, to_location=PARKING)


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


_KINDS = {Step.PLACE: PICK, Step.CHIEF: PICK, Step.GIFT: PICK, Step.WINDOW: CARDS, Step.MOVE: PICK, Step.SPRINT: PICK,
          Step.VICTIM: PICK}


def _sequential_seat(state: State) -> str | None:
    step = state.step
    if step == Step.PLACE:
        return state.clockwise()[state.turn % len(state.players)]
    if step == Step.CHIEF:
        return state.chief
    if step == Step.GIFT:
        return state.searcher
    if step == Step.WINDOW:
        return state.window.seat
    if step in (Step.MOVE, Step.SPRINT) and state.phase == Phase.MOVE and state.turn < len(state.order):
        return state.order[state.turn]
    if step == Step.VICTIM:
        return state.victim_colour
    return None


def answering_seats(state: State) -> tuple[str, ...]:
    """Seats whose answer is accepted now (voters may change their ballot until the reveal)."""
    if state.step == Step.VOTE:
        return tuple(state.vote.ballot.weights)
    if state.step == Step.SECRET:
        return tuple(p for p in state.players
                     if not (state.elected and p == state.chief) and not no_destination(state, p))
    seat = _sequential_seat(state)
    return (seat,) if seat else ()


def cup_request(state: State) -> CupRequest | None:
    if state.over:
        return None
    if state.phase == Phase.PLACEMENT:
        if state.step == Step.ROLL:
            return CupRequest("roll", 2)
        if state.step == Step.ZOMBIES:
            return CupRequest("roll", 4)
        return None
    if state.step == Step.ROLL:
        return CupRequest("roll", 4, public=False, visible_to=(state.chief,) if state.elected else ())
    if state.step == Step.PICK:
        return CupRequest("pick", len(state.lottery))
    return None


def forced_action(state: State) -> dict | None:
    """The answer taken for a seat that has exactly one legal answer (a secret vote is never forced)."""
    if state.step in (Step.VOTE, Step.ROLL, Step.PICK) or state.over:
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
    if step == Step.PLACE:
        return placement_options(state, seat)
    if step == Step.VOTE:
        return [{"seat": seat, "vote": c} for c in state.vote.ballot.candidates]
    if step == Step.GIFT:
        return [{"seat": seat, "give": p} for p in state.clockwise(seat)[1:]]
    if step in (Step.CHIEF, Step.SECRET):
        return [{"seat": seat, "go": loc} for loc in destination_choices(state, seat)]
    if step == Step.MOVE:
        moves = move_options(state, seat)
        if moves and _can_play(state, seat, SPRINT):
            moves += [{"seat": seat, "play": SPRINT, "go": loc} for loc in LOCATIONS if state.is_open(loc)]
        return moves
    if step == Step.SPRINT:
        return [{"seat": seat, "move": c.kind} for c in state.of(seat)]
    if step == Step.VICTIM:
        return [{"seat": seat, "victim": c.kind} for c in state.of(seat)
                if c.location == state.location and not c.hidden]
    if step == Step.WINDOW:
        return window_options(state, seat)
    return []


def placement_options(state: State, seat: str) -> list[dict]:
    unplaced = [c.kind for c in state.of(seat) if not c.location]
    return [{"seat": seat, "go": loc, "character": kind} for loc in placement_locations(state) for kind in unplaced]


def usable_dice(state: State) -> list[int]:
    """The placement dice's locations that can be used: open, with room."""
    return sorted({d for d in state.dice or () if state.is_open(d) and state.has_room(d)})


def placement_locations(state: State) -> list[int]:
    """A location shown by either die, if open with room; if neither can be used, any open location with room."""
    return usable_dice(state) or [loc for loc in LOCATIONS if state.is_open(loc) and state.has_room(loc)]


def destination_choices(state: State, seat: str) -> list[int]:
    mine = {c.location for c in state.of(seat)}
    if not mine:  # a zombie player: any open location
        return [loc for loc in LOCATIONS if state.is_open(loc)]
    return [loc for loc in LOCATIONS if state.is_open(loc) and mine != {loc}]


def no_destination(state: State, seat: str) -> bool:
    """A living player whose every open location already holds all his characters (late in a game, everything
    but the Parking closed): he is not asked, chooses nothing and does not move (rule d)."""
    if len(state.closed) < len(LOCATIONS) - 1:  # two open locations: one of them is always somewhere else
        return False
    return state.alive(seat) and not destination_choices(state, seat)


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


# -- refusing ------------------------------------------------------------------------------------------------
# A refusal is a catalogue key (mall.refuse.*) and its parameters: colours, locations, characters and cards by
# their term names (rendered in each reader's language); `value` is what was sent, as written (its repr).


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
        if state.step != Step.VOTE:
            raise IllegalAction("mall.refuse.no_vote")
        return action
    seat = action["seat"]
    if seat not in state.players:
        raise IllegalAction("mall.refuse.not_playing", value=repr(seat), colours=list(state.players))
    current = prompt(state)
    legal = current.options.get(seat) if current else None
    if legal is None:
        legal = options_for(state, seat)  # a voter changing his ballot is no longer listed as waiting
    if action in legal:
        return action
    raise explain(state, seat, action)


_VERBS = ("vote", "go", "move", "victim", "play", "pass", "give")


def _well_formed(action: object) -> dict:
    if not isinstance(action, dict):
        raise IllegalAction("mall.refuse.not_an_object", example='{"seat": "red", "vote": "blue"}',
                            value=sent(action))
    for key, value in action.items():
        if key not in ACTION_KEYS:
            raise IllegalAction("mall.refuse.unknown_field", field=repr(key), fields=", ".join(ACTION_KEYS))
        if type(value) is not ACTION_KEYS[key]:
            raise IllegalAction("mall.refuse.field_type", field=f'"{key}"', type=expected(ACTION_KEYS[key]),
                                value=described(value))
    if "close" in action:
        if action != {"close": True}:
            raise IllegalAction("mall.refuse.close_form", example='{"close": true}')
        return action
    if "seat" not in action:
        raise IllegalAction("mall.refuse.no_seat", example='{"seat": "red", ...}')
    if action.get("pass") is False:
        raise IllegalAction("mall.refuse.must_be", field='"pass"', value="true")
    verbs = [k for k in _VERBS if k in action]
    if not verbs:
        raise IllegalAction("mall.refuse.no_verb", verbs=", ".join(_VERBS))
    if "play" in action:
        kind = action["play"]
        if kind not in CARD_KINDS:
            raise IllegalAction("mall.refuse.not_a_card", value=repr(kind), cards=", ".join(CARD_KINDS))
        extra = set(action) - {"seat", "play"}
        if extra != CARD_ARGUMENTS[kind]:
            if not CARD_ARGUMENTS[kind]:
                raise IllegalAction("mall.refuse.card_takes_nothing", card=kind)
            raise IllegalAction("mall.refuse.card_takes", card=kind, fields=", ".join(sorted(CARD_ARGUMENTS[kind])))
        if kind == WEAPON and action["kills"] not in (1, 2):
            raise IllegalAction("mall.refuse.weapon_kills")
        return action
    if len(verbs) > 1 or ("character" in action and verbs != ["go"]):
        raise IllegalAction("mall.refuse.one_thing", fields=", ".join(sorted(set(action) - {"seat"})))
    extra = sorted(set(action) - {"seat", *verbs, *_WITH.get(verbs[0], ())})
    if extra:  # a field of another kind of answer ("kills" with a destination)
        raise IllegalAction("mall.refuse.extra_field", verb=verbs[0], field=extra[0])
    return action


_WITH = {"go": ("character",)}  # what an answer may carry beside its seat and verb (a placement names who)


CHARACTERS = (PINUP, TOUGH, GUNMAN, GIRL)
_EXPECTED_VERBS = {Step.PLACE: {"go"}, Step.VOTE: {"vote"}, Step.GIFT: {"give"}, Step.CHIEF: {"go"},
                   Step.SECRET: {"go"}, Step.MOVE: {"move", "play"}, Step.SPRINT: {"move"}, Step.VICTIM: {"victim"},
                   Step.WINDOW: {"play", "pass"}}


def explain(state: State, seat: str, action: dict) -> IllegalAction:
    """Why a well-formed action by a player is not a legal answer now."""
    if state.over:
        return IllegalAction("mall.refuse.over")
    current = prompt(state)
    if state.step in (Step.CHIEF, Step.SECRET) and no_destination(state, seat):
        return IllegalAction("mall.refuse.no_destination", colour=seat, location=state.of(seat)[0].location)
    if seat not in answering_seats(state):
        if current is None:
            return IllegalAction("mall.refuse.wait_cup", colour=seat)
        return IllegalAction("mall.refuse.wait_for", colour=seat, colours=list(current.seats), task=_task(state))
    verb = next(k for k in ("play", "vote", "go", "move", "victim", "pass", "give") if k in action)
    step = state.step
    if verb not in _EXPECTED_VERBS.get(step, ()):
        return IllegalAction("mall.refuse.wrong_verb", colour=seat, verb=_nested(f"mall.refuse.verb.{verb}"),
                             task=_task(state))
    if verb == "vote":
        return _explain_vote(state, seat, action["vote"])
    if verb == "go" and step == Step.PLACE:
        return _explain_placement(state, seat, action)
    if verb == "go":
        return _explain_destination(state, seat, action)
    if verb == "move":
        kind = action["move"]
        if kind not in CHARACTERS:
            return _unknown_character(kind)
        mine = {c.kind: c for c in state.of(seat)}
        if kind not in mine:
            return IllegalAction("mall.refuse.not_alive", colour=seat, character=kind)
        return IllegalAction("mall.refuse.already_at_destination", colour=seat, character=kind,
                             location=mine[kind].location)
    if verb == "victim":
        kind = action["victim"]
        if kind not in CHARACTERS:
            return _unknown_character(kind)
        return IllegalAction("mall.refuse.not_a_victim", colour=seat, character=kind, location=state.location)
    if verb == "give":
        if action["give"] == seat:
            return IllegalAction("mall.refuse.give_self", colour=seat)
        return IllegalAction("mall.refuse.give_unknown", value=repr(action["give"]))
    if verb == "play":
        return _explain_card(state, seat, action)
    return IllegalAction("mall.refuse.not_now", colour=seat)


def _nested(key: str, **params: object) -> dict:
    """A message inside a refusal's parameters, as JSON (the catalogue renders it in the reader's language)."""
    return {"key": key, "params": params}


def _task(state: State) -> dict:
    """What the seats asked now are asked to do ("place a character")."""
    return _nested(f"mall.refuse.task.{state.step if state.step in _EXPECTED_VERBS else 'wait'}")


def _unknown_character(kind: object) -> IllegalAction:
    return IllegalAction("mall.refuse.unknown_character", value=repr(kind), characters=list(CHARACTERS))


def _no_location(loc: object) -> IllegalAction:
    return IllegalAction("mall.refuse.no_location", value=repr(loc))


def _explain_vote(state: State, seat: str, candidate: str) -> IllegalAction:
    candidates = list(state.vote.ballot.candidates)
    if candidate in COLOURS:
        return IllegalAction("mall.refuse.not_candidate", colour=seat, candidate=candidate, colours=candidates)
    return IllegalAction("mall.refuse.not_candidate_value", colour=seat, value=repr(candidate), colours=candidates)


def _explain_placement(state: State, seat: str, action: dict) -> IllegalAction:
    loc, kind = action["go"], action.get("character")
    if loc not in LOCATIONS:
        return _no_location(loc)
    if kind is None:
        return IllegalAction("mall.refuse.which_character", colour=seat, location=loc)
    if kind not in CHARACTERS:
        return _unknown_character(kind)
    if not any(c.kind == kind and not c.location for c in state.of(seat)):
        return IllegalAction("mall.refuse.not_unplaced", colour=seat, character=kind)
    if not state.is_open(loc):
        return IllegalAction("mall.refuse.place_closed", colour=seat, location=loc)
    if not state.has_room(loc):
        return IllegalAction("mall.refuse.place_full", colour=seat, location=loc)
    return IllegalAction("mall.refuse.place_dice", colour=seat, location=loc, dice=list(state.dice or ()))


def _explain_destination(state: State, seat: str, action: dict) -> IllegalAction:
    loc = action["go"]
    if "character" in action:  # a destination names a location only: the character moves at e3
        return IllegalAction("mall.refuse.destination_location_only", example=f'{{"seat": "{seat}", "go": 3}}')
    if loc not in LOCATIONS:
        return _no_location(loc)
    if not state.is_open(loc):
        return IllegalAction("mall.refuse.destination_closed", colour=seat, location=loc)
    return IllegalAction("mall.refuse.destination_all_there", colour=seat, location=loc)


def _explain_card(state: State, seat: str, action: dict) -> IllegalAction:
    kind = action["play"]
    key = card_key(kind, action.get("kills", 0))
    if state.hands[seat] == 0:
        return IllegalAction("mall.refuse.no_card", colour=seat)
    if state.played[key] >= DECK[key]:
        return IllegalAction("mall.refuse.cards_gone", count=DECK[key], card=key)
    window = state.window
    if state.step == Step.MOVE and kind != SPRINT:
        return IllegalAction("mall.refuse.only_sprint", colour=seat)
    if kind == SPRINT:
        if state.step != Step.MOVE:
            return IllegalAction("mall.refuse.sprint_own_move", colour=seat)
        if action["go"] not in LOCATIONS:
            return _no_location(action["go"])
        return IllegalAction("mall.refuse.sprint_closed", colour=seat, location=action["go"])
    if window is None:
        return IllegalAction("mall.refuse.card_not_now", colour=seat, card=key)
    if window.kind == "camera":
        if kind != CAMERA:
            return IllegalAction("mall.refuse.only_camera", card=key)
        return IllegalAction("mall.refuse.already_sees", colour=seat)
    if kind == CAMERA:
        return IllegalAction("mall.refuse.camera_at_arrival")
    if kind == HARDWARE:
        return IllegalAction("mall.refuse.hardware_parking", location=PARKING)
    if kind == HIDDEN:
        if action["character"] not in CHARACTERS:
            return _unknown_character(action["character"])
        return IllegalAction("mall.refuse.nothing_to_hide", colour=seat, character=action["character"],
                             location=window.location)
    return IllegalAction("mall.refuse.card_not_now", colour=seat, card=key)
