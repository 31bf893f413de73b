"""The pads config: the README's example is valid, and every mistake is named with where it is."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from padkit import README, readme_config

from companion.pads.config import PICO_USB_ID, PadConfigError, load_config, parse_config


def test_the_readme_example_gives_three_gpio_pads_and_a_hub_pad():
    block = README.read_text().split("```toml\n", 1)[1].split("```", 1)[0]
    config = parse_config(tomllib.loads(block))
    assert [(p.seat, len(p.buttons), p.led is not None) for p in config.gpio.pads] == [
        ("red", 6, True), ("blue", 6, True), ("yellow", 6, True)]
    assert config.gpio.debounce == 0.030
    assert config.serial.port is None and config.serial.usb_id == PICO_USB_ID
    assert config.serial.pads == {1: "green"}


def test_the_readme_pin_table_matches_the_config_and_the_header():
    rows = re.findall(r"^\| (\w+) +\| (\w+) +\| GPIO(\d+) +\| (\d+) +\|$", README.read_text(), re.MULTILINE)
    assert len(rows) == 21
    config = {p.seat: p for p in readme_config().pads}
    factory = MockFactory()
    try:
        for seat, button, bcm, header in rows:
            pad = config[seat.lower()]
            assert int(bcm) == (pad.led if button == "LED" else pad.buttons[int(button) - 1])
            assert f"BOARD{header}" in factory.pin(int(bcm)).info.names  # gpiozero's own map of the header
    finally:
        factory.close()


def test_a_config_file_is_read(tmp_path):
    path = tmp_path / "pads.toml"
    path.write_text('[gpio.seats.red]\nbuttons = [17, 27]\n\n[serial]\nport = "/dev/ttyACM0"\n')
    config = load_config(path)
    assert config.gpio.pads[0].buttons == (17, 27) and config.gpio.pads[0].led is None
    assert config.serial.port == "/dev/ttyACM0"


@pytest.mark.parametrize("text, message", [
    ("[gpio.seats.red]\nbuttons = [17, 17]", r"red\] Red's button 2: GPIO17 is already Red's button 1"),
    ("[gpio.seats.red]\nbuttons = [17]\n[gpio.seats.blue]\nbuttons = [5]\nled = 17",
     r"blue\] Blue's LED: GPIO17 is already Red's button 1"),
    ("[gpio.seats.red]\nbuttons = [0]", r"0 is not a usable BCM pin; use GPIO 2 to 27"),
    ("[gpio.seats.red]\nbuttons = [40]", r"40 is not a usable BCM pin"),
    ("[gpio.seats.red]\nbuttons = [2, 3, 4, 5, 6, 7, 8]", r"a list of 1 to 6 BCM pin numbers"),
    ("[gpio.seats.red]\nbutons = [2]", r"unknown key 'butons'"),
    ("[gpio]\ndebounce_ms = -1\n[gpio.seats.red]\nbuttons = [2]", r"debounce_ms must be a number"),
    ("[gpio]\ndebounce_ms = 30", r"needs at least one pad"),
    ("[serial]\nusb_id = \"pico\"", r"usb_id must be written VID:PID in hex"),
    ("[serial.pads]\n7 = \"red\"", r"pads 1 to 6"),
    ("[serial.pads]\n1 = \"red\"\n2 = \"red\"", r"red is given two pads"),
    ("[hdmi]\nx = 1", r"unknown key 'hdmi'"),
])
def test_mistakes_are_named_with_where_they_are(tmp_path, text, message):
    path = tmp_path / "pads.toml"
    path.write_text(text)
    with pytest.raises(PadConfigError, match=message) as refused:
        load_config(path)
    assert str(refused.value).startswith(str(path))


def test_a_file_that_is_not_toml_or_not_there_is_named(tmp_path):
    path = tmp_path / "pads.toml"
    path.write_text("[gpio\n")
    with pytest.raises(PadConfigError, match="not valid TOML"):
        load_config(path)
    with pytest.raises(PadConfigError, match="cannot be read"):
        load_config(Path(tmp_path / "missing.toml"))
