"""District-Z's rules: the turn (heal or move, flip, objective or event), combat round by round with the best
pairing proposed, survivor against survivor, death and respawn, the win. Pure: dice and picks come from the cup.
"""

from __future__ import annotations

from dataclasses import replace

from companion.contract import ASSIGN, NUMBER, PICK, Choice, CupRequest, IllegalAction, Item, Prompt, Question, msg
from companion.games.checks import among, described, name_of, shown, whole

from .pairing import best_pairing, outcome
from .state import (
    CORNERS,
    CUP_MOST,
    DICE,
    DIRECTIONS,
    GRIDS,
    HANDS,
    KINDS,
    OPPOSITE,
    SURVIVOR_CARDS,
    Cell,
    Combat,
    Fight,
    Gear,
    State,
    Survivor,
)

COLOURS = ("red", "yellow", "blue", "green")
OPTIONS = {"grid": GRIDS, "face_up_event": ("roll", "skip"), "play_on": ("false", "true"),
           "box_dice": ("false", "true")}
DEFAULTS = {"grid": "6x5", "face_up_event": "roll", "play_on": "false", "box_dice": "false"}
NUMBERS = {"attack": (1, 6), "health": (1, 9), "zombies": (1, 9), "item_attack": (0, 5), "item_health": (0, 5)}
FIELDS = {"attack": "attack", "health": "health", "zombies": "zombies", "item_attack": "bonus",
          "item_health": "bonus"}
# The one field each pick step's answer carries (beside its seat).
STEP_FIELDS = {"corner": ("corner",), "turn": ("move", "heal"), "found": ("found",), "outcome": ("outcome",),
               "special": ("outcome",), "item_kind": ("kind",), "drop": ("drop",), "pickup": ("take",),
               "weapon": ("use",), "used": ("keep", "discard"), "meet": ("fight", "give"), "spoils": ("spoils",)}
CUP_STEPS = ("roll_event", "roll_red", "roll_black", "roll_pvp_a", "roll_pvp_d", "pick_aside")


# -- setup ------------------------------------------------------------------------------------------------------


def _players(players: object) -> tuple[str, ...]:
    if not isinstance(players, list | tuple):
        raise IllegalAction("dz.refuse.players_list", got=described(players))
    for p in players:
        if not isinstance(p, str):
            raise IllegalAction("dz.refuse.player_type", got=described(p))
        if p not in COLOURS:
            raise IllegalAction("dz.refuse.colour_unknown", name=shown(p), colours=list(COLOURS))
    if len(set(players)) != len(players):
        raise IllegalAction("dz.refuse.seat_twice", colour=next(p for p in players if players.count(p) > 1))
    if not 1 <= len(players) <= 4:
        raise IllegalAction("dz.refuse.players", colours=list(COLOURS))
    return tuple(players)


def _options(options: object) -> dict[str, str]:
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise IllegalAction("dz.refuse.options_object", got=described(options))
    for name in options:
        if name not in OPTIONS:
            raise IllegalAction("dz.refuse.option_unknown", name=name_of(name), names=list(OPTIONS))
    chosen = {}
    for name, values in OPTIONS.items():
        value = options.get(name, DEFAULTS[name])
        if isinstance(value, bool) and "true" in values:
            value = "true" if value else "false"
        if not isinstance(value, str) or value not in values:
            raise IllegalAction("dz.refuse.option_value", name=name, values=[f'"{v}"' for v in values],
                                got=described(options[name]))
        chosen[name] = value
    return chosen


def start(players: object, options: object = None, position: object = None) -> State:
    if position is not None:
        raise IllegalAction("dz.refuse.position")
    players = _players(players)
    chosen = _options(options)
    width, height = (int(v) for v in chosen["grid"].split("x"))
    n = len(players)
    state = State(players, width, height, chosen["face_up_event"], chosen["play_on"] == "true",
                  box_dice=chosen["box_dice"] == "true",
                  cells=tuple(Cell() for _ in range(width * height)),
                  survivors=tuple(Survivor(p) for p in players), hidden_objectives=n, set_aside=n,
                  spare_survivors=SURVIVOR_CARDS - n)
    state = state.say("dz.n.setup", act=True, width=width, height=height, count=n)
    if n == 1:  # solo: the top-left corner
        return _begin_turn(_corner(state, "nw"))
    return replace(state, step="corner")


def _corner(state: State, corner: str) -> State:
    state = state.with_survivor(state.seat, corner=corner)
    return state.say("dz.n.corner", colour=state.seat, corner=corner, cell=state.name(state.corner_pos(corner)),
                     target=state.name(state.corner_pos(OPPOSITE[corner])))


# -- the flow of a turn ---------------------------------------------------------------------------------------


def _begin_turn(state: State) -> State:
    me = state.me
    state = replace(state, combat=None, fight=None, fought=(), asked=None, die=None, after="", start_flip=False)
    if me.attack is None:
        return replace(state, step="attack")
    if me.health is None:
        return replace(state, step="health")
    if me.pos is None:
        return _place(state)
    return replace(state, step="turn")


def _place(state: State) -> State:
    pos = state.corner_pos(state.me.corner)
    state = state.with_survivor(state.seat, pos=pos)
    state = state.say("dz.n.place", act=True, colour=state.seat, cell=state.name(pos))
    if state.cell(pos).up:
        return replace(state, step="turn")
    state = state.with_cell(pos, up=True).say("dz.n.flip", act=True, cell=state.name(pos))
    return replace(state, step="found", start_flip=True)


def _leave(state: State, seat: str, pos: tuple[int, int]) -> State:
    cell = state.cell(pos)
    if cell.up and not cell.zombies and not cell.items and not cell.objectives and not state.others_at(pos, seat):
        state = state.with_cell(pos, up=False).say("dz.n.flip_back", act=True, cell=state.name(pos))
    return state


def _move(state: State, direction: str) -> State:
    me = state.me
    dx, dy = DIRECTIONS[direction]
    to = (me.pos[0] + dx, me.pos[1] + dy)
    state = _leave(state, me.seat, me.pos).with_survivor(me.seat, pos=to)
    state = state.say("dz.n.move", act=True, colour=me.seat, dir=direction, cell=state.name(to))
    if not state.cell(to).up:
        state = state.with_cell(to, up=True).say("dz.n.flip", act=True, cell=state.name(to))
        return replace(state, step="found")
    zombies = state.cell(to).zombies
    if zombies:
        state = state.say("dz.n.zombies_there", count=zombies, cell=state.name(to))
        return _start_combat(state, "event")
    return _at_face_up(state)


def _at_face_up(state: State) -> State:
    me = state.me
    cell = state.cell(me.pos)
    if cell.items or (cell.objectives and not me.objective):
        return replace(state, step="pickup")
    return _event_or_skip(state)


def _event_or_skip(state: State) -> State:
    if state.face_up_event == "roll":
        return replace(state, step="roll_event")
    return _end_event(state.say("dz.n.face_up", cell=state.name(state.me.pos)))


def _end_event(state: State) -> State:
    me = state.me
    if me.objective and me.pos == state.corner_pos(OPPOSITE[me.corner]):
        state = state.with_survivor(me.seat, won=True)
        state = replace(state, winners=state.winners + (me.seat,))
        state = state.say("dz.n.win", colour=me.seat, cell=state.name(me.pos))
        if not state.play_on or not any(s.active for s in state.survivors):
            return _over(state)
        return _next_turn(state.say("dz.n.play_on"))
    return _meet(state)


def _meet(state: State) -> State:
    me = state.me
    if me.pos is None or not me.active:
        return _next_turn(state)
    if [s for s in state.others_at(me.pos, me.seat) if s not in state.fought]:
        return replace(state, step="meet", asked=None, fight=None)
    return _next_turn(state)


def _next_turn(state: State) -> State:
    n = len(state.players)
    for step in range(1, n + 1):
        index = (state.turn + step) % n
        if state.survivors[index].active:
            if index <= state.turn:
                state = replace(state, round=state.round + 1)
                state = state.say("dz.n.round", round=state.round)
            return _begin_turn(replace(state, turn=index))
    return _over(state)


def _over(state: State) -> State:
    state = replace(state, step="over", combat=None, fight=None, asked=None)
    return state.say("dz.n.over", winners=list(state.winners)) if state.winners else state.say("dz.n.over_none")


def _continue(state: State, then: str) -> State:
    state = replace(state, asked=None, after="")
    if then == "event":
        return _at_face_up(state)
    if then == "meet":
        return _meet(state)
    if then == "skip":
        return _end_event(state)
    return _end_event(state)


def _fit(state: State, seat: str, then: str) -> State:
    """Items beyond the hands' 4 slots: the holder chooses which stay in the district."""
    if state.of(seat).hands > HANDS:
        return replace(state, step="drop", asked=seat, after=then)
    return _continue(state, then)


# -- combat against zombies -----------------------------------------------------------------------------------


def attack_of(survivor: Survivor, use: tuple[int, ...]) -> int:
    """The attack value: the survivor card's plus the items used (one red die per point)."""
    return max(1, (survivor.attack or 0) + sum(survivor.items[i].attack for i in use))


def dice_for(state: State, count: int) -> int:
    """The dice a rule asks for: as many as it says, or no more than the box's six under "box_dice"."""
    return min(DICE, count) if state.box_dice else count


def red_dice(state: State) -> int:
    return dice_for(state, attack_of(state.me, state.combat.use))


def black_dice(state: State) -> int:
    return dice_for(state, state.cell(state.me.pos).zombies)


def pvp_dice(state: State, seat: str) -> int:
    survivor = state.of(seat)
    return dice_for(state, attack_of(survivor, _best_use(survivor)))


def weapons(survivor: Survivor) -> list[tuple[int, ...]]:
    """What a survivor may fight with: one item, or two dual-wieldable ones (items that add attack)."""
    useful = [i for i, g in enumerate(survivor.items) if g.attack > 0]
    out = [(i,) for i in useful]
    duals = [i for i in useful if survivor.items[i].kind == "dual"]
    out += [(a, b) for x, a in enumerate(duals) for b in duals[x + 1:]]
    return out


def _start_combat(state: State, then: str) -> State:
    state = replace(state, combat=Combat(then))
    if weapons(state.me):
        return replace(state, step="weapon")
    return replace(state.say("dz.n.bare", colour=state.seat, attack=attack_of(state.me, ())), step="roll_red")


def _death(state: State, seat: str) -> State:
    s = state.of(seat)
    pos = s.pos
    cell = state.cell(pos)
    state = state.say("dz.n.death", colour=seat, cell=state.name(pos), damage=s.damage, health=s.life)
    if s.items:
        state = state.with_cell(pos, items=cell.items + s.items)
        state = state.say("dz.n.drop_all", act=True, colour=seat, count=len(s.items), cell=state.name(pos))
    if s.objective:
        state = state.with_cell(pos, objectives=state.cell(pos).objectives + 1)
        state = state.say("dz.n.drop_objective", act=True, colour=seat, cell=state.name(pos))
    state = state.say("dz.n.remove_figure", act=True, colour=seat, cell=state.name(pos))
    if len(state.players) == 1:  # what he held lies where he fell, not in his hands too
        state = replace(state.with_survivor(seat, items=(), objective=False, pos=None, out=True), lost=True)
        return _over(state.say("dz.n.lost"))
    if state.spare_survivors > 0:
        state = state.with_survivor(seat, number=s.number + 1, attack=None, health=None, damage=0, items=(),
                                    objective=False, pos=None)
        state = replace(state, spare_survivors=state.spare_survivors - 1)
        return state.say("dz.n.respawn", colour=seat, corner=s.corner)
    state = state.with_survivor(seat, items=(), objective=False, pos=None, out=True)
    state = state.say("dz.n.out", colour=seat)
    if not any(x.active for x in state.survivors):
        return _over(state)
    return state


def _hurt(state: State, seat: str, count: int) -> tuple[State, bool]:
    s = state.of(seat)
    state = state.with_survivor(seat, damage=s.damage + count)
    s = state.of(seat)
    state = state.say("dz.n.hurt", act=True, colour=seat, count=count, damage=s.damage, health=s.life)
    if s.damage > s.life:
        return _death(state, seat), True
    return state, False


def proposal(state: State) -> dict[str, str]:
    combat = state.combat
    pairing = best_pairing(combat.red, combat.black)
    return {f"r{r + 1}": ("none" if b is None else f"b{b + 1}") for r, b in pairing.items()}


def _pairing_of(state: State, pairs: dict) -> dict[int, int | None]:
    combat = state.combat
    out: dict[int, int | None] = {}
    for r in range(len(combat.red)):
        target = pairs.get(f"r{r + 1}")
        if target == "none":
            out[r] = None
        elif isinstance(target, str) and target[:1] == "b" and target[1:].isdigit():
            out[r] = int(target[1:]) - 1
        else:
            raise ValueError("not a pairing")
    outcome(combat.red, combat.black, out)  # raises on a black die paired twice
    return out


def _paired(state: State, pairs: dict) -> State:
    combat, me = state.combat, state.me
    kills, damage = outcome(combat.red, combat.black, _pairing_of(state, pairs))
    best = outcome(combat.red, combat.black, best_pairing(combat.red, combat.black))
    key = "dz.n.paired" if (kills, damage) == best else "dz.n.paired_own"
    state = state.say(key, colour=me.seat, kills=kills, damage=damage)
    pos = me.pos
    if kills:
        state = state.with_cell(pos, zombies=state.cell(pos).zombies - kills)
        state = state.say("dz.n.kill", act=True, count=kills, cell=state.name(pos))
    state = replace(state, combat=replace(combat, red=(), black=()))
    if damage:
        state, dead = _hurt(state, me.seat, damage)
        if dead:
            return state if state.over else _next_turn(state)
    if state.cell(pos).zombies == 0:
        state = state.say("dz.n.cleared", cell=state.name(pos))
        if state.combat.use:
            return replace(state, step="used")
        return _continue(replace(state, combat=None), combat.then)
    return replace(state, step="roll_red")


# -- what each step asks ---------------------------------------------------------------------------------------


def asked(state: State) -> str | None:
    if state.over or state.step in CUP_STEPS:
        return None
    return state.asked or state.seat


def _choices(state: State) -> list[Choice]:  # noqa: C901 — one branch per step, read side by side
    seat = asked(state)
    step = state.step
    me = state.of(seat)
    out: list[Choice] = []

    def add(key: str, slot: int | None = None, note=None, **fields) -> None:
        label = fields.pop("label", None) or msg(key)
        out.append(Choice({"seat": seat, **fields}, label, slot, note=note))

    if step == "corner":
        taken = {s.corner for s in state.survivors}
        for i, c in enumerate(CORNERS):
            if c not in taken:
                add("", i + 1, label=msg("dz.c.corner", corner=c, cell=state.name(state.corner_pos(c))),
                    corner=c)
    elif step == "turn":
        for i, (d, (dx, dy)) in enumerate(DIRECTIONS.items()):
            to = (me.pos[0] + dx, me.pos[1] + dy)
            if 0 <= to[0] < state.width and 0 <= to[1] < state.height:
                note = msg("dz.c.face_up" if state.cell(to).up else "dz.c.face_down")
                add("", i + 1, note, label=msg("dz.c.move", dir=d, cell=state.name(to)), move=d)
        if me.damage:
            add("dz.c.heal", 5, heal=True)
    elif step == "found":
        add("dz.c.district", 1, found="district")
        if state.hidden_objectives and not state.cell(me.pos).seen:  # the objective only on a card's first turn
            add("dz.c.objective", 2, found="objective")
    elif step in ("outcome", "special"):
        first = "nothing" if step == "outcome" else "done"
        add(f"dz.c.{first}", 1, outcome=first)
        add("dz.c.item", 2, outcome="item")
        add("dz.c.zombies", 3, outcome="zombies")
        if step == "outcome":
            add("dz.c.special", 4, outcome="special")
    elif step == "item_kind":
        for i, k in enumerate(KINDS):
            add("", i + 1, label=msg(f"dz.kind.{k}"), kind=k)
    elif step == "drop":
        for i, g in enumerate(me.items):
            add("", i + 1 if i < 6 else None, label=msg("dz.c.gear", index=i + 1, item=g.message()), drop=i)
    elif step == "pickup":
        add("dz.c.take", 1, take=True)
        add("dz.c.leave", 2, take=False)
    elif step == "weapon":
        add("", 1, label=msg("dz.c.bare", attack=attack_of(me, ())), use=[])
        for i, use in enumerate(weapons(me)):
            add("", i + 2 if i < 5 else None,
                label=msg("dz.c.use", items=[me.items[u].message() for u in use], attack=attack_of(me, use)),
                use=list(use))
    elif step == "used":
        add("dz.c.keep", 1, keep=True)
        for i, u in enumerate(state.combat.use):
            add("", i + 2, label=msg("dz.c.discard", item=me.items[u].message()), discard=u)
    elif step == "meet":
        add("dz.c.no_fight", 1, fight="")
        for i, other in enumerate(s for s in state.others_at(me.pos, seat) if s not in state.fought):
            add("", i + 2, label=msg("dz.c.fight", to_seat=other), fight=other)
        for other in state.others_at(me.pos, seat):  # a trade both agree to: each item handed over is entered
            for i, g in enumerate(me.items):
                add("", label=msg("dz.c.give", item=g.message(), to_seat=other), give=f"{seat}:{i}:{other}")
            for i, g in enumerate(state.of(other).items):
                add("", label=msg("dz.c.receive", item=g.message(), to_seat=other), give=f"{other}:{i}:{seat}")
    elif step == "spoils":
        fight = state.fight
        loser = fight.defender if seat == fight.attacker else fight.attacker
        other = state.of(loser)
        add("", 1, label=msg("dz.c.hurt", to_seat=loser), spoils="damage")
        if other.objective and not me.objective:
            add("", 2, label=msg("dz.c.steal_objective", to_seat=loser), spoils="objective")
        for i, g in enumerate(other.items):
            add("", i + 3 if i < 4 else None, label=msg("dz.c.steal", item=g.message(), to_seat=loser),
                spoils=f"item:{i}")
    return out


def _title(state: State, seat: str):
    step, me = state.step, state.of(seat)
    cell = state.name(me.pos) if me.pos else ""
    params = {"colour": seat, "cell": cell}
    if step == "outcome":
        params["die"] = state.die
    if step == "weapon":
        params["count"] = state.cell(me.pos).zombies
    if step in ("attack", "health"):
        params["number"] = me.number
    if step == "spoils":
        fight = state.fight
        params["to_seat"] = fight.defender if seat == fight.attacker else fight.attacker
    return msg(f"dz.q.{step}", **params)


def _facts(state: State, seat: str) -> tuple:
    me = state.of(seat)
    out = []
    if me.attack is not None and me.health is not None and state.step not in ("attack", "health"):
        out.append(msg("dz.f.survivor", attack=me.attack, health=me.life, damage=me.damage, count=len(me.items),
                       hands=me.hands))
    if me.objective:
        out.append(msg("dz.f.objective", cell=state.name(state.corner_pos(OPPOSITE[me.corner]))))
    if state.step == "pair":
        combat = state.combat
        pairing = best_pairing(combat.red, combat.black)
        kills, damage = outcome(combat.red, combat.black, pairing)
        pairs = [{"key": "dz.f.pair", "params": {
            "red": {"key": "dz.die.red", "params": {"index": r + 1, "value": combat.red[r]}},
            "black": {"key": "dz.die.black", "params": {"index": b + 1, "value": combat.black[b]}}}}
            for r, b in pairing.items() if b is not None]
        out.append(msg("dz.f.proposal", pairs=pairs, kills=kills, damage=damage))
        out.append(msg("dz.f.rule"))
    if state.step in ("item_attack", "item_health"):
        out.append(msg(f"dz.kind.{state.draft[0]}"))
    return tuple(out)


def prompt(state: State) -> Prompt | None:
    seat = asked(state)
    if seat is None:
        return None
    key = (len(state.narration), state.step, seat)
    title = _title(state, seat)
    if state.step in NUMBERS:
        return Prompt(NUMBER, {seat: []}, False, key, state.step, title)  # its question says the range
    if state.step == "pair":
        return Prompt(ASSIGN, {seat: []}, False, key, "pair", title)  # its question says the dice and the proposal
    return Prompt(PICK, {seat: [dict(c.action) for c in _choices(state)]}, False, key, state.step, title)


def question(state: State, seat: str) -> Question | None:
    current = prompt(state)
    if current is None or seat not in current.seats:
        return None
    facts = _facts(state, seat)
    if current.kind == NUMBER:
        low, high = NUMBERS[state.step]
        return Question(current.id, seat, NUMBER, state.step, current.title, answer={"seat": seat},
                        field=FIELDS[state.step], low=low, high=high, facts=facts)
    if current.kind == ASSIGN:
        combat = state.combat
        items = tuple(Item(f"r{i + 1}", msg("dz.die.red", index=i + 1, value=v)) for i, v in enumerate(combat.red))
        targets = tuple(Item(f"b{i + 1}", msg("dz.die.black", index=i + 1, value=v))
                        for i, v in enumerate(combat.black)) + (Item("none", msg("dz.die.none")),)
        return Question(current.id, seat, ASSIGN, "pair", current.title, answer={"seat": seat,
                        "pairs": proposal(state)}, field="pairs", items=items, targets=targets, facts=facts)
    return Question(current.id, seat, PICK, state.step, current.title, choices=tuple(_choices(state)), facts=facts)


def cup_request(state: State) -> CupRequest | None:
    step = state.step
    if step == "roll_event":
        return CupRequest("roll", 1)
    if step in ("roll_red", "roll_black", "roll_pvp_a", "roll_pvp_d"):
        need, have = _dice_needed(state)
        return CupRequest("roll", min(CUP_MOST, need - len(have)))
    if step == "pick_aside":
        return CupRequest("pick", state.set_aside)
    return None


def _dice_needed(state: State) -> tuple[int, tuple[int, ...]]:
    """The dice the roll of this step needs, and those already rolled (a roll of more than the cup holds comes
    in several goes)."""
    step = state.step
    if step == "roll_red":
        return red_dice(state), state.combat.red
    if step == "roll_black":
        return black_dice(state), state.combat.black
    if step == "roll_pvp_a":
        return pvp_dice(state, state.fight.attacker), state.fight.red
    return pvp_dice(state, state.fight.defender), state.fight.other


def _best_use(survivor: Survivor) -> tuple[int, ...]:
    """In a fight between survivors each rolls his attack value: with his best item (or dual pair)."""
    return max([(), *weapons(survivor)], key=lambda use: attack_of(survivor, use))


# -- answers ---------------------------------------------------------------------------------------------------


def check(state: State, action: object) -> dict:
    """The answer itself if it is legal now; else IllegalAction naming why, in the player's terms."""
    if state.over:
        raise IllegalAction("dz.refuse.over")
    if not isinstance(action, dict):
        raise IllegalAction("dz.refuse.answer_object", got=described(action))
    seat = action.get("seat")
    if not isinstance(seat, str) or seat not in state.players:
        raise IllegalAction("dz.refuse.seat_unknown", got=described(seat), colours=list(state.players))
    current = prompt(state)
    if current is None or seat not in current.seats:
        raise IllegalAction("dz.refuse.not_asked", colour=seat)
    if current.kind == NUMBER:
        field = FIELDS[state.step]
        low, high = NUMBERS[state.step]
        _only(action, {field})
        value = action.get(field)
        if not whole(value) or not low <= value <= high:
            raise IllegalAction("dz.refuse.number", low=low, high=high, got=described(value))
    elif current.kind == ASSIGN:
        _only(action, {"pairs"})
        _check_pairs(state, action.get("pairs"))
    elif not among(action, current.options[seat]):
        _why_not(state, seat, action, current.options[seat])
        raise IllegalAction("dz.refuse.choice", colour=seat)
    return action


def _only(action: dict, fields: set[str]) -> None:
    """An answer carries its seat and the question's fields, nothing else."""
    for name in action:
        if name != "seat" and name not in fields:
            raise IllegalAction("dz.refuse.field_unknown", name=name_of(name))


def _check_pairs(state: State, pairs: object) -> None:
    red, black = len(state.combat.red), len(state.combat.black)
    if not isinstance(pairs, dict):
        raise IllegalAction("dz.refuse.pairs_type", got=described(pairs))
    if set(pairs) != {f"r{i + 1}" for i in range(red)}:
        raise IllegalAction("dz.refuse.pairs_dice", count=red)
    for target in pairs.values():
        if target != "none" and not (isinstance(target, str) and target[:1] == "b" and target[1:].isdecimal()
                                     and target[1:].isascii() and 1 <= int(target[1:]) <= black):
            raise IllegalAction("dz.refuse.pairs_target", got=described(target), count=black)
    chosen = [t for t in pairs.values() if t != "none"]
    if len(set(chosen)) != len(chosen):
        raise IllegalAction("dz.refuse.pairs")


def _why_not(state: State, seat: str, action: dict, legal: list[dict]) -> None:  # noqa: C901 — a reason per rule
    """Raise the reason an answer that is not among the legal ones is refused (None: no rule names it)."""
    _only(action, set(STEP_FIELDS[state.step]))
    given = [name for name in action if name != "seat"]
    if not given:
        raise IllegalAction("dz.refuse.no_answer", colour=seat)
    if len(given) > 1:
        raise IllegalAction("dz.refuse.one_answer", names=[f'"{name_of(n)}"' for n in given])
    name = given[0]
    value = action[name]
    me = state.of(seat)
    step = state.step

    def wrong(values: list[object]) -> IllegalAction:
        return IllegalAction("dz.refuse.value", name=name, values=[_said(v) for v in values], got=described(value))

    if step == "corner":
        owner = next((s.seat for s in state.survivors if s.corner == value), None) if value in CORNERS else None
        if owner is not None:
            raise IllegalAction("dz.refuse.corner_taken", corner=value, colour=owner)
        raise wrong(list(CORNERS))
    if step == "turn" and name == "move":
        if isinstance(value, str) and value in DIRECTIONS:
            raise IllegalAction("dz.refuse.off_city", dir=value, cell=state.name(me.pos))
        raise wrong(list(DIRECTIONS))
    if step == "turn" and name == "heal":
        if value is True and not me.damage:
            raise IllegalAction("dz.refuse.unhurt", colour=seat)
        raise IllegalAction("dz.refuse.true", name=name, got=described(value))
    if name == "keep" and value is not True:
        raise IllegalAction("dz.refuse.true", name=name, got=described(value))
    if step == "found" and value == "objective":
        if state.cell(me.pos).seen:
            raise IllegalAction("dz.refuse.objective_seen", cell=state.name(me.pos))
        raise IllegalAction("dz.refuse.objective_none")
    if name in ("drop", "discard") or (name == "use" and isinstance(value, list)):
        _why_not_items(state, me, name, value)
    if step == "meet" and name == "fight" and isinstance(value, str) and value in state.players:
        if value == seat or value not in state.others_at(me.pos, seat):
            raise IllegalAction("dz.refuse.not_here", to_seat=value, cell=state.name(me.pos))
        raise IllegalAction("dz.refuse.fought", to_seat=value)
    if step == "meet" and name == "give":
        raise IllegalAction("dz.refuse.give", got=described(value))
    if step == "spoils" and value == "objective":
        fight = state.fight
        loser = fight.defender if seat == fight.attacker else fight.attacker
        if me.objective:
            raise IllegalAction("dz.refuse.one_objective", colour=seat)
        raise IllegalAction("dz.refuse.no_objective", to_seat=loser)
    if step == "spoils" and isinstance(value, str) and value.startswith("item:"):
        raise IllegalAction("dz.refuse.item", got=described(value))
    raise wrong(sorted({repr(answer[name]): answer[name] for answer in legal if name in answer}.values(),
                       key=lambda v: str(v)))


def _why_not_items(state: State, me: Survivor, name: str, value: object) -> None:
    """Items are named by their place in the survivor's list, from 0."""
    indexes = value if name == "use" else [value]
    for index in indexes:
        if not whole(index) or not 0 <= index < len(me.items):
            raise IllegalAction("dz.refuse.item", got=described(index))
    if name == "discard":
        raise IllegalAction("dz.refuse.not_used", item=me.items[value].message())
    if name == "use":
        if len(set(indexes)) != len(indexes):
            raise IllegalAction("dz.refuse.same_item")
        for index in indexes:
            if me.items[index].attack <= 0:
                raise IllegalAction("dz.refuse.no_attack", item=me.items[index].message())
        if len(indexes) > 1:
            raise IllegalAction("dz.refuse.dual")


def _said(value: object) -> str:
    """A legal value as a refusal lists it: as the device writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def decide(state: State, action: object) -> list[dict]:
    return [check(state, action)]


def logged(state: State, answer: object) -> dict:
    """A stored answer read back from the save file, checked as `decide` checks an answer."""
    return check(state, answer)


def apply(state: State, event: dict) -> State:
    if isinstance(event, dict) and set(event) == {"roll"}:
        return _rolled(state, event["roll"])
    if isinstance(event, dict) and set(event) == {"pick"}:
        return _picked(state, event["pick"])
    return _answered(state, event)  # an answer `decide` accepted (or the log kept): never checked twice


def _answered(state: State, a: dict) -> State:  # noqa: C901 — one branch per step
    step, seat = state.step, a["seat"]
    me = state.of(seat)
    if step == "corner":
        state = _corner(state, a["corner"])
        if state.turn + 1 < len(state.players):
            return replace(state, turn=state.turn + 1)
        return _begin_turn(replace(state, turn=0))
    if step == "attack":
        return replace(state.with_survivor(seat, attack=a["attack"]), step="health")
    if step == "health":
        state = state.with_survivor(seat, health=a["health"])
        state = state.say("dz.n.survivor", colour=seat, number=me.number, attack=me.attack, health=a["health"])
        return _begin_turn(state)
    if step == "turn":
        if a.get("heal"):
            state = state.with_survivor(seat, damage=me.damage - 1)
            state = state.say("dz.n.heal", act=True, colour=seat, damage=me.damage - 1, health=me.life)
            return _next_turn(state)  # healing ends the turn
        return _move(state, a["move"])
    if step == "found":
        cell = state.name(me.pos)
        state = state.with_cell(me.pos, seen=True)  # a district now, or the district that replaces the objective
        if a["found"] == "district":
            state = state.say("dz.n.district", cell=cell)
            if state.start_flip:
                return replace(state, step="turn", start_flip=False)
            return replace(state, step="roll_event")
        state = replace(state, hidden_objectives=state.hidden_objectives - 1)
        if me.objective:  # one objective card at most: the second stays where it was found
            state = state.with_cell(me.pos, objectives=state.cell(me.pos).objectives + 1)
            state = state.say("dz.n.objective_left", act=True, colour=seat, cell=cell)
            if state.start_flip:
                return replace(state, step="turn", start_flip=False)
            return _end_event(state)
        state = state.with_survivor(seat, objective=True).say("dz.n.objective", act=True, colour=seat, cell=cell)
        return replace(state, step="pick_aside")
    if step in ("outcome", "special"):
        what = a["outcome"]
        if what in ("nothing", "done"):
            return _end_event(state.say("dz.n.nothing" if what == "nothing" else "dz.n.special_done",
                                        cell=state.name(me.pos)))
        if what == "item":
            return replace(state, step="item_kind")
        if what == "zombies":
            return replace(state, step="zombies")
        return replace(state.say("dz.n.special", cell=state.name(me.pos)), step="special")
    if step == "zombies":
        pos = me.pos
        state = state.with_cell(pos, zombies=state.cell(pos).zombies + a["zombies"])
        state = state.say("dz.n.zombies", act=True, count=a["zombies"], cell=state.name(pos))
        return _start_combat(state, "end")
    if step == "item_kind":
        return replace(state, step="item_attack", draft=(a["kind"],))
    if step == "item_attack":
        return replace(state, step="item_health", draft=(state.draft[0], a["bonus"]))
    if step == "item_health":
        gear = Gear(state.draft[0], state.draft[1], a["bonus"])
        state = replace(state.with_survivor(seat, items=me.items + (gear,)), draft=())
        state = state.say("dz.n.item", act=True, colour=seat, item=gear.message())
        return _fit(state, seat, "end")
    if step == "drop":
        gear = me.items[a["drop"]]
        state = state.with_survivor(seat, items=me.items[:a["drop"]] + me.items[a["drop"] + 1:])
        state = state.with_cell(me.pos, items=state.cell(me.pos).items + (gear,))
        state = state.say("dz.n.drop", act=True, colour=seat, item=gear.message(), cell=state.name(me.pos))
        return _fit(state, seat, state.after)
    if step == "pickup":
        if not a["take"]:
            return _event_or_skip(state)
        cell = state.cell(me.pos)
        take_objective = bool(cell.objectives) and not me.objective
        state = state.with_survivor(seat, items=me.items + cell.items, objective=me.objective or take_objective)
        state = state.with_cell(me.pos, items=(), objectives=cell.objectives - (1 if take_objective else 0))
        if cell.items:
            state = state.say("dz.n.pickup", act=True, colour=seat, count=len(cell.items), cell=state.name(me.pos))
        if take_objective:
            state = state.say("dz.n.pickup_objective", act=True, colour=seat, cell=state.name(me.pos))
        return _fit(state.say("dz.n.no_event", cell=state.name(me.pos)), seat, "skip")
    if step == "weapon":
        use = tuple(a["use"])
        state = replace(state, combat=replace(state.combat, use=use), step="roll_red")
        if use:
            return state.say("dz.n.weapon", colour=seat, items=[me.items[u].message() for u in use],
                             attack=attack_of(me, use))
        return state.say("dz.n.bare", colour=seat, attack=attack_of(me, ()))
    if step == "pair":
        return _paired(state, a["pairs"])
    if step == "used":
        then = state.combat.then
        state = replace(state, combat=None)
        if "discard" in a:
            gear = me.items[a["discard"]]
            state = state.with_survivor(seat, items=me.items[:a["discard"]] + me.items[a["discard"] + 1:])
            state = state.say("dz.n.discard", act=True, colour=seat, item=gear.message())
            s = state.of(seat)
            if s.damage > s.life:
                state = _death(state, seat)
                return state if state.over else _next_turn(state)
        return _continue(state, then)
    if step == "meet":
        if "give" in a:
            giver, index, taker = a["give"].split(":")
            gear = state.of(giver).items[int(index)]
            items = state.of(giver).items
            state = state.with_survivor(giver, items=items[:int(index)] + items[int(index) + 1:])
            state = state.with_survivor(taker, items=state.of(taker).items + (gear,))
            state = state.say("dz.n.give", act=True, colour=giver, to_seat=taker, item=gear.message())
            s = state.of(giver)
            if s.damage > s.life:  # an item that gave health, handed over
                state = _death(state, giver)
                if state.over:
                    return state
            return _fit(state, taker, "meet")
        if not a["fight"]:
            return _next_turn(state)
        state = replace(state, fight=Fight(seat, a["fight"]), fought=state.fought + (a["fight"],))
        return replace(state.say("dz.n.fight", colour=seat, to_seat=a["fight"]), step="roll_pvp_a")
    if step == "spoils":
        return _spoils(state, seat, a["spoils"])
    raise IllegalAction("dz.refuse.shape")


def _spoils(state: State, winner: str, what: str) -> State:
    fight = state.fight
    loser = fight.defender if winner == fight.attacker else fight.attacker
    other, me = state.of(loser), state.of(winner)
    state = replace(state, fight=None, asked=None)
    if what == "damage":
        state, dead = _hurt(state, loser, 1)
        if state.over:
            return state
        return _meet(state)
    if what == "objective":
        state = state.with_survivor(loser, objective=False).with_survivor(winner, objective=True)
        return _meet(state.say("dz.n.steal_objective", act=True, colour=winner, to_seat=loser))
    index = int(what.split(":")[1])
    gear = other.items[index]
    state = state.with_survivor(loser, items=other.items[:index] + other.items[index + 1:])
    state = state.with_survivor(winner, items=me.items + (gear,))
    state = state.say("dz.n.steal", act=True, colour=winner, to_seat=loser, item=gear.message())
    s = state.of(loser)
    if s.damage > s.life:  # a stolen item that gave health
        state = _death(state, loser)
        if state.over:
            return state
    return _fit(state, winner, "meet")


def _rolled(state: State, dice: object) -> State:
    request = cup_request(state)
    if request is None or request.kind != "roll" or not isinstance(dice, list | tuple) \
            or len(dice) != request.count or not all(whole(d) and 1 <= d <= 6 for d in dice):
        raise IllegalAction("dz.refuse.cup")
    step = state.step
    dice = tuple(dice)
    if step == "roll_event":
        state = replace(state, die=dice[0], step="outcome")
        return state.say("dz.n.event", die=dice[0], cell=state.name(state.me.pos))
    need, have = _dice_needed(state)
    dice = have + dice
    if len(dice) < need:  # the rest of this colour's dice in the cup's next go
        if step == "roll_red":
            return replace(state, combat=replace(state.combat, red=dice))
        if step == "roll_black":
            return replace(state, combat=replace(state.combat, black=dice))
        if step == "roll_pvp_a":
            return replace(state, fight=replace(state.fight, red=dice))
        return replace(state, fight=replace(state.fight, other=dice))
    if step == "roll_red":
        return replace(state, combat=replace(state.combat, red=dice), step="roll_black")
    if step == "roll_black":
        combat = replace(state.combat, black=dice, rounds=state.combat.rounds + 1)
        state = replace(state, combat=combat, step="pair")
        return state.say("dz.n.combat", round=combat.rounds, cell=state.name(state.me.pos),
                         red=" ".join(map(str, combat.red)), black=" ".join(map(str, dice)))
    if step == "roll_pvp_a":
        return replace(state, fight=replace(state.fight, red=dice), step="roll_pvp_d")
    if step == "roll_pvp_d":
        fight = replace(state.fight, other=dice)
        a, d = sum(fight.red), sum(dice)
        state = replace(state, fight=fight)
        state = state.say("dz.n.fight_dice", colour=fight.attacker, to_seat=fight.defender,
                          dice=" ".join(map(str, fight.red)), other=" ".join(map(str, dice)), sum=a, other_sum=d)
        if a == d:
            return _meet(replace(state.say("dz.n.tie"), fight=None))
        winner = fight.attacker if a > d else fight.defender
        return replace(state.say("dz.n.fight_won", colour=winner), step="spoils", asked=winner)
    raise IllegalAction("dz.refuse.cup")  # pragma: no cover — cup_request() names only the steps above


def _picked(state: State, index: object) -> State:
    if state.step != "pick_aside" or type(index) is not int or not 0 <= index < state.set_aside:
        raise IllegalAction("dz.refuse.cup")
    pos = state.me.pos
    state = state.say("dz.n.aside", act=True, number=index + 1, count=state.set_aside, cell=state.name(pos))
    state = replace(state, set_aside=state.set_aside - 1)
    if state.start_flip:
        return replace(state, step="turn", start_flip=False)
    return replace(state, step="roll_event")
