"""A pad press answers exactly the question it was pressed for, exactly once (issue 31).

The Restroom vote of padkit, Blue and Yellow have voted (Blue for Red, Yellow for Blue): Red's vote is the last,
and button 3 (Yellow) makes a three-way tie, so the table asks everyone a secret re-vote at once. A press meant
for the first vote must never be cast, unseen, as Red's re-vote. Presses come from gpiozero's MockFactory pins
driven from other threads, a fake hub on a real pty pair, and a real `companion serve` killed mid-press.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import aiohttp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from padkit import FOUR, RESTROOM_VOTE, WAIT, RunningTable, wait_until
from test_pads_gpio import SLOW_BLINK, Clock

from companion.box import Box, BoxOptions
from companion.catalogue import text
from companion.contract import Message
from companion.pads.buttons import SETTLE
from companion.pads.config import GpioConfig, GpioPad
from companion.pads.fake_hub import FakeHub
from companion.pads.flood import STUCK_PRESSES, RateGuard
from companion.pads.gpio import GpioPads
from companion.pads.registry import PadRegistry
from companion.pads.serial import SerialPads
from companion.store import EventStore
from companion.table import Table

REPO = Path(__file__).resolve().parent.parent
RED_PINS = (17, 27, 22, 5, 6, 13)
FIRST_VOTE = [{"seat": "blue", "vote": "red"}, {"seat": "yellow", "vote": "blue"}]


def at_the_last_vote(running: RunningTable) -> str:
    """Blue and Yellow vote; Red's vote is the last one. The open question's id."""
    for action in FIRST_VOTE:
        running.call(lambda a=action: running.table.answer(a))
    return running.call(lambda: running.table.rules.prompt(running.table.state).id)


def prompt_id(running: RunningTable) -> str:
    return running.call(lambda: running.table.rules.prompt(running.table.state).id)


def red_votes(answers: list[dict]) -> list[dict]:
    return [a for a in answers if a.get("seat") == "red" and "vote" in a]


@pytest.fixture
def running(tmp_path):
    running = RunningTable(tmp_path / "binding.sqlite3")
    yield running
    running.close()


# -- a press answers the question it was pressed for ----------------------------------------------------------


def test_a_phone_and_a_pad_answering_for_one_seat_at_once_cast_one_vote(running):
    first = at_the_last_vote(running)
    gate = threading.Event()
    running.loop.call_soon_threadsafe(gate.wait, WAIT)  # the loop is busy: both arrive while it is
    # Red's phone answers the vote (as the phone server does, with the question id it shows)...
    running.loop.call_soon_threadsafe(lambda: running.table.answer({"seat": "red", "vote": "yellow"}, first))
    replies: list[str | None] = []
    # ...and at the same moment Red presses button 3 on the pad, the vote still shown
    running.buttons.press("red", 3, lambda error: replies.append(None if error is None else text(error)))
    gate.set()
    assert wait_until(lambda: replies)
    assert prompt_id(running) != first  # the tie: a re-vote is asked
    assert red_votes(running.answers()) == [{"seat": "red", "vote": "yellow"}]  # once, in the first vote
    assert replies == ["Red's pad press came after its question had closed: it was not counted."]  # the lamp: NO
    assert running.call(lambda: running.table.question("red")) is not None  # Red's re-vote is still his to cast


def test_a_pad_press_right_after_a_phone_answer_is_not_the_revote(tmp_path):
    """A real phone on the phone server and a real hub press, one just after the other."""
    hub = FakeHub(pads=4, resend_after=60.0)
    path = hub.plug()
    config = tmp_path / "pads.toml"
    config.write_text(f'[serial]\nport = "{path}"\n[serial.pads]\n1 = "red"\n')

    async def main() -> tuple[str, list[dict], str]:
        box = Box(BoxOptions(db=str(tmp_path / "phone.sqlite3"), host="127.0.0.1", port=0, address="127.0.0.1",
                             pads=str(config), reveal_grace=0))
        await box.open()
        try:
            box.table.new_game("mall-of-horror", FOUR, position=RESTROOM_VOTE)
            for action in FIRST_VOTE:
                box.table.answer(action)
            first = box.table.rules.prompt(box.table.state).id
            assert await asyncio.to_thread(hub.wait_for, lambda h: h.lamps.get(1) == "ASK")
            token = box.server.seat_urls()["red"].rsplit("/", 1)[1]
            async with aiohttp.ClientSession() as session:
                phone = await session.ws_connect(f"http://127.0.0.1:{box.server.port}/ws/{token}")
                await phone.send_str(json.dumps({"v": 1, "type": "answer", "question": first,
                                                 "action": {"seat": "red", "vote": "yellow"}}))
                while json.loads((await phone.receive()).data)["type"] != "ack":
                    pass
                seq = hub.press(1, 3)  # the same vote on Red's pad, a moment later: the re-vote is open now
                assert await asyncio.to_thread(hub.wait_for, lambda h: seq in h.replies)
                await phone.close()
            answers = [e["answer"] for e in box.store.events(box.table.game_id) if "answer" in e]
            return hub.replies[seq], answers, box.table.rules.prompt(box.table.state).id != first
        finally:
            await box.close()

    try:
        reply, answers, revote = asyncio.run(main())
    finally:
        hub.close()
    assert revote
    assert reply == "NO"  # the lamp tells the truth: not counted
    assert red_votes(answers) == [{"seat": "red", "vote": "yellow"}]


def test_a_firm_double_press_on_a_gpio_pad_does_not_cast_the_revote(tmp_path, mock_factory):
    running = RunningTable(tmp_path / "double.sqlite3")
    clock = Clock()
    pads = GpioPads(running.buttons, GpioConfig((GpioPad("red", RED_PINS, led=26),)), clock=clock,
                    timing=SLOW_BLINK)
    running.call(pads.start)
    try:
        first = at_the_last_vote(running)
        told: list[str] = []
        lamp = pads.lamps["red"]
        lamp.accepted, lamp.refused = (lambda f=lamp.accepted: (told.append("accepted"), f())[1],
                                       lambda f=lamp.refused: (told.append("refused"), f())[1])
        pin = mock_factory.pin(RED_PINS[2])

        def thumb() -> None:  # button 3 pressed twice, firmly, 100 ms apart
            for _ in range(2):
                pin.drive_low()
                clock.advance(0.05)
                time.sleep(0.05)
                pin.drive_high()
                clock.advance(0.05)
                time.sleep(0.05)

        finger = threading.Thread(target=thumb)
        finger.start()
        finger.join(WAIT)
        assert wait_until(lambda: len(told) == 2), told
        assert prompt_id(running) != first  # the first press made the tie: the re-vote is open
        assert red_votes(running.answers()) == [{"seat": "red", "vote": "yellow"}]
        assert told == ["accepted", "refused"]
        assert running.call(lambda: running.table.question("red")) is not None
    finally:
        running.call(pads.close)
        running.close()


# -- the hub: what a reply was for ----------------------------------------------------------------------------


class HubRig:
    def __init__(self, running: RunningTable, hub: FakeHub, pads: dict[int, str] | None = None):
        self.running, self.hub = running, hub
        hub.plug()
        registry = PadRegistry(pads or {1: "red", 2: "blue", 3: "yellow"})
        self.serial = running.call(lambda: SerialPads(running.buttons, registry, find_port=lambda: self.hub.path,
                                                      backoff=(0.01, 0.05)))
        running.call(self.serial.start)

    def close(self) -> None:
        self.running.call(self.serial.close)
        self.hub.close()


@pytest.fixture
def rig(running):
    rig = HubRig(running, FakeHub(pads=4, resend_after=60.0))
    assert rig.hub.wait_for(lambda h: len(h.lamps) == 4)
    yield rig
    rig.close()


def test_a_hub_that_reboots_and_draws_the_same_boot_id_gets_no_answer_from_memory(rig):
    seq = rig.hub.press(1, 3)
    assert rig.hub.wait_for(lambda h: h.replies.get(seq) == "OK")
    rig.hub.unplug()
    rig.hub = FakeHub(pads=4, boot=rig.hub.boot, resend_after=60.0)  # rebooted, and drew the same boot id
    rig.hub.plug()
    assert rig.hub.wait_for(lambda h: len(h.lamps) == 4)
    assert rig.hub.press(2, 3) == seq  # numbered from 1 again: Blue's vote has Red's sequence number
    assert rig.hub.wait_for(lambda h: seq in h.replies)
    assert rig.hub.replies[seq] == "OK"
    assert rig.running.votes() == [{"seat": "red", "vote": "yellow"}, {"seat": "blue", "vote": "yellow"}]
    assert rig.serial.counts.duplicates == 0


def test_one_overlong_line_is_one_garbage_count(rig):
    for _ in range(64):  # 1 MB with no newline, as a cable full of noise would send it
        rig.hub.write_raw(b"x" * 16384)
    rig.hub.write_raw(b"\n")
    seq = rig.hub.press(1, 3)  # the line is good again after it
    assert rig.hub.wait_for(lambda h: seq in h.replies, timeout=20)
    assert rig.hub.replies[seq] == "OK"
    assert rig.serial.counts.garbage == 1 and rig.serial.counts.bad_checksum == 0


def test_a_stuck_pad_is_ignored_named_once_and_costs_few_notices(rig):
    # The guard reads the test's clock: every press is at one instant, as a stuck button's are. On the wall's
    # clock a loaded CI machine once spread the 300 presses over more than a second (the pty full, its reader
    # waiting), and the pad was, rightly, not stuck then. bench pads --flood presses on the wall's clock.
    rig.serial.guard = RateGuard(clock=Clock())
    seqs = [rig.hub.press(4, 2) for _ in range(300)]  # pad 4 (nobody's) pressed as fast as the cable goes
    assert rig.hub.wait_for(lambda h: seqs[-1] in h.replies, timeout=20)
    said = rig.running.said
    assert "Pad 4 is stuck (pressed faster than a hand can): its presses are ignored for 10 s. Check its buttons " \
           "and cable." in said
    assert len(said) <= 3  # connected, one refusal, stuck: not one line per press
    assert set(rig.hub.replies.values()) == {"NO"} and rig.serial.counts.ignored >= 250
    assert rig.running.answers() == []


# -- a device that does not identify itself -------------------------------------------------------------------


def test_presses_before_the_hubs_hello_do_not_count_until_it_is_asked_and_says_it(running):
    hub = FakeHub(pads=4, resend_after=60.0)
    hub.says_hello = False  # its HELLO at power-up was lost, and it does not answer the first SYNCs
    rig = HubRig(running, hub)
    try:
        seq = hub.press(1, 3)
        time.sleep(0.6)  # the press has arrived, and SYNC was sent again, unanswered
        assert running.votes() == [] and seq not in hub.replies  # not counted, not answered
        assert rig.serial.counts.unidentified >= 1
        hub.says_hello = True  # the next SYNC brings its HELLO and the press again
        assert hub.wait_for(lambda h: h.replies.get(seq) == "OK", timeout=5)
        assert running.votes() == [{"seat": "red", "vote": "yellow"}]
        assert hub.received.count("SYNC") >= 2  # it was asked again
    finally:
        rig.close()


async def _host_problems(box: Box, wanted: str, timeout: float = 6.0) -> list[dict]:
    """The problems the host page receives, once one has the key `wanted` (or the time is up)."""
    token = box.server.host_url.rsplit("/", 1)[1]
    async with aiohttp.ClientSession() as session:
        host = await session.ws_connect(f"http://127.0.0.1:{box.server.port}/ws/{token}")
        deadline = time.monotonic() + timeout
        problems: list[dict] = []
        while time.monotonic() < deadline:
            try:
                message = await host.receive(timeout=deadline - time.monotonic())
            except TimeoutError:
                break
            data = json.loads(message.data)
            if data["type"] == "state" and data.get("host"):
                problems = data["host"]["problems"]
                if any(p["key"] == wanted for p in problems):
                    break
        await host.close()
        return problems


@pytest.mark.parametrize("device, wanted", [("garbage", "faults.pads.not_a_hub"),
                                            ("2.0", "faults.pads.hub_version")])
def test_a_device_on_the_pad_port_that_is_no_hub_is_named_on_the_host_page(tmp_path, device, wanted):
    hub = FakeHub(pads=4, version="2.0" if device == "2.0" else "1.0", resend_after=60.0)
    hub.says_hello = device != "garbage"
    path = hub.plug()
    config = tmp_path / "pads.toml"
    config.write_text(f'[serial]\nport = "{path}"\n[serial.pads]\n1 = "red"\n')

    async def main() -> tuple[list[dict], list[dict], float]:
        box = Box(BoxOptions(db=str(tmp_path / "host.sqlite3"), host="127.0.0.1", port=0, address="127.0.0.1",
                             pads=str(config)))
        started = time.monotonic()
        await box.open()
        try:
            box.table.new_game("mall-of-horror", FOUR, position=RESTROOM_VOTE)
            if device == "garbage":
                hub.write_raw(b"\x00\xffREADY>>> \r\n")  # another program on the Pico talks
            hub.press(1, 3)  # a valid PRESS line from a device that never said a valid HELLO
            problems = await _host_problems(box, wanted)
            answers = [e["answer"] for e in box.store.events(box.table.game_id) if "answer" in e]
            return problems, answers, time.monotonic() - started
        finally:
            await box.close()

    try:
        problems, answers, seconds = asyncio.run(main())
    finally:
        hub.close()
    named = [p for p in problems if p["key"] == wanted]
    assert named and named[0]["params"]["port"] == path and seconds < 6
    if device == "2.0":
        assert named[0]["params"]["version"] == "2.0"
        assert "speaks protocol 2.0" in text(Message(named[0]["key"], named[0]["params"]))
    assert answers == []  # its presses did not count


@pytest.mark.parametrize("device", ["garbage", "2.0"])
def test_the_device_on_the_pad_port_is_published_for_doctor_while_the_port_is_held(running, monkeypatch, device):
    """No runtime dir: the state goes beside the save file, where `companion doctor --db` finds it."""
    from companion import doctor
    from companion.pads import hub_state

    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setattr(hub_state, "RUN_DIR", running.store.path.parent / "no-run-dir")
    monkeypatch.setattr(hub_state, "USER_RUN", running.store.path.parent / "no-user-run")
    hub = FakeHub(pads=4, version="2.0" if device == "2.0" else "1.0", resend_after=60.0)
    hub.says_hello = device != "garbage"
    rig = HubRig(running, hub)
    published = running.store.path.parent / hub_state.file_name(hub.path)
    try:
        if device == "garbage":
            hub.write_raw(b"\x00\xffREADY>>> \r\n")
        assert wait_until(lambda: published.exists()
                          and json.loads(published.read_text())["state"] == hub_state.NOT_A_HUB)
        state = json.loads(published.read_text())
        assert state["port"] == hub.path and state["pid"] == os.getpid()
        assert state["version"] == (None if device == "garbage" else "2.0")
        monkeypatch.setattr("companion.pads.serial.find_hub", lambda *_: hub.path)
        finding = doctor.check_hub(running.store.path)  # the rig holds the port: doctor cannot ask the device
        assert finding.status == "fix"
        assert finding.message.key == ("doctor.hub.not_a_hub" if device == "garbage" else "doctor.hub.version")
    finally:
        rig.close()
    assert not published.exists()  # the pads closed: nothing is on the port as far as this process knows


# -- a box restart between storing a press and its OK ---------------------------------------------------------


def _serve(db: Path, config: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--db", str(db), "--host", "127.0.0.1", "--port", "0",
         "--no-qr", "--pads", str(config)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})


def _stored(db: Path) -> list[dict]:
    with EventStore(db, readonly=True) as store:
        game = store.unfinished()
        return store.events(game.id) if game else []


@pytest.mark.parametrize("resend_after, down", [(0.5, 0.0), (0.02, 1.5)])
def test_a_press_stored_before_a_restart_is_counted_once_and_gets_its_ok(tmp_path, resend_after, down):
    """(0.02, 1.5): the box stays down while the hub keeps sending the press again every 20 ms."""
    db = tmp_path / "restart.sqlite3"
    with EventStore(db) as store:  # the save file of a game at Red's last vote, as a table left it
        table = Table(store)
        table.new_game("mall-of-horror", FOUR, position=RESTROOM_VOTE)
        for action in FIRST_VOTE:
            table.answer(action)
    hub = FakeHub(pads=4, resend_after=resend_after)
    path = hub.plug()
    config = tmp_path / "pads.toml"
    config.write_text(f'[serial]\nport = "{path}"\n[serial.pads]\n1 = "red"\n')
    process = _serve(db, config)
    try:
        assert hub.wait_for(lambda h: h.lamps.get(1) == "ASK", timeout=15)
        time.sleep(SETTLE + 0.5)  # a hand presses once the lamp has asked (a press sooner may be the last question's)
        hub.deaf = True  # the OK will be lost in the cable
        seq = hub.press(1, 3)
        deadline = time.monotonic() + 10
        while not red_votes([e["answer"] for e in _stored(db) if "answer" in e]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert red_votes([e["answer"] for e in _stored(db) if "answer" in e]), "the press was not stored in 10 s"
        process.send_signal(signal.SIGKILL)  # the box dies before its OK reaches the hub
        process.wait(timeout=10)
        assert seq not in hub.replies and seq in hub.unacked
        time.sleep(down)  # the hub keeps sending it meanwhile
        hub.deaf = False
        process = _serve(db, config)  # resumes the game; the hub sends the press again
        assert hub.wait_for(lambda h: seq in h.replies, timeout=15)
        assert hub.replies[seq] == "OK"  # the lamp tells the truth: it was stored
        time.sleep(1.5)  # the hub's resends of it (every 0.5 s) have come and been answered
        answers = [e["answer"] for e in _stored(db) if "answer" in e]
        assert red_votes(answers) == [{"seat": "red", "vote": "yellow"}]  # once, in the vote it was pressed for
        sources = [e["source"] for e in _stored(db) if "source" in e]
        assert sources == [{"hub": hub.boot, "seq": seq, "pad": 1, "button": 3}]
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0, process.stderr.read()
        hub.close()


def test_a_stuck_gpio_button_is_ignored_and_its_pad_named(tmp_path, mock_factory):
    running = RunningTable(tmp_path / "stuck.sqlite3", position=None)  # nobody is asked: every press is refused
    running.call(lambda: running.table.new_game("mall-of-horror", FOUR, position={**RESTROOM_VOTE,
                                                                                   "phase": "attack"}))
    pads = GpioPads(running.buttons, GpioConfig((GpioPad("green", RED_PINS),), debounce=0.0))
    running.call(pads.start)
    try:
        pin = mock_factory.pin(RED_PINS[0])
        for _ in range(500):  # a shorted contact: edges as fast as the pin goes
            pin.drive_low()
            pin.drive_high()
        stuck = "Green's pad is stuck (pressed faster than a hand can): its presses are ignored for 10 s. Check " \
                "its buttons and cable."
        assert wait_until(lambda: stuck in running.said)
        time.sleep(0.2)
        assert len(running.said) == 2  # one refusal told, then the pad named: not 500 lines
        assert running.buttons.guard.ignored >= 400 and running.buttons.refusals <= 31
    finally:
        running.call(pads.close)
        running.close()


def test_refused_presses_are_told_once_per_pad_per_window_and_the_rest_summed_up(running):
    running.buttons.notice_window = 0.3  # 5 s on the box
    running.call(running.buttons.close)
    running.call(running.buttons.start)  # the notices start again with the short window
    replies: list[object] = []
    for _ in range(10):  # Green is not asked: ten refused presses in a row
        running.buttons.press("green", 1, replies.append)
    assert wait_until(lambda: len(running.said) == 2)
    assert running.said == ["Green pressed a pad button but is not asked anything now.",
                            "9 more presses on Green's pad refused."]
    assert len(replies) == 10 and all(replies)  # every press still got its refusal: the lamp tells each
    time.sleep(0.7)
    assert len(running.said) == 2  # nothing more refused: nothing more said
    running.buttons.press("green", 2, replies.append)
    assert wait_until(lambda: len(running.said) == 3)
    assert running.said[-1] == "Green pressed a pad button but is not asked anything now."


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0.04, max_value=3.0), min_size=1, max_size=200))
def test_a_hand_pressing_up_to_25_times_a_second_is_never_taken_for_a_stuck_pad(gaps):
    now = [0.0]
    guard = RateGuard(clock=lambda: now[0])
    for gap in gaps:
        now[0] += gap
        assert guard.check(3) == "ok"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=0.9 / STUCK_PRESSES), min_size=STUCK_PRESSES + 1,
                max_size=STUCK_PRESSES + 1), st.floats(min_value=0.0, max_value=9.9))
def test_more_than_30_presses_within_a_second_make_a_pad_stuck_for_10_seconds(gaps, later):
    now = [0.0]
    guard = RateGuard(clock=lambda: now[0])
    verdicts = []
    for gap in gaps:
        now[0] += gap
        verdicts.append(guard.check(3))
    assert verdicts == ["ok"] * STUCK_PRESSES + ["jammed"]
    now[0] += later
    assert guard.check(3) == "ignored" and guard.check(4) == "ok"  # another pad is not stuck with it
    now[0] += 10.0
    assert guard.check(3) == "ok"
