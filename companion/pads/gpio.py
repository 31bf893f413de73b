"""GPIO pads: buttons and an LED per seat wired to the Pi's 40-pin header, read with gpiozero.

Each button connects its pin to ground (the pin's pull-up holds it high); the LED is lit through a resistor.
gpiozero calls back on its own thread: the edge is debounced there, then handed to PadButtons, which passes
the answer to the table's loop. The LEDs are switched from the loop only.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from functools import partial

from gpiozero import LED, Button
from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

from companion.contract import Message
from companion.pads.buttons import PadButtons, PadError, Reply
from companion.pads.config import GpioConfig
from companion.pads.lamp import DEFAULT_TIMING, Lamp, LampTiming


class Debounce:
    """One button's contact: a press counts only when the contact closes after `quiet` seconds without any edge.

    Contacts bounce both when pressed and when released; measuring from the last edge of either kind (not from
    the last accepted press) keeps a release's bounces from counting as a new press.
    """

    def __init__(self, quiet: float, clock: Callable[[], float] = time.monotonic):
        self.quiet = quiet
        self.clock = clock
        self._last_edge: float | None = None

    def edge(self, pressed: bool) -> bool:
        """An edge of the contact; True if it is a press that counts."""
        now = self.clock()
        counts = pressed and (self._last_edge is None or now - self._last_edge >= self.quiet)
        self._last_edge = now
        return counts


class GpioPads:
    """The GPIO pads of a config; `start` on the loop's thread, `close` when done."""

    def __init__(self, buttons: PadButtons, config: GpioConfig, pin_factory: object | None = None,
                 clock: Callable[[], float] = time.monotonic, timing: LampTiming = DEFAULT_TIMING):
        self.buttons = buttons
        self.config = config
        self.pin_factory = pin_factory  # None: gpiozero's default (lgpio on a Pi 5) or Device.pin_factory
        self.clock = clock
        self.timing = timing
        self.lamps: dict[str, Lamp] = {}
        self._devices: list[Button | LED] = []
        self._leds: dict[str, LED] = {}
        self._unwatch: Callable[[], None] | None = None

    def start(self) -> None:
        loop = self.buttons.table.loop
        if loop is None:
            raise PadError("the table is not running on a loop: start the pads from inside the running table")
        try:
            self._open_devices()
        except BaseException:
            self.close()
            raise
        for seat, led in self._leds.items():
            self.lamps[seat] = Lamp(loop, _switch(led), self.timing)
            self.lamps[seat].asked(self.buttons.asked(seat))
        self._unwatch = self.buttons.watch(self._asked)

    def _open_devices(self) -> None:
        with warnings.catch_warnings(record=True) as fallbacks:
            warnings.simplefilter("always", PinFactoryFallback)
            try:
                for pad in self.config.pads:
                    for k, pin in enumerate(pad.buttons, start=1):
                        button = self._add(lambda pin: Button(pin, pull_up=True, bounce_time=None,
                                                              pin_factory=self.pin_factory), pin)
                        debounce = Debounce(self.config.debounce, self.clock)
                        # gpiozero's bounce_time is not used: its mock ignores it and real contacts need both edges
                        press = partial(self._press, keys=len(pad.buttons))  # six buttons can enter a number
                        button.when_pressed = _edge(press, debounce, pad.seat, k, True)
                        button.when_released = _edge(press, debounce, pad.seat, k, False)
                    if pad.led is not None:
                        self._leds[pad.seat] = self._add(lambda pin: LED(pin, pin_factory=self.pin_factory), pad.led)
            except BadPinFactory as error:
                reasons = "; ".join(str(w.message) for w in fallbacks if issubclass(w.category, PinFactoryFallback))
                raise PadError(f"no GPIO header found: {reasons or error}. GPIO pads need a Raspberry Pi "
                               f"(with python3-lgpio on a Pi 5); use the serial pad hub or phones instead") from None
            except GPIOZeroError as error:
                raise PadError(f"GPIO pads cannot use their pins: {error}") from None

    def _add(self, make: Callable[[int], Button | LED], pin: int) -> Button | LED:
        device = make(pin)
        self._devices.append(device)
        return device

    def _press(self, seat: str, button: int, keys: int) -> None:
        self.buttons.press(seat, button, self._reply(seat), keys)

    def _reply(self, seat: str) -> Reply:
        def reply(error: Message | None) -> None:
            lamp = self.lamps.get(seat)
            if lamp is not None:
                lamp.refused() if error else lamp.accepted()
        return reply

    def _asked(self, seat: str, asked: bool) -> None:
        if seat in self.lamps:
            self.lamps[seat].asked(asked)

    def close(self) -> None:
        if self._unwatch is not None:
            self._unwatch()
            self._unwatch = None
        for lamp in self.lamps.values():
            lamp.close()
        self.lamps.clear()
        for device in self._devices:
            device.close()
        self._devices.clear()
        self._leds.clear()


def _edge(press: Callable[[str, int], None], debounce: Debounce, seat: str, button: int,
          pressed: bool) -> Callable[[], None]:
    def on_edge() -> None:  # on gpiozero's thread
        if debounce.edge(pressed):
            press(seat, button)
    return on_edge


def _switch(led: LED) -> Callable[[bool], None]:
    return lambda lit: led.on() if lit else led.off()
