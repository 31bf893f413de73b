"""What the table hears: the three sounds (made here, small and the same every time), which lines make them (the
game's SOUNDS, read through the game interface), the two switches (sound effects, voice) each on its own, and the
narration spoken by espeak-ng in the screen's language one line at a time (a recording stand-in, and one real
espeak-ng run per language when it is installed). The symbols said as words: tests/test_voice.py."""

from __future__ import annotations

import asyncio
import io
import random
import shutil
import time
import wave
from pathlib import Path

import pytest

from companion.contract import SOUND_NAMES
from companion.games import GAMES
from companion.simulate import random_game
from companion.ui import sound
from companion.ui.sound import LINE_GAP, VOICES, Sounds, Voice, sound_for


class Ears:
    """The speaker and espeak-ng, recorded instead of heard."""

    available = True

    def __init__(self):
        self.played: list[str] = []
        self.spoken: list[tuple[str, str]] = []
        self.spoken_at: list[float] = []

    def play(self, path: str, keep: bool = True) -> float:
        self.played.append(Path(path).stem.rsplit("-", 1)[0])
        return 0.0

    async def record(self, text: str, lang: str, path: Path) -> bool:
        self.spoken.append((text, lang))
        self.spoken_at.append(time.monotonic())
        return False


def hear(steps: list[list[tuple[str, str]]], lang: str = "en", **switches) -> Ears:
    """Each step's lines heard by a table whose sounds go to a recorder; waits for every sound and voice."""
    ears = Ears()

    async def run():
        sounds = Sounds(player=ears, voice=ears, **switches)
        sounds.line_gap = 0.05
        for lines in steps:
            sounds.hear(lines, lang, GAMES["mall-of-horror"].SOUNDS)
            await asyncio.sleep(1.2)
        sounds.close()

    asyncio.run(run())
    return ears


def test_each_sound_is_a_short_mono_wav_made_the_same_every_time(tmp_path):
    for name in SOUND_NAMES:
        data = sound.synthesize(name)
        with wave.open(io.BytesIO(data)) as wav:
            assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, sound.RATE)
            seconds = wav.getnframes() / wav.getframerate()
            frames = wav.readframes(wav.getnframes())
        assert 0.3 < seconds < 1.0 and len(data) < 40_000
        assert max(frames) > 0 and data == sound.synthesize(name)
        path = sound.sound_file(name, tmp_path)
        assert path.read_bytes() == data and sound.sound_file(name, tmp_path) == path


def test_a_line_makes_the_sound_of_its_key_or_of_its_family():
    sounds = {"mall.n.breach": "breach", "mall.n.reveal.dice": "reveal", "mall.n.odd": "trumpet"}
    assert sound_for("mall.n.breach.supermarket", sounds) == "breach"
    assert sound_for("mall.n.reveal.dice", sounds) == "reveal"
    assert sound_for("mall.n.reveal.destinations", sounds) is None
    assert sound_for("mall.n.odd.one", sounds) is None  # not one of the sounds a screen knows
    assert sound_for("mall.n.breachx", sounds) is None  # families end at a dot


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_sound_a_game_names_is_known_and_made_by_lines_of_its_games(name):
    rules = GAMES[name]
    named = getattr(rules, "SOUNDS", {})
    assert set(named.values()) <= set(SOUND_NAMES)
    keys: set[str] = set()
    for seed in range(6):
        _events, final = random_game(rules, ["red", "yellow", "blue", "green"], random.Random(seed))
        keys |= {line.message.key for line in rules.narration(final) if not line.seats}
    unused = [k for k in named if not any(key == k or key.startswith(k + ".") for key in keys)]
    assert not unused, f"SOUNDS names keys no game line has: {unused}"
    assert {sound_for(key, named) for key in keys} - {None} == set(named.values())


def test_a_step_plays_each_of_its_sounds_once_in_the_order_of_its_lines():
    ears = hear([[("mall.n.reveal.dice", "The zombie dice: 1 2 3 4"), ("mall.n.put.dice", "Put 2 zombies"),
                  ("mall.n.breach.defence", "The defence falls"), ("mall.n.breach.supermarket", "And again")],
                 [("mall.n.round", "Round 2 begins")]])
    assert ears.played == ["reveal", "breach"]
    assert ears.spoken == []  # the voice is off unless switched on


def test_the_sound_effects_switch_silences_the_sounds_and_leaves_the_voice():
    step = [("mall.n.arrival.roll", "The cup rolls"), ("mall.n.round", "Round 2")]
    ears = hear([step], muted=True, speech=True)
    assert ears.played == [] and ears.spoken == [("The cup rolls", "en"), ("Round 2", "en")]
    assert hear([step], muted=False, speech=True).played == ["dice"]
    both_off = hear([step], muted=True, speech=False)
    assert both_off.played == [] and both_off.spoken == []


def test_the_voice_switch_turned_off_stops_the_lines_still_queued():
    ears = Ears()

    async def run() -> None:
        sounds = Sounds(player=ears, voice=ears, speech=True)
        sounds.line_gap = 0.2
        sounds.hear([("mall.n.round", f"Line {n}") for n in range(5)], "en", {})
        await asyncio.sleep(0.3)  # the first two are said
        sounds.speech = False
        await sounds.said()
        sounds.close()

    asyncio.run(run())
    assert [text for text, _ in ears.spoken] == ["Line 0", "Line 1"]


def test_switched_on_every_line_is_spoken_on_its_own_in_order_in_the_screens_language():
    ears = hear([[("mall.n.vote.ballots", "Phiếu: Đỏ cho Xanh"), ("mall.n.kill.vote", "Đỏ bị ăn")],
                 [("mall.n.round", "Vòng 2 · bắt đầu")]], lang="vi", speech=True)
    assert ears.played == ["reveal"]
    assert ears.spoken == [("Phiếu: Đỏ cho Xanh", "vi"), ("Đỏ bị ăn", "vi"), ("Vòng 2, bắt đầu", "vi")]


def test_a_pause_follows_each_spoken_line():
    ears = Ears()

    async def run() -> None:
        sounds = Sounds(player=ears, voice=ears, speech=True)
        sounds.hear([("mall.n.round", "Round 2"), ("mall.n.put.dice", "Put Yellow → 4 Parking")], "en", {})
        await sounds.said()
        sounds.close()

    asyncio.run(run())
    assert [text for text, _ in ears.spoken] == ["Round 2", "Put Yellow to 4 Parking"]
    assert ears.spoken_at[1] - ears.spoken_at[0] >= LINE_GAP * 0.9 and LINE_GAP >= 0.3


def test_the_table_says_what_it_hears():
    ears = Ears()
    sounds = Sounds(player=ears, voice=ears)
    seen = []
    for muted, speech in ((False, False), (False, True), (True, True), (True, False)):
        sounds.muted, sounds.speech = muted, speech
        seen.append(sounds.hearing())
    assert seen == ["effects", "both", "voice", "nothing"]
    ears.available = False  # no espeak-ng: the voice's switch on says nothing
    sounds.muted = False
    assert sounds.hearing() == "effects" and not sounds.speaks
    ears.working = False  # no audio device
    assert sounds.hearing() == "no_speaker"


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (scripts/setup installs it)")
@pytest.mark.parametrize("lang, text", [("en", "Red rolled 4 and 5"), ("zh-Hans", "红掷出 4 和 5"),
                                        ("zh-Hant", "紅擲出 4 和 5"), ("vi", "Đỏ gieo được 4 và 5")])
def test_espeak_ng_speaks_each_language_into_a_wav(tmp_path, lang, text):
    path = tmp_path / f"{lang}.wav"
    assert asyncio.run(Voice().record(text, lang, path))
    with wave.open(str(path)) as wav:
        assert wav.getnframes() / wav.getframerate() > 0.5
    assert VOICES[lang] in ("en", "cmn-latn-pinyin", "vi")


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (scripts/setup installs it)")
def test_a_voice_espeak_ng_lacks_gives_way_to_its_fallback_once(tmp_path, monkeypatch):
    monkeypatch.setitem(sound.FALLBACK_VOICES, "nosuchvoice", "cmn")
    voice = Voice()
    voice.voices["zh-Hans"] = "nosuchvoice"
    assert asyncio.run(voice.record("红掷出 4 和 5", "zh-Hans", tmp_path / "zh.wav"))
    assert voice.voices["zh-Hans"] == "cmn"  # the next lines go straight to the fallback
    voice.voices["vi"] = "anothermissingvoice"  # with no fallback: silent, the game goes on
    assert not asyncio.run(voice.record("Đỏ", "vi", tmp_path / "vi.wav"))


def test_with_no_espeak_ng_the_voice_is_simply_unavailable(tmp_path):
    voice = Voice(binary="")
    assert not voice.available and not asyncio.run(voice.record("Round 2", "en", tmp_path / "x.wav"))


def test_said_returns_once_every_queued_step_is_spoken_though_steps_come_faster_than_their_sounds():
    ears = Ears()
    steps = [[("mall.n.breach.defence", f"The defence falls, {n}"), ("mall.n.reveal.dice", f"Dice {n}")]
             for n in range(4)]  # each step's voice waits for its two sounds (0.7 s)

    async def run() -> tuple[int, int]:
        sounds = Sounds(player=ears, voice=ears, speech=True)
        sounds.line_gap = 0.05
        for lines in steps:  # all at once: the voice queues them
            sounds.hear(lines, "en", GAMES["mall-of-horror"].SOUNDS)
        await asyncio.sleep(0)
        spoken_at_once = len(ears.spoken)
        await sounds.said()
        said = len(ears.spoken)
        sounds.close()
        return spoken_at_once, said

    at_once, said = asyncio.run(run())
    assert at_once == 0 and said == 8
    assert [text for text, _lang in ears.spoken] == [t for n in range(4) for t in (f"The defence falls, {n}",
                                                                                   f"Dice {n}")]
