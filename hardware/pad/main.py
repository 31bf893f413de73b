"""Pad hub firmware for a Raspberry Pi Pico running MicroPython: up to 6 pads of 6 buttons, one LED each.

Copy every hardware/pad/pad_*.py and this file to the Pico (hardware/README.md says how); it starts at power-up.
"""

import pad_pins
from machine import Pin
from pad_hub import Hub
from pad_keys import KeyMatrix
from pad_lamps import Lamp
from pad_link import UsbLink
from pad_ticks import sleep_ms, ticks_ms


def build(link=None) -> Hub:
    rows = [Pin(n, Pin.IN) for n in pad_pins.ROWS]
    columns = [Pin(n, Pin.IN, Pin.PULL_UP) for n in pad_pins.COLUMNS]
    lamps = [Lamp(Pin(n, Pin.OUT, value=0)) for n in pad_pins.LEDS[:len(pad_pins.ROWS)]]
    return Hub(KeyMatrix(rows, columns), lamps, link or UsbLink())


def run(hub: Hub, running=lambda: True) -> None:
    hub.start(ticks_ms())
    while running():
        hub.step(ticks_ms())
        sleep_ms(1)


if __name__ == "__main__":
    run(build())
