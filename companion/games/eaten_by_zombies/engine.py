"""Eaten by Zombies!: what each answer and each pick of the cup does to the books, and the steps that follow.

Every function takes a state and returns the next one; the answers reach `apply` only once `prompts.check` has
found them among the legal answers.
"""

from __future__ import annotations

from dataclasses import replace

from companion.contract import CupRequest, IllegalAction
from companion.games.checks import described, shown

from .state import (
    COLOURS,
    EMPTY,
    HAND,
    LEVELS,
    MAX_POWERS,
    Outcome,
    State,
    Zombie,
    deck_for,
    kind_param,
    pile_add,
    pile_json,
    pile_sum,
    read_options,
)


def start(players: object, options: object = None, position: object = None) -> State:
    if position is not None:
        raise IllegalAction("ebz.refuse.position")
    players = seats_of(players)
    deck = deck_for(len(players))
    return State(players, read_options(options, len(players)), sum(deck), deck,
                 cards={p: EMPTY for p in players})


def seats_of(players: object) -> tuple[str, ...]:
    """The seats of a new game, each checked for its type first (a {} among them is not a colour)."""
    if not isinstance(players, list | tuple):
        raise IllegalAction("ebz.refuse.players_list", got=described(players))
    for p in players:
        if not isinstance(p, str):
            raise IllegalAction("ebz.refuse.player_type", got=described(p))
        if p not in COLOURS:
            raise IllegalAction("ebz.refuse.colour_unknown", name=shown(p), colours=list(COLOURS))
    if len(set(players)) != len(players):
        raise IllegalAction("ebz.refuse.seat_twice", colour=next(p for p in players if players.count(p) > 1))
    if not 2 <= len(players) <= 4:
        raise IllegalAction("ebz.refuse.players")
    return tuple(players)


# -- the cup: the market's random action kinds ----------------------------------------------------------------


def pool(state: State) -> tuple:
    return tuple(k for k in state.options.market if k not in state.market)


def cup_request(state: State) -> CupRequest | None:
    if state.step == "market":
        return CupRequest("pick", len(pool(state)))
    return None


def picked(state: State, index: int) -> State:
    if state.step != "market" or type(index) is not int or not 0 <= index < len(pool(state)):
        raise IllegalAction("ebz.refuse.shape")
    state = replace(state, market=state.market + (pool(state)[index],))
    if len(state.market) < 2 * len(state.players):
        return state
    state = replace(state, round=1)
    state = state.say("ebz.n.setup.start", act=True, stick="HEAVY STICK", hide="HIDE", sandwich="SANDWICH")
    state = state.say("ebz.n.setup.basic", act=True, binoculars="BINOCULARS", book="A GOOD BOOK", rifle="RIFLE")
    if all(isinstance(k, int) for k in state.options.market):
        state = state.say("ebz.n.setup.numbered", act=True, count=len(state.options.market))
    state = state.say("ebz.n.setup.kinds", act=True, count=len(state.market),
                      kinds=[kind_param(k) for k in sorted(state.market, key=state.options.market.index)])
    d = state.deck
    state = state.say("ebz.n.setup.deck", act=True, count=state.total, l1=d[0], l2=d[1], l4=d[2], l6=d[3], l8=d[4])
    return begin_turn(state, state.players[0])


# -- turns --------------------------------------------------------------------------------------------------


def begin_turn(state: State, seat: str) -> State:
    flips = 1 + state.reshuffles
    state = replace(state, active=seat, how=None, value=None, level=None, adders=(), remove_left=0,
                    flips_left=flips, flips_total=flips)
    if seat in state.dead:
        state = state.say("ebz.n.zturn", round=state.round, colour=seat)
        return replace(state, step="zdraw")
    state = state.say("ebz.n.turn", round=state.round, colour=seat)
    if state.field:
        state = state.say("ebz.n.waiting", colour=seat, count=len(state.field))
    state = state.say("ebz.n.flips", act=True, colour=seat, count=flips)
    return replace(state, step="flip")


def next_turn(state: State) -> State:
    i = state.players.index(state.active)
    seat = state.players[(i + 1) % len(state.players)]
    return begin_turn(replace(state, round=state.round + 1), seat)


def humans_win(state: State) -> State:
    state = state.say("ebz.n.deck_out")
    state = state.say("ebz.n.win_humans", colours=list(state.humans))
    return replace(state, step="over", winners=state.humans, active=None)


def deck_drawn(state: State) -> State:
    """After a card left the zombie deck: an empty deck takes the zombie discard, or the humans have won."""
    if sum(state.deck):
        return state
    if not sum(state.discard):
        return humans_win(state)
    state = replace(state, deck=state.discard, discard=EMPTY, reshuffles=state.reshuffles + 1)
    return state.say("ebz.n.reshuffle", act=True, count=sum(state.deck), flips=1 + state.reshuffles)


# -- flips -----------------------------------------------------------------------------------------------


def flipped(state: State, speed: int) -> State:
    level, seat = state.level, state.active
    state = replace(state, deck=pile_add(state.deck, level, -1), field=state.field + (Zombie(level, speed),),
                    level=None, flips_left=state.flips_left - 1)
    state = state.say("ebz.n.flipped", colour=seat, level=level, speed=speed, deck=sum(state.deck))
    state = deck_drawn(state)
    if state.over:
        return state
    if state.flips_left > 0:
        return replace(state, step="flip")
    if seat in state.dead:  # a zombie player's flips wait in the field for the next player
        state = state.say("ebz.n.stay", count=len(state.field), colour=following(state))
        return next_turn(state)
    return begin_adding(state)


def following(state: State) -> str:
    """The next human round the table: the one the zombies left in the field wait for."""
    i = state.players.index(state.active)
    after = [state.players[(i + k) % len(state.players)] for k in range(1, len(state.players) + 1)]
    return next((seat for seat in after if seat not in state.dead), after[0])


# -- additions from the other players' hands --------------------------------------------------------------------


def may_add(state: State, seat: str) -> bool:
    """`seat` may add a zombie to the active player's field now: the rules, the Powers, the speed rule."""
    if seat == state.active or seat not in state.players or not sum(state.held(seat)):
        return False
    zombie_player = seat in state.dead
    if not zombie_player and 8 in state.in_force:
        return False  # Power 8: humans may not add zombies
    if zombie_player and state.active not in state.neighbours(seat) and 4 not in state.in_force:
        return False  # only to a neighbour, unless Power 4
    return bool(legal_speeds(state, seat))


def legal_speeds(state: State, seat: str) -> tuple[int, ...]:
    if seat in state.dead and 2 in state.in_force:
        return (1, 2, 3, 4, 5, 6)  # Power 2: zombie players ignore the speed rule
    return tuple(s for s in (1, 2, 3, 4, 5, 6) if s > len(state.field))


def begin_adding(state: State) -> State:
    candidates = tuple(s for s in state.after(state.active) if may_add(state, s))
    if 8 in state.in_force and any(s not in state.dead for s in state.after(state.active)):
        state = state.say("ebz.n.power8")
    state = state.say("ebz.n.may_add" if candidates else "ebz.n.nobody_adds", colours=list(candidates),
                      count=len(state.field))
    return next_adder(replace(state, adders=candidates))


def next_adder(state: State) -> State:
    adders = tuple(s for s in state.adders if may_add(state, s))
    if adders:
        return replace(state, adders=adders, step="add")
    return choose(replace(state, adders=()))


def added(state: State, seat: str, speed: int) -> State:
    level = state.level
    state = replace(state, cards={**state.cards, seat: pile_add(state.held(seat), level, -1)},
                    field=state.field + (Zombie(level, speed, seat),), level=None)
    state = state.say("ebz.n.added", colour=seat, level=level, speed=speed, to_seat=state.active)
    if len(state.players) > 2:
        state = replace(state, adders=state.adders[1:])  # one each; with 2 players, as many as he likes
    return next_adder(state)


def no_addition(state: State, seat: str) -> State:
    state = state.say("ebz.n.no_add", colour=seat)
    return next_adder(replace(state, adders=state.adders[1:]))


# -- fight or run ------------------------------------------------------------------------------------------


def choose(state: State) -> State:
    state = state.say("ebz.n.field", colour=state.active, count=len(state.field), level_sum=state.level_sum,
                      speed_sum=state.speed_sum)
    return replace(state, step="choose")


def resolve(state: State, value: int) -> State:
    seat, how = state.active, state.how
    need = state.level_sum if how == "fight" else state.speed_sum
    success = value >= need
    state = state.say("ebz.n.fights" if how == "fight" else "ebz.n.runs", colour=seat, value=value, need=need)
    if how == "fight":
        result, remove = ("won", 0) if success else ("lost", state.speed_sum)
    else:
        half = state.speed_sum // 2 if state.options.rounding == "down" else (state.speed_sum + 1) // 2
        result, remove = ("escaped", half) if success else ("failed", state.speed_sum)
    state = state.say(f"ebz.n.result.{result}", colour=seat)
    state = replace(state, value=value, last=Outcome(seat, how, value, need, result, remove))
    if remove:
        key = "ebz.n.remove_run" if result == "escaped" else "ebz.n.remove"
        state = state.say(key, act=True, colour=seat, count=remove)
    if result == "won":
        state = state.say("ebz.n.to_player", act=True, count=len(state.field), colour=seat)
        field = state.field
        cards = state.held(seat)
        for zombie in field:
            cards = pile_add(cards, zombie.level)
        state = replace(state, field=(), cards={**state.cards, seat: cards})
    elif result in ("lost", "failed"):
        discard = state.discard
        for zombie in state.field:
            discard = pile_add(discard, zombie.level)
        state = state.say("ebz.n.to_discard", act=True, count=len(state.field), discard=sum(discard))
        state = replace(state, field=(), discard=discard)
    else:
        state = state.say("ebz.n.stay", count=len(state.field), colour=following(state))
    if success:
        return replace(state, step="bonus")
    return after_outcome(state)


def bought(state: State, bonus: int) -> State:
    budget = state.value + bonus
    state = state.say("ebz.n.buy", act=True, colour=state.active, budget=budget, value=state.value, bonus=bonus,
                      hand=HAND)
    state = replace(state, last=replace(state.last, budget=budget))
    return after_outcome(state)


def after_outcome(state: State) -> State:
    """Cards removed from the deck may have been zombies: the player says so, then refills."""
    remove = state.last.remove if state.last else 0
    if remove and sum(state.held(state.active)):
        return replace(state, step="removed", remove_left=remove)
    return refill(state)


def removed_zombie(state: State, level: int) -> State:
    seat = state.active
    state = replace(state, cards={**state.cards, seat: pile_add(state.held(seat), level, -1)},
                    discard=pile_add(state.discard, level), remove_left=state.remove_left - 1)
    state = state.say("ebz.n.removed_zombie", act=True, colour=seat, level=level)
    if state.remove_left and sum(state.held(seat)):
        return state
    return refill(state)


def refill(state: State) -> State:
    if 1 in state.in_force:
        state = state.say("ebz.n.power1", act=True, colour=state.active)
    state = state.say("ebz.n.refill", act=True, colour=state.active, hand=HAND)
    return replace(state, step="refill", remove_left=0)


def stuck(state: State) -> State:
    """A human who cannot play and holds only zombies: the zombie players win."""
    state = state.say("ebz.n.cannot_play", colour=state.active)
    winners = state.dead
    state = state.say("ebz.n.win_zombies", colours=list(winners))
    return replace(state, step="over", winners=winners, active=None)


def dies(state: State) -> State:
    seat = state.active
    held = state.held(seat)
    state = state.say("ebz.n.dies", colour=seat)
    if sum(held):
        state = state.say("ebz.n.dead_cards", act=True, colour=seat, count=sum(held))
    else:
        state = state.say("ebz.n.dead_cards_none", act=True, colour=seat)
    state = replace(state, dead=state.dead + (seat,), discard=pile_sum(state.discard, held),
                    cards={**state.cards, seat: EMPTY}, powers={**state.powers, seat: ()})
    if len(state.humans) == 1:
        winner = state.humans[0]
        state = state.say("ebz.n.win_last", colour=winner)
        return replace(state, step="over", winners=(winner,), active=None)
    return next_turn(state)


# -- a zombie player's turn ---------------------------------------------------------------------------------


def draws(state: State, count: int) -> State:
    state = state.say("ebz.n.zdraw", act=True, colour=state.active, count=count)
    return replace(state, step="zlevel", drawn_left=count, drawn_total=count)


def drew(state: State, level: int) -> State:
    seat = state.active
    number = state.drawn_total - state.drawn_left + 1
    state = replace(state, deck=pile_add(state.deck, level, -1),
                    cards={**state.cards, seat: pile_add(state.held(seat), level)}, drawn_left=state.drawn_left - 1)
    state = state.say("ebz.n.zdrawn", seats=(seat,), level=level, number=number)
    state = deck_drawn(state)
    if state.over:
        return state
    if state.drawn_left and sum(state.deck):
        return state
    return replace(state, step="zpower", drawn_left=0)


def kept_power(state: State, level: int) -> State:
    seat = state.active
    kept = state.powers.get(seat, ()) + (level,)
    state = replace(state, cards={**state.cards, seat: pile_add(state.held(seat), level, -1)})
    state = state.say("ebz.n.power", act=True, colour=seat, level=level)
    if len(kept) > MAX_POWERS:
        oldest, kept = kept[0], kept[1:]
        state = replace(state, discard=pile_add(state.discard, oldest))
        state = state.say("ebz.n.power_dropped", act=True, colour=seat, level=oldest)
    state = replace(state, powers={**state.powers, seat: kept})
    state = state.say("ebz.n.in_force", levels=list(state.in_force))
    return zback_or_flip(state)


def zback_or_flip(state: State) -> State:
    if sum(state.held(state.active)):
        return replace(state, step="zback")
    return zombie_flips(state)


def zombie_flips(state: State) -> State:
    state = state.say("ebz.n.flips", act=True, colour=state.active, count=state.flips_total)
    return replace(state, step="flip")


def put_back(state: State, level: int) -> State:
    seat = state.active
    state = replace(state, cards={**state.cards, seat: pile_add(state.held(seat), level, -1)},
                    deck=pile_add(state.deck, level))
    state = state.say("ebz.n.put_back", act=True, colour=seat)
    state = state.say("ebz.n.put_back_level", seats=(seat,), level=level)
    return zback_or_flip(state)


def record_piles(state: State) -> dict:
    return {"deck": pile_json(state.deck), "discard": pile_json(state.discard),
            "cards": {p: pile_json(state.held(p)) for p in state.players}}


__all__ = ["LEVELS", "begin_turn", "cup_request", "picked", "start"]
