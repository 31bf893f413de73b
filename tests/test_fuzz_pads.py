"""Bad pads input never crashes: a mutated pads config is read or refused in one line, a garbled hub line is a
LineError (counted and ignored), never another exception.

The configs are the README's example and small ones, mutated (fuzzkit), written out as real TOML (every TOML
type: strings, integers, floats with inf and nan, booleans, dates, arrays, tables) or garbled as text. The hub
lines are the protocol's HELLO and PRESS, mutated word by word and framed with a right checksum (so the parser
gets past the checksum), or garbled as bytes. FUZZ_EXAMPLES sets the number of examples (default 300 each).
"""

from __future__ import annotations

import datetime
import json
import math
import tomllib
from pathlib import Path
from typing import Any

import pytest
from fuzzkit import Chooser, DrawChooser, fuzz_settings, mutate
from hypothesis import given
from hypothesis import strategies as st
from padkit import README

from companion.pads import protocol
from companion.pads.config import USABLE_PINS, PadConfigError, PadsConfig, load_config

README_TOML = README.read_text().split("```toml\n", 1)[1].split("```", 1)[0]
CONFIGS = [
    tomllib.loads(README_TOML),
    {"gpio": {"seats": {"red": {"buttons": [17, 27]}}}},
    {"serial": {"port": "/dev/ttyACM0", "usb_id": "2E8A:0005", "pads": {"1": "red", "6": "blue"}}},
]
DATE = datetime.date(1979, 5, 27)  # TOML has no null: a date stands for a value of no use here


def toml_value(value: Any) -> str:
    """`value` written as TOML (inline tables and arrays); None is written as a date."""
    if value is None:
        return DATE.isoformat()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # JSON's escapes are TOML's basic-string escapes
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml(config: dict) -> str:
    return "".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in config.items())


def garbled(c: Chooser, text: str) -> str:
    cut = c.integer(0, len(text))
    return c.pick([text[:cut], text[:cut] + c.pick(["[", "]", "=", '"', "\n", "#", "[[gpio]]\n", "\x00"]) + text[cut:],
                   text + text, text.replace("=", ":"), text.replace("\n", "\n[gpio]\n", 1)])


def check_config(config: PadsConfig) -> None:
    """What the pads code relies on, true of every config that is read."""
    if config.gpio is not None:
        assert 0 <= config.gpio.debounce <= 0.5
        pins = [pin for pad in config.gpio.pads for pin in (*pad.buttons, pad.led) if pin is not None]
        assert all(type(pin) is int and pin in USABLE_PINS for pin in pins) and len(set(pins)) == len(pins)
        assert all(isinstance(pad.seat, str) and 1 <= len(pad.buttons) <= 6 for pad in config.gpio.pads)
    if config.serial is not None:
        assert config.serial.port is None or (isinstance(config.serial.port, str) and config.serial.port)
        assert all(type(part) is int and 0 <= part <= 0xFFFF for part in config.serial.usb_id)
        assert all(type(pad) is int and 1 <= pad <= 6 and isinstance(seat, str) for pad, seat in
                   config.serial.pads.items())


def read(text: str, path: Path) -> str | None:
    """None if the config is read; its one-line refusal otherwise."""
    path.write_text(text, encoding="utf-8")
    try:
        config = load_config(path)
    except PadConfigError as error:
        message = str(error)
        assert message.startswith(str(path)) and "\n" not in message and "\r" not in message, message
        return message
    check_config(config)
    return None


@pytest.fixture(scope="module")
def config_path(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz-pads") / "pads.toml"


def test_the_sample_configs_are_read(config_path):
    for config in CONFIGS:
        assert read(toml(config), config_path) is None


@fuzz_settings(300)
@given(st.data())
def test_property_mutated_pads_configs_are_read_or_refused_in_one_line(config_path, data):
    c = DrawChooser(data)
    config = c.pick(CONFIGS)
    if c.integer(0, 4) == 0:
        read(garbled(c, c.pick([README_TOML, toml(config)])), config_path)
        return
    config = mutate(c, config)
    read(toml(config if isinstance(config, dict) else {"gpio": config}), config_path)


@pytest.mark.parametrize("text, words", [
    ('[serial.pads]\n"²" = "red"', "[serial.pads]"),  # a digit to str.isdigit, not to int()
    ('[serial]\nusb_id = "FFFFF:1"', "usb_id"),
    ('[serial]\nusb_id = "-1:5"', "usb_id"),
    ('[serial]\nusb_id = 11914', "usb_id"),
    ('[gpio.seats."a\\nb"]\nbuttons = [99]', "a\\nb"),  # a seat's name with a newline: still one line
    ('[gpio.seats.red]\nbuttons = [17]\nled = 1979-05-27', "LED"),
    ('[gpio.seats.red]\nbuttons = [17.0]', "button 1"),
    ("[gpio]\ndebounce_ms = nan\n[gpio.seats.red]\nbuttons = [2]", "debounce_ms"),
    ("gpio = 1", "[gpio]"),
    ('[gpio]\nseats = ["red"]', "pad"),
    ("[serial]\npads = []", "pads"),
])
def test_odd_configs_are_refused_in_one_line_naming_the_entry(config_path, text, words):
    refusal = read(text, config_path)
    assert refusal is not None and words in refusal, refusal


# -- the hub's lines --------------------------------------------------------------------------------------------

LINES = ["HELLO hub 1.0 6 3FA2", "PRESS 1 3 7", "PRESS 6 6 65535", "HELLO hub 1.12 1 0"]
WORDS = ["", " ", "0", "1", "6", "7", "65535", "65536", "99999999999999999999", "-1", "+1", "1.0", "2.0", "x",
         "HELLO", "PRESS", "hub", "²", "1e3", "0x1", "FFFFFFFFF", "  ", "*", "*00"]


def mutated_line(c: Chooser) -> bytes:
    words = c.pick(LINES).split(" ")
    for _ in range(c.integer(1, 3)):
        where = c.integer(0, len(words))
        how = c.integer(0, 3)
        if how == 0 and where < len(words):
            words[where] = c.pick(WORDS)
        elif how == 1 and where < len(words):
            del words[where]
        elif how == 2:
            words.insert(where, c.pick(WORDS))
        elif where < len(words):
            words[where] = words[where] * 2
    payload = " ".join(words)
    try:
        line = protocol.frame(payload)
    except UnicodeEncodeError:  # "²": the hub sends ASCII only, so send its UTF-8 bytes with a wrong checksum
        line = payload.encode("utf-8") + b"*00\n"
    if c.integer(0, 4) == 0:  # a byte lost, changed or added on the wire
        at = c.integer(0, len(line) - 1)
        line = c.pick([line[:at] + line[at + 1:], line[:at] + bytes([c.integer(0, 255)]) + line[at + 1:],
                       line[:at] + bytes([c.integer(0, 255)]) + line[at:]])
    return line.split(b"\n")[0]  # the reader splits at the newline


def parse(line: bytes) -> protocol.Hello | protocol.Press | protocol.LineError:
    try:
        message = protocol.parse_hub_line(line)
    except protocol.LineError as error:
        assert str(error) and "\n" not in str(error)
        return error
    if isinstance(message, protocol.Hello):
        assert 1 <= message.pads <= 6 and 1 <= len(message.boot) <= 8
    else:
        assert 1 <= message.pad <= 6 and 1 <= message.button <= 6 and 1 <= message.seq <= protocol.MAX_SEQ
    return message


def test_the_protocols_lines_parse():
    for line in LINES:
        assert not isinstance(parse(protocol.frame(line)[:-1]), protocol.LineError)


@fuzz_settings(300)
@given(st.data())
def test_property_mutated_hub_lines_are_messages_or_line_errors(data):
    parse(mutated_line(DrawChooser(data)))


@fuzz_settings(300)
@given(st.binary(max_size=80))
def test_property_any_bytes_are_a_message_or_a_line_error(line):
    parse(line)
