"""The people's names a screen shows from the save file (the names used before, the statistics' people), drawn in
any script: the Chinese faces learn the characters they lack (companion/ui/fonts.py) and are cut again off the
screen's thread, the screen keeping its faces meanwhile, then every text takes the new faces."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable

from kivy.clock import Clock

from companion.ui import fonts

log = logging.getLogger("companion.ui")

_cutting: list[threading.Thread] = []  # the cut under way, if any


def learn(app, names: Iterable[str], done: Callable[[], None] | None = None) -> bool:
    """Let the screen draw these names; True while new faces are being cut for them (then the screen's texts take
    the new faces, and `done` is called, on the screen's thread)."""
    if not fonts.learn_names([name for name in names if name]):
        return bool(_cutting)

    def cut() -> None:
        try:
            fonts.prepare()
        except Exception as error:  # noqa: BLE001 - the faces stay as they were: a name may show boxes, nothing worse
            log.warning("the Chinese faces could not be cut for the names: %s", error)
        Clock.schedule_once(lambda _dt: _cut(app, done), 0)

    worker = threading.Thread(target=cut, name="name-faces", daemon=True)
    _cutting.append(worker)
    worker.start()
    return True


def _cut(app, done: Callable[[], None] | None) -> None:
    _cutting.clear()
    # Every text takes the new faces, every screen is drawn again: a screen in Chinese takes its own face, and in
    # English or Vietnamese a text with a Chinese name takes the new wide face (companion/ui/widgets.py).
    app.set_lang(app.lang)
    if done is not None:
        done()


def cutting() -> bool:
    """New faces are being cut for names (the tests wait for them)."""
    return bool(_cutting)
