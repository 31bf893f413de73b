"""A game that exists only in the tests (Lucky Die) plays to its end through the Table, a real save file and
MockFactory pads, with no change to the table, the phone server or the pads: devices know no game.

Its Chromium half (two phones play it on the real page) is in test_phone_browser_toy.py.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from padkit import WAIT, look, wait_until

from companion.catalogue import text
from companion.contract import Message
from companion.cup import DiceCup
from companion.pads.buttons import PadButtons
from companion.pads.config import GpioConfig, GpioPad
from companion.pads.gpio import GpioPads
from companion.store import EventStore
from companion.table import Table

ROOT = Path(__file__).parents[1]
SEATS = ["red", "blue"]




def keys(lines) -> list[str]:
    return [entry["key"] for entry in lines]


def test_lucky_die_plays_to_its_end_through_the_table_and_resumes_from_its_save_file(lucky_die, tmp_path):
    db = tmp_path / "toy.sqlite3"
    with EventStore(db) as store:
        table = Table(store, DiceCup(scripted=[(3,), (5,), (5,)]))
        table.new_game("lucky-die", SEATS, {"target": "1"})
        asked = table.view("red")["question"]
        assert (asked["kind"], asked["field"], asked["answer"]) == ("assign", "give", {"seat": "red"})
        assert [i["value"] for i in asked["items"]] == ["sun", "moon"]
        assert table.view("blue")["question"] is None
        # A public answer can be taken back, and the narration says what was taken back.
        table.answer({"seat": "red", "give": {"sun": "red", "moon": "red"}}, question=asked["id"])
        assert table.can_undo == 1
        table.undo()
        assert keys(table.view(None)["undone"]) == ["toy.n.token", "toy.n.token"]
        assert table.view(None)["narration"] == [] and table.state.step == "tokens"
        table.answer({"seat": "red", "give": {"sun": "blue", "moon": "red"}}, question=asked["id"])
        public = table.view(None)
        assert public["undone"] == []
        assert [(e["key"], e["params"], e.get("act")) for e in public["narration"]] == [
            ("toy.n.token", {"token": "sun", "colour": "blue"}, True),
            ("toy.n.token", {"token": "moon", "colour": "red"}, True)]
        assert text(Message("toy.n.token", {"token": "sun", "colour": "blue"})) == "Give the Sun token to Blue"

        # Round 1: a secret ballot; nothing of it is public before the reveal.
        vote = table.view("red")["question"]
        assert vote["kind"] == "ballot" and vote["secret"] and [c["slot"] for c in vote["choices"]] == [1, 2]
        table.answer({"seat": "red", "vote": "blue"}, question=vote["id"])
        assert "ballot" not in table.view(None) and table.view("red")["ballot"] == "blue"
        assert table.view("red")["question"]["answered"] is True
        assert table.can_undo == 0  # a secret answer is never taken back
        table.answer({"seat": "blue", "vote": "blue"}, question=vote["id"])
        guess = table.view("blue")["question"]
        assert (guess["kind"], guess["low"], guess["high"], guess["field"]) == ("number", 1, 6, "number")
        with pytest.raises(Exception, match="Name a whole number from 1 to 6"):
            table.answer({"seat": "blue", "number": 7}, question=guess["id"])
        table.answer({"seat": "blue", "number": 4}, question=guess["id"])  # the die shows 3: a miss
        assert table.state.round == 2

        # The round moved on by itself: what ended round 1 stays on show until the next answer.
        assert keys(table.view(None)["narration"]) == ["toy.n.guess", "toy.n.die"]
        table.answer({"seat": "red", "vote": "red"})
        assert table.view(None)["narration"] == []  # round 2 has said nothing yet; round 1 is gone
        table.answer({"seat": "blue", "vote": "red"})
        assert table.view(None)["narration"][0]["params"] == {"colour": "red", "count": 2}
        table.answer({"seat": "red", "number": 6})  # the die shows 5: a miss
        table.answer({"seat": "red", "vote": "red"})
        table.answer({"seat": "blue", "vote": "blue"})  # a tie: the first seat rolls
        table.answer({"seat": "red", "number": 5})  # the die shows 5: Red scores and wins
        assert table.state.over and table.state.winners == ("red",)
        assert keys(table.view(None)["narration"])[-3:] == ["toy.n.die", "toy.n.point", "toy.n.winner"]
        final = table.record()
    with EventStore(db) as store:
        assert list(store.history()[0].winners) == ["red"]
        again = Table(store)
        again.load(store.history()[0])
        assert again.record() == final
        assert [e.message for e in again.narration()] == [e.message for e in table.narration()]


def test_a_refusal_of_the_game_reaches_a_device_as_its_code_and_its_text(lucky_die):
    table = Table()
    table.new_game("lucky-die", SEATS)
    with pytest.raises(Exception) as refused:
        table.answer({"seat": "blue", "give": {"sun": "red", "moon": "red"}})
    assert (refused.value.code, refused.value.params) == ("toy.refuse.not_asked", {"colour": "blue"})
    assert str(refused.value) == "Blue is not asked anything now."




def test_lucky_die_ballots_come_from_mock_gpio_pads_and_a_number_is_refused_on_a_pad(lucky_die, mock_factory,
                                                                                    tmp_path):
    import asyncio

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def call(function):
        async def run():
            return function()
        return asyncio.run_coroutine_threadsafe(run(), loop).result(WAIT)

    said: list[str] = []
    store = call(lambda: EventStore(tmp_path / "pads.sqlite3"))
    table = call(lambda: Table(store, DiceCup(scripted=[(2,), (6,)])))
    table.loop = loop
    call(lambda: table.new_game("lucky-die", SEATS, {"target": "1"}))
    call(lambda: table.answer({"seat": "red", "give": {"sun": "red", "moon": "blue"}}))
    buttons = call(lambda: PadButtons(table, say=lambda m: said.append(text(m))))
    call(buttons.start)
    config = GpioConfig((GpioPad("red", (5, 6)), GpioPad("blue", (13, 19))), debounce=0.001)
    pads = GpioPads(buttons, config)
    call(pads.start)

    def press(pin: int) -> None:
        mock_factory.pin(pin).drive_low()
        threading.Event().wait(0.02)
        mock_factory.pin(pin).drive_high()

    try:
        look()  # a press just after a question closed is taken for that one: the pads wait for a new one to be read
        press(6)  # Red's button 2: Blue rolls
        press(19)  # Blue's button 2: Blue rolls
        assert wait_until(lambda: call(lambda: table.state.step) == "guess")
        assert call(lambda: [e["answer"] for e in store.events(table.game_id) if "vote" in e.get("answer", {})]) == [
            {"seat": "red", "vote": "blue"}, {"seat": "blue", "vote": "blue"}]
        press(13)  # a number is not answered on a pad: refused, nothing changes
        assert wait_until(lambda: said) == ["Blue pressed a pad button, but this question is answered on a phone "
                                            "or the screen."]
        call(lambda: table.answer({"seat": "blue", "number": 6}))  # from a phone: the die shows 2, a miss
        look()
        press(5)
        press(13)  # round 2: Red rolls
        assert wait_until(lambda: call(lambda: table.state.roller) == "red")
        call(lambda: table.answer({"seat": "red", "number": 6}))
        assert call(lambda: table.state.winners) == ("red",)
    finally:
        call(pads.close)
        call(buttons.close)
        call(store.close)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(WAIT)


# -- devices know no game -------------------------------------------------------------------------------------

MALL_WORDS = re.compile(r"pin-?up|tough ?guy|gunman|little girl|restroom|cachou|megatoys|parking|supermarket|"
                        r"security hq|mall[ _-]of[ _-]horror|mall\.", re.IGNORECASE)
# The actions of Mall of Horror, as a device would have to spell them to build one.
MALL_VERBS = re.compile(r"""["'](go|vote|give|move|victim|play|character)["']|"""
                        r"""\b(action|option|choice)s?\.(go|vote|give|move|victim|play|character)\b""")


def device_files() -> list[Path]:
    places = [ROOT / "companion" / "table.py", ROOT / "companion" / "box.py", ROOT / "companion" / "serve.py"]
    for folder in ("companion/web", "companion/pads", "companion/ui", "kv"):
        places += [p for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix in (".py", ".js", ".html",
                                                                                      ".css", ".kv")
                   and "boards" not in p.parts]
    return places


def test_no_device_knows_a_word_or_an_action_of_mall_of_horror():
    found = []
    for path in device_files():
        for number, source in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if MALL_WORDS.search(source) or MALL_VERBS.search(source):
                found.append(f"{path.relative_to(ROOT)}:{number}: {source.strip()}")
    assert not found, "\n".join(found)


def test_the_device_check_finds_a_mall_word_where_one_is_written(tmp_path):
    assert MALL_WORDS.search('label = "Restroom"') and MALL_VERBS.search('action = {"seat": s, "go": 4}')
    assert MALL_VERBS.search("if (option.vote) {") and not MALL_VERBS.search("const votes = 3;")
    assert MALL_VERBS.search("action['give'] = seat") and not MALL_VERBS.search("self.ids.go.text = ''")
    assert any(p.name == "server.py" for p in device_files()) and any(p.name == "buttons.py" for p in device_files())
