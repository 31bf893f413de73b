"""A whole Mall of Horror game passed from hand to hand: all four seats answer on the touchscreen, by touch events,
offscreen, in a process of its own (one Kivy window per process).

    python tests/passkit.py --out report.json [--seed 3] [--lang en]

After every tap it reads every text on the screen (each Label's) and checks it against what is secret at that
moment, worked out from the table's state: every seat's secrets (the zombie dice and where they send zombies, its
ballot, its destination), the dice of a roll not yet revealed, the lines only some seats may read, each ballot cast
and each destination chosen before the reveal, and the answer held in its grace. A secret may show only behind the
hand-over cover of a seat allowed to see it (the answer screen opened through the cover, or the cover's secret);
anywhere else it is a leak. It counts each seat's taps per round, and what a phone would have taken for the same
answers (a tap per answer, one more where the phone asks "play it?" or "sure?", the cards unfolded and picked as
the phone page does; one to look at a secret).

Along the way, by touch: the new-game form's grace (5 s, then 0 s from the menu's New game), a mis-tapped last
ballot changed within its grace while the screen counts down, a seat's earlier secret answer shown as chosen behind
its cover and changed, a one-use card that takes a second tap, a seat whose phone went said on the board.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import uikit  # noqa: E402  (opens the offscreen window first)
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402
from uikit import Driver, box_options, drop_a_phone, run_with  # noqa: E402

from companion.box import Box  # noqa: E402
from companion.cup import DiceCup  # noqa: E402
from companion.games import GAMES  # noqa: E402
from companion.simulate import random_game  # noqa: E402
from companion.ui import parts  # noqa: E402
from companion.ui.app import CompanionApp  # noqa: E402
from companion.ui.screens.answer import CHOSEN, is_secret, takes_two_taps  # noqa: E402
from companion.ui.widgets import Action, SeatButton  # noqa: E402

PLAYERS = ["red", "yellow", "blue", "green"]
DROPPED = "green"  # its phone comes and goes at the start: answered on the screen all game


def phone_taps(question, action: dict) -> int:
    """What the phone page takes to give `action` (companion/web/static/app.js): a tap on the answer, and one more
    where it asks "sure?"; a card: "Play a card…", the card, its option where it has several, "Play it"."""
    choice = next((c for c in question.choices if dict(c.action) == action), None)
    if choice is None:
        return 1
    if choice.group != "card":
        return 1 + bool(choice.confirm)
    same = [c for c in question.choices if c.group == "card" and c.label.key == choice.label.key]
    return 3 + (len(same) > 1)


class Watch:
    """Every frame's texts against the secrets of the moment."""

    def __init__(self, app: CompanionApp):
        self.app = app
        self.frames = 0
        self.leaks: list[dict] = []
        self.covered_secrets = 0  # secrets seen behind their own seat's cover (the check sees them where they are)
        self.chosen_seen: list[dict] = []  # an earlier secret answer marked behind its cover

    def covered_for(self) -> str | None:
        """The seat whose hand-over cover the screen is behind now, or None (a screen the table may see)."""
        screen = self.app.manager.current_screen
        if screen.name == "answer" and screen.covered:
            return screen.seat
        if screen.name == "cover" and screen.stage == "secret":
            return screen.seat
        return None

    def secrets(self) -> list[tuple[str, set[str]]]:
        """What is secret now, and who may see it, from the table's state."""
        app = self.app
        table, words = app.table, app.words
        state = table.state
        if state is None:
            return []
        out: list[tuple[str, set[str]]] = []
        dice_seen: dict[str, set[str]] = defaultdict(set)
        for seat in state.players:
            for _what, reveal, _urgent in parts.secrets(table.view(seat), words):
                for line in reveal().splitlines():
                    if line.strip():
                        out.append((line, {seat}))
                        dice_seen[line].add(seat)
        for cup_roll in table.rolls:
            if not cup_roll.revealed:
                dice = cup_roll.roll.dice
                orders = {" ".join(map(str, order)) for order in (dice, sorted(dice))}
                owners = set(cup_roll.roll.visible_to) | {s for line, seats in dice_seen.items()
                                                          if any(order in line for order in orders) for s in seats}
                out += [(order, owners) for order in orders]
        for entry in table.narration():
            if entry.seats:
                out.append((words.say(entry.message), set(entry.seats)))
        if state.over:
            return self._merged(out)
        cast: dict[str, dict] = {}  # each secret answer in, by seat: its ballot, its destination, the held one
        vote = getattr(state, "vote", None)
        if vote is not None and state.step == "vote":
            for voter, candidate in vote.ballot.ballots.items():
                cast[voter] = {"seat": voter, "vote": candidate}
                out.append((words.t("ui.ballot_line", voter=voter, count=vote.ballot.weights[voter],
                                    candidate=candidate), {voter}))
        if state.step == "secret":
            for seat, where in state.destinations.items():
                cast[seat] = {"seat": seat, "go": where}
        held = getattr(table, "held", None)
        if held is not None:
            cast[held.seat] = dict(held.action)
        for seat, action in cast.items():
            question = table.question(seat)
            choice = next((c for c in question.choices if dict(c.action) == action), None) if question else None
            if choice is not None:
                out.append((CHOSEN + words.say(choice.label), {seat}))
        return self._merged(out)

    @staticmethod
    def _merged(secrets: list[tuple[str, set[str]]]) -> list[tuple[str, set[str]]]:
        """One entry a text, with everyone who may see it (the Chief and a Camera player see the same dice)."""
        owners: dict[str, set[str]] = {}
        for text, seats in secrets:
            owners.setdefault(text, set()).update(seats)
        return list(owners.items())

    def check(self, step: str) -> None:
        app = self.app
        self.frames += 1
        screen = app.manager.current_screen
        texts = [w.text for w in screen.walk(restrict=True) if isinstance(w, Label) and w.text]
        texts += [w.text for child in uikit.Window.children if child is not app.manager
                  for w in child.walk(restrict=True) if isinstance(w, Label) and w.text]  # alerts, banners
        covered = self.covered_for()
        for secret, owners in self.secrets():
            shown = [text for text in texts if secret in text]
            if not shown:
                continue
            if covered in owners:
                self.covered_secrets += 1
                if secret.startswith(CHOSEN):
                    self.chosen_seen.append({"seat": covered, "text": secret})
                continue
            self.leaks.append({"step": step, "screen": screen.name, "covered": covered, "secret": secret,
                               "owners": sorted(owners), "in": shown[:2]})
        for button in screen.walk(restrict=True):  # a secret answer marked, outside its seat's cover
            if getattr(button, "chosen", False) and covered is None:
                self.leaks.append({"step": step, "screen": screen.name, "covered": None, "secret": button.text,
                                   "owners": [], "in": [button.text]})


class PassDriver(Driver):
    """Taps by touch, each counted for the seat it serves (or for the table), every frame checked."""

    def __init__(self, app: CompanionApp, watch: Watch):
        super().__init__(app)
        self.watch = watch
        self.serving: str | None = None  # the seat the next taps are for (None: the table's own)
        self.taps: dict[tuple[int, str], int] = defaultdict(int)
        self.table_taps = 0
        self.counting = True
        self.events_before = 0
        self.armed_log: list[dict] = []

    async def answer(self, action: dict) -> bool:
        self.events_before = len(self.app.table.events)
        return await super().answer(action)

    def armed(self, action: dict):
        """The button a first tap armed ("Sure? Tap again"): noted with whether that first tap sent anything."""
        button = super().armed(action)
        if button is not None:
            self.armed_log.append({"action": action, "text": button.text,
                                   "sent_by_first_tap": len(self.app.table.events) != self.events_before})
        return button

    async def tap(self, widget, hold: float = 0.0, during=None):
        state = self.app.table.state
        if self.counting and self.serving is not None and state is not None:
            self.taps[(state.round, self.serving)] += 1
        elif self.counting:
            self.table_taps += 1
        name = getattr(widget, "text", "") or type(widget).__name__
        await super().tap(widget, hold, during)
        self.watch.check(f"{self.app.manager.current}: after {name!r}")


def lookers_before(events: list[dict], lang: str) -> list[set[str]]:
    """For each answer of the script, the seats that may look at a secret the table waits on them to see (the
    Chief's dice) just before it: a player looks in his own question when he is asked while it lasts, else on the
    board's button."""
    from companion.table import Table
    from companion.ui.words import Words

    table = Table(cup=DiceCup(scripted=[tuple(e["roll"]) for e in events if "roll" in e],
                              picks=[e["pick"] for e in events if "pick" in e]))
    table.new_game("mall-of-horror", PLAYERS)
    words = Words(lang)
    out = []
    for event in events:
        if "roll" in event or "pick" in event:
            continue
        out.append({s for s in PLAYERS if any(urgent for _w, _r, urgent in parts.secrets(table.view(s), words))})
        table.answer(event)
    return out


async def play(args) -> dict:
    rules = GAMES["mall-of-horror"]
    events, final = random_game(rules, PLAYERS, random.Random(args.seed))
    answers = [e for e in events if "roll" not in e and "pick" not in e]
    lookers = lookers_before(events, args.lang)
    box = Box(box_options(db=tempfile.mktemp(suffix=".sqlite3", dir=args.tmp), reveal_grace=3))  # as a box
    await box.open()
    box.table.cup = DiceCup(scripted=[tuple(e["roll"]) for e in events if "roll" in e],
                            picks=[e["pick"] for e in events if "pick" in e])
    app = CompanionApp(box, lang=args.lang)
    app.sounds.player = app.sounds.voice = uikit.Ears()
    watch = Watch(app)
    report: dict = {"answers": len(answers), "phone": defaultdict(int), "changes": {}, "countdown": [],
                    "cards": [], "peeks": 0, "screens": set(), "dropped": {}, "looked_in_question": [], "ledger": []}
    ledger_kind: dict[int, str] = {}  # how each answer was given: on the board, behind the cover...

    def phone(seat: str, taps: int, round_: int | None = None) -> None:
        """What a phone would have taken, in the round the taps were made in."""
        report["phone"][f"{app.table.state.round if round_ is None else round_}:{seat}"] += taps

    def asked_while_secret(seat: str, index: int) -> bool:
        """`seat` is asked before its secret is revealed: it looks in its own question (behind its cover)."""
        for j in range(index, len(answers)):
            if seat not in lookers[j]:
                return False
            if answers[j]["seat"] == seat:
                return True
        return False

    async def script(base: Driver) -> None:
        d = PassDriver(app, watch)
        table = app.table
        form = app.manager.current_screen
        for colour in PLAYERS:  # the new-game form, by touch
            await d.tap(d.find(Action, lambda w, c=colour: getattr(w, "colour", None) == c))
        report["grace_chosen"] = await d.grace(5)
        await d.tap(form.ids.start)
        assert table.state is not None and list(table.state.players) == PLAYERS
        if app.manager.current == "join":
            await d.tap(app.manager.current_screen.ids.back)
        await drop_a_phone(box, DROPPED)  # its phone came and went: the seat answers here, and the board says so
        await d.until(lambda: DROPPED in app.dropped, 15)
        looked: set[tuple[int, str]] = set()
        changed_earlier = mis_tapped = False
        index, steps = 0, 0
        mark = (0, dict(d.taps), dict(report["phone"]))  # the taps of each answer, from the end of the one before
        while index < len(answers):
            if index != mark[0]:
                taps_now, phone_now = dict(d.taps), dict(report["phone"])
                report["ledger"].append({
                    "answer": answers[mark[0]], "kind": ledger_kind.get(mark[0], ""),
                    "screen": {f"{r}:{s}": n - mark[1].get((r, s), 0) for (r, s), n in taps_now.items()
                               if n != mark[1].get((r, s), 0)},
                    "phone": {k: n - mark[2].get(k, 0) for k, n in phone_now.items() if n != mark[2].get(k, 0)}})
                mark = (index, taps_now, phone_now)
            steps += 1
            if steps > 30 * len(answers):
                raise RuntimeError("the game does not go on")
            action = answers[index]
            seat = action["seat"]
            screen = app.manager.current
            report["screens"].add(screen)
            watch.check(f"{screen}: before {action}")
            d.serving = None
            if screen == "join":
                await d.tap(app.manager.current_screen.ids.back)
            elif screen == "rules":
                await d.tap(app.manager.current_screen.ids.close)
            elif screen == "board":
                if seat == DROPPED and not report["dropped"]:
                    buttons = [w for w in d.widgets(SeatButton) if w.seat == DROPPED]
                    report["dropped"] = {"notes": [w.text for b in buttons for w in b.walk()
                                                   if isinstance(w, Label) and w.text], "texts": d.texts()}
                looker = next((s for s in sorted(lookers[index]) if (table.state.round, s) not in looked
                               and not asked_while_secret(s, index)), None)
                if looker is not None:  # the dice it may see, looked at on the board's button, behind its cover
                    peek = [w for w in d.widgets(Action) if getattr(w, "role", None) == "peek" and w.seat == looker]
                    if not peek:
                        raise RuntimeError(f"{looker} may look at a secret, and the board offers no look")
                    looked.add((table.state.round, looker))
                    d.serving = looker
                    report.setdefault("peek_seen", await d.look(peek[0]))
                    report["peeks"] += 1
                    phone(looker, 1)
                    continue
                answered = [w for w in d.widgets(SeatButton) if getattr(w, "answered", False)]
                if not changed_earlier and answered and table.rules.prompt(table.state).kind == "ballot":
                    changed_earlier = True  # a seat that voted: its button, the cover, its vote marked, changed
                    report["changes"]["earlier"] = await change_earlier(d, answered[0].seat)
                    continue
                question = table.question(seat)
                before, round_ = len(table.events), table.state.round
                d.serving = seat
                taps = dict(d.taps)
                if await d.answer(action):  # one seat asked, nothing secret: its answers on the board
                    if not await d.until(lambda b=before: len(table.events) > b, 5):
                        raise RuntimeError(f"the answer {action} was not taken on the board")
                    note_card(question, action, taps, d, round_)
                    phone(seat, phone_taps(question, action), round_)
                    report["on_board"] = report.get("on_board", 0) + 1
                    ledger_kind[index] = "board"
                    index += 1
                    continue
                await d.tap(d.find(SeatButton, lambda w, s=seat: w.seat == s))
            elif screen == "cover":
                cover = app.manager.current_screen
                d.serving = cover.seat
                await d.tap(cover.ids.go)
            elif screen == "answer":
                answering = app.manager.current_screen
                d.serving = answering.seat
                if answering.seat != seat:  # another seat's question (a change): back to the table
                    await d.tap(answering.ids.back)
                    continue
                question = table.question(seat)
                prompt = table.rules.prompt(table.state)
                before, round_ = len(table.events), table.state.round
                taps = dict(d.taps)
                if not mis_tapped and is_secret(question) and list(prompt.seats) == [seat] and table.reveal_grace:
                    mis_tapped = True  # the last voter taps the wrong one, and changes it within the grace
                    report["changes"]["grace"] = await change_in_grace(d, question, action)
                    phone(seat, phone_taps(question, action) + 1, round_)
                else:
                    if seat in lookers[index] and (table.state.round, seat) not in looked:
                        looked.add((table.state.round, seat))  # it looks at its dice here, beside its question
                        shown = [w for w in d.widgets(Widget) if getattr(w, "role", None) == "secrets"]
                        report["looked_in_question"].append({"seat": seat, "covered": answering.covered,
                                                             "shown": bool(shown)})
                        phone(seat, 1)
                    if not await d.answer(action):
                        raise RuntimeError(f"no button for {action} on the answer screen")
                    phone(seat, phone_taps(question, action), round_)
                    note_card(question, action, taps, d, round_)
                ledger_kind[index] = "covered" if answering.covered else "answer"
                if not await d.until(lambda b=before: len(table.events) > b, 10):
                    raise RuntimeError(f"the answer {action} was not taken")
                index += 1
                if table.reveal_grace and report["changes"].get("grace"):
                    await set_grace(d, 0)  # the rest of the game at once, chosen on the form again (the menu)
            elif screen == "end":
                break
            else:
                raise RuntimeError(f"unexpected screen {screen}")
        await d.until(lambda: app.manager.current == "end", 10)
        watch.check("end")
        report["screens"].add(app.manager.current)
        report["over"] = bool(table.state.over)
        report["winners"] = list(table.state.winners)
        report["expected_winners"] = list(final.winners)
        report["final_screen"] = app.manager.current
        report["taps"] = {f"{r}:{s}": n for (r, s), n in sorted(d.taps.items())}
        report["table_taps"] = d.table_taps
        report["frames"], report["leaks"] = watch.frames, watch.leaks
        report["covered_secrets"], report["chosen_seen"] = watch.covered_secrets, watch.chosen_seen[:5]
        report["dropped_key"] = app.t("ui.touch.phone_off")

    def note_card(question, action: dict, taps: dict, d: PassDriver, round_: int) -> None:
        """A one-use card: the taps it took on the screen (its cards unfolded, the card armed, sent) and a phone's."""
        choice = next((c for c in question.choices if dict(c.action) == action), None)
        if choice is not None and takes_two_taps(choice):
            key = (round_, action["seat"])
            report["cards"].append({"action": action, "taps": d.taps[key] - taps.get(key, 0),
                                    "phone": phone_taps(question, action),
                                    "armed": next((a for a in d.armed_log if a["action"] == action), None)})

    async def change_in_grace(d: PassDriver, question, action: dict) -> dict:
        """The last voter taps a wrong answer: it is held, the screen counts down, and the right one replaces it."""
        table = app.table
        wrong = next(dict(c.action) for c in question.choices if dict(c.action) != action and c.group != "card")
        if not await d.answer(wrong):
            raise RuntimeError(f"no button for {wrong}")
        held_wrong = getattr(table.held, "action", None)
        screen_then = app.manager.current
        countdown = [w.text for w in d.widgets(Label) if getattr(w, "role", None) == "countdown"]
        marked = [w.text for w in d.widgets(Action) if getattr(w, "chosen", False)]
        started = time.monotonic()
        await d.answer(action)  # changed within the grace
        seen = {"wrong": wrong, "held_wrong": held_wrong, "screen": screen_then, "countdown": countdown,
                "marked": marked, "held_right": getattr(table.held, "action", None),
                "within": time.monotonic() - started, "events_meanwhile": None}
        events = len(table.events)
        while table.held is not None:  # the countdown, frame after frame, until the reveal
            await d.settle(1)
            watch.check("grace")
            report["countdown"] += [w.text for w in d.widgets(Label) if getattr(w, "role", None) ==
                                    "countdown" and w.text not in report["countdown"]]
            await asyncio.sleep(0.2)
        seen["events_meanwhile"] = events
        seen["folded"] = table.events[events]["answer"] if len(table.events) > events else None
        return seen

    async def change_earlier(d: PassDriver, seat: str) -> dict:
        """A seat that gave its secret answer taps its button again: the cover, its answer marked as chosen; it
        changes it, then changes it back (the script's game goes on as written)."""
        table = app.table
        question = table.question(seat)
        first = app.chosen.get((seat, question.id)) or next(
            dict(c.action) for c in question.choices)
        other = next(dict(c.action) for c in question.choices if dict(c.action) != first)
        d.counting = False  # a change is counted on its own: the phone takes a tap for it too
        out = {"seat": seat, "first": first}
        for target in (other, first):
            await d.tap(d.find(SeatButton, lambda w: w.seat == seat))
            out.setdefault("screens", []).append(app.manager.current)
            await d.tap(app.manager.current_screen.ids.go)
            out.setdefault("marked", []).append([w.text for w in d.widgets(Action) if getattr(w, "chosen", False)])
            await d.answer(target)
            out.setdefault("after", []).append(app.manager.current)
        out["ballot"] = dict(table.state.vote.ballot.ballots).get(seat)
        d.counting = True
        return out

    async def set_grace(d: PassDriver, seconds: int) -> None:
        """The table's grace, from the board: Menu, New game, the grace's row, back to the table."""
        d.serving = None
        await d.until(lambda: app.manager.current == "board", 5)
        await d.tap(app.manager.current_screen.ids.menu)
        await d.tap(app.manager.current_screen.ids.new_game)
        report["grace_changed"] = await d.grace(seconds)
        await d.tap(app.manager.current_screen.ids.back)

    try:
        await run_with(app, script)
    finally:
        await box.close()
    report["screens"] = sorted(report["screens"])
    report["phone"] = dict(report["phone"])
    return report


def summary(report: dict) -> str:
    """Taps per seat per round on the screen, and what phones would have taken."""
    rounds = sorted({int(k.split(":")[0]) for k in report["taps"]} | {int(k.split(":")[0]) for k in report["phone"]})
    lines = ["round  " + "  ".join(f"{s:>14}" for s in PLAYERS) + "   (screen taps / a phone's)"]
    for r in rounds:
        cells = [f"{report['taps'].get(f'{r}:{s}', 0):>6} / {report['phone'].get(f'{r}:{s}', 0):<5}" for s in PLAYERS]
        lines.append(f"{r:>5}  " + "  ".join(f"{c:>14}" for c in cells))
    total = [f"{sum(v for k, v in report['taps'].items() if k.endswith(':' + s)):>6} / "
             f"{sum(v for k, v in report['phone'].items() if k.endswith(':' + s)):<5}" for s in PLAYERS]
    lines.append("total  " + "  ".join(f"{c:>14}" for c in total))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--tmp", default=None)
    args = parser.parse_args()
    report = asyncio.run(play(args))
    Path(args.out).write_text(json.dumps(report, ensure_ascii=False, indent=1, default=list), encoding="utf-8")
    print(summary(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
