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


# Every script opens the app's window as the app does (companion/ui/run.py), then prints its findings as JSON.
WINDOW = """import json
from companion.ui.run import configure_kivy, open_window
configure_kivy("offscreen")
Window = open_window()
"""


def run(script: str, env: dict | None = None) -> dict:
    """What `script`, run in a window of its own, printed last, as JSON."""
    done = subprocess.run([sys.executable, "-c", WINDOW + script], env=env or ENV, cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


CACHED = r'''
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

out = {}
cases = [("en", "DejaVuSans"), ("vi", "DejaVuSans")]
if not fonts.missing_cjk():
    cases += [("zh-Hans", fonts.font_for("zh-Hans")), ("zh-Hant", fonts.font_for("zh-Hant")),
              ("en", fonts.font_for("zh-Hans"))]  # Latin in the Chinese face: names, numbers
for lang, font in cases:
    found = out.setdefault(f"{lang} in {font.rsplit('/', 1)[-1][:12]}", {"wider": [], "taller": 0, "summed": 0})
    for size in (13.0, 15.0, 20.0):
        exact = LabelSDL2(font_name=font, font_size=size)
        quick = MeasuredLabel(font_name=font, font_size=size)
        fresh = MeasuredLabel(font_name=font, font_size=size)  # each text summed from its first piece
        exact.resolve_font_name()
        quick.resolve_font_name()
        fresh.resolve_font_name()
        for message in catalogue().messages[lang].values():
            for text in (message if isinstance(message, tuple) else (message,)):
                for line in text.split("\n"):
                    # its beginnings, as Kivy measures them to wrap a line: up to each space, and inside words
                    ends = {i for i, c in enumerate(line) if c == " "} | set(range(1, len(line) + 1, 5))
                    for end in sorted(ends):
                        (w, h), (qw, qh) = exact.get_extents(line[:end]), quick.get_extents(line[:end])
                        if w > 800:  # wider than the screen: never measured to wrap (a rule's long paragraph)
                            continue
                        found["wider"].append(qw - w)
                        found["taller"] = max(found["taller"], abs(qh - h))
                        fresh._last = None
                        found["summed"] += fresh.get_extents(line[:end]) != (qw, qh)  # adding on = summing anew

root = FloatLayout()
Window.add_widget(root)
lines = {"en": ("DejaVuSans", "Blue, the elected Chief of Security, goes to 4 Parking. Put 2 zombies on 6 Supermarket: "
                "the dice rolled two 6s. Remove Red's Gunman from 1 Restroom: eaten.")}
if not fonts.missing_cjk():
    lines["zh-Hans"] = (fonts.font_for("zh-Hans"), "蓝色，当选的保安队长，前往 4 停车场。把 2 个僵尸放到 6 超市："
                        "骰子掷出两个 6。红色的枪手从 1 洗手间被移走：被吃掉了。")
for lang, (font, line) in lines.items():
    made = Text(text="", base_font=14, grow=True, size_hint=(None, None), width=280, font_name=font)
    root.add_widget(made)
    EventLoop.idle()
    calls["n"] = 0
    made.text = line
    for _ in range(4):
        EventLoop.idle()
    wrap = {"measured": calls["n"]}
    calls["n"] = 0
    made.text = " ".join(reversed(line.split(" "))) if lang == "en" else line[::-1]  # the same pieces again
    for _ in range(4):
        EventLoop.idle()
    wrap["measured_again"] = calls["n"]
    made.text = line
    for _ in range(4):
        EventLoop.idle()
    wrap["wrapped"] = ["".join(word.text for word in row.words).strip() for row in made._label._cached_lines]
    plain = LabelSDL2(text=line, font_name=font, font_size=made.font_size, text_size=(made.width - 2 * made.pad, None))
    calls["n"] = 0
    plain.refresh()
    wrap["plain_measured"] = calls["n"]
    wrap["plain_wrapped"] = ["".join(word.text for word in row.words).strip() for row in plain._cached_lines]
    wrap["fits"] = made.texture_size[0] <= made.width + 1
    out["wrap " + lang] = wrap
print(json.dumps(out, ensure_ascii=False))
"""


def test_text_is_measured_from_its_pieces_never_narrower_and_wrapped_as_before():
    out = run(MEASURED)
    for case, found in out.items():
        if case.startswith("wrap "):
            # A line of narration is wrapped at the same places; its pieces are measured once each (the first line
            # in a font and size measures them, and the font's widths), not again in every longer beginning of the
            # line: the next line with them measures next to nothing.
            assert found["wrapped"] == found["plain_wrapped"] and len(found["wrapped"]) >= 3 and found["fits"], case
            assert found["measured_again"] * 20 < found["plain_measured"], (case, found)
            continue
        wider = sorted(found["wider"])
        assert len(wider) > 3000 and wider[0] >= 0, case  # never narrower than SDL_ttf measures it: nothing is cut
        # At most 14 px wider across a whole screen's width (the rule texts' long lines add up the pieces' rounding).
        assert wider[len(wider) // 2] <= 1 and wider[-1] <= 14 and found["taller"] == 0, (case, wider[-20:])
        assert found["summed"] == 0, case
    assert "wrap en" in out


NEAREST = r"""
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
