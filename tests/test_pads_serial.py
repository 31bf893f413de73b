"""Serial pads over a pty pair: the companion opens the pty's path with pyserial, a fake hub speaks on the other side.

The fake hub (companion.pads.fake_hub) is a thread writing protocol lines to the pty's master, with faults on
demand: garbage, bad checksums, answers lost on the way, the cable pulled and plugged back as a new pty.
"""

from __future__ import annotations

import threading

import pytest
from padkit import WAIT, RunningTable, wait_until
from serial.tools.list_ports_common import ListPortInfo

from companion.catalogue import text
from companion.pads import protocol
from companion.pads.config import SerialConfig
from companion.pads.fake_hub import FakeHub
from companion.pads.protocol import Hello, LineError, Press
from companion.pads.registry import PadRegistry
from companion.pads.serial import SerialPads, hub_port, port_finder

DISCONNECTED = ("Pad hub disconnected: the game goes on from phones and the screen; "
                "the pads will be back when the hub is plugged in again.")


class Rig:
    """A running table at a Restroom vote, a fake hub with pads 1-3 given to Red, Blue and Yellow."""

    def __init__(self, db, pads: dict[int, str] | None = None):
        self.running = RunningTable(db)
        self.hub = FakeHub(pads=4, resend_after=60.0)  # resending on a timer is tested with the firmware
        self.hub.plug()
        registry = PadRegistry({1: "red", 2: "blue", 3: "yellow"} if pads is None else pads)
        self.serial = self.running.call(lambda: SerialPads(self.running.buttons, registry,
                                                           find_port=lambda: self.hub.path, backoff=(0.01, 0.05)))
        self.running.call(self.serial.start)
        assert self.hub.wait_for(lambda h: len(h.lamps) == 4), "the companion did not answer the hub's HELLO"

    def press(self, pad: int, button: int) -> int:
        return self.hub.press(pad, button)

    def answered(self, seq: int) -> str:
        assert self.hub.wait_for(lambda h: seq in h.replies), f"press {seq} got no answer"
        return self.hub.replies[seq]

    def close(self) -> None:
        self.running.call(self.serial.close)
        self.hub.close()
        self.running.close()


@pytest.fixture
def rig(tmp_path):
    rig = Rig(tmp_path / "serial.sqlite3")
    yield rig
    rig.close()


# -- the protocol ---------------------------------------------------------------------------------------------


def test_lines_carry_an_xor_checksum_in_hex():
    assert protocol.frame("SYNC") == b"SYNC*07\n"
    assert protocol.parse_hub_line(b"PRESS 1 3 1*54") == Press(1, 3, 1)
    assert protocol.parse_hub_line(b"PRESS 1 3 1*54\r") == Press(1, 3, 1)
    assert protocol.parse_hub_line(protocol.frame("HELLO hub 1.0 6 3fa2")[:-1]) == Hello("1.0", 6, "3FA2")


@pytest.mark.parametrize("line, bad_checksum", [
    (b"PRESS 1 3 1*55", True),
    (b"PRESS 1 3 2*54", True),
    (b"PRESS 1 3 1", False),
    (b"PRESS 1 3 1*5", False),
    (b"PRESS 1 3 1*ZZ", False),
    (b"\x00\xff\xfe*00", False),
    (b"", False),
    (protocol.frame("PRESS 1 3 1 " + "9" * 60)[:-1], False),
    (protocol.frame("PRESS 7 3 1")[:-1], False),
    (protocol.frame("PRESS 1 0 1")[:-1], False),
    (protocol.frame("PRESS 1 3 0")[:-1], False),
    (protocol.frame("PRESS 1 3")[:-1], False),
    (protocol.frame("BOOM 1 3 1")[:-1], False),
    (protocol.frame("HELLO hub 2.0 6 AB")[:-1], False),
    (protocol.frame("HELLO hub 1.0 6 XYZ")[:-1], False),
])
def test_lines_that_are_not_the_protocol_are_refused(line, bad_checksum):
    with pytest.raises(LineError) as refused:
        protocol.parse_hub_line(line)
    assert refused.value.checksum is bad_checksum


# -- the game from hub pads -----------------------------------------------------------------------------------


def test_a_secret_ballot_from_hub_pads(rig):
    seqs = [rig.press(1, 3), rig.press(2, 3), rig.press(3, 1)]
    assert [rig.answered(seq) for seq in seqs] == ["OK", "OK", "OK"]
    revealed = wait_until(rig.running.revealed)
    assert revealed["ballots"] == {"red": "yellow", "blue": "yellow", "yellow": "red"}
    assert len(rig.running.votes()) == 3


def test_the_table_drives_the_pad_lights(rig):
    assert rig.hub.lamps == {1: "ASK", 2: "ASK", 3: "ASK", 4: "DONE"}  # Red, Blue, Yellow vote; pad 4 is nobody's
    assert rig.answered(rig.press(2, 6)) == "NO"  # no choice on button 6
    assert rig.answered(rig.press(2, 2)) == "OK"
    assert rig.hub.wait_for(lambda h: h.lamps[2] == "DONE")  # Blue has voted: no longer asked
    assert rig.answered(rig.press(2, 2)) == "NO"  # and a pad never changes a ballot cast
    assert rig.hub.lamps[1] == "ASK"
    done_before_ok = rig.hub.received.index("DONE 2") < rig.hub.received.index("OK 2 2")
    assert done_before_ok  # the hub lights "accepted" knowing the pad will be dark after it


def test_garbage_and_bad_checksums_are_ignored_and_counted(rig):
    state = rig.running.call(lambda: rig.running.table.state)
    rig.hub.send("PRESS 1 3 90", checksum=0x00)
    rig.hub.send("PRESS 1 3 91", checksum=0x7F)
    rig.hub.write_raw(b"\x00\xff\xfe garbage\n")
    rig.hub.write_raw(b"x" * 500 + b"\n")  # one overlong line, counted once
    rig.hub.write_raw(b"PRESS 1 3 92\n")  # no checksum at all
    rig.hub.send("JUNK 1 2 3")
    counts = rig.serial.counts
    assert wait_until(lambda: counts.garbage == 4 and counts.bad_checksum == 2), counts
    assert rig.running.call(lambda: rig.running.table.state) is state and rig.running.answers() == []
    assert rig.answered(rig.press(1, 3)) == "OK"  # the line is still good after the garbage
    assert rig.running.votes() == [{"seat": "red", "vote": "yellow"}]
    assert counts.as_dict()["garbage"] == 4 and counts.duplicates == 0


def test_unplugged_mid_ballot_the_game_goes_on_and_no_press_is_lost_or_doubled(rig):
    rig.hub.deaf = True  # Red's press arrives and is stored, but the OK is lost in the cable
    red = rig.press(1, 3)
    assert wait_until(lambda: rig.running.votes()) == [{"seat": "red", "vote": "yellow"}]
    rig.hub.unplug()
    assert wait_until(lambda: DISCONNECTED in rig.running.said)
    assert wait_until(lambda: not rig.serial.connected)

    replies: list[str | None] = []
    phone = threading.Thread(target=rig.running.table.answer_threadsafe,
                             args=({"seat": "blue", "vote": "yellow"}, replies.append))
    phone.start()
    phone.join(WAIT)
    assert wait_until(lambda: replies) == [None]  # Blue votes from a phone meanwhile
    yellow = rig.press(3, 1)  # pressed while the hub is unplugged: kept until it can be sent

    rig.hub.deaf = False
    rig.hub.plug()  # a new pty, a new path: found again through find_port
    assert rig.answered(red) == "OK" and rig.answered(yellow) == "OK"
    revealed = wait_until(rig.running.revealed)
    assert revealed["ballots"] == {"red": "yellow", "blue": "yellow", "yellow": "red"}
    assert rig.running.votes() == [{"seat": "red", "vote": "yellow"}, {"seat": "blue", "vote": "yellow"},
                                   {"seat": "yellow", "vote": "red"}]
    assert rig.serial.counts.duplicates == 1  # Red's press came again and was answered from memory
    assert rig.serial.counts.connects == 2 and rig.serial.counts.disconnects == 1


def test_a_hub_that_booted_again_numbers_its_presses_from_one(rig):
    assert rig.answered(rig.press(1, 3)) == "OK"
    rig.hub.unplug()
    rebooted = FakeHub(pads=4, boot="CAFE", resend_after=60.0)
    rig.hub = rebooted
    rebooted.plug()
    assert rebooted.wait_for(lambda h: len(h.lamps) == 4)
    assert rebooted.press(2, 3) == 1  # the same sequence number as Red's press, from a new boot
    assert rig.answered(1) == "OK"
    assert rig.running.votes() == [{"seat": "red", "vote": "yellow"}, {"seat": "blue", "vote": "yellow"}]
    assert rig.serial.counts.duplicates == 0


# -- giving pads to seats -------------------------------------------------------------------------------------


def test_a_press_on_a_pad_nobody_has_is_refused(rig):
    assert rig.answered(rig.press(4, 1)) == "NO"
    assert rig.running.answers() == []
    assert "Pad 4 is not given to anyone" in rig.running.said[-1]


def test_press_any_button_on_a_pad_to_give_it_to_a_seat_even_mid_game(tmp_path):
    rig = Rig(tmp_path / "registry.sqlite3", pads={})
    try:
        assert rig.hub.lamps == {1: "DONE", 2: "DONE", 3: "DONE", 4: "DONE"}
        rig.running.call(lambda: rig.serial.give_next("red"))
        assert rig.running.said[-1] == "Press any button on a pad to give it to Red."
        assert rig.answered(rig.press(4, 5)) == "OK"  # the claiming press is not a vote
        assert rig.running.said[-1] == "Pad 4 is Red's now."
        assert rig.hub.wait_for(lambda h: h.lamps[4] == "ASK")
        assert rig.running.answers() == []

        rig.running.call(lambda: rig.serial.give_next("red"))  # Red moves to another pad mid-vote
        assert rig.answered(rig.press(2, 1)) == "OK"
        assert rig.running.said[-2:] == ["Pad 2 is Red's now.", "Pad 4 is free."]
        assert rig.hub.wait_for(lambda h: h.lamps[4] == "DONE" and h.lamps[2] == "ASK")
        assert rig.answered(rig.press(4, 3)) == "NO"
        assert rig.answered(rig.press(2, 3)) == "OK"
        assert rig.running.votes() == [{"seat": "red", "vote": "yellow"}]
    finally:
        rig.close()


def test_giving_a_pad_that_belongs_to_someone_else_takes_it_from_them():
    registry = PadRegistry({1: "red", 2: "blue"})
    registry.give_next("yellow")
    assert [text(m) for m in registry.claim(2)] == ["Pad 2 is Yellow's now.", "Blue has no pad now."]
    assert registry.pads() == {1: "red", 2: "yellow"} and registry.claim(1) is None


# -- finding the hub ------------------------------------------------------------------------------------------


def test_the_hub_is_found_by_its_usb_id():
    other, pico = ListPortInfo("/dev/ttyUSB0"), ListPortInfo("/dev/ttyACM1")
    other.vid, other.pid = 0x0403, 0x6001
    pico.vid, pico.pid = 0x2E8A, 0x0005
    assert hub_port([other, pico]) == "/dev/ttyACM1"
    assert hub_port([other]) is None
    assert hub_port([other], (0x0403, 0x6001)) == "/dev/ttyUSB0"


def test_a_configured_port_is_used_while_it_exists(tmp_path):
    device = tmp_path / "ttyACM0"
    find = port_finder(SerialConfig(port=str(device)))
    assert find() is None
    device.touch()
    assert find() == str(device)


def test_the_companion_keeps_looking_until_a_hub_appears(tmp_path):
    running = RunningTable(tmp_path / "late.sqlite3")
    hub = FakeHub(pads=2, resend_after=60.0)
    serial = running.call(lambda: SerialPads(running.buttons, PadRegistry({1: "red"}), find_port=lambda: hub.path,
                                             backoff=(0.01, 0.05)))
    try:
        running.call(serial.start)
        assert not serial.connected
        hub.plug()
        assert hub.wait_for(lambda h: h.lamps == {1: "ASK", 2: "DONE"})
        assert running.said == ["Pad hub connected: 2 pads (firmware 1.0)."]
    finally:
        running.call(serial.close)
        hub.close()
        running.close()
