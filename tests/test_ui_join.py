"""The touchscreen and the seats' devices, offscreen, with the real phone server: a seat's QR code leaves the join
screen once a device has the seat (and comes back on a tap), a second device asking for that seat is announced
over whichever screen is up and gets the seat only when the touchscreen allows it (Refuse keeps it out), a save
file that takes no writes is shown until it takes them again, and the table controls' link is renewed from the
menu. The new screens are shot in the four languages at 800x480 (tests/screenshots/ui-join/), and every text on
them is checked as in test_ui_screens.

The touchscreen runs in a process of its own (one Kivy window per process): this file is also its script.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
SHOTS = ROOT / "tests" / "screenshots" / "ui-join" / "800x480"
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
SHOTS_WANTED = ["join-claimed", "takeover", "storage", "join-problem", "renew-ask", "renew-link"]


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("ui-join")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob("*.png"):
        old.unlink()
    out = tmp / "report.json"
    done = subprocess.run([sys.executable, __file__, "--out", str(out), "--tmp", str(tmp)], env=ENV, cwd=ROOT,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(out.read_text(encoding="utf-8"))


def test_a_seats_code_leaves_the_join_screen_once_a_device_has_the_seat_and_comes_back_on_a_tap(report):
    seen = report["codes"]
    assert seen["before"] == ["red", "yellow", "blue", "green"]
    assert seen["claimed"] == ["yellow", "blue", "green"]  # Red's phone has it: nobody else can scan it
    assert seen["shown_again"] == ["red", "yellow", "blue", "green"]
    assert seen["hidden_again"] == ["yellow", "blue", "green"]


def test_a_second_device_waits_and_the_touchscreens_refuse_keeps_it_out(report):
    refused = report["refused"]
    assert refused["asked_on"] == "board" and refused["popup_said"]
    assert refused["waiting_welcome"] and not refused["saw_the_seat"]
    assert refused["close_code"] == 4003 and refused["error"] == "takeover_refused"
    assert refused["bound_to_first"] and refused["first_still_open"] and not refused["popup_after"]


def test_the_touchscreens_allow_gives_the_seat_to_the_new_device_and_the_old_one_is_told(report):
    allowed = report["allowed"]
    assert allowed["asked_on"] == "menu" and allowed["popup_said"]
    assert not allowed["saw_seat_before"] and allowed["saw_seat_after"]
    assert allowed["old_told"] == "taken_over" and allowed["old_close_code"] == 4001
    assert allowed["bound_to_new"] and not allowed["popup_after"]


def test_a_storage_problem_is_shown_on_every_screen_until_the_save_file_takes_writes_again(report):
    storage = report["storage"]
    assert storage["banner"] and storage["on_join"]
    assert storage["gone_by_itself"] and not storage["banner_after"]


def test_the_table_controls_link_is_renewed_from_the_menu_and_the_old_link_stops(report):
    renew = report["renew"]
    assert renew["old_close_code"] == 4005
    assert renew["shown_url"] == renew["new_url"] != renew["old_url"]
    assert renew["new_link_works"]


def test_the_new_screens_are_shot_in_four_languages_with_no_overflow_tofu_or_english_left(report):
    from companion.catalogue import LANGUAGES

    names = {Path(p).name for p in report["shots"]}
    wanted = {f"{name}-{lang}-800x480.png" for name in SHOTS_WANTED for lang in LANGUAGES}
    assert wanted <= names, sorted(wanted - names)
    assert not report["problems"], "\n".join(report["problems"][:40])
    assert not report["small_targets"], report["small_targets"]


# -- the touchscreen's side (run as a script, in its own process) ----------------------------------------------


def main() -> int:  # noqa: C901 - one scripted visit of the table, in order
    import argparse
    import asyncio
    import secrets
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import aiohttp
    import uikit  # opens the offscreen window at 800x480
    from kivy.core.window import Window
    from kivy.uix.label import Label
    from test_faults_table import FullDisk

    from companion.catalogue import LANGUAGES
    from companion.table import NotStored
    from companion.ui.app import CompanionApp
    from companion.ui.widgets import TARGET, Action, SeatButton
    from companion.web.tokens import device_id

    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--tmp", default=None)
    args = parser.parse_args()

    class Whole(uikit.Driver):
        """Finds widgets on the whole window: the screen and what lies over it (popups, the banner)."""

        def widgets(self, kind=object, where=None):
            if where is not None:
                return super().widgets(kind, where)
            return [w for root in list(Window.children) for w in root.walk(restrict=True) if isinstance(w, kind)]

    class Device:
        """A phone's socket on a seat's (or the host's) link, with the key its page keeps."""

        def __init__(self, session, url: str):
            self.session, self.url = session, url
            self.key = secrets.token_urlsafe(18)
            self.messages: list[dict] = []
            self.close_code: int | None = None

        async def open(self) -> Device:
            self.ws = await self.session.ws_connect(f"{self.url}?device={self.key}&lang=en")
            self.reader = asyncio.ensure_future(self._read())
            return self

        async def _read(self) -> None:
            async for message in self.ws:
                if message.type == aiohttp.WSMsgType.TEXT:
                    self.messages.append(json.loads(message.data))
            self.close_code = self.ws.close_code

        def kinds(self) -> list[str]:
            return [m["type"] for m in self.messages]

        def saw_seat(self) -> bool:
            return any(m["type"] == "state" and (m.get("view") or {}).get("seat") for m in self.messages)

    db = tempfile.mktemp(suffix=".sqlite3", dir=args.tmp)
    box = uikit.open_box(db)
    report: dict = {"shots": [], "problems": [], "small_targets": []}
    glyphs = uikit.Glyphs()
    players = ["red", "yellow", "blue", "green"]

    async def go() -> None:
        await box.open()
        app = CompanionApp(box, lang="en")
        errors: list[BaseException] = []

        async def script(d: Whole) -> None:
            table, server = app.table, box.server
            alerts = app.alerts
            table.new_game("mall-of-horror", players)
            app.goto("join")
            await d.settle(3)

            def cards() -> list[str]:
                return [card.seat for card in reversed(app.manager.get_screen("join").ids.codes.children)
                        if getattr(card, "seat", None)]

            async def capture(name: str, goto: str | None = None, before=None) -> None:
                for lang in LANGUAGES:
                    app.words.used.clear()
                    if app.lang != lang:
                        app.set_lang(lang)
                    if goto:
                        app.goto(goto)
                    if before is not None:
                        before()
                    for _ in range(5):  # a busy machine may show a screen between two layout passes
                        await d.settle(3)
                        found = d.problems(lang, glyphs)
                        if not found:
                            break
                    path = SHOTS / f"{name}-{lang}-800x480.png"
                    uikit.shot(path)
                    report["shots"].append(str(path))
                    report["problems"] += [f"{path.name}: {p}" for p in found]
                    for button in d.widgets(Action) + d.widgets(SeatButton):
                        if button.opacity and (button.height < TARGET - 1 or button.width < TARGET - 1):
                            what = getattr(button, "text", None) or button.seat
                            size = f"{button.width:.0f}x{button.height:.0f}"
                            report["small_targets"].append(f"{path.name}: {what} {size}")
                app.set_lang("en")

            codes = report["codes"] = {"before": cards()}
            ws_base = server.url("/ws/")
            token = {seat: url.rsplit("/", 1)[1] for seat, url in server.seat_urls().items()}
            async with aiohttp.ClientSession() as session:
                red = await Device(session, ws_base + token["red"]).open()
                assert await d.until(lambda: "red" in app.connected and "red" not in cards(), 10), "red claimed"
                codes["claimed"] = cards()
                # (A tap in a scrolling list reaches its button once the list knows it is not a scroll.)
                await d.tap(d.find(SeatButton, lambda w: w.seat == "red"))
                await d.until(lambda: "red" in cards())
                codes["shown_again"] = cards()
                await capture("join-claimed")
                await d.tap(d.find(SeatButton, lambda w: w.seat == "red"))
                await d.until(lambda: "red" not in cards())
                codes["hidden_again"] = cards()

                # A second device scans Red's code: announced over the board; the touchscreen refuses it.
                app.goto("board")
                stranger = await Device(session, ws_base + token["red"]).open()
                assert await d.until(lambda: alerts.takeovers is not None, 10), "no takeover popup"
                said = app.t("ui.takeover_asked", seat="red")
                refused = report["refused"] = {"asked_on": app.manager.current,
                                               "popup_said": said in d.texts()}
                await capture("takeover")
                app.goto("board")
                await d.settle(2)
                await d.tap(d.find(Action, lambda w: getattr(w, "decision", None) == ("red", False)))
                await d.until(lambda: stranger.close_code is not None, 10)
                refused["waiting_welcome"] = any(m["type"] == "welcome" and m.get("waiting")
                                                 for m in stranger.messages)
                refused["saw_the_seat"] = stranger.saw_seat()
                refused["close_code"] = stranger.close_code
                refused["error"] = next((m["code"] for m in stranger.messages if m["type"] == "error"), None)
                refused["bound_to_first"] = box.tokens.devices.get("red") == device_id(red.key)
                refused["first_still_open"] = not red.ws.closed
                refused["popup_after"] = alerts.takeovers is not None

                # Red's new phone, while the menu is up: the touchscreen allows it.
                app.goto("menu")
                new = await Device(session, ws_base + token["red"]).open()
                assert await d.until(lambda: alerts.takeovers is not None, 10), "no takeover popup on the menu"
                allowed = report["allowed"] = {"asked_on": app.manager.current, "popup_said": said in d.texts(),
                                               "saw_seat_before": new.saw_seat()}
                await d.tap(d.find(Action, lambda w: getattr(w, "decision", None) == ("red", True)))
                await d.until(lambda: new.saw_seat() and red.close_code is not None, 10)
                allowed["saw_seat_after"] = new.saw_seat()
                allowed["old_told"] = next((k for k in red.kinds() if k == "taken_over"), None)
                allowed["old_close_code"] = red.close_code
                allowed["bound_to_new"] = box.tokens.devices.get("red") == device_id(new.key)
                allowed["popup_after"] = alerts.takeovers is not None

                # The save file takes no writes: shown over the board (and on the join screen) until it does.
                app.goto("board")
                disk = FullDisk(table.store)
                table.store = disk
                disk.full = True
                prompt = table.rules.prompt(table.state)
                try:
                    table.answer(table.question(prompt.seats[0]).choices[0].action, question=prompt.id)
                except NotStored:
                    pass
                assert await d.until(lambda: alerts.banner is not None, 5), "no storage banner"
                problem = app.words.say(table.storage_problem)
                storage = report["storage"] = {"banner": problem in d.texts()}
                await capture("storage", "board")
                app.goto("join")
                await d.settle(2)
                storage["on_join"] = d.texts().count(problem) == 1  # in the join screen's list, not a banner
                await capture("join-problem", "join")
                app.goto("board")
                disk.full = False  # room again: the table finds it by itself
                storage["gone_by_itself"] = await d.until(lambda: table.storage_problem is None, 15)
                await d.settle(3)
                storage["banner_after"] = alerts.banner is not None or problem in d.texts()

                # A new link for the table controls, from the menu; the old link's page is sent away.
                host = await Device(session, ws_base + box.tokens.host).open()
                old_url = server.host_url
                app.goto("menu")
                await d.settle(2)
                await capture("renew-ask", before=lambda: (alerts.close_renewal(), alerts.ask_renew()))
                await d.tap(d.find(Action, lambda w: w is alerts.renewal.ids_yes))
                await d.until(lambda: host.close_code is not None, 10)
                shown_url = alerts.renewal.url
                await capture("renew-link", before=lambda: alerts.show_link(shown_url))
                renew = report["renew"] = {"old_close_code": host.close_code, "old_url": old_url,
                                           "new_url": server.host_url, "shown_url": shown_url}
                await d.tap(alerts.renewal.ids_close)
                again = await Device(session, ws_base + box.tokens.host).open()
                await d.until(lambda: "state" in again.kinds(), 10)
                renew["new_link_works"] = "state" in again.kinds()
                for device in (red, stranger, new, host, again):
                    await device.ws.close()

        async def wrapped() -> None:
            d = Whole(app)
            try:
                await d.settle(3)
                await script(d)
            except BaseException as error:
                errors.append(error)
                try:
                    uikit.shot(Path(tempfile.gettempdir()) / "ui-join-failed.png")
                    print("on the screen:", [w.text for w in d.widgets(Label) if w.text], file=sys.stderr)
                except Exception:
                    pass
            finally:
                app.stop()

        try:
            await asyncio.gather(app.async_run(async_lib="asyncio"), wrapped())
        finally:
            await box.close()
        if errors:
            raise errors[0]

    asyncio.run(go())
    Path(args.out).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
