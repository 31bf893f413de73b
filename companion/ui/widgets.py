"""The screen's building blocks, game-free: text that fits its box, seat colours with their symbol and name,
buttons of at least 48 px, QR codes. Their looks are in kv/widgets.kv."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import (
    Callback,
    ClearBuffers,
    ClearColor,
    Color,
    Ellipse,
    Fbo,
    Line,
    Mesh,
    Rectangle,
    RoundedRectangle,
    ScissorPop,
    ScissorPush,
)
from kivy.graphics.opengl import GL_BLEND, glDisable, glEnable
from kivy.graphics.texture import Texture
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.ui import fonts

TARGET = dp(48)  # the smallest thing a finger presses
# Software GL (llvmpipe, the Pi without a desktop, the tests) pays for every triangle drawn, each frame. Kivy draws a
# rounded corner in 10 segments, a circle in 180 and a rounded outline in 30 a corner; these draw the same pixels at
# the screen's radii (a corner of 16 px in 4 segments is off its arc by a quarter of a pixel at most).
CORNER = 4
CIRCLE = 32
BG = (0.08, 0.09, 0.11, 1)
PANEL = (0.14, 0.15, 0.19, 1)
INK = (0.95, 0.95, 0.95, 1)
DIM = (0.7, 0.72, 0.76, 1)
ACT = (0.96, 0.7, 0.2, 1)  # what the table must do with the pieces
DANGER = (0.85, 0.25, 0.2, 1)
GOOD = (0.35, 0.75, 0.4, 1)

# Every seat colour has a symbol of its own: no colour is told by its colour alone.
SEATS: dict[str, tuple[tuple[float, float, float], str]] = {
    "red": ((0.86, 0.16, 0.16), "circle"),
    "yellow": ((0.96, 0.8, 0.1), "triangle"),
    "blue": ((0.2, 0.46, 0.96), "square"),
    "green": ((0.2, 0.7, 0.32), "diamond"),
    "purple": ((0.62, 0.32, 0.84), "star"),
    "black": ((0.05, 0.05, 0.05), "cross"),
    "white": ((0.96, 0.96, 0.96), "ring"),
    "orange": ((0.98, 0.55, 0.12), "hexagon"),
}
UNKNOWN = ((0.5, 0.5, 0.5), "ring")


def seat_colour(seat: str) -> tuple[float, float, float]:
    return SEATS.get(seat, UNKNOWN)[0]


def ink_on(seat: str) -> tuple[float, float, float, float]:
    """Text colour that reads on the seat's colour."""
    r, g, b = seat_colour(seat)
    return (0.05, 0.05, 0.05, 1) if 0.3 * r + 0.59 * g + 0.11 * b > 0.55 else (1, 1, 1, 1)


LATIN_FONT = "DejaVuSans"  # Kivy's own name for the font of English and Vietnamese


def app_font() -> str:
    app = App.get_running_app()
    return app.font if app is not None and getattr(app, "font", None) else LATIN_FONT


# The font sizes text is drawn in. SDL_ttf opens the font file once per size (Noto CJK costs about 2.5 MB a size),
# so every text snaps down to one of these few sizes instead of any fraction of a pixel.
SIZES = (8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 25, 28, 32, 36, 40, 45, 50, 56, 64, 72, 80, 90)


def font_px(size: float) -> float:
    """The largest of SIZES not above `size` (the smallest one for anything smaller), as a float: Kivy names an
    open font by its size's text, and 15 and 15.0 would be two."""
    fitting = [s for s in SIZES if s <= size + 0.01]
    return float(fitting[-1] if fitting else SIZES[0])


def smaller(size: float) -> float:
    lower = [s for s in SIZES if s < size]
    return float(lower[-1]) if lower else size


_CJK_FROM = "\u2e80"  # from here on, scripts that break between characters (CJK and the forms around it)
_HAS_CJK = re.compile("[\u2e80-\U0010ffff]")
_RUNS = re.compile("[\u2e80-\U0010ffff]|[^\u2e80-\U0010ffff]+")  # a CJK character, or a run of other text
_WORDS = re.compile("[\u2e80-\U0010ffff]| +|[^ \u2e80-\U0010ffff]+")  # a CJK character, spaces, or a word
_SAMPLE = ("The quick brown fox jumps over the lazy dog. THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG! 0123456789 "
           "+ - = / (7) [3], Wolf's \"AV\" Đỏ và Vàng, Xanh lá; Ừ.")  # a font's widths, tried at every character
_PIECE_WIDTHS: dict[tuple, dict[str, tuple[int, int]]] = {}  # (font file, size) -> piece -> its extents
_WHOLE_PIXELS: dict[str, bool] = {}  # font file -> its widths add up (tried once, at three sizes)
_PIECES_KEPT = 20000  # pieces measured per font and size before they are measured afresh


def _one_piece(before: str, after: str, whole_pixels: bool) -> bool:
    """Two characters side by side belong to one piece: neither is Chinese, and (measuring words) both are spaces or
    neither is."""
    if before >= _CJK_FROM or after >= _CJK_FROM:
        return False
    return not whole_pixels or (before == " ") == (after == " ")


class MeasuredLabel(CoreLabel):
    """Kivy's text renderer, measuring a text from its pieces, each measured once per font and size.

    Kivy wraps a line by measuring it again up to each next space (a Chinese line, with none: one character longer
    each time), a C call each; and SDL_ttf, whose glyph cache holds 256 glyphs, loads each Chinese glyph from the font
    again on every measure: 40 µs a measure where Latin text takes 10, about sixty measures a line of narration.

    A font whose widths add up (DejaVu, hinted to whole pixels) measures a text as the sum of its words, spaces and
    Chinese characters: exactly, or a pixel wider where a word's last glyph has less ink than width. A font whose
    widths are fractions of a pixel (Noto CJK's Latin letters) rounds each piece on its own but not the whole line:
    there a text with Chinese in it is the sum of its Chinese characters and of the runs of other text between them,
    plus a pixel a run, and a text without Chinese is measured whole. Never narrower than SDL_ttf measures the whole
    (its text is not cut), a pixel or two wider at most, and wrapped at the same places (tests/test_ui_widgets.py)."""

    _last: tuple | None = None  # (font and size, text, width, height): the text measured last

    def get_extents(self, text):
        font = self.options["font_name_r"]
        key = (font, self.options["font_size"])
        if font not in _WHOLE_PIXELS:
            _WHOLE_PIXELS[font] = all(MeasuredLabel(font_name=font, font_size=size)._whole_pixels()
                                      for size in (11.0, 15.0, 20.0))
        whole_pixels = _WHOLE_PIXELS[font]
        widths = _PIECE_WIDTHS.get(key)
        if widths is None or len(widths) > _PIECES_KEPT:
            widths = _PIECE_WIDTHS[key] = {}
        if not text or not (whole_pixels or _HAS_CJK.search(text)):
            return super().get_extents(text)
        width = height = 0
        rest = text
        last = self._last
        if last is not None and last[0] == key and len(text) > len(last[1]) and text.startswith(last[1]) \
                and not _one_piece(last[1][-1], text[len(last[1])], whole_pixels):
            # Kivy measures a line again one word (or Chinese character) longer: only what was added is summed.
            width, height, rest = last[2], last[3], text[len(last[1]):]
        for piece in (_WORDS if whole_pixels else _RUNS).findall(rest):
            extents = widths.get(piece)
            if extents is None:
                extents = widths[piece] = tuple(super().get_extents(piece))
            width += extents[0] + (not whole_pixels and piece < _CJK_FROM)
            if extents[1] > height:
                height = extents[1]
        self._last = (key, text, width, height)
        return width, height

    def _whole_pixels(self) -> bool:
        """The font's widths add up: every beginning of a sample of letters, figures and signs measures no wider
        than its words and spaces do (SDL_ttf trims a text to its last glyph's ink, which a word also has)."""
        self.resolve_font_name()
        measure = super().get_extents
        pieces: dict[str, int] = {}
        for end in range(1, len(_SAMPLE) + 1):
            text = _SAMPLE[:end]
            parts = _WORDS.findall(text)
            for part in parts:
                if part not in pieces:
                    pieces[part] = measure(part)[0]
            if measure(text)[0] > sum(pieces[part] for part in parts):
                return False
        return True


class Text(Label):
    """A label that shrinks its font until the text fits its box (wrapped to its width), or grows its own
    height with the text when `grow` is set. Text that still cannot fit is a bug the screenshot tests catch.

    Its glyphs are rendered once, in white; `ink` tints them on the canvas (kv/widgets.kv), so a change of colour
    (a narration line that is no longer new, a button switched off) draws no text again. (No `bold`: SDL_ttf
    draws a font file's one face either way, and each size would be opened twice.)"""

    base_font = NumericProperty(dp(18))
    min_font = NumericProperty(dp(11))
    wrap = BooleanProperty(True)
    wrap_when_long = BooleanProperty(False)  # one line, unless it cannot fit at min_font: then wrapped
    grow = BooleanProperty(False)
    pad = NumericProperty(dp(4))
    ink = ColorProperty(INK)

    def __init__(self, **kwargs):
        kwargs.setdefault("font_name", app_font())
        kwargs.setdefault("font_size", font_px(kwargs.get("base_font", self.base_font)))
        self._fitted: tuple | None = None
        self._narrow: tuple[str, str] | None = None  # (the language's font, the wide face) while a text needs it
        self._placed = False
        self._waits = 0
        self._fit = Clock.create_trigger(self.fit, -1)
        super().__init__(**kwargs)
        # Label's own re-rendering goes through fit too: one render per change, at the size that fits.
        self._trigger_texture.cancel()
        self._trigger_texture = self._fit
        for name in ("text", "size", "base_font", "min_font", "font_name", "wrap", "wrap_when_long", "grow", "pad"):
            self.fbind(name, self._fit)
        self._fit()

    def _create_label(self) -> None:
        if not isinstance(self._label, MeasuredLabel):  # (no markup here)
            options = {name: getattr(self, name) for name in self._font_properties}
            options["usersize"] = self.text_size
            self._label = MeasuredLabel(**options)

    def texture_update(self, *args) -> None:
        super().texture_update(*args)
        texture = self.texture
        if texture is not None:
            # Drawn pixel for pixel at its own size (kv/widgets.kv): the nearest texel is the same picture as a
            # blend of four, and software GL samples one texel instead of four for every pixel of every text, each
            # frame (a millisecond of the board's frame).
            texture.mag_filter = texture.min_filter = "nearest"

    def _choose_face(self) -> None:
        """A text DejaVu Sans cannot draw (a Chinese name on a screen in English) in the Chinese face, which draws
        Latin letters too; back in the language's own font when the text no longer needs it."""
        wide = _HAS_CJK.search(self.text) is not None
        if self._narrow is not None and self.font_name != self._narrow[1]:
            self._narrow = None  # the screen's language changed the font since
        if wide and self._narrow is None and self.font_name in (LATIN_FONT, fonts.latin()):
            face = fonts.wide_font()
            if face is not None:
                self._narrow = (self.font_name, face)
                self.font_name = face
        elif not wide and self._narrow is not None:
            self.font_name, self._narrow = self._narrow[0], None

    def fit(self, *_args) -> None:
        self._choose_face()
        shown = self.text.translate(fonts.WIDE_STAND_INS) if self._narrow is not None else self.text
        if self._label.text != shown:
            self._label.text = shown  # what is drawn: the text, with the wide face's own signs where it lacks one
        # Rendering text is the screen's dearest work: only again when the text, the font or the box changed, and
        # a new text only once a layout above has given it its size (rendered at Kivy's first 100x100 it would be
        # rendered again at its real width in the same frame). The clock runs the triggers of before the frame
        # until none is left, so it waits a turn and still comes before the frame.
        if not self._placed:
            if self._waits < 4 and self._unplaced():
                self._waits += 1
                self._fit()
                return
            self._placed = True
        key = (self.text, self.font_name, self.base_font, self.min_font, self.width,
               None if self.grow else self.height, self.halign, self.valign, self.wrap, self.wrap_when_long, self.grow,
               self.pad)
        if key == self._fitted:
            return
        self._fitted = key
        width = max(self.width - 2 * self.pad, 1)
        if self.grow:
            self.font_size = font_px(self.base_font)
            self.text_size = (width, None)
            self.texture_update()
            self._trigger_texture.cancel()
            self.height = self.texture_size[1] + self.pad
            return
        wrap = self.wrap
        fits = self._shrink(width, wrap)
        if not fits and not wrap and self.wrap_when_long:
            wrap = True  # a person's name beside a colour: on two lines rather than past its box
            if not self._shrink(width, wrap):  # one word too long all the same: one line, as before
                wrap = False
                self._shrink(width, wrap)
        if not wrap and self.halign != "center" and self.texture_size[0] <= width:
            self.text_size = (width, None)  # one line that fits: now aligned in its box
            self.texture_update()
        self._trigger_texture.cancel()

    def _shrink(self, width: float, wrap: bool) -> bool:
        """The largest size the text fits its box at (wrapped or on one line), down to min_font; True if it fits."""
        size, least = font_px(self.base_font), font_px(self.min_font)
        while True:
            self.font_size = size
            self.text_size = (width, None) if wrap else (None, None)
            self.texture_update()
            tw, th = self.texture_size
            fits = tw <= self.width and th <= self.height and not self._breaks_a_word(width, wrap)
            if fits or size <= least:
                return fits
            step = smaller(size)
            if not wrap and tw > 0 and th > 0:
                # One line grows with its font: the sizes it cannot fit in are not tried (each size tried is one more
                # face SDL_ttf keeps open; a Noto CJK face costs about 2.5 MB).
                step = min(step, font_px(size * min(self.width / tw, self.height / th) * 1.03))
            size = max(least, step)

    def _breaks_a_word(self, width: float, wrap: bool) -> bool:
        """Wrapped, a word of a language that spaces its words is wider than the box: Kivy would cut it in two
        ("Supermark / et"), so a smaller size is tried. (Chinese breaks between any two characters.)"""
        if not wrap:
            return False
        for word in self.text.split():
            if len(word) > 3 and not _HAS_CJK.search(word) and self._label.get_extents(word)[0] > width + 0.5:
                return True
        return False

    def _unplaced(self) -> bool:
        """Kivy's first size (100 wide or high) is still this text's or a box's above it, and a layout (or a
        scrolling list) above will size them before the frame."""
        first = 100 in self.size
        pending = False
        widget = self.parent
        for _ in range(30):
            if widget is None:
                break
            first = first or 100 in widget.size
            for name in ("_trigger_layout", "_trigger_update_from_scroll"):
                event = getattr(widget, name, None)
                pending = pending or (event is not None and event.is_triggered)
            if first and pending:
                return True
            if widget.parent is widget:
                break
            widget = widget.parent
        return False


class Mark(Widget):
    """A seat's symbol in its colour (or in `tint`, on a piece of that colour): circle, triangle, square..."""

    seat = StringProperty("")
    outline = BooleanProperty(True)
    tint = ListProperty([])  # the symbol's colour when not the seat's own

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.fbind("pos", self._draw)
        self.fbind("size", self._draw)
        self.fbind("seat", self._draw)
        self.fbind("tint", self._draw)
        self._draw()

    def _draw(self, *_args) -> None:
        colour, shape = SEATS.get(self.seat, UNKNOWN)
        colour = tuple(self.tint[:3]) if self.tint else colour
        self.canvas.clear()
        side = min(self.width, self.height)
        cx, cy = self.center
        points = shape_points(shape, cx, cy, side / 2)
        with self.canvas:
            Color(*colour, 1)
            if shape == "circle":
                Ellipse(pos=(cx - side / 2, cy - side / 2), size=(side, side), segments=CIRCLE)
            elif shape == "ring":  # hollow: told from the circle by its shape, not only by its colour
                width = max(1.5, side * 0.13)
                Line(circle=(cx, cy, side / 2 - width, 0, 360, CIRCLE), width=width)
            elif shape == "cross":
                arm = side * 0.18
                Rectangle(pos=(cx - arm, cy - side / 2), size=(2 * arm, side))
                Rectangle(pos=(cx - side / 2, cy - arm), size=(side, 2 * arm))
            else:
                fan(points, cx, cy)
            if self.outline and sum(colour) < 0.5 and shape != "ring":
                Color(0.85, 0.85, 0.85, 1)
                if shape == "circle":
                    Line(circle=(cx, cy, side / 2, 0, 360, CIRCLE))
                elif shape == "cross":
                    arm = side * 0.18
                    Line(points=[cx - arm, cy - side / 2, cx + arm, cy - side / 2, cx + arm, cy - arm,
                                 cx + side / 2, cy - arm, cx + side / 2, cy + arm, cx + arm, cy + arm,
                                 cx + arm, cy + side / 2, cx - arm, cy + side / 2, cx - arm, cy + arm,
                                 cx - side / 2, cy + arm, cx - side / 2, cy - arm, cx - arm, cy - arm],
                         close=True)
                else:
                    Line(points=points, close=True)


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[float]:
    if shape == "triangle":
        corners = [(cx, cy + r), (cx - r * 0.95, cy - r * 0.8), (cx + r * 0.95, cy - r * 0.8)]
    elif shape == "square":
        s = r * 0.85
        corners = [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    elif shape == "diamond":
        corners = [(cx, cy + r), (cx + r, cy), (cx, cy - r), (cx - r, cy)]
    elif shape == "star":
        corners = []
        for i in range(10):
            radius = r if i % 2 == 0 else r * 0.45
            angle = math.pi / 2 + i * math.pi / 5
            corners.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    elif shape == "hexagon":
        corners = [(cx + r * math.cos(math.pi / 3 * i), cy + r * math.sin(math.pi / 3 * i)) for i in range(6)]
    else:
        corners = [(cx + r * math.cos(math.pi / 8 * i), cy + r * math.sin(math.pi / 8 * i)) for i in range(16)]
    return [v for corner in corners for v in corner]


def fan(points: list[float], cx: float, cy: float) -> None:
    """A filled polygon around its centre (every shape here is star-shaped from its centre)."""
    vertices = [cx, cy, 0, 0]
    for i in range(0, len(points), 2):
        vertices += [points[i], points[i + 1], 0, 0]
    vertices += [points[0], points[1], 0, 0]
    Mesh(vertices=vertices, indices=list(range(len(vertices) // 4)), mode="triangle_fan")


class Chip(BoxLayout):
    """A seat: its symbol, in its colour, and its name."""

    seat = StringProperty("")
    name = StringProperty("")
    font = NumericProperty(dp(18))

    def __init__(self, seat: str, name: str, font: float = dp(18), **kwargs):
        kwargs.setdefault("spacing", dp(6))
        super().__init__(seat=seat, name=name, font=font, **kwargs)
        self.mark = Mark(seat=seat, size_hint=(None, None), size=(font * 1.1, font * 1.1))
        self.add_widget(self.mark)
        self.label = Text(text=name, base_font=font, wrap=False, wrap_when_long=True, halign="left",
                          valign="middle")
        self.add_widget(self.label)
        self.fbind("height", self._place)
        self.fbind("y", self._place)
        self.mark.fbind("y", self._place)
        self._place()

    def show(self, seat: str, name: str) -> None:
        """Another seat in the same chip (its symbol and its name)."""
        self.seat = self.mark.seat = seat
        self.name = self.label.text = name

    def _place(self, *_args) -> None:
        side = min(self.font * 1.1, self.height)
        self.mark.size = (side, side)
        y = self.y + (self.height - side) / 2
        if self.mark.y != y:
            self.mark.y = y


class Action(ButtonBehavior, Text):
    """A button of at least 48 px: its words fit it (kv/widgets.kv draws it)."""

    tone = StringProperty("normal")  # normal, primary, danger, quiet, on
    enabled = BooleanProperty(True)

    def __init__(self, **kwargs):
        kwargs.setdefault("halign", "center")
        kwargs.setdefault("valign", "middle")
        super().__init__(**kwargs)

    def on_touch_down(self, touch):
        if not self.enabled:
            return False
        return super().on_touch_down(touch)


class SeatButton(ButtonBehavior, BoxLayout):
    """A seat to press: its chip, and a line more (e.g. "on a phone")."""

    seat = StringProperty("")
    tone = StringProperty("normal")

    def __init__(self, seat: str, name: str, note: str = "", font: float = dp(18), **kwargs):
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("padding", (dp(6), dp(2)))
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", max(TARGET, dp(56) if note else TARGET))
        super().__init__(seat=seat, **kwargs)
        self.add_widget(Chip(seat, name, font=font))
        if note:
            self.add_widget(Text(text=note, base_font=dp(12), min_font=dp(9), ink=DIM, size_hint_y=0.45))


class Panel(BoxLayout):
    """A box with the panel colour behind it (kv/widgets.kv)."""

    fill = ListProperty(PANEL)


class Scroll(ScrollView):
    """A scrolling list clipped to its box by the GL scissor (a rectangle the rasterizer skips for free) rather than
    Kivy's stencil, which under software GL fills the whole box twice more every frame and tests every pixel drawn
    inside it. Its scroll bar is ScrollView's (kv/widgets.kv)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._clip = ScissorPush(x=0, y=0, width=1, height=1)
        self.canvas.before.add(self._clip)
        self.canvas.after.insert(0, ScissorPop())
        self.fbind("pos", self._clip_to)
        self.fbind("size", self._clip_to)
        self._clip_to()

    def _bind_inactive_bar_color(self, *_args) -> None:
        # Half a second after a scroll ScrollView fades its bar out over another half second: fifteen frames, each
        # the whole screen again (under software GL, 15 ms of two cores each, after every step that added a line,
        # and an answer arriving meanwhile waited behind them). The bar goes dim at once instead: one frame.
        self.funbind("bar_color", self._change_bar_color)
        self.fbind("bar_inactive_color", self._change_bar_color)
        self._bar_color = self.bar_inactive_color

    def _clip_to(self, *_args) -> None:
        # The scissor takes window pixels: the box's corners as the window sees them (a Screen is a RelativeLayout).
        x0, y0 = self.to_window(self.x, self.y)
        x1, y1 = self.to_window(self.right, self.top)
        x, y = int(math.floor(x0)), int(math.floor(y0))
        self._clip.x, self._clip.y = x, y
        self._clip.width, self._clip.height = max(0, int(math.ceil(x1)) - x), max(0, int(math.ceil(y1)) - y)


def _opaque(_instruction) -> None:
    glDisable(GL_BLEND)


def _blended(_instruction) -> None:
    glEnable(GL_BLEND)


class Cached(RelativeLayout):
    """Its child is drawn into a picture of its own (a framebuffer) and the screen shows the picture: drawn again
    only when something in it changes. Software GL (llvmpipe) pays about 40 µs for every thing it draws, every
    frame: a location card of ten texts, shapes and tokens costs one. Touches reach the child as in any
    RelativeLayout.

    The picture starts as the ground it lies on (`ground`, the window's background) rather than see-through, so it
    is shown without blending: software GL blends a pixel in twice the time it copies one (a millisecond a frame for
    the six location cards)."""

    def __init__(self, child: Widget | None = None, ground: tuple = BG, **kwargs):
        self._fbo = Fbo(size=(1, 1))
        with self._fbo:
            ClearColor(*ground)
            ClearBuffers()
        super().__init__(**kwargs)
        self.canvas.add(self._fbo)
        with self.canvas:
            Callback(_opaque)
            Color(1, 1, 1, 1)
            self._picture = Rectangle(size=(1, 1))
            Callback(_blended)
        self.fbind("size", self._resize)
        self._resize()
        if child is not None:
            self.add_widget(child)

    def _resize(self, *_args) -> None:
        size = (max(1, int(round(self.width))), max(1, int(round(self.height))))
        if tuple(self._fbo.size) != size:
            self._fbo.size = size
        texture = self._fbo.texture
        texture.mag_filter = texture.min_filter = "nearest"  # pixel for pixel: text stays sharp
        self._picture.texture = texture
        self._picture.size = size

    def add_widget(self, widget, *args, **kwargs):
        canvas, self.canvas = self.canvas, self._fbo  # its drawing goes into the picture
        try:
            super().add_widget(widget, *args, **kwargs)
        finally:
            self.canvas = canvas

    def remove_widget(self, widget, *args, **kwargs):
        canvas, self.canvas = self.canvas, self._fbo
        try:
            super().remove_widget(widget, *args, **kwargs)
        finally:
            self.canvas = canvas


class QRCode(Widget):
    """A QR code drawn from its module matrix (no image library needed)."""

    data = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._texture: Texture | None = None
        self.fbind("data", self._make)
        self.fbind("pos", self._draw)
        self.fbind("size", self._draw)
        self._make()

    def _make(self, *_args) -> None:
        if not self.data:
            self._texture = None
            self._draw()
            return
        import qrcode

        code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
        code.add_data(self.data)
        matrix = code.get_matrix()
        n = len(matrix)
        pixels = bytes(0 if cell else 255 for row in reversed(matrix) for cell in row for _ in range(3))
        texture = Texture.create(size=(n, n), colorfmt="rgb")
        texture.mag_filter = "nearest"
        texture.min_filter = "nearest"
        texture.blit_buffer(pixels, colorfmt="rgb", bufferfmt="ubyte")
        self._texture = texture
        self._draw()

    def _draw(self, *_args) -> None:
        self.canvas.clear()
        if self._texture is None:
            return
        side = min(self.width, self.height)
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=self._texture, pos=(self.center_x - side / 2, self.center_y - side / 2),
                      size=(side, side))


_TOKEN_TEXT: dict[tuple[str, tuple], Texture] = {}


def token_text(text: str, ink: tuple) -> Texture:
    """A token's few characters (a number), rendered once for every token that shows them."""
    key = (text, ink)
    if key not in _TOKEN_TEXT:
        from kivy.core.text import Label as CoreLabel

        label = CoreLabel(text=text, font_size=font_px(dp(30)), color=ink, font_name="DejaVuSans")
        label.refresh()
        _TOKEN_TEXT[key] = label.texture
    return _TOKEN_TEXT[key]


class Token(Widget):
    """A piece on the board: the seat's colour and symbol, and a short text (a character's points)."""

    def __init__(self, seat: str, text: str, faded: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.seat = seat
        self.faded = faded
        self.text = text
        self.mark = Mark(seat=seat, tint=list(ink_on(seat)), outline=False)  # the symbol in ink on its colour
        self.add_widget(self.mark)
        self.fbind("pos", self._draw)
        self.fbind("size", self._draw)
        self._draw()

    def _draw(self, *_args) -> None:
        side = min(self.width, self.height)
        x, y = self.center_x - side / 2, self.center_y - side / 2
        self.canvas.before.clear()
        texture = token_text(self.text, ink_on(self.seat))
        with self.canvas.before:
            Color(*seat_colour(self.seat), 0.45 if self.faded else 1)
            RoundedRectangle(pos=(x, y), size=(side, side), radius=[side * 0.2], segments=CORNER)
            Color(0.9, 0.9, 0.9, 1)
            # Lines one pixel wide: GL draws them as they are (a wider line is hundreds of triangles, and a hidden
            # character's dashes need it too).
            Line(rounded_rectangle=(x, y, side, side, side * 0.2, CORNER), dash_length=4 if self.faded else 1,
                 dash_offset=3 if self.faded else 0)
            Color(1, 1, 1, 1)
            high = side * 0.6
            wide = high * texture.width / max(texture.height, 1)
            Rectangle(texture=texture, pos=(x + side * 0.08, y + side * 0.06), size=(wide, high))
        mark = side * 0.36
        self.mark.size = (mark, mark)
        self.mark.pos = (x + side - mark - 1, y + side - mark - 1)


def settle_height(box) -> None:
    """A box sized by its content that became empty: BoxLayout keeps the last height of its children, so it would
    still cover what lies below it."""
    if not box.children:
        box.minimum_height = 0


def show_only(box, widgets: list) -> None:
    """`box` holds these widgets, in this order (the first on top); nothing is moved when it already does, and
    widgets new at the top (the newest narration) are added above the others, which stay."""
    now = list(reversed(box.children))
    if now == widgets:
        return
    new = len(widgets) - len(now)
    if now and new > 0 and widgets[new:] == now and not any(w.parent is not None for w in widgets[:new]):
        for widget in reversed(widgets[:new]):
            box.add_widget(widget, index=len(box.children))
        return
    box.clear_widgets()
    for widget in widgets:
        if widget.parent is not None:
            widget.parent.remove_widget(widget)
        box.add_widget(widget)
    settle_height(box)


def pressed(widget, callback: Callable[[], None]) -> None:
    """Calls `callback` on release (the ordinary tap)."""
    widget.bind(on_release=lambda *_: callback())
