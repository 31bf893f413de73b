"""The screen's own keyboard: the box has a touchscreen and no keyboard, so a text field (a name at the new game)
docks Kivy's keyboard at the bottom of the screen while it has the focus (Config keyboard_mode "systemanddock", set
in companion/ui/run.py before the window opens; a keyboard plugged in still types). This one has keys a finger
presses (48 px high at 800×480, Kivy's own are 40), the screen's dark colours, and a shift key that stays down for
the next letter (Kivy's shifts only while held: a second finger)."""

from __future__ import annotations

from kivy.uix.vkeyboard import VKeyboard

# Kivy lays its keyboard out at 700 wide and scales it to the window's width: 5 rows of keys in 96 % of this height
# (less 2+2 of margin) are 48 px high each once scaled to 800.
HEIGHT = 240


class TouchKeyboard(VKeyboard):
    def __init__(self, **kwargs):
        kwargs.setdefault("width", 700)
        kwargs.setdefault("height", HEIGHT)
        kwargs.setdefault("background_color", (0.35, 0.36, 0.42, 1))
        kwargs.setdefault("key_background_color", (0.42, 0.45, 0.55, 1))
        kwargs.setdefault("font_size", 22)
        kwargs.setdefault("margin_hint", [0.02, 0.02, 0.02, 0.02])  # the keys take the room
        super().__init__(**kwargs)
        self.shifted = False  # ⇧ tapped: the next key is a capital

    def process_key_up(self, touch):
        key = touch.ud.get(self.uid, {}).get("key")
        super().process_key_up(touch)
        if key is None:
            return
        special = key[0][2]
        if special == "shift":
            self.shifted = not self.shifted
        elif special not in ("capslock", "layout", "special"):
            self.shifted = False
        self.have_shift = self.shifted


def install() -> None:
    """Every text field's docked keyboard is a TouchKeyboard (call it once the window is open)."""
    from kivy.core.window import Window

    Window.set_vkeyboard_class(TouchKeyboard)


def height() -> float:
    """How much of the screen's bottom the docked keyboard covers now (0 when it is not shown)."""
    from kivy.core.window import Window

    shown = [w for w in Window.children if isinstance(w, VKeyboard)]
    return max((w.height * w.scale for w in shown), default=0.0)
