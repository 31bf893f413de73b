"""The screen's building blocks (companion/ui/widgets.py) in a real offscreen Kivy window, each script in a process
of its own (one Kivy window per process): Cached shows its child from a picture drawn once, at the child's place,
and draws it again when the child changes (read back pixel by pixel); Text shrinks rather than cut a word of a
spaced language in two, while Chinese, which breaks between any two characters, wraps at its size."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from companion.ui import fonts
from companion.ui.run import gpu_renders

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def run(script: str, env: dict | None = None) -> dict:
    """What `script` printed last, as JSON."""
    done = subprocess.run([sys.executable, "-c", script], env=env or ENV, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


CACHED = r'''
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
after = Widget()  # drawn after the picture: still blended over what lies beneath it
with after.canvas:
    Color(0, 0, 1, 0.5)
    Rectangle(pos=(600, 100), size=(40, 40))
root.add_widget(after)

def frame():
    for _ in range(3):
        EventLoop.idle()

def pixel(x, y):
    return list(glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE))[:3]

frame()
out = {"inside": pixel(225, 125), "outside": pixel(260, 125), "half_blue": pixel(610, 110),
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
    out = run(CACHED)
    assert out["in_picture"]  # drawn into the picture, not onto the screen
    assert out["inside"] == [255, 0, 0]  # the child's red, at the child's place in the holder
    assert out["outside"] == [20, 23, 28]  # the rest of the picture is the ground it lies on (the window's BG)
    # Blending is on again after the picture: half blue over the window's black.
    assert out["half_blue"][:2] == [0, 0] and abs(out["half_blue"][2] - 128) <= 1
    assert out["changed"] == [0, 255, 0]
    assert out["moved"] == [0, 255, 0] and out["left_behind"] != [0, 255, 0]


FITTED = r'''
import json
from companion.ui.run import configure_kivy, open_window
configure_kivy("offscreen")
Window = open_window()
from kivy.base import EventLoop
from kivy.uix.floatlayout import FloatLayout
from companion.ui import fonts
from companion.ui.run import gpu_renders
from companion.ui.widgets import Text

root = FloatLayout()
Window.add_widget(root)
made = {
    "word": Text(text="Supermarket", base_font=17, min_font=8, size_hint=(None, None), size=(80, 40)),
    "words": Text(text="Security HQ", base_font=17, min_font=8, size_hint=(None, None), size=(80, 40)),
    "chinese": Text(text="第二轮：僵尸攻击超市", base_font=17, min_font=8, size_hint=(None, None), size=(80, 60),
                    font_name=fonts.font_for("zh-Hans")),
}
for text in made.values():
    root.add_widget(text)
for _ in range(6):
    EventLoop.idle()
out = {}
for name, text in made.items():
    lines = ["".join(word.text for word in line.words) for line in text._label._cached_lines]
    out[name] = {"lines": lines, "size": text.font_size, "fits": text.texture_size[0] <= text.width + 1
                 and text.texture_size[1] <= text.height + 1}
print(json.dumps(out, ensure_ascii=False))
'''


def test_a_word_is_never_cut_in_two_a_smaller_size_is_taken_instead():
    out = run(FITTED)
    assert out["word"]["lines"] == ["Supermarket"] and out["word"]["fits"] and out["word"]["size"] < 17
    assert [line.strip() for line in out["words"]["lines"]] == ["Security", "HQ"] and out["words"]["fits"]
    if not fonts.missing_cjk():
        chinese = out["chinese"]
        assert len(chinese["lines"]) > 1 and chinese["fits"] and chinese["size"] >= 14  # wrapped, not shrunk


MEASURED = r"""
import json
from companion.ui.run import configure_kivy, open_window
configure_kivy("offscreen")
Window = open_window()
from kivy.base import EventLoop
from kivy.core.text.text_sdl2 import LabelSDL2
from kivy.uix.floatlayout import FloatLayout
from companion.catalogue import catalogue
from companion.ui import fonts
from companion.ui.widgets import MeasuredLabel, Text

calls = {"n": 0}  # characters SDL_ttf measured (it loads each Chinese glyph again for each measure)
measure = LabelSDL2.get_extents
def counted(self, text):
    calls["n"] += len(text)
    return measure(self, text)
LabelSDL2.get_extents = counted

out = {"wider": [], "taller": 0, "lines": 0}
for lang in ("zh-Hans", "zh-Hant"):
    for size in (13.0, 20.0):
        exact = LabelSDL2(font_name=fonts.font_for(lang), font_size=size)
        quick = MeasuredLabel(font_name=fonts.font_for(lang), font_size=size)
        exact.resolve_font_name()
        quick.resolve_font_name()
        for message in catalogue().messages[lang].values():
            for text in (message if isinstance(message, tuple) else (message,)):
                for line in text.split("\n"):
                    for end in range(1, len(line) + 1, 3):  # its beginnings, as Kivy measures them to wrap a line
                        (w, h), (qw, qh) = exact.get_extents(line[:end]), quick.get_extents(line[:end])
                        out["wider"].append(qw - w)
                        out["taller"] = max(out["taller"], abs(qh - h))
                        out["lines"] += 1

line = ("蓝色，当选的保安队长，前往 4 停车场。把 2 个僵尸放到 6 超市：骰子掷出两个 6。"
        "红色的枪手从 1 洗手间被移走：被吃掉了。")
root = FloatLayout()
Window.add_widget(root)
made = Text(text="", base_font=14, grow=True, size_hint=(None, None), width=280, font_name=fonts.font_for("zh-Hans"))
root.add_widget(made)
EventLoop.idle()
calls["n"] = 0
made.text = line
for _ in range(4):
    EventLoop.idle()
out["measures"] = calls["n"]
calls["n"] = 0
made.text = line[::-1]  # the same characters again: measured already
for _ in range(4):
    EventLoop.idle()
out["measures_again"] = calls["n"]
made.text = line
for _ in range(4):
    EventLoop.idle()
out["wrapped"] = ["".join(word.text for word in row.words) for row in made._label._cached_lines]
plain = LabelSDL2(text=line, font_name=fonts.font_for("zh-Hans"), font_size=made.font_size,
                  text_size=(made.width - 2 * made.pad, None))
calls["n"] = 0
plain.refresh()
out["plain_measures"] = calls["n"]
out["plain_wrapped"] = ["".join(word.text for word in row.words) for row in plain._cached_lines]
out["fits"] = made.texture_size[0] <= made.width + 1
print(json.dumps(out, ensure_ascii=False))
"""


def test_chinese_text_is_measured_from_its_pieces_never_narrower_and_wrapped_as_before():
    if fonts.missing_cjk():
        return
    out = run(MEASURED)
    wider = sorted(out["wider"])
    assert out["lines"] > 5000 and wider[0] >= 0  # never narrower than SDL_ttf measures it: no text is cut
    assert wider[len(wider) // 2] <= 1 and wider[-1] <= 10 and out["taller"] == 0
    # A line of narration is wrapped at the same places, its characters measured once each rather than again in
    # every longer beginning of the line; and the next line measures only the characters it is the first to show.
    assert out["wrapped"] == out["plain_wrapped"] and len(out["wrapped"]) >= 3 and out["fits"]
    assert out["measures"] * 3 < out["plain_measures"] and out["measures_again"] * 4 < out["measures"], out


NEAREST = r"""
import json
from companion.ui.run import configure_kivy, open_window
configure_kivy("offscreen")
Window = open_window()
from kivy.base import EventLoop
from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels
from kivy.uix.floatlayout import FloatLayout
from companion.ui import fonts
from companion.ui.widgets import Text

root = FloatLayout()
Window.add_widget(root)
texts = [Text(text="Put 2 zombies on 6 Supermarket", base_font=15, size_hint=(None, None), size=(301.5, 41.3),
              pos=(10.4, 100.7)),
         Text(text="▶ Ừ, Vàng đi đến 4 Bãi đỗ xe", base_font=14, halign="left", size_hint=(None, None),
              size=(250, 40), pos=(10, 200.5))]
if not fonts.missing_cjk():
    texts.append(Text(text="把 2 个僵尸放到 6 超市", base_font=16, size_hint=(None, None), size=(260.2, 44),
                      pos=(20.6, 300.2), font_name=fonts.font_for("zh-Hans")))
for text in texts:
    root.add_widget(text)

def frame():
    for _ in range(4):
        EventLoop.idle()

def pixels():
    return [list(glReadPixels(int(t.x), int(t.y), int(t.width), int(t.height), GL_RGBA, GL_UNSIGNED_BYTE))
            for t in texts]

frame()
out = {"filters": [[t.texture.min_filter, t.texture.mag_filter] for t in texts]}
nearest = pixels()
for text in texts:
    text.texture.min_filter = text.texture.mag_filter = "linear"
    text.canvas.ask_update()
frame()
out["same"] = [a == b for a, b in zip(nearest, pixels())]
out["inked"] = [sum(1 for v in p[0::4] if v > 128) for p in nearest]
print(json.dumps(out))
"""


def test_text_is_sampled_pixel_for_pixel_the_same_picture_as_blended():
    out = run(NEAREST)
    assert all(f == ["nearest", "nearest"] for f in out["filters"]), out["filters"]
    assert all(n > 50 for n in out["inked"])  # the text is drawn there
    assert all(out["same"]), out["same"]  # nearest is the picture a blend of four texels would give


SAMPLES = r"""
import json
from companion.ui.run import configure_kivy, open_window
configure_kivy("offscreen")
Window = open_window()
import os
from kivy.graphics.opengl import glFinish, glGetIntegerv, glGetString, GL_RENDERER
glFinish()
threads = [open(f"/proc/self/task/{t}/comm").read().strip() for t in os.listdir("/proc/self/task")]
from kivy.graphics import Rectangle
white = Rectangle().texture
print(json.dumps({"samples": glGetIntegerv(0x80A9)[0], "renderer": glGetString(GL_RENDERER).decode(),
                  "raster_threads": sum(name.startswith("llvmpipe") for name in threads),
                  "plain": [white.min_filter, white.mag_filter]}))
"""


def test_the_window_is_multisampled_only_where_a_gpu_draws_it():
    out = run(SAMPLES, {k: v for k, v in ENV.items() if k != "LP_NUM_THREADS"})  # the app's choice, not the caller's
    assert out["plain"] == ["nearest", "nearest"]  # plain shapes' white: one texel a pixel, not a blend of four
    if gpu_renders():
        assert out["samples"] > 0, out
    else:  # software GL: no pixel rastered four times over, and no raster threads to hand each flush to
        assert out["samples"] == 0, out
        if "llvmpipe" in out["renderer"]:
            assert out["raster_threads"] == 0, out


def test_a_gpu_is_a_render_node_this_user_may_open(tmp_path):
    assert not gpu_renders(tmp_path / "missing")
    dri = tmp_path / "dri"
    dri.mkdir()
    (dri / "card0").touch()  # a display card alone (KMS) does not render
    assert not gpu_renders(dri)
    node = dri / "renderD128"
    node.touch()
    node.chmod(0o600)
    assert gpu_renders(dri)
