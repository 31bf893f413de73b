"""The table's ears: a short sound when the narration says the dice are rolled, a defence is breached or secrets
are revealed, and, when switched on, each new line of the narration spoken by espeak-ng in the screen's language.

Which line makes which sound is the game's to say (its optional SOUNDS, see games/base.py): here only the three
sounds are known, never a game. Only public lines are heard, so a sound or a voice tells no secret before its
reveal. The sounds are synthesized here with the wave module the first time they are needed (no audio file is
shipped or downloaded) and kept in the user's cache. Playback is Kivy's SoundLoader; with no audio device the app
goes on silently.

The sound effects and the voice have a switch each: `muted` silences the sound effects only, `speech` turns the
voice on or off. The voice says each line on its own with a pause after it, and says the symbols the catalogues
put in lines (→, ×, ·, …) as words or pauses of the line's language (`spoken`), never by espeak-ng's names for
them ("right arrow").
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import os
import random
import re
import shutil
import struct
import tempfile
import wave
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import platformdirs

from companion.catalogue import say
from companion.contract import SOUND_NAMES

log = logging.getLogger("companion.ui.sound")

RATE = 22050
VERSION = 1  # bump when the synthesis changes: the cached files are made again
# espeak-ng's voices; Mandarin for both scripts. Its "cmn" voice reads Latin as English, and espeak-ng 1.51 (Debian
# 12, Raspberry Pi OS) turns a character into its pinyin first, so "红" came out as English "hong two": the pinyin
# voice reads that pinyin as Mandarin (espeak-ng issue #1236), and a Latin word it cannot read as pinyin as English.
VOICES = {"en": "en", "zh-Hans": "cmn-latn-pinyin", "zh-Hant": "cmn-latn-pinyin", "vi": "vi"}
FALLBACK_VOICES = {"cmn-latn-pinyin": "cmn"}
GAP = 0.35  # seconds between two sounds of one step
LINE_GAP = 0.6  # seconds of silence after each spoken line: one line at a time, not a step in one breath

# The symbols the catalogues put in lines, each said as the word of its catalogue key "voice.symbol.<name>" in the
# line's language ("pause": a comma of the language, a short breath). espeak-ng would name most of them
# ("right arrow", "greater than or equal to") or, in Mandarin and Vietnamese, say nothing or switch to English.
SYMBOLS = {"→": "to", "–": "range", "～": "range", "×": "times", "+": "plus", "−": "minus", "=": "equals",
           "≥": "at_least"} | {mark: "pause" for mark in "·—…✓✗★☆▣◎☛▶●○↓/／"}
UNSAID = "ⓘℹ"  # "a rule is behind this line": for the eye only
PUNCTUATION = ",，、。；：:;.!?！？"


def sound_for(key: str, sounds: Mapping[str, str]) -> str | None:
    """The sound a line with this key makes: its own entry, else its family's ("game.n.breach.defence" ->
    "game.n.breach"), else none."""
    parts = key.split(".")
    for n in range(len(parts), 0, -1):
        name = sounds.get(".".join(parts[:n]))
        if name is not None:
            return name if name in SOUND_NAMES else None
    return None


def spoken(text: str, lang: str) -> str:
    """A line as the voice says it in `lang`: each symbol a word or a pause of the language, ⓘ dropped, the spaces
    and pauses left tidy ("Red → 4" -> "Red to 4", "Round 2 · Vote" -> "Round 2, Vote")."""
    words: dict[str, str] = {}
    out = []
    for ch in text:
        if ch in UNSAID:
            out.append(" ")
        elif ch in SYMBOLS:
            name = SYMBOLS[ch]
            if name not in words:
                words[name] = say(f"voice.symbol.{name}", lang)
            out.append(f" {words[name]} ")
        else:
            out.append(ch)
    line = re.sub(r"\s+", " ", "".join(out))
    marks = re.escape(PUNCTUATION)
    line = re.sub(rf" ([{marks}])", r"\1", line)  # a pause sticks to the word before it
    line = re.sub(rf"([{marks}])(?:\s*[,，、])+", r"\1", line)  # a pause after a pause is one pause
    line = re.sub(rf"[,，、]\s*([{marks}])", r"\1", line)
    return line.strip(" ,，、")


# -- the three sounds, synthesized ------------------------------------------------------------------------------


def _dice(rng: random.Random) -> list[float]:
    """Dice shaken in a cup and rolled out: short clicks of noise, denser then sparser."""
    out = [0.0] * int(RATE * 0.55)
    at = 0.0
    while at < 0.45:
        start = int(at * RATE)
        pitch = rng.uniform(1800, 3200)
        for i in range(int(RATE * 0.012)):
            if start + i >= len(out):
                break
            fade = math.exp(-i / (RATE * 0.003))
            out[start + i] += fade * (0.6 * rng.uniform(-1, 1) + 0.4 * math.sin(2 * math.pi * pitch * i / RATE))
        at += rng.uniform(0.02, 0.05) * (1 + 2 * at)
    return out


def _breach(rng: random.Random) -> list[float]:
    """A door giving way: a low falling thud with a rumble of noise."""
    n = int(RATE * 0.7)
    out = []
    phase = 0.0
    low = 0.0
    for i in range(n):
        t = i / RATE
        phase += 2 * math.pi * (110 - 70 * t / 0.7) / RATE
        low = 0.97 * low + 0.03 * rng.uniform(-1, 1)  # noise through a simple low-pass: a rumble
        out.append(math.exp(-t * 4.5) * (0.8 * math.sin(phase) + 2.5 * low))
    return out


def _reveal(_rng: random.Random) -> list[float]:
    """The ballots turned over: two rising bell tones."""
    out = [0.0] * int(RATE * 0.7)
    for start, pitch in ((0.0, 660.0), (0.16, 990.0)):
        first = int(start * RATE)
        for i in range(len(out) - first):
            t = i / RATE
            out[first + i] += 0.5 * math.exp(-t * 6) * (math.sin(2 * math.pi * pitch * t)
                                                        + 0.3 * math.sin(2 * math.pi * 2 * pitch * t))
    return out


SYNTHS: dict[str, Callable[[random.Random], list[float]]] = {"dice": _dice, "breach": _breach, "reveal": _reveal}


def synthesize(name: str) -> bytes:
    """The sound as a mono 16-bit WAV file's bytes (the same bytes every time)."""
    samples = SYNTHS[name](random.Random(name))
    peak = max(1e-9, max(abs(v) for v in samples))
    frames = b"".join(struct.pack("<h", int(24000 * v / peak)) for v in samples)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(frames)
    return buffer.getvalue()


def cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir("companion", appauthor=False)) / "sounds"


def sound_file(name: str, folder: Path | None = None) -> Path:
    """The sound's WAV file, made once in the cache (or `folder`)."""
    target = (folder or cache_dir()) / f"{name}-{VERSION}.wav"
    if not target.exists() or target.stat().st_size == 0:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".part")
        partial.write_bytes(synthesize(name))
        partial.replace(target)
    return target


# -- playing and speaking ---------------------------------------------------------------------------------------


def audio_device() -> bool:
    """Whether sound can come out here: a sound card, a PulseAudio or PipeWire server, or a driver named for SDL."""
    if os.environ.get("SDL_AUDIODRIVER") or os.environ.get("PULSE_SERVER"):
        return True
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and any((Path(runtime) / name).exists() for name in ("pulse/native", "pipewire-0")):
        return True
    return any(Path("/dev/snd").glob("pcmC*D*p"))


class KivyPlayer:
    """Plays WAV files through Kivy's SoundLoader (SDL's mixer). With no audio device it says so once and stays
    silent."""

    def __init__(self) -> None:
        self.sounds: dict[str, object] = {}
        self.working = audio_device()
        if not self.working:
            log.info("no audio device here: the table's sounds and voice are silent")

    def play(self, path: str, keep: bool = True) -> float:
        """Starts the file; returns its length in seconds (0: nothing was heard)."""
        if not self.working:
            return 0.0
        sound = self.sounds.get(path)
        if sound is None:
            from kivy.core.audio import SoundLoader

            sound = SoundLoader.load(path)
            if sound is None or not sound.length:
                self.working = False
                log.warning("no audio device: the table's sounds and voice are silent")
                return 0.0
            if keep:
                self.sounds[path] = sound
        sound.stop()
        sound.play()
        return float(sound.length)


class Voice:
    """espeak-ng: a text in a language to a WAV file (`espeak-ng -v <voice> -w <file>`)."""

    def __init__(self, binary: str | None = None):
        self.binary = binary if binary is not None else shutil.which("espeak-ng")
        self.voices = dict(VOICES)  # a voice this espeak-ng lacks gives way to its fallback, once

    @property
    def available(self) -> bool:
        return bool(self.binary)

    async def record(self, text: str, lang: str, path: Path) -> bool:
        if not self.binary:
            return False
        voice = self.voices.get(lang, "en")
        error = await self._run(voice, text, path)
        if error is not None and voice in FALLBACK_VOICES:  # an older espeak-ng, without the pinyin voice
            self.voices[lang] = voice = FALLBACK_VOICES[voice]
            error = await self._run(voice, text, path)
        if error is not None:
            log.warning("espeak-ng could not speak with the %s voice: %s", voice, error[:200])
            return False
        return path.exists() and path.stat().st_size > 44

    async def _run(self, voice: str, text: str, path: Path) -> str | None:
        """espeak-ng's error, or None once it has written the file."""
        process = await asyncio.create_subprocess_exec(
            self.binary, "-v", voice, "-w", str(path), "--", text,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        _, error = await process.communicate()
        return None if process.returncode == 0 else error.decode(errors="replace").strip()


class Sounds:
    """What the table hears of each step: its sounds unless `muted`, and its lines spoken when `speech` is on; the
    two switches are independent.

    `hear` is told the public lines a step brought; the sounds play in the order their lines came (each once a
    step), then the lines are spoken one at a time with a pause after each, never over each other.
    """

    def __init__(self, player=None, voice: Voice | None = None, muted: bool = False, speech: bool = False):
        self.player = player or KivyPlayer()
        self.voice = voice or Voice()
        self.muted = muted  # the sound effects' switch (off when True)
        self.speech = speech  # the voice's switch
        self.line_gap = LINE_GAP
        self.folder: Path | None = None  # where the sound files are (the user's cache by default)
        self._said: asyncio.Queue | None = None
        self._speaker: asyncio.Task | None = None

    @property
    def speaks(self) -> bool:
        """The voice is switched on and espeak-ng is here to speak."""
        return self.speech and self.voice.available

    def hearing(self) -> str:
        """What the table hears now, for the menu to say: "both", "effects", "voice", "nothing", or "no_speaker"
        (no audio device: nothing, whatever the switches)."""
        if not getattr(self.player, "working", True):
            return "no_speaker"
        return {(True, True): "both", (True, False): "effects", (False, True): "voice",
                (False, False): "nothing"}[(not self.muted, self.speaks)]

    def hear(self, lines: Sequence[tuple[str, str]], lang: str, game_sounds: Mapping[str, str]) -> None:
        """`lines`: the step's new public lines as (key, text in the screen's language)."""
        if not lines:
            return
        names: list[str] = []
        if not self.muted:
            for key, _text in lines:
                name = sound_for(key, game_sounds)
                if name is not None and name not in names:
                    names.append(name)
        loop = asyncio.get_running_loop()
        for n, name in enumerate(names):
            loop.call_later(n * GAP, self._play, name)
        if self.speaks:
            if self._said is None:
                self._said = asyncio.Queue()
                self._speaker = loop.create_task(self._speak_all())
            said = [line for line in (spoken(text, lang) for _key, text in lines) if line]
            self._said.put_nowait((said, lang, len(names) * GAP))

    def _play(self, name: str) -> None:
        if self.muted:
            return
        try:
            self.player.play(str(sound_file(name, self.folder)))
        except OSError as error:  # a cache that cannot be written: silent, the game goes on
            log.warning("the %s sound cannot be made: %s", name, error)

    async def _speak_all(self) -> None:
        folder = Path(tempfile.mkdtemp(prefix="companion-voice-"))
        count = 0
        while True:
            lines, lang, after = await self._said.get()
            try:
                await asyncio.sleep(after)  # the step's sounds first
                for text in lines:
                    if not self.speech:  # switched off: the lines still queued are not said
                        break
                    count += 1
                    path = folder / f"line{count % 4}.wav"
                    if await self.voice.record(text, lang, path):
                        await asyncio.sleep(self.player.play(str(path), keep=False))
                    await asyncio.sleep(self.line_gap)  # one line at a time: a breath after each
            finally:
                self._said.task_done()

    async def said(self) -> None:
        """Returns once every step's lines queued to be spoken have been said (or silenced by the voice's switch):
        a step's voice waits for its sounds, and steps come faster than they are said."""
        if self._said is not None:
            await self._said.join()

    def close(self) -> None:
        if self._speaker is not None:
            self._speaker.cancel()
            self._speaker = None
