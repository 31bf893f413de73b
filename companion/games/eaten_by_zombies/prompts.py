"""Eaten by Zombies!: what the table waits for (prompts and each seat's question), which answers are legal and
why another is refused, and where each accepted answer goes in the engine."""

from __future__ import annotations

from companion.contract import NUMBER, PICK, Choice, IllegalAction, Message, Prompt, Question, msg
from companion.games.checks import among, described, name_of, whole

from . import engine
from .state import LEVELS, MAX_BONUS, MAX_VALUE, SPEEDS, State, pile_has

LEVEL_SLOTS = {level: i + 1 for i, level in enumerate(LEVELS)}  # levels 1/2/4/6/8 on buttons 1..5
PASS_SLOT = 6


def asked(state: State) -> str | None:
    """The one seat the table waits for now."""
    if state.over or state.step == "market":
        return None
    if state.step in ("add", "add_speed"):
        return state.adders[0] if state.adders else None
    return state.active


def _levels(seat: str, pile, **extra) -> list[dict]:
    return [{"seat": seat, "level": level, **extra} for level in LEVELS if pile_has(pile, level)]


def legal(state: State, seat: str) -> list[dict]:
    """Every answer `seat` may give now, each a complete action."""
    step = state.step
    if step in ("flip", "zlevel"):
        return _levels(seat, state.deck)
    if step in ("flip_speed",):
        return [{"seat": seat, "speed": s} for s in SPEEDS]
    if step == "add":
        return _levels(seat, state.held(seat)) + [{"seat": seat, "pass": True}]
    if step == "add_speed":
        return [{"seat": seat, "speed": s} for s in engine.legal_speeds(state, seat)]
    if step == "choose":
        out = [{"seat": seat, "fight": True}, {"seat": seat, "run": True}]
        return out + ([{"seat": seat, "stuck": True}] if state.dead else [])
    if step in NUMBER_STEPS:
        return []  # a number: its range is said once, by number_range (the question shows it)
    if step == "removed":
        return _levels(seat, state.held(seat)) + [{"seat": seat, "pass": True}]
    if step == "refill":
        return [{"seat": seat, "refilled": True}, {"seat": seat, "dies": True}]
    if step == "zdraw":
        return [{"seat": seat, "draw": n} for n in range(1, max_draw(state) + 1)]
    if step in ("zpower", "zback"):
        out = _levels(seat, state.held(seat))
        return out + ([{"seat": seat, "pass": True}] if step == "zback" else [])
    return []


def number_range(step: str) -> tuple[int, int]:
    """The numbers a step asks for: the level sum's value, or the bonus."""
    return 0, MAX_VALUE if step == "value" else MAX_BONUS


def max_draw(state: State) -> int:
    return 6 if 6 in state.in_force else 4


NUMBER_STEPS = {"value", "bonus"}
SECRET_STEPS = {"zlevel", "zback"}  # what a zombie player draws and puts back is his own


def prompt(state: State) -> Prompt | None:
    seat = asked(state)
    if seat is None:
        return None
    kind = NUMBER if state.step in NUMBER_STEPS else PICK
    key = (state.round, state.step, len(state.narration))
    return Prompt(kind, {seat: legal(state, seat)}, False, key, state.step, title(state, seat))


def title(state: State, seat: str) -> Message:
    step = state.step
    if step == "flip":
        return msg("ebz.q.flip", colour=seat, number=state.flips_total - state.flips_left + 1,
                   total=state.flips_total)
    if step == "flip_speed":
        return msg("ebz.q.flip_speed", colour=seat, level=state.level)
    if step == "add":
        return msg("ebz.q.add", colour=seat, to_seat=state.active)
    if step == "add_speed":
        return msg("ebz.q.add_speed", colour=seat, level=state.level)
    if step == "choose":
        return msg("ebz.q.choose", colour=seat)
    if step == "value":
        return msg("ebz.q.fight_value" if state.how == "fight" else "ebz.q.flee_value", colour=seat)
    if step == "bonus":
        return msg("ebz.q.bonus", colour=seat)
    if step == "removed":
        return msg("ebz.q.removed", colour=seat, count=state.last.remove if state.last else 0)
    if step == "refill":
        return msg("ebz.q.refill", colour=seat, hand=6)
    if step == "zdraw":
        return msg("ebz.q.zdraw", colour=seat, count=max_draw(state))
    if step == "zlevel":
        return msg("ebz.q.zlevel", colour=seat, number=state.drawn_total - state.drawn_left + 1,
                   total=state.drawn_total)
    if step == "zpower":
        return msg("ebz.q.zpower", colour=seat)
    return msg("ebz.q.zback", colour=seat)


def facts(state: State, seat: str) -> tuple[Message, ...]:
    out = []
    if state.field and state.step not in ("zdraw", "zlevel", "zpower", "zback"):
        out.append(msg("ebz.f.field", count=len(state.field), level_sum=state.level_sum,
                       speed_sum=state.speed_sum))
    if state.step in ("add", "add_speed"):
        if seat in state.dead and 2 in state.in_force:
            out.append(msg("ebz.f.power2"))
        else:
            out.append(msg("ebz.f.speed_rule", count=len(state.field)))
    if state.step == "value":
        need = state.level_sum if state.how == "fight" else state.speed_sum
        out.append(msg("ebz.f.need_fight" if state.how == "fight" else "ebz.f.need_run", need=need))
    if state.step == "bonus":
        out.append(msg("ebz.f.budget", value=state.value))
    if state.step == "removed":
        out.append(msg("ebz.f.removed", count=state.remove_left))
    if state.in_force:
        out.append(msg("ebz.f.in_force", powers=[{"key": f"ebz.power.{p}", "params": {}} for p in state.in_force]))
    return tuple(out)


def _choice(state: State, action: dict) -> Choice:
    step = state.step
    if "level" in action:
        level = action["level"]
        if step in ("add", "removed", "zpower", "zback"):
            n = state.held(action["seat"])[LEVELS.index(level)]
            key = {"add": "ebz.c.add", "removed": "ebz.c.removed", "zpower": "ebz.c.power",
                   "zback": "ebz.c.back"}[step]
            note = msg(f"ebz.power.{level}") if step == "zpower" else None
            return Choice(action, msg(key, level=level, count=n), LEVEL_SLOTS[level], note=note)
        return Choice(action, msg("ebz.c.level", level=level), LEVEL_SLOTS[level])
    if "speed" in action:
        return Choice(action, msg("ebz.c.speed", speed=action["speed"]), action["speed"])
    if "pass" in action:
        key = {"add": "ebz.c.no_add", "removed": "ebz.c.removed_none", "zback": "ebz.c.back_done"}[step]
        return Choice(action, msg(key), PASS_SLOT)
    if "fight" in action:
        return Choice(action, msg("ebz.c.fight"), 1, note=msg("ebz.c.fight_note", need=state.level_sum))
    if "run" in action:
        return Choice(action, msg("ebz.c.run"), 2, note=msg("ebz.c.run_note", need=state.speed_sum))
    if "stuck" in action:
        return Choice(action, msg("ebz.c.stuck"), PASS_SLOT, confirm=True)
    if "refilled" in action:
        return Choice(action, msg("ebz.c.refilled", hand=6), 1)
    if "dies" in action:
        return Choice(action, msg("ebz.c.dies"), PASS_SLOT, confirm=True)
    return Choice(action, msg("ebz.c.draw", count=action["draw"]), action["draw"])


def question(state: State, seat: str) -> Question | None:
    current = prompt(state)
    if current is None or seat not in current.seats:
        return None
    secret = state.step in SECRET_STEPS
    if current.kind == NUMBER:
        low, high = number_range(state.step)
        return Question(current.id, seat, NUMBER, state.step, current.title, secret, answer={"seat": seat},
                        field=state.step, low=low, high=high, facts=facts(state, seat))
    choices = tuple(_choice(state, a) for a in current.options[seat])
    return Question(current.id, seat, PICK, state.step, current.title, secret, choices, facts=facts(state, seat))


# -- checking an answer ---------------------------------------------------------------------------------------


# The fields each step's answer may carry (beside its seat): one of them at a time.
STEP_FIELDS = {"flip": ("level",), "zlevel": ("level",), "flip_speed": ("speed",), "add_speed": ("speed",),
               "add": ("level", "pass"), "removed": ("level", "pass"), "zpower": ("level",),
               "zback": ("level", "pass"), "choose": ("fight", "run", "stuck"), "value": ("value",),
               "bonus": ("bonus",), "refill": ("refilled", "dies"), "zdraw": ("draw",)}


def check(state: State, action: object) -> dict:
    """The answer itself if it is legal now; else IllegalAction saying why, in the player's terms."""
    if state.over:
        raise IllegalAction("ebz.refuse.over")
    if not isinstance(action, dict):
        raise IllegalAction("ebz.refuse.answer_object", got=described(action))
    seat = action.get("seat")
    if not isinstance(seat, str) or seat not in state.players:
        raise IllegalAction("ebz.refuse.seat_unknown", got=described(seat), colours=list(state.players))
    waiting = asked(state)
    if seat != waiting:
        if state.step in ("add", "add_speed", "choose") and "level" in action and seat != state.active:
            _why_not_adding(state, seat)
        raise IllegalAction("ebz.refuse.not_asked", colour=seat)
    if state.step in NUMBER_STEPS:
        low, high = number_range(state.step)
        number = action.get(state.step)
        if set(action) == {"seat", state.step} and whole(number) and low <= number <= high:
            return action
    elif among(action, legal(state, seat)):  # value for value and type for type (no 4.0, no true for 1)
        return action
    _why_not(state, seat, action)
    raise IllegalAction("ebz.refuse.shape")


def _why_not_adding(state: State, seat: str) -> None:
    if seat not in state.dead and 8 in state.in_force:
        raise IllegalAction("ebz.refuse.power8", colour=seat)
    if seat in state.dead and state.active not in state.neighbours(seat) and 4 not in state.in_force:
        raise IllegalAction("ebz.refuse.neighbours", colour=seat, to_seat=state.active)
    if not sum(state.held(seat)):
        raise IllegalAction("ebz.refuse.no_zombies", colour=seat)
    if not engine.legal_speeds(state, seat):
        raise IllegalAction("ebz.refuse.speed_rule", count=len(state.field))


def _why_not(state: State, seat: str, action: dict) -> None:  # noqa: C901 — a reason per rule, read side by side
    """Raise the reason the rules give for refusing `action` (returns when no rule names one)."""
    step = state.step
    given = [name for name in action if name != "seat"]
    fields = STEP_FIELDS.get(step, ())
    if "bonus" in given and step != "bonus":
        lost = state.last is not None and state.last.seat == seat and state.last.result in ("lost", "failed")
        raise IllegalAction("ebz.refuse.bonus_lost" if lost else "ebz.refuse.bonus_not_now", colour=seat)
    for name in given:
        if name not in fields:
            raise IllegalAction("ebz.refuse.field_unknown", name=name_of(name))
    if not given:
        raise IllegalAction("ebz.refuse.no_answer", colour=seat)
    if len(given) > 1:
        if {"fight", "run"} <= set(given):
            raise IllegalAction("ebz.refuse.fight_or_run")
        raise IllegalAction("ebz.refuse.one_answer", names=[f'"{n}"' for n in given])
    name = given[0]
    value = action[name]
    if name in NUMBER_STEPS:
        low, high = number_range(name)
        raise IllegalAction("ebz.refuse.number", low=low, high=high, value=described(value))
    if name == "level":
        if not whole(value):
            raise IllegalAction("ebz.refuse.level_type", got=described(value))
        if value not in LEVELS:
            raise IllegalAction("ebz.refuse.level_unknown", level=str(value))  # a whole number: said as it is
        if step in ("flip", "zlevel"):
            raise IllegalAction("ebz.refuse.level_gone", level=value)
        raise IllegalAction("ebz.refuse.not_held", colour=seat, level=value)
    if name == "speed":
        if not whole(value):
            raise IllegalAction("ebz.refuse.speed_type", got=described(value))
        if value not in SPEEDS:
            raise IllegalAction("ebz.refuse.speed_unknown", speed=described(value))
        raise IllegalAction("ebz.refuse.speed_rule", count=len(state.field))
    if name == "draw":
        if whole(value) and 4 < value <= 6:
            raise IllegalAction("ebz.refuse.draw_power6", count=value)
        raise IllegalAction("ebz.refuse.draw", high=max_draw(state), got=described(value))
    if name == "stuck" and value is True and not state.dead:
        raise IllegalAction("ebz.refuse.stuck_no_zombies", colour=seat)
    if value is not True:  # pass, fight, run, stuck, refilled, dies: a choice is sent as true
        raise IllegalAction("ebz.refuse.true", name=name, got=described(value))


def answered(state: State, action: dict) -> State:
    """The state after a legal answer."""
    from dataclasses import replace

    step, seat = state.step, action["seat"]
    if step == "flip":
        return replace(state, level=action["level"], step="flip_speed")
    if step == "flip_speed":
        return engine.flipped(state, action["speed"])
    if step == "add":
        if "pass" in action:
            return engine.no_addition(state, seat)
        return replace(state, level=action["level"], step="add_speed")
    if step == "add_speed":
        return engine.added(state, seat, action["speed"])
    if step == "choose":
        if "stuck" in action:
            return engine.stuck(state)
        return replace(state, how="fight" if "fight" in action else "run", step="value")
    if step == "value":
        return engine.resolve(state, action["value"])
    if step == "bonus":
        return engine.bought(state, action["bonus"])
    if step == "removed":
        if "pass" in action:
            return engine.refill(state)
        return engine.removed_zombie(state, action["level"])
    if step == "refill":
        if "dies" in action:
            return engine.dies(state)
        return engine.next_turn(state)
    if step == "zdraw":
        return engine.draws(state, action["draw"])
    if step == "zlevel":
        return engine.drew(state, action["level"])
    if step == "zpower":
        return engine.kept_power(state, action["level"])
    if "pass" in action:  # zback: keep the rest in hand
        return engine.zombie_flips(state)
    return engine.put_back(state, action["level"])
