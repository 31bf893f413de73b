"""Safe shutdown and restart of the box, from the touchscreen's menu or a GPIO button.

The app stops first and the box closes (the save file checkpointed, the phones told the server is gone), and only
then is the machine powered off or restarted, so the SD card is never cut mid-write:

- under the kiosk unit (COMPANION_POWER=exit) the companion exits with EXIT_CODES[action] and the unit's
  ExecStopPost, run as root, calls `systemctl poweroff` or `systemctl reboot` (no sudo or polkit rule needed);
- otherwise (the desktop's user unit, by hand) it runs `systemctl poweroff|reboot` itself; COMPANION_POWER_COMMAND
  replaces `systemctl` (tests record the call with it).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Callable

ACTIONS = ("poweroff", "reboot")
EXIT_CODES = {"poweroff": 10, "reboot": 11}  # systemd/companion-kiosk.service knows them
HOLD_SECONDS = 3.0  # a GPIO power button held this long powers off (a short press does nothing)


def finish(action: str | None) -> int:
    """After the box has closed: power off or restart as asked (`action`), and the exit status to return."""
    if action is None:
        return 0
    if action not in ACTIONS:
        raise ValueError(f"unknown power action {action!r}")
    if os.environ.get("COMPANION_POWER") == "exit":
        print(f"companion: {action} (the kiosk unit does it)", flush=True)
        return EXIT_CODES[action]
    command = shlex.split(os.environ.get("COMPANION_POWER_COMMAND") or "systemctl") + [action]
    print(f"companion: {shlex.join(command)}", flush=True)
    try:
        done = subprocess.run(command, check=False)
    except OSError as error:
        print(f"companion: cannot {action}: {command[0]}: {error.strerror or error}", file=sys.stderr)
        return 1
    return 0 if done.returncode == 0 else 1


class PowerButton:
    """A push button between a GPIO pin and ground: held HOLD_SECONDS, it asks for a shutdown (`asked("poweroff")`).

    gpiozero calls back from its own thread; `asked` must be safe to call from there (the app schedules it)."""

    def __init__(self, pin: int | str, asked: Callable[[str], None], hold: float = HOLD_SECONDS, pin_factory=None):
        from gpiozero import Button

        self.button = Button(pin, pull_up=True, hold_time=hold, pin_factory=pin_factory)
        self.button.when_held = lambda: asked("poweroff")

    def close(self) -> None:
        self.button.close()
