"""The pads of a table, from a pads config: started on the table's loop, closed when the table stops."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.contract import Message
from companion.pads.buttons import PadButtons, Say
from companion.pads.config import load_config
from companion.pads.gpio import GpioPads
from companion.pads.registry import PadRegistry
from companion.pads.serial import Problem, SerialPads, port_finder
from companion.table import Table


@dataclass
class TablePads:
    buttons: PadButtons
    gpio: GpioPads | None = None
    serial: SerialPads | None = None
    devices: list = field(default_factory=list)

    def give_next(self, seat: str) -> None:
        """The next pad pressed on the hub becomes `seat`'s (there is nothing to give on GPIO pads: wired)."""
        if self.serial is None:
            self.buttons.say(Message("pads.no_hub"))
            return
        self.serial.give_next(seat)

    def close(self) -> None:
        for device in reversed(self.devices):
            device.close()


def start_pads(table: Table, config_path: str, say: Say, problem: Problem | None = None) -> TablePads:
    """Start every pad the config names (PadConfigError or PadError with a clear message otherwise).

    `problem`: told a lasting problem of the pads for the host screen (a device on the hub's port that is no
    hub), and None once it is gone."""
    config = load_config(config_path)
    buttons = PadButtons(table, say=say)
    buttons.start()
    pads = TablePads(buttons, devices=[buttons])
    try:
        if config.gpio is not None:
            pads.gpio = GpioPads(buttons, config.gpio)
            pads.gpio.start()
            pads.devices.append(pads.gpio)
        if config.serial is not None:
            registry = PadRegistry(config.serial.pads)
            pads.serial = SerialPads(buttons, registry, port_finder(config.serial), say=say, problem=problem)
            pads.serial.start()
            pads.devices.append(pads.serial)
    except BaseException:
        pads.close()
        raise
    return pads
