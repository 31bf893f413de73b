"""The pads config (TOML): which GPIO pins are whose pad, and where the serial pad hub is.

    [gpio]
    debounce_ms = 30                      # optional
    [gpio.seats.red]
    buttons = [5, 6, 13, 19, 26, 21]      # BCM numbers of buttons 1..6 (1 to 6 of them)
    led = 20                              # optional

    [serial]
    port = "/dev/ttyACM0"                 # optional: else the hub is found by its USB id
    usb_id = "2E8A:0005"                  # optional: a Raspberry Pi Pico running MicroPython
    [serial.pads]
    1 = "red"                             # optional: pads given to seats before anyone presses

hardware/README.md shows a full example with its wiring.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.pads.buttons import BUTTONS

PICO_USB_ID = (0x2E8A, 0x0005)  # Raspberry Pi Pico running MicroPython
USABLE_PINS = range(2, 28)  # BCM 0 and 1 belong to the HAT ID EEPROM; 28 and up are not on the header
DEFAULT_DEBOUNCE_MS = 30


class PadConfigError(ValueError):
    """A pads config that cannot be used; the message names the file, the entry and what is wrong, on one line."""

    def __init__(self, message: str):
        # A name from the file may hold a newline or a terminal escape: shown escaped, on one line.
        super().__init__("".join(c if c.isprintable() else repr(c)[1:-1] for c in message))


@dataclass(frozen=True)
class GpioPad:
    seat: str
    buttons: tuple[int, ...]
    led: int | None = None


@dataclass(frozen=True)
class GpioConfig:
    pads: tuple[GpioPad, ...]
    debounce: float = DEFAULT_DEBOUNCE_MS / 1000


@dataclass(frozen=True)
class SerialConfig:
    port: str | None = None
    usb_id: tuple[int, int] = PICO_USB_ID
    pads: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PadsConfig:
    gpio: GpioConfig | None = None
    serial: SerialConfig | None = None


def load_config(path: str | Path) -> PadsConfig:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise PadConfigError(f"{path}: cannot be read ({error.strerror or error})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise PadConfigError(f"{path}: not valid TOML ({error})") from None
    return parse_config(data, str(path))


def parse_config(data: dict[str, Any], source: str = "pads config") -> PadsConfig:
    _known(data, {"gpio", "serial"}, source, "")
    gpio = _gpio(data["gpio"], source) if "gpio" in data else None
    serial = _serial(data["serial"], source) if "serial" in data else None
    return PadsConfig(gpio, serial)


def _gpio(section: Any, source: str) -> GpioConfig:
    where = f"{source}: [gpio]"
    if not isinstance(section, dict):
        raise PadConfigError(f"{where} must be a table")
    _known(section, {"debounce_ms", "seats"}, source, "gpio")
    debounce = section.get("debounce_ms", DEFAULT_DEBOUNCE_MS)
    if type(debounce) not in (int, float) or not 0 <= debounce <= 500:
        raise PadConfigError(f"{where} debounce_ms must be a number of milliseconds from 0 to 500, not {debounce!r}")
    seats = section.get("seats", {})
    if not isinstance(seats, dict) or not seats:
        raise PadConfigError(f"{where} needs at least one pad, e.g. [gpio.seats.red] buttons = [5, 6, 13]")
    used: dict[int, str] = {}
    pads = []
    for seat, pad in seats.items():
        here = f"{source}: [gpio.seats.{seat}]"
        if not isinstance(pad, dict):
            raise PadConfigError(f"{here} must be a table with buttons = [...] and an optional led = pin")
        _known(pad, {"buttons", "led"}, source, f"gpio.seats.{seat}")
        buttons = pad.get("buttons")
        if not isinstance(buttons, list) or not 1 <= len(buttons) <= BUTTONS:
            raise PadConfigError(f"{here} buttons must be a list of 1 to {BUTTONS} BCM pin numbers (buttons 1, 2, ...)")
        for k, pin in enumerate(buttons, start=1):
            _claim(used, pin, f"{seat.title()}'s button {k}", here)
        led = pad.get("led")
        if led is not None:
            _claim(used, led, f"{seat.title()}'s LED", here)
        pads.append(GpioPad(seat, tuple(buttons), led))
    return GpioConfig(tuple(pads), debounce / 1000)


def _claim(used: dict[int, str], pin: Any, what: str, where: str) -> None:
    if type(pin) is not int or pin not in USABLE_PINS:
        raise PadConfigError(f"{where} {what}: {pin!r} is not a usable BCM pin; use GPIO 2 to 27 "
                             f"(0 and 1 are reserved for HAT ID EEPROMs)")
    if pin in used:
        raise PadConfigError(f"{where} {what}: GPIO{pin} is already {used[pin]}")
    used[pin] = what


def _serial(section: Any, source: str) -> SerialConfig:
    where = f"{source}: [serial]"
    if not isinstance(section, dict):
        raise PadConfigError(f"{where} must be a table")
    _known(section, {"port", "usb_id", "pads"}, source, "serial")
    port = section.get("port")
    if port is not None and (not isinstance(port, str) or not port):
        raise PadConfigError(f"{where} port must be a device path such as \"/dev/ttyACM0\"")
    usb_id = PICO_USB_ID
    if "usb_id" in section:
        usb_id = _usb_id(section["usb_id"], where)
    pads: dict[int, str] = {}
    given = section.get("pads", {})
    if not isinstance(given, dict):
        raise PadConfigError(f"{where} pads must be a table such as 1 = \"red\"")
    for key, seat in given.items():
        pad = int(key) if key.isascii() and key.isdigit() else 0  # "²" is a digit to isdigit(), not to int()
        if not 1 <= pad <= BUTTONS or not isinstance(seat, str) or not seat:
            raise PadConfigError(f"{source}: [serial.pads] {key} = {seat!r}: write pad = \"seat\", pads 1 to 6")
        if seat in pads.values():
            raise PadConfigError(f"{source}: [serial.pads] {seat} is given two pads")
        pads[pad] = seat
    return SerialConfig(port, usb_id, pads)


def _usb_id(text: Any, where: str) -> tuple[int, int]:
    if not isinstance(text, str) or not re.fullmatch(r"[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}", text):
        raise PadConfigError(f"{where} usb_id must be written VID:PID in hex, e.g. \"2E8A:0005\", not {text!r}")
    vid, pid = (int(part, 16) for part in text.split(":"))
    return vid, pid


def _known(section: dict, keys: set[str], source: str, name: str) -> None:
    unknown = sorted(set(section) - keys)
    if unknown:
        where = f"[{name}] " if name else ""
        raise PadConfigError(f"{source}: {where}unknown key {unknown[0]!r}; known keys: {', '.join(sorted(keys))}")
