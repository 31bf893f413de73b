"""The screen's fonts: one per language, found at run time.

English and Vietnamese use DejaVu Sans (shipped inside Kivy; it has every Vietnamese letter and the symbols
the screen uses). Chinese uses Noto Sans CJK (Debian's `fonts-noto-cjk`), whose one .ttc file holds a face per
region: the SC face for 简体 and the TC face for 繁體 (the first face is the Japanese one, whose shapes are
wrong for both). SDL_ttf only opens a file's first face, so the right face is made once into a font file of its own
in the user's cache: cut down (fontTools' subsetter) to the characters the screen can show. SDL_ttf opens a font
once per size and reads its tables each time: the whole face of 65,000 glyphs cost 2.5 MB a size (a screen in
Chinese uses about fifteen sizes), the screen's 2,000 characters cost 0.3 MB. The file's name carries a digest of
those characters, so a catalogue with new words makes a new one.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import logging
import os
import struct
import time
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs

if TYPE_CHECKING:
    from companion.catalogue import Catalogue

log = logging.getLogger("companion.ui.fonts")

FACES = {"zh-Hans": "Noto Sans CJK SC", "zh-Hant": "Noto Sans CJK TC"}
STALE_FONT = 3600.0  # seconds after which a face cut for another catalogue is removed
CJK_FILES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",  # Debian, Raspberry Pi OS, Ubuntu
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",  # Arch, Fedora
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Medium.ttc",
)


def latin() -> str:
    """DejaVu Sans as Kivy ships it."""
    spec = importlib.util.find_spec("kivy")
    root = Path(spec.origin).parent if spec and spec.origin else Path(".")
    return str(root / "data" / "fonts" / "DejaVuSans.ttf")


def cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir("companion", appauthor=False)) / "fonts"


def font_for(lang: str) -> str:
    """The font file for `lang` (DejaVu Sans when no CJK font is installed: see `missing_cjk`)."""
    face = FACES.get(lang)
    if face is None:
        return latin()
    return cjk_face(face) or latin()


def wide_font() -> str | None:
    """The face for a text DejaVu Sans cannot draw, on a screen in English or Vietnamese (a Chinese name beside a
    colour): the simplified Chinese face, which draws Latin and Vietnamese letters too; None without Noto CJK."""
    return cjk_face(FACES["zh-Hans"])


# Signs DejaVu Sans has and the Chinese faces lack, drawn in the wide face as the sign they have for the same
# meaning (the catalogue's Chinese lines use those already): ℹ, the rule at hand, is ⓘ.
WIDE_STAND_INS = str.maketrans({"ℹ": "ⓘ"})


def missing_cjk() -> bool:
    return cjk_face(FACES["zh-Hans"]) is None


# Beside the catalogues' own characters: Latin letters, punctuation, arrows, mathematical signs, shapes, CJK
# punctuation, full-width forms (the screens write some themselves: − and + on a number's buttons, ×, ▶, →).
SCREEN_BLOCKS = ((0x20, 0x250), (0x2000, 0x2070), (0x2190, 0x2300), (0x25A0, 0x2600), (0x3000, 0x3040),
                 (0xFF00, 0xFFF0))


def screen_characters() -> str:
    """Every character the screen can show in Chinese: those of every catalogue (in every language: a line quotes
    names and numbers) and of the languages' names, and the blocks above."""
    from companion.catalogue import catalogue

    return _characters_of(catalogue())


@cache
def _characters_of(words: Catalogue) -> str:
    from companion.catalogue import LANGUAGES

    chars = set("".join(LANGUAGES.values()))
    for messages in words.messages.values():  # the table's and every game's, read once for the app too
        for message in messages.values():
            chars |= set("".join(message) if isinstance(message, tuple) else message)
    for low, high in SCREEN_BLOCKS:
        chars |= {chr(code) for code in range(low, high)}
    return "".join(sorted(c for c in chars if c.isprintable()))


# The people's names hold characters no catalogue has (陈, Hà): the faces are cut with those too. A name with new
# ones makes new faces, cut off the screen's thread (`learn_names`, then `prepare`); until then the screen keeps the
# faces it has.
_names = ""  # the names' characters the screen's own lack, sorted
_made: dict[str, str] = {}  # family -> the face file this process uses now
_used: set[str] = set()  # every face file this process has used: never removed as stale under its feet


def learn_names(names: Iterable[str]) -> bool:
    """Let the Chinese faces draw these names too: True if they hold characters the faces lack (call `prepare`,
    off the screen's thread, to cut new ones)."""
    global _names
    lacking = {c for name in names for c in name if c.isprintable()} - set(screen_characters()) - set(_names)
    if not lacking:
        return False
    _names = "".join(sorted(set(_names) | lacking))
    return True


def characters() -> str:
    """What the faces are cut to: the screen's characters and the names'."""
    return screen_characters() + _names


def forget() -> None:
    """Forget the faces made and used and the names learnt (tests: as a process that starts)."""
    global _names
    _names = ""
    _made.clear()
    _used.clear()


def cjk_face(family: str, wait: bool = False) -> str | None:
    """A font file holding `family`'s face cut down to the screen's characters (and the names'), made once from the
    installed collection (the whole face if it cannot be cut); None if no collection has it. Not `wait`ing (the
    screen's thread), a face made before for fewer names is kept while `prepare` cuts the new one elsewhere."""
    chars = characters()
    stem = family.replace(" ", "")
    target = cache_dir() / f"{stem}-{hashlib.sha256(chars.encode()).hexdigest()[:12]}.otf"
    if _made.get(family) == str(target) or (target.exists() and target.stat().st_size > 0):
        return _use(family, str(target))
    if not wait and family in _made:
        return _made[family]
    for name in CJK_FILES:
        path = Path(name)
        if not path.exists():
            continue
        try:
            data = path.read_bytes()
            index = face_index(data, family)
            if index is None:
                continue
            face = extract_face(data, index)
            try:
                face, made = cut_down(face, chars), target
            except Exception as error:  # (fontTools missing or failing) the whole face: more memory, same text
                log.warning("the %s font could not be cut down to the screen's characters: %s", family, error)
                made = cache_dir() / f"{stem}-Regular.otf"
            made.parent.mkdir(parents=True, exist_ok=True)
            partial = made.with_suffix(f".{os.getpid()}.part")  # two processes making it at once each write their own
            partial.write_bytes(face)
            partial.replace(made)
            for old in made.parent.glob(f"{stem}-*.otf"):  # those of earlier catalogues, once nobody uses them:
                # a process of another catalogue (a game only the tests know, or a box being updated) may be
                # reading one now; an hour on, it has long opened it or gone
                if old != made and str(old) not in _used and time.time() - old.stat().st_mtime > STALE_FONT:
                    old.unlink(missing_ok=True)
            return _use(family, str(made))
        except (OSError, struct.error, ValueError) as error:
            log.warning("cannot use %s: %s", path, error)
    return None


def _use(family: str, path: str) -> str:
    if _made.get(family) != path:
        _made[family] = path
        _used.add(path)
        with contextlib.suppress(OSError):
            os.utime(path)  # in use: not stale for another process's cleaning
    return path


def cut_down(face: bytes, chars: str) -> bytes:
    """The font `face` with only the glyphs of `chars` (and what they need); its names and layout kept."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.notdef_outline = True  # a character it lacks shows as a box the screenshot tests see
    font = TTFont(io.BytesIO(face), lazy=True)
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=[ord(c) for c in chars])
    cutter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


# -- TrueType collections -------------------------------------------------------------------------------------


def face_offsets(data: bytes) -> list[int]:
    if data[:4] != b"ttcf":
        return [0]
    (count,) = struct.unpack_from(">I", data, 8)
    return list(struct.unpack_from(f">{count}I", data, 12))


def _tables(data: bytes, offset: int) -> dict[bytes, tuple[int, int, int]]:
    (count,) = struct.unpack_from(">H", data, offset + 4)
    out = {}
    for i in range(count):
        tag, checksum, start, length = struct.unpack_from(">4sIII", data, offset + 12 + 16 * i)
        out[tag] = (checksum, start, length)
    return out


def family_name(data: bytes, offset: int) -> str | None:
    """The family name (name ID 1, Windows English) of the face whose table directory is at `offset`."""
    name = _tables(data, offset).get(b"name")
    if name is None:
        return None
    _, start, _ = name
    _, count, strings = struct.unpack_from(">HHH", data, start)
    for i in range(count):
        platform, encoding, language, name_id, length, at = struct.unpack_from(">6H", data, start + 6 + 12 * i)
        if name_id == 1 and platform == 3 and language == 0x409:
            raw = data[start + strings + at:start + strings + at + length]
            return raw.decode("utf-16-be", errors="replace")
    return None


def face_index(data: bytes, family: str) -> int | None:
    for index, offset in enumerate(face_offsets(data)):
        if family_name(data, offset) == family:
            return index
    return None


def extract_face(data: bytes, index: int) -> bytes:
    """One face of a collection as a font file of its own: its table directory and the tables it uses."""
    offset = face_offsets(data)[index]
    sfnt = data[offset:offset + 4]
    tables = sorted(_tables(data, offset).items())
    count = len(tables)
    power = 1 << (count.bit_length() - 1)
    header = struct.pack(">4sHHHH", sfnt, count, power * 16, power.bit_length() - 1, count * 16 - power * 16)
    at = 12 + 16 * count
    records, bodies = [], []
    for tag, (checksum, start, length) in tables:
        body = data[start:start + length]
        records.append(struct.pack(">4sIII", tag, checksum, at, length))
        padded = body + b"\0" * (-length % 4)
        bodies.append(padded)
        at += len(padded)
    return header + b"".join(records) + b"".join(bodies)


def prepare() -> list[str]:
    """Both Chinese faces made now (scripts/setup and install-pi call it; the screen, off its thread, when names
    bring new characters), not at the screen's first Chinese text: cutting a face down takes a few seconds (half a
    minute on a Pi 4)."""
    return [path for path in (cjk_face(family, wait=True) for family in FACES.values()) if path]


if __name__ == "__main__":
    made = prepare()
    print("the Chinese fonts: " + (", ".join(made) if made else "none (no Noto CJK installed)"))
