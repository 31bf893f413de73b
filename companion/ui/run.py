"""`companion run`: the touchscreen app and the box (table, phone server, pads) on one asyncio loop.

Full screen on a Pi without a desktop (SDL's KMS/DRM driver), a window on a desktop; with no display at all it
says so in one line and runs headless, as `companion serve` does.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from companion.box import Box, BoxError, BoxOptions

WINDOW = (800, 480)  # the Pi's 7" display


def display() -> str | None:
    """How a window can be shown here: an SDL driver name, "desktop", or None when there is no display."""
    driver = os.environ.get("SDL_VIDEODRIVER")
    if driver:
        return driver
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or sys.platform in ("darwin", "win32"):
        return "desktop"
    cards = sorted(Path("/dev/dri").glob("card*")) if Path("/dev/dri").is_dir() else []
    if any(os.access(card, os.R_OK | os.W_OK) for card in cards):
        return "kmsdrm"
    return None


def gpu_renders(dri: Path = Path("/dev/dri")) -> bool:
    """A GPU draws the window: there is a DRI render node this user may open (the Pi's V3D, a desktop's card).
    Without one, Mesa draws every frame with the CPU (llvmpipe)."""
    nodes = sorted(dri.glob("renderD*")) if dri.is_dir() else []
    return any(os.access(node, os.R_OK | os.W_OK) for node in nodes)


def configure_kivy(mode: str, size: tuple[int, int] = WINDOW) -> None:
    """Kivy's settings, before Kivy opens its window: no command-line parsing, no config or log files."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONFIG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    # A change of the table is drawn at once, not at the next frame of the 30 a second (idle, it still sleeps).
    os.environ.setdefault("KIVY_CLOCK", "interrupt")
    if mode == "kmsdrm":
        os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
    from kivy.config import Config

    Config.set("kivy", "exit_on_escape", "0")
    Config.set("kivy", "log_level", "warning")
    Config.set("graphics", "maxfps", "30")
    # Multisampling smooths the edges of shapes. A GPU does it for next to nothing; software GL rasters every pixel
    # four times over and resolves them each frame: half of a frame's time (the location cards, drawn into
    # pictures, never had it). Without a GPU the edges stay as they are drawn.
    gpu = gpu_renders()
    Config.set("graphics", "multisamples", "2" if gpu else "0")
    if not gpu:
        # Software GL rasters in the app's own thread: a frame here is small (800x480) and made of many small
        # draws, and handing each part of it to raster threads and waiting for them cost more than the raster
        # (2-3 ms a frame measured on two cores, and steadier).
        os.environ.setdefault("LP_NUM_THREADS", "0")
    if mode == "kmsdrm":
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "show_cursor", "0")
    else:
        Config.set("graphics", "width", str(size[0]))
        Config.set("graphics", "height", str(size[1]))
    Config.set("input", "mouse", "mouse,disable_multitouch")
    # The box has a touchscreen and no keyboard: a text field (a name at the new game) docks Kivy's own keyboard at
    # the bottom of the screen, and a keyboard plugged in still types.
    Config.set("kivy", "keyboard_mode", "systemanddock")
    Config.set("kivy", "keyboard_layout", "qwerty")


def open_window():
    """Kivy's window, open, with the screens' scale set for it: the layouts are drawn for the Pi's 800x480 in dp,
    and a bigger window (1280x800) shows the same screens larger (fonts, tokens, buttons), not emptier. Call it
    after `configure_kivy` and before the app's widgets are imported (their sizes are taken at import)."""
    from kivy.core.window import Window
    from kivy.metrics import Metrics

    _quiet_interrupt_clock()
    _plain_shapes_sampled_once()
    scale = min(Window.width / WINDOW[0], Window.height / WINDOW[1])  # pixels: a HiDPI display counts too
    Metrics.density = max(0.75, min(3.0, scale))
    return Window


def _plain_shapes_sampled_once() -> None:
    """Kivy draws every shape without a texture of its own (a panel, a button, a token) with one white texture,
    blended from four texels at each pixel. Software GL pays for that at every pixel of every shape, each frame (a
    third of the time of a plain fill, measured): white from the nearest texel is the same white."""
    from kivy.graphics import Rectangle

    white = Rectangle().texture  # (Kivy's default texture, shared by every instruction without one)
    white.mag_filter = white.min_filter = "nearest"


def _quiet_interrupt_clock() -> None:
    """Kivy's interruptible clock waits with asyncio.wait_for and lets its TimeoutError out of every frame in which
    nothing was scheduled (kivy#8066): a frame that waited its time out is an ordinary frame."""
    from kivy.clock import Clock

    if not hasattr(Clock, "_async_event"):
        return  # another clock (KIVY_CLOCK set otherwise)

    async def wait_for(awaitable, timeout):
        try:
            return await asyncio.wait_for(awaitable, timeout)
        except TimeoutError:
            return None

    def init_async_lib(lib, _init=Clock.init_async_lib):
        _init(lib)
        if lib == "asyncio":
            Clock._async_wait_for = wait_for

    Clock.init_async_lib = init_async_lib
    init_async_lib("asyncio")


def ask_power(app, action: str) -> None:
    """Stop the app so that the box closes, then power off or restart (`companion.power.finish`)."""
    app.power_request = action
    app.stop()


async def run(options: BoxOptions, lang: str | None = None, power_button: int | str | None = None) -> int:
    mode = display()
    if mode is None:
        print("companion run: no display here (no DISPLAY, WAYLAND_DISPLAY or /dev/dri card): running headless, "
              "as `companion serve`", flush=True)
        from companion.serve import serve

        return await serve(options)
    configure_kivy(mode)
    open_window()
    from companion.ui.app import CompanionApp

    box = Box(options)
    try:
        await box.open()
    except BoxError as error:
        print(f"companion run: {error}", file=sys.stderr)
        return 2
    app = CompanionApp(box, lang=lang)
    app.power_request = None  # "poweroff" or "reboot", asked from the menu or the power button
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, app.stop)
    button = None
    if power_button is not None:
        from companion.power import PowerButton

        try:
            button = PowerButton(power_button, lambda action: loop.call_soon_threadsafe(ask_power, app, action))
        except Exception as error:  # noqa: BLE001 - no GPIO here, a pin in use: the screen's menu still works
            print(f"companion run: no power button on GPIO {power_button}: {error}", file=sys.stderr)
    try:
        await app.async_run(async_lib="asyncio")
    finally:
        if button is not None:
            button.close()
        await box.close()
    from companion.power import finish

    return finish(app.power_request)
