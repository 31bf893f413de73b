"""The screen's fonts: one per language, found at run time.

English and Vietnamese use DejaVu Sans (shipped inside Kivy; it has every Vietnamese letter and the symbols
the screen uses). Chinese uses Noto Sans CJK (Debian's `fonts-noto-cjk`), whose one .ttc file holds a face per
region: the SC face for 简体 and the TC face for 繁體 (the first face is the Japanese one, whose shapes are
wrong for both). SDL_ttf only opens a file's first face, so the right face is copied once, byte for byte, into
a font file of its own in the user's cache.
"""

from __future__ import annotations

import importlib.util
import logging
import struct
from functools import cache
from pathlib import Path

import platformdirs

log = logging.getLogger("companion.ui.fonts")

FACES = {"zh-Hans": "Noto Sans CJK SC", "zh-Hant": "Noto Sans CJK TC"}
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


def missing_cjk() -> bool:
    return cjk_face(FACES["zh-Hans"]) is None


@cache
def cjk_face(family: str) -> str | None:
    """A font file holding only `family`'s face, made once from the installed collection; None if none."""
    target = cache_dir() / (family.replace(" ", "") + "-Regular.otf")
    if target.exists() and target.stat().st_size > 0:
        return str(target)
    for name in CJK_FILES:
        path = Path(name)
        if not path.exists():
            continue
        try:
            data = path.read_bytes()
            index = face_index(data, family)
            if index is None:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_suffix(".part")
            partial.write_bytes(extract_face(data, index))
            partial.replace(target)
            return str(target)
        except (OSError, struct.error, ValueError) as error:
            log.warning("cannot use %s: %s", path, error)
    return None


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
