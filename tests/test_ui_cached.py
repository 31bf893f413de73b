"""A Cached widget (companion/ui/widgets.py) shows its child from a picture drawn once, at the child's place, and
draws the picture again when the child changes: read back from a real offscreen Kivy window, pixel by pixel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}

SCRIPT = r'''
import json
from companion.ui.run import configure_kivy, open_window
configure_kivy("offscreen")
Window = open_window()
from kivy.base import EventLoop
from kivy.graphics import Color, Rectangle
from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget
from companion.ui.widgets import Cached

root = FloatLayout()
Window.add_widget(root)
holder = Cached(size_hint=(None, None), size=(100, 80), pos=(200, 100))
inner = Widget()
with inner.canvas:
    paint = Color(1, 0, 0, 1)
    Rectangle(pos=(10, 10), size=(40, 30))
holder.add_widget(inner)
root.add_widget(holder)

def frame():
    for _ in range(3):
        EventLoop.idle()

def pixel(x, y):
    return list(glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE))[:3]

frame()
out = {"inside": pixel(225, 125), "outside": pixel(260, 125),
       "in_picture": holder._fbo.indexof(inner.canvas) >= 0 and holder.canvas.indexof(inner.canvas) < 0}
paint.rgba = (0, 1, 0, 1)  # the child changes: the picture is drawn again
frame()
out["changed"] = pixel(225, 125)
holder.pos = (400, 300)  # moved: the same picture elsewhere
frame()
out["moved"] = pixel(425, 325)
out["left_behind"] = pixel(225, 125)
print(json.dumps(out))
'''


def test_a_cached_child_is_shown_from_its_picture_and_drawn_again_when_it_changes():
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=ENV, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["in_picture"]  # drawn into the picture, not onto the screen
    assert out["inside"] == [255, 0, 0]  # the child's red, at the child's place in the holder
    assert out["outside"] != [255, 0, 0]
    assert out["changed"] == [0, 255, 0]
    assert out["moved"] == [0, 255, 0] and out["left_behind"] != [0, 255, 0]
